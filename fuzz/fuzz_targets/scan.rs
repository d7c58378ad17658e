//! `Scanner::extract` against `PushScanner` fed in chunks derived from the
//! input (and tiny limits), identical; every valid match re-parses. The
//! raw reading (rules 1-9); `mime.rs` fuzzes the MIME one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift::{Limits, Policy, PushScanner, Scanner, Url};

fuzz_target!(|data: &[u8]| {
    if data.is_empty() {
        return;
    }
    let ctl = data[0];
    let text = &data[1..];
    let mut scanner = Scanner::new()
        .policy(if ctl & 1 == 0 { Policy::Lenient } else { Policy::Strict })
        .rejected(ctl & 2 != 0)
        .mime(false);
    if ctl & 4 != 0 {
        scanner = scanner.limits(Limits {
            max_bytes: 8 + (ctl as usize >> 3) * 4,
            max_lines: (ctl as usize >> 5) & 3,
        });
    }
    let whole = scanner.extract(text);
    for m in whole.iter().filter(|m| m.is_valid()) {
        assert!(Url::parse_with(m.as_bytes(), scanner.get_policy()).is_ok());
        assert_eq!(text[m.offset() as usize], b'<');
        assert_eq!(text[m.end() as usize - 1], b'>');
    }
    // Chunk sizes from the text's own bytes.
    let min_read = 1 + (ctl as usize >> 4);
    let mut push = PushScanner::with_buffer(scanner, min_read);
    let mut got = Vec::new();
    let mut rest = text;
    let mut k = 0;
    while !rest.is_empty() {
        let n = (1 + text[k % text.len()] as usize % 17).min(rest.len());
        k += 1;
        got.extend(push.feed(&rest[..n]));
        rest = &rest[n..];
    }
    got.extend(push.finish());
    // Everything identical, rejected candidates included.
    assert_eq!(whole, got);
});
