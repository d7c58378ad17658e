//! Line starts by their first byte: the search that finds, among the
//! lines of a text, the few that may matter (the MIME reader's structure
//! lines, the survey's and the message tracker's header lines), 64 line
//! starts at a time.

use memchr::memchr;

/// The last line feed of `b`. Most of the stretches asked about (text
/// between tags, a tag, a line up to an escape) are a few bytes, where a
/// loop beats the call of a vector search.
#[inline]
pub(crate) fn last_lf(b: &[u8]) -> Option<usize> {
    if b.len() <= 16 {
        b.iter().rposition(|&c| c == b'\n')
    } else {
        memchr::memrchr(b'\n', b)
    }
}

/// The first line start `s > from` (`bytes[s - 1]` is a line feed) whose
/// first byte is one of `set` and that `accept`s: the line starts that may
/// matter, for the reader's structure lines and the header walks.
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
pub(crate) mod simd {
    use std::arch::x86_64::*;

    /// [`super::next_line_start_in_scalar`] 64 pairs of bytes at a time:
    /// line feeds in two vectors, the bytes after them in the same vectors
    /// loaded one byte on.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn next_line_start_in_avx2<const N: usize>(
        bytes: &[u8],
        from: usize,
        set: [u8; N],
        accept: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let nl = _mm256_set1_epi8(b'\n' as i8);
        let pairs = |v: __m256i, w: __m256i| {
            let lf = _mm256_cmpeq_epi8(v, nl);
            // `N` is a constant: the fold unrolls to `N` compares, and the
            // broadcasts leave the loop. (Not `set.map(..)` first: that
            // generic call, compiled without AVX2, stayed a call per
            // search, and a header walk searches once a field.)
            let first = set.iter().fold(_mm256_setzero_si256(), |acc, &b| {
                _mm256_or_si256(acc, _mm256_cmpeq_epi8(w, _mm256_set1_epi8(b as i8)))
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
        by_blocks(bytes, from, set, accept, lines)
    }

    /// [`next_line_start_in_avx2`] with AVX-512: the line feeds of 64
    /// bytes as a mask, and the bytes after them compared only there.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512BW.
    #[cfg(urlsift_avx512)]
    #[clippy::msrv = "1.89"]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) unsafe fn next_line_start_in_avx512<const N: usize>(
        bytes: &[u8],
        from: usize,
        set: [u8; N],
        accept: impl Fn(usize) -> bool,
    ) -> Option<usize> {
        let nl = _mm512_set1_epi8(b'\n' as i8);
        // SAFETY (of each call): `p .. p + 65` lies inside `bytes` (see
        // `by_blocks`), so the loads at `p` and `p + 1` do.
        let lines = |p: *const u8| unsafe {
            let lf = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(p as *const _), nl);
            let w = _mm512_loadu_si512(p.add(1) as *const _);
            // As in the AVX2 search: unrolled, broadcasts out of the loop.
            set.iter().fold(0, |acc, &b| {
                acc | _mm512_mask_cmpeq_epi8_mask(lf, w, _mm512_set1_epi8(b as i8))
            })
        };
        by_blocks(bytes, from, set, accept, lines)
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
