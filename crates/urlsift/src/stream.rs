//! Streams: an iterator over any [`std::io::Read`] and a push scanner for
//! callers who own the I/O loop.
//!
//! Both drive the same scanning engine over a roll buffer: bytes are scanned as
//! they arrive, and only the tail that an open candidate still needs (at
//! most [`Limits::max_bytes`](crate::Limits::max_bytes)) is kept when the
//! buffer is refilled. Results do not depend on how the input is chunked.

use std::collections::VecDeque;
use std::io::{self, Read};

use crate::mime::MimeScan;
use crate::scan::{Engine, Match, Scanner};

/// The smallest amount of new input scanned at once. Together with the
/// candidate bound this makes re-following an open candidate at a refill
/// happen at most once per candidate, whatever the chunk sizes.
const MIN_READ: usize = 64 * 1024;

/// The raw reading (a roll buffer) or the MIME one.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // one per stream; the raw side stays unboxed as before
enum Front {
    Raw(Roll),
    Mime(Box<MimeScan>),
}

impl Front {
    fn new(scanner: Scanner, min_read: usize) -> Front {
        if scanner.get_mime() {
            Front::Mime(Box::new(MimeScan::new(scanner, min_read)))
        } else {
            Front::Raw(Roll::new(scanner, min_read))
        }
    }

    /// Takes `data`, handing the matches decided to `each`.
    fn feed(&mut self, mut data: &[u8], each: &mut dyn FnMut(&mut Match)) {
        match self {
            Front::Mime(m) => m.feed(data, each),
            Front::Raw(roll) => {
                while !data.is_empty() {
                    let take = (roll.capacity - roll.len).min(data.len());
                    roll.buf[roll.len..roll.len + take].copy_from_slice(&data[..take]);
                    roll.len += take;
                    data = &data[take..];
                    if roll.len == roll.capacity {
                        roll.scan(false, each);
                    }
                }
            }
        }
    }

    fn finish(&mut self, each: &mut dyn FnMut(&mut Match)) {
        match self {
            Front::Mime(m) => m.finish(each),
            Front::Raw(roll) => roll.scan(true, each),
        }
    }
}

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
        let capacity = scanner.get_limits().max_bytes + min_read.max(1);
        Roll {
            engine: Engine::new(scanner),
            buf: vec![0; capacity],
            len: 0,
            base: 0,
            capacity,
        }
    }

    /// Scans the buffer and drops what is no longer needed.
    fn scan(&mut self, eof: bool, each: &mut dyn FnMut(&mut Match)) {
        let n = self.len;
        let buf = &self.buf[..n];
        let stop = self.engine.scan(buf, self.base, eof, n, each);
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
    front: Front,
    /// Input read and not yet handed on (MIME reading).
    chunk: Vec<u8>,
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
            front: Front::new(scanner, min_read),
            chunk: if scanner.get_mime() {
                vec![0; min_read.max(1)]
            } else {
                Vec::new()
            },
            out: VecDeque::new(),
            done: false,
        }
    }

    /// Fills the buffer and scans it once; false at the end of input.
    fn fill(&mut self) -> io::Result<bool> {
        let out = &mut self.out;
        let roll = match &mut self.front {
            Front::Raw(roll) => roll,
            Front::Mime(m) => {
                let mut len = 0;
                let mut eof = false;
                while len < self.chunk.len() {
                    match self.reader.read(&mut self.chunk[len..]) {
                        Ok(0) => {
                            eof = true;
                            break;
                        }
                        Ok(k) => len += k,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                }
                m.feed(&self.chunk[..len], &mut |m| out.push_back(m.clone()));
                if eof {
                    m.finish(&mut |m| out.push_back(m.clone()));
                }
                return Ok(!eof);
            }
        };
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
        roll.scan(eof, &mut |m| out.push_back(m.clone()));
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
    front: Front,
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
            front: Front::new(scanner, min_read),
            out: VecDeque::new(),
        }
    }

    /// Takes the next bytes of the stream and returns the matches that are
    /// now decided. Memory stays bounded however large `data` is.
    pub fn feed(&mut self, data: &[u8]) -> std::collections::vec_deque::Drain<'_, Match> {
        let out = &mut self.out;
        self.front.feed(data, &mut |m| out.push_back(m.clone()));
        self.out.drain(..)
    }

    /// Like [`PushScanner::feed`], handing each match decided to `each` as
    /// it is found instead of collecting them: the match lives in the
    /// scanner's buffers until the next one (look at it,
    /// [`Match::rebase`] it, or clone it). Matches already collected by
    /// [`PushScanner::feed`] are not repeated.
    pub fn feed_each(&mut self, data: &[u8], each: &mut dyn FnMut(&mut Match)) {
        self.front.feed(data, each);
    }

    /// Ends the stream and returns the remaining matches.
    pub fn finish(mut self) -> std::collections::vec_deque::IntoIter<Match> {
        let out = &mut self.out;
        self.front.finish(&mut |m| out.push_back(m.clone()));
        self.out.into_iter()
    }

    /// Ends the stream, handing the remaining matches to `each` (see
    /// [`PushScanner::feed_each`]).
    pub fn finish_each(mut self, each: &mut dyn FnMut(&mut Match)) {
        self.front.finish(each);
    }
}
