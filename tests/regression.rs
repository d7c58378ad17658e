//! Inputs found by fuzzing (`fuzz/`) and by the property tests, kept as
//! regression tests. The fuzz targets' properties are checked here on each.

use urlsift::{Policy, PushScanner, Scanner, Url, WarningKind};

/// The fuzz `parse` target's property: print-then-compare identity, strict
/// acceptance implies lenient acceptance, and a strict URL carries none of
/// the lenient warnings (it may carry others: a password here).
fn parse_property(data: &[u8]) {
    let strict = Url::parse_with(data, Policy::Strict);
    let lenient = Url::parse_with(data, Policy::Lenient);
    assert!(strict.is_err() || lenient.is_ok());
    for url in [strict, lenient].into_iter().flatten() {
        assert_eq!(url.to_string().as_bytes(), data);
        let again = Url::parse_with(data, url.policy()).unwrap();
        assert_eq!(again.components(), url.components());
        if url.policy() == Policy::Strict {
            for w in url.warnings() {
                assert!(!matches!(
                    w.kind,
                    WarningKind::Tilde | WarningKind::SearchSlash | WarningKind::SearchQuestion
                ));
            }
        }
    }
}

/// The fuzz `scan` target's property: slice and 1-byte push identical
/// (rejected candidates too), every valid match re-parses.
fn scan_property(text: &[u8], scanner: Scanner) {
    let whole = scanner.extract(text);
    let mut push = PushScanner::with_buffer(scanner, 1);
    let mut got = Vec::new();
    for b in text.chunks(1) {
        got.extend(push.feed(b));
    }
    got.extend(push.finish());
    let valid = |ms: &[urlsift::Match]| {
        ms.iter()
            .filter(|m| m.is_valid())
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(valid(&whole), valid(&got));
    for m in valid(&whole) {
        assert!(Url::parse_with(m.as_bytes(), scanner.get_policy()).is_ok());
    }
}

/// fuzz/parse, first minute: an ftp URL with a password is strict-valid and
/// warns `Password` (the target's first oracle wrongly wanted no warnings).
#[test]
fn ftp_password_warns_under_strict() {
    let data = b"ftp://u:p@h.example/p;type=a";
    parse_property(data);
    let url = Url::parse_with(data, Policy::Strict).unwrap();
    assert!(url
        .warnings()
        .into_iter()
        .any(|w| w.kind == WarningKind::Password));
}

/// proptest `chunking_with_tiny_buffers`: a quote mark right at the byte
/// bound of an over-long candidate (`is_quoted()` depended on the chunking,
/// fixed; see `bug_too_long_quoted_depends_on_chunking` in tests/stream.rs).
#[test]
fn quote_mark_at_the_bound() {
    let s = Scanner::new().rejected(true).limits(urlsift::Limits {
        max_bytes: 10,
        max_lines: 1,
    });
    for pad in 0..16 {
        let mut data = vec![b'x'; pad];
        data.extend_from_slice(b"\n>> <http://-\n> <URL:a:b>");
        scan_property(&data, s);
    }
}

/// proptest `chunking_with_tiny_buffers`: blanks running past the bound
/// (`end()` depended on the chunking, fixed).
#[test]
fn blanks_past_the_bound() {
    let s = Scanner::new().limits(urlsift::Limits {
        max_bytes: 10,
        max_lines: 8,
    });
    scan_property(b"<URL:abc          x> <a:b>", s);
    assert_eq!(s.extract(b"<URL:abc          x> <a:b>").len(), 1);
}

/// The fuzz `html` target's property: `extract` and a push scanner fed in
/// the target's chunks agree exactly, every match lies in the input.
fn html_property(text: &[u8], scanner: Scanner, min_read: usize) {
    let whole = scanner.extract(text);
    for m in &whole {
        assert!(m.offset() <= text.len() as u64 && m.end() <= text.len() as u64);
    }
    let mut push = PushScanner::with_buffer(scanner, min_read);
    let mut got = Vec::new();
    let mut rest = text;
    let mut k = 0;
    while !rest.is_empty() {
        let n = (1 + text[k % text.len()] as usize % 29).min(rest.len());
        k += 1;
        got.extend(push.feed(&rest[..n]));
        rest = &rest[n..];
    }
    got.extend(push.finish());
    assert_eq!(whole, got);
}

/// fuzz/html: naked URLs in a quoted-printable HTML part full of `://`
/// and colons.
#[test]
fn naked_scheme_in_quoted_printable_html() {
    let mut text =
        b"Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n".to_vec();
    text.extend_from_slice(
        b"='://9:\x1f9:'://\xb8&\x00\x1b\x00\x1b'://9:(://(\xbb':/\x0a\x019=\xbc;\x0a;\x0a+\x0a",
    );
    let scanner = Scanner::new()
        .html(urlsift::HtmlMode::Always)
        .rejected(true)
        .naked(true);
    html_property(&text, scanner, 2);
}

/// fuzz/html, minimized: the colon of `ESC / :` ends an escape sequence
/// (rule 23), so a naked scheme before it would start past it; its length
/// came out below zero (a panic where overflow is checked) and its slice
/// ran backwards (a panic in every build). It starts nothing, in text and
/// in HTML.
#[test]
fn a_colon_that_ends_an_escape_sequence_starts_no_scheme() {
    let s = Scanner::new().naked(true).rejected(true);
    for text in [
        b"\x1b/:\n".to_vec(),
        b"x \x1b(:y \x1b/: <URL:http://a.example/> http://b.example/\n".to_vec(),
        b"Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n\x1b/:\n"
            .to_vec(),
    ] {
        for html in [urlsift::HtmlMode::Always, urlsift::HtmlMode::Fallback] {
            scan_property(&text, s.html(html));
            html_property(&text, s.html(html), 2);
        }
    }
    assert!(s.extract(b"\x1b/:\n").is_empty());
}
