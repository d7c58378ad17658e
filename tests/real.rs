//! Real-text situations: a references section written after RFC 1738's
//! Appendix and References (the same URLs, wrapped and broken at the same
//! places: the Gopher+ one after `gopher_protocol`), and short excerpts,
//! written after the files of the shared real corpus, that reproduce what
//! real mail and documents do (quoted re-wrapped replies, hyphen breaks,
//! Outlook mailto links, quoted-printable soft breaks, indented
//! references). No corpus text is copied; the real files themselves are
//! checked by `benches/real-corpus.sh` in CI. Expectations checked with
//! ref-extract (`tests/data/xcheck.py`).

mod common;

use common::{check, load_dir, run_cases};
use urlsift::{Form, Scanner};

#[test]
fn real_excerpts() {
    run_cases(&load_dir("tests/data/real"), |c| {
        check(c, &c.scanner().extract(&c.input))
    });
}

#[test]
fn rfc1738_references() {
    let cases = load_dir("tests/data/real");
    let c = common::find_case(&cases, "rfc1738.txt:rfc1738-appendix-and-references");
    let found = Scanner::new().extract(&c.input);
    let urls: Vec<String> = found.iter().map(|m| m.as_str().into_owned()).collect();
    // The three examples, then the 17 references.
    assert_eq!(urls.len(), 20);
    assert!(found.iter().all(|m| m.form() == Form::Wrapped));
    assert!(urls.contains(
        &"ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt".to_string()
    ));
    assert!(urls.contains(
        &"ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt".to_string()
    ));
    let broken: Vec<&str> = found
        .iter()
        .filter(|m| m.is_broken())
        .map(|m| m.as_bytes())
        .map(|b| std::str::from_utf8(b).unwrap())
        .collect();
    assert_eq!(
        broken,
        [
            "ftp://info.cern.ch/pub/www/doc;type=d",
            "ftp://ds.internic.net/rfc",
            "http://ds.internic.net/instructions/overview.html#WARNING",
            "ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
            "ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
            "ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z",
        ]
    );
}
