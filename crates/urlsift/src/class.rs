//! Byte classes of RFC 1738 section 5, as one const lookup table.
//!
//! Every byte maps to a bit set of the *atoms* it belongs to; each BNF
//! production that is a set of characters is then a mask over those atoms,
//! so a membership test is one load and one AND. Only ASCII bytes belong to
//! any class. `escape` (`"%" hex hex`) and, under the lenient policy, the
//! unencoded `~` are handled by the scanner (see `url::Cursor::run`), not by
//! the masks.

/// `lowalpha | hialpha` (the letters).
const A_ALPHA: u32 = 1 << 0;
/// `digit`.
const A_DIGIT: u32 = 1 << 1;
/// `"A" | ... | "F" | "a" | ... | "f"` (the letters of `hex`).
const A_HEXLETTER: u32 = 1 << 2;
const A_DOLLAR: u32 = 1 << 3;
const A_DASH: u32 = 1 << 4;
const A_UNDERSCORE: u32 = 1 << 5;
const A_DOT: u32 = 1 << 6;
const A_PLUS: u32 = 1 << 7;
/// `extra = "!" | "*" | "'" | "(" | ")" | ","`
const A_EXTRA: u32 = 1 << 8;
const A_SEMI: u32 = 1 << 9;
const A_SLASH: u32 = 1 << 10;
const A_QUESTION: u32 = 1 << 11;
const A_COLON: u32 = 1 << 12;
const A_AT: u32 = 1 << 13;
const A_AMP: u32 = 1 << 14;
const A_EQUALS: u32 = 1 << 15;

/// `alpha = lowalpha | hialpha`
pub const ALPHA: u32 = A_ALPHA;
/// `digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9"`
pub const DIGIT: u32 = A_DIGIT;
/// `alphadigit = alpha | digit`
pub const ALPHADIGIT: u32 = A_ALPHA | A_DIGIT;
/// `safe = "$" | "-" | "_" | "." | "+"`
pub const SAFE: u32 = A_DOLLAR | A_DASH | A_UNDERSCORE | A_DOT | A_PLUS;
/// `extra = "!" | "*" | "'" | "(" | ")" | ","`
pub const EXTRA: u32 = A_EXTRA;
/// `reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="`
pub const RESERVED: u32 = A_SEMI | A_SLASH | A_QUESTION | A_COLON | A_AT | A_AMP | A_EQUALS;
/// `unreserved = alpha | digit | safe | extra`
pub const UNRESERVED: u32 = ALPHA | DIGIT | SAFE | EXTRA;
/// `uchar = unreserved | escape` (the `escape` half is left to the scanner)
pub const UCHAR: u32 = UNRESERVED;
/// `"/"`, the separator of path segments.
pub const SLASH: u32 = A_SLASH;
/// `xchar = unreserved | reserved | escape`
pub const XCHAR: u32 = UNRESERVED | RESERVED;
/// `scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]` (any case, section 2.1)
pub const SCHEME: u32 = A_ALPHA | A_DIGIT | A_PLUS | A_DASH | A_DOT;
/// `user = *[ uchar | ";" | "?" | "&" | "=" ]`
pub const USER: u32 = UCHAR | A_SEMI | A_QUESTION | A_AMP | A_EQUALS;
/// `fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]`
pub const FSEGMENT: u32 = UCHAR | A_QUESTION | A_COLON | A_AT | A_AMP | A_EQUALS;
/// `hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`
pub const HSEGMENT: u32 = UCHAR | A_SEMI | A_COLON | A_AT | A_AMP | A_EQUALS;
/// `search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`
pub const SEARCH: u32 = HSEGMENT;
/// `group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]` (the bytes after the first)
pub const GROUP: u32 = A_ALPHA | A_DIGIT | A_DASH | A_DOT | A_PLUS | A_UNDERSCORE;
/// `article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host` (the bytes before `@`)
pub const ARTICLE: u32 = UCHAR | A_SEMI | A_SLASH | A_QUESTION | A_COLON | A_AMP | A_EQUALS;
/// `fieldname = *[ uchar | "?" | ":" | "@" | "&" ]`
pub const FIELDNAME: u32 = UCHAR | A_QUESTION | A_COLON | A_AT | A_AMP;
/// `fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ]`
pub const FIELDVALUE: u32 = FIELDNAME;

const fn build() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut b = 0usize;
    while b < 128 {
        let c = b as u8;
        let mut m = 0;
        if c.is_ascii_alphabetic() {
            m |= A_ALPHA;
        }
        if c.is_ascii_digit() {
            m |= A_DIGIT;
        }
        if matches!(c, b'A'..=b'F' | b'a'..=b'f') {
            m |= A_HEXLETTER;
        }
        m |= match c {
            b'$' => A_DOLLAR,
            b'-' => A_DASH,
            b'_' => A_UNDERSCORE,
            b'.' => A_DOT,
            b'+' => A_PLUS,
            b'!' | b'*' | b'\'' | b'(' | b')' | b',' => A_EXTRA,
            b';' => A_SEMI,
            b'/' => A_SLASH,
            b'?' => A_QUESTION,
            b':' => A_COLON,
            b'@' => A_AT,
            b'&' => A_AMP,
            b'=' => A_EQUALS,
            _ => 0,
        };
        t[b] = m;
        b += 1;
    }
    t
}

/// The table: `TABLE[b] & MASK != 0` iff byte `b` is in production `MASK`.
pub static TABLE: [u32; 256] = build();

/// A class as the parser's runs read it: its mask, and its bytes as a
/// table of low nibbles for a 16-byte lookup: bit `h` of `lo[l]` is set
/// when the byte `h << 4 | l` is in the class. Every class is ASCII (high
/// nibbles 0 to 7), so a byte is in it iff `lo[b & 15]` has the bit of its
/// high nibble: two table look-ups (`pshufb`) test 16 bytes.
#[derive(Debug)]
pub(crate) struct Run {
    pub mask: u32,
    pub lo: [u8; 16],
}

impl Run {
    /// The run of the class `mask`.
    pub const fn of(mask: u32) -> Run {
        let table = build();
        let mut lo = [0u8; 16];
        let mut b = 0usize;
        while b < 128 {
            if table[b] & mask != 0 {
                lo[b & 15] |= 1 << (b >> 4);
            }
            b += 1;
        }
        Run { mask, lo }
    }
}

/// The classes the parser reads runs of.
pub(crate) mod run {
    use super::*;
    pub(crate) const USER: Run = Run::of(super::USER);
    pub(crate) const UCHAR: Run = Run::of(super::UCHAR);
    pub(crate) const XCHAR: Run = Run::of(super::XCHAR);
    pub(crate) const SEARCH: Run = Run::of(super::SEARCH);
    pub(crate) const ARTICLE: Run = Run::of(super::ARTICLE);
    pub(crate) const FIELDNAME: Run = Run::of(super::FIELDNAME);
    pub(crate) const FIELDVALUE: Run = Run::of(super::FIELDVALUE);
    /// `fpath`: fsegments and `/`.
    pub(crate) const FPATH: Run = Run::of(FSEGMENT | SLASH);
    /// `hpath`: hsegments and `/`.
    pub(crate) const HPATH: Run = Run::of(HSEGMENT | SLASH);
}

/// Whether byte `b` belongs to the class `mask` (one of the constants above).
#[inline(always)]
pub fn is(b: u8, mask: u32) -> bool {
    TABLE[b as usize] & mask != 0
}

/// Length of the run of [`SCHEME`] bytes that `bytes` starts with.
///
/// Rule 1 of the scanner asks this of every `<` in the input, and in mail
/// most `<` open an address or a Message-ID whose name part runs 4 to 18
/// bytes before its `@`: a byte loop mispredicts its exit every time. With
/// SSE2 (always there on x86-64) 16 bytes are classified at once and the
/// run's end is one bit scan.
#[inline]
pub fn scheme_run(bytes: &[u8]) -> usize {
    run(bytes, Block::Scheme, |b| is(b, SCHEME))
}

/// The classes [`run`] has a 16-byte test for: this module's `scheme`, and
/// the scanner's candidate text (bytes other than SP, HT, CR, FF, LF, `<`
/// and `>`: rule 3 of the extraction contract).
#[derive(Clone, Copy)]
pub(crate) enum Block {
    Scheme,
    Text,
}

/// Length of the run of bytes in `class` that `bytes` starts with: whole
/// blocks of 16 tested at once, the tail (or every byte, without SSE2)
/// with `byte`, the same class.
#[inline(always)]
pub(crate) fn run(bytes: &[u8], class: Block, byte: impl Fn(u8) -> bool) -> usize {
    let mut i = 0;
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    while let Some(chunk) = bytes.get(i..i + 16) {
        // SAFETY: the build targets x86-64 with SSE2 enabled (the cfg
        // above), so the CPU has the feature the masks are compiled for.
        let m = unsafe {
            match class {
                Block::Scheme => sse2::scheme_mask(chunk),
                Block::Text => sse2::text_mask(chunk),
            }
        };
        if m != 0xFFFF {
            return i + (!m).trailing_zeros() as usize;
        }
        i += 16;
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let _ = class;
    while i < bytes.len() && byte(bytes[i]) {
        i += 1;
    }
    i
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    //! `unsafe fn` only because `#[target_feature]` asked for that before
    //! Rust 1.86: SSE2 is part of every x86-64 build (the module's cfg).
    use std::arch::x86_64::*;

    /// The 16 bytes of `chunk` in one register.
    #[inline]
    #[target_feature(enable = "sse2")]
    unsafe fn load(chunk: &[u8]) -> __m128i {
        let half = |h: &[u8]| i64::from_le_bytes(h.try_into().expect("8 bytes"));
        _mm_set_epi64x(half(&chunk[8..16]), half(&chunk[..8]))
    }

    /// Lanes of `v` in `lo..=hi`, found as `min(b - lo, hi - lo) == b - lo`
    /// (unsigned).
    #[inline]
    #[target_feature(enable = "sse2")]
    unsafe fn within(v: __m128i, lo: u8, hi: u8) -> __m128i {
        let t = _mm_sub_epi8(v, _mm_set1_epi8(lo as i8));
        _mm_cmpeq_epi8(_mm_min_epu8(t, _mm_set1_epi8((hi - lo) as i8)), t)
    }

    /// Lanes of `v` equal to `b`.
    #[inline]
    #[target_feature(enable = "sse2")]
    unsafe fn eq(v: __m128i, b: u8) -> __m128i {
        _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8))
    }

    /// Bit `j` set iff `chunk[j]` (16 bytes) is in `scheme`: a letter, a
    /// digit, `+`, `-` or `.`.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn scheme_mask(chunk: &[u8]) -> u32 {
        let x = load(chunk);
        // Folding the case bit maps only letters into `a..=z`.
        let alpha = within(_mm_or_si128(x, _mm_set1_epi8(0x20)), b'a', b'z');
        let digit = within(x, b'0', b'9');
        // `+ , - .` less the comma.
        let punct = _mm_andnot_si128(eq(x, b','), within(x, b'+', b'.'));
        _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(alpha, digit), punct)) as u32
    }

    /// Bit `j` set iff `chunk[j]` (16 bytes) is candidate text: not SP, HT,
    /// LF, FF, CR, `<` or `>`.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn text_mask(chunk: &[u8]) -> u32 {
        let x = load(chunk);
        // HT LF (VT) FF CR, less the VT.
        let controls = _mm_andnot_si128(eq(x, 0x0b), within(x, b'\t', b'\r'));
        // `<` and `>` are the bytes that become `>` with bit 1 set.
        let angles = eq(_mm_or_si128(x, _mm_set1_epi8(2)), b'>');
        let stop = _mm_or_si128(_mm_or_si128(controls, angles), eq(x, b' '));
        (!_mm_movemask_epi8(stop) as u32) & 0xFFFF
    }
}

/// Value of a `hex` digit, or `None`.
#[inline]
pub const fn hex_val(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'A'..=b'F' => Some(b - b'A' + 10),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn members(mask: u32) -> String {
        (0u8..=255)
            .filter(|&b| is(b, mask))
            .map(|b| b as char)
            .collect()
    }

    #[test]
    fn section5_sets() {
        assert_eq!(members(SAFE), "$+-._");
        assert_eq!(members(EXTRA), "!'()*,");
        assert_eq!(members(RESERVED), "&/:;=?@");
        assert_eq!(members(UNRESERVED).len(), 26 * 2 + 10 + 5 + 6);
        assert!(!is(b'~', XCHAR) && !is(b'%', XCHAR) && !is(b'#', XCHAR));
        assert_eq!(members(GROUP).len(), 62 + 4);
        assert!(is(b'@', FSEGMENT) && !is(b';', FSEGMENT) && !is(b'/', FSEGMENT));
        assert!(is(b';', HSEGMENT) && !is(b'?', HSEGMENT));
        assert!(is(b'/', ARTICLE) && !is(b'@', ARTICLE));
        assert!(!is(b'=', FIELDNAME) && !is(b';', FIELDNAME));
        assert!(!is(b':', USER) && !is(b'@', USER) && is(b'?', USER));
        for b in 128..=255u8 {
            assert_eq!(TABLE[b as usize], 0);
        }
    }

    /// Every byte value at every position of a block, runs ending in every
    /// block and in the tail: `run_fn` agrees with a byte loop over `class`.
    pub(crate) fn agrees(run_fn: fn(&[u8]) -> usize, class: impl Fn(u8) -> bool, fill: &[u8]) {
        let naive = |b: &[u8]| b.iter().take_while(|&&c| class(c)).count();
        for stop in 0u8..=255 {
            for len in [0, 1, 5, 15, 16, 17, 31, 32, 33, 40] {
                for at in 0..=len {
                    let mut b: Vec<u8> = (0..len).map(|k| fill[k % fill.len()]).collect();
                    if at < len {
                        b[at] = stop;
                    }
                    assert_eq!(run_fn(&b), naive(&b), "{stop:#x} at {at} of {len}");
                }
            }
        }
    }

    /// `scheme_run` is the table's `scheme` class (section 2.1).
    #[test]
    fn scheme_run_agrees_with_the_table() {
        agrees(scheme_run, |c| is(c, SCHEME), b"aZ09+-.x");
    }
}
