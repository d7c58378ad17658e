//! Headers in every charset: RFC 2047 encoded words per charset against
//! the decoding of Python's `email.header` (tests/data/charsets/words.tsv,
//! made by gen.py there), headers seen in public archives (real.tsv, each
//! with its source), a word split anywhere across a folded line, raw 8-bit
//! subjects decoded by the message's declared charset, and RFC 2231
//! parameters read by the MIME reader.
#![cfg(feature = "charsets")]

use proptest::prelude::*;
use urlsift::{decode_words, Charset, Fields, Scanner};

/// The rows of a table: its columns, `\n`, `\t` and `\\` unescaped.
fn table(name: &str) -> Vec<Vec<String>> {
    let path = format!(
        "{}/../../tests/data/charsets/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').map(unescape).collect())
        .collect()
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(o) => out.push(o),
            None => out.push('\\'),
        }
    }
    out
}

/// The subject the library gives `value` as a `Subject:` field (its
/// folds real line breaks) of a message with a URL, in both readings.
fn subjects(value: &str, content_type: Option<&[u8]>) -> Vec<Vec<u8>> {
    let mut mail = b"From a@b Tue Jan 12 14:02:11 1993\nSubject: ".to_vec();
    mail.extend_from_slice(value.as_bytes());
    mail.push(b'\n');
    if let Some(ct) = content_type {
        mail.extend_from_slice(b"Content-Type: ");
        mail.extend_from_slice(ct);
        mail.push(b'\n');
    }
    mail.extend_from_slice(b"\n<http://example.com/>\n");
    [true, false]
        .iter()
        .map(|&mime| {
            let found = Scanner::new().mime(mime).fields(Fields::ALL).extract(&mail);
            assert_eq!(found.len(), 1, "{value:?}");
            found[0].message().unwrap().subject().unwrap().to_vec()
        })
        .collect()
}

fn check_table(name: &str) {
    let rows = table(name);
    assert!(rows.len() > 10, "{name} has {} rows", rows.len());
    for row in rows {
        let (value, want) = (&row[1], &row[2]);
        let unfolded = value.replace('\n', "");
        let got = decode_words(unfolded.as_bytes());
        assert_eq!(
            String::from_utf8_lossy(&got),
            *want,
            "{name}: {} {value:?}",
            row[0]
        );
        for s in subjects(value, None) {
            assert_eq!(String::from_utf8_lossy(&s), *want, "{name}: {value:?}");
        }
    }
}

#[test]
fn encoded_words_per_charset_as_python_decodes_them() {
    check_table("words.tsv");
}

#[test]
fn headers_from_public_archives() {
    check_table("real.tsv");
}

#[test]
fn the_issue_s_examples() {
    // ISO-2022-JP in B, GB2312 in Q.
    assert_eq!(
        decode_words(b"=?ISO-2022-JP?B?GyRCJEYkOSRIGyhC?="),
        "てすと".as_bytes()
    );
    assert_eq!(
        decode_words(b"=?GB2312?Q?=D6=D0=CE=C4?="),
        "中文".as_bytes()
    );
    // A raw Big5 subject in a message that declares big5.
    let got = subjects_raw(b"\xa4\xa4\xa4\xe5", b"text/plain; charset=big5");
    assert!(got.iter().all(|s| s == "中文".as_bytes()), "{got:?}");
}

fn subjects_raw(subject: &[u8], content_type: &[u8]) -> Vec<Vec<u8>> {
    let mut header = b"Content-Type: ".to_vec();
    header.extend_from_slice(content_type);
    header.push(b'\n');
    raw_subject(subject, &header, b"<http://a.example/>\n")
}

/// The subjects of the matches of a message whose subject is `subject`,
/// `header` the rest of its header and `body` its body, in both readings.
fn raw_subject(subject: &[u8], header: &[u8], body: &[u8]) -> Vec<Vec<u8>> {
    let mut mail = b"From a@b Tue Jan 12 14:02:11 1993\nSubject: ".to_vec();
    mail.extend_from_slice(subject);
    mail.push(b'\n');
    mail.extend_from_slice(header);
    mail.extend_from_slice(b"\n");
    mail.extend_from_slice(body);
    let mut out = Vec::new();
    for mime in [true, false] {
        for m in Scanner::new().mime(mime).fields(Fields::ALL).extract(&mail) {
            out.push(m.message().unwrap().subject().unwrap().to_vec());
        }
    }
    out
}

#[test]
fn raw_8_bit_subjects_take_the_declared_charset() {
    let big5 = b"\xa4\xa4\xa4\xe5 news";
    let want = "中文 news".as_bytes();
    // The top-level Content-Type, before or after the subject.
    for got in raw_subject(
        big5,
        b"Content-Type: text/plain; charset=big5\n",
        b"<http://a.example/>\n",
    ) {
        assert_eq!(got, want);
    }
    let mut mail = b"Content-Type: text/plain;\n\tcharset=\"Big5\"\nSubject: ".to_vec();
    mail.extend_from_slice(big5);
    mail.extend_from_slice(b"\n\n<http://a.example/>\n");
    for mime in [true, false] {
        let found = Scanner::new()
            .mime(mime)
            .fields(Fields::SUBJECT)
            .extract(&mail);
        assert_eq!(found[0].message().unwrap().subject(), Some(want));
        assert_eq!(
            found[0].message().unwrap().charset().map(Charset::name),
            Some("Big5")
        );
    }
    // The first text part's, in a multipart; the URLs before it and in
    // every part take it.
    let header = b"Content-Type: multipart/mixed; boundary=XX\n";
    let body = b"<http://preamble.example/>\n--XX\nContent-Type: multipart/alternative; boundary=YY\n\n--YY\nContent-Type: text/plain;\n charset=big5\n\n<http://a.example/>\n--YY--\n--XX--\n";
    let got = raw_subject(big5, header, body);
    assert_eq!(got.len(), 4);
    for s in got {
        assert_eq!(s, want);
    }
    // UTF-8 comes first; bytes that are text in neither stay bytes.
    let got = raw_subject(
        "café".as_bytes(),
        b"Content-Type: text/plain; charset=big5\n",
        b"<http://a.example/>\n",
    );
    assert!(got.iter().all(|s| s == "café".as_bytes()));
    let got = raw_subject(
        b"\xff\xfe",
        b"Content-Type: text/plain; charset=big5\n",
        b"<http://a.example/>\n",
    );
    assert!(got.iter().all(|s| s == b"\xff\xfe"));
    // No charset declared: the bytes.
    let got = raw_subject(big5, b"", b"<http://a.example/>\n");
    assert!(got.iter().all(|s| s == big5));
    // KOI8-R, and a Shift_JIS subject with the charset in RFC 2231's form.
    let got = raw_subject(
        b"\xf0\xd2\xc9\xd7\xc5\xd4",
        b"Content-Type: text/plain; charset=koi8-r\n",
        b"<http://a.example/>\n",
    );
    assert!(got.iter().all(|s| s == "Привет".as_bytes()));
    let got = raw_subject(
        b"\x93\xfa\x96\x7b",
        b"Content-Type: text/plain; charset*=us-ascii'en'shift_jis\n",
        b"<http://a.example/>\n",
    );
    assert!(got.iter().all(|s| s == "日本".as_bytes()), "{got:?}");
}

#[test]
fn a_part_s_charset_is_on_its_matches() {
    let mail = b"From: a\nSubject: s\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/plain; charset=iso-2022-jp\n\n<http://a.example/>\n--XX\nContent-Type: text/plain; charset=utf-8\n\n<http://b.example/>\n--XX\nContent-Type: text/plain; charset*0*=sh; charset*1=ift_jis\nContent-Transfer-Encoding: quoted-printable\n\n<http://c.example/>\n--XX--\n";
    let found = Scanner::new().extract(mail);
    let cs: Vec<_> = found
        .iter()
        .map(|m| m.charset().map(Charset::name))
        .collect();
    assert_eq!(cs, [Some("ISO-2022-JP"), None, Some("Shift_JIS")]);
}

// --- A word split anywhere across a folded line -------------------------

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn b64_encode(data: &[u8]) -> String {
    let mut out = String::new();
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn b64_decode(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for b in text.bytes().take_while(|&b| b != b'=') {
        let v = B64.iter().position(|&x| x == b).unwrap() as u32;
        acc = acc << 6 | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

fn word(label: &str, q: bool, data: &[u8]) -> String {
    if !q {
        return format!("=?{label}?B?{}?=", b64_encode(data));
    }
    let text: String = data
        .iter()
        .map(|&b| match b {
            b' ' => "_".to_string(),
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("={b:02X}"),
        })
        .collect();
    format!("=?{label}?Q?{text}?=")
}

/// The texts of the table's single B words: (label, bytes, decoded).
fn samples() -> Vec<(String, Vec<u8>, String)> {
    table("words.tsv")
        .into_iter()
        .filter_map(|r| {
            let v = r[1]
                .strip_prefix(&format!("=?{}?B?", r[0]))?
                .strip_suffix("?=")?;
            (!v.contains('?')).then(|| (r[0].clone(), b64_decode(v), r[2].clone()))
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_word_split_anywhere_across_a_fold_decodes_the_same(
        which in 0usize..1000,
        at in 0usize..1000,
        q1 in any::<bool>(),
        q2 in any::<bool>(),
        fold in prop_oneof![Just("\n "), Just("\n\t"), Just(" "), Just("\n  \t")],
    ) {
        let all = samples();
        let (label, bytes, want) = &all[which % all.len()];
        let at = at % (bytes.len() + 1);
        let value = format!("{}{fold}{}", word(label, q1, &bytes[..at]), word(label, q2, &bytes[at..]));
        let unfolded = value.replace('\n', "");
        let got = decode_words(unfolded.as_bytes());
        prop_assert_eq!(String::from_utf8_lossy(&got), want.as_str());
        for s in subjects(&value, None) {
            prop_assert_eq!(String::from_utf8_lossy(&s), want.as_str());
        }
    }
}
