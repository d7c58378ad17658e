//! Reading an input in pieces cut at line starts, and the buffers they reuse.

use std::io::{self, Read};

pub(super) use crate::pool::lock;
use crate::pool::Pool;
use crate::printer::Recs;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes per piece (before the lookahead).
pub(super) const PIECE: usize = 1 << 20;

/// The piece size in use: [`PIECE`], unless the hidden `--piece-size`
/// (for tests that move every boundary) set another. Every size the
/// scheduler works with follows from it.
static PIECE_SIZE: AtomicUsize = AtomicUsize::new(PIECE);

/// Bytes per piece (before the lookahead): [`PIECE`] but in tests.
pub(super) fn piece() -> usize {
    PIECE_SIZE.load(Ordering::Relaxed)
}

/// Sets the piece size (the hidden `--piece-size`).
pub(super) fn set_piece(n: usize) {
    PIECE_SIZE.store(n, Ordering::Relaxed);
}

/// Plain files larger than this (8 pieces) are split among the threads.
pub(super) fn split_min() -> u64 {
    8 * piece() as u64
}

pub(super) use urlsift::Piece;
use urlsift::Scanner;

/// The library's piece reader with the command's buffer pools, taking a
/// read error as the end of the input: the bytes read before it are
/// searched, then the error is reported ([`PieceReader::take_error`]).
pub(super) struct PieceReader<R> {
    inner: urlsift::PieceReader<R>,
    err: Option<io::Error>,
}

impl<R: Read> PieceReader<R> {
    /// Pieces of about `target` bytes with the lookahead a candidate of
    /// `scanner` may need (read only as far as its lines reach).
    pub(super) fn new(r: R, target: usize, scanner: Scanner) -> PieceReader<R> {
        PieceReader::pooled(reader(r, target, scanner))
    }

    /// A whole stream in pieces of [`PIECE`] bytes, with the lookahead
    /// `scanner` needs; what a live input sends is searched each time it
    /// pauses (see [`super::live`]).
    pub(super) fn stream(r: R, scanner: urlsift::Scanner) -> PieceReader<R> {
        PieceReader::pooled(reader(r, piece(), scanner).live(scanner))
    }

    /// Reads only the range `[start, stop)` of the input (see
    /// [`urlsift::PieceReader::range`]).
    pub(super) fn new_range(r: R, target: usize, scanner: Scanner, start: u64, stop: u64) -> Self {
        PieceReader::pooled(reader(r, target, scanner).range(start, stop))
    }

    /// Starts with this thread's pooled buffer, if it has one.
    fn pooled(mut inner: urlsift::PieceReader<R>) -> PieceReader<R> {
        if let Some(buf) = POOL.with(|p| p.borrow_mut().pop()) {
            inner.recycle(buf);
        }
        PieceReader { inner, err: None }
    }

    /// Gives a piece's buffer back for reuse.
    pub(super) fn recycle(&mut self, data: Vec<u8>) {
        self.inner.recycle(data);
    }

    /// The read error that ended the input early, if any.
    pub(super) fn take_error(&mut self) -> Option<io::Error> {
        self.err.take()
    }

    /// The next piece; after a read error the bytes read so far come as the
    /// last piece and [`PieceReader::take_error`] has the error.
    pub(super) fn next_piece(&mut self) -> Option<Piece> {
        if self.inner.needs_buffer() {
            if let Some(buf) = SHARED.take() {
                self.inner.recycle(buf);
            }
        }
        loop {
            match self.inner.read_piece() {
                Ok(p) => return p,
                // A live input paused with nothing to search yet: read on.
                Err(e) if super::live::is_pause(&e) => {}
                Err(e) => {
                    self.err = Some(e);
                    return self.inner.end_early();
                }
            }
        }
    }
}

/// The library's reader for the candidates of `scanner`: `max_bytes` of
/// lookahead at most, read only as far as `max_lines` lines reach, and
/// each piece's context complete for naked URLs when they are on.
fn reader<R: Read>(r: R, target: usize, scanner: Scanner) -> urlsift::PieceReader<R> {
    let limits = scanner.get_limits();
    urlsift::PieceReader::new(r, target, limits.max_bytes)
        .max_lines(limits.max_lines)
        .scanning(scanner)
}

/// Piece buffers that scanned pieces of a split input go back to, for the
/// reading thread to fill again: no fresh (zeroed) megabyte per piece (the
/// pieces in flight are bounded, so a few are enough).
pub(super) static SHARED: Pool<Vec<u8>> = Pool::new(8, usize::MAX, usize::MAX);

/// Output buffers written out, for the next pieces to fill: a piece's
/// output grows to tens of kilobytes, and growing a fresh one by doubling,
/// then freeing it on the writing thread, cost more than the formatting.
/// Many (a batch holds one per news article), none over 256 KiB, 2 MiB in
/// all.
pub(super) static BODIES: Pool<Vec<u8>> = Pool::new(256, 256 << 10, 2 << 20);

/// Empty output for a piece, its buffer from [`BODIES`] when one is there;
/// `relative` when its line numbers count from the piece's start.
pub(super) fn new_recs(relative: bool) -> Recs {
    let mut body = BODIES.take().unwrap_or_default();
    body.clear();
    Recs {
        body,
        relative,
        ..Recs::default()
    }
}

thread_local! {
    /// One piece buffer per thread, kept from input to input: allocating
    /// (and zeroing) a fresh megabyte for every small news article would
    /// cost more than scanning it.
    static POOL: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl<R> Drop for PieceReader<R> {
    fn drop(&mut self) {
        if let Some(buf) = self.inner.take_buffer() {
            POOL.with(|p| {
                let mut p = p.borrow_mut();
                if p.is_empty() {
                    p.push(buf);
                }
            });
        }
    }
}
