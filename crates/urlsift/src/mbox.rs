//! Where mbox messages start: the search for a `From ` line after an empty
//! line (contract rule 10), which both the MIME reading's survey and the
//! message tracker make over plain text. It looks for an `F` after a line
//! feed after a line feed or CR, 128 bytes a step with AVX2 and 256 with
//! AVX-512; the caller checks the rest of the line.

use memchr::memchr;

/// The first `p >= from` that may start a message: an `F` after a line
/// feed after a line feed or CR (an `F` in the first two bytes, whose line
/// state lies before `bytes`, is always given). Every mbox `From ` line
/// after an empty line is one; the caller checks the rest.
pub(crate) fn next_message_start(bytes: &[u8], from: usize) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        #[cfg(urlsift_avx512)]
        if crate::wide::Wide::detect().is_some() {
            // SAFETY: AVX-512F/BW are available, checked just above.
            return unsafe { simd::next_message_start_avx512(bytes, from) };
        }
        if std::is_x86_feature_detected!("avx2") {
            // SAFETY: AVX2 is available, checked just above.
            return unsafe { simd::next_message_start_avx2(bytes, from) };
        }
    }
    next_message_start_scalar(bytes, from)
}

fn message_start_at(bytes: &[u8], p: usize) -> bool {
    bytes[p] == b'F'
        && (p < 1 || bytes[p - 1] == b'\n')
        && (p < 2 || matches!(bytes[p - 2], b'\n' | b'\r'))
}

/// The first message start among the positions below 2 from `from`, which
/// the vector searches leave to this (their bytes before lie partly outside
/// `bytes`), or else where those searches begin: `from`, at least 2 (at
/// most the length).
fn below_two(bytes: &[u8], from: usize) -> Result<usize, usize> {
    let two = bytes.len().min(2);
    match (from..two).find(|&p| message_start_at(bytes, p)) {
        Some(p) => Ok(p),
        None => Err(from.max(two)),
    }
}

pub(crate) fn next_message_start_scalar(bytes: &[u8], mut from: usize) -> Option<usize> {
    while let Some(k) = memchr(b'F', &bytes[from..]) {
        let p = from + k;
        if message_start_at(bytes, p) {
            return Some(p);
        }
        from = p + 1;
    }
    None
}

#[cfg(target_arch = "x86_64")]
pub(crate) mod simd {
    use std::arch::x86_64::*;

    /// [`super::next_message_start_scalar`] 128 bytes at a time. A block
    /// is first tested for line starts with an `F` (an `F` after a line
    /// feed), rare in text, and only then judged whole: an `F` alone (one
    /// every few hundred bytes of text) would stop the loop at a branch
    /// no predictor guesses, which cost as much as the pass itself when
    /// `memchr` looked for it. The block's own loads are aligned (a load
    /// across two cache lines costs two); those one byte back cannot be.
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn next_message_start_avx2(bytes: &[u8], mut from: usize) -> Option<usize> {
        let n = bytes.len();
        from = match super::below_two(bytes, from) {
            Ok(p) => return Some(p),
            Err(from) => from,
        };
        let f = _mm256_set1_epi8(b'F' as i8);
        let nl = _mm256_set1_epi8(b'\n' as i8);
        let cr = _mm256_set1_epi8(b'\r' as i8);
        // Positions among the 32 at `p` that pass the whole test.
        //
        // SAFETY (of each call): `p - 2 .. p + 32` lies inside `bytes`.
        let starts = |p: *const u8| unsafe {
            let v = _mm256_loadu_si256(p as *const __m256i);
            let v1 = _mm256_loadu_si256(p.sub(1) as *const __m256i);
            let v2 = _mm256_loadu_si256(p.sub(2) as *const __m256i);
            let two = _mm256_or_si256(_mm256_cmpeq_epi8(v2, nl), _mm256_cmpeq_epi8(v2, cr));
            let m = _mm256_and_si256(
                _mm256_cmpeq_epi8(v, f),
                _mm256_and_si256(_mm256_cmpeq_epi8(v1, nl), two),
            );
            _mm256_movemask_epi8(m) as u32
        };
        let at = |k: usize| unsafe { bytes.as_ptr().add(k) };
        if from + 32 <= n {
            // The first 32 positions as they lie, then aligned blocks.
            let m = starts(at(from));
            if m != 0 {
                return Some(from + m.trailing_zeros() as usize);
            }
            from += 32 - at(from) as usize % 32;
        }
        while from + 128 <= n {
            let p = at(from);
            // SAFETY: `p` is 32-byte aligned and `p .. p + 128` lies
            // inside `bytes`.
            let (a, b, c, d) = unsafe {
                (
                    _mm256_load_si256(p as *const __m256i),
                    _mm256_load_si256(p.add(32) as *const __m256i),
                    _mm256_load_si256(p.add(64) as *const __m256i),
                    _mm256_load_si256(p.add(96) as *const __m256i),
                )
            };
            // SAFETY: `from >= 2`: `p - 1 .. p + 127` lies inside `bytes`.
            let (a1, b1, c1, d1) = unsafe {
                let q = p.sub(1);
                (
                    _mm256_loadu_si256(q as *const __m256i),
                    _mm256_loadu_si256(q.add(32) as *const __m256i),
                    _mm256_loadu_si256(q.add(64) as *const __m256i),
                    _mm256_loadu_si256(q.add(96) as *const __m256i),
                )
            };
            let pair = |v, v1| _mm256_and_si256(_mm256_cmpeq_epi8(v, f), _mm256_cmpeq_epi8(v1, nl));
            let any = _mm256_or_si256(
                _mm256_or_si256(pair(a, a1), pair(b, b1)),
                _mm256_or_si256(pair(c, c1), pair(d, d1)),
            );
            if _mm256_movemask_epi8(any) != 0 {
                for k in (0..128).step_by(32) {
                    // `from >= 2`, so `p + k - 2` lies inside `bytes`.
                    let m = starts(p.wrapping_add(k));
                    if m != 0 {
                        return Some(from + k + m.trailing_zeros() as usize);
                    }
                }
            }
            from += 128;
        }
        super::next_message_start_scalar(bytes, from)
    }

    /// [`next_message_start_avx2`] 256 bytes at a time, with AVX-512: each
    /// compare gives a mask, and the test of the byte before an `F` is
    /// asked only where the `F` is (a masked compare), so a block costs
    /// three instructions where AVX2 needs six for half of it. The pass is
    /// bound by bringing the bytes in, though: it takes about 80% of the
    /// AVX2 pass's time, not a third.
    ///
    /// # Safety
    /// The CPU must support AVX-512F and AVX-512BW.
    #[cfg(urlsift_avx512)]
    #[clippy::msrv = "1.89"]
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) unsafe fn next_message_start_avx512(bytes: &[u8], mut from: usize) -> Option<usize> {
        let n = bytes.len();
        from = match super::below_two(bytes, from) {
            Ok(p) => return Some(p),
            Err(from) => from,
        };
        let f = _mm512_set1_epi8(b'F' as i8);
        let nl = _mm512_set1_epi8(b'\n' as i8);
        let cr = _mm512_set1_epi8(b'\r' as i8);
        let load = |p: *const u8| unsafe { _mm512_loadu_si512(p as *const _) };
        // Positions among the 64 at `p` with an `F` after a line feed.
        //
        // SAFETY (of each call): `p - 1 .. p + 64` lies inside `bytes`.
        let pairs = |p: *const u8| unsafe {
            let kf = _mm512_cmpeq_epi8_mask(load(p), f);
            _mm512_mask_cmpeq_epi8_mask(kf, load(p.sub(1)), nl)
        };
        // Those that pass the whole test.
        //
        // SAFETY (of each call): `p - 2 .. p + 64` lies inside `bytes`.
        let starts = |p: *const u8| unsafe {
            let k = pairs(p);
            let v2 = load(p.sub(2));
            _mm512_mask_cmpeq_epi8_mask(k, v2, nl) | _mm512_mask_cmpeq_epi8_mask(k, v2, cr)
        };
        let at = |k: usize| unsafe { bytes.as_ptr().add(k) };
        if from + 64 <= n {
            // The first 64 positions as they lie, then aligned blocks.
            let m = starts(at(from));
            if m != 0 {
                return Some(from + m.trailing_zeros() as usize);
            }
            from += 64 - at(from) as usize % 64;
        }
        while from + 256 <= n {
            let p = at(from);
            // `from >= 2`: `p - 2 .. p + 256` lies inside `bytes`.
            let any = pairs(p) | pairs(p.add(64)) | pairs(p.add(128)) | pairs(p.add(192));
            if any != 0 {
                for k in (0..256).step_by(64) {
                    let m = starts(p.add(k));
                    if m != 0 {
                        return Some(from + k + m.trailing_zeros() as usize);
                    }
                }
            }
            from += 256;
        }
        super::next_message_start_scalar(bytes, from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// The vector search for message starts finds what the definition
        /// says, from any position of any alignment.
        #[test]
        fn the_message_start_search_agrees_with_its_definition(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(b'F'),
                    proptest::strategy::Just(b'\n'),
                    proptest::strategy::Just(b'\r'),
                    proptest::strategy::Just(b'x'),
                    proptest::strategy::Just(b'<'),
                ],
                0..700,
            ),
            from in 0usize..700,
        ) {
            let from = from.min(bytes.len());
            let want = (from..bytes.len()).find(|&p| message_start_at(&bytes, p));
            proptest::prop_assert_eq!(next_message_start(&bytes, from), want);
            proptest::prop_assert_eq!(next_message_start_scalar(&bytes, from), want);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is available.
                let got = unsafe { simd::next_message_start_avx2(&bytes, from) };
                proptest::prop_assert_eq!(got, want);
            }
            #[cfg(all(target_arch = "x86_64", urlsift_avx512))]
            if crate::wide::Wide::detect().is_some() {
                // SAFETY: AVX-512F/BW are available.
                let got = unsafe { simd::next_message_start_avx512(&bytes, from) };
                proptest::prop_assert_eq!(got, want);
            }
        }
    }
}
