//! End-to-end tests of the command under real use: write
//! errors, the man page and completions, bounds on the numbers a user
//! gives, file names as data, deep trees, streaming output.

mod util;

use std::fs::OpenOptions;
use std::process::Stdio;

use util::{bin, run, tmp};

/// Runs `urlsift args` with standard output on /dev/full.
fn to_full(args: &[&str]) -> util::Run {
    let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
    bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .unwrap()
        .into()
}

#[test]
fn every_write_error_is_an_error() {
    let d = tmp();
    util::write(d.path(), "a.txt", b"<http://a.example/>\n");
    let path = d.path().join("a.txt");
    let path = path.to_str().unwrap();
    for args in [
        &["--help"][..],
        &["-h"],
        &["--version"],
        &["--generate", "man"],
        &["--generate", "complete-bash"],
        &[path],
        &["-j2", path],
        &["-c", path],
        &["--json", path],
        &["--parse", "http://a.b/"],
    ] {
        let r = to_full(args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(
            r.stderr.starts_with("urlsift: writing output: "),
            "{args:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_failing_stderr_does_not_abort() {
    // Nowhere to report it: the status says what happened.
    let full = OpenOptions::new().write(true).open("/dev/full").unwrap();
    let st = bin()
        .args(["--stats", "/nonexistent/x"])
        .stdout(Stdio::null())
        .stderr(full)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(2));
}

#[test]
fn generate_man_page_and_completions() {
    let d = tmp();
    let man = run(d.path(), &["--generate", "man"]);
    assert_eq!(man.code, 0, "{}", man.stderr);
    let text = man.out();
    assert!(text.contains("\n.TH urlsift 1"), "{text}");
    assert!(text.contains(".SH OPTIONS"));
    assert!(text.contains("max\\-bytes"));
    for (kind, mark) in [
        ("complete-bash", "complete -F"),
        ("complete-zsh", "#compdef urlsift"),
        ("complete-fish", "complete -c urlsift"),
        ("complete-powershell", "Register-ArgumentCompleter"),
    ] {
        let r = run(d.path(), &["--generate", kind]);
        assert_eq!(r.code, 0, "{kind}: {}", r.stderr);
        assert!(r.out().contains(mark), "{kind}");
        assert!(r.out().contains("--json"), "{kind}");
    }
    // Alone, or it is a usage error.
    assert_eq!(run(d.path(), &["--generate", "man", "x"]).code, 2);
    assert_eq!(run(d.path(), &["--generate", "troff"]).code, 2);
}

#[test]
fn numbers_out_of_range_are_errors_or_clamped() {
    let d = tmp();
    let (text, planted) = util::mbox(3 << 20);
    util::write(d.path(), "big.mbox", &text);
    let base = run(d.path(), &["-j1", "-n", "big.mbox"]);
    assert_eq!(base.code, 0, "{}", base.stderr);
    assert_eq!(base.out().lines().count(), planted);
    // Clamped (documented in --help): no abort, the same URLs.
    for args in [
        &["--max-bytes", "18446744073709551615"][..],
        &["--max-bytes", "100000000", "-j2"],
        &["--max-lines", "18446744073709551615"],
        &["-j", "100000"],
        &["-j", "3"],
    ] {
        let mut a = args.to_vec();
        a.extend(["-n", "big.mbox"]);
        let r = run(d.path(), &a);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(r.stdout == base.stdout, "{args:?}");
    }
    // Errors: a message and status 2.
    for args in [
        &["-j0"][..],
        &["-j", "-3"],
        &["-j", "99999999999999999999999"],
        &["--max-bytes", "7"],
        &["--max-bytes", "1e9"],
        &["--max-lines", "-1"],
        &["--max-lines", "18446744073709551616"],
    ] {
        let r = run(d.path(), args);
        assert_eq!(r.code, 2, "{args:?}");
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(r.stderr.starts_with("urlsift: "), "{args:?}: {}", r.stderr);
    }
    let help = run(d.path(), &["--help"]).out();
    assert!(help.contains("at most 64"), "{help}");
    assert!(help.contains("8 to 1048576"), "{help}");
}

#[test]
fn file_names_are_data() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let d = tmp();
    let dir = d.path().join("t");
    std::fs::create_dir(&dir).unwrap();
    let names: [&[u8]; 3] = [
        b"e\x1b]0;owned\x07\nhttp:forged.example",
        b"n\xff\xfe.txt",
        "r\\\u{e9}\u{9b}.txt".as_bytes(),
    ];
    for n in names {
        std::fs::write(
            dir.join(OsStr::from_bytes(n)),
            b"<http://a.example/> <http://bad host/>\n",
        )
        .unwrap();
    }
    // Sorted by name bytes: e..., n..., r...
    let shown = [
        "t/e\\x1b]0;owned\\x07\\x0ahttp:forged.example",
        "t/n\\xff\\xfe.txt",
        "t/r\\\\\u{e9}\\xc2\\x9b.txt",
    ];
    let lines = |args: &[&str]| {
        let r = run(d.path(), args);
        assert!(r.code == 0 || r.code == 1, "{args:?}: {}", r.stderr);
        assert!(!r
            .stdout
            .iter()
            .any(|&b| b < 0x20 && b != b'\n' && b != b'\t'));
        r.out().lines().map(String::from).collect::<Vec<_>>()
    };
    let with = |suffix: &str| {
        shown
            .iter()
            .map(|s| format!("{s}{suffix}"))
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&["t"]), with(":http://a.example/"));
    assert_eq!(lines(&["-c", "t"]), with(":1"));
    assert_eq!(lines(&["-l", "t"]), with(""));
    let inv = lines(&["--invalid", "t"]);
    assert_eq!(inv.len(), 3);
    for (l, s) in inv.iter().zip(shown) {
        assert!(l.starts_with(&format!("{s}:1:http://bad\t")), "{l}");
    }
    // JSON: a UTF-8 path as a string, any other as its bytes in base64.
    let json = lines(&["--json", "t"]);
    let paths: Vec<serde_json::Value> = json
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["path"].clone())
        .collect();
    assert_eq!(paths[0], "t/e\u{1b}]0;owned\u{7}\nhttp:forged.example");
    assert_eq!(paths[1], serde_json::json!({"bytes": "dC9u//4udHh0"}));
    assert_eq!(paths[2], "t/r\\\u{e9}\u{9b}.txt");
    // Messages name the path the same way.
    let r = run(d.path(), &["t/n\u{1b}[2J"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("urlsift: t/n\\x1b[2J: "),
        "{}",
        r.stderr
    );
}

#[test]
fn trees_deeper_than_the_open_file_limit() {
    // 100 levels, a file at each and a symlink loop at the bottom, walked
    // with at most 32 descriptors.
    let d = tmp();
    let mut dir = d.path().join("t");
    let mut expect = Vec::new();
    for i in 0..100 {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.txt"), format!("<news:level{i}.example>\n")).unwrap();
        expect.push(format!("news:level{i}.example"));
        dir = dir.join("d");
    }
    std::os::unix::fs::symlink(d.path().join("t"), dir.with_file_name("loop")).unwrap();
    for j in ["-j1", "-j2"] {
        let r: util::Run = std::process::Command::new("sh")
            .args(["-c", "ulimit -n 32 && exec \"$0\" \"$@\""])
            .arg(env!("CARGO_BIN_EXE_urlsift"))
            .args([j, "--no-filename", "t"])
            .current_dir(d.path())
            .stdin(Stdio::null())
            .output()
            .unwrap()
            .into();
        assert_eq!(
            r.out().lines().collect::<Vec<_>>(),
            expect,
            "{j}: {}",
            r.stderr
        );
        // The loop is reported, at its place; nothing else.
        assert_eq!(r.code, 2, "{j}");
        let errs: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(errs.len(), 1, "{j}: {}", r.stderr);
        assert!(
            errs[0].ends_with("/loop: symbolic link loop (directory already being searched)"),
            "{j}: {}",
            r.stderr
        );
    }
}

/// Reads `child`'s output lines on a thread: each arrives on the channel
/// as it is written, so a test can wait for one with a timeout.
fn lines_of(child: &mut std::process::Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let out = std::io::BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in out.lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    rx
}

/// The next output line, waiting at most ten seconds (the child is killed
/// on a timeout, so a failure cannot hang the suite).
fn next_line(
    rx: &std::sync::mpsc::Receiver<String>,
    child: &mut std::process::Child,
    what: &str,
) -> String {
    match rx.recv_timeout(std::time::Duration::from_secs(10)) {
        Ok(l) => l,
        Err(e) => {
            let _ = child.kill();
            panic!("{what}: no line in time ({e})");
        }
    }
}

#[test]
fn a_live_stream_gives_each_url_at_once() {
    use std::io::Write;
    for j in ["-j1", "-j2"] {
        // A pipe on stdin, output into a pipe with --line-buffered.
        let mut child = bin()
            .args([j, "-n", "--line-buffered"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        let rx = lines_of(&mut child);
        input.write_all(b"a line <news:one.example>\n").unwrap();
        input.flush().unwrap();
        assert_eq!(next_line(&rx, &mut child, j), "1:news:one.example");
        // A URL broken over lines comes when it closes.
        input.write_all(b"> <URL:http://two.example/\n").unwrap();
        input.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert!(rx.try_recv().is_err(), "{j}: nothing decided yet");
        input.write_all(b"> more/> text\n").unwrap();
        input.flush().unwrap();
        assert_eq!(next_line(&rx, &mut child, j), "2:http://two.example/more/");
        drop(input);
        assert_eq!(child.wait().unwrap().code(), Some(0));
        assert!(rx.recv().is_err(), "{j}: nothing more");
    }
}

#[test]
fn a_fifo_is_read_live() {
    use std::io::Write;
    let d = tmp();
    let fifo = d.path().join("fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut child = bin()
        .args(["--line-buffered", "fifo"])
        .current_dir(d.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rx = lines_of(&mut child);
    let mut w = OpenOptions::new().write(true).open(&fifo).unwrap();
    w.write_all(b"<news:first.example> and\n").unwrap();
    assert_eq!(next_line(&rx, &mut child, "fifo"), "news:first.example");
    w.write_all(b"<gopher://second.example/>\n").unwrap();
    assert_eq!(
        next_line(&rx, &mut child, "fifo"),
        "gopher://second.example/"
    );
    drop(w);
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

mod piece_splitting {
    //! Any input cut at any piece boundaries, searched by any number of
    //! threads, gives the output of one sequential pass (the hidden
    //! `--piece-size` moves every boundary: tiny pieces make files "large",
    //! split into ranges, batches hand back, streams come in many units).

    use super::*;
    use proptest::prelude::*;

    fn fragment() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            Just(b"<URL:http://a.example/x-\n  y/z>".to_vec()),
            Just(b"> quoted <ftp://h.example/p\n> q> after".to_vec()),
            Just(b"<news:comp.mail.mime> <gopher://g.example/1>".to_vec()),
            Just(b"<http://bad host/> <URL:mailto:a@b.example>".to_vec()),
            Just(b"\x1b$B<http://no.example/>\x1b(B <news:a.b>".to_vec()),
            Just(b"<http://never.closed/".to_vec()),
            Just(b"From a@b.example Mon Jan  1 00:00:00 1996\n".to_vec()),
            Just(b"Message-ID: <1.2@x.example>\n".to_vec()),
            // MIME: a body whose raw lines outnumber its decoded ones.
            Just(b"Content-Transfer-Encoding: quoted-printable\n".to_vec()),
            Just(b"<http://q.example/a=\nb=3Dc> soft=\nbreak\n".to_vec()),
            Just(b"\n".to_vec()),
            Just(b"\n\n".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b" ".to_vec()),
            (1usize..3000).prop_map(|n| vec![b'x'; n]),
            "[a-z <>:/.\n-]{1,40}".prop_map(|s| s.into_bytes()),
        ]
    }

    fn flags() -> impl Strategy<Value = Vec<&'static str>> {
        prop_oneof![
            Just(vec!["-n", "--column"]),
            Just(vec!["--json"]),
            Just(vec!["--invalid", "--column"]),
            Just(vec!["-c"]),
            Just(vec!["-u", "-n"]),
            Just(vec!["-n", "--max-bytes", "64", "--max-lines", "2"]),
            Just(vec!["-m", "3", "-n"]),
            Just(vec!["--tally"]),
            Just(vec!["-n", "-C", "1"]),
            Just(vec!["-A", "2", "-n"]),
            Just(vec!["-B", "3"]),
            Just(vec!["--json", "-C", "1"]),
            Just(vec!["-n", "-C", "2", "--color", "always", "--hyperlink"]),
        ]
    }

    fn urlsift(dir: &std::path::Path, args: &[String], input: &[u8]) -> Vec<u8> {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = util::run_stdin(dir, &args, input);
        assert!(r.code < 2, "{args:?}: {}", r.stderr);
        without_message_ids(r.stdout)
    }

    /// The output with JSON's `message_id` values blanked. Message-IDs are
    /// the one thing a cut may change, and only a cut inside a header block
    /// before its `Message-ID:` line (documented in `mail.rs`): the tiny
    /// pieces here make such cuts common, 1 MiB pieces cut after a blank
    /// line whenever the last half of a piece has one. Whole mailboxes at
    /// any thread count keep their ids (`tests/cli.rs`,
    /// `threads_identical_on_large_mbox`).
    fn without_message_ids(out: Vec<u8>) -> Vec<u8> {
        const KEY: &[u8] = b"\"message_id\":";
        let mut clean = Vec::with_capacity(out.len());
        for line in out.split_inclusive(|&b| b == b'\n') {
            match line.windows(KEY.len()).rposition(|w| w == KEY) {
                Some(k) if line.starts_with(b"{") => {
                    clean.extend_from_slice(&line[..k + KEY.len()]);
                    // The value: null, or a string (escapes skipped).
                    let rest = &line[k + KEY.len()..];
                    let len = if rest.starts_with(b"null") {
                        4
                    } else {
                        let mut i = 1;
                        while i < rest.len() && rest[i] != b'"' {
                            i += if rest[i] == b'\\' { 2 } else { 1 };
                        }
                        (i + 1).min(rest.len())
                    };
                    clean.extend_from_slice(b"\"-\"");
                    clean.extend_from_slice(&rest[len..]);
                }
                _ => clean.extend_from_slice(line),
            }
        }
        clean
    }

    /// The case the property found with `-C 1`: a first line longer than
    /// a piece (4919 bytes, pieces of 1506), its URL near its start, was
    /// printed as the URL's line cut at the piece's end, then its rest as
    /// context, and the line after it was lost.
    #[test]
    fn a_line_longer_than_a_piece_is_printed_once_whole() {
        let first = format!("<http://a.example/> {}", "x".repeat(4898));
        let mut text = format!("{first}\n");
        for i in 0..40 {
            text.push_str(&format!("l{i:03} {}\n", "y".repeat(494)));
        }
        text.push_str("<news:b.c>\n");
        let ys = "y".repeat(494);
        let want = format!("1:{first}\n2-l000 {ys}\n--\n41-l039 {ys}\n42:<news:b.c>\n");
        let d = tmp();
        util::write(d.path(), "one.txt", text.as_bytes());
        for input in ["one.txt", "-"] {
            for piece in ["1506", "100", "1048576"] {
                let args = ["-n", "-C", "1", "--piece-size", piece, input];
                let r = util::run_stdin(d.path(), &args, text.as_bytes());
                assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
                assert!(r.out() == want, "{args:?}:\n{}", r.out());
            }
        }
    }

    /// A line over the cap (64 KiB) is printed cut there and marked, the
    /// same at any piece size.
    #[test]
    fn a_line_over_the_cap_is_cut_and_marked_at_any_piece_size() {
        let long = "z".repeat(100_000);
        let text = format!("a\n{long} <news:far.example>\nb\n<news:near.example> {long}\n");
        let z = "z".repeat(64 * 1024);
        let far = format!(
            "{z} [... omitted {} bytes of a long line]",
            100_019 - 65_536
        );
        let near = format!(
            "<news:near.example> {} [... omitted {} bytes of a long line]",
            &z[..64 * 1024 - 20],
            100_020 - 65_536
        );
        let want = format!("1-a\n2:{far}\n3-b\n4:{near}\n");
        let d = tmp();
        for piece in ["1000", "70000", "1048576"] {
            let args = ["-n", "-C", "1", "--piece-size", piece, "-"];
            let r = util::run_stdin(d.path(), &args, text.as_bytes());
            assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
            assert!(r.out() == want, "{args:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn any_cut_any_threads_one_pass(
            parts in proptest::collection::vec(fragment(), 1..300),
            piece in 16usize..4000,
            threads in 2usize..5,
            cuts in proptest::collection::vec(0.0f64..1.0, 0..4),
            flags in flags(),
        ) {
            let text = parts.concat();
            let d = tmp();
            util::write(d.path(), "one.txt", &text);
            // The same bytes as several files of a directory.
            let mut at: Vec<usize> = cuts.iter().map(|c| (c * text.len() as f64) as usize).collect();
            at.sort_unstable();
            at.push(text.len());
            let mut from = 0;
            for (k, &to) in at.iter().enumerate() {
                util::write(d.path(), &format!("dir/{k:02}"), &text[from..to]);
                from = to;
            }
            let piece = piece.to_string();
            let j = format!("-j{threads}");
            for (input, stdin) in [("one.txt", &b""[..]), ("-", &text[..]), ("dir", &b""[..])] {
                let with = |extra: &[&str]| -> Vec<String> {
                    let mut a: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
                    a.extend(extra.iter().map(|s| s.to_string()));
                    a.push(input.to_string());
                    a
                };
                let one_pass = urlsift(d.path(), &with(&["-j1"]), stdin);
                for extra in [&["-j1", "--piece-size", &piece][..], &[&j, "--piece-size", &piece]] {
                    let got = urlsift(d.path(), &with(extra), stdin);
                    prop_assert!(
                        got == one_pass,
                        "{:?} on {input}:\n{}\n---- one pass:\n{}",
                        with(extra),
                        String::from_utf8_lossy(&got),
                        String::from_utf8_lossy(&one_pass)
                    );
                }
            }
        }
    }
}

#[test]
fn a_terminal_gets_each_url_at_once() {
    use std::io::Write;
    // script(1) runs the command on a pseudo-terminal: its input and its
    // output are a terminal (line-buffered without being asked).
    let cmd = format!("{} --color never", env!("CARGO_BIN_EXE_urlsift"));
    let mut child = std::process::Command::new("script")
        .args(["-qfec", &cmd, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("script(1), from util-linux");
    let mut input = child.stdin.take().unwrap();
    let rx = lines_of(&mut child);
    // The terminal echoes what is typed: only the URL lines count.
    let mut url = |want: &str| loop {
        let l = next_line(&rx, &mut child, "pty");
        if l.trim_end_matches('\r') == want {
            break;
        }
    };
    input.write_all(b"see <news:pty.example> now\n").unwrap();
    input.flush().unwrap();
    url("news:pty.example");
    input.write_all(b"and <http://two.example/>\n").unwrap();
    input.flush().unwrap();
    url("http://two.example/");
    let _ = child.kill();
    let _ = child.wait();
}
