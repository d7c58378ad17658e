//! Byte searches 64 bytes a step, on CPUs with AVX-512BW.
//!
//! `memchr` and `bytecount` stop at AVX2, 32 bytes a step. With AVX-512BW
//! one compare of 64 bytes gives a 64-bit mask in a register: finding a
//! byte is a compare and a test, counting one a compare and a `popcnt`. A
//! short head or tail is read by a masked load, which touches no byte
//! outside the slice. Measured on the 256 MiB corpus (one thread, AMD EPYC
//! with AVX-512): the engine's search for `<`, the line count and the
//! survey for mbox `From ` lines ([`crate::mime`]) together took 4-5% off
//! the default reading's time.
//!
//! A [`Wide`] exists only where the CPU has the instructions (and the
//! compiler the intrinsics, Rust 1.89 or later: see `build.rs`); its
//! methods are then safe to call. Elsewhere [`Wide::detect`] gives `None`
//! and the callers keep their AVX2 or scalar searches.
//!
//! With `URLSIFT_NO_AVX512` set in the environment, [`Wide::detect`] gives
//! `None` on any CPU: the benchmarks measure the AVX2 paths beside the
//! AVX-512 ones on the same machine, as most machines run them.

/// Proof that the CPU has AVX-512F and AVX-512BW (see the module doc).
/// Never made where the searches are not built (another architecture, or a
/// compiler before 1.89).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(not(all(target_arch = "x86_64", urlsift_avx512)), allow(dead_code))]
pub(crate) struct Wide(());

impl Wide {
    /// A `Wide` when the CPU (and the compiler) can run the searches.
    #[inline]
    pub(crate) fn detect() -> Option<Wide> {
        #[cfg(all(target_arch = "x86_64", urlsift_avx512))]
        {
            use std::sync::atomic::{AtomicU8, Ordering};
            // 0: not asked yet, 1: yes, 2: no. Asked once per process: an
            // engine is made per piece, and the environment takes a lock.
            static WIDE: AtomicU8 = AtomicU8::new(0);
            let known = match WIDE.load(Ordering::Relaxed) {
                0 => {
                    let yes = std::is_x86_feature_detected!("avx512f")
                        && std::is_x86_feature_detected!("avx512bw")
                        && std::env::var_os("URLSIFT_NO_AVX512").is_none();
                    WIDE.store(if yes { 1 } else { 2 }, Ordering::Relaxed);
                    yes
                }
                k => k == 1,
            };
            if known {
                return Some(Wide(()));
            }
        }
        None
    }

    /// The first `byte` in `hay`, as [`memchr::memchr`].
    #[inline]
    pub(crate) fn find(self, hay: &[u8], byte: u8) -> Option<usize> {
        #[cfg(all(target_arch = "x86_64", urlsift_avx512))]
        {
            // SAFETY: a `Wide` exists only where AVX-512F/BW are available.
            unsafe { imp::find(hay, byte) }
        }
        #[cfg(not(all(target_arch = "x86_64", urlsift_avx512)))]
        {
            memchr::memchr(byte, hay)
        }
    }

    /// How many times `byte` is in `hay`, as [`bytecount::count`].
    #[inline]
    pub(crate) fn count(self, hay: &[u8], byte: u8) -> usize {
        #[cfg(all(target_arch = "x86_64", urlsift_avx512))]
        {
            // SAFETY: as in `find`.
            unsafe { imp::count(hay, byte) }
        }
        #[cfg(not(all(target_arch = "x86_64", urlsift_avx512)))]
        {
            bytecount::count(hay, byte)
        }
    }
}

/// The first `byte` in `hay`: [`Wide::find`] where the CPU has it, else
/// [`memchr::memchr`]. For the searches that stop every line or so (a
/// line's end in the MIME reader), where `memchr`'s dispatch through a
/// function pointer to its AVX2 loop cost as much as the loop.
#[inline]
pub(crate) fn find(byte: u8, hay: &[u8]) -> Option<usize> {
    match Wide::detect() {
        Some(wide) => wide.find(hay, byte),
        None => memchr::memchr(byte, hay),
    }
}

// Built only by compilers that have the intrinsics (see `build.rs`).
#[cfg(all(target_arch = "x86_64", urlsift_avx512))]
#[clippy::msrv = "1.89"]
pub(crate) mod imp {
    use std::arch::x86_64::*;

    /// The mask of the first `n` lanes (`n <= 64`).
    #[inline(always)]
    fn lanes(n: usize) -> u64 {
        debug_assert!(n <= 64);
        if n == 0 {
            0
        } else {
            u64::MAX >> (64 - n)
        }
    }

    /// Lanes of the `n <= 64` bytes at `p` equal to `v`, by a masked
    /// load: no byte past `p + n` is touched.
    ///
    /// # Safety
    /// AVX-512F/BW; `p .. p + n` readable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn eq_short(p: *const u8, n: usize, v: __m512i) -> u64 {
        let k = lanes(n);
        _mm512_mask_cmpeq_epi8_mask(k, _mm512_maskz_loadu_epi8(k, p as *const i8), v)
    }

    /// Lanes of the 64 bytes at `p` equal to `v`.
    ///
    /// # Safety
    /// AVX-512F/BW; `p .. p + 64` readable.
    #[inline]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn eq(p: *const u8, v: __m512i) -> u64 {
        _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(p as *const _), v)
    }

    /// See [`super::Wide::find`]. After a first unaligned block, aligned
    /// blocks of 256 bytes with one test for all four (a load across two
    /// cache lines costs two).
    ///
    /// # Safety
    /// AVX-512F/BW must be available.
    #[target_feature(enable = "avx512f,avx512bw")]
    pub(crate) unsafe fn find(hay: &[u8], byte: u8) -> Option<usize> {
        let (p, n) = (hay.as_ptr(), hay.len());
        let v = _mm512_set1_epi8(byte as i8);
        if n < 64 {
            let m = eq_short(p, n, v);
            return (m != 0).then(|| m.trailing_zeros() as usize);
        }
        let m = eq(p, v);
        if m != 0 {
            return Some(m.trailing_zeros() as usize);
        }
        let mut i = 64 - (p as usize & 63);
        while i + 256 <= n {
            let q = p.add(i);
            let (a, b, c, d) = (
                eq(q, v),
                eq(q.add(64), v),
                eq(q.add(128), v),
                eq(q.add(192), v),
            );
            if (a | b | c | d) != 0 {
                let (k, m) = match () {
                    _ if a != 0 => (0, a),
                    _ if b != 0 => (64, b),
                    _ if c != 0 => (128, c),
                    _ => (192, d),
                };
                return Some(i + k + m.trailing_zeros() as usize);
            }
            i += 256;
        }
        while i < n {
            let m = eq_short(p.add(i), (n - i).min(64), v);
            if m != 0 {
                return Some(i + m.trailing_zeros() as usize);
            }
            i += 64;
        }
        None
    }

    /// See [`super::Wide::count`].
    ///
    /// # Safety
    /// AVX-512F/BW must be available.
    #[target_feature(enable = "avx512f,avx512bw,popcnt")]
    pub(crate) unsafe fn count(hay: &[u8], byte: u8) -> usize {
        let (p, n) = (hay.as_ptr(), hay.len());
        let v = _mm512_set1_epi8(byte as i8);
        let mut i = 0;
        let mut count = 0;
        while i + 256 <= n {
            let q = p.add(i);
            count += (eq(q, v).count_ones()
                + eq(q.add(64), v).count_ones()
                + eq(q.add(128), v).count_ones()
                + eq(q.add(192), v).count_ones()) as usize;
            i += 256;
        }
        while i < n {
            count += eq_short(p.add(i), (n - i).min(64), v).count_ones() as usize;
            i += 64;
        }
        count
    }
}

/// The search for `<`, the only work the hot loop does on plain text. With
/// AVX-512 it is [`Wide::find`]; with AVX2 the searcher is built once per
/// engine and called directly: `<` comes every few hundred bytes in mail,
/// and `memchr`'s per-call dispatch was a tenth of the search's cost.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Skip {
    byte: u8,
    /// The 64-byte search, where the CPU has it.
    pub(crate) wide: Option<Wide>,
    #[cfg(target_arch = "x86_64")]
    avx2: Option<memchr::arch::x86_64::avx2::memchr::One>,
}

impl Skip {
    /// The search for `<`.
    pub(crate) fn new() -> Skip {
        Skip::byte(b'<')
    }

    /// The search for `byte` (the naked pass looks for ':').
    pub(crate) fn byte(byte: u8) -> Skip {
        Skip {
            byte,
            wide: Wide::detect(),
            #[cfg(target_arch = "x86_64")]
            avx2: memchr::arch::x86_64::avx2::memchr::One::new(byte),
        }
    }

    #[inline]
    pub(crate) fn find(&self, haystack: &[u8]) -> Option<usize> {
        if let Some(wide) = self.wide {
            return wide.find(haystack, self.byte);
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(one) = &self.avx2 {
            return one.find(haystack);
        }
        memchr::memchr(self.byte, haystack)
    }
}

#[cfg(test)]
mod tests {
    use super::Wide;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Both searches agree with `memchr` and `bytecount` on any bytes
        /// at any alignment (on a CPU without AVX-512 there is no `Wide`
        /// to test, and the callers never use one).
        #[test]
        fn the_wide_searches_agree_with_memchr_and_bytecount(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(b'<'),
                    proptest::strategy::Just(b'\n'),
                    proptest::strategy::Just(b'x'),
                    proptest::strategy::Just(0xffu8),
                ],
                0..1200,
            ),
            start in 0usize..64,
            len in 0usize..1200,
        ) {
            let Some(wide) = Wide::detect() else { return Ok(()) };
            let start = start.min(bytes.len());
            let hay = &bytes[start..(start + len).min(bytes.len())];
            for byte in [b'<', b'\n', 0xff, b'y'] {
                proptest::prop_assert_eq!(wide.find(hay, byte), memchr::memchr(byte, hay));
                proptest::prop_assert_eq!(wide.count(hay, byte), bytecount::count(hay, byte));
            }
        }
    }

    #[test]
    fn a_byte_is_found_in_every_lane_of_every_block() {
        let Some(wide) = Wide::detect() else { return };
        let mut hay = vec![b'x'; 700];
        for at in 0..hay.len() {
            hay[at] = b'<';
            for from in [0, 1, 63, 64, 65].into_iter().filter(|&f| f <= at) {
                assert_eq!(wide.find(&hay[from..], b'<'), Some(at - from));
                assert_eq!(wide.count(&hay[from..], b'<'), 1);
            }
            hay[at] = b'x';
        }
    }
}
