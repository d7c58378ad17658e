//! Mail as it arrives: MIME (contract rules 10-13), as data-driven cases
//! (`tests/data/mime/*.txt`, format in `tests/common/mod.rs`) through every
//! front end, chunk-size invariance across encoded text, and the laws that
//! tie the MIME reading to the raw one.

mod common;

use common::*;
use proptest::prelude::*;
use urlsift::{Encoding, Match, PushScanner, Scanner};

fn cases() -> Vec<Case> {
    load_dir("tests/data/mime")
}

/// What a match says, positions included, for comparing front ends.
fn key(m: &Match) -> String {
    format!(
        "{} {}:{} @{}..{} {:?} {:?} {:?} {:?}",
        m.as_str(),
        m.line(),
        m.column(),
        m.offset(),
        m.end(),
        m.spans(),
        m.encoding(),
        m.content_type(),
        m.forwarded_message_id()
    )
}

/// The matches of `mail` fed in two parts cut at `cut`, with the engine
/// scanning as soon as it can (the most eager a stream can be).
fn fed_cut_at(mail: &[u8], cut: usize) -> Vec<String> {
    let mut push = PushScanner::with_buffer(Scanner::new(), 1);
    let mut got = Vec::new();
    push.feed_each(&mail[..cut], &mut |m| got.push(key(m)));
    push.feed_each(&mail[cut..], &mut |m| got.push(key(m)));
    push.finish_each(&mut |m| got.push(key(m)));
    got
}

fn keys(ms: &[Match]) -> Vec<String> {
    ms.iter().map(key).collect()
}

#[test]
fn mime_cases_every_front_end() {
    run_cases(&cases(), |c| {
        let mut errs = Vec::new();
        let whole = c.scanner().extract(&c.input);
        errs.extend(check(c, &whole));
        for (label, got) in all_front_ends(c.scanner(), &c.input, 7) {
            if keys(&got) != keys(&whole) {
                errs.push(format!(
                    "{label}: {:?} != extract {:?}",
                    keys(&got),
                    keys(&whole)
                ));
            }
        }
        errs
    });
}

#[test]
fn every_mime_rule_is_covered() {
    let cs = cases();
    for rule in ["10", "11", "12", "13"] {
        assert!(
            cs.iter()
                .any(|c| c.rule.split([' ', ',', ';']).any(|w| w == rule)),
            "no case for rule {rule}"
        );
    }
}

/// A quoted-printable message whose URL holds a soft break, an escaped
/// `<`, an escaped `=`; and a base64 part: split at every byte, fed in
/// two pushes, the answer is the same.
#[test]
fn every_split_point_gives_the_same_matches() {
    let mail = b"From a@example.org Mon Jan  1 00:00:00 2024\n\
Content-Type: multipart/mixed; boundary=\"b\"\n\
\n\
--b\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
x =3CURL:http://qp.example/a=3Db/lo=\n\
ng/path> and <http://qp.example/=\n\
two>\n\
--b\n\
Content-Type: text/plain\n\
Content-Transfer-Encoding: base64\n\
\n\
eCA8aHR0cDovL3Nw\n\
bGl0LmV4YW1wbGUvYT4K\n\
--b--\n"
        .to_vec();
    let s = Scanner::new();
    let whole = keys(&s.extract(&mail));
    assert_eq!(whole.len(), 3, "{whole:?}");
    for cut in 0..=mail.len() {
        let mut push = PushScanner::with_buffer(s, 1);
        let mut got = Vec::new();
        push.feed_each(&mail[..cut], &mut |m| got.push(key(m)));
        push.feed_each(&mail[cut..], &mut |m| got.push(key(m)));
        push.finish_each(&mut |m| got.push(key(m)));
        assert_eq!(got, whole, "cut at {cut}");
    }
}

/// Header lines read in bulk (fields of no interest, continuations, lines
/// that are no field) and the ones looked at closely (`Content-*` after
/// them, its continuation after a line that is no field, a `From ` line):
/// split at every byte, the same matches, header URLs at their raw lines.
#[test]
fn header_lines_read_alike_at_every_split() {
    let mail = b"From a@example.org Mon Jan  1 00:00:00 2024\n\
Received: from x by y;\n\
\tfor <http://recv.example/a>; Mon\n\
X-Archive: <http://list.example/arch>\n\
no field here\n\
Content-Type: multipart/mixed;\n\
not a field either\n\
\x20boundary=\"b\"\n\
Subject: <http://subj.example/s>\n\
\x20continued <http://cont.example/c>\n\
\n\
--b\n\
X-Part: <http://part.example/p>\n\
content-transfer-encoding: quoted-printable\n\
\n\
=3Chttp://qp.example/q>\n\
--b--\n\
\n\
From b@example.org Mon Jan  1 00:00:00 2024\n\
Reply-To: <http://next.example/n>\n\
\n\
body <http://body.example/b>\n"
        .to_vec();
    let s = Scanner::new();
    let found = s.extract(&mail);
    let urls: Vec<String> = found.iter().map(|m| m.as_str().into_owned()).collect();
    assert_eq!(
        urls,
        [
            "http://recv.example/a",
            "http://list.example/arch",
            "http://subj.example/s",
            "http://cont.example/c",
            "http://part.example/p",
            "http://qp.example/q",
            "http://next.example/n",
            "http://body.example/b",
        ]
    );
    assert_eq!(found[5].encoding(), Some(Encoding::QuotedPrintable));
    for m in &found {
        let before = &mail[..m.offset() as usize];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
        assert_eq!(m.line(), line, "{}", m.as_str());
    }
    let whole = keys(&found);
    for cut in 0..=mail.len() {
        let mut push = PushScanner::with_buffer(s, 1);
        let mut got = Vec::new();
        push.feed_each(&mail[..cut], &mut |m| got.push(key(m)));
        push.feed_each(&mail[cut..], &mut |m| got.push(key(m)));
        push.finish_each(&mut |m| got.push(key(m)));
        assert_eq!(got, whole, "cut at {cut}");
    }
}

/// A header line whose first word runs on longer than the reader holds
/// before a colon is a field (so a continuation after it does not join the
/// `Content-Transfer-Encoding` before) however the input is cut: whether
/// it is one is decided by the bytes after the cut.
#[test]
fn a_field_name_longer_than_the_hold_reads_alike_in_any_chunks() {
    let long = "x".repeat(2000);
    let mail = format!(
        "Content-Transfer-Encoding: quoted-printable\n\
         {long}<URL:http://a.example/>\n\
         \x20 y/z\n\
         \n\
         <http://q.example/a=\nb=3Dc>\n"
    );
    let mail = mail.as_bytes();
    let s = Scanner::new();
    let whole = keys(&s.extract(mail));
    assert!(
        whole
            .iter()
            .any(|k| k.starts_with("http://q.example/ab=c ")),
        "{whole:?}"
    );
    for size in (1..40).chain(900..1100) {
        let mut push = PushScanner::with_buffer(s, 1);
        let mut got = Vec::new();
        for chunk in mail.chunks(size) {
            push.feed_each(chunk, &mut |m| got.push(key(m)));
        }
        push.finish_each(&mut |m| got.push(key(m)));
        assert_eq!(got, whole, "chunks of {size}");
    }
}

#[test]
fn encoded_matches_say_where_they_were_found() {
    let c = cases();
    let fwd = find_case(&c, "rules.txt:forwarded-message");
    let found = fwd.scanner().extract(&fwd.input);
    assert_eq!(found[0].encoding(), None);
    assert_eq!(found[0].content_type(), None, "a header line");
    assert_eq!(found[1].encoding(), Some(Encoding::QuotedPrintable));
    assert_eq!(found[1].content_type(), Some("text/plain"));
    assert_eq!(found[0].forwarded_message_id(), None);
    let b64 = find_case(&c, "rules.txt:base64-text-part");
    let found = b64.scanner().extract(&b64.input);
    assert_eq!(found[0].encoding().map(Encoding::as_str), Some("base64"));
}

/// A URL in a forwarded message (headers included) carries that
/// message's Message-ID; after the forwarded part, none again.
#[test]
fn forwarded_messages_have_their_message_id() {
    let mail = b"Message-ID: <outer@example.org>\n\
Content-Type: multipart/mixed; boundary=o\n\
\n\
--o\n\
\n\
outer <http://outer.example/a>\n\
--o\n\
Content-Type: message/rfc822\n\
\n\
List-Archive: <http://lists.example/>\n\
message-id:\n\
\x20 <fwd@example.org>\n\
Content-Type: multipart/alternative; boundary=i\n\
\n\
--i\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
inner <http://inner.example/=3D>\n\
--i--\n\
--o\n\
\n\
after <http://after.example/>\n\
--o--\n";
    let found = Scanner::new().extract(mail);
    let ids: Vec<(String, Option<&str>)> = found
        .iter()
        .map(|m| (m.as_str().into_owned(), m.forwarded_message_id()))
        .collect();
    assert_eq!(
        ids,
        [
            ("http://outer.example/a".to_string(), None),
            (
                "http://lists.example/".to_string(),
                Some("<fwd@example.org>")
            ),
            (
                "http://inner.example/=".to_string(),
                Some("<fwd@example.org>")
            ),
            ("http://after.example/".to_string(), None),
        ]
    );
}

/// Content types are compared without case and reported in lower case; a
/// multipart with no boundary is plain text; a type that is not ASCII
/// `text` is no text.
#[test]
fn content_types_any_case() {
    let mail = b"Content-Type: multipart/mixed; boundary=b\n\n--b\n\
Content-Type: Text/Plain\n\n<http://a.example/>\n--b\n\
Content-Type: TEXT/X-Foo; charset=\"x\\\"y\"\n\n<http://b.example/>\n--b\n\
Content-Type: text/plain\n\n<http://c.example/>\n--b\n\
Content-Type: Multipart/Mixed\n\n<http://d.example/>\n--b\n\
Content-Type: t\xe9xt/plain\n\n<http://e.example/>\n--b\n\
Content-Type: message/News\n\nSubject: x\n\n<http://f.example/>\n--b--\n";
    let types: Vec<(String, Option<String>)> = Scanner::new()
        .extract(mail)
        .iter()
        .map(|m| (m.as_str().into_owned(), m.content_type().map(str::to_owned)))
        .collect();
    let want = [
        ("http://a.example/", Some("text/plain")),
        ("http://b.example/", Some("text/x-foo")),
        ("http://c.example/", Some("text/plain")),
        ("http://d.example/", Some("text/plain")),
        ("http://f.example/", Some("text/plain")),
    ];
    let want: Vec<(String, Option<String>)> = want
        .iter()
        .map(|(u, c)| (u.to_string(), c.map(str::to_owned)))
        .collect();
    assert_eq!(types, want);
}

/// Whether a URL in a forwarded message's header gets that message's id
/// does not depend on where the input was cut, even when the id comes
/// after the URL; an id further than the window waited for (32 KiB) is
/// given up, wherever the cut.
#[test]
fn a_forwarded_header_waits_for_its_message_id_at_every_cut() {
    let mail = |filler: usize| {
        format!(
            "Content-Type: multipart/mixed; boundary=o\n\n--o\n\
             Content-Type: message/rfc822\n\n\
             X-Archive: <http://archive.example/>\n\
             X-Filler: {}\n\
             Message-ID: <fwd@example.org>\n\n\
             body <http://body.example/>\n--o--\n",
            "f".repeat(filler)
        )
        .into_bytes()
    };
    let id = |mail: &[u8]| -> Vec<Option<String>> {
        Scanner::new()
            .extract(mail)
            .iter()
            .map(|m| m.forwarded_message_id().map(str::to_owned))
            .collect()
    };
    let fwd = Some("<fwd@example.org>".to_string());
    let near = mail(40);
    assert_eq!(id(&near), [fwd.clone(), fwd.clone()]);
    let whole = keys(&Scanner::new().extract(&near));
    for cut in 0..=near.len() {
        assert_eq!(fed_cut_at(&near, cut), whole, "cut at {cut}");
    }
    let far = mail(40 * 1024);
    assert_eq!(id(&far), [None, fwd]);
    let whole = keys(&Scanner::new().extract(&far));
    for cut in (0..=far.len())
        .step_by(997)
        .chain(far.len() - 200..far.len())
    {
        assert_eq!(fed_cut_at(&far, cut), whole, "cut at {cut}");
    }
}

/// Malformed MIME is never an error, and memory stays bounded: a header
/// block that never ends, a base64 line of megabytes, absurd nesting.
#[test]
fn hostile_mail_is_read_in_bounded_memory() {
    let mut header = b"Content-Type: text/plain\n".to_vec();
    header.extend(
        std::iter::repeat(b"X-Long: aaaaaaaaaaaaaaaaaaaaa\n")
            .take(100_000)
            .flatten(),
    );
    header.extend_from_slice(b"X-Url: <http://end.example/>\n");
    let found = Scanner::new().extract(&header);
    assert_eq!(found.len(), 1);

    let mut b64 = b"Content-Transfer-Encoding: base64\n\n".to_vec();
    b64.extend(std::iter::repeat(b"QUFB").take(1 << 20).flatten());
    b64.extend_from_slice(b"PGh0dHA6Ly94LmV4YW1wbGUvPg==\n");
    let found = Scanner::new().extract(&b64);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].as_str(), "http://x.example/");
    assert_eq!((found[0].line(), found[0].column()), (3, 4 * (1 << 20) + 1));

    let mut nest = Vec::new();
    for i in 0..5000 {
        nest.extend_from_slice(
            format!("Content-Type: multipart/mixed; boundary=b{i}\n\n--b{i}\n").as_bytes(),
        );
    }
    nest.extend_from_slice(b"\n<http://nest.example/>\n");
    let found = Scanner::new().extract(&nest);
    assert_eq!(found.len(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Without MIME headers, the MIME reading is the raw reading (rule 10).
    #[test]
    fn no_mime_headers_reads_as_raw(text in "(From x\n|\n|[a-z:= ]{0,6}|<http://a.b/c>|<URL:ftp://h/\n p>|=3D|=\n|--b\n){0,40}") {
        let data = text.as_bytes();
        let raw = keys(&Scanner::new().mime(false).extract(data));
        let mime = keys(&Scanner::new().extract(data));
        prop_assert_eq!(raw, mime);
    }

    /// The raw option is the old reading: every front end gives what the
    /// one-pass raw scan gives, on any bytes.
    #[test]
    fn raw_front_ends_agree(data in proptest::collection::vec(any::<u8>(), 0..300), seed in any::<u64>()) {
        let s = Scanner::new().mime(false);
        let whole = keys(&s.extract(&data));
        for (label, got) in all_front_ends(s, &data, seed) {
            prop_assert_eq!(keys(&got), whole.clone(), "{}", label);
        }
    }

    /// A base64 body (decoded text with line breaks inside groups, stray
    /// bytes and raw line breaks anywhere): whole groups decoded at once
    /// give what the byte-at-a-time decoding gives (tiny chunks), each
    /// match at the first character of the group holding its `<`.
    #[test]
    fn base64_groups_read_as_bytes(
        text in "(<http://a\\.b/c>|<URL:ftp://h/\n p>|x|\n|  ){1,12}",
        breaks in proptest::collection::vec((0usize..400, 0usize..3), 0..12),
        seed in any::<u64>(),
    ) {
        let mut body = base64(text.as_bytes());
        let mut cuts = breaks;
        cuts.sort();
        for &(at, what) in cuts.iter().rev() {
            let at = at.min(body.len());
            let stray: &[u8] = [&b"\n"[..], b"\r\n", b"*!"][what];
            body.splice(at..at, stray.iter().copied());
        }
        let mut data = b"Content-Transfer-Encoding: base64\n\n".to_vec();
        data.extend_from_slice(&body);
        let s = Scanner::new();
        let found = s.extract(&data);
        for m in &found {
            let before = &data[..m.offset() as usize];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
            let col = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count() as u64;
            prop_assert_eq!((m.line(), m.column()), (line, col));
            prop_assert!(base64_alphabet(data[m.offset() as usize]));
            prop_assert_eq!(m.encoding(), Some(Encoding::Base64));
        }
        let whole = keys(&found);
        prop_assert_eq!(whole.len(), text.matches('<').count());
        for (label, got) in all_front_ends(s, &data, seed) {
            prop_assert_eq!(keys(&got), whole.clone(), "{}", label);
        }
    }

    /// MIME reading of mail-like input never panics and gives the same
    /// matches whatever the chunking.
    #[test]
    fn mime_front_ends_agree(text in "(From x\n|\n|Content-Type: (multipart/mixed; boundary=b|text/html|text/plain|message/rfc822)\n|Content-Transfer-Encoding: (base64|quoted-printable)\n|--b(--)?\n|<http://a.b/c>|=3C|=\n|PGh0dHA6Ly9hLmIvPg|[a-zA-Z0-9+/= ]{0,5}){0,40}", seed in any::<u64>()) {
        let data = text.as_bytes();
        let s = Scanner::new();
        let found = s.extract(data);
        // Rule 13: every match at raw bytes, its line and column those of
        // its offset.
        for m in &found {
            let before = &data[..m.offset() as usize];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
            let col = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count() as u64;
            prop_assert_eq!((m.line(), m.column()), (line, col));
            prop_assert!(m.end() <= data.len() as u64);
        }
        let whole = keys(&found);
        for (label, got) in all_front_ends(s, data, seed) {
            prop_assert_eq!(keys(&got), whole.clone(), "{}", label);
        }
    }
}

fn base64_alphabet(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

/// Standard base64 with padding, 76 characters a line.
fn base64(data: &[u8]) -> Vec<u8> {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    for (i, g) in data.chunks(3).enumerate() {
        if i > 0 && i % 19 == 0 {
            out.push(b'\n');
        }
        let n = g.iter().fold(0u32, |n, &b| n << 8 | b as u32) << (8 * (3 - g.len()));
        for k in 0..4 {
            out.push(if k <= g.len() {
                A[(n >> (18 - 6 * k) & 63) as usize]
            } else {
                b'='
            });
        }
    }
    out.push(b'\n');
    out
}

/// Each entity's header block starts empty: the content type, transfer
/// encoding and field lines of the one before (whose buffers serve again)
/// are not carried to the next part, nor to the next message.
#[test]
fn a_header_block_leaves_nothing_to_the_next() {
    let mail = b"From a@b Thu Jan  1 00:00:00 1998\n\
        Content-Type: multipart/mixed;\n boundary=\"b\"\n\n\
        --b\nContent-Type: text/html;\n charset=us-ascii\n\
        Content-Transfer-Encoding: quoted-printable\n\n\
        <a href=3D\"http://h.example/a=3Db\">x</a>\n\
        --b\n\n<URL:http://p.example/a=3Db>\n--b--\n\n\
        From c@d Thu Jan  1 00:00:00 1998\n\n<URL:http://q.example/a=3Db>\n";
    let got: Vec<(String, Option<Encoding>)> = Scanner::new()
        .extract(mail)
        .iter()
        .map(|m| (m.as_str().into_owned(), m.encoding()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "http://h.example/a=b".into(),
                Some(Encoding::QuotedPrintable)
            ),
            ("http://p.example/a=3Db".into(), None),
            ("http://q.example/a=3Db".into(), None),
        ]
    );
}
