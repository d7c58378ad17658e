//! The sample texts under `samples/` against `tests/data/samples-expected.tsv`
//! (kept out of `samples/` so that `urlsift samples/` reads only samples), which
//! holds what ref-extract reports for them (the `.gz` decompressed first).
//! The members of archives (`file{member}` rows) are the command's to read:
//! `tests/archives.rs` checks those rows with the command.

use std::io::Read;
use std::path::Path;

use urlsift::Extractor;

fn extract(path: &str) -> Vec<String> {
    let full = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("samples")
        .join(path);
    let mut data = std::fs::read(&full).unwrap();
    if path.ends_with(".gz") {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&data[..])
            .read_to_end(&mut out)
            .unwrap();
        data = out;
    }
    let slice = urlsift::extract(&data);
    let streamed: Vec<_> = Extractor::new(&data[..]).map(|m| m.unwrap()).collect();
    assert_eq!(slice, streamed, "{path}");
    slice
        .iter()
        .map(|m| format!("{path}\t{}\t{}", m.line(), m.as_str()))
        .collect()
}

#[test]
fn samples_match_expected() {
    let expected = std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("tests/data/samples-expected.tsv"),
    )
    .unwrap();
    let want: Vec<&str> = expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .filter(|l| !l.split('\t').next().unwrap().contains('{'))
        .collect();
    let mut files: Vec<&str> = Vec::new();
    for l in &want {
        let f = l.split('\t').next().unwrap();
        if !files.contains(&f) {
            files.push(f);
        }
    }
    let got: Vec<String> = files.iter().flat_map(|f| extract(f)).collect();
    assert_eq!(got, want);
}

#[test]
fn samples_show_every_scheme_and_feature() {
    let expected = std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("tests/data/samples-expected.tsv"),
    )
    .unwrap();
    for scheme in [
        "http:",
        "ftp:",
        "gopher:",
        "mailto:",
        "news:",
        "nntp:",
        "telnet:",
        "wais:",
        "file:",
        "prospero:",
    ] {
        assert!(expected.contains(&format!("\t{scheme}")), "{scheme}");
    }
    let inbox = std::fs::read(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("samples/mail/inbox.mbox"),
    )
    .unwrap();
    let found = urlsift::extract(&inbox);
    assert!(found.iter().any(|m| m.is_quoted()));
    assert!(found.iter().any(|m| m.is_ambiguous()));
    assert!(found
        .iter()
        .any(|m| m.is_broken() && m.form() == urlsift::Form::Wrapped));
    assert!(found.iter().any(|m| m.as_str().contains('#')));
    // Every file of samples/ is listed in the expectation.
    for f in [
        "faq.txt",
        "mail/inbox.mbox",
        "mail/archive-1994.mbox.gz",
        "news/comp.infosystems.www/1001",
        "news/comp.mail.misc/2047",
        "news/archive.zip{comp.infosystems.www/1002}",
        "news/archive.zip{comp.mail.misc/2051.gz}",
    ] {
        assert!(expected.contains(&format!("{f}\t")), "{f}");
    }
}
