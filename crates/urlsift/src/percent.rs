//! Percent-decoding (RFC 1738 section 2.2, `escape = "%" hex hex`).
//!
//! Decoding never merges encoded reserved characters with literal ones:
//! callers split a component on its literal delimiters first, then decode
//! each piece.

use crate::class::hex_val;
use std::borrow::Cow;

/// Decodes every `%XX` with two hex digits; other bytes (including a `%`
/// not followed by two hex digits) are copied unchanged. Borrows when there
/// is nothing to decode.
pub fn decode(input: &[u8]) -> Cow<'_, [u8]> {
    let first = match memchr::memchr(b'%', input) {
        None => return Cow::Borrowed(input),
        Some(i) => i,
    };
    // The output is never longer than the input: it is written in place
    // by index (`j <= i`), with no capacity test a byte as `push` makes.
    let mut out = input.to_vec();
    let (mut i, mut j) = (first, first);
    while i < input.len() {
        if let Some(v) = escape_at(input, i) {
            out[j] = v;
            (i, j) = (i + 3, j + 1);
            continue;
        }
        // The run up to the next `%`, found eight bytes a step and moved
        // down at once (`out[i..]` is still the input's). A decoded
        // target (`url=https%3A%2F%2F...`) is runs of a few bytes between
        // escapes: a search call per run costs more than it saves there.
        let start = i;
        i += 1;
        while i + 8 <= input.len() {
            let word = u64::from_le_bytes(input[i..i + 8].try_into().expect("8 bytes"));
            let k = first_percent(word);
            i += k;
            if k < 8 {
                break;
            }
        }
        while i < input.len() && input[i] != b'%' {
            i += 1;
        }
        out.copy_within(start..i, j);
        j += i - start;
    }
    out.truncate(j);
    Cow::Owned(out)
}

/// The index of the first `%` among a word's bytes (little-endian: the
/// first byte is the lowest), 8 when there is none. The zero-byte test
/// (`(x - 0x01..) & !x & 0x80..` of `word ^ 0x25..`) may flag bytes after
/// the first true one, never before it, so its lowest flag is exact.
#[inline]
fn first_percent(word: u64) -> usize {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let x = word ^ (LO * u64::from(b'%'));
    let zero = x.wrapping_sub(LO) & !x & HI;
    zero.trailing_zeros() as usize / 8
}

/// The octet of the escape `%XX` at `input[i]`, if one stands there.
#[inline]
pub(crate) fn escape_at(input: &[u8], i: usize) -> Option<u8> {
    if input[i] != b'%' || i + 2 >= input.len() {
        return None;
    }
    // Both digits' values at once: a byte that is no digit has its high
    // bit set in the table.
    let (hi, lo) = (
        HEX[usize::from(input[i + 1])],
        HEX[usize::from(input[i + 2])],
    );
    ((hi | lo) & 0x80 == 0).then_some(hi << 4 | lo)
}

/// Each byte's value as a `hex` digit, `0x80` for a byte that is none.
static HEX: [u8; 256] = {
    let mut t = [0x80u8; 256];
    let mut b = 0;
    while b < 256 {
        if let Some(v) = hex_val(b as u8) {
            t[b] = v;
        }
        b += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes() {
        assert!(matches!(decode(b"abc"), Cow::Borrowed(_)));
        assert_eq!(&*decode(b"%2Fetc"), b"/etc");
        assert_eq!(&*decode(b"a%7e%7E"), b"a~~");
        assert_eq!(&*decode(b"%4G%"), b"%4G%");
        assert_eq!(&*decode(b"x%4"), b"x%4");
        assert_eq!(&*decode(b"%41"), b"A");
        assert_eq!(&*decode(b"%FF"), &[0xFF][..]);
        assert_eq!(&*decode(b"%%41%"), b"%A%");
        assert_eq!(&*decode(b"ab%2fcd%3A%2F%2Fx%zz%41"), b"ab/cd://x%zzA");
    }

    /// `decode` gives what the definition, an escape or a byte at a time,
    /// gives, on every string of `%`, hex digits and others up to 7 long.
    #[test]
    fn decodes_as_the_definition() {
        let one_by_one = |input: &[u8]| {
            let (mut out, mut i) = (Vec::new(), 0);
            while i < input.len() {
                match escape_at(input, i) {
                    Some(v) => (out.push(v), i += 3),
                    None => (out.push(input[i]), i += 1),
                };
            }
            out
        };
        // Five symbols up to 7 bytes, and three past the 8-byte steps.
        for (alphabet, longest) in [(&b"%4aFg"[..], 7u32), (b"%4g", 11)] {
            for_each_string(alphabet, longest, |s| {
                assert_eq!(&*decode(s), &one_by_one(s)[..], "{s:?}");
            });
        }
    }

    /// Calls `f` with every string of `alphabet`'s bytes up to `longest`.
    fn for_each_string(alphabet: &[u8], longest: u32, mut f: impl FnMut(&[u8])) {
        for len in 0..=longest {
            for n in 0..alphabet.len().pow(len) {
                let (mut s, mut k) = (Vec::new(), n);
                for _ in 0..len {
                    s.push(alphabet[k % alphabet.len()]);
                    k /= alphabet.len();
                }
                f(&s);
            }
        }
    }

    #[test]
    fn first_percent_is_the_first() {
        for_each_string(b"%\xa5\x24a\x00", 8, |s| {
            if s.len() == 8 {
                let word = u64::from_le_bytes(s.try_into().unwrap());
                let want = s.iter().position(|&b| b == b'%').unwrap_or(8);
                assert_eq!(first_percent(word), want, "{s:?}");
            }
        });
    }
}
