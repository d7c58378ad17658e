//! Buffers handed between threads for reuse (a piece's bytes, a piece's
//! output, the URLs a report counts), bounded in number and bytes.

use std::sync::{Mutex, MutexGuard};

/// What a [`Pool`] holds: a buffer with a capacity in bytes.
pub trait Buffer {
    /// The bytes it holds allocated.
    fn capacity(&self) -> usize;
}

impl Buffer for Vec<u8> {
    fn capacity(&self) -> usize {
        Vec::capacity(self)
    }
}

/// Buffers handed between threads for reuse: at most `most` of them and
/// `budget` bytes of capacity in all, none larger than `largest`, so a pool
/// holds little whatever the input. A buffer comes back as it was left
/// (its length too: a piece buffer of full length need not be zeroed
/// again); the giver empties one whose contents must not be seen again.
pub struct Pool<T> {
    /// The buffers and their total capacity.
    bufs: Mutex<(Vec<T>, usize)>,
    most: usize,
    largest: usize,
    budget: usize,
}

impl<T: Buffer> Pool<T> {
    /// An empty pool with these bounds.
    pub const fn new(most: usize, largest: usize, budget: usize) -> Pool<T> {
        Pool {
            bufs: Mutex::new((Vec::new(), 0)),
            most,
            largest,
            budget,
        }
    }

    /// A buffer given back before, if there is one.
    pub fn take(&self) -> Option<T> {
        let mut pool = lock(&self.bufs);
        let buf = pool.0.pop()?;
        pool.1 -= buf.capacity();
        Some(buf)
    }

    /// Keeps `buf` for a later [`Pool::take`] when the bounds allow.
    pub fn give(&self, buf: T) {
        let cap = buf.capacity();
        if cap == 0 || cap > self.largest {
            return;
        }
        let mut pool = lock(&self.bufs);
        if pool.0.len() < self.most && pool.1 + cap <= self.budget {
            pool.0.push(buf);
            pool.1 += cap;
        }
    }
}

/// `m` locked, also after a panic on another thread while it held it (the
/// data behind these locks stays consistent at every point it is left).
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
