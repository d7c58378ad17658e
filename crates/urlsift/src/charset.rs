//! Charsets: text a message declares in some charset, decoded to UTF-8.
//!
//! Mail names its charsets by label (`charset=big5`, `=?ISO-2022-JP?B?...?=`).
//! With the `charsets` feature (on by default) every label of the WHATWG
//! Encoding Standard is known and decoded by `encoding_rs` (Firefox's
//! decoders), with a few names mail writes and the standard does not
//! (`cp874`, `cp932`, `cp936`, `cp949`, `cp950`, `euc-cn`). Without it only UTF-8,
//! US-ASCII and ISO-8859-1 are, which keeps the library at two
//! dependencies for an embedder who reads Latin mail only.
//!
//! The standard maps some labels to a superset, as mail readers do:
//! `iso-8859-1` and `us-ascii` to windows-1252, `gb2312` to GBK,
//! `ks_c_5601-1987` to EUC-KR. Labels it maps to its *replacement* encoding
//! (`iso-2022-kr`, `hz-gb-2312`, ...) are treated as unknown.

use std::borrow::Cow;

/// A charset known to the library: with the `charsets` feature (on by
/// default) every label of the WHATWG Encoding Standard, decoded by
/// `encoding_rs`, and `cp874`, `cp932`, `cp936`, `cp949`, `cp950`,
/// `euc-cn`; without it UTF-8, US-ASCII and ISO-8859-1. As in the
/// standard, `iso-8859-1` and `us-ascii` are windows-1252, `gb2312` is
/// GBK; the labels of its replacement encoding are not known.
///
/// ```
/// use urlsift::Charset;
/// let big5 = Charset::for_label(b" Big5 ").unwrap();
/// # #[cfg(feature = "charsets")]
/// assert_eq!(big5.decode(b"\xa4\xa4\xa4\xe5").as_deref(), Some("中文"));
/// assert_eq!(Charset::for_label(b"utf-8").unwrap().name(), "UTF-8");
/// assert!(Charset::for_label(b"no-such-charset").is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charset(Inner);

/// One of the standard's encodings: a pointer, so that an
/// `Option<Charset>` on every match and place costs a word and compares
/// as one.
#[cfg(feature = "charsets")]
type Inner = &'static encoding_rs::Encoding;

/// Without the `charsets` feature: UTF-8 (bytes kept as they are, those
/// that are not UTF-8 too) or ISO-8859-1 (each byte its code point).
#[cfg(not(feature = "charsets"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Inner {
    Utf8,
    Latin1,
}

/// Labels mail writes that the Encoding Standard does not know, and the
/// label it knows them by (Windows code pages by number, the Chinese
/// national standard's other name).
#[cfg(feature = "charsets")]
const MAIL_ALIASES: [(&[u8], &[u8]); 10] = [
    (b"cp874", b"windows-874"),
    (b"cp932", b"shift_jis"),
    (b"ms932", b"shift_jis"),
    (b"cp936", b"gbk"),
    (b"ms936", b"gbk"),
    (b"euc-cn", b"gbk"),
    (b"cp949", b"euc-kr"),
    (b"ms949", b"euc-kr"),
    (b"cp950", b"big5"),
    (b"ms950", b"big5"),
];

impl Charset {
    /// UTF-8. (A function, not a constant: `encoding_rs` gives its
    /// encodings as statics, which a constant may name only from Rust 1.83,
    /// past the library's minimum.)
    pub fn utf_8() -> Charset {
        #[cfg(feature = "charsets")]
        return Charset(encoding_rs::UTF_8);
        #[cfg(not(feature = "charsets"))]
        return Charset(Inner::Utf8);
    }

    /// The charset a label names (any case, blanks around it ignored), or
    /// `None` for a label not known (see [`Charset`]).
    pub fn for_label(label: &[u8]) -> Option<Charset> {
        let label = trim(label);
        #[cfg(feature = "charsets")]
        {
            // Most mail says one of these (every message's `Content-Type`
            // is read for it): known at once, not looked up.
            if label.eq_ignore_ascii_case(b"us-ascii") {
                return Some(Charset(encoding_rs::WINDOWS_1252));
            }
            if label.eq_ignore_ascii_case(b"utf-8") {
                return Some(Charset(encoding_rs::UTF_8));
            }
            if label.eq_ignore_ascii_case(b"iso-8859-1") {
                return Some(Charset(encoding_rs::WINDOWS_1252));
            }
            let label = MAIL_ALIASES
                .iter()
                .find(|(a, _)| a.eq_ignore_ascii_case(label))
                .map_or(label, |&(_, to)| to);
            encoding_rs::Encoding::for_label_no_replacement(label).map(Charset)
        }
        #[cfg(not(feature = "charsets"))]
        {
            const UTF8: [&[u8]; 5] = [
                b"utf-8",
                b"utf8",
                b"unicode-1-1-utf-8",
                b"us-ascii",
                b"ascii",
            ];
            const LATIN1: [&[u8]; 6] = [
                b"iso-8859-1",
                b"iso8859-1",
                b"iso_8859-1",
                b"latin1",
                b"l1",
                b"iso-ir-100",
            ];
            let is = |set: &[&[u8]]| set.iter().any(|n| n.eq_ignore_ascii_case(label));
            if is(&UTF8) {
                Some(Charset::utf_8())
            } else if is(&LATIN1) {
                Some(Charset(Inner::Latin1))
            } else {
                None
            }
        }
    }

    /// Its canonical name (`"UTF-8"`, `"Shift_JIS"`, `"windows-1252"`, ...).
    pub fn name(self) -> &'static str {
        #[cfg(feature = "charsets")]
        return self.0.name();
        #[cfg(not(feature = "charsets"))]
        match self.0 {
            Inner::Utf8 => "UTF-8",
            Inner::Latin1 => "ISO-8859-1",
        }
    }

    /// The `encoding_rs` encoding it is (for a decoder that reads on
    /// across pieces of text).
    #[cfg(feature = "charsets")]
    pub(crate) fn encoding(self) -> &'static encoding_rs::Encoding {
        self.0
    }

    /// Whether it is UTF-8 (whose bytes need no decoding).
    pub fn is_utf8(self) -> bool {
        self == Charset::utf_8()
    }

    /// Whether its text's ASCII bytes are ASCII characters, each alone:
    /// lines of such text can be told by their line feeds and decoded
    /// one by one (not so UTF-16; ISO-2022-JP is, its lines returning to
    /// ASCII before they end).
    pub fn lines_are_ascii_compatible(self) -> bool {
        #[cfg(feature = "charsets")]
        return self.0.is_ascii_compatible() || self.0 == encoding_rs::ISO_2022_JP;
        #[cfg(not(feature = "charsets"))]
        true
    }

    /// `bytes` decoded to UTF-8, or `None` when they are not text in this
    /// charset (UTF-8 that is not valid, a byte sequence the charset does
    /// not have). Borrowed when nothing changes.
    pub fn decode(self, bytes: &[u8]) -> Option<Cow<'_, str>> {
        if self.is_utf8() {
            return std::str::from_utf8(bytes).ok().map(Cow::Borrowed);
        }
        #[cfg(feature = "charsets")]
        return self
            .0
            .decode_without_bom_handling_and_without_replacement(bytes);
        #[cfg(not(feature = "charsets"))]
        Some(match std::str::from_utf8(bytes) {
            Ok(s) if bytes.is_ascii() => Cow::Borrowed(s),
            _ => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
        })
    }

    /// Appends `bytes` decoded to UTF-8 to `out`, the bytes that do not
    /// decode kept as they are (so `out` is UTF-8 but where they stand,
    /// and a printer can show them as it shows any byte that is not
    /// text). Each call starts in the charset's initial state.
    pub fn decode_keeping(self, bytes: &[u8], out: &mut Vec<u8>) {
        if self.is_utf8() {
            out.extend_from_slice(bytes);
            return;
        }
        #[cfg(feature = "charsets")]
        decode_whatwg(self.0, bytes, out, &mut |bad, out| {
            out.extend_from_slice(bad)
        });
        #[cfg(not(feature = "charsets"))]
        for &b in bytes {
            let mut buf = [0u8; 2];
            out.extend_from_slice(char::from(b).encode_utf8(&mut buf).as_bytes());
        }
    }
}

/// `bytes` decoded by a decoder of the standard, appended to `out`, each
/// malformed sequence it reports handed to `bad` (with `out`).
#[cfg(feature = "charsets")]
fn decode_whatwg(
    e: &'static encoding_rs::Encoding,
    bytes: &[u8],
    out: &mut Vec<u8>,
    bad: &mut dyn FnMut(&[u8], &mut Vec<u8>),
) {
    use encoding_rs::DecoderResult;
    if e.is_ascii_compatible() && bytes.is_ascii() {
        out.extend_from_slice(bytes);
        return;
    }
    let mut decoder = e.new_decoder_without_bom_handling();
    let mut read = 0;
    loop {
        let need = decoder
            .max_utf8_buffer_length_without_replacement(bytes.len() - read)
            .unwrap_or(bytes.len() * 3 + 16);
        let at = out.len();
        out.resize(at + need, 0);
        let (result, r, w) =
            decoder.decode_to_utf8_without_replacement(&bytes[read..], &mut out[at..], true);
        out.truncate(at + w);
        read += r;
        match result {
            DecoderResult::InputEmpty => return,
            DecoderResult::OutputFull => {}
            DecoderResult::Malformed(bad_len, after) => {
                // The malformed bytes end `after` bytes before what was
                // read; those `after` bytes are read again by the decoder.
                let end = read - usize::from(after);
                let start = end.saturating_sub(usize::from(bad_len));
                bad(&bytes[start..end], out);
            }
        }
    }
}

/// `v` without ASCII whitespace around it (`<[u8]>::trim_ascii` is newer
/// than the library's minimum Rust).
pub(crate) fn trim(v: &[u8]) -> &[u8] {
    let s = v
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(v.len());
    let e = v
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(s, |e| e + 1);
    &v[s..e]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        let name = |l: &[u8]| Charset::for_label(l).map(Charset::name);
        assert_eq!(name(b"UTF-8"), Some("UTF-8"));
        assert_eq!(name(b"utf8"), Some("UTF-8"));
        assert_eq!(name(b"x-unknown"), None);
        #[cfg(feature = "charsets")]
        {
            assert_eq!(name(b"ISO-2022-JP"), Some("ISO-2022-JP"));
            assert_eq!(name(b"gb2312"), Some("GBK"));
            assert_eq!(name(b"cp932"), Some("Shift_JIS"));
            assert_eq!(name(b"ks_c_5601-1987"), Some("EUC-KR"));
            assert_eq!(name(b"KOI8-R"), Some("KOI8-R"));
            assert_eq!(name(b"iso-8859-1"), Some("windows-1252"));
            // The replacement encoding's labels decode nothing.
            assert_eq!(name(b"iso-2022-kr"), None);
            assert_eq!(name(b"hz-gb-2312"), None);
        }
    }

    /// The labels known at once are those the Encoding Standard gives.
    #[cfg(feature = "charsets")]
    #[test]
    fn the_common_labels_are_the_standards() {
        for l in [
            "us-ascii",
            "US-ASCII",
            "utf-8",
            "UTF-8",
            "iso-8859-1",
            "ISO-8859-1",
            " utf-8 ",
        ] {
            let want = encoding_rs::Encoding::for_label_no_replacement(l.trim().as_bytes());
            assert_eq!(Charset::for_label(l.as_bytes()), want.map(Charset), "{l}");
        }
    }

    #[cfg(feature = "charsets")]
    #[test]
    fn decoding_keeps_what_does_not_decode() {
        let sjis = Charset::for_label(b"shift_jis").unwrap();
        assert_eq!(sjis.decode(b"\x82\xa0").as_deref(), Some("あ"));
        assert_eq!(sjis.decode(b"\x82"), None);
        let mut out = Vec::new();
        sjis.decode_keeping(b"a\x82\xa0\xa0\x82", &mut out);
        assert_eq!(out, b"a\xe3\x81\x82\xa0\x82");
        let euc = Charset::for_label(b"euc-jp").unwrap();
        let mut out = Vec::new();
        // A lead byte before ASCII: the lead kept, the ASCII decoded.
        euc.decode_keeping(b"\xa4A\xa4\xa2", &mut out);
        assert_eq!(out, b"\xa4A\xe3\x81\x82");
    }

    #[cfg(feature = "charsets")]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// What is kept, replaced by U+FFFD, is the standard's decoding
        /// with replacement.
        #[test]
        fn kept_bytes_are_the_replaced_ones(
            bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64),
            which in 0usize..8,
        ) {
            let label: &[u8] = [&b"shift_jis"[..], b"euc-jp", b"iso-2022-jp", b"gbk", b"big5", b"euc-kr", b"koi8-r", b"gb18030"][which];
            let e = Charset::for_label(label).unwrap().0;
            let mut out = Vec::new();
            let mut kept = Vec::new();
            decode_whatwg(e, &bytes, &mut out, &mut |b, out| {
                kept.extend_from_slice(b);
                out.extend_from_slice("\u{fffd}".as_bytes());
            });
            let (want, _) = e.decode_without_bom_handling(&bytes);
            // Each malformed run stands where one or more U+FFFD stand.
            let lossy = String::from_utf8(out).unwrap();
            let squeeze = |s: &str| {
                let mut r = String::new();
                for c in s.chars() {
                    if !(c == '\u{fffd}' && r.ends_with('\u{fffd}')) {
                        r.push(c);
                    }
                }
                r
            };
            proptest::prop_assert_eq!(squeeze(&lossy), squeeze(&want));
            // What is kept is the input's bytes, in order.
            let mut rest = &bytes[..];
            for b in kept {
                let k = rest.iter().position(|&x| x == b);
                proptest::prop_assert!(k.is_some());
                rest = &rest[k.unwrap() + 1..];
            }
        }
    }
}
