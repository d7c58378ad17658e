//! Line starts that may be structure (rules 10 and 12): a line starting
//! with `From ` (a message, when an empty line comes before it) or, inside
//! a multipart, with `--` (a boundary, when the rest of the line says so).
//! The reader looks only at these in plain text and skipped bodies, and
//! finds them with one vector pass over the text for a line feed followed
//! by `F` or `-` ([`next_line_start_in`], which the survey's header walk
//! shares). Two substring searches (`\nFrom `, `\n--`) took two passes,
//! most of a multipart's reading time outside the decoders.

use memchr::memchr;

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

/// The first line start `s > from` (`bytes[s - 1]` is a line feed) whose
/// first byte is one of `set` and that `accept`s: the line starts that may
/// matter, for the reader's structure lines and the survey's header walk.
/// A line feed sits every few tens of bytes, so a search per line would
/// cost a call per line; the vector search tests 64 line starts at a time
/// and asks `accept` of each candidate without leaving its loop.
pub(crate) fn next_line_start_in<const N: usize>(
    bytes: &[u8],
    from: usize,
    set: [u8; N],
    accept: impl Fn(usize) -> bool,
) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        #[cfg(urlsift_avx512)]
        if crate::wide::Wide::detect().is_some() {
            // SAFETY: AVX-512F/BW are available, checked just above.
            return unsafe { simd::next_line_start_in_avx512(bytes, from, set, accept) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is available, checked just above.
            return unsafe { simd::next_line_start_in_avx2(bytes, from, set, accept) };
        }
    }
    next_line_start_in_scalar(bytes, from, set, accept)
}

fn next_line_start_in_scalar<const N: usize>(
    bytes: &[u8],
    mut from: usize,
    set: [u8; N],
    accept: impl Fn(usize) -> bool,
) -> Option<usize> {
    while let Some(k) = memchr(b'\n', bytes.get(from..)?) {
        let s = from + k + 1;
        match bytes.get(s) {
            Some(b) if set.contains(b) && accept(s) => return Some(s),
            Some(_) => from = s,
            None => return None,
        }
    }
    None
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    /// [`super::next_line_start_in_scalar`] 64 pairs of bytes at a time:
    /// line feeds in two vectors, the bytes after them in the same vectors
    /// loaded one byte on.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn next_line_start_in_avx2<const N: usize>(
        bytes: &[u8],
        from: usize,
        set: [u8; N],
        accept: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let raw_set = set;
        let nl = _mm256_set1_epi8(b'\n' as i8);
        let set = set.map(|b| _mm256_set1_epi8(b as i8));
        let pairs = |v: __m256i, w: __m256i| {
            let lf = _mm256_cmpeq_epi8(v, nl);
            // `N` is a constant: the fold unrolls to `N` compares.
            let first = set.iter().fold(_mm256_setzero_si256(), |acc, &b| {
                _mm256_or_si256(acc, _mm256_cmpeq_epi8(w, b))
            });
            _mm256_movemask_epi8(_mm256_and_si256(lf, first)) as u32
        };
        // SAFETY (of each call): `p .. p + 65` lies inside `bytes` (see
        // `by_blocks`), so the four 32-byte loads (at `p`, `p + 1`,
        // `p + 32` and `p + 33`) do.
        let lines = |p: *const u8| unsafe {
            u64::from(pairs(
                _mm256_loadu_si256(p as *const __m256i),
                _mm256_loadu_si256(p.add(1) as *const __m256i),
            )) | u64::from(pairs(
                _mm256_loadu_si256(p.add(32) as *const __m256i),
                _mm256_loadu_si256(p.add(33) as *const __m256i),
            )) << 32
        };
        by_blocks(bytes, from, raw_set, accept, lines)
    }

    /// [`next_line_start_in_avx2`] with AVX-512: the line feeds of 64
    /// bytes as a mask, and the bytes after them compared only there.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512BW.
    #[cfg(urlsift_avx512)]
    #[clippy::msrv = "1.89"]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(super) unsafe fn next_line_start_in_avx512<const N: usize>(
        bytes: &[u8],
        from: usize,
        set: [u8; N],
        accept: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let raw_set = set;
        let nl = _mm512_set1_epi8(b'\n' as i8);
        let set = set.map(|b| _mm512_set1_epi8(b as i8));
        // SAFETY (of each call): `p .. p + 65` lies inside `bytes` (see
        // `by_blocks`), so the loads at `p` and `p + 1` do.
        let lines = |p: *const u8| unsafe {
            let lf = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(p as *const _), nl);
            let w = _mm512_loadu_si512(p.add(1) as *const _);
            // `N` is a constant: the fold unrolls to `N` compares.
            set.iter()
                .fold(0, |acc, &b| acc | _mm512_mask_cmpeq_epi8_mask(lf, w, b))
        };
        by_blocks(bytes, from, raw_set, accept, lines)
    }

    /// The loop both vector searches share: for each 64 bytes at `p` with
    /// `p + 65` inside `bytes`, `lines(p)` marks the line feeds (bit `k`
    /// for `p + k`) followed by a byte of `set`; their line starts are
    /// `accept`ed in order. The last bytes go to the scalar search.
    #[inline(always)]
    fn by_blocks<const N: usize>(
        bytes: &[u8],
        mut from: usize,
        set: [u8; N],
        accept: impl Fn(usize) -> bool,
        lines: impl Fn(*const u8) -> u64,
    ) -> Option<usize> {
        while from + 65 <= bytes.len() {
            let mut m = lines(bytes[from..].as_ptr());
            while m != 0 {
                let s = from + m.trailing_zeros() as usize + 1;
                if accept(s) {
                    return Some(s);
                }
                m &= m - 1;
            }
            from += 64;
        }
        super::next_line_start_in_scalar(bytes, from, set, accept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
                let got = unsafe { simd::next_line_start_in_avx2(&raw, pos, [b'F', b'-'], accept) };
                proptest::prop_assert_eq!(got, want);
            }
            #[cfg(all(target_arch = "x86_64", urlsift_avx512))]
            if crate::wide::Wide::detect().is_some() {
                // SAFETY: AVX-512F/BW are available.
                let got = unsafe { simd::next_line_start_in_avx512(&raw, pos, [b'F', b'-'], accept) };
                proptest::prop_assert_eq!(got, want);
            }
        }
    }
}
