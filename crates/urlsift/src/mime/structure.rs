//! Line starts that may be structure (rules 10 and 12): a line starting
//! with `From ` (a message, when an empty line comes before it) or, inside
//! a multipart, with `--` (a boundary, when the rest of the line says so).
//! The reader looks only at these in plain text and skipped bodies, and
//! finds them with one vector pass over the text for a line feed followed
//! by `F` or `-` ([`next_line_start_in`], which the survey's header walk
//! shares). Two substring searches (`\nFrom `, `\n--`) took two passes,
//! most of a multipart's reading time outside the decoders.

use crate::lines::next_line_start_in;

/// The first line start `s > pos` whose line starts with `From ` or, with
/// `dashes`, with `--`, the whole of that prefix lying in `raw`.
pub(super) fn next_structure_line(raw: &[u8], pos: usize, dashes: bool) -> Option<usize> {
    let accept = |s: usize| {
        let rest = &raw[s..];
        rest.starts_with(b"From ") || (dashes && rest.starts_with(b"--"))
    };
    match dashes {
        true => next_line_start_in(raw, pos, [b'F', b'-'], accept),
        false => next_line_start_in(raw, pos, [b'F'], accept),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memchr::memchr;
    use memchr::memmem;

    /// The structure search a line at a time.
    fn next_structure_line_scalar(raw: &[u8], mut pos: usize, dashes: bool) -> Option<usize> {
        while let Some(k) = memchr(b'\n', raw.get(pos..)?) {
            let s = pos + k + 1;
            let rest = &raw[s..];
            if rest.starts_with(b"From ") || (dashes && rest.starts_with(b"--")) {
                return Some(s);
            }
            pos = s;
        }
        None
    }

    /// The substring searches the vector pass stands for.
    fn by_substrings(raw: &[u8], pos: usize, dashes: bool) -> Option<usize> {
        let from = memmem::find(&raw[pos..], b"\nFrom ").map(|k| pos + k + 1);
        let dash = dashes
            .then(|| memmem::find(&raw[pos..], b"\n--").map(|k| pos + k + 1))
            .flatten();
        match (from, dash) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        #[test]
        fn the_vector_pass_agrees_with_the_substring_searches(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(&b"\n"[..]),
                    proptest::strategy::Just(&b"From "[..]),
                    proptest::strategy::Just(&b"Fro"[..]),
                    proptest::strategy::Just(&b"-"[..]),
                    proptest::strategy::Just(&b"--"[..]),
                    proptest::strategy::Just(&b"F"[..]),
                    proptest::strategy::Just(&b"text "[..]),
                    proptest::strategy::Just(&b"0123456789abcdefghijklmnopqrstuvwxyz"[..]),
                ],
                0..120,
            ),
            pos in 0usize..400,
            dashes in proptest::bool::ANY,
        ) {
            let raw = parts.concat();
            let pos = pos.min(raw.len());
            let want = by_substrings(&raw, pos, dashes);
            proptest::prop_assert_eq!(next_structure_line(&raw, pos, dashes), want);
            proptest::prop_assert_eq!(next_structure_line_scalar(&raw, pos, dashes), want);
            // Each vector search the CPU has, whichever the dispatch chose.
            let accept = |s: usize| {
                let rest = &raw[s..];
                rest.starts_with(b"From ") || (dashes && rest.starts_with(b"--"))
            };
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is available.
                let got = unsafe { crate::lines::simd::next_line_start_in_avx2(&raw, pos, [b'F', b'-'], accept) };
                proptest::prop_assert_eq!(got, want);
            }
            #[cfg(all(target_arch = "x86_64", urlsift_avx512))]
            if crate::wide::Wide::detect().is_some() {
                // SAFETY: AVX-512F/BW are available.
                let got = unsafe { crate::lines::simd::next_line_start_in_avx512(&raw, pos, [b'F', b'-'], accept) };
                proptest::prop_assert_eq!(got, want);
            }
        }
    }
}
