//! The HTML reader (contract rules 18-22): an HTML part (its encoding and
//! place chosen by the first byte, then the fuzzer's bytes as its body)
//! never panics, `Scanner::extract` and a `PushScanner` fed in chunks
//! derived from the input agree exactly, every match lies in the input
//! with its line and column those of its offset, and every valid match
//! re-parses. Run with `-rss_limit_mb=512` (see `mime.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift::{HtmlMode, PushScanner, Scanner, Url};

const HEADERS: [&[u8]; 4] = [
    b"Content-Type: text/html\n\n",
    b"Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n\n",
    b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: application/xhtml+xml\nContent-Transfer-Encoding: base64\n\n",
    b"Content-Type: multipart/alternative; boundary=b\n\n--b\nContent-Type: text/plain\n\nx\n--b\nContent-Type: text/html\n\n",
];

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let ctl = data[0];
    let mut text = HEADERS[(ctl & 3) as usize].to_vec();
    text.extend_from_slice(&data[1..]);
    let mode = if ctl & 4 != 0 { HtmlMode::Always } else { HtmlMode::Fallback };
    let scanner = Scanner::new()
        .html(mode)
        .rejected(ctl & 8 != 0)
        .naked(ctl & 16 != 0);
    let whole = scanner.extract(&text);
    for m in &whole {
        assert!(m.offset() <= text.len() as u64 && m.end() <= text.len() as u64);
        let before = &text[..m.offset() as usize];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
        let col = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count() as u64;
        assert_eq!((m.line(), m.column()), (line, col));
        for s in m.spans() {
            assert!(s.start <= s.end && s.end <= text.len() as u64);
        }
        if m.is_valid() {
            assert!(Url::parse_with(m.as_bytes(), scanner.get_policy()).is_ok());
        }
    }
    let min_read = 1 + (ctl as usize >> 5);
    let mut push = PushScanner::with_buffer(scanner, min_read);
    let mut got = Vec::new();
    let mut rest = &text[..];
    let mut k = 0;
    while !rest.is_empty() {
        let n = (1 + text[k % text.len()] as usize % 29).min(rest.len());
        k += 1;
        got.extend(push.feed(&rest[..n]));
        rest = &rest[n..];
    }
    got.extend(push.finish());
    assert_eq!(whole, got);
});
