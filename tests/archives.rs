//! The command on archives and compressed files: every format
//! recognised by content, members named `archive{member}`, nesting to a
//! depth, caps on what decompresses, damaged archives reported while the
//! rest is searched, path lists, `-0`, and the same output at any `-j`.
//! The archives are built here with the crates the command reads them
//! with; `tests/data/archives/` holds two made by Python's zipfile: a bomb
//! (400 MB of text, bzip2ed into 1.5 KB) and entries with data
//! descriptors.

mod util;

use std::io::Write;
use std::path::Path;

use serde_json::Value;
use util::{gzip, run, run_stdin, tmp, write};

const TEXT: &[u8] =
    b"Hello,\nsee <URL:http://www.w3.org/hyper\n  text/> and <ftp://ds.internic.net/rfc/>\n";

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/data/archives"
    ))
    .join(name)
}

/// A zip of `(name, bytes, method)` members (names ending in `/` are
/// directories), zip64 extra fields when `zip64`.
fn zip_of(members: &[(&str, &[u8], zip::CompressionMethod)], zip64: bool) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, bytes, method) in members {
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(*method)
            .large_file(zip64);
        if name.ends_with('/') {
            w.add_directory(*name, opts).unwrap();
        } else {
            w.start_file(*name, opts).unwrap();
            w.write_all(bytes).unwrap();
        }
    }
    w.finish().unwrap().into_inner()
}

/// A tar of `(name, bytes)` members in the given header format; a
/// directory and a symbolic link among them.
fn tar_of(members: &[(&str, &[u8])], gnu: bool) -> Vec<u8> {
    let mut b = tar::Builder::new(Vec::new());
    let mut dir = if gnu {
        tar::Header::new_gnu()
    } else {
        tar::Header::new_ustar()
    };
    dir.set_entry_type(tar::EntryType::Directory);
    dir.set_size(0);
    dir.set_mode(0o755);
    b.append_data(&mut dir, "d/", &[][..]).unwrap();
    for (name, bytes) in members {
        let mut h = if gnu {
            tar::Header::new_gnu()
        } else {
            tar::Header::new_ustar()
        };
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        // Long names go as GNU long-name records or pax headers.
        b.append_data(&mut h, name, *bytes).unwrap();
    }
    let mut link = tar::Header::new_ustar();
    link.set_entry_type(tar::EntryType::Symlink);
    link.set_size(0);
    b.append_link(&mut link, "d/link", "elsewhere").unwrap();
    b.into_inner().unwrap()
}

fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

fn zst(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 1).unwrap()
}

/// The URLs of TEXT, each line `prefix` and the URL.
fn urls_of_text(prefix: &str) -> String {
    format!("{prefix}http://www.w3.org/hypertext/\n{prefix}ftp://ds.internic.net/rfc/\n")
}

/// Runs at -j1 and -j2; the outputs and messages must agree.
fn run_all_j(dir: &Path, args: &[&str]) -> util::Run {
    let mut first: Option<util::Run> = None;
    for j in ["-j1", "-j2"] {
        let mut a = vec![j];
        a.extend_from_slice(args);
        let r = run(dir, &a);
        if let Some(f) = &first {
            assert_eq!(r.stdout, f.stdout, "{j} {args:?}");
            assert_eq!(r.stderr, f.stderr, "{j} {args:?}");
            assert_eq!(r.code, f.code, "{j} {args:?}");
        } else {
            first = Some(r);
        }
    }
    first.unwrap()
}

#[test]
fn sample_archive_as_expected() {
    // The rows of tests/data/samples-expected.tsv for the members of
    // samples/news/archive.zip (ref-extract on each member, decoded).
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let expected = std::fs::read_to_string(root.join("tests/data/samples-expected.tsv")).unwrap();
    let want: String = expected
        .lines()
        .filter(|l| l.starts_with("news/archive.zip{"))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            format!("samples/{}:{}:{}\n", f[0], f[1], f[2])
        })
        .collect();
    assert_eq!(want.lines().count(), 6);
    let r = run_all_j(root, &["-n", "samples/news/archive.zip"]);
    assert_eq!(r.out(), want);
}

#[test]
fn every_format_by_content_members_named_archive_member() {
    use zip::CompressionMethod as M;
    let d = tmp();
    let p = d.path();
    let long = format!("deep/{}/long name.txt", "x".repeat(120));
    let tar_members: Vec<(&str, &[u8])> =
        vec![("m/one.txt", TEXT), (long.as_str(), b"<news:long>\n")];
    let ustar = tar_of(&tar_members, false);
    let gnu = tar_of(&tar_members, true);
    write(p, "in/plain.tar", &ustar);
    write(p, "in/gnu.tar", &gnu);
    write(p, "in/t.tgz", &gzip(&ustar));
    write(p, "in/t.tar.bz2", &bzip2(&gnu));
    write(p, "in/t.tar.xz", &xz(&ustar));
    write(p, "in/t.tar.zst", &zst(&ustar));
    write(p, "in/s.bz2", &bzip2(TEXT));
    write(p, "in/s.xz", &xz(TEXT));
    write(p, "in/s.zst", &zst(TEXT));
    // A tar.gz named as text: content decides.
    write(p, "in/z-misnamed.txt", &gzip(&ustar));
    let z = zip_of(
        &[
            ("dir/", b"", M::Stored),
            ("dir/stored.txt", TEXT, M::Stored),
            ("deflated.txt", TEXT, M::Deflated),
            ("bz.txt", TEXT, M::Bzip2),
            ("zs.txt", TEXT, M::Zstd),
            ("x.txt", TEXT, M::Xz),
            ("none.txt", b"nothing here\n", M::Deflated),
        ],
        false,
    );
    write(p, "in/a.zip", &z);
    let z64 = zip_of(&[("big/64.txt", TEXT, M::Deflated)], true);
    write(p, "in/b64.zip", &z64);
    std::fs::copy(fixture("descriptors.zip"), p.join("in/dd.zip")).unwrap();
    let r = run_all_j(p, &["in"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    let mut want = String::new();
    for m in [
        "dir/stored.txt",
        "deflated.txt",
        "bz.txt",
        "zs.txt",
        "x.txt",
    ] {
        want += &urls_of_text(&format!("in/a.zip{{{m}}}:"));
    }
    want += &urls_of_text("in/b64.zip{big/64.txt}:");
    want += &"in/dd.zip{one.txt}:http://one.example/a\n".repeat(3);
    want += "in/dd.zip{sub/two.txt}:news:two.example\n";
    for tar in ["gnu.tar", "plain.tar"] {
        want += &urls_of_text(&format!("in/{tar}{{m/one.txt}}:"));
        want += &format!("in/{tar}{{{long}}}:news:long\n");
    }
    for s in ["s.bz2", "s.xz", "s.zst"] {
        want += &urls_of_text(&format!("in/{s}:"));
    }
    for t in [
        "t.tar.bz2",
        "t.tar.xz",
        "t.tar.zst",
        "t.tgz",
        "z-misnamed.txt",
    ] {
        want += &urls_of_text(&format!("in/{t}{{m/one.txt}}:"));
        want += &format!("in/{t}{{{long}}}:news:long\n");
    }
    assert_eq!(r.out(), want);
    // A member with the first line number of its own.
    let r = run(p, &["-n", "in/a.zip"]);
    assert!(r
        .out()
        .starts_with("in/a.zip{dir/stored.txt}:2:http://www.w3.org/hypertext/\n"));
}

#[test]
fn count_files_json_invalid_and_message_id_name_members() {
    use zip::CompressionMethod as M;
    let d = tmp();
    let p = d.path();
    let mbox = b"From a@b Mon Jan  1 00:00:00 1996\nMessage-ID: <1@x>\n\nsee <http://m.example/>\n";
    let inner = gzip(&tar_of(&[("c d.txt", TEXT), ("box", mbox)], false));
    let z = zip_of(
        &[
            ("b.tgz", &inner, M::Stored),
            ("bad.txt", b"<http://bad host/>\n", M::Deflated),
            ("none.txt", b"no\n", M::Deflated),
        ],
        false,
    );
    write(p, "a.zip", &z);
    let r = run_all_j(p, &["-c", "a.zip"]);
    assert_eq!(
        r.out(),
        "a.zip{b.tgz}{c d.txt}:2\na.zip{b.tgz}{box}:1\na.zip{bad.txt}:0\na.zip{none.txt}:0\n"
    );
    let r = run_all_j(p, &["-l", "a.zip"]);
    assert_eq!(r.out(), "a.zip{b.tgz}{c d.txt}\na.zip{b.tgz}{box}\n");
    let r = run_all_j(p, &["-l", "-0", "a.zip"]);
    assert_eq!(r.stdout, b"a.zip{b.tgz}{c d.txt}\0a.zip{b.tgz}{box}\0");
    let r = run_all_j(p, &["--no-filename", "a.zip"]);
    assert_eq!(r.out(), urls_of_text("") + "http://m.example/\n");
    let r = run_all_j(p, &["--invalid", "a.zip"]);
    assert!(
        r.out().starts_with("a.zip{bad.txt}:1:http://bad\t"),
        "{}",
        r.out()
    );
    let r = run_all_j(p, &["--message-id", "a.zip"]);
    assert!(
        r.out()
            .ends_with("a.zip{b.tgz}{box}:<1@x>\thttp://m.example/\n"),
        "{}",
        r.out()
    );
    let r = run_all_j(p, &["--json", "a.zip"]);
    let v: Vec<Value> = r
        .out()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["path"], "a.zip");
    assert_eq!(v[0]["member"], "b.tgz}{c d.txt");
    assert_eq!(v[0]["line"], 2);
    assert_eq!(v[2]["member"], "b.tgz}{box");
    assert_eq!(v[2]["message_id"], "<1@x>");
    // A plain file's records have no member.
    write(p, "t.txt", TEXT);
    let r = run(p, &["--json", "t.txt"]);
    let v: Value = serde_json::from_str(r.out().lines().next().unwrap()).unwrap();
    assert!(v.get("member").is_none());
    // An archive on stdin.
    let r = run_stdin(p, &["-c"], &z);
    assert!(
        r.out().starts_with("(standard input){b.tgz}{c d.txt}:2\n"),
        "{}",
        r.out()
    );
}

#[test]
fn nesting_depth_and_archives_off() {
    use zip::CompressionMethod as M;
    let d = tmp();
    let p = d.path();
    let inner = zip_of(&[("c.txt", TEXT, M::Deflated)], false);
    let tgz = gzip(&tar_of(&[("inner.zip", &inner)], false));
    let outer = zip_of(&[("b.tgz", &tgz, M::Deflated)], false);
    write(p, "a.zip", &outer);
    let r = run_all_j(p, &["a.zip"]);
    assert_eq!(r.out(), urls_of_text("a.zip{b.tgz}{inner.zip}{c.txt}:"));
    // Two levels: the zip inside the tar is searched as its bytes (its
    // member is deflated: nothing found).
    let r = run_all_j(p, &["-c", "--archive-depth", "2", "a.zip"]);
    assert_eq!(r.out(), "a.zip{b.tgz}{inner.zip}:0\n");
    let r = run_all_j(p, &["-c", "--archive-depth", "1", "a.zip"]);
    assert_eq!(r.out(), "a.zip{b.tgz}:0\n");
    let r = run_all_j(p, &["-c", "--no-archive", "a.zip"]);
    assert_eq!(r.out(), "0\n");
    // Archives off, decoding on: a tar.gz searched as its tar bytes.
    let plain_tar = tar_of(&[("t.txt", TEXT)], false);
    write(p, "t.tgz", &gzip(&plain_tar));
    let r = run_all_j(p, &["--no-archive", "t.tgz"]);
    assert_eq!(r.out(), urls_of_text(""));
    let r = run_all_j(p, &["-c", "--no-decompress", "t.tgz"]);
    assert_eq!(r.out(), "0\n");
}

#[test]
fn damaged_archives_report_and_go_on() {
    use zip::CompressionMethod as M;
    let d = tmp();
    let p = d.path();
    let mut big = Vec::new();
    for i in 0..20000 {
        big.extend_from_slice(format!("<news:n{i}.example> {}\n", i * 7919).as_bytes());
    }
    // A cut zip: no central directory; read from the local headers.
    let z = zip_of(
        &[
            ("first.txt", TEXT, M::Stored),
            ("big.txt", &big, M::Deflated),
            ("last.txt", TEXT, M::Stored),
        ],
        false,
    );
    write(p, "cut.zip", &z[..z.len() / 2]);
    // A bad checksum: one byte of a stored member changed.
    let mut crc = zip_of(
        &[("a.txt", TEXT, M::Stored), ("b.txt", TEXT, M::Stored)],
        false,
    );
    let at = crc.windows(5).position(|w| w == b"Hello").unwrap();
    crc[at] = b'J';
    write(p, "crc.zip", &crc);
    // An unsupported method (1, shrink) in both headers of a member.
    let mut meth = zip_of(
        &[("old.txt", TEXT, M::Stored), ("new.txt", TEXT, M::Stored)],
        false,
    );
    meth[8] = 1;
    let cd = meth.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    meth[cd + 10] = 1;
    write(p, "meth.zip", &meth);
    // A cut tar.gz: the first member whole, the second cut.
    let tgz = gzip(&tar_of(&[("a.txt", TEXT), ("b.txt", &big)], false));
    write(p, "cut.tgz", &tgz[..tgz.len() * 2 / 3]);
    // A tar header with a bad checksum after a good member.
    let mut tar = tar_of(&[("a.txt", TEXT), ("b.txt", TEXT)], false);
    let second = 512 * 3 + 148; // after the dir header, a.txt's header and block
    tar[second] ^= 1;
    write(p, "sum.tar", &tar);
    write(p, "z.txt", b"<news:z>\n");
    for (file, out, err) in [
        (
            "cut.zip",
            urls_of_text("cut.zip{first.txt}:"),
            vec![
                "urlsift: cut.zip: invalid Zip archive",
                "urlsift: cut.zip{big.txt}: ",
            ],
        ),
        (
            "crc.zip",
            urls_of_text("crc.zip{a.txt}:") + &urls_of_text("crc.zip{b.txt}:"),
            vec!["urlsift: crc.zip{a.txt}: Invalid checksum"],
        ),
        (
            "meth.zip",
            urls_of_text("meth.zip{new.txt}:"),
            vec!["urlsift: meth.zip{old.txt}: unsupported"],
        ),
        (
            "cut.tgz",
            urls_of_text("cut.tgz{a.txt}:"),
            vec!["urlsift: cut.tgz{b.txt}: "],
        ),
        (
            "sum.tar",
            urls_of_text("sum.tar{a.txt}:"),
            vec!["urlsift: sum.tar: "],
        ),
    ] {
        let r = run_all_j(p, &[file, "z.txt"]);
        assert_eq!(r.code, 2, "{file}");
        let got = r.out();
        // The URLs before the damage, then the other input.
        assert!(got.starts_with(&out), "{file}: {got}");
        assert!(got.ends_with("z.txt:news:z\n"), "{file}: {got}");
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), err.len(), "{file}: {}", r.stderr);
        for (l, e) in lines.iter().zip(&err) {
            assert!(l.starts_with(e), "{file}: {l}");
        }
    }
}

#[test]
fn bombs_are_capped_per_member_and_per_archive() {
    let d = tmp();
    let p = d.path();
    std::fs::copy(fixture("bomb.zip"), p.join("bomb.zip")).unwrap();
    let r = run_all_j(p, &["--max-member-size", "8M", "bomb.zip"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.out(),
        "bomb.zip{before.txt}:news:before\nbomb.zip{after.txt}:news:after\n"
    );
    assert_eq!(
        r.stderr,
        "urlsift: bomb.zip{big.txt}: member decompresses to more than 8388608 bytes \
         (--max-member-size); rest skipped\n"
    );
    // By the sizes the directory declares: the members from the one past
    // the cap on are not read.
    let r = run_all_j(p, &["--max-archive-size", "100M", "bomb.zip"]);
    assert_eq!(r.code, 2);
    assert_eq!(r.out(), "bomb.zip{before.txt}:news:before\n");
    assert!(r
        .stderr
        .contains("bomb.zip{big.txt}: archive decompresses to more than 104857600"));
    // A tar stream: capped as it is read.
    let mut big = Vec::new();
    for _ in 0..40000 {
        big.extend_from_slice(b"<news:x> filler filler filler filler filler filler filler\n");
    }
    let tgz = gzip(&tar_of(
        &[("a.txt", TEXT), ("big.txt", &big), ("c.txt", TEXT)],
        false,
    ));
    write(p, "b.tgz", &tgz);
    let r = run_all_j(p, &["-c", "--max-member-size", "1M", "b.tgz"]);
    assert_eq!(r.code, 2);
    assert!(r.out().starts_with("b.tgz{a.txt}:2\nb.tgz{big.txt}:"));
    assert!(r.out().ends_with("b.tgz{c.txt}:2\n"), "{}", r.out());
    assert!(r
        .stderr
        .starts_with("urlsift: b.tgz{big.txt}: member decompresses"));
    let r = run_all_j(p, &["-c", "--max-archive-size", "1M", "b.tgz"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--max-archive-size"), "{}", r.stderr);
    // A member holding more than its header says.
    let mut z = zip_of(&[("a.txt", &big, zip::CompressionMethod::Deflated)], false);
    let cd = z.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    z[cd + 24..cd + 28].copy_from_slice(&1000u32.to_le_bytes());
    write(p, "lie.zip", &z);
    let r = run_all_j(p, &["-c", "lie.zip"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("more than the 1000 bytes its archive declares"),
        "{}",
        r.stderr
    );
    assert!(run(p, &["--max-member-size", "0"])
        .stderr
        .contains("at least 1 byte"));
}

#[test]
fn zip_members_in_parallel_keep_archive_order() {
    use zip::CompressionMethod as M;
    let d = tmp();
    let p = d.path();
    let texts: Vec<Vec<u8>> = (0..120)
        .map(|i| {
            let mut t = Vec::new();
            // Sizes from a line to a few pieces.
            for k in 0..(i * i * 7 % 300 + 1) {
                t.extend_from_slice(format!("m{i} l{k} <news:g{i}.n{k}>\n").as_bytes());
            }
            t
        })
        .collect();
    let names: Vec<String> = (0..300)
        .map(|i| format!("g/{:03}.mbox", (i * 37) % 300))
        .collect();
    let members: Vec<(&str, &[u8], M)> = names
        .iter()
        .zip(&texts)
        .map(|(n, t)| (n.as_str(), &t[..], M::Deflated))
        .collect();
    write(p, "many.zip", &zip_of(&members, false));
    write(
        p,
        "many.tgz",
        &gzip(&tar_of(
            &members.iter().map(|(n, t, _)| (*n, *t)).collect::<Vec<_>>(),
            false,
        )),
    );
    let r = run_all_j(p, &["-n", "many.zip", "many.tgz"]);
    let out = r.out();
    let total: usize = texts
        .iter()
        .map(|t| t.iter().filter(|&&b| b == b'\n').count())
        .sum();
    assert_eq!(out.lines().count(), 2 * total);
    // Archive order: the names as written, not sorted.
    let first: Vec<&str> = out.lines().take(3).collect();
    assert_eq!(first[0], "many.zip{g/000.mbox}:1:news:g0.n0");
    let r = run_all_j(p, &["-c", "many.zip"]);
    assert_eq!(r.out().lines().count(), 120);
    run_all_j(p, &["-u", "many.zip", "many.tgz"]);
    run_all_j(p, &["--json", "many.zip"]);
}

#[test]
fn path_lists_with_any_name_and_nul_output() {
    let d = tmp();
    let p = d.path();
    let names: [&[u8]; 5] = [
        b"a b.txt",
        b"new\nline.txt",
        b"\xff\xfe.txt",
        b"none.txt",
        b"z.tgz",
    ];
    use std::os::unix::ffi::OsStrExt;
    for n in &names {
        let path = p.join(std::ffi::OsStr::from_bytes(n));
        let body: Vec<u8> = match *n {
            b"none.txt" => b"nothing\n".to_vec(),
            b"z.tgz" => gzip(&tar_of(&[("m.txt", b"<news:m>\n")], false)),
            _ => b"<news:x>\n".to_vec(),
        };
        std::fs::write(path, body).unwrap();
    }
    let mut list0 = Vec::new();
    for n in &names {
        list0.extend_from_slice(n);
        list0.push(0);
    }
    for j in ["-j1", "-j2"] {
        let r = run_stdin(p, &[j, "--files0-from", "-", "-l", "-0"], &list0);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert_eq!(
            r.stdout,
            b"a b.txt\0new\nline.txt\0\xff\xfe.txt\0z.tgz{m.txt}\0".to_vec(),
            "{j}"
        );
        let r = run_stdin(p, &[j, "--files0-from", "-", "-c", "-0"], &list0);
        assert_eq!(
            r.stdout,
            b"a b.txt\x001\nnew\nline.txt\x001\n\xff\xfe.txt\x001\nnone.txt\x000\nz.tgz{m.txt}\x001\n".to_vec()
        );
        let r = run_stdin(p, &[j, "--files0-from", "-", "-0"], &list0);
        assert!(r.stdout.starts_with(b"a b.txt\0news:x\n"));
    }
    // One a line: names with spaces and bytes, not line feeds; an empty
    // line skipped; a missing one reported in place.
    write(
        p,
        "list.txt",
        b"a b.txt\n\n\xff\xfe.txt\nmissing\nnone.txt\n",
    );
    let r = run(p, &["--files-from", "list.txt", "-c"]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stdout,
        // Without -0 a name is escaped (as the command prints paths).
        b"a b.txt:1\n\\xff\\xfe.txt:1\nnone.txt:0\n".to_vec()
    );
    assert_eq!(
        r.stderr,
        "urlsift: missing: No such file or directory (os error 2)\n"
    );
    // Paths given first, then the list.
    let r = run(p, &["--files-from", "list.txt", "-l", "z.tgz"]);
    assert!(r.stdout.starts_with(b"z.tgz{m.txt}\na b.txt\n"));
    // Stdin cannot be both the list and an input; a missing list is an error.
    let r = run_stdin(p, &["--files-from", "-"], b"-\na b.txt\n");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("standard input is the path list"));
    assert_eq!(r.out(), "a b.txt:news:x\n");
    let r = run(p, &["--files0-from", "nolist"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.starts_with("urlsift: nolist: "));
}

#[test]
fn globs_hold_archive_members_too() {
    // `--glob` applies to archive members (the member's path in
    // its innermost archive); a member no glob matches is searched, since
    // the archive itself was selected.
    let d = tmp();
    let deflate = zip::CompressionMethod::Deflated;
    let inner = tar_of(
        &[
            ("c.txt", b"<http://c.example/>\n"),
            ("d.jpg", b"<http://d.example/>\n"),
        ],
        false,
    );
    write(
        d.path(),
        "t/a.mbox.zip",
        &zip_of(
            &[
                ("box/a.txt", b"<http://a.example/>\n", deflate),
                ("img/b.jpg", b"<http://b.example/>\n", deflate),
                ("n.tar", &inner, deflate),
            ],
            false,
        ),
    );
    write(d.path(), "t/other.txt", b"<http://other.example/>\n");
    let r = run_all_j(d.path(), &["-g", "*.mbox.zip", "t"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let out = r.out();
    // Selected by its name: every member, nested ones too; other.txt not.
    for host in ["a.example", "b.example", "c.example", "d.example"] {
        assert!(out.contains(host), "{host} missing:\n{out}");
    }
    assert!(!out.contains("other.example"), "{out}");
    let r = run_all_j(d.path(), &["-g", "!*.jpg", "t"]);
    let out = r.out();
    assert!(
        out.contains("a.example") && out.contains("c.example") && out.contains("other.example")
    );
    assert!(
        !out.contains("b.example") && !out.contains("d.example"),
        "{out}"
    );
    assert!(out.contains("t/a.mbox.zip{n.tar}{c.txt}:"), "{out}");
}
