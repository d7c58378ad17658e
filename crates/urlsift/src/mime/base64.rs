//! Base64, decoded as it streams (contract rule 11): bytes outside the
//! alphabet (`=` too) are skipped, a last partial group gives what it holds
//! (2 characters: 1 byte, 3: 2 bytes). Each group of four characters is
//! placed at its first character (rule 13); groups in a row on one line
//! share one run of the map.
//!
//! Whole groups in a row (most of a line) are decoded 32 characters a
//! step where the CPU has AVX2 ([`decode_groups`], the vector method of
//! Muła and Lemire: two nibble look-ups check the alphabet, a third gives
//! each character's value, two multiply-adds pack them), else a group at
//! a time by table; the map is then written from the decoded bytes, the
//! same runs either way.

use super::{Kind, Out, Pass, Reader, Run};

/// The 6-bit value of each alphabet byte; 64 for every other byte.
const TABLE: [u8; 256] = {
    let mut t = [64u8; 256];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut i = 0;
    while i < 64 {
        t[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The group being gathered, and the run the next group may extend.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct State {
    acc: u32,
    n: u8,
    /// Raw offset, column and line difference of the group's first byte.
    r: u64,
    col: u64,
    delta: i64,
    /// Raw offset past the group's last character so far.
    end: u64,
    /// The next group extends the last run when it starts at this raw
    /// offset and decoded offset with this line difference.
    next: Option<(u64, u64, i64)>,
}

impl Reader {
    /// Decodes `raw[a..e]` (a line, part of one, or complete lines).
    pub(super) fn b64_line(
        &mut self,
        run: &Pass<'_>,
        a: usize,
        e: usize,
        out: &mut Out<'_>,
    ) -> usize {
        let mut g = self.b64;
        // Groups are decoded a block at a time into the stack (an append
        // per group cost more than its decoding), zeroed once per call.
        let mut block = [0u8; BLOCK / 4 * 3 + SLACK];
        let bytes = &run.raw[a..e];
        out.dec.reserve(bytes.len() / 4 * 3 + 3);
        let mut i = 0;
        while i < bytes.len() {
            if g.n == 0 {
                // Whole groups of four alphabet characters in a row: decoded
                // at once (the byte path below takes the rest: other bytes,
                // groups split by them).
                let k = self.b64_groups(&mut g, &mut block, run.base + a as u64, bytes, i, out);
                if k > i {
                    i = k;
                    continue;
                }
            }
            let (at, c) = (i, bytes[i]);
            i += 1;
            let v = TABLE[c as usize];
            if v == 64 {
                if c == b'\n' {
                    // (Lines decoded in a block: the next line starts.)
                    self.delta += 1;
                    self.line_start = run.base + (a + i) as u64;
                }
                continue;
            }
            if g.n == 0 {
                g.r = run.base + (a + at) as u64;
                g.col = g.r.saturating_sub(self.line_start);
                g.delta = self.delta;
            }
            g.acc = g.acc << 6 | v as u32;
            g.n += 1;
            g.end = run.base + (a + at) as u64 + 1;
            if g.n == 4 {
                let acc = g.acc;
                g.n = 0;
                g.acc = 0;
                self.b64_group(
                    &mut g,
                    &[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8],
                    out,
                );
            }
        }
        self.b64 = g;
        e
    }

    /// Decodes the whole groups at `bytes[i..]` (raw offset `base` +
    /// index), and returns where they stop. Groups whose bytes hold no
    /// line break extend one run ([`Reader::b64_run`]); one that decodes
    /// to a line break is placed as [`Reader::b64_group`] places a group
    /// the byte path gathered.
    fn b64_groups(
        &mut self,
        g: &mut State,
        block: &mut [u8; BLOCK / 4 * 3 + SLACK],
        base: u64,
        bytes: &[u8],
        mut i: usize,
        out: &mut Out<'_>,
    ) -> usize {
        loop {
            let src = &bytes[i..bytes.len().min(i + BLOCK)];
            let n = decode_groups(src, block);
            if n == 0 {
                return i;
            }
            let dec = &block[..3 * n];
            let mut x = 0;
            while x < dec.len() {
                // Groups up to the next one holding a line break.
                let lf = memchr::memchr(b'\n', &dec[x..]).map_or(dec.len(), |k| x + k);
                let upto = lf / 3 * 3;
                if upto > x {
                    self.b64_run(g, base + (i + x / 3 * 4) as u64, &dec[x..upto], out);
                    x = upto;
                }
                if x < dec.len() {
                    let r = base + (i + x / 3 * 4) as u64;
                    g.r = r;
                    g.col = r.saturating_sub(self.line_start);
                    g.delta = self.delta;
                    g.end = r + 4;
                    let three = [dec[x], dec[x + 1], dec[x + 2]];
                    self.b64_group(g, &three, out);
                    x += 3;
                }
            }
            i += 4 * n;
            if n < BLOCK / 4 {
                return i;
            }
        }
    }

    /// Writes `dec`, the bytes of whole groups in a row with no line break
    /// among them, whose first character is at raw offset `r`: one run,
    /// or more of the last one when it ends there.
    fn b64_run(&mut self, g: &mut State, r: u64, dec: &[u8], out: &mut Out<'_>) {
        let d = out.d();
        if g.next != Some((r, d, self.delta)) {
            out.map.push(
                Run {
                    d,
                    r,
                    col: r.saturating_sub(self.line_start),
                    delta: self.delta,
                    kind: Kind::Base64 { g0: d },
                    cap: r + 4,
                },
                &self.place,
            );
        }
        out.dec.extend_from_slice(dec);
        let end = r + (dec.len() / 3 * 4) as u64;
        if let Some(last) = out.map.last_mut() {
            last.cap = end;
        }
        g.r = end - 4;
        g.col = g.r.saturating_sub(self.line_start);
        g.delta = self.delta;
        g.end = end;
        g.next = Some((end, out.d(), self.delta));
    }

    /// Writes what a last partial group holds.
    pub(super) fn b64_flush(&mut self, out: &mut Out<'_>) {
        let mut g = self.b64;
        let (acc, n) = (g.acc, g.n);
        g.n = 0;
        g.acc = 0;
        match n {
            2 => self.b64_group(&mut g, &[(acc >> 4) as u8], out),
            3 => self.b64_group(&mut g, &[(acc >> 10) as u8, (acc >> 2) as u8], out),
            _ => {}
        }
        g.next = None;
        self.b64 = g;
    }

    /// Writes the decoded bytes of the group placed at `g.r`.
    fn b64_group(&mut self, g: &mut State, bytes: &[u8], out: &mut Out<'_>) {
        let d = out.d();
        if g.next != Some((g.r, d, g.delta)) {
            out.map.push(
                Run {
                    d,
                    r: g.r,
                    col: g.col,
                    delta: g.delta,
                    kind: Kind::Base64 { g0: d },
                    cap: g.end,
                },
                &self.place,
            );
        } else if let Some(last) = out.map.last_mut() {
            last.cap = g.end;
        }
        out.dec.extend_from_slice(bytes);
        let mut delta = g.delta;
        for (j, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                // A decoded line break with no raw one: the bytes after it
                // need a run with the new difference.
                delta -= 1;
                self.delta -= 1;
                if j + 1 < bytes.len() {
                    out.map.push(
                        Run {
                            d: d + j as u64 + 1,
                            r: g.r,
                            col: g.col,
                            delta,
                            kind: Kind::Base64 { g0: d },
                            cap: g.end,
                        },
                        &self.place,
                    );
                }
            }
        }
        // A line break as the last byte leaves no run for what follows.
        g.next = (bytes.last() != Some(&b'\n')).then_some((g.r + 4, d + bytes.len() as u64, delta));
    }
}

/// Characters [`Reader::b64_groups`] decodes at once.
const BLOCK: usize = 1024;

/// Room past the decoded bytes that the vector loop's stores may touch.
const SLACK: usize = 8;

/// Decodes the whole groups of four alphabet characters at the start of
/// `src` (up to the first byte outside the alphabet, or the last whole
/// group) into `dst`, three bytes each, and returns how many. `dst` holds
/// `src.len() / 4 * 3 + SLACK` bytes at least.
pub(super) fn decode_groups(src: &[u8], dst: &mut [u8]) -> usize {
    assert!(dst.len() >= src.len() / 4 * 3 + SLACK);
    let mut n = 0;
    #[cfg(target_arch = "x86_64")]
    if avx2() {
        // SAFETY: the CPU has AVX2; the lengths are checked above.
        n = unsafe { avx2::decode(src, dst) };
    }
    n + decode_scalar(&src[4 * n..], &mut dst[3 * n..])
}

/// [`decode_groups`] a group at a time, by table.
pub(super) fn decode_scalar(src: &[u8], dst: &mut [u8]) -> usize {
    let mut n = 0;
    for (q, o) in src.chunks_exact(4).zip(dst.chunks_exact_mut(3)) {
        let (a, b, c, d) = (
            TABLE[q[0] as usize],
            TABLE[q[1] as usize],
            TABLE[q[2] as usize],
            TABLE[q[3] as usize],
        );
        if (a | b | c | d) >= 64 {
            break;
        }
        let acc = (a as u32) << 18 | (b as u32) << 12 | (c as u32) << 6 | d as u32;
        o.copy_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
        n += 1;
    }
    n
}

/// Whether the CPU has AVX2 (asked once; `std` caches the answer).
#[cfg(target_arch = "x86_64")]
#[inline]
fn avx2() -> bool {
    std::is_x86_feature_detected!("avx2")
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// The groups of 32 characters in a row at the start of `src` that are
    /// all in the alphabet, decoded into `dst` (24 bytes each, 32 written);
    /// returns the number of groups of four.
    ///
    /// # Safety
    /// AVX2 must be available; `dst.len() >= src.len() / 4 * 3 + 8`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn decode(src: &[u8], dst: &mut [u8]) -> usize {
        // Per nibble: a byte is in the alphabet when the bits its low
        // nibble and its high nibble select have none in common.
        let lut_lo = _mm256_setr_epi8(
            0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1a, 0x1b, 0x1b,
            0x1b, 0x1a, 0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1a,
            0x1b, 0x1b, 0x1b, 0x1a,
        );
        let lut_hi = _mm256_setr_epi8(
            0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
            0x10, 0x10, 0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10,
            0x10, 0x10, 0x10, 0x10,
        );
        // What to add to a character, by its high nibble ('/' by index 1).
        let lut_roll = _mm256_setr_epi8(
            0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 19, 4, -65, -65, -71,
            -71, 0, 0, 0, 0, 0, 0, 0, 0,
        );
        let mask = _mm256_set1_epi8(0x2f);
        let pack = _mm256_setr_epi8(
            2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1, 2, 1, 0, 6, 5, 4, 10, 9, 8, 14,
            13, 12, -1, -1, -1, -1,
        );
        let lanes = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, -1, -1);
        let (mut i, mut o) = (0, 0);
        while i + 32 <= src.len() {
            let v = _mm256_loadu_si256(src.as_ptr().add(i) as *const __m256i);
            let hi_nib = _mm256_and_si256(_mm256_srli_epi32(v, 4), mask);
            let lo_nib = _mm256_and_si256(v, mask);
            let lo = _mm256_shuffle_epi8(lut_lo, lo_nib);
            let hi = _mm256_shuffle_epi8(lut_hi, hi_nib);
            if _mm256_testz_si256(lo, hi) == 0 {
                break;
            }
            let slash = _mm256_cmpeq_epi8(v, mask);
            let roll = _mm256_shuffle_epi8(lut_roll, _mm256_add_epi8(slash, hi_nib));
            let six = _mm256_add_epi8(v, roll);
            // 6-bit values to 12 bits a pair, to 24 bits a group of four.
            let twelve = _mm256_maddubs_epi16(six, _mm256_set1_epi32(0x0140_0140));
            let groups = _mm256_madd_epi16(twelve, _mm256_set1_epi32(0x0001_1000));
            let bytes = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(groups, pack), lanes);
            _mm256_storeu_si256(dst.as_mut_ptr().add(o) as *mut __m256i, bytes);
            i += 32;
            o += 24;
        }
        i / 4
    }
}

#[cfg(test)]
mod tests {
    use super::{decode_groups, decode_scalar, SLACK};

    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    fn both(src: &[u8]) -> ((usize, Vec<u8>), (usize, Vec<u8>)) {
        let mut a = vec![0u8; src.len() / 4 * 3 + SLACK];
        let mut b = a.clone();
        let n = decode_groups(src, &mut a);
        let m = decode_scalar(src, &mut b);
        ((n, a[..3 * n].to_vec()), (m, b[..3 * m].to_vec()))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]

        /// The vector decoder (where the CPU has it) gives what the table
        /// gives: the same groups, the same bytes, stopping at the same
        /// byte outside the alphabet, at any offset and length.
        #[test]
        fn the_vector_decoder_agrees_with_the_table(
            picks in proptest::collection::vec(0usize..80, 0..400),
            start in 0usize..40,
        ) {
            // Mostly alphabet characters, some of every kind of stray byte.
            let strays = b"=\n\r -.:@[`{\x00\x80\xff";
            let src: Vec<u8> = picks
                .iter()
                .map(|&k| if k < 64 { ALPHABET[k] } else { strays[(k - 64) % strays.len()] })
                .collect();
            let src = &src[start.min(src.len())..];
            let (vector, table) = both(src);
            proptest::prop_assert_eq!(vector, table);
        }

        /// Long runs of alphabet characters with one stray byte: the
        /// decoders stop at the stray byte's group.
        #[test]
        fn one_stray_byte_stops_both(
            len in 0usize..300,
            at in 0usize..300,
            stray in proptest::prop_oneof![
                proptest::strategy::Just(b'='),
                proptest::strategy::Just(b'\n'),
                proptest::strategy::Just(0x80u8),
                proptest::strategy::Just(b'-'),
            ],
            seed in 0usize..64,
        ) {
            let mut src: Vec<u8> = (0..len).map(|i| ALPHABET[(i * 7 + seed) % 64]).collect();
            if at < len {
                src[at] = stray;
            }
            let (vector, table) = both(&src);
            proptest::prop_assert_eq!(&vector, &table);
            proptest::prop_assert_eq!(vector.0, at.min(len) / 4);
        }
    }

    #[test]
    fn every_character_decodes_to_its_value() {
        // Each character in each lane of a 32-byte step.
        for lane in 0..32 {
            for (v, &c) in ALPHABET.iter().enumerate() {
                let mut src = vec![b'A'; 64];
                src[lane] = c;
                let (vector, table) = both(&src);
                assert_eq!(vector, table);
                assert_eq!(vector.0, 16);
                let bits = (v as u32) << (18 - 6 * (lane % 4));
                let group = &vector.1[lane / 4 * 3..lane / 4 * 3 + 3];
                let got = (group[0] as u32) << 16 | (group[1] as u32) << 8 | group[2] as u32;
                assert_eq!(got, bits);
            }
            for c in (0..=255u8).filter(|c| !ALPHABET.contains(c)) {
                let mut src = vec![b'A'; 64];
                src[lane] = c;
                assert_eq!(both(&src).0 .0, lane / 4);
            }
        }
    }
}
