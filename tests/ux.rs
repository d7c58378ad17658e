//! End-to-end tests of the flags grep and urlscan users reach for (issue
//! 19): `-m`, `--glob`/`--iglob`, `--tally`, `-A/-B/-C`, `--color`,
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
