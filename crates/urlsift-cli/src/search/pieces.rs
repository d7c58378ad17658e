//! Reading an input in pieces cut at line starts, and the buffers they reuse.

use std::io::{self, Read};
use std::sync::Mutex;
use urlsift::PieceContext;

/// Bytes per piece (before the lookahead).
pub(super) const PIECE: usize = 1 << 20;
/// Plain files larger than this are split among the threads.
pub(super) const SPLIT_MIN: u64 = 8 << 20;

/// One piece of an input: `data[..len]` holds the bytes from `offset`;
/// matches whose `<` is before `limit` belong to it.
#[derive(Debug)]
pub(super) struct Piece {
    pub(super) data: Vec<u8>,
    pub(super) len: usize,
    /// End of the piece proper (a line start, or `len` at the end).
    pub(super) limit: usize,
    /// Absolute offset of the first byte.
    pub(super) offset: u64,
    /// Whether the input ends with this piece.
    pub(super) at_end: bool,
    /// What the scanner needs to know of the bytes before the piece (it
    /// starts inside a line only when a line is longer than a piece).
    pub(super) context: PieceContext,
}

impl Piece {
    /// The bytes, lookahead included.
    pub fn bytes(&self) -> &[u8] {
        &self.data[..self.len]
    }
}

/// Reads an input in pieces cut at line starts (see the module doc).
#[derive(Debug)]
pub(super) struct PieceReader<R> {
    pub(super) r: R,
    pub(super) target: usize,
    pub(super) look: usize,
    pub(super) offset: u64,
    pub(super) carry: Vec<u8>,
    pub(super) eof: bool,
    pub(super) done: bool,
    pub(super) err: Option<io::Error>,
    pub(super) spare: Vec<Vec<u8>>,
    pub(super) context: PieceContext,
    /// With [`PieceReader::range`]: where the range ends.
    pub(super) stop: Option<u64>,
}

/// Where to end a piece of `data` (at least `look` bytes must follow).
pub(super) fn cut(data: &[u8], target: usize, look: usize) -> Option<usize> {
    let lo = target / 2;
    if data.len() >= target + look {
        let win = &data[lo..target];
        if let Some(k) = memchr::memmem::rfind(win, b"\n\nFrom ") {
            return Some(lo + k + 2);
        }
        if let Some(k) = memchr::memmem::rfind(win, b"\n\n") {
            return Some(lo + k + 2);
        }
    }
    let end = data.len().checked_sub(look)?;
    memchr::memrchr(b'\n', &data[..end]).map(|k| k + 1)
}

impl<R: Read> PieceReader<R> {
    /// Pieces of about `target` bytes with `look` bytes of lookahead.
    pub fn new(r: R, target: usize, look: usize) -> PieceReader<R> {
        PieceReader {
            r,
            target: target.max(2),
            look,
            offset: 0,
            carry: Vec::new(),
            eof: false,
            done: false,
            err: None,
            spare: POOL.with(|p| p.borrow_mut().pop()).into_iter().collect(),
            context: PieceContext::default(),
            stop: None,
        }
    }

    /// Reads only the range `[start, stop)` of an input, which the reader
    /// delivers from `start` on: the last piece ends at `stop`, with its
    /// lookahead read past it. Both ends must be line starts (or the ends of
    /// the input).
    pub fn range(mut self, start: u64, stop: u64) -> PieceReader<R> {
        self.offset = start;
        self.stop = Some(stop.max(start));
        self
    }

    /// Gives a piece's buffer back for reuse.
    pub fn recycle(&mut self, data: Vec<u8>) {
        if self.spare.is_empty() {
            self.spare.push(data);
        }
    }

    /// The read error that ended the input early, if any.
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.err.take()
    }

    /// The next piece; after a read error the bytes read so far come as the
    /// last piece and [`PieceReader::take_error`] has the error.
    pub fn next_piece(&mut self) -> Option<Piece> {
        if self.done {
            return None;
        }
        let mut want = self.target + self.look;
        // The rest of a range and its lookahead, when that is less.
        let rest = self.stop.map(|stop| (stop - self.offset) as usize);
        if let Some(rest) = rest {
            want = want.min(rest + self.look);
        }
        let mut data = self
            .spare
            .pop()
            .or_else(|| SHARED.take())
            .unwrap_or_default();
        if data.capacity() == 0 {
            // Zeroed by the allocator (fresh pages from the kernel): no
            // pass over a megabyte that a small file never reaches.
            data = vec![0; want];
        } else if data.len() < want {
            data.resize(want, 0);
        }
        let mut len = self.carry.len();
        data[..len].copy_from_slice(&self.carry);
        let limit = loop {
            while len < want && !self.eof {
                match self.r.read(&mut data[len..want]) {
                    Ok(0) => self.eof = true,
                    Ok(k) => len += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.err = Some(e);
                        self.eof = true;
                    }
                }
            }
            if let Some(rest) = rest.filter(|&rest| rest <= len) {
                self.done = true;
                break rest;
            }
            if self.eof {
                break len;
            }
            match cut(&data[..len], self.target, self.look) {
                Some(c) => break c,
                None => {
                    // A line longer than the piece: cut inside it (memory
                    // stays flat) and carry what the scanner must know of
                    // the line into the next piece. An escape sequence
                    // stays whole.
                    let mut c = len - self.look;
                    if let Some(k) = memchr::memrchr(0x1b, &data[c.saturating_sub(2)..c]) {
                        c = c.saturating_sub(2) + k;
                    }
                    if c > 0 {
                        break c;
                    }
                    want += self.target;
                    data.resize(want, 0);
                }
            }
        };
        let at_end = self.eof;
        self.done |= at_end;
        let context = self.context;
        self.context = if limit > 0 && data[limit - 1] != b'\n' {
            let mut next = context;
            next.advance(&data[..limit]);
            next
        } else {
            PieceContext::default()
        };
        self.carry.clear();
        self.carry.extend_from_slice(&data[limit..len]);
        let offset = self.offset;
        self.offset += limit as u64;
        Some(Piece {
            data,
            len,
            limit,
            offset,
            at_end,
            context,
        })
    }
}

/// Buffers handed between threads for reuse: at most `most` of them and
/// `budget` bytes of capacity in all, none larger than `largest`, so a pool
/// holds little whatever the input. A buffer comes back as it was left
/// (its length too: a piece buffer of full length need not be zeroed
/// again).
pub(super) struct Pool {
    /// The buffers and their total capacity.
    pub(super) bufs: Mutex<(Vec<Vec<u8>>, usize)>,
    pub(super) most: usize,
    pub(super) largest: usize,
    pub(super) budget: usize,
}

impl Pool {
    pub(super) const fn new(most: usize, largest: usize, budget: usize) -> Pool {
        Pool {
            bufs: Mutex::new((Vec::new(), 0)),
            most,
            largest,
            budget,
        }
    }

    pub(super) fn take(&self) -> Option<Vec<u8>> {
        let mut pool = lock(&self.bufs);
        let buf = pool.0.pop()?;
        pool.1 -= buf.capacity();
        Some(buf)
    }

    pub(super) fn give(&self, buf: Vec<u8>) {
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

/// Piece buffers that scanned pieces of a split input go back to, for the
/// reading thread to fill again: no fresh (zeroed) megabyte per piece (the
/// pieces in flight are bounded, so a few are enough).
pub(super) static SHARED: Pool = Pool::new(8, usize::MAX, usize::MAX);

/// Output buffers written out, for the next pieces to fill: a piece's
/// output grows to tens of kilobytes, and growing a fresh one by doubling,
/// then freeing it on the writing thread, cost more than the formatting.
/// Many (a batch holds one per news article), none over 256 KiB, 2 MiB in
/// all.
pub(super) static BODIES: Pool = Pool::new(256, 256 << 10, 2 << 20);

/// An empty output buffer, from [`BODIES`] when one is there.
pub(super) fn take_body() -> Vec<u8> {
    let mut body = BODIES.take().unwrap_or_default();
    body.clear();
    body
}

pub(super) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

thread_local! {
    /// One piece buffer per thread, kept from input to input: allocating
    /// (and zeroing) a fresh megabyte for every small news article would
    /// cost more than scanning it.
    static POOL: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl<R> Drop for PieceReader<R> {
    fn drop(&mut self) {
        if let Some(buf) = self.spare.pop() {
            POOL.with(|p| {
                let mut p = p.borrow_mut();
                if p.is_empty() {
                    p.push(buf);
                }
            });
        }
    }
}
