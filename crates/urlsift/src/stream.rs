//! Streams: an iterator over any [`std::io::Read`] and a push scanner for
//! callers who own the I/O loop.
//!
//! Both are thin layers on the one streaming reader, [`PieceReader`]: the
//! input is read in pieces cut at line starts, each scanned with the
//! lookahead that an open candidate may need (at most
//! [`Limits::max_bytes`](crate::Limits::max_bytes)), the way the `urlsift`
//! command reads files. Results do not depend on how the input is chunked,
//! and memory stays bounded whatever its size.
//!
//! With MIME reading on (the default, [`Scanner::mime`]) the bytes go to
//! the MIME reader instead, which keeps its own state from chunk to chunk
//! (`crate::mime::MimeScan`).

use std::collections::VecDeque;
use std::io::{self, Read};

use crate::matches::Match;
use crate::mime::MimeScan;
use crate::pieces::{Piece, PieceReader};
use crate::readbuf::ReadBuf;
use crate::settings::Scanner;
use crate::tracker::Attach;

/// Bytes per piece: large enough that the lookahead a piece reads twice
/// (its own candidates' tails) is a small share, small enough to stay in
/// the caches.
const PIECE: usize = 256 * 1024;

/// Pieces scanned into matches: what both front ends share.
#[derive(Debug)]
struct Scan<R> {
    pieces: PieceReader<R>,
    scanner: Scanner,
    /// Line feeds before the next piece.
    lines: u64,
    out: VecDeque<Match>,
    /// The messages, when fields are asked for.
    attach: Option<Box<Attach>>,
}

/// The read buffer goes to the next input on this thread.
impl<R> Drop for Scan<R> {
    fn drop(&mut self) {
        if let Some(buffer) = self.pieces.take_buffer() {
            crate::readbuf::keep_spare(buffer);
        }
    }
}

impl<R: Read> Scan<R> {
    fn new(reader: R, scanner: Scanner, piece: usize) -> Scan<R> {
        let mut pieces =
            PieceReader::new(reader, piece, scanner.get_limits().max_bytes).scanning(scanner);
        pieces.recycle(crate::readbuf::take_spare());
        Scan {
            pieces,
            scanner,
            lines: 0,
            out: VecDeque::new(),
            attach: (!scanner.get_fields().is_empty())
                .then(|| Box::new(Attach::new(scanner.get_fields()))),
        }
    }

    fn scan(&mut self, p: Piece) {
        let (lines, out) = (self.lines, &mut self.out);
        let mut attach = self.attach.take();
        if let Some(a) = &mut attach {
            a.tracker.feed(&p.bytes()[..p.limit]);
            if p.at_end {
                a.tracker.finish();
            }
        }
        self.lines +=
            self.scanner
                .scan_piece_each(p.bytes(), p.limit, p.at_end, &p.context, &mut |m| {
                    m.rebase(p.offset, lines);
                    match &mut attach {
                        Some(a) => a.take(m, &mut |m| out.push_back(m.clone())),
                        None => out.push_back(m.clone()),
                    }
                });
        if let Some(a) = &mut attach {
            let floor = p.offset + p.limit as u64;
            a.release(floor, &mut |m| out.push_back(m.clone()));
        }
        self.attach = attach;
        self.pieces.recycle(p.into_buffer());
    }

    /// The input ended: matches held for their header go.
    fn end(&mut self) {
        let out = &mut self.out;
        if let Some(a) = &mut self.attach {
            a.tracker.finish();
            a.release(u64::MAX, &mut |m| out.push_back(m.clone()));
        }
    }

    /// Scans pieces until a match is ready; `Ok(false)` at the end.
    fn fill(&mut self) -> io::Result<bool> {
        while self.out.is_empty() {
            match self.pieces.read_piece()? {
                Some(p) => self.scan(p),
                None => {
                    self.end();
                    return Ok(!self.out.is_empty());
                }
            }
        }
        Ok(true)
    }
}

/// An iterator over the URLs in a reader.
///
/// ```
/// let text: &[u8] = b"> see <URL:http://www.w3.org/hyper\n> text/> and <news:comp.mail.mime>";
/// let urls: Vec<String> = urlsift::Extractor::new(text)
///     .map(|m| m.map(|m| m.as_str().into_owned()))
///     .collect::<std::io::Result<_>>()?;
/// assert_eq!(urls, ["http://www.w3.org/hypertext/", "news:comp.mail.mime"]);
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// A read error comes after every match the bytes before it hold, as an
/// `Err` item; the iteration may go on after it (a `WouldBlock` from a
/// non-blocking reader, say): the bytes read are kept and reading resumes.
/// `Interrupted` is retried.
#[derive(Debug)]
#[must_use = "an Extractor finds nothing until it is iterated"]
pub struct Extractor<R> {
    inner: Inner<R>,
}

/// The raw reading (pieces) or the MIME one.
#[derive(Debug)]
enum Inner<R> {
    Raw(Box<Scan<R>>),
    Mime(MimeRead<R>),
}

/// A reader's bytes through the MIME reader, as they are read.
#[derive(Debug)]
struct MimeRead<R> {
    reader: R,
    scan: Box<MimeScan>,
    /// Each read's bytes, at an aligned address ([`ReadBuf`]).
    chunk: ReadBuf,
    /// The most bytes a read asks for.
    size: usize,
    out: VecDeque<Match>,
    done: bool,
}

/// The read buffer goes to the next input on this thread.
impl<R> Drop for MimeRead<R> {
    fn drop(&mut self) {
        crate::readbuf::keep_spare(std::mem::take(&mut self.chunk).into_vec());
    }
}

impl<R: Read> MimeRead<R> {
    /// Reads until a match is ready; `Ok(false)` at the end. Every read's
    /// bytes are handed on at once, so an error loses nothing.
    fn fill(&mut self) -> io::Result<bool> {
        let out = &mut self.out;
        while out.is_empty() {
            if self.done {
                return Ok(false);
            }
            self.chunk.start_with(&[], self.size);
            match self.reader.read(self.chunk.spare(self.size)) {
                Ok(0) => {
                    self.scan.finish(&mut |m| out.push_back(m.clone()));
                    self.done = true;
                }
                Ok(k) => {
                    self.chunk.filled_by(k);
                    self.scan
                        .feed(self.chunk.filled(), &mut |m| out.push_back(m.clone()))
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(true)
    }
}

impl<R: Read> Extractor<R> {
    /// Extracts with the contract's defaults.
    pub fn new(reader: R) -> Extractor<R> {
        Extractor::with_scanner(reader, Scanner::new())
    }

    /// Extracts with the given settings.
    pub fn with_scanner(reader: R, scanner: Scanner) -> Extractor<R> {
        Extractor::with_buffer(reader, scanner, PIECE)
    }

    /// Like [`Extractor::with_scanner`], in pieces of about `piece` bytes
    /// (tests use tiny sizes to move every boundary).
    #[doc(hidden)]
    pub fn with_buffer(reader: R, scanner: Scanner, piece: usize) -> Extractor<R> {
        let inner = if scanner.get_mime() {
            Inner::Mime(MimeRead {
                reader,
                scan: Box::new(MimeScan::new(scanner, piece)),
                chunk: ReadBuf::from_vec(crate::readbuf::take_spare()),
                size: piece.clamp(1, PIECE),
                out: VecDeque::new(),
                done: false,
            })
        } else {
            Inner::Raw(Box::new(Scan::new(reader, scanner, piece)))
        };
        Extractor { inner }
    }

    /// The reader under the extractor.
    pub fn get_mut(&mut self) -> &mut R {
        match &mut self.inner {
            Inner::Raw(scan) => scan.pieces.get_mut(),
            Inner::Mime(m) => &mut m.reader,
        }
    }
}

impl<R: Read> Iterator for Extractor<R> {
    type Item = io::Result<Match>;

    fn next(&mut self) -> Option<io::Result<Match>> {
        let (filled, out) = match &mut self.inner {
            Inner::Raw(scan) => (scan.fill(), &mut scan.out),
            Inner::Mime(m) => (m.fill(), &mut m.out),
        };
        match filled {
            Ok(true) => out.pop_front().map(Ok),
            Ok(false) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

/// The input of a [`PushScanner`]: the bytes pushed and not yet read, and
/// `WouldBlock` when there are none until the stream is finished.
#[derive(Debug, Default)]
struct Pushed {
    bytes: Vec<u8>,
    read: usize,
    finished: bool,
}

impl Read for Pushed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = &self.bytes[self.read..];
        if rest.is_empty() {
            return if self.finished {
                Ok(0)
            } else {
                Err(io::ErrorKind::WouldBlock.into())
            };
        }
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.read += n;
        Ok(n)
    }
}

/// A push scanner: hand it bytes as they come with [`PushScanner::feed`],
/// then call [`PushScanner::finish`].
///
/// ```
/// let mut push = urlsift::PushScanner::new(urlsift::Scanner::new());
/// let mut urls = Vec::new();
/// for chunk in [&b"<URL:ftp://ds.in"[..], b"\n  ternic.net/rfc> and <gopher:", b"//spinaltap.micro.umn.edu/>"] {
///     urls.extend(push.feed(chunk).map(|m| m.as_str().into_owned()));
/// }
/// urls.extend(push.finish().map(|m| m.as_str().into_owned()));
/// assert_eq!(urls, ["ftp://ds.internic.net/rfc", "gopher://spinaltap.micro.umn.edu/"]);
/// ```
#[derive(Debug)]
pub struct PushScanner {
    scan: Scan<Pushed>,
    piece: usize,
    /// The MIME reader, when MIME reading is on (then `scan` is unused).
    mime: Option<Box<MimeScan>>,
}

impl PushScanner {
    /// A push scanner with the given settings.
    pub fn new(scanner: Scanner) -> PushScanner {
        PushScanner::with_buffer(scanner, PIECE)
    }

    /// Like [`PushScanner::new`], in pieces of about `piece` bytes (tests
    /// use tiny sizes to move every boundary).
    #[doc(hidden)]
    pub fn with_buffer(scanner: Scanner, piece: usize) -> PushScanner {
        PushScanner {
            scan: Scan::new(Pushed::default(), scanner, piece),
            piece: piece.max(1),
            // Every byte fed is scanned before `feed` returns.
            mime: scanner
                .get_mime()
                .then(|| Box::new(MimeScan::new(scanner, 1))),
        }
    }

    /// Scans what is pushed until the pieces need more input.
    fn run(&mut self) {
        loop {
            match self.scan.pieces.read_piece() {
                Ok(Some(p)) => self.scan.scan(p),
                Ok(None) => return,
                // `Pushed` fails only with `WouldBlock`, when all it holds
                // is read; once finished, one such error may still be
                // pending from the last push.
                Err(_) if self.scan.pieces.get_mut().finished => {}
                Err(_) => return,
            }
        }
    }

    /// Takes the next bytes of the stream and returns the matches that are
    /// now decided. Memory stays bounded however large `data` is (it is
    /// taken a piece at a time); the matches returned are not kept, so
    /// dropping the iterator loses them.
    #[must_use = "the matches found are returned, not kept"]
    pub fn feed(&mut self, data: &[u8]) -> std::collections::vec_deque::Drain<'_, Match> {
        if let Some(mime) = &mut self.mime {
            let out = &mut self.scan.out;
            mime.feed(data, &mut |m| out.push_back(m.clone()));
            return self.scan.out.drain(..);
        }
        for chunk in data.chunks(self.piece) {
            let pushed = self.scan.pieces.get_mut();
            pushed.bytes.clear();
            pushed.read = 0;
            pushed.bytes.extend_from_slice(chunk);
            self.run();
        }
        self.scan.out.drain(..)
    }

    /// Ends the stream and returns the remaining matches.
    #[must_use = "the last matches are returned, not kept"]
    pub fn finish(mut self) -> std::collections::vec_deque::IntoIter<Match> {
        if let Some(mime) = &mut self.mime {
            let out = &mut self.scan.out;
            mime.finish(&mut |m| out.push_back(m.clone()));
            return std::mem::take(&mut self.scan.out).into_iter();
        }
        self.scan.pieces.get_mut().finished = true;
        self.run();
        self.scan.end();
        std::mem::take(&mut self.scan.out).into_iter()
    }

    /// Like [`PushScanner::feed`], handing each match decided to `each` as
    /// it is found instead of collecting it (with MIME reading on, no
    /// match is cloned): the match lives in the scanner's buffers until the
    /// next one (look at it, [`Match::rebase`] it, or clone it). Every byte
    /// fed is read before it returns, so the matches decided by then are
    /// all handed over. Not to be mixed with [`PushScanner::feed`] on one
    /// stream.
    pub fn feed_each(&mut self, data: &[u8], each: &mut dyn FnMut(&mut Match)) {
        match &mut self.mime {
            Some(mime) => mime.feed(data, each),
            None => {
                for mut m in self.feed(data) {
                    each(&mut m);
                }
            }
        }
    }

    /// Ends the stream, handing the remaining matches to `each` (see
    /// [`PushScanner::feed_each`]).
    pub fn finish_each(mut self, each: &mut dyn FnMut(&mut Match)) {
        match &mut self.mime {
            Some(mime) => mime.finish(each),
            None => {
                for mut m in self.finish() {
                    each(&mut m);
                }
            }
        }
    }
}

#[cfg(test)]
mod aligned_tests {
    use super::*;
    use crate::pieces::tests::{ragged_mail, Aligned};

    /// The extractor's reads land aligned in both readings.
    #[test]
    fn extractor_reads_land_aligned() {
        let text = ragged_mail(500);
        for mime in [false, true] {
            for piece in [4096, 1 << 20] {
                let mut rec = Aligned {
                    text: &text,
                    reads: 0,
                    unaligned: 0,
                };
                let scanner = Scanner::new().mime(mime);
                let n = Extractor::with_buffer(&mut rec, scanner, piece).count();
                assert_eq!(n, 500);
                assert!(rec.reads > 0);
                assert_eq!(rec.unaligned, 0, "mime {mime}, piece {piece}");
            }
        }
    }
}
