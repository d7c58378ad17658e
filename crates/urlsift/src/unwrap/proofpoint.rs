//! Proofpoint URL Defense's three encodings (facts from Proofpoint's
//! published decoder, `URLDefenseDecode.py`, and the public examples cited
//! in the tests; no code taken).
//!
//! - v1: `/v1/url?u=TARGET&k=...`, the target percent-encoded.
//! - v2: `/v2/url?u=TARGET&d=...`, the target percent-encoded with `-`
//!   written for `%` and `_` for `/`.
//! - v3: `/v3/__TARGET__;BYTES!...$`: in TARGET each `*` stands for the
//!   next byte of BYTES (base64url), and `**X` for the next run of them, its
//!   length given by X (`A` is 2, `B` 3, ... `_` 65). Runs count bytes: a
//!   non-ASCII character is its UTF-8 bytes.

use super::{base64, query_param, UnwrapError};
use crate::percent;

/// The target of a v1 wrapper's query.
pub(super) fn v1(query: &[u8]) -> Result<Vec<u8>, UnwrapError> {
    let u = query_param(query, "u").ok_or(UnwrapError::Missing)?;
    Ok(percent::decode(u).into_owned())
}

/// The target of a v2 wrapper's query.
pub(super) fn v2(query: &[u8]) -> Result<Vec<u8>, UnwrapError> {
    let u = query_param(query, "u").ok_or(UnwrapError::Missing)?;
    let swapped: Vec<u8> = u
        .iter()
        .map(|&b| match b {
            b'-' => b'%',
            b'_' => b'/',
            b => b,
        })
        .collect();
    Ok(percent::decode(&swapped).into_owned())
}

/// The run length a `**X` token's X gives.
fn run_length(x: u8) -> Option<usize> {
    let n = match x {
        b'A'..=b'Z' => x - b'A',
        b'a'..=b'z' => x - b'a' + 26,
        b'0'..=b'9' => x - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    };
    Some(usize::from(n) + 2)
}

/// The target of a v3 wrapper, given what follows `/v3/__`.
pub(super) fn v3(rest: &[u8]) -> Result<Vec<u8>, UnwrapError> {
    let end = memchr::memmem::find(rest, b"__;")
        .ok_or(UnwrapError::Encoding("no `__;` after the encoded URL"))?;
    let after = &rest[end + 3..];
    let bang = memchr::memchr(b'!', after)
        .ok_or(UnwrapError::Encoding("no `!` after the encoded bytes"))?;
    let bytes =
        base64(&after[..bang]).ok_or(UnwrapError::Encoding("the encoded bytes are not base64"))?;
    let mut url = percent::decode(&rest[..end]).into_owned();
    // Proofpoint's decoder restores a slash the encoder may drop after the
    // scheme (`https:/host` for `https://host`).
    let k = crate::class::scheme_run(&url);
    if k > 0 && url.get(k..k + 2) == Some(b":/") && url.get(k + 2).is_some_and(|&b| b != b'/') {
        url.insert(k + 1, b'/');
    }
    let mut out = Vec::with_capacity(url.len() + bytes.len());
    let mut next = bytes.iter().copied();
    let mut i = 0;
    while i < url.len() {
        let b = url[i];
        if b != b'*' {
            out.push(b);
            i += 1;
            continue;
        }
        let run = match (url.get(i + 1), url.get(i + 2)) {
            (Some(b'*'), Some(&x)) => {
                i += 3;
                run_length(x).ok_or(UnwrapError::Encoding("a `**` run of no known length"))?
            }
            _ => {
                i += 1;
                1
            }
        };
        for _ in 0..run {
            let byte = next.next().ok_or(UnwrapError::Encoding(
                "fewer encoded bytes than the URL's `*` tokens",
            ))?;
            out.push(byte);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_lengths() {
        assert_eq!(run_length(b'A'), Some(2));
        assert_eq!(run_length(b'B'), Some(3));
        assert_eq!(run_length(b'_'), Some(65));
        assert_eq!(run_length(b'*'), None);
    }

    #[test]
    fn v3_errors() {
        assert_eq!(
            v3(b"http://a/*b"),
            Err(UnwrapError::Encoding("no `__;` after the encoded URL"))
        );
        assert_eq!(
            v3(b"http://a/*b__;"),
            Err(UnwrapError::Encoding("no `!` after the encoded bytes"))
        );
        assert_eq!(
            v3(b"http://a/**b__;Iw!!x$"),
            Err(UnwrapError::Encoding(
                "fewer encoded bytes than the URL's `*` tokens"
            ))
        );
        assert_eq!(
            v3(b"http://a/*b__;I@!!x$"),
            Err(UnwrapError::Encoding("the encoded bytes are not base64"))
        );
    }

    #[test]
    fn v3_single_slash() {
        assert_eq!(
            v3(b"https:/example.com/__;!!x$").unwrap(),
            b"https://example.com/"
        );
    }
}
