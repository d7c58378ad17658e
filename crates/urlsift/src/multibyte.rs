//! Charsets whose characters take more than one byte (contract rule 23).
//!
//! In Shift_JIS, Big5, GBK (GB2312, GB18030) and EUC-KR (as mailers write
//! it: Windows code page 949, which the WHATWG Encoding Standard reads for
//! every EUC-KR label) the second byte of a character may be an ASCII
//! letter or digit, so `（http://...` in Shift_JIS ends in the byte `i`
//! just before `http`. ISO-2022-JP writes its text in ASCII bytes between
//! escape sequences (`ESC ( B`), whose final byte is a letter too. This
//! module tells, at a naked candidate's start, whether its first byte
//! belongs to such a character or escape sequence. UTF-8 and EUC-JP need
//! nothing: all the bytes of their multi-byte characters are non-ASCII,
//! which no URL holds.
//!
//! Where a character starts is found as decoders resynchronize: walking
//! back over bytes that may lead a character (in these charsets the bytes
//! that are no lead byte end a character), an odd count of them means the
//! last one leads the byte after it. Only the byte before an ASCII run is
//! ever asked about, so the walk is short and done per candidate, not per
//! byte.

/// A charset whose characters may end in an ASCII byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Multibyte {
    ShiftJis,
    Big5,
    /// GBK and GB18030 (GB2312 labels too, as the Encoding Standard reads
    /// them).
    Gb18030,
    /// EUC-KR, read as code page 949 (Unified Hangul Code).
    Uhc,
}

/// How far back the walk over lead bytes goes (a longer run of them is
/// taken to start at the walk's end: text that long is no URL's
/// neighbour in practice, and time stays linear).
const WALK: usize = 64;

impl Multibyte {
    /// The charset of a `charset` parameter's value (the labels of the
    /// WHATWG Encoding Standard, any case), if it is one of these.
    pub(crate) fn from_label(label: &[u8]) -> Option<Multibyte> {
        let t = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c);
        let a = label.iter().position(|b| !t(b))?;
        let e = label.iter().rposition(|b| !t(b)).map_or(a, |k| k + 1);
        let label = &label[a..e];
        if label.len() > 20 {
            return None;
        }
        let mut low = [0u8; 20];
        for (d, s) in low.iter_mut().zip(label) {
            *d = s.to_ascii_lowercase();
        }
        Some(match &low[..label.len()] {
            b"csshiftjis" | b"ms932" | b"ms_kanji" | b"shift-jis" | b"shift_jis" | b"sjis"
            | b"windows-31j" | b"x-sjis" => Multibyte::ShiftJis,
            b"big5" | b"big5-hkscs" | b"cn-big5" | b"csbig5" | b"x-x-big5" => Multibyte::Big5,
            b"chinese" | b"csgb2312" | b"csiso58gb231280" | b"gb2312" | b"gb_2312"
            | b"gb_2312-80" | b"gbk" | b"iso-ir-58" | b"x-gbk" | b"gb18030" => Multibyte::Gb18030,
            b"cseuckr" | b"csksc56011987" | b"euc-kr" | b"iso-ir-149" | b"korean"
            | b"ks_c_5601-1987" | b"ks_c_5601-1989" | b"ksc5601" | b"ksc_5601" | b"windows-949" => {
                Multibyte::Uhc
            }
            _ => return None,
        })
    }

    /// Whether `b` may lead a two-byte character.
    fn lead(self, b: u8) -> bool {
        match self {
            Multibyte::ShiftJis => matches!(b, 0x81..=0x9f | 0xe0..=0xfc),
            _ => matches!(b, 0x81..=0xfe),
        }
    }

    /// Whether the ASCII byte `b` may end a two-byte character.
    fn ascii_trail(self, b: u8) -> bool {
        match self {
            Multibyte::ShiftJis | Multibyte::Big5 | Multibyte::Gb18030 => {
                matches!(b, 0x40..=0x7e)
            }
            Multibyte::Uhc => b.is_ascii_alphabetic(),
        }
    }

    /// Whether the ASCII byte `buf[i]` is the last byte of a multi-byte
    /// character (as far as the bytes before it, from `buf[0]`, tell).
    pub(crate) fn ends_character(self, buf: &[u8], i: usize) -> bool {
        let Some(&b) = buf.get(i) else { return false };
        if i == 0 || b >= 0x80 || !self.lead(buf[i - 1]) {
            return false;
        }
        if self == Multibyte::Gb18030 && b.is_ascii_digit() {
            // The last byte of a four-byte character: lead, digit, lead.
            return i >= 3 && buf[i - 2].is_ascii_digit() && self.lead(buf[i - 3]);
        }
        if !self.ascii_trail(b) {
            return false;
        }
        let leads = buf[i.saturating_sub(WALK)..i]
            .iter()
            .rev()
            .take_while(|&&c| self.lead(c))
            .count();
        leads % 2 == 1
    }
}

/// The ASCII escape byte that starts an ISO-2022-JP designation.
const ESC: u8 = 0x1b;

/// Whether `buf[i]` is the final byte of an ISO-2022 escape sequence:
/// `ESC`, one to three intermediate bytes (0x20 to 0x2F), then it (0x30
/// to 0x7E), as in `ESC ( B` and `ESC $ ( D`.
pub(crate) fn escape_final(buf: &[u8], i: usize) -> bool {
    if !matches!(buf.get(i), Some(0x30..=0x7e)) {
        return false;
    }
    let mut j = i;
    while j > 0 && i - j < 3 && matches!(buf[j - 1], 0x20..=0x2f) {
        j -= 1;
    }
    j < i && j > 0 && buf[j - 1] == ESC
}

/// The charset a `Content-Type` value declares in its `charset`
/// parameter, when it is one of [`Multibyte`]'s.
pub(crate) fn declared(value: &[u8]) -> Option<Multibyte> {
    label(value).and_then(Multibyte::from_label)
}

/// The value of the `charset` parameter of a `Content-Type` value (its
/// label, unquoted). Most values declare none or a short one: one search
/// for the name decides them.
pub(crate) fn label(value: &[u8]) -> Option<&[u8]> {
    let k = find_ci(value, b"charset")?;
    let mut rest = &value[k + 7..];
    let skip = |r: &[u8]| {
        r.iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            .count()
    };
    rest = &rest[skip(rest)..];
    // `charset*=` (RFC 2231, `us-ascii'en'` values) is another parameter.
    rest = rest.strip_prefix(b"=")?;
    rest = &rest[skip(rest)..];
    Some(match rest.strip_prefix(b"\"") {
        Some(q) => &q[..memchr::memchr(b'"', q).unwrap_or(q.len())],
        None => {
            let n = rest
                .iter()
                .take_while(|b| !matches!(b, b';' | b' ' | b'\t' | b'\r' | b'\n' | b'('))
                .count();
            &rest[..n]
        }
    })
}

/// The first place of `name` (lower case ASCII) in `hay`, in any case.
fn find_ci(hay: &[u8], name: &[u8]) -> Option<usize> {
    hay.windows(name.len())
        .position(|w| w.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels() {
        assert_eq!(
            Multibyte::from_label(b"Shift_JIS"),
            Some(Multibyte::ShiftJis)
        );
        assert_eq!(
            Multibyte::from_label(b" windows-31J "),
            Some(Multibyte::ShiftJis)
        );
        assert_eq!(Multibyte::from_label(b"BIG5"), Some(Multibyte::Big5));
        assert_eq!(Multibyte::from_label(b"gb2312"), Some(Multibyte::Gb18030));
        assert_eq!(
            Multibyte::from_label(b"ks_c_5601-1987"),
            Some(Multibyte::Uhc)
        );
        for none in [
            &b"utf-8"[..],
            b"euc-jp",
            b"iso-2022-jp",
            b"us-ascii",
            b"",
            b"x",
        ] {
            assert_eq!(Multibyte::from_label(none), None);
        }
        assert_eq!(
            declared(b"text/plain; charset=\"Big5\""),
            Some(Multibyte::Big5)
        );
        assert_eq!(
            declared(b"text/plain;\n\tCHARSET=shift_jis (x)"),
            Some(Multibyte::ShiftJis)
        );
        assert_eq!(declared(b"text/plain; charset=utf-8"), None);
        assert_eq!(declared(b"text/plain; format=flowed"), None);
        assert_eq!(declared(b"text/plain; charset*=us-ascii'en'sjis"), None);
    }

    #[test]
    fn trail_bytes() {
        // Shift_JIS: `（` is 0x81 0x69, `」` 0x81 0x76; `ア` (0x83 0x41).
        let sj = Multibyte::ShiftJis;
        assert!(sj.ends_character(b"\x81ihttp", 1));
        assert!(!sj.ends_character(b"\x81\x81ihttp", 2));
        assert!(sj.ends_character(b"\x81\x81\x81ihttp", 3));
        // A single-byte katakana (0xB1) is no lead byte.
        assert!(!sj.ends_character(b"\xb1http", 1));
        assert!(!sj.ends_character(b"ahttp", 1));
        // Big5: `（` is 0xA1 0x5D (a `]`), `、` 0xA1 0x42 (a `B`).
        assert!(Multibyte::Big5.ends_character(b"\xa1Bhttp", 1));
        // GB18030 four bytes ending in a digit.
        let gb = Multibyte::Gb18030;
        assert!(gb.ends_character(b"\x81\x30\x81\x35http", 3));
        assert!(!gb.ends_character(b"\x81\x35http", 1));
        // Code page 949: letters only.
        assert!(Multibyte::Uhc.ends_character(b"\x81Ahttp", 1));
        assert!(!Multibyte::Uhc.ends_character(b"\x815http", 1));
    }

    #[test]
    fn escapes() {
        assert!(escape_final(b"\x1b(Bhttp", 2));
        assert!(escape_final(b"\x1b$(Dx", 3));
        assert!(!escape_final(b"(Bhttp", 1));
        assert!(!escape_final(b"\x1bBhttp", 1));
        assert!(!escape_final(b"x(http", 2));
    }
}
