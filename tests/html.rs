//! HTML parts of mail (contract rules 18-22): laws over generated mail.
//! The cases themselves are data (`tests/data/mime/html.txt`, run by
//! `tests/mime.rs` through every front end).

mod common;

use common::*;
use proptest::prelude::*;
use urlsift::{HtmlMode, Match, PushScanner, Scanner};

/// What a match says, positions included.
fn key(m: &Match) -> String {
    format!(
        "{} {:?} {}:{} @{}..{} {:?} {:?} {:?} {} {:?}",
        m.as_str(),
        m.form(),
        m.line(),
        m.column(),
        m.offset(),
        m.end(),
        m.spans(),
        m.encoding(),
        m.content_type(),
        m.is_valid(),
        m.anchor()
    )
}

fn keys(ms: &[Match]) -> Vec<String> {
    ms.iter().map(key).collect()
}

/// Pieces of HTML as mail writes it, markup that needs look-ahead cut
/// anywhere by the generator's concatenation.
const PIECES: &str = "(<a href=\"http://a\\.example/x\">|<A HREF=http://b\\.example/>|</a>|<br>|<p>|</div>\n|\
&lt;|&gt;|&amp;|&#60;|&#x3E;|&lt|http://c\\.example/p|URL:|<!--|-->|<!--\\[if mso\\]>|<!\\[endif\\]-->|\
<script>|</script>|<title>|</title>|<b>|<wbr>|\n|  |x|<|>|&|=3D|=\n|<a title='a > b' href='mailto:x@y\\.example'>)";

/// A message of `body` in one of three encodings (0: 8bit, 1:
/// quoted-printable as written, 2: base64 of it), in a multipart beside
/// a plain text part or alone.
fn message(body: &str, enc: u8, alternative: bool) -> Vec<u8> {
    let (cte, text) = match enc {
        0 => ("8bit", body.to_string()),
        1 => ("quoted-printable", body.to_string()),
        _ => ("base64", base64(body.as_bytes())),
    };
    let part = format!("Content-Type: text/html\nContent-Transfer-Encoding: {cte}\n\n{text}\n");
    if alternative {
        format!(
            "Content-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\n\
             Plain <http://p.example/>\n--b\n{part}--b--\n"
        )
        .into_bytes()
    } else {
        format!(
            "Subject: x\nContent-Type: multipart/mixed; boundary=b\n\n--b\n{part}--b\n\
                 Content-Type: text/plain\n\nAfter <http://after.example/>\n--b--\n"
        )
        .into_bytes()
    }
}

fn base64(data: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (i, c) in data.chunks(3).enumerate() {
        let v = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for k in 0..c.len() + 1 {
            out.push(A[(v >> (18 - 6 * k) & 63) as usize] as char);
        }
        if (i + 1) % 19 == 0 {
            out.push('\n');
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Chunking changes nothing: any cut of the input, every front end,
    /// gives the matches the whole input gives (HTML read, rejected
    /// candidates and naked URLs too).
    #[test]
    fn any_split_gives_the_same_matches(
        body in proptest::collection::vec(PIECES, 0..60),
        enc in 0u8..3,
        alternative in any::<bool>(),
        always in any::<bool>(),
        naked in any::<bool>(),
        seed in any::<u64>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let data = message(&body.concat(), enc, alternative);
        let mode = if always { HtmlMode::Always } else { HtmlMode::Fallback };
        let s = Scanner::new().html(mode).rejected(true).naked(naked);
        let whole = keys(&s.extract(&data));
        for (label, got) in all_front_ends(s, &data, seed) {
            prop_assert_eq!(keys(&got), whole.clone(), "{}", label);
        }
        let cut = cut.index(data.len() + 1);
        let mut push = PushScanner::with_buffer(s, 1);
        let mut got = Vec::new();
        push.feed_each(&data[..cut], &mut |m| got.push(key(m)));
        push.feed_each(&data[cut..], &mut |m| got.push(key(m)));
        push.finish_each(&mut |m| got.push(key(m)));
        prop_assert_eq!(got, whole);
    }

    /// A part read with `--html never` gives what the reading without HTML
    /// gave: the matches outside HTML parts are the same, where they were.
    #[test]
    fn never_is_the_reading_without_html(
        body in proptest::collection::vec(PIECES, 0..60),
        enc in 0u8..3,
        alternative in any::<bool>(),
    ) {
        let data = message(&body.concat(), enc, alternative);
        let never = keys(&Scanner::new().html(HtmlMode::Never).extract(&data));
        let read: Vec<String> = Scanner::new()
            .extract(&data)
            .iter()
            .filter(|m| m.content_type() != Some("text/html"))
            .map(key)
            .collect();
        prop_assert_eq!(never, read);
        // Without HTML in the input the three modes agree.
        let plain = data.iter().map(|&b| if b == b'<' { b'(' } else { b }).collect::<Vec<u8>>();
        let plain = String::from_utf8_lossy(&plain).replace("text/html", "text/plain");
        let f = keys(&Scanner::new().extract(plain.as_bytes()));
        prop_assert_eq!(keys(&Scanner::new().html(HtmlMode::Never).extract(plain.as_bytes())), f);
    }
}

/// A base64 part whose href value starts in a group that straddles a line
/// break: every front end places it at the group's first character.
#[test]
fn base64_href_in_a_group_across_lines() {
    let body = [
        "URL:",
        "<a title='a > b' href='mailto:x@y.example'>",
        "x",
        "x",
        "x",
        "<p>",
        "-->",
        "  ",
        "x",
        "URL:",
        "  ",
        "=3D",
        "<A HREF=http://b.example/>",
        "=\n",
        "<A HREF=http://b.example/>",
        "<A HREF=http://b.example/>",
        "<a title='a > b' href='mailto:x@y.example'>",
    ]
    .concat();
    let data = message(&body, 2, false);
    let s = Scanner::new();
    let whole = keys(&s.extract(&data));
    for (label, got) in all_front_ends(s, &data, 0) {
        assert_eq!(keys(&got), whole, "{label}");
    }
}
