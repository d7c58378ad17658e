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
    let mut out = Vec::with_capacity(input.len());
    out.extend_from_slice(&input[..first]);
    let mut i = first;
    while i < input.len() {
        if let Some(v) = escape_at(input, i) {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(input[i]);
        i += 1;
    }
    Cow::Owned(out)
}

/// The octet of the escape `%XX` at `input[i]`, if one stands there.
pub(crate) fn escape_at(input: &[u8], i: usize) -> Option<u8> {
    if input[i] != b'%' || i + 2 >= input.len() {
        return None;
    }
    Some(hex_val(input[i + 1])? << 4 | hex_val(input[i + 2])?)
}

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
    }
}
