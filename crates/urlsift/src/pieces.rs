//! The one streaming reader: an input read in pieces cut at line starts.
//!
//! Every front end scans through it: [`Extractor`](crate::Extractor) pulls
//! pieces from a [`Read`], [`PushScanner`](crate::PushScanner) from the
//! bytes pushed to it, and the `urlsift` command from files, ranges of
//! files and decompressed streams, on any number of threads.
//!
//! A piece is about `target` bytes ending at a line start (just after a
//! blank line when the last half of the piece has one, so a mail header
//! block is rarely cut; after an mbox `From ` line's blank line first),
//! followed by `look` bytes of lookahead: a candidate whose `<` lies in the
//! piece proper is finished from the lookahead, so `look` must be at least
//! [`Limits::max_bytes`](crate::Limits::max_bytes). Only a line longer than
//! a piece is cut inside, with a [`PieceContext`] saying what the scanner
//! needs to know of the line before the cut. Memory is one piece buffer
//! (`target + look` bytes) and the carried lookahead, whatever the input.

use std::io::{self, Read};

use memchr::memmem;

use crate::scan::PieceContext;

/// One piece of an input, from a [`PieceReader`].
///
/// [`Piece::bytes`] holds the piece proper (`..limit`) and its lookahead.
/// Matches whose `<` lies before `limit` belong to it; scan it with
/// [`Scanner::scan_piece_each`](crate::Scanner::scan_piece_each) and move
/// the matches by `offset` and the lines before it
/// ([`Match::rebase`](crate::Match::rebase)).
#[derive(Debug)]
pub struct Piece {
    data: Vec<u8>,
    len: usize,
    /// End of the piece proper: a line start (or inside a line longer than
    /// a piece), or the end of the bytes at the end of the input.
    pub limit: usize,
    /// Absolute offset of the first byte in the input.
    pub offset: u64,
    /// Whether the input ends with this piece.
    pub at_end: bool,
    /// What the scanner needs to know of the bytes before the piece (it
    /// starts inside a line only when a line is longer than a piece).
    pub context: PieceContext,
}

impl Piece {
    /// The bytes, lookahead included.
    pub fn bytes(&self) -> &[u8] {
        &self.data[..self.len]
    }

    /// The buffer, to hand back with [`PieceReader::recycle`] (no fresh
    /// allocation for the next piece).
    pub fn into_buffer(self) -> Vec<u8> {
        self.data
    }
}

/// Reads an input in [`Piece`]s (see the module documentation).
///
/// Reading errors never lose data: `Interrupted` is retried; any other
/// error is returned by [`PieceReader::read_piece`] after the pieces that
/// the bytes read before it complete, and the bytes read stay buffered, so
/// a caller may call again after `WouldBlock` (or any error it deems
/// passing) and go on where the input stood. A caller that gives up can
/// still have the bytes read as the last piece ([`PieceReader::end_early`]).
///
/// ```
/// use urlsift::{PieceReader, Scanner};
/// let text: &[u8] = b"<URL:http://a.example/x\n y>\n<news:comp.mail.mime>\n";
/// let scanner = Scanner::new();
/// let mut reader = PieceReader::new(text, 16, scanner.get_limits().max_bytes);
/// let (mut urls, mut lines) = (Vec::new(), 0);
/// while let Some(piece) = reader.read_piece()? {
///     lines += scanner.scan_piece_each(piece.bytes(), piece.limit, piece.at_end, &piece.context, &mut |m| {
///         m.rebase(piece.offset, lines);
///         urls.push((m.line(), m.as_str().into_owned()));
///     });
/// }
/// assert_eq!(urls, [(1, "http://a.example/xy".into()), (3, "news:comp.mail.mime".into())]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct PieceReader<R> {
    r: R,
    target: usize,
    look: usize,
    offset: u64,
    /// Bytes read past the last piece's end: the next piece's start.
    carry: Vec<u8>,
    eof: bool,
    done: bool,
    /// An error met after enough bytes for a piece: returned next.
    pending: Option<io::Error>,
    /// A piece being filled when a read failed: its buffer and length.
    partial: Option<(Vec<u8>, usize)>,
    spare: Option<Vec<u8>>,
    context: PieceContext,
    /// With [`PieceReader::range`]: where the range ends.
    stop: Option<u64>,
}

/// Where to end a piece of `data` (at least `look` bytes must follow).
fn cut(data: &[u8], target: usize, look: usize) -> Option<usize> {
    let lo = target / 2;
    if data.len() >= target.saturating_add(look) {
        let win = &data[lo..target];
        if let Some(k) = memmem::rfind(win, b"\n\nFrom ") {
            return Some(lo + k + 2);
        }
        if let Some(k) = memmem::rfind(win, b"\n\n") {
            return Some(lo + k + 2);
        }
    }
    let end = data.len().checked_sub(look)?;
    memchr::memrchr(b'\n', &data[..end]).map(|k| k + 1)
}

impl<R> PieceReader<R> {
    /// Gives a buffer (a piece's, see [`Piece::into_buffer`]) back for the
    /// next piece; one is kept.
    pub fn recycle(&mut self, data: Vec<u8>) {
        if self.spare.is_none() {
            self.spare = Some(data);
        }
    }

    /// Whether the next piece would allocate a fresh buffer (none was
    /// recycled), for a caller that pools buffers itself.
    pub fn needs_buffer(&self) -> bool {
        self.spare.is_none()
    }

    /// The reader, to reach the input under the pieces (for a reader that
    /// the caller fills, say).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.r
    }

    /// Takes back the buffer kept for reuse, if any (to pool it elsewhere
    /// when the reader is done).
    pub fn take_buffer(&mut self) -> Option<Vec<u8>> {
        self.spare.take()
    }
}

impl<R: Read> PieceReader<R> {
    /// Pieces of about `target` bytes with `look` bytes of lookahead (at
    /// least [`Limits::max_bytes`](crate::Limits::max_bytes) of the scanner
    /// used). `target` is at least 2; the sum saturates.
    pub fn new(r: R, target: usize, look: usize) -> PieceReader<R> {
        let target = target.max(2);
        PieceReader {
            r,
            target,
            look: look.min(usize::MAX - target),
            offset: 0,
            carry: Vec::new(),
            eof: false,
            done: false,
            pending: None,
            partial: None,
            spare: None,
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

    /// The next piece, `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// A read error other than `Interrupted`, after the pieces the bytes
    /// before it complete. The bytes read stay buffered: calling again
    /// reads on (after `WouldBlock`, say), and [`PieceReader::end_early`]
    /// gives them as the last piece.
    pub fn read_piece(&mut self) -> io::Result<Option<Piece>> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if self.done {
            return Ok(None);
        }
        let mut want = self.target + self.look;
        // The rest of a range and its lookahead, when that is less.
        let rest = self
            .stop
            .map(|stop| usize::try_from(stop - self.offset).unwrap_or(usize::MAX));
        if let Some(rest) = rest {
            want = want.min(rest.saturating_add(self.look));
        }
        let (mut data, mut len) = match self.partial.take() {
            Some(partial) => partial,
            None => {
                let mut data = self.spare.take().unwrap_or_default();
                if data.capacity() == 0 {
                    // Zeroed by the allocator (fresh pages from the
                    // kernel): no pass over a megabyte that a small input
                    // never reaches.
                    let first = self.carry.len() + self.target + self.look.min(self.target);
                    data = vec![0; want.min(first)];
                }
                let len = self.carry.len();
                if data.len() < len {
                    data.resize(len, 0);
                }
                data[..len].copy_from_slice(&self.carry);
                (data, len)
            }
        };
        let limit = loop {
            while len < want && !self.eof {
                if data.len() < want {
                    // Grown as the bytes come: a large lookahead costs
                    // only what an input really holds.
                    let grow = want.min(data.len().saturating_mul(2).max(len + self.target));
                    data.resize(grow, 0);
                }
                let end = want.min(data.len());
                match self.r.read(&mut data[len..end]) {
                    Ok(0) => self.eof = true,
                    Ok(k) => len += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let whole = cut(&data[..len], self.target, self.look).is_some()
                            && rest.map_or(true, |rest| rest > len);
                        if whole {
                            // What is read makes a piece: it comes first.
                            self.pending = Some(e);
                            break;
                        }
                        self.partial = Some((data, len));
                        return Err(e);
                    }
                }
            }
            if self.pending.is_some() {
                break cut(&data[..len], self.target, self.look).unwrap_or(len);
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
                    want = want.saturating_add(self.target);
                }
            }
        };
        let at_end = self.eof && self.pending.is_none();
        self.done |= at_end;
        Ok(Some(self.piece(data, len, limit, at_end)))
    }

    /// Ends the input where it stands: the bytes read and not yet given
    /// come as the last piece (`None` if there are none). For a caller that
    /// gives up after a read error but wants the URLs those bytes hold.
    pub fn end_early(&mut self) -> Option<Piece> {
        self.pending = None;
        if self.done {
            return None;
        }
        self.done = true;
        self.eof = true;
        let (data, len) = match self.partial.take() {
            Some(partial) => partial,
            None if self.carry.is_empty() => return None,
            None => {
                let mut data = self.spare.take().unwrap_or_default();
                let len = self.carry.len();
                if data.len() < len {
                    data.resize(len, 0);
                }
                data[..len].copy_from_slice(&self.carry);
                (data, len)
            }
        };
        if len == 0 {
            return None;
        }
        let limit = match self.stop {
            Some(stop) => usize::try_from(stop - self.offset).map_or(len, |r| r.min(len)),
            None => len,
        };
        Some(self.piece(data, len, limit, true))
    }

    /// Makes the piece `data[..limit]` (lookahead to `len`) and moves the
    /// reader past it.
    fn piece(&mut self, data: Vec<u8>, len: usize, limit: usize, at_end: bool) -> Piece {
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
        Piece {
            data,
            len,
            limit,
            offset,
            at_end,
            context,
        }
    }
}
