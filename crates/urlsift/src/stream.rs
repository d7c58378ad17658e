//! Streams: an iterator over any [`std::io::Read`] and a push scanner for
//! callers who own the I/O loop.
//!
//! Both drive the same scanning engine over a roll buffer: bytes are scanned as
//! they arrive, and only the tail that an open candidate still needs (at
//! most [`Limits::max_bytes`](crate::Limits::max_bytes)) is kept when the
//! buffer is refilled. Results do not depend on how the input is chunked.

use std::collections::VecDeque;
use std::io::{self, Read};

use crate::scan::{Engine, Match, Scanner};

/// The smallest amount of new input scanned at once. Together with the
/// candidate bound this makes re-following an open candidate at a refill
/// happen at most once per candidate, whatever the chunk sizes.
const MIN_READ: usize = 64 * 1024;

/// A roll buffer with the engine that scans it.
#[derive(Debug)]
struct Roll {
    engine: Engine,
    /// Allocated (and zeroed) once at full capacity; `len` bytes are live.
    buf: Vec<u8>,
    len: usize,
    /// Absolute offset of `buf[0]`.
    base: u64,
    /// Everything the buffer may grow to before a scan is forced.
    capacity: usize,
}

impl Roll {
    fn new(scanner: Scanner, min_read: usize) -> Roll {
        // The kept tail is under `max_bytes`, plus at most the 2 bytes of
        // an escape sequence it would cut (see `Engine::settle`).
        let capacity = scanner.get_limits().max_bytes + 2 + min_read.max(1);
        Roll {
            engine: Engine::new(scanner),
            buf: vec![0; capacity],
            len: 0,
            base: 0,
            capacity,
        }
    }

    /// Scans the buffer and drops what is no longer needed.
    fn scan(&mut self, eof: bool, out: &mut VecDeque<Match>) {
        let n = self.len;
        let buf = &self.buf[..n];
        let stop = self
            .engine
            .scan(buf, self.base, eof, n, &mut |m| out.push_back(m.clone()));
        let keep = self.engine.settle(buf, self.base, eof, stop);
        let drop = (keep - self.base) as usize;
        self.buf.copy_within(drop..n, 0);
        self.len = n - drop;
        self.base = keep;
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
#[derive(Debug)]
pub struct Extractor<R> {
    reader: R,
    roll: Roll,
    out: VecDeque<Match>,
    done: bool,
}

impl<R: Read> Extractor<R> {
    /// Extracts with the contract's defaults.
    pub fn new(reader: R) -> Extractor<R> {
        Extractor::with_scanner(reader, Scanner::new())
    }

    /// Extracts with the given settings.
    pub fn with_scanner(reader: R, scanner: Scanner) -> Extractor<R> {
        Extractor::with_buffer(reader, scanner, MIN_READ)
    }

    /// Like [`Extractor::with_scanner`], reading at least `min_read` bytes
    /// before each scan (tests use tiny sizes to move every boundary).
    #[doc(hidden)]
    pub fn with_buffer(reader: R, scanner: Scanner, min_read: usize) -> Extractor<R> {
        Extractor {
            reader,
            roll: Roll::new(scanner, min_read),
            out: VecDeque::new(),
            done: false,
        }
    }

    /// Fills the buffer and scans it once; false at the end of input.
    fn fill(&mut self) -> io::Result<bool> {
        let roll = &mut self.roll;
        // The kept tail is shorter than the candidate bound, so at least
        // `min_read` bytes are free.
        let mut eof = false;
        while roll.len < roll.capacity {
            match self.reader.read(&mut roll.buf[roll.len..]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(k) => roll.len += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        roll.scan(eof, &mut self.out);
        Ok(!eof)
    }
}

impl<R: Read> Iterator for Extractor<R> {
    type Item = io::Result<Match>;

    fn next(&mut self) -> Option<io::Result<Match>> {
        loop {
            if let Some(m) = self.out.pop_front() {
                return Some(Ok(m));
            }
            if self.done {
                return None;
            }
            match self.fill() {
                Ok(more) => self.done = !more,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
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
    roll: Roll,
    out: VecDeque<Match>,
}

impl PushScanner {
    /// A push scanner with the given settings.
    pub fn new(scanner: Scanner) -> PushScanner {
        PushScanner::with_buffer(scanner, MIN_READ)
    }

    /// Like [`PushScanner::new`], scanning once at least `min_read` new
    /// bytes are buffered (tests use tiny sizes to move every boundary).
    #[doc(hidden)]
    pub fn with_buffer(scanner: Scanner, min_read: usize) -> PushScanner {
        PushScanner {
            roll: Roll::new(scanner, min_read),
            out: VecDeque::new(),
        }
    }

    /// Takes the next bytes of the stream and returns the matches that are
    /// now decided. Memory stays bounded however large `data` is.
    pub fn feed(&mut self, mut data: &[u8]) -> std::collections::vec_deque::Drain<'_, Match> {
        while !data.is_empty() {
            let roll = &mut self.roll;
            let take = (roll.capacity - roll.len).min(data.len());
            roll.buf[roll.len..roll.len + take].copy_from_slice(&data[..take]);
            roll.len += take;
            data = &data[take..];
            if roll.len == roll.capacity {
                roll.scan(false, &mut self.out);
            }
        }
        self.out.drain(..)
    }

    /// Ends the stream and returns the remaining matches.
    pub fn finish(mut self) -> std::collections::vec_deque::IntoIter<Match> {
        self.roll.scan(true, &mut self.out);
        self.out.into_iter()
    }
}
