//! Line starts that may be structure (rules 10 and 12): a line starting
//! with `From ` (a message, when an empty line comes before it) or, inside
//! a multipart, with `--` (a boundary, when the rest of the line says so).
//! The reader looks only at these in plain text and skipped bodies, and
//! finds them with one vector pass over the text for a line feed followed
//! by `F` or `-`. Two substring searches (`\nFrom `, `\n--`) took two
//! passes, most of a multipart's reading time outside the decoders.

use memchr::memchr;

/// The first line start `s > pos` whose line starts with `From ` or, with
/// `dashes`, with `--`, the whole of that prefix lying in `raw`.
pub(super) fn next_structure_line(raw: &[u8], pos: usize, dashes: bool) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is available, checked just above.
            return unsafe { simd::next_structure_line_avx2(raw, pos, dashes) };
        }
    }
    next_structure_line_scalar(raw, pos, dashes)
}

/// Whether the line start `s` begins a line that may be structure.
#[inline]
fn is_structure(raw: &[u8], s: usize, dashes: bool) -> bool {
    let rest = &raw[s..];
    rest.starts_with(b"From ") || (dashes && rest.starts_with(b"--"))
}

fn next_structure_line_scalar(raw: &[u8], mut pos: usize, dashes: bool) -> Option<usize> {
    while let Some(k) = memchr(b'\n', raw.get(pos..)?) {
        let s = pos + k + 1;
        if is_structure(raw, s, dashes) {
            return Some(s);
        }
        pos = s;
    }
    None
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    /// [`super::next_structure_line_scalar`] 64 line starts at a time: the
    /// bytes after line feeds tested for `F` (and `-`) in registers, each
    /// candidate then checked whole. A line feed sits every few tens of
    /// bytes, so a search per line would cost a call per line.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn next_structure_line_avx2(
        raw: &[u8],
        pos: usize,
        dashes: bool,
    ) -> Option<usize> {
        let n = raw.len();
        let nl = _mm256_set1_epi8(b'\n' as i8);
        let f = _mm256_set1_epi8(b'F' as i8);
        // Without dashes, the second test is the first again.
        let d = _mm256_set1_epi8(if dashes { b'-' } else { b'F' } as i8);
        // Line starts `s` from `pos + 1` on: `raw[s - 1]` is the line feed.
        let mut s = pos + 1;
        let starts = |p: *const u8| {
            // SAFETY (of each call): `p - 1 .. p + 32` lies inside `raw`.
            let (v, v1) = unsafe {
                (
                    _mm256_loadu_si256(p as *const __m256i),
                    _mm256_loadu_si256(p.sub(1) as *const __m256i),
                )
            };
            let first = _mm256_or_si256(_mm256_cmpeq_epi8(v, f), _mm256_cmpeq_epi8(v, d));
            _mm256_and_si256(_mm256_cmpeq_epi8(v1, nl), first)
        };
        while s + 64 <= n {
            let p = raw.as_ptr().wrapping_add(s);
            // `s >= 1` and `s + 64 <= n`: both calls' bytes lie inside.
            let (a, b) = (starts(p), starts(p.wrapping_add(32)));
            let any = _mm256_or_si256(a, b);
            if _mm256_testz_si256(any, any) == 0 {
                let mut m = u64::from(_mm256_movemask_epi8(a) as u32)
                    | u64::from(_mm256_movemask_epi8(b) as u32) << 32;
                while m != 0 {
                    let c = s + m.trailing_zeros() as usize;
                    if super::is_structure(raw, c, dashes) {
                        return Some(c);
                    }
                    m &= m - 1;
                }
            }
            s += 64;
        }
        super::next_structure_line_scalar(raw, s - 1, dashes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use memchr::memmem;

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
        }
    }
}
