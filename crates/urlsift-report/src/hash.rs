//! A stable 64-bit hash of byte strings: the distinct URLs, messages and
//! inputs are counted as sets of these, the same in every build (the
//! command and the Python module must count alike; std's hasher may
//! change between Rust releases).

const K0: u64 = 0xa076_1d64_78bd_642f;
const K1: u64 = 0xe703_7ed1_a0b4_28db;
const K2: u64 = 0x8ebc_6af0_9c88_c6e3;

/// The 128-bit product's halves folded.
#[inline]
fn mum(a: u64, b: u64) -> u64 {
    let r = u128::from(a) * u128::from(b);
    (r as u64) ^ ((r >> 64) as u64)
}

/// The hash of `parts` in order, each one's length mixed in (so that
/// `["ab", "c"]` and `["a", "bc"]` differ).
pub fn hash(parts: &[&[u8]]) -> u64 {
    let h = parts.iter().fold(K0, |h, p| absorb(h, p));
    mum(h ^ K2, K0 ^ K1)
}

/// [`hash`]'s state after the part `p`: its words, the last one padded
/// with zeros, then its length.
#[inline]
fn absorb(mut h: u64, p: &[u8]) -> u64 {
    let mut chunks = p.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        h = mum(h ^ w ^ K1, K2);
    }
    let mut last = [0u8; 8];
    let rest = chunks.remainder();
    last[..rest.len()].copy_from_slice(rest);
    h = mum(h ^ u64::from_le_bytes(last) ^ K1, K2);
    mum(h ^ p.len() as u64 ^ K0, K1)
}

/// This process's key, mixed into where the tables place their entries.
/// [`hash`] is a fixed, published function (counts merge across builds
/// and machines), so input made to collide in a table's bucket bits would
/// otherwise turn each look-up into a long probe; keyed, the placement
/// cannot be aimed at. Only placement changes: no count or file does.
fn seed() -> u64 {
    use std::hash::BuildHasher;
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| std::collections::hash_map::RandomState::new().hash_one(K0))
}

/// A hasher for sets of [`hash`] values: they are hashed already, and are
/// only mixed with [`seed`] (a multiply).
#[derive(Clone, Copy, Debug)]
pub struct Prehashed(u64);

impl Default for Prehashed {
    fn default() -> Prehashed {
        Prehashed(seed())
    }
}

impl std::hash::Hasher for Prehashed {
    fn finish(&self) -> u64 {
        mum(self.0, K1)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 ^= v;
    }
}

/// A hasher for the maps keyed by small numbers of this crate's own
/// (indices, periods): a multiply per word. Keyed by [`seed`] too (one of
/// its keys holds a URL's [`hash`]).
#[derive(Clone, Copy, Debug)]
pub struct Ids(u64);

impl Default for Ids {
    fn default() -> Ids {
        Ids(seed())
    }
}

impl Ids {
    #[inline]
    fn mix(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(26) ^ v).wrapping_mul(K2);
    }
}

impl std::hash::Hasher for Ids {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.mix(u64::from(b));
        }
    }
    fn write_u16(&mut self, v: u16) {
        self.mix(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.mix(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.mix(v);
    }
}

/// A hasher for the maps keyed by the input's strings (domain, group and
/// graph node names): [`hash`]'s steps, a word at a time, from a start
/// keyed by [`seed`], so that where a name lands cannot be aimed at.
/// std's SipHash took a byte-at-a-time share of a report's time for
/// names of tens of bytes, met once a message and once a graph edge.
#[derive(Clone, Copy, Debug)]
pub struct Names(u64);

impl Default for Names {
    fn default() -> Names {
        Names(seed())
    }
}

impl std::hash::Hasher for Names {
    fn finish(&self) -> u64 {
        mum(self.0 ^ K2, K0 ^ K1)
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = absorb(self.0, bytes);
    }
    fn write_u8(&mut self, v: u8) {
        // (A `str` ends with `0xFF`.)
        self.0 = mum(self.0 ^ u64::from(v) ^ K1, K2);
    }
}

/// A map keyed by the input's strings.
pub type NameMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<Names>>;

/// A map keyed by numbers of this crate's own.
pub type IdMap<K, V> = std::collections::HashMap<K, V, std::hash::BuildHasherDefault<Ids>>;

/// A set of [`hash`] values.
pub type Set = std::collections::HashSet<u64, std::hash::BuildHasherDefault<Prehashed>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_and_lengths() {
        assert_ne!(hash(&[b"ab", b"c"]), hash(&[b"a", b"bc"]));
        assert_ne!(hash(&[b""]), hash(&[b"", b""]));
        assert_ne!(hash(&[b"abcdefgh"]), hash(&[b"abcdefgh\0"]));
        assert_eq!(hash(&[b"http://a/"]), hash(&[b"http://a/"]));
        // Pinned: the value may never change (serialized accumulators
        // from one build are merged in another).
        assert_eq!(hash(&[b"http://a/"]), 0x679a_e7f7_8107_a5e6);
        let set: Set = (0..1000u32).map(|i| hash(&[&i.to_le_bytes()])).collect();
        assert_eq!(set.len(), 1000);
    }

    #[test]
    fn placement_mixes_every_bit() {
        use std::hash::{BuildHasher, BuildHasherDefault};
        // Values alike in their low 40 bits (as input made to collide in
        // a table's bucket bits would be) spread over the low 16 bits.
        let place = |v: u64| BuildHasherDefault::<Prehashed>::default().hash_one(v) & 0xffff;
        let spread: std::collections::HashSet<u64> = (0..1000u64).map(|i| place(i << 40)).collect();
        assert!(spread.len() > 950, "{}", spread.len());
        let place = |v: u64| BuildHasherDefault::<Ids>::default().hash_one((v, 7u32)) & 0xffff;
        let spread: std::collections::HashSet<u64> = (0..1000u64).map(|i| place(i << 40)).collect();
        assert!(spread.len() > 950, "{}", spread.len());
    }
}
