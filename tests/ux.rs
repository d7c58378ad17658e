//! End-to-end tests of the flags grep and urlscan users reach for:
//! `-m`, `--glob`/`--iglob`, `--tally`, `-A/-B/-C`, `--color`,
//! `--hyperlink`. Each checks stdout, stderr and the exit status.

mod util;

use serde_json::Value;
use util::{mbox, run, run_stdin, tmp, write};

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

const THREE: &[u8] = b"<http://a.example/1> <http://a.example/2>\n\
<URL:ftp://b.example/x\n y> <http://a.example/1>\n\
<news:c.d>\n";

#[test]
fn max_count_per_input() {
    let d = tmp();
    write(d.path(), "a.txt", THREE);
    write(d.path(), "b.txt", b"<news:x.y> <news:z.w>\n");
    let r = run(d.path(), &["-m", "2", "a.txt", "b.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty());
    assert_eq!(
        lines(&r.out()),
        [
            "a.txt:http://a.example/1",
            "a.txt:http://a.example/2",
            "b.txt:news:x.y",
            "b.txt:news:z.w",
        ]
    );
    // Counts are capped too; -m 0 finds nothing (exit 1).
    let r = run(d.path(), &["-c", "--max-count=3", "a.txt", "b.txt"]);
    assert_eq!(r.out(), "a.txt:3\nb.txt:2\n");
    let r = run(d.path(), &["-m", "0", "a.txt"]);
    assert_eq!((r.code, r.out()), (1, String::new()));
    // With -u the cap counts what is printed: the repeated URL is skipped.
    let r = run(d.path(), &["-u", "-m", "3", "a.txt"]);
    assert_eq!(
        lines(&r.out()),
        [
            "http://a.example/1",
            "http://a.example/2",
            "ftp://b.example/xy"
        ]
    );
    let r = run_stdin(d.path(), &["-m", "1", "--json"], THREE);
    let v: Value = serde_json::from_str(r.out().trim()).unwrap();
    assert_eq!(v["url"], "http://a.example/1");
    assert!(run(d.path(), &["-m", "-1", "a.txt"]).code == 2);
}

#[test]
fn max_count_identical_at_any_thread_count_on_a_split_file() {
    // ~12 MiB: split into ranges searched at once with -j2; the cap falls
    // in a later range and applies to the file as a whole.
    let d = tmp();
    let (text, planted) = mbox(12 << 20);
    write(d.path(), "big.mbox", &text);
    let all = run(d.path(), &["-j1", "-n", "big.mbox"]);
    let cap = planted * 2 / 3;
    let want: String = all
        .out()
        .lines()
        .take(cap)
        .map(|l| format!("{l}\n"))
        .collect();
    for j in ["-j1", "-j2", "-j3"] {
        let r = run(d.path(), &[j, "-n", "-m", &cap.to_string(), "big.mbox"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.out() == want, "{j}");
        let c = run(d.path(), &[j, "-c", "-m", &cap.to_string(), "big.mbox"]);
        assert_eq!(c.out(), format!("{cap}\n"));
    }
}

#[test]
fn tally_counts_distinct_urls_with_first_place() {
    let d = tmp();
    write(d.path(), "a.txt", THREE);
    write(
        d.path(),
        "b.txt",
        b"x\n <HTTP://A.example/1> <news:c.d> <news:c.d>\n",
    );
    let r = run(d.path(), &["--tally", "a.txt", "b.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty());
    // Normalized as -u compares (scheme and host case); ties in first-seen
    // order; the text and place of the first occurrence.
    assert_eq!(
        lines(&r.out()),
        [
            "3\thttp://a.example/1\ta.txt:1:1",
            "3\tnews:c.d\ta.txt:4:1",
            "1\thttp://a.example/2\ta.txt:1:22",
            "1\tftp://b.example/xy\ta.txt:2:1",
        ]
    );
    let r = run(
        d.path(),
        &["--tally=first", "--no-filename", "a.txt", "b.txt"],
    );
    assert_eq!(
        lines(&r.out()),
        [
            "3\thttp://a.example/1\t1:1",
            "1\thttp://a.example/2\t1:22",
            "1\tftp://b.example/xy\t2:1",
            "3\tnews:c.d\t4:1",
        ]
    );
    let r = run(d.path(), &["--tally", "--json", "b.txt"]);
    let v: Value = serde_json::from_str(r.out().lines().next().unwrap()).unwrap();
    assert_eq!(v["url"], "news:c.d");
    assert_eq!(v["count"], 2);
    assert_eq!(v["path"], "b.txt");
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(2), Some(23))
    );
    // Nothing found: exit 1, no output; -c and --tally conflict.
    let r = run_stdin(d.path(), &["--tally"], b"no urls\n");
    assert_eq!((r.code, r.out()), (1, String::new()));
    let r = run(d.path(), &["--tally", "-c", "a.txt"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
}

#[test]
fn globs_select_walked_files_as_ripgrep() {
    let d = tmp();
    for (f, host) in [
        ("spool/a.mbox", "a"),
        ("spool/b.overview", "b"),
        ("spool/old/c.mbox", "c"),
        ("spool/sub/D.MBOX", "d"),
        ("spool/sub/e.txt", "e"),
    ] {
        write(
            d.path(),
            f,
            format!("<http://{host}.example/>\n").as_bytes(),
        );
    }
    let r = run(d.path(), &["-g", "*.mbox", "spool"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty());
    assert_eq!(
        lines(&r.out()),
        [
            "spool/a.mbox:http://a.example/",
            "spool/old/c.mbox:http://c.example/"
        ]
    );
    // '!' excludes (a directory pruned by a trailing '/'); --iglob ignores
    // case; the later glob wins.
    let r = run(
        d.path(),
        &["-g", "*.mbox", "-g", "!old/", "--iglob", "*.MBOX", "spool"],
    );
    assert_eq!(
        lines(&r.out()),
        [
            "spool/a.mbox:http://a.example/",
            "spool/sub/D.MBOX:http://d.example/"
        ]
    );
    let r = run(d.path(), &["--glob=!*.mbox", "--glob", "!sub/", "spool"]);
    assert_eq!(lines(&r.out()), ["spool/b.overview:http://b.example/"]);
    // A path given is searched whatever the globs.
    let r = run(d.path(), &["-g", "*.mbox", "spool/sub/e.txt"]);
    assert_eq!(r.out(), "http://e.example/\n");
    // Nothing selected: exit 1; a bad glob: exit 2 with a message.
    let r = run(d.path(), &["-g", "*.none", "spool"]);
    assert_eq!((r.code, r.out()), (1, String::new()));
    let r = run(d.path(), &["-g", "a[b", "spool"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("urlsift: --glob \"a[b\": "),
        "{}",
        r.stderr
    );
}

/// A URL broken over three reply-quoted lines, and one more further on.
const QUOTED: &[u8] = b"Hi,\n\
> > see <URL:http://www.example.com/a/\n\
> > very/long/\n\
> > path.html> for it\n\
> > thanks\n\
bye\n\
\n\
x\n\
y\n\
z <http://b.example/>\n\
end\n";

#[test]
fn context_shows_all_lines_of_a_broken_url() {
    let d = tmp();
    write(d.path(), "q.txt", QUOTED);
    let r = run(d.path(), &["-C", "1", "-n", "q.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty());
    assert_eq!(
        r.out(),
        "1-Hi,\n\
         2:> > see <URL:http://www.example.com/a/\n\
         3:> > very/long/\n\
         4:> > path.html> for it\n\
         5-> > thanks\n\
         --\n\
         9-y\n\
         10:z <http://b.example/>\n\
         11-end\n"
    );
    // -A and -B on their own side; paths with '-' for context lines; the
    // groups of two inputs separated too.
    let r = run(d.path(), &["-B", "2", "-A", "0", "-H", "q.txt", "q.txt"]);
    assert_eq!(
        lines(&r.out()),
        [
            "q.txt-Hi,",
            "q.txt:> > see <URL:http://www.example.com/a/",
            "q.txt:> > very/long/",
            "q.txt:> > path.html> for it",
            "--",
            "q.txt-x",
            "q.txt-y",
            "q.txt:z <http://b.example/>",
            "--",
            "q.txt-Hi,",
            "q.txt:> > see <URL:http://www.example.com/a/",
            "q.txt:> > very/long/",
            "q.txt:> > path.html> for it",
            "--",
            "q.txt-x",
            "q.txt-y",
            "q.txt:z <http://b.example/>",
        ]
    );
    // -C 0: just the URLs' lines; -m 1 the first URL's.
    let r = run(d.path(), &["-C0", "-m", "1", "q.txt"]);
    assert_eq!(
        r.out(),
        "> > see <URL:http://www.example.com/a/\n> > very/long/\n> > path.html> for it\n"
    );
    // Filters apply: only the news URL's line.
    let r = run_stdin(d.path(), &["-C", "1", "--scheme", "news"], QUOTED);
    assert_eq!((r.code, r.out()), (1, String::new()));
    // Conflicts with the modes that print no URLs.
    let r = run(d.path(), &["-C", "1", "-c", "q.txt"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
}

#[test]
fn context_escapes_controls_and_keeps_utf8() {
    let d = tmp();
    let r = run_stdin(
        d.path(),
        &["-A", "1"],
        "caf\u{e9} <news:a.b>\r\n\x1b]0;pwned\x07 \\ \u{ff}\n".as_bytes(),
    );
    assert_eq!(
        r.out(),
        "caf\u{e9} <news:a.b>\n\\x1b]0;pwned\\x07 \\\\ \u{ff}\n"
    );
    let r = run_stdin(d.path(), &["-A", "1"], b"<news:a.b>\n\xff\xfe\n");
    assert_eq!(r.out(), "<news:a.b>\n\\xff\\xfe\n");
}

#[test]
fn context_in_json_is_the_url_own_lines() {
    let d = tmp();
    let r = run_stdin(d.path(), &["--json", "-C", "2"], QUOTED);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Vec<Value> = r
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 2);
    assert_eq!(
        v[0]["lines"],
        serde_json::json!([
            "> > see <URL:http://www.example.com/a/",
            "> > very/long/",
            "> > path.html> for it"
        ])
    );
    assert_eq!(v[1]["lines"], serde_json::json!(["z <http://b.example/>"]));
    // Without context flags the objects are as before.
    let r = run_stdin(d.path(), &["--json"], QUOTED);
    assert!(!r.out().contains("\"lines\""));
    // Rejected candidates too, and -m cuts after whole objects.
    let bad = b"a <http://bad host/> b\n<http://x.y/>\n<http://bad2 host/>\n";
    let r = run_stdin(d.path(), &["--json", "--invalid", "-C1", "-m1"], bad);
    let v: Value = serde_json::from_str(r.out().trim_end()).unwrap();
    assert_eq!(v["lines"], serde_json::json!(["a <http://bad host/> b"]));
    assert!(v["reason"].as_str().unwrap().starts_with("not a URL"));
}

#[test]
fn context_across_pieces_of_a_large_input() {
    // 3 MiB of lines, one-line URLs every so often: the context output
    // equals grep's rule applied to the URL line numbers.
    let d = tmp();
    let mut text = Vec::new();
    let mut x = 7u64;
    for i in 0..120_000u64 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        if (x >> 33) % 11 == 0 {
            text.extend_from_slice(format!("l{i} <http://h{i}.example/>\n").as_bytes());
        } else {
            text.extend_from_slice(format!("l{i} filler text to make the lines long\n").as_bytes());
        }
    }
    write(d.path(), "big.txt", &text);
    let plain = run(d.path(), &["-n", "big.txt"]);
    let url_lines: Vec<usize> = plain
        .out()
        .lines()
        .map(|l| l.split(':').next().unwrap().parse().unwrap())
        .collect();
    let all: Vec<&str> = std::str::from_utf8(&text).unwrap().lines().collect();
    let (b, a) = (3usize, 2usize);
    let mut want = String::new();
    let mut last: Option<usize> = None;
    let mut shown = vec![false; all.len() + 1];
    for &l in &url_lines {
        let (from, to) = (l.saturating_sub(b).max(1), (l + a).min(all.len()));
        shown[from..=to].fill(true);
    }
    for k in 1..=all.len() {
        if !shown[k] {
            continue;
        }
        if last.is_some_and(|p| k > p + 1) {
            want.push_str("--\n");
        }
        last = Some(k);
        let sep = if url_lines.binary_search(&k).is_ok() {
            ':'
        } else {
            '-'
        };
        want.push_str(&format!("{k}{sep}{}\n", all[k - 1]));
    }
    let r = run(d.path(), &["-n", "-B", "3", "-A", "2", "-j2", "big.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.out() == want, "context output differs from grep's rule");
}

/// The plain output of `a.txt` with `--color always`, byte for byte.
#[test]
fn color_always_byte_for_byte() {
    let d = tmp();
    write(d.path(), "a.txt", b"x <http://a.example/>\n");
    let r = run(d.path(), &["--color", "always", "-H", "-n", "a.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        b"\x1b[35ma.txt\x1b[0m:\x1b[32m1\x1b[0m:\x1b[1;31mhttp://a.example/\x1b[0m\n"
    );
    let r = run(
        d.path(),
        &["--colour=always", "--hyperlink", "--column", "a.txt"],
    );
    assert_eq!(
        r.stdout,
        b"\x1b[32m3\x1b[0m:\x1b]8;;http://a.example/\x1b\\\x1b[1;31mhttp://a.example/\x1b[0m\x1b]8;;\x1b\\\n"
    );
    // With context: the URL highlighted inside its line.
    let r = run(d.path(), &["--color=always", "-C", "1", "a.txt"]);
    assert_eq!(r.stdout, b"x <\x1b[1;31mhttp://a.example/\x1b[0m>\n");
    // -c and -l colour their paths; JSON is never coloured.
    let r = run(d.path(), &["--color=always", "-l", "a.txt"]);
    assert_eq!(r.stdout, b"\x1b[35ma.txt\x1b[0m\n");
    let r = run(
        d.path(),
        &["--color=always", "--hyperlink", "--json", "a.txt"],
    );
    assert!(!r.stdout.contains(&0x1b));
}

#[test]
fn color_and_links_off_when_not_a_terminal() {
    let d = tmp();
    write(d.path(), "a.txt", b"x <http://a.example/>\n");
    for args in [
        &["--hyperlink", "-n", "a.txt"][..],
        &["--color", "auto", "--hyperlink", "a.txt"],
        &["--color", "never", "--hyperlink", "a.txt"],
        &["--tally", "--hyperlink", "a.txt"],
        &["-C", "1", "--hyperlink", "a.txt"],
    ] {
        let r = run(d.path(), args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(!r.stdout.contains(&0x1b), "{args:?}");
    }
}

/// Runs the command on a terminal (util-linux `script`), with `env`.
fn on_terminal(dir: &std::path::Path, args: &str, env: &[(&str, &str)]) -> Option<Vec<u8>> {
    let mut c = std::process::Command::new("script");
    c.args([
        "-qec",
        &format!("{} {args}", env!("CARGO_BIN_EXE_urlsift")),
        "/dev/null",
    ])
    .current_dir(dir)
    .env_remove("NO_COLOR")
    .env("TERM", "xterm");
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.stdin(std::process::Stdio::null()).output().ok()?;
    out.status.success().then_some(out.stdout)
}

#[test]
fn on_a_terminal_colour_honours_no_color_and_links_only_urls() {
    let d = tmp();
    write(d.path(), "a.txt", b"x <http://a.example/>\n");
    let Some(out) = on_terminal(d.path(), "-H --hyperlink a.txt", &[]) else {
        eprintln!("no `script` to run on a terminal: skipped");
        return;
    };
    let out = String::from_utf8(out).unwrap();
    assert_eq!(
        out.trim_end(),
        "\x1b[35ma.txt\x1b[0m:\x1b]8;;http://a.example/\x1b\\\x1b[1;31mhttp://a.example/\x1b[0m\x1b]8;;\x1b\\"
    );
    // NO_COLOR: no colours, links kept (a link is not a colour).
    let out = on_terminal(d.path(), "-H --hyperlink a.txt", &[("NO_COLOR", "1")]).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap().trim_end(),
        "a.txt:\x1b]8;;http://a.example/\x1b\\http://a.example/\x1b]8;;\x1b\\"
    );
    // No --hyperlink: colours only; --color never: nothing.
    let out = on_terminal(d.path(), "a.txt", &[]).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap().trim_end(),
        "\x1b[1;31mhttp://a.example/\x1b[0m"
    );
    let out = on_terminal(d.path(), "--color never --hyperlink a.txt", &[]).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap().trim_end(),
        "http://a.example/"
    );
}

/// Mail whose URLs only the MIME reading finds: an HTML-only
/// quoted-printable message (an `href` and a text URL, both across soft
/// line breaks), a base64 text part; plain mail; and a URL in a part that
/// is not text, which the MIME reading leaves out and `--raw` finds. The
/// base64 line is `one\nsee <http://b64.example/x> here\nthree\n`.
const MIME_MAIL: &str = "From a@example.org Mon Jan  1 00:00:00 1996
Subject: html only
MIME-Version: 1.0
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: quoted-printable
Message-ID: <m1@example.org>

<html><body><p>Hello</p>
<p>See <a href=3D\"http://html.example/pa=
ge\">the page</a> today.</p>
<p>And &lt;URL:http://text.example/=
q&gt; in text.</p>
</body></html>

From b@example.org Mon Jan  1 00:00:00 1996
Subject: base64
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary=\"XX\"

--XX
Content-Type: text/plain
Content-Transfer-Encoding: base64

b25lCnNlZSA8aHR0cDovL2I2NC5leGFtcGxlL3g+IGhlcmUKdGhyZWUK

--XX
Content-Type: application/octet-stream

raw <http://dropped.example/> in a part not read
--XX--

From c@example.org Mon Jan  1 00:00:00 1996
Subject: plain

Hi,
see <http://plain.example/> now
z <URL:ftp://ftp.example/a
 b> end
last
";

#[test]
fn context_shows_the_mime_reading_matches_at_their_raw_lines() {
    let d = tmp();
    write(d.path(), "m.mbox", MIME_MAIL.as_bytes());
    let r = run(d.path(), &["-n", "m.mbox"]);
    assert_eq!(
        lines(&r.out()),
        [
            "9:http://html.example/page",
            "11:http://text.example/q",
            "24:http://b64.example/x",
            "36:http://plain.example/",
            "37:ftp://ftp.example/ab",
        ]
    );
    // The same URLs, each with its raw lines (all of those its encoding
    // spans) and one line around; `--` between groups.
    let r = run(d.path(), &["-n", "-C1", "m.mbox"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty());
    assert_eq!(
        r.out(),
        "8-<html><body><p>Hello</p>\n\
         9:<p>See <a href=3D\"http://html.example/pa=\n\
         10:ge\">the page</a> today.</p>\n\
         11:<p>And &lt;URL:http://text.example/=\n\
         12:q&gt; in text.</p>\n\
         13-</body></html>\n\
         --\n\
         23-\n\
         24:b25lCnNlZSA8aHR0cDovL2I2NC5leGFtcGxlL3g+IGhlcmUKdGhyZWUK\n\
         25-\n\
         --\n\
         35-Hi,\n\
         36:see <http://plain.example/> now\n\
         37:z <URL:ftp://ftp.example/a\n\
         38: b> end\n\
         39-last\n"
    );
    // The raw reading keeps its own matches: not the encoded ones, but
    // the URL of the part that is not text.
    let r = run(d.path(), &["-n", "-C0", "--raw", "m.mbox"]);
    assert_eq!(
        lines(&r.out()),
        [
            "29:raw <http://dropped.example/> in a part not read",
            "--",
            "36:see <http://plain.example/> now",
            "37:z <URL:ftp://ftp.example/a",
            "38: b> end",
        ]
    );
    // JSON: each object its raw lines.
    let r = run(d.path(), &["--json", "-C1", "m.mbox"]);
    let v: Vec<Value> = r
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 5);
    assert_eq!(
        v[0]["lines"],
        serde_json::json!([
            "<p>See <a href=3D\"http://html.example/pa=",
            "ge\">the page</a> today.</p>"
        ])
    );
    assert_eq!(
        v[2]["lines"],
        serde_json::json!(["b25lCnNlZSA8aHR0cDovL2I2NC5leGFtcGxlL3g+IGhlcmUKdGhyZWUK"])
    );
}

/// The objects of `--json` output, without their `lines` (and `path`:
/// stdin has none).
fn json_objects(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let o = v.as_object_mut().unwrap();
            o.remove("lines");
            o.remove("path");
            v
        })
        .collect()
}

/// grep's rule over `text`: the lines of each match (from its line to the
/// line of the last byte of its spans, as `--json` gives them) with
/// `before` lines before and `after` after, `--` between groups.
fn grep_rule(text: &str, matches: &[Value], before: usize, after: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    let starts: Vec<u64> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(k, _)| k as u64 + 1))
        .collect();
    let line_of = |off: u64| starts.partition_point(|&s| s <= off);
    let mut own = vec![false; all.len() + 1];
    let mut shown = vec![false; all.len() + 1];
    for m in matches {
        let first = m["line"].as_u64().unwrap() as usize;
        assert_eq!(first, line_of(m["offset"].as_u64().unwrap()));
        let end = m["spans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s[1].as_u64().unwrap())
            .max()
            .unwrap();
        let last = line_of(end - 1);
        own[first..=last].fill(true);
        shown[first.saturating_sub(before).max(1)..=(last + after).min(all.len())].fill(true);
    }
    let mut out = String::new();
    let mut prev: Option<usize> = None;
    for k in 1..=all.len() {
        if !shown[k] {
            continue;
        }
        if prev.is_some_and(|p| k > p + 1) {
            out.push_str("--\n");
        }
        prev = Some(k);
        let sep = if own[k] { ':' } else { '-' };
        out.push_str(&format!("{k}{sep}{}\n", all[k - 1]));
    }
    out
}

#[test]
fn context_matches_are_those_printed_without_context() {
    // The mail above several times, and a forwarded message whose header
    // URL waits 20 KiB for its Message-ID (the MIME reading decides it
    // that late), at small pieces and two threads, file and stdin.
    let mut text = String::new();
    for _ in 0..3 {
        text.push_str(MIME_MAIL);
        text.push('\n');
    }
    text.push_str(
        "From d@example.org Mon Jan  1 00:00:00 1996\nSubject: fwd\nMIME-Version: 1.0\n\
         Content-Type: message/rfc822\n\nSubject: inner <http://inner.example/>\n",
    );
    for i in 0..280 {
        text.push_str(&format!("X-Pad-{i}: {}\n", "p".repeat(64)));
    }
    text.push_str("Message-ID: <inner@example.org>\n\nbody <http://body.example/>\n\n");
    text.push_str(MIME_MAIL);
    let d = tmp();
    write(d.path(), "m.mbox", text.as_bytes());
    let plain = run(d.path(), &["-n", "m.mbox"]);
    let json = run(d.path(), &["--json", "m.mbox"]);
    let want = json_objects(&json.out());
    assert_eq!(want.len(), 22);
    // `-n` and `--json` agree on the lines.
    let numbered: Vec<u64> = plain
        .out()
        .lines()
        .map(|l| l.split(':').next().unwrap().parse().unwrap())
        .collect();
    let json_lines: Vec<u64> = want.iter().map(|m| m["line"].as_u64().unwrap()).collect();
    assert_eq!(numbered, json_lines);
    let rule = grep_rule(&text, &want, 2, 1);
    // Each URL's own raw lines, as `--json` with context gives them.
    let own_lines: Vec<Value> = want
        .iter()
        .map(|m| {
            let own = grep_rule(&text, std::slice::from_ref(m), 0, 0);
            own.lines()
                .map(|l| l.split_once(':').unwrap().1.to_string())
                .collect()
        })
        .collect();
    for piece in ["100", "1000", "65536"] {
        for j in ["-j1", "-j2"] {
            for input in ["m.mbox", "-"] {
                let args = ["-n", "-B2", "-A1", "--piece-size", piece, j, input];
                let r = util::run_stdin(d.path(), &args, text.as_bytes());
                assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
                assert!(r.out() == rule, "{args:?}:\n{}", r.out());
                let args = ["--json", "-C1", "--piece-size", piece, j, input];
                let r = util::run_stdin(d.path(), &args, text.as_bytes());
                assert_eq!(json_objects(&r.out()), want, "{args:?}");
                // Each object's `lines`: its own raw lines.
                let own: Vec<Value> = r
                    .out()
                    .lines()
                    .map(|l| serde_json::from_str::<Value>(l).unwrap()["lines"].clone())
                    .collect();
                assert_eq!(own, own_lines, "{args:?}");
            }
        }
    }
}
