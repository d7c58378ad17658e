//! End-to-end tests of the `urlsift` command on temporary files.
//!
//! Rules cited: RFC 1738 sections (2.1 scheme case, 5 grammar, Appendix
//! "Recommendations for URLs in Context") and the extraction contract's
//! numbered rules (`docs/rules.md`).

mod util;

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;

use serde_json::Value;
use util::{bin, gzip, mbox, run, run_stdin, tmp, write};

const TEXT: &[u8] = b"Hello,\n\
see <URL:http://www.w3.org/hyper\n  text/> and <ftp://ds.internic.net/rfc/>\n\
> quoted <URL:gopher://spinaltap.micro.umn.edu/\n> 00/Weather> ok\n\
<Re: hello> map<std::string, int> <http://bad host/>\n";

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

#[test]
fn appendix_forms_plain_output() {
    // RFC 1738 Appendix: <URL:...> wrapped, <scheme:...> bracketed; contract
    // rules 3 and 4 (whitespace, reply quoting).
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    let r = run(d.path(), &["a.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        lines(&r.out()),
        [
            "http://www.w3.org/hypertext/",
            "ftp://ds.internic.net/rfc/",
            "gopher://spinaltap.micro.umn.edu/00/Weather",
        ]
    );
    assert!(r.stderr.is_empty());
}

#[test]
fn stdin_and_dash() {
    let d = tmp();
    let r = run_stdin(d.path(), &[], TEXT);
    assert_eq!(r.code, 0);
    assert_eq!(r.out().lines().count(), 3);
    let r2 = run_stdin(d.path(), &["-"], TEXT);
    assert_eq!(r2.stdout, r.stdout);
    let r3 = run_stdin(d.path(), &["-H", "-"], TEXT);
    assert!(r3.out().starts_with("(standard input):http://"));
}

#[test]
fn with_filename_and_no_filename() {
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    write(d.path(), "b.txt", b"<news:comp.mail.mime>\n");
    let r = run(d.path(), &["a.txt", "b.txt"]);
    assert_eq!(lines(&r.out())[3], "b.txt:news:comp.mail.mime");
    assert!(lines(&r.out())[0].starts_with("a.txt:http://"));
    let r = run(d.path(), &["--no-filename", "a.txt", "b.txt"]);
    assert_eq!(lines(&r.out())[3], "news:comp.mail.mime");
    let r = run(d.path(), &["-H", "b.txt"]);
    assert_eq!(r.out(), "b.txt:news:comp.mail.mime\n");
    let r = run(d.path(), &["--with-filename", "b.txt"]);
    assert_eq!(r.out(), "b.txt:news:comp.mail.mime\n");
}

#[test]
fn line_number_and_column_of_opening_bracket() {
    // Contract rule 9: line, column of the opening '<'.
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    let r = run(d.path(), &["-n", "--column", "a.txt"]);
    assert_eq!(
        lines(&r.out()),
        [
            "2:5:http://www.w3.org/hypertext/",
            "3:14:ftp://ds.internic.net/rfc/",
            "4:10:gopher://spinaltap.micro.umn.edu/00/Weather",
        ]
    );
    let r = run(d.path(), &["--line-number", "a.txt"]);
    assert!(r.out().starts_with("2:http://"));
}

#[test]
fn count_per_input() {
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    write(d.path(), "none.txt", b"no urls here <Re: x>\n");
    assert_eq!(run(d.path(), &["-c", "a.txt"]).out(), "3\n");
    let r = run(d.path(), &["--count", "a.txt", "none.txt"]);
    assert_eq!(r.out(), "a.txt:3\nnone.txt:0\n");
    assert_eq!(r.code, 0);
    let r = run(d.path(), &["-c", "none.txt"]);
    assert_eq!((r.code, r.out().as_str()), (1, "0\n"));
}

#[test]
fn files_with_matches() {
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    write(d.path(), "none.txt", b"nothing\n");
    let r = run(d.path(), &["-l", "none.txt", "a.txt"]);
    assert_eq!(r.out(), "a.txt\n");
    let r = run(d.path(), &["--files-with-matches", "none.txt"]);
    assert_eq!((r.code, r.out().as_str()), (1, ""));
}

#[test]
fn json_objects() {
    let d = tmp();
    write(
        d.path(),
        "m.eml",
        b"Subject: x\nMessage-ID: <abc@example.org>\n\nSee <URL:HTTP://www.ex-\n  ample.com/~u#top>\n",
    );
    let r = run(d.path(), &["--json", "m.eml"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(r.out().trim()).unwrap();
    assert_eq!(v["path"], "m.eml");
    assert_eq!(v["line"], 4);
    assert_eq!(v["column"], 5);
    assert_eq!(v["offset"], 46);
    assert_eq!(v["url"], "HTTP://www.ex-ample.com/~u#top");
    assert_eq!(v["form"], "wrapped");
    assert_eq!(v["scheme"], "http"); // RFC 1738 2.1: lower case
    assert_eq!(v["fragment"], "top"); // contract rule 6
    assert_eq!(v["broken"], true);
    assert_eq!(v["hyphen"], "kept"); // contract rule 5
    assert_eq!(v["alternative"], "HTTP://www.example.com/~u#top");
    assert_eq!(v["spans"].as_array().unwrap().len(), 2);
    assert_eq!(v["warnings"][0]["code"], "tilde"); // lenient ~ (rule 7)
    assert!(v["warnings"][0]["message"].is_string());
    assert!(v["warnings"][0]["offset"].is_u64());
    assert_eq!(v["message_id"], "<abc@example.org>");
    let stdin = run_stdin(d.path(), &["--json"], b"<news:a.b>\n");
    let v: Value = serde_json::from_str(stdin.out().trim()).unwrap();
    assert_eq!(v["path"], Value::Null);
    assert_eq!(v["hyphen"], Value::Null);
    assert_eq!(v["alternative"], Value::Null);
    assert_eq!(v["fragment"], Value::Null);
    assert_eq!(v["message_id"], Value::Null);
}

#[test]
fn scheme_filter_case_insensitive() {
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    let r = run(d.path(), &["--scheme", "FTP,Gopher", "a.txt"]);
    assert_eq!(
        lines(&r.out()),
        [
            "ftp://ds.internic.net/rfc/",
            "gopher://spinaltap.micro.umn.edu/00/Weather"
        ]
    );
    let r = run(d.path(), &["--scheme", "wais", "a.txt"]);
    assert_eq!((r.code, r.out().as_str()), (1, ""));
}

#[test]
fn form_filter() {
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    let r = run(d.path(), &["--form", "bracketed", "a.txt"]);
    assert_eq!(r.out(), "ftp://ds.internic.net/rfc/\n");
    let r = run(d.path(), &["--form", "wrapped", "a.txt"]);
    assert_eq!(r.out().lines().count(), 2);
}

#[test]
fn unique_by_normalized_url_across_inputs() {
    let d = tmp();
    write(
        d.path(),
        "a.txt",
        b"<URL:http://Example.COM:80/%41x> <ftp://a.b/>\n",
    );
    write(
        d.path(),
        "b.txt",
        b"<http://example.com/Ax> <ftp://a.b/> <ftp://c.d/>\n",
    );
    let r = run(d.path(), &["-u", "a.txt", "b.txt"]);
    assert_eq!(
        lines(&r.out()),
        [
            "a.txt:http://Example.COM:80/%41x",
            "a.txt:ftp://a.b/",
            "b.txt:ftp://c.d/"
        ]
    );
    let r = run(d.path(), &["--unique", "-c", "a.txt", "b.txt"]);
    assert_eq!(r.out(), "a.txt:2\nb.txt:1\n");
}

#[test]
fn invalid_candidates_escaped() {
    // Contract rule 7: rejected candidates can be asked for, with the reason.
    let d = tmp();
    write(
        d.path(),
        "a.txt",
        b"ok <news:a.b>\n<http://evil\x1b]0;x\x07.example/> <http://u@h.example/>\n<URL:ftp://a.b/\n\nend\n",
    );
    let r = run(d.path(), &["--invalid", "a.txt"]);
    assert_eq!(r.code, 0);
    let out = r.out();
    let l = lines(&out);
    assert_eq!(l.len(), 3, "{out}");
    assert!(
        l[0].starts_with("2:http://evil\\x1b]0;x\\x07.example/\t"),
        "{out}"
    );
    assert!(l[1].starts_with("2:http://u@h.example/\t"), "{out}");
    assert!(l[1].contains("user name not allowed"));
    assert!(
        l[2].starts_with("3:ftp://a.b/\tunclosed: a blank line"),
        "{out}"
    );
    assert!(!r
        .stdout
        .iter()
        .any(|&b| (b < 0x20 && b != b'\t' && b != b'\n') || b >= 0x7f));
}

#[test]
fn json_escapes_control_bytes() {
    let d = tmp();
    write(
        d.path(),
        "a.txt",
        b"<http://e\x1b[2J\x7f\xff\xc2\x9b.example/>\nMessage-ID: <x>\n",
    );
    let r = run(d.path(), &["--invalid", "--json", "a.txt"]);
    assert_eq!(r.code, 0);
    assert!(!r.stdout.iter().any(|&b| b < 0x20 && b != b'\n'));
    assert!(!r.stdout.contains(&0x7f));
    let s = r.out();
    assert!(!s.contains('\u{9b}'));
    let v: Value = serde_json::from_str(s.trim()).unwrap();
    assert_eq!(v["url"], "http://e\u{1b}[2J\u{7f}\u{fffd}\u{9b}.example/");
    assert!(v["reason"].is_string());
}

#[test]
fn strict_policy() {
    // Contract rule 7: '~' is accepted only by the lenient policy.
    let d = tmp();
    write(
        d.path(),
        "a.txt",
        b"<http://h.example/~u> <http://h.example/%7Eu>\n",
    );
    assert_eq!(run(d.path(), &["a.txt"]).out().lines().count(), 2);
    let r = run(d.path(), &["--strict", "a.txt"]);
    assert_eq!(r.out(), "http://h.example/%7Eu\n");
}

#[test]
fn hyphen_readings() {
    // Contract rule 5: the hyphen-kept reading, its alternative on request.
    let d = tmp();
    write(d.path(), "a.txt", b"<URL:http://www.ex-\n   ample.com/>\n");
    assert_eq!(
        run(d.path(), &["a.txt"]).out(),
        "http://www.ex-ample.com/\n"
    );
    assert_eq!(
        run(d.path(), &["--hyphen", "keep", "a.txt"]).out(),
        "http://www.ex-ample.com/\n"
    );
    assert_eq!(
        run(d.path(), &["--hyphen", "drop", "a.txt"]).out(),
        "http://www.example.com/\n"
    );
    assert_eq!(
        run(d.path(), &["--hyphen", "both", "a.txt"]).out(),
        "http://www.ex-ample.com/\nhttp://www.example.com/\n"
    );
}

#[test]
fn limits_max_bytes_and_max_lines() {
    // Contract rule 2: a candidate over the bound is abandoned.
    let d = tmp();
    write(
        d.path(),
        "a.txt",
        b"<URL:ftp://a.b/\n c/\n d/\n e> <http://a.b/0123456789012345678901234567890>\n",
    );
    assert_eq!(run(d.path(), &["a.txt"]).out().lines().count(), 2);
    let r = run(d.path(), &["--max-lines", "2", "a.txt"]);
    assert_eq!(r.out(), "http://a.b/0123456789012345678901234567890\n");
    let r = run(d.path(), &["--max-bytes", "32", "a.txt"]);
    assert_eq!(r.out(), "ftp://a.b/c/d/e\n");
}

#[test]
fn message_id_plain() {
    let d = tmp();
    write(
        d.path(),
        "box",
        b"From a@b Mon\nSubject: one\nmessage-id:\n\t<1@a.example>\n\n<news:one>\n\nFrom c@d Tue\n\
          Message-ID: <2@c.example>\n\nbody\nFrom quoted line\n<news:two>\n",
    );
    let r = run(d.path(), &["--message-id", "box"]);
    assert_eq!(
        r.out(),
        "<1@a.example>\tnews:one\n<2@c.example>\tnews:two\n"
    );
    write(d.path(), "plain.txt", b"no headers <news:x>\n");
    let r = run(d.path(), &["--message-id", "plain.txt"]);
    assert_eq!(r.out(), "-\tnews:x\n");
}

#[test]
fn directory_sorted_with_prefixes() {
    let d = tmp();
    write(d.path(), "dir/b.txt", b"<news:b>\n");
    write(d.path(), "dir/a.txt", b"<news:a>\n");
    write(d.path(), "dir/sub/c.txt", b"<news:c>\n");
    write(d.path(), "dir/B.txt", b"<news:B>\n");
    for j in ["-j1", "-j2"] {
        let r = run(d.path(), &[j, "dir"]);
        assert_eq!(
            lines(&r.out()),
            [
                "dir/B.txt:news:B",
                "dir/a.txt:news:a",
                "dir/b.txt:news:b",
                "dir/sub/c.txt:news:c"
            ]
        );
    }
    let r = run(d.path(), &["--no-filename", "dir/sub"]);
    assert_eq!(r.out(), "news:c\n");
}

#[test]
fn gzip_files_and_truncated_gzip() {
    let d = tmp();
    let gz = gzip(TEXT);
    write(d.path(), "a.gz", &gz);
    write(d.path(), "noext", &gz); // by the magic bytes
    assert_eq!(
        run(d.path(), &["a.gz"]).out(),
        String::from_utf8(run_stdin(d.path(), &[], TEXT).stdout).unwrap()
    );
    // Sniffed on the first read, alone or batched with other files.
    write(d.path(), "dir/a.txt", TEXT);
    write(d.path(), "dir/b", &gz);
    for j in ["-j1", "-j2"] {
        assert_eq!(run(d.path(), &[j, "noext"]).out().lines().count(), 3);
        let r = run(d.path(), &[j, "-c", "dir"]);
        assert_eq!(r.out(), "dir/a.txt:3\ndir/b:3\n", "{j}");
    }
    // Truncated: an error for that file, the others still searched.
    let mut big = Vec::new();
    for i in 0..20000 {
        big.extend_from_slice(format!("<news:n{i}.example> {}\n", i * 7919).as_bytes());
    }
    let gz = gzip(&big);
    write(d.path(), "t.gz", &gz[..gz.len() / 2]);
    write(d.path(), "z.txt", b"<news:z>\n");
    for j in ["-j1", "-j2"] {
        let r = run(d.path(), &[j, "t.gz", "z.txt"]);
        assert_eq!(r.code, 2, "{j}");
        assert!(r.stderr.starts_with("urlsift: t.gz: "), "{}", r.stderr);
        let out = r.out();
        assert!(out.starts_with("t.gz:news:n0.example\n"));
        assert!(out.ends_with("z.txt:news:z\n"));
    }
}

#[test]
fn exit_codes() {
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    write(d.path(), "none.txt", b"none\n");
    assert_eq!(run(d.path(), &["a.txt"]).code, 0);
    assert_eq!(run(d.path(), &["none.txt"]).code, 1);
    let r = run(d.path(), &["missing", "a.txt"]);
    assert_eq!(r.code, 2); // 2 wins over 0
    assert_eq!(
        r.stderr,
        "urlsift: missing: No such file or directory (os error 2)\n"
    );
    assert_eq!(r.out().lines().count(), 3);
    assert_eq!(run(d.path(), &["--bogus"]).code, 2);
}

#[test]
fn dangling_symlink_and_symlink_loop() {
    let d = tmp();
    write(d.path(), "dir/a.txt", b"<news:a>\n");
    write(d.path(), "dir/sub/z.txt", b"<news:z>\n");
    std::os::unix::fs::symlink("nowhere", d.path().join("dir/dangling")).unwrap();
    std::os::unix::fs::symlink("..", d.path().join("dir/sub/loop")).unwrap();
    for j in ["-j1", "-j2"] {
        let r = run(d.path(), &[j, "dir"]);
        assert_eq!(r.code, 2);
        assert_eq!(r.out(), "dir/a.txt:news:a\ndir/sub/z.txt:news:z\n");
        let errs: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(errs.len(), 2, "{}", r.stderr);
        assert!(errs[0].starts_with("urlsift: dir/dangling: No such file"));
        assert!(errs[1].starts_with("urlsift: dir/sub/loop: "));
    }
}

#[test]
fn broken_pipe_is_quiet() {
    let d = tmp();
    let (text, _) = mbox(3 << 20);
    write(d.path(), "big.mbox", &text);
    for j in ["-j1", "-j2"] {
        let mut child = bin()
            .args([j, "big.mbox"])
            .current_dir(d.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        {
            let mut out = BufReader::new(child.stdout.take().unwrap());
            out.read_line(&mut first).unwrap();
        } // the pipe is closed here
        let mut err = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(first.starts_with("http://"), "{first}");
        assert_eq!(status.code(), Some(0), "{j}: {err}");
        assert_eq!(err, "");
    }
}

#[test]
fn threads_identical_on_many_files() {
    let d = tmp();
    for i in 0..300 {
        let (mut text, _) = mbox(200 + (i * 37) % 3000);
        text.extend_from_slice(format!("<news:file{i}.example>\n").as_bytes());
        write(d.path(), &format!("t/{:03}/{i}.txt", i % 17), &text);
    }
    for args in [&["-n", "--column"][..], &["--json"], &["-c"], &["-u"]] {
        let mut a1 = vec!["-j1", "t"];
        a1.extend_from_slice(args);
        let mut a2 = vec!["-j2", "t"];
        a2.extend_from_slice(args);
        let r1 = run(d.path(), &a1);
        let r2 = run(d.path(), &a2);
        assert_eq!(r1.code, 0);
        assert!(r1.stdout.len() > 100);
        assert!(r1.stdout == r2.stdout, "{args:?}");
    }
}

#[test]
fn threads_identical_on_large_mbox() {
    // ~20 MiB: split into pieces with -j2, one pass with -j1.
    let d = tmp();
    let (text, planted) = mbox(20 << 20);
    write(d.path(), "big.mbox", &text);
    let r1 = run(d.path(), &["-j1", "--json", "big.mbox"]);
    let r2 = run(d.path(), &["-j2", "--json", "big.mbox"]);
    assert_eq!(r1.code, 0, "{}", r1.stderr);
    assert!(r1.stdout == r2.stdout);
    let out = r1.out();
    assert_eq!(out.lines().count(), planted);
    // Every match carries its message's id (folded header): the nearest
    // continuation line ` <id>` at or before the URL's line. The lines are
    // split once (a split per match was quadratic).
    let text_lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    for l in out.lines().step_by(97) {
        let v: Value = serde_json::from_str(l).unwrap();
        let id = v["message_id"].as_str().unwrap();
        let line = v["line"].as_u64().unwrap() as usize;
        let hdr = text_lines[..line]
            .iter()
            .rev()
            .find(|l| l.starts_with(b" <"))
            .unwrap();
        assert_eq!(id.as_bytes(), &hdr[1..]);
    }
    let c1 = run(d.path(), &["-j1", "-n", "big.mbox"]);
    let c2 = run(d.path(), &["-j2", "-n", "big.mbox"]);
    assert!(c1.stdout == c2.stdout);
    // With a small piece of the work at every boundary: plain text on stdin.
    let s2 = run_stdin(d.path(), &["-j2", "-n", "-"], &text);
    assert!(s2.stdout == c1.stdout);
}

#[test]
fn threads_identical_on_a_walked_directory_of_mixed_sizes() {
    // The scheduler batches listed files without a stat: a batch meeting a
    // file over the split size (20 MiB) splits it for all threads, one over
    // a piece (1.5-3 MiB) sends the files after it to another thread, and
    // gzip found by its magic bytes is read as one stream. The output is the
    // one-thread output, in order, whatever the sizes.
    let d = tmp();
    let mut planted = 0;
    let mut add = |name: &str, size: usize, gz: bool| {
        let (text, n) = mbox(size);
        planted += n;
        write(d.path(), name, &if gz { gzip(&text) } else { text });
    };
    add("spool/a/000", 3000, false);
    add("spool/a/001", 20 << 20, false);
    for i in 2..40 {
        add(&format!("spool/a/{i:03}"), 2000 + i * 97, false);
    }
    for i in 0..6 {
        add(&format!("spool/b/{i}"), (3 << 19) + i * (1 << 18), false);
    }
    add("spool/b/9z", 4 << 20, true);
    add("spool/c/last", 20 << 20, false);
    std::os::unix::fs::symlink("nowhere", d.path().join("spool/b/5x")).unwrap();
    for args in [&["-n"][..], &["-c"], &["--json"]] {
        let mut outs = Vec::new();
        for j in ["-j1", "-j2", "-j3"] {
            let mut a = vec![j, "spool"];
            a.extend_from_slice(args);
            let r = run(d.path(), &a);
            assert_eq!(r.code, 2, "{j} {args:?}: the dangling symlink");
            assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
            outs.push(r.stdout);
        }
        assert!(outs[0] == outs[1] && outs[0] == outs[2], "{args:?}");
        if args == ["-n"] {
            assert_eq!(String::from_utf8_lossy(&outs[0]).lines().count(), planted);
        }
    }
}

#[test]
fn threads_identical_on_lines_longer_than_a_piece() {
    // Megabytes without a newline. A 3 MiB quoted line holds URLs
    // (one broken onto the next line, whose quote prefix must go) and an
    // ISO-2022-JP run with a '<' inside: -j2 cuts pieces inside the line and
    // must print exactly what -j1 prints, columns included.
    let d = tmp();
    let mut text = b"> ".to_vec();
    let mut n = 0;
    while text.len() < 3 << 20 {
        text.extend_from_slice(format!("w{n} <http://h{n}.example/p> ").as_bytes());
        if n % 977 == 0 {
            text.extend_from_slice(b"\x1b$B<http://no.example/>\x1b(B ");
        }
        n += 1;
    }
    text.extend_from_slice(b"<URL:http://end.example/a\n> b/>\n");
    write(d.path(), "long.txt", &text);
    let r1 = run(d.path(), &["-j1", "-n", "--column", "long.txt"]);
    let r2 = run(d.path(), &["-j2", "-n", "--column", "long.txt"]);
    assert_eq!(r1.code, 0, "{}", r1.stderr);
    assert!(r1.stdout == r2.stdout);
    let out = r1.out();
    assert_eq!(out.lines().count(), n + 1);
    // The column of the last "<": 32 bytes from the end, 1-based.
    assert!(out.ends_with(&format!("1:{}:http://end.example/ab/\n", text.len() - 31)));
    let s2 = run_stdin(d.path(), &["-j2", "-n", "--column", "-"], &text);
    assert!(s2.stdout == r1.stdout);
}

#[test]
fn threads_identical_on_a_large_file_with_long_lines() {
    // A plain file above the split size is searched in ranges by all the
    // threads at once; a range boundary that falls in a line longer than
    // the boundary window moves on to the next one, and lines of a few
    // megabytes hold URLs (RFC 1738 Appendix: one broken across lines).
    let d = tmp();
    let mut text = Vec::new();
    let mut n = 0;
    while text.len() < 11 << 20 {
        if n % 5000 == 17 {
            // A long line: 5 KiB to 2 MiB.
            let len = 5000 << (n % 10);
            let mut k = 0;
            while k < len {
                let w = format!("<http://l{n}-{k}.example/> ");
                k += w.len();
                text.extend_from_slice(w.as_bytes());
            }
        } else if n % 101 == 0 {
            text.extend_from_slice(b"> see <URL:ftp://f.example/a-\n>    b;type=d>");
        } else {
            text.extend_from_slice(format!("line {n} <news:g{n}.example>").as_bytes());
        }
        text.push(b'\n');
        n += 1;
    }
    write(d.path(), "big.txt", &text);
    for args in [&["-n", "--column"][..], &["-c"], &["-u", "-n"]] {
        let mut outs = Vec::new();
        for j in ["-j1", "-j2", "-j3"] {
            let mut a = vec![j, "big.txt"];
            a.extend_from_slice(args);
            let r = run(d.path(), &a);
            assert_eq!(r.code, 0, "{}", r.stderr);
            outs.push(r.stdout);
        }
        assert!(outs[0].len() > 6, "{args:?}");
        assert!(outs[0] == outs[1] && outs[0] == outs[2], "{args:?}");
    }
}

#[test]
fn stats_on_stderr() {
    let d = tmp();
    write(d.path(), "a.txt", TEXT);
    let r = run(d.path(), &["--stats", "a.txt"]);
    assert_eq!(r.out().lines().count(), 3);
    assert!(r.stderr.contains("1 files"), "{}", r.stderr);
    assert!(r.stderr.contains(&format!("{} bytes", TEXT.len())));
    assert!(r.stderr.contains("3 matches"));
    assert!(r.stderr.contains("MB/s"));
}

#[test]
fn parse_mode_json_and_exit_codes() {
    let d = tmp();
    let r = run(
        d.path(),
        &["--parse", "ftp://u:p@h.example:21/a/b;type=i#f"],
    );
    assert_eq!(r.code, 0);
    let v: Value = serde_json::from_str(r.out().trim()).unwrap();
    assert_eq!(v["input"], "ftp://u:p@h.example:21/a/b;type=i#f");
    assert_eq!(v["valid"], true);
    assert_eq!(v["scheme"], "ftp");
    assert_eq!(v["parts"]["host"], "h.example");
    assert_eq!(v["parts"]["user"], "u");
    assert_eq!(v["fragment"], "f");
    assert_eq!(v["warnings"][0]["code"], "password"); // RFC 1738 section 6
    assert_eq!(v["error"], Value::Null);
    // RFC 1738 3.3: no user name in http URLs.
    let r = run(d.path(), &["--parse", "http://a.b/", "http://u@a.b/"]);
    assert_eq!(r.code, 1);
    let l = lines(&r.out())
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .collect::<Vec<_>>();
    assert_eq!(l[1]["valid"], false);
    assert_eq!(l[1]["scheme"], Value::Null);
    assert_eq!(l[1]["parts"], Value::Null);
    assert_eq!(l[1]["error"]["offset"], 8);
    assert!(l[1]["error"]["reason"].is_string());
    // From stdin, one per line; --strict applies.
    let r = run_stdin(d.path(), &["--parse"], b"http://a.b/~x\r\nnews:a.b\n");
    assert_eq!(r.code, 0);
    assert_eq!(r.out().lines().count(), 2);
    let r = run_stdin(d.path(), &["--parse", "--strict"], b"http://a.b/~x\n");
    assert_eq!(r.code, 1);
}

#[test]
fn help_and_version() {
    let d = tmp();
    let r = run(d.path(), &["--help"]);
    assert_eq!(r.code, 0);
    let h = r.out();
    assert!(h.contains("EXAMPLES"));
    for flag in [
        "--with-filename",
        "--count",
        "--json",
        "--scheme",
        "--hyphen",
        "--threads",
        "--parse",
    ] {
        assert!(h.contains(flag), "{flag}");
    }
    let r = run(d.path(), &["--version"]);
    assert_eq!(r.code, 0);
    assert!(r.out().starts_with("urlsift "));
}

/// A message as mailers write it (contract rules 10-13): a multipart with
/// a quoted-printable plain text, an HTML alternative, a base64 text
/// attachment and an image.
const MIME_MAIL: &[u8] = b"From a@example.org Mon Jan  1 00:00:00 2024\n\
Message-ID: <m1@example.org>\n\
Content-Type: multipart/mixed; boundary=\"outer\"\n\
\n\
--outer\n\
Content-Type: multipart/alternative; boundary=\"alt\"\n\
\n\
--alt\n\
Content-Type: text/plain; charset=utf-8\n\
Content-Transfer-Encoding: quoted-printable\n\
\n\
Slides: <URL:https://www.example.org/media_summit/me=\n\
dia-status.pdf> and <http://a.example/?x=3Dy>\n\
--alt\n\
Content-Type: text/html\n\
\n\
<p><o:p></o:p><http://html.example/></p>\n\
--alt--\n\
--outer\n\
Content-Type: text/plain\n\
Content-Transfer-Encoding: base64\n\
\n\
eCA8aHR0cDovL3NwbGl0LmV4YW1wbGUvYT4K\n\
--outer\n\
Content-Type: image/png\n\
\n\
<URL:http://trap.example/png/>\n\
--outer--\n";

#[test]
fn mime_decoded_by_default_raw_lines() {
    // Rules 11-13: decoded URLs, at the raw line of the encoded '<'.
    let d = tmp();
    write(d.path(), "m.mbox", MIME_MAIL);
    let r = run(d.path(), &["-n", "--column", "m.mbox"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        lines(&r.out()),
        [
            "12:9:https://www.example.org/media_summit/media-status.pdf",
            "13:21:http://a.example/?x=y",
            "23:1:http://split.example/a",
        ]
    );
}

#[test]
fn raw_is_the_reading_before_mime() {
    // --raw: every byte is text by rules 1-9 alone.
    let d = tmp();
    write(d.path(), "m.mbox", MIME_MAIL);
    let r = run(d.path(), &["-n", "--raw", "m.mbox"]);
    assert_eq!(
        lines(&r.out()),
        [
            "12:https://www.example.org/media_summit/me=dia-status.pdf",
            "13:http://a.example/?x=3Dy",
            "17:o:p",
            "17:http://html.example/",
            "27:http://trap.example/png/",
        ]
    );
    // Without MIME headers both readings are the same.
    let (text, _) = mbox(1 << 20);
    write(d.path(), "plain.mbox", &text);
    let a = run(d.path(), &["-n", "--json", "plain.mbox"]);
    let b = run(d.path(), &["-n", "--json", "--raw", "plain.mbox"]);
    assert!(a.stdout == b.stdout);
}

#[test]
fn json_says_where_a_mime_url_was_found() {
    let d = tmp();
    write(d.path(), "m.mbox", MIME_MAIL);
    let r = run(d.path(), &["--json", "m.mbox"]);
    let vs: Vec<Value> = r
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(vs.len(), 3);
    assert_eq!(vs[0]["encoding"], "qp");
    assert_eq!(vs[0]["content_type"], "text/plain");
    assert_eq!(vs[0]["line"], 12);
    assert_eq!(vs[0]["message_id"], "<m1@example.org>");
    assert_eq!(vs[2]["encoding"], "base64");
    // Spans are raw byte ranges: the soft break is left out.
    assert_eq!(vs[0]["spans"].as_array().unwrap().len(), 2);
    // Plain top-level text and the raw reading: no new fields.
    let r = run(d.path(), &["--json", "--raw", "m.mbox"]);
    for l in r.out().lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        assert!(v.get("encoding").is_none() && v.get("content_type").is_none());
    }
    write(d.path(), "p.eml", b"Subject: x\n\n<http://p.example/>\n");
    let v: Value = serde_json::from_str(run(d.path(), &["--json", "p.eml"]).out().trim()).unwrap();
    assert!(v.get("encoding").is_none() && v.get("content_type").is_none());
}

#[test]
fn message_id_of_forwarded_messages() {
    // --message-id: a URL in a message/rfc822 part has the forwarded
    // message's id; the rest of the message its own.
    let d = tmp();
    write(
        d.path(),
        "f.mbox",
        b"From a@example.org Mon\nMessage-ID: <outer@example.org>\n\
Content-Type: multipart/mixed; boundary=o\n\n--o\n\nsee <http://outer.example/>\n\
--o\nContent-Type: message/rfc822\n\nMessage-ID: <fwd@example.org>\n\n\
inner <http://inner.example/>\n--o--\nlast <http://epilogue.example/>\n",
    );
    let r = run(d.path(), &["--message-id", "f.mbox"]);
    assert_eq!(
        r.out(),
        "<outer@example.org>\thttp://outer.example/\n\
         <fwd@example.org>\thttp://inner.example/\n\
         <outer@example.org>\thttp://epilogue.example/\n"
    );
}

/// An mbox of MIME messages of every kind, `size` bytes at least, and the
/// number of URLs planted.
fn mime_mbox(size: usize) -> (Vec<u8>, usize) {
    let mut out = Vec::with_capacity(size + 4096);
    let mut urls = 0;
    let mut i = 0u64;
    while out.len() < size {
        let head = format!(
            "From u{i}@example.org Mon Jan  1 00:00:00 2024\nMessage-ID: <{i}@example.org>\n"
        );
        out.extend_from_slice(head.as_bytes());
        let filler = "filler text of a line in the message body.\n".repeat((i % 40) as usize);
        match i % 4 {
            0 => {
                out.extend_from_slice(
                    b"Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n",
                );
                out.extend_from_slice(filler.as_bytes());
                out.extend_from_slice(
                    format!(
                        "Link =3CURL:http://qp{i}.example/very/long/pa=\nth/{i}> end=\n of line\n"
                    )
                    .as_bytes(),
                );
                urls += 1;
            }
            1 => {
                out.extend_from_slice(b"Content-Type: multipart/alternative; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\n");
                out.extend_from_slice(filler.as_bytes());
                out.extend_from_slice(format!("See <http://alt{i}.example/>\n--b\nContent-Type: text/html\n\n<a href=\"x\"><http://html{i}.example/></a>\n--b--\n").as_bytes());
                urls += 1;
            }
            2 => {
                out.extend_from_slice(
                    b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\n",
                );
                // "x <http://split.example/a>\n" in lines of 16 characters.
                for chunk in b"eCA8aHR0cDovL3NwbGl0LmV4YW1wbGUvYT4K".chunks(16) {
                    out.extend_from_slice(chunk);
                    out.push(b'\n');
                }
                urls += 1;
            }
            _ => {
                out.extend_from_slice(b"Subject: plain\n\n");
                out.extend_from_slice(filler.as_bytes());
                out.extend_from_slice(format!("Plain <news:group{i}.example>\n").as_bytes());
                urls += 1;
            }
        }
        out.push(b'\n');
        i += 1;
    }
    (out, urls)
}

#[test]
fn threads_identical_on_a_large_mime_mbox() {
    // Ranges of a large mbox start at message starts: -j2 gives what -j1
    // gives, byte for byte, and stdin (one stream) too.
    let d = tmp();
    // Just over the size at which a file is split among threads.
    let (text, planted) = mime_mbox(9 << 20);
    write(d.path(), "big.mbox", &text);
    let n1 = run(d.path(), &["-j1", "-n", "big.mbox"]);
    let n2 = run(d.path(), &["-j2", "-n", "big.mbox"]);
    assert_eq!(n1.code, 0, "{}", n1.stderr);
    assert_eq!(n1.out().lines().count(), planted);
    assert!(n1.stdout == n2.stdout);
    let s2 = run_stdin(d.path(), &["-j2", "-n", "-"], &text);
    assert!(s2.stdout == n1.stdout);
    // With Message-IDs the file is one stream, read in order.
    let j2 = run(d.path(), &["-j2", "--json", "big.mbox"]);
    let last: Value = serde_json::from_str(j2.out().lines().last().unwrap()).unwrap();
    assert_eq!(j2.out().lines().count(), planted);
    let id = last["message_id"].as_str().unwrap();
    assert_eq!(format!("<{}@example.org>", planted - 1), id);
    // Each URL at the raw line of its '<' (or its '=3C', or its group).
    for l in n1.out().lines().step_by(101) {
        let (line, url) = l.split_once(':').unwrap();
        let raw = text
            .split(|&b| b == b'\n')
            .nth(line.parse::<usize>().unwrap() - 1)
            .unwrap();
        let raw = String::from_utf8_lossy(raw);
        assert!(
            raw.contains('<') || raw.contains("=3C") || url == "http://split.example/a",
            "{l}: {raw}"
        );
    }
}

// ---- naked URLs (--naked; contract rules 14-17) ------------------------

const NAKED: &[u8] = b"See https://example.org/x. and <URL:ftp://ftp.example/\n\
  pub/x> (ftp://h.example/y, http://en.example.org/wiki/X_(y))\n\
> quoted http://q.example/~me/ and sftp:// mailto: <URL:http://a.example/a|b>\n";

#[test]
fn naked_off_by_default() {
    let d = tmp();
    write(d.path(), "a.txt", NAKED);
    let r = run(d.path(), &["a.txt"]);
    assert_eq!(lines(&r.out()), ["ftp://ftp.example/pub/x"]);
}

/// A colon that ends an escape sequence (`ESC / :`, rule 23) starts no
/// naked scheme: the command read past the colon and aborted on these
/// four bytes.
#[test]
fn naked_colon_ending_an_escape_sequence() {
    let d = tmp();
    for args in [&["--naked"][..], &["--naked", "--invalid"]] {
        let r = run_stdin(d.path(), args, b"\x1b/:\n");
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert_eq!(r.out(), "");
    }
    let r = run_stdin(
        d.path(),
        &["--naked"],
        b"\x1b/: see <URL:http://a.example/> and http://b.example/\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(lines(&r.out()), ["http://a.example/", "http://b.example/"]);
}

#[test]
fn naked_plain_lines_columns_form() {
    // Contract rules 15 (ends), 17 (place: the scheme's first letter).
    let d = tmp();
    write(d.path(), "a.txt", NAKED);
    let r = run(d.path(), &["--naked", "-n", "--column", "a.txt"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        lines(&r.out()),
        [
            "1:5:https://example.org/x",
            "1:32:ftp://ftp.example/pub/x",
            "2:9:ftp://h.example/y",
            "2:28:http://en.example.org/wiki/X_(y)",
            "3:10:http://q.example/~me/",
            "3:57:http://a.example/a",
        ]
    );
    let r = run(d.path(), &["--naked", "--form", "naked", "a.txt"]);
    assert_eq!(r.out().lines().count(), 5);
    let r = run(d.path(), &["--naked", "--form", "wrapped", "a.txt"]);
    assert_eq!(lines(&r.out()), ["ftp://ftp.example/pub/x"]);
    let r = run(d.path(), &["--form", "naked", "a.txt"]);
    assert_eq!(r.code, 2, "--form naked without --naked is an error");
}

#[test]
fn naked_count_files_json_unique_scheme() {
    let d = tmp();
    write(d.path(), "a.txt", NAKED);
    write(d.path(), "b.txt", b"only naked: HTTP://Q.example/~me/\n");
    let r = run(d.path(), &["--naked", "-c", "a.txt", "b.txt"]);
    assert_eq!(lines(&r.out()), ["a.txt:6", "b.txt:1"]);
    let r = run(d.path(), &["-c", "b.txt"]);
    assert_eq!(r.out(), "0\n");
    let r = run(d.path(), &["-l", "a.txt", "b.txt"]);
    assert_eq!(lines(&r.out()), ["a.txt"]);
    let r = run(d.path(), &["--naked", "-l", "a.txt", "b.txt"]);
    assert_eq!(lines(&r.out()), ["a.txt", "b.txt"]);
    let r = run(d.path(), &["--naked", "--json", "a.txt"]);
    let v: Vec<Value> = r
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 6);
    assert_eq!(v[0]["form"], "naked");
    assert_eq!(v[0]["offset"], 4);
    assert_eq!(v[0]["spans"], serde_json::json!([[4, 25]]));
    assert_eq!(v[1]["form"], "wrapped");
    assert_eq!(v[3]["url"], "http://en.example.org/wiki/X_(y)");
    // -u: the normalized URL once (scheme and host case fold).
    let r = run(d.path(), &["--naked", "-u", "a.txt", "b.txt"]);
    assert_eq!(r.out().matches("q.example").count(), 1, "{}", r.out());
    let r = run(d.path(), &["--naked", "--scheme", "ftp", "a.txt"]);
    assert_eq!(
        lines(&r.out()),
        ["ftp://ftp.example/pub/x", "ftp://h.example/y"]
    );
}

#[test]
fn naked_invalid_and_strict() {
    // Rule 16: rejected naked candidates with their reason; the strict
    // policy ends a naked URL at '~' (rule 15).
    let d = tmp();
    write(d.path(), "a.txt", NAKED);
    let r = run(d.path(), &["--naked", "--invalid", "-n", "a.txt"]);
    let out = r.out();
    assert!(
        out.contains("3:sftp://\tnaked: nothing after the scheme"),
        "{out}"
    );
    assert!(
        out.contains("3:mailto:\tnaked: nothing after the scheme"),
        "{out}"
    );
    assert!(out.contains("3:http://a.example/a|b\t"), "{out}");
    let r = run(d.path(), &["--naked", "--strict", "a.txt"]);
    assert!(r.out().contains("http://q.example/\n"), "{}", r.out());
    assert!(!r.out().contains("~"));
}

/// Text where cuts fall everywhere: every other line start is inside a
/// `<URL:...>` broken across lines whose continuation holds a naked-looking
/// URL, naked URLs end lines, and some lines are megabytes long with naked
/// URLs in them (pieces are cut inside those). With `blank`, an empty line
/// now and then (so a large file is also split into ranges).
fn naked_text(size: usize, blank: bool) -> Vec<u8> {
    let mut text = Vec::new();
    let mut n = 0;
    while text.len() < size {
        if n % 40_000 == 20_000 {
            let mut k = 0;
            while k < (3 << 20) / 2 {
                let w = format!("w{k} http://l{n}-{k}.example/p_(q)). ");
                k += w.len();
                text.extend_from_slice(w.as_bytes());
            }
            text.push(b'\n');
        }
        text.extend_from_slice(
            format!(
                "{n} <URL:\n http://w{n}.example/x> (see http://n{n}.example/y.) ftp://f{n}.example/a\n"
            )
            .as_bytes(),
        );
        if blank && n % 50 == 0 {
            text.push(b'\n');
        }
        n += 1;
    }
    text
}

#[test]
fn naked_threads_identical_at_every_cut() {
    // A file over the split size (ranges, cut after empty lines) and one of
    // a few pieces (cut at any line start, inside lines too), each also as
    // a stream on stdin: -j2 prints what -j1 prints, which is what
    // the library finds in one pass.
    let d = tmp();
    for (name, size, blank) in [("para.txt", 9 << 20, true), ("cont.txt", 3 << 20, false)] {
        let text = naked_text(size, blank);
        write(d.path(), name, &text);
        let want = urlsift::Scanner::new().naked(true).extract(&text);
        for args in [&["-n", "--column"][..], &["-c"]] {
            let mut outs = Vec::new();
            for j in ["-j1", "-j2"] {
                let mut a = vec!["--naked", j, name];
                a.extend_from_slice(args);
                let r = run(d.path(), &a);
                assert_eq!(r.code, 0, "{}", r.stderr);
                outs.push(r.stdout);
            }
            assert!(outs[0] == outs[1], "{name} {args:?}");
            let a = [&["--naked", "-j2", "-"][..], args].concat();
            let s = run_stdin(d.path(), &a, &text);
            assert!(s.stdout == outs[0], "{name} {args:?}: stdin");
            if args == ["-c"] {
                let n = want.len().to_string();
                assert_eq!(String::from_utf8_lossy(&outs[0]).trim(), n);
            }
        }
    }
}

/// Contract rules 18-22: `--html` chooses the HTML parts read; hrefs have
/// the form `href` in JSON and in `--form`, rejected ones are listed by
/// `--invalid`, and `--html never` reads no HTML.
#[test]
fn html_parts() {
    const MAIL: &[u8] = b"Content-Type: multipart/alternative; boundary=b\n\n--b\n\
Content-Type: text/plain\n\nPlain <http://p.example/>\n--b\n\
Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n\
<p><a href=3D\"http://h.example/x\">x</a> &lt;URL:ftp://f.example/&gt;\n\
<a href=3D\"http://u@evil.example/\">y</a></p>\n--b--\n";
    const HTML_ONLY: &[u8] =
        b"Content-Type: text/html\n\n<a HREF='http://h.example/'>&lt;http://h.example/&gt;</a>\n";
    let d = tmp();
    write(d.path(), "alt.eml", MAIL);
    write(d.path(), "html.eml", HTML_ONLY);
    let r = run(d.path(), &["-n", "alt.eml"]);
    assert_eq!(lines(&r.out()), ["6:http://p.example/"]);
    let r = run(d.path(), &["-n", "--html", "always", "alt.eml"]);
    assert_eq!(
        lines(&r.out()),
        [
            "6:http://p.example/",
            "11:http://h.example/x",
            "11:ftp://f.example/"
        ]
    );
    let r = run(d.path(), &["--html", "always", "--form", "href", "alt.eml"]);
    assert_eq!(lines(&r.out()), ["http://h.example/x"]);
    let r = run(d.path(), &["--html", "always", "--invalid", "alt.eml"]);
    assert!(r.out().contains("http://u@evil.example/"), "{}", r.out());
    let r = run(d.path(), &["--json", "html.eml"]);
    let v: Value = serde_json::from_str(r.out().lines().next().unwrap()).unwrap();
    assert_eq!(v["form"], "href");
    assert_eq!(v["content_type"], "text/html");
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(3), Some(10))
    );
    assert_eq!(
        r.out().lines().count(),
        1,
        "the link's text repeats its href"
    );
    let r = run(d.path(), &["--html", "never", "html.eml"]);
    assert_eq!(r.code, 1);
    assert!(r.out().is_empty());
    let r = run(d.path(), &["--html", "sometimes", "html.eml"]);
    assert_eq!(r.code, 2);
}

/// An `href` URL's JSON object carries its link's text (`anchor`),
/// decoded from the part's charset; other URLs have no such field.
#[test]
fn html_anchor_text() {
    // "日本語" in Shift_JIS; a Big5 "中文" in base64, each beside a text URL;
    // "日本" in Shift_JIS labelled by a mail alias (CP932).
    const MAIL: &[u8] = b"From a@b Thu Jan  1 00:00:00 1998\n\
Content-Type: text/html; charset=Shift_JIS\n\n\
<a href=\"http://jp.example/\">\n  \x93\xfa\x96\x7b\x8c\xea &amp; <b>more</b>\n</a> &lt;http://t.example/&gt;\n\
<map><area href=http://area.example/></map>\n\
\n\
From a@b Thu Jan  1 00:00:00 1998\n\
Content-Type: text/html; charset=big5\n\
Content-Transfer-Encoding: base64\n\n\
PGEgaHJlZj1odHRwOi8vdHcuZXhhbXBsZS8+pKSk5TwvYT4K\n\
\n\
From a@b Thu Jan  1 00:00:00 1998\n\
Content-Type: text/html; charset=\"CP932\"\n\n\
<a href=\"http://cp.example/\">\x93\xfa\x96\x7b</a>\n";
    let d = tmp();
    write(d.path(), "m.mbox", MAIL);
    let r = run(d.path(), &["--json", "m.mbox"]);
    let v: Vec<Value> = r
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let got: Vec<(&str, Option<&Value>)> = v
        .iter()
        .map(|v| (v["url"].as_str().unwrap(), v.get("anchor")))
        .collect();
    assert_eq!(
        got,
        [
            (
                "http://jp.example/",
                Some(&Value::from("\u{65e5}\u{672c}\u{8a9e} & more"))
            ),
            ("http://t.example/", None),
            ("http://area.example/", Some(&Value::Null)),
            ("http://tw.example/", Some(&Value::from("\u{4e2d}\u{6587}"))),
            // Windows' name for Shift_JIS, as mail writes it.
            ("http://cp.example/", Some(&Value::from("\u{65e5}\u{672c}"))),
        ]
    );
}

/// An mbox of three messages: dated by `Date:`, by the `From ` line only,
/// and a news article with B news `Posted:`, groups and an encoded subject.
const DATED: &[u8] = b"From a@b Tue Jan 12 14:02:11 1993\n\
Date: Tue, 12 Jan 93 14:02:11 EST\n\
Subject: first <http://in-header.example/>\n\
Message-ID: <1@a>\n\
\n\
<http://one.example/>\n\
\n\
From c@d Wed Mar  3 10:00:00 1993\n\
Subject: =?ISO-8859-1?Q?d=E9j=E0?= vu\n\
\n\
<http://two.example/> <http://one.example/>\n\
\n\
From news Mon Jan  1 00:00:00 1996\n\
Newsgroups: comp.infosystems.www,alt.hypertext\n\
Posted: Fri Dec  3 09:00:00 1993\n\
Date: not a date\n\
\n\
<http://three.example/>\n";

#[test]
fn json_carries_the_message_fields() {
    let d = tmp();
    write(d.path(), "dated.mbox", DATED);
    for raw in [&[][..], &["--raw"][..]] {
        let mut args = vec!["--json", "dated.mbox"];
        args.extend_from_slice(raw);
        let r = run(d.path(), &args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let vs: Vec<Value> = r
            .out()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let urls: Vec<&str> = vs.iter().map(|v| v["url"].as_str().unwrap()).collect();
        assert_eq!(
            urls,
            [
                "http://in-header.example/",
                "http://one.example/",
                "http://two.example/",
                "http://one.example/",
                "http://three.example/"
            ]
        );
        // The header's own URL has its message's fields too.
        for v in &vs[..2] {
            assert_eq!(v["date"], "1993-01-12T19:02:11Z");
            assert_eq!(v["date_source"], "date");
            assert_eq!(v["subject"], "first <http://in-header.example/>");
            assert_eq!(v["message_id"], "<1@a>");
            assert_eq!(v["newsgroups"], Value::Null);
        }
        assert_eq!(vs[2]["date"], "1993-03-03T10:00:00Z");
        assert_eq!(vs[2]["date_source"], "from-line");
        assert_eq!(vs[2]["subject"], "d\u{e9}j\u{e0} vu");
        assert_eq!(vs[2]["message_id"], Value::Null);
        assert_eq!(vs[4]["date"], "1993-12-03T09:00:00Z");
        assert_eq!(vs[4]["date_source"], "posted");
        assert_eq!(
            vs[4]["newsgroups"],
            serde_json::json!(["comp.infosystems.www", "alt.hypertext"])
        );
    }
    // --fields chooses what is computed: the rest is null.
    let r = run(d.path(), &["--json", "--fields", "subject", "dated.mbox"]);
    let v: Value = serde_json::from_str(r.out().lines().nth(1).unwrap()).unwrap();
    assert_eq!(v["subject"], "first <http://in-header.example/>");
    assert_eq!((&v["date"], &v["message_id"]), (&Value::Null, &Value::Null));
}

#[test]
fn fields_in_plain_output() {
    let d = tmp();
    write(d.path(), "dated.mbox", DATED);
    let r = run(
        d.path(),
        &["--fields", "date,newsgroups,subject", "dated.mbox"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[2],
        "1993-03-03T10:00:00Z\t-\td\u{e9}j\u{e0} vu\thttp://two.example/"
    );
    assert_eq!(
        lines[4],
        "1993-12-03T09:00:00Z\tcomp.infosystems.www,alt.hypertext\t-\thttp://three.example/"
    );
    // --message-id adds to --fields, in the fields' order.
    let r = run(
        d.path(),
        &["--fields", "date", "--message-id", "dated.mbox"],
    );
    assert_eq!(
        r.out().lines().nth(1),
        Some("1993-01-12T19:02:11Z\t<1@a>\thttp://one.example/")
    );
    let r = run(d.path(), &["--fields", "sender", "dated.mbox"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("sender"), "{}", r.stderr);
}

/// Two list messages (the `List-Id:` with and without a phrase, one
/// folded) and a news article with none.
const LISTS: &str = "From a@b Tue Jan 12 14:02:11 1993\n\
List-Id: Gopher news\n  <gopher-news.lists.example.edu>\n\
\n\
<http://one.example/>\n\
\n\
From c@d Wed Jan 13 10:00:00 1993\n\
list-id: plain.example.org \n\
Message-ID: <2@c>\n\
\n\
<http://two.example/> and <news:x>\n\
\n\
From news Mon Jan  1 00:00:00 1996\n\
Newsgroups: comp.infosystems.www\n\
\n\
<http://three.example/>\n";

#[test]
fn list_id_field() {
    let d = tmp();
    write(d.path(), "lists.mbox", LISTS.as_bytes());
    let r = run(d.path(), &["--fields", "list-id", "lists.mbox"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        lines(&r.out()),
        [
            "gopher-news.lists.example.edu\thttp://one.example/",
            "plain.example.org\thttp://two.example/",
            "plain.example.org\tnews:x",
            "-\thttp://three.example/",
        ]
    );
    // In the fields' order, last; any case.
    let r = run(
        d.path(),
        &[
            "--fields",
            "LIST-ID,newsgroups",
            "--message-id",
            "lists.mbox",
        ],
    );
    assert_eq!(
        r.out().lines().nth(1),
        Some("-\t<2@c>\tplain.example.org\thttp://two.example/")
    );
    assert_eq!(
        r.out().lines().nth(3),
        Some("comp.infosystems.www\t-\t-\thttp://three.example/")
    );
    // JSON: "list_id" after the message fields only when asked for.
    let json = |args: &[&str]| -> Vec<Value> {
        let r = run(d.path(), args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.out()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let plain = json(&["--json", "lists.mbox"]);
    assert!(plain.iter().all(|v| v.get("list_id").is_none()));
    let all = "date,newsgroups,subject,message-id,list-id";
    let with = json(&["--json", "--fields", all, "lists.mbox"]);
    let ids: Vec<Value> = with.iter().map(|v| v["list_id"].clone()).collect();
    assert_eq!(
        Value::Array(ids.clone()),
        serde_json::json!([
            "gopher-news.lists.example.edu",
            "plain.example.org",
            "plain.example.org",
            null
        ])
    );
    // Byte for byte the default objects with "list_id" last.
    let default = run(d.path(), &["--json", "lists.mbox"]).out();
    let asked = run(d.path(), &["--json", "--fields", all, "lists.mbox"]).out();
    for ((a, b), id) in default.lines().zip(asked.lines()).zip(&ids) {
        let tail = format!(",\"list_id\":{id}}}");
        assert_eq!(b.strip_suffix(&tail), a.strip_suffix('}'), "{b}");
    }
    let only = json(&["--json", "--fields", "list-id", "lists.mbox"]);
    assert_eq!(only[0]["list_id"], "gopher-news.lists.example.edu");
    assert_eq!(only[1]["message_id"], Value::Null);
}

#[test]
fn since_and_until_select_by_message_date() {
    let d = tmp();
    write(d.path(), "dated.mbox", DATED);
    write(d.path(), "undated.txt", b"<http://undated.example/>\n");
    for j in ["-j1", "-j2"] {
        let r = run(
            d.path(),
            &[
                j,
                "--since",
                "1993-02-01",
                "--until",
                "1993-12-03T09:00:00Z",
                "dated.mbox",
                "undated.txt",
            ],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            r.out(),
            "dated.mbox:http://two.example/\ndated.mbox:http://one.example/\n"
        );
        let r = run(
            d.path(),
            &[
                j,
                "--since",
                "1993-12-03",
                "--raw",
                "dated.mbox",
                "undated.txt",
            ],
        );
        assert_eq!(r.out(), "dated.mbox:http://three.example/\n");
    }
    // Context lines and --json with them select the same URLs.
    let r = run(d.path(), &["-C", "0", "--since", "1993-12", "dated.mbox"]);
    assert_eq!(r.out(), "<http://three.example/>\n");
    let r = run(
        d.path(),
        &["--json", "-A", "0", "--until", "1993-02", "dated.mbox"],
    );
    assert_eq!(r.out().lines().count(), 2, "{}", r.out());
    // URLs with no known date are left out; nothing left: exit 1.
    let r = run(d.path(), &["--until", "2100-01-01", "undated.txt"]);
    assert_eq!((r.code, r.out()), (1, String::new()));
    let r = run(d.path(), &["--since", "last tuesday", "dated.mbox"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--since"), "{}", r.stderr);
}

#[test]
fn tally_gives_first_and_last_dates() {
    let d = tmp();
    write(d.path(), "dated.mbox", DATED);
    write(d.path(), "undated.txt", b"<http://undated.example/>\n");
    let r = run(
        d.path(),
        &[
            "--tally=first",
            "--fields",
            "date",
            "dated.mbox",
            "undated.txt",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1],
        "2\thttp://one.example/\tdated.mbox:6:1\t1993-01-12T19:02:11Z\t1993-03-03T10:00:00Z"
    );
    assert_eq!(
        lines[4],
        "1\thttp://undated.example/\tundated.txt:1:1\t-\t-"
    );
    let r = run(
        d.path(),
        &["--tally", "--json", "--fields", "date", "dated.mbox"],
    );
    let v: Value = serde_json::from_str(r.out().lines().next().unwrap()).unwrap();
    assert_eq!(v["url"], "http://one.example/");
    assert_eq!(v["first_date"], "1993-01-12T19:02:11Z");
    assert_eq!(v["last_date"], "1993-03-03T10:00:00Z");
}

/// A large mbox read in the MIME reading is split among threads at message
/// starts with the message fields on (the default of `--json`): each
/// range's reader frames its messages anew there, so every URL still has
/// its own message's date, and the output is that of one thread.
#[test]
fn message_fields_survive_the_split_of_a_large_mbox() {
    let mut mbox = Vec::new();
    for i in 0..400u32 {
        mbox.extend_from_slice(
            format!(
                "From a@b Tue Jan 12 14:02:11 1993\nDate: {} Feb 1994 10:00:00 +0000\n\
                 Subject: m{i}\n\n<http://h{i}.example/>\n{}\n\n",
                1 + i % 28,
                "text ".repeat(100)
            )
            .as_bytes(),
        );
    }
    let d = tmp();
    write(d.path(), "big.mbox", &mbox);
    let one = run(d.path(), &["--json", "-j1", "big.mbox"]);
    for raw in [&[][..], &["--raw"][..]] {
        let mut args = vec!["--json", "-j2", "--piece-size", "4096", "big.mbox"];
        args.extend_from_slice(raw);
        let two = run(d.path(), &args);
        assert_eq!(two.out(), one.out(), "{raw:?}");
    }
    let vs: Vec<Value> = one
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(vs.len(), 400);
    for (i, v) in vs.iter().enumerate() {
        assert_eq!(v["subject"], format!("m{i}"));
        assert_eq!(v["date"], format!("1994-02-{:02}T10:00:00Z", 1 + i % 28));
    }
}
