//! The header decoder (`decode_header`, `decode_words`, `Charset`) on
//! arbitrary bytes: no panic; a value with no encoded word and nothing to
//! decode comes back as it is;
//! ASCII values depend on their words alone; `decode_keeping` agrees with
//! `decode`; and a message with the value as its subject gives the same
//! subject in both readings.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlsift::{decode_header, decode_words, Charset, Fields, Scanner};

const LABELS: [&[u8]; 8] = [
    b"utf-8",
    b"iso-2022-jp",
    b"shift_jis",
    b"gb18030",
    b"big5",
    b"euc-kr",
    b"koi8-r",
    b"utf-16le",
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, value)) = data.split_first() else {
        return;
    };
    let declared = Charset::for_label(LABELS[usize::from(first) % LABELS.len()]);
    let words = decode_words(value);
    let decoded = decode_header(value, declared);
    let has_word = value.windows(2).any(|w| w == b"=?");
    if !has_word {
        assert_eq!(words, value);
    }
    if !has_word && std::str::from_utf8(value).is_ok() {
        assert_eq!(decoded, value);
    }
    if value.is_ascii() {
        // ASCII is decoded by its words alone, whatever is declared.
        assert_eq!(decoded, words);
    }
    if let Some(c) = declared {
        let mut out = Vec::new();
        c.decode_keeping(value, &mut out);
        if let Some(s) = c.decode(value) {
            assert_eq!(out, s.as_bytes());
        }
    }
    // As a subject, in both readings (a value with a line break is cut
    // at it, as a header line is).
    if !value.contains(&b'\n') && !value.contains(&b'\r') {
        let mut mail = b"Subject: ".to_vec();
        mail.extend_from_slice(value);
        mail.extend_from_slice(b"\nContent-Type: text/plain; charset=big5\n\n<http://a.example/>\n");
        let subject = |mime| {
            Scanner::new()
                .mime(mime)
                .fields(Fields::SUBJECT)
                .extract(&mail)
                .first()
                .and_then(|m| m.message()?.subject().map(<[u8]>::to_vec))
        };
        assert_eq!(subject(true), subject(false));
    }
});
