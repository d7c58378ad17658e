//! The per-input driver and the parallel scheduler of the `urlsift`
//! command.
//!
//! Every input is read with `read()` into reused buffers, in pieces of
//! about [`PIECE`] bytes cut at a line start (just after a blank line when
//! there is one, so a mail header block is never cut; inside a line only
//! when a line is longer than a piece, with a [`PieceContext`]), each
//! carrying [`Limits::max_bytes`](urlsift::Limits) bytes of lookahead, and
//! scanned with [`Scanner::scan_piece_each`], formatting as it goes.
//!
//! One thread: one sequential pass per input, output written piece by
//! piece. Several threads: the scheduling thread is one of the rayon pool's
//! own, takes the inputs as the walk lists them, and hands out units of
//! work in input order: batches of files; the ranges of a large plain
//! file, which the pool's threads read (positional reads) and search at
//! once, each range starting at a line start both neighbours find alone
//! (see `boundary`); the pieces of a stream (stdin, `.gz`, or any large
//! file when Message-IDs are wanted), which the scheduler reads in order.
//! Files a directory listing calls regular are batched without a `stat`
//! (a `stat` per news article cost 3% of the time). A batch that finds a
//! large file on its first read hands it back to the scheduler, with the
//! files after it, to be split into ranges; one that finds a file over a
//! piece starts the files after it as another batch first. That work is
//! numbered after the batch's own (see `Key`). Units run first in, first
//! out; whoever finishes the next unit in order writes it and the finished
//! ones after it, adding the line numbers of the units before (a unit
//! numbers its lines from its own start), so the output is byte-identical
//! to one thread. Only the scheduler waits for room (`Flow`): a bounded
//! number of units is in flight and piece buffers are recycled, so memory
//! stays flat.

use std::collections::{BTreeMap, HashSet};
use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use flate2::read::MultiGzDecoder;

use crate::args::{Config, Mode};
use crate::mail::{MessageMap, MessageTracker};
use crate::printer::{json_opt, json_str, json_warnings, InputName, Printer, Recs};
use crate::walk::{self, Entry, Walker};
use urlsift::Url;
use urlsift::{PieceContext, Scanner};

/// Bytes per piece (before the lookahead).
pub const PIECE: usize = 1 << 20;
/// Plain files larger than this are split among the threads.
pub const SPLIT_MIN: u64 = 8 << 20;

/// One piece of an input: `data[..len]` holds the bytes from `offset`;
/// matches whose `<` is before `limit` belong to it.
#[derive(Debug)]
pub struct Piece {
    data: Vec<u8>,
    len: usize,
    /// End of the piece proper (a line start, or `len` at the end).
    pub limit: usize,
    /// Absolute offset of the first byte.
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
}

/// Reads an input in pieces cut at line starts (see the module doc).
#[derive(Debug)]
pub struct PieceReader<R> {
    r: R,
    target: usize,
    look: usize,
    offset: u64,
    carry: Vec<u8>,
    eof: bool,
    done: bool,
    err: Option<io::Error>,
    spare: Vec<Vec<u8>>,
    context: PieceContext,
    /// With [`PieceReader::range`]: where the range ends.
    stop: Option<u64>,
    /// With naked URLs on, the scanner that tells each piece's context
    /// what a URL before the cut hides of it (see [`PieceReader::scanning`]).
    naked: Option<Scanner>,
}

/// Where to end a piece of `data` (at least `look` bytes must follow).
fn cut(data: &[u8], target: usize, look: usize) -> Option<usize> {
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
            naked: None,
        }
    }

    /// Pieces for `scanner`: with naked URLs on, a cut that does not follow
    /// an empty line gets the context of
    /// [`PieceContext::advance_scanning`] (a `<...>` broken across it, or a
    /// naked URL across a cut inside a line, hides bytes of the next piece).
    pub fn scanning(mut self, scanner: Scanner) -> PieceReader<R> {
        self.naked = scanner.get_naked().then_some(scanner);
        self
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
        // No piece follows the last one: it needs no context.
        let fresh = at_end || (limit >= 2 && data[limit - 2..limit] == *b"\n\n");
        self.context = if let Some(sc) = self.naked.filter(|_| !fresh) {
            let mut next = context;
            next.advance_scanning(&sc, &data[..len], limit, at_end);
            next
        } else if limit > 0 && data[limit - 1] != b'\n' {
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
struct Pool {
    /// The buffers and their total capacity.
    bufs: Mutex<(Vec<Vec<u8>>, usize)>,
    most: usize,
    largest: usize,
    budget: usize,
}

impl Pool {
    const fn new(most: usize, largest: usize, budget: usize) -> Pool {
        Pool {
            bufs: Mutex::new((Vec::new(), 0)),
            most,
            largest,
            budget,
        }
    }

    fn take(&self) -> Option<Vec<u8>> {
        let mut pool = lock(&self.bufs);
        let buf = pool.0.pop()?;
        pool.1 -= buf.capacity();
        Some(buf)
    }

    fn give(&self, buf: Vec<u8>) {
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
static SHARED: Pool = Pool::new(8, usize::MAX, usize::MAX);

/// Output buffers written out, for the next pieces to fill: a piece's
/// output grows to tens of kilobytes, and growing a fresh one by doubling,
/// then freeing it on the writing thread, cost more than the formatting.
/// Many (a batch holds one per news article), none over 256 KiB, 2 MiB in
/// all.
static BODIES: Pool = Pool::new(256, 256 << 10, 2 << 20);

/// An empty output buffer, from [`BODIES`] when one is there.
fn take_body() -> Vec<u8> {
    let mut body = BODIES.take().unwrap_or_default();
    body.clear();
    body
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
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

/// Counters for `--stats`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Inputs searched.
    pub files: u64,
    /// Bytes searched (decompressed).
    pub bytes: u64,
    /// Records printed (or counted).
    pub matches: u64,
}

struct Chunk {
    input: usize,
    /// The input's name (`None` for an error entry).
    name: Option<Arc<Input>>,
    last: bool,
    bytes: u64,
    body: Recs,
    error: Option<String>,
    /// For a piece of a split input: its line feeds. Its records carry
    /// line numbers relative to the piece, which the writer (taking pieces
    /// in order) moves by the lines of the pieces before it.
    piece_lines: Option<u64>,
}

impl Chunk {
    /// The whole of input `input` when it could not be read: one message.
    fn failed(input: usize, message: String) -> Chunk {
        Chunk {
            input,
            name: None,
            last: true,
            bytes: 0,
            body: Recs::default(),
            error: Some(message),
            piece_lines: None,
        }
    }
}

/// Writes chunks in order: unique filtering, counts, error messages.
struct Sink<'a> {
    out: Box<dyn Write + Send>,
    printer: &'a Printer,
    seen: HashSet<String>,
    /// The last input whose error was reported.
    failed: Option<usize>,
    cur_input: usize,
    cur_count: u64,
    cur_lines: u64,
    stats: Stats,
    buf: Vec<u8>,
}

impl<'a> Sink<'a> {
    fn new(out: Box<dyn Write + Send>, printer: &'a Printer) -> Sink<'a> {
        Sink {
            out,
            printer,
            seen: HashSet::new(),
            failed: None,
            cur_input: usize::MAX,
            cur_count: 0,
            cur_lines: 0,
            stats: Stats::default(),
            buf: Vec::new(),
        }
    }

    /// Writes `r`, its relative line numbers moved by `base`.
    fn write_recs(&mut self, mut r: Recs, base: u64) -> io::Result<()> {
        let n = if self.printer.unique() {
            r.shift_lines(base);
            self.buf.clear();
            let mut start = 0;
            let mut n = 0;
            for (k, end) in r.keys {
                if self.seen.insert(k) {
                    self.buf.extend_from_slice(&r.body[start..end]);
                    n += 1;
                }
                start = end;
            }
            if !self.buf.is_empty() {
                self.out.write_all(&self.buf)?;
            }
            n
        } else {
            if base > 0 && !r.lines.is_empty() {
                r.write_shifted(&mut self.out, base)?;
            } else if !r.body.is_empty() {
                self.out.write_all(&r.body)?;
            }
            BODIES.give(r.body);
            r.count
        };
        self.cur_count += n;
        self.stats.matches += n;
        Ok(())
    }

    fn chunk(&mut self, c: Chunk) -> io::Result<()> {
        if c.input != self.cur_input {
            self.cur_input = c.input;
            self.cur_count = 0;
            self.cur_lines = 0;
        }
        self.stats.bytes += c.bytes;
        let name = c.name.as_ref().map(|input| &input.name);
        let mut base = 0;
        if let Some(lines) = c.piece_lines {
            base = self.cur_lines;
            self.cur_lines += lines;
        }
        self.write_recs(c.body, base)?;
        if c.last {
            if let Some(name) = name {
                self.stats.files += 1;
                self.buf.clear();
                match self.printer.mode() {
                    Mode::Count => self.printer.count_line(&mut self.buf, name, self.cur_count),
                    Mode::FilesWithMatches if self.cur_count > 0 => {
                        self.printer.file_line(&mut self.buf, name)
                    }
                    _ => {}
                }
                if !self.buf.is_empty() {
                    self.out.write_all(&self.buf)?;
                }
            }
        }
        if let Some(e) = c.error {
            // One message per input, though several ranges may fail.
            if self.failed != Some(c.input) {
                self.failed = Some(c.input);
                self.out.flush()?;
                eprintln!("{e}");
            }
        }
        Ok(())
    }
}

/// What the search of one input needs.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    scanner: Scanner,
    printer: &'a Printer,
    msgs: bool,
    stop: &'a AtomicBool,
}

enum Fail {
    Read(io::Error),
    Write(io::Error),
}

/// Searches one stream sequentially, handing each piece's output to `emit`.
fn search_stream<R: Read>(
    r: R,
    ctx: Ctx<'_>,
    name: &InputName,
    emit: &mut dyn FnMut(Recs, u64, u64) -> io::Result<()>,
) -> Result<(), Fail> {
    let look = ctx.scanner.get_limits().max_bytes;
    search_pieces(
        PieceReader::new(r, PIECE, look).scanning(ctx.scanner),
        None,
        false,
        ctx,
        name,
        emit,
    )
}

/// Searches `first` (a piece already taken from `pr`) and the pieces of
/// `pr` in order. Line numbers count from the first piece (`relative` when
/// that is not the input's start); offsets are the reader's (absolute for a
/// range).
fn search_pieces<R: Read>(
    mut pr: PieceReader<R>,
    first: Option<Piece>,
    relative: bool,
    ctx: Ctx<'_>,
    name: &InputName,
    emit: &mut dyn FnMut(Recs, u64, u64) -> io::Result<()>,
) -> Result<(), Fail> {
    let mut tracker = ctx.msgs.then(MessageTracker::new);
    let mut lines = 0u64;
    let mut next = first.or_else(|| pr.next_piece());
    while let Some(p) = next.take() {
        if ctx.stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        let map = tracker
            .as_mut()
            .map(|t| t.feed(&p.bytes()[..p.limit], p.offset));
        let (recs, lf) = search_piece(&p, lines, relative, map.as_ref(), ctx, name);
        lines += lf;
        emit(recs, p.limit as u64, lf).map_err(Fail::Write)?;
        pr.recycle(p.data);
        next = pr.next_piece();
    }
    match pr.take_error() {
        Some(e) => Err(Fail::Read(e)),
        None => Ok(()),
    }
}

/// Searches one piece, formatting its matches at once (a piece in flight
/// holds its output, not its matches: dense matches would cost far more
/// memory than the text), with line numbers counted from `lines`
/// (`relative` when `lines` is not the input's start). Returns the output
/// and the piece's line feeds (up to its last match only, when no later
/// piece numbers its lines from them).
fn search_piece(
    p: &Piece,
    lines: u64,
    relative: bool,
    map: Option<&MessageMap>,
    ctx: Ctx<'_>,
    name: &InputName,
) -> (Recs, u64) {
    let mut recs = Recs {
        body: take_body(),
        relative,
        ..Recs::default()
    };
    // Line feeds past the last match are counted only when a later piece
    // numbers its lines from them.
    let count_rest = ctx.printer.wants_lines() && (relative || !p.at_end);
    let lf = ctx.scanner.scan_piece_counting(
        p.bytes(),
        p.limit,
        p.at_end,
        &p.context,
        count_rest,
        &mut |m| {
            m.rebase(p.offset, lines);
            let id = map.and_then(|mm| mm.lookup(m.offset()));
            ctx.printer.push_match(&mut recs, name, m, id);
        },
    );
    (recs, lf)
}

/// Reads a file from a position on with positional reads: no shared file
/// position, so several threads read one file at once.
struct ReadAt<'f> {
    file: &'f File,
    pos: u64,
}

impl Read for ReadAt<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use std::os::unix::fs::FileExt;
        let n = self.file.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

/// How far before a nominal range boundary a line start is looked for.
const BOUNDARY_WINDOW: u64 = 4096;

/// Where range `r` of a file of `size` bytes split every `piece` bytes
/// starts: just after the last line feed in the window before `r * piece`,
/// so the ranges on both sides agree without talking to each other. `None`
/// when the window holds no line feed: the range before runs on (a very
/// long line is not cut between threads, as its column and quoting depend
/// on its start). With `blank` (naked URLs on) only just after an empty
/// line: no URL crosses one, so the range after starts with nothing hidden.
fn boundary(file: &File, r: u64, size: u64, piece: u64, blank: bool) -> io::Result<Option<u64>> {
    let at = r * piece;
    if r == 0 || at >= size {
        return Ok(Some(at.min(size)));
    }
    let from = at - BOUNDARY_WINDOW.min(piece / 2);
    let mut win = [0u8; BOUNDARY_WINDOW as usize];
    let win = &mut win[..(at - from) as usize];
    let mut n = 0;
    let mut rd = ReadAt { file, pos: from };
    while n < win.len() {
        match rd.read(&mut win[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if blank {
        return Ok(memchr::memmem::rfind(&win[..n], b"\n\n").map(|k| from + k as u64 + 2));
    }
    Ok(memchr::memrchr(b'\n', &win[..n]).map(|k| from + k as u64 + 1))
}

/// The bytes `[start, end)` that range `r` of a split file covers (see
/// [`boundary`]), or `None` when another range covers its part.
fn range_bounds(
    file: &File,
    r: u64,
    size: u64,
    piece: u64,
    blank: bool,
) -> io::Result<Option<(u64, u64)>> {
    let Some(start) = boundary(file, r, size, piece, blank)? else {
        return Ok(None);
    };
    for k in r + 1..size.div_ceil(piece) {
        if let Some(end) = boundary(file, k, size, piece, blank)? {
            return Ok(Some((start, end)));
        }
    }
    Ok(Some((start, size)))
}

/// Searches range `r` of a large file split every [`PIECE`] bytes: line
/// numbers are relative to the range start.
fn search_range(
    file: &File,
    r: u64,
    size: u64,
    ctx: Ctx<'_>,
    name: &InputName,
    emit: &mut dyn FnMut(Recs, u64, u64) -> io::Result<()>,
) -> Result<(), Fail> {
    let blank = ctx.scanner.get_naked();
    let Some((start, end)) =
        range_bounds(file, r, size, PIECE as u64, blank).map_err(Fail::Read)?
    else {
        return Ok(());
    };
    let look = ctx.scanner.get_limits().max_bytes;
    let rd = ReadAt { file, pos: start };
    search_pieces(
        PieceReader::new(rd, PIECE, look)
            .range(start, end)
            .scanning(ctx.scanner),
        None,
        true,
        ctx,
        name,
        emit,
    )
}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A file that decides on its first read whether it is gzip (by the magic
/// bytes), so a news article costs no separate peek. For a file known to
/// be regular a short read is its end (POSIX: short only at end of file,
/// on a signal, or for pipes and devices), so the read that would return
/// 0 is skipped too: two system calls less per small file.
struct Sniffed {
    state: Sniff,
    regular: bool,
    eof: bool,
}

enum Sniff {
    Unknown(File),
    Plain(File),
    Gzip(Box<MultiGzDecoder<io::Chain<io::Cursor<Vec<u8>>, File>>>),
    Taken,
}

impl Read for Sniffed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &mut self.state {
            Sniff::Gzip(d) => return d.read(buf),
            Sniff::Plain(_) if self.eof => return Ok(0),
            Sniff::Plain(f) => f.read(buf)?,
            Sniff::Unknown(f) => {
                let n = f.read(buf)?;
                let Sniff::Unknown(f) = std::mem::replace(&mut self.state, Sniff::Taken) else {
                    unreachable!("state checked above")
                };
                if n >= 2 && buf[..2] == GZIP_MAGIC {
                    // The bytes read so far start the compressed stream.
                    let head = io::Cursor::new(buf[..n].to_vec());
                    self.state = Sniff::Gzip(Box::new(MultiGzDecoder::new(head.chain(f))));
                    return self.read(buf);
                }
                self.state = Sniff::Plain(f);
                n
            }
            Sniff::Taken => return Ok(0),
        };
        self.eof = self.regular && n < buf.len();
        Ok(n)
    }
}

fn gz_name(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.as_bytes() == b"gz")
}

/// Opens a file and tells whether it is gzip, by its name or its magic
/// bytes (a positional read: the file position stays at the start; a
/// failure there shows again at the first real read).
fn open_peeked(entry: &Entry, path: &Path) -> io::Result<(File, bool)> {
    use std::os::unix::fs::FileExt;
    let f = entry.open()?;
    let mut magic = [0u8; 2];
    let gz = gz_name(path) || (f.read_at(&mut magic, 0).unwrap_or(0) == 2 && magic == GZIP_MAGIC);
    Ok((f, gz))
}

/// Opens an input; a file's gzip-ness is decided by its name or on the
/// first read (see [`Sniffed`], also for what a known regular file saves).
fn input_reader(entry: &Entry) -> io::Result<Box<dyn Read + Send>> {
    match entry {
        Entry::Stdin => Ok(Box::new(io::stdin())),
        Entry::File { path, .. } if gz_name(path) => {
            Ok(Box::new(MultiGzDecoder::new(entry.open()?)))
        }
        Entry::File { regular, .. } => Ok(Box::new(Sniffed {
            state: Sniff::Unknown(entry.open()?),
            regular: *regular,
            eof: false,
        })),
        Entry::Error(_) => unreachable!("no reader for an error entry"),
    }
}

fn read_message(entry: &Entry, e: &io::Error) -> String {
    match entry {
        Entry::File { path, .. } => walk::message(path, e),
        _ => format!("urlsift: (standard input): {e}"),
    }
}

/// Runs the command; returns the exit status.
pub fn run(cfg: Config) -> i32 {
    if cfg.parse {
        return run_parse(&cfg);
    }
    let start = Instant::now();
    let walker = Walker::new(&cfg.paths);
    let show = cfg
        .with_filename
        .unwrap_or(walker.had_dir() || cfg.paths.len() > 1);
    // Inputs are numbered and named as the walk yields them.
    let inputs = walker.enumerate().map(|(i, entry)| match entry {
        Entry::Error(msg) => Err((i, msg)),
        entry => Ok(Arc::new(Input::new(i, entry, show))),
    });
    let printer = Printer::new(&cfg);
    let stdout = io::stdout();
    let out: Box<dyn Write + Send> = if stdout.is_terminal() {
        Box::new(io::LineWriter::new(stdout))
    } else {
        Box::new(io::BufWriter::with_capacity(64 * 1024, stdout))
    };
    let mut sink = Sink::new(out, &printer);
    let scanner = Scanner::new()
        .policy(cfg.policy)
        .limits(cfg.limits)
        .rejected(cfg.invalid)
        .naked(cfg.naked);
    let stop = AtomicBool::new(false);
    let ctx = Ctx {
        scanner,
        printer: &printer,
        msgs: cfg.needs_message_id(),
        stop: &stop,
    };
    let result = if cfg.threads <= 1 {
        run_sequential(inputs, ctx, &mut sink)
    } else {
        run_parallel(inputs, ctx, &mut sink, cfg.threads)
    }
    .and_then(|_| sink.out.flush());
    let mut code = if sink.stats.matches > 0 { 0 } else { 1 };
    if sink.failed.is_some() {
        code = 2;
    }
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return 0,
        Err(e) => {
            eprintln!("urlsift: writing output: {e}");
            code = 2;
        }
        Ok(()) => {}
    }
    if cfg.stats {
        let secs = start.elapsed().as_secs_f64();
        let s = sink.stats;
        eprintln!(
            "urlsift: {} files, {} bytes, {} matches, {:.3} s, {:.1} MB/s",
            s.files,
            s.bytes,
            s.matches,
            secs,
            s.bytes as f64 / 1e6 / secs.max(1e-9)
        );
    }
    code
}

/// One input to search, numbered in walk order, with its name as printed.
struct Input {
    index: usize,
    entry: Entry,
    name: InputName,
}

impl Input {
    fn new(index: usize, entry: Entry, show: bool) -> Input {
        let name = InputName {
            display: match &entry {
                Entry::File { path, .. } => path.as_os_str().as_bytes().to_vec(),
                _ => b"(standard input)".to_vec(),
            },
            stdin: matches!(entry, Entry::Stdin),
            show,
        };
        Input { index, entry, name }
    }
}

/// The inputs as the walk yields them: a numbered error entry, or an input.
type Item = Result<Arc<Input>, (usize, String)>;

fn run_sequential(
    inputs: impl Iterator<Item = Item>,
    ctx: Ctx<'_>,
    sink: &mut Sink<'_>,
) -> io::Result<()> {
    for item in inputs {
        let input = match item {
            Err((i, msg)) => {
                sink.chunk(Chunk::failed(i, msg))?;
                continue;
            }
            Ok(input) => input,
        };
        let i = input.index;
        let res = match input_reader(&input.entry) {
            Err(err) => Err(Fail::Read(err)),
            Ok(r) => search_stream(r, ctx, &input.name, &mut |recs, bytes, _| {
                sink.chunk(Chunk {
                    input: i,
                    name: None,
                    last: false,
                    bytes,
                    body: recs,
                    error: None,
                    piece_lines: None,
                })
            }),
        };
        let error = match res {
            Err(Fail::Write(w)) => return Err(w),
            Err(Fail::Read(err)) => Some(read_message(&input.entry, &err)),
            Ok(()) => None,
        };
        sink.chunk(Chunk {
            input: i,
            name: Some(input),
            last: true,
            bytes: 0,
            body: Recs::default(),
            error,
            piece_lines: None,
        })?;
    }
    Ok(())
}

/// A file of a batch, opened, with its first piece read: whether it is
/// small shows only then (the scheduler did not `stat` it).
struct Started {
    pr: PieceReader<Box<dyn Read + Send>>,
    first: Option<Piece>,
}

impl Started {
    /// Opens `input` and reads its first piece.
    fn new(input: &Input, ctx: Ctx<'_>) -> io::Result<Started> {
        let r = input_reader(&input.entry)?;
        let mut pr =
            PieceReader::new(r, PIECE, ctx.scanner.get_limits().max_bytes).scanning(ctx.scanner);
        let first = pr.next_piece();
        Ok(Started { pr, first })
    }

    /// Whether the file is longer than its first piece.
    fn large(&self) -> bool {
        self.first.as_ref().is_some_and(|p| !p.at_end)
    }

    /// Gives the piece buffer back (the file is searched another way).
    fn recycle(mut self) {
        if let Some(p) = self.first.take() {
            self.pr.recycle(p.data);
        }
    }
}

/// Searches one file of a batch on the current thread: one chunk.
fn search_small(input: &Arc<Input>, started: io::Result<Started>, ctx: Ctx<'_>) -> Chunk {
    let mut all = Recs::default();
    let mut bytes = 0;
    let res = match started {
        Err(err) => Err(Fail::Read(err)),
        Ok(Started { pr, first }) => {
            search_pieces(pr, first, false, ctx, &input.name, &mut |recs, b, _| {
                all.append(recs);
                bytes += b;
                Ok(())
            })
        }
    };
    let error = match res {
        Err(Fail::Read(err)) => Some(read_message(&input.entry, &err)),
        _ => None,
    };
    Chunk {
        input: input.index,
        name: Some(input.clone()),
        last: true,
        bytes,
        body: all,
        error,
        piece_lines: None,
    }
}

/// A file found larger than a piece: opened with its size when it is
/// larger than [`SPLIT_MIN`] and not gzip (a compressed stream is read in
/// order).
fn large_plain(entry: &Entry) -> Option<(File, u64)> {
    let Entry::File { path, .. } = entry else {
        return None;
    };
    let size = std::fs::metadata(path).ok()?.len();
    if size <= SPLIT_MIN {
        return None;
    }
    match open_peeked(entry, path) {
        Ok((file, false)) => Some((file, size)),
        _ => None,
    }
}

/// Bytes a batch searches before it hands the files left to another job:
/// the scheduler batches files without knowing their sizes.
const BATCH_SHARE: u64 = 2 * PIECE as u64;

/// Bytes a file of unknown size counts for in a batch: eight to a batch
/// (measured: sixteen cost 1% more time, thirty-two 3%).
const UNSIZED: u64 = 128 << 10;

/// The job for a batch of files, unit `key`: searched in order, one chunk
/// each. The scheduler did not `stat` them, so the batch learns their
/// sizes as it reads. A file larger than [`SPLIT_MIN`] goes back to the
/// scheduler with the files after it, to be split into ranges for all
/// threads; before a file larger than a piece, or once the batch has
/// searched [`BATCH_SHARE`] bytes, the files left go back to be a batch of
/// their own for another thread. What goes back is numbered after this
/// unit (see [`Handback`]).
fn search_batch<'s>(
    inputs: Vec<Arc<Input>>,
    key: Key,
    ctx: Ctx<'s>,
    order: &'s Order<'_, '_>,
    scope: &rayon::ScopeFifo<'s>,
) {
    let mut chunks = Vec::with_capacity(inputs.len());
    let mut searched = 0u64;
    let mut files = inputs.into_iter();
    while let Some(input) = files.next() {
        if ctx.stop.load(Ordering::Relaxed) {
            break;
        }
        let started = Started::new(&input, ctx);
        let large = started.as_ref().is_ok_and(Started::large);
        // Message-IDs need the messages in order: never split then.
        if large && !ctx.msgs {
            if let Some((file, size)) = large_plain(&input.entry) {
                if let Ok(s) = started {
                    s.recycle();
                }
                order.commit(key, chunks, End::Part);
                order.flow.hand_back(Handback {
                    key: key.then(),
                    large: Some((Arc::new(file), size, input)),
                    rest: files.collect(),
                });
                return;
            }
        }
        // The files left go to another thread while this one searches.
        let handed = (large || searched >= BATCH_SHARE) && files.len() > 0;
        if handed {
            let rest = files.by_ref().collect();
            let next = key.then();
            // Started here when there is room (no wait for the scheduler),
            // else handed back.
            if order.flow.try_start(next) {
                spawn_batch(scope, rest, next, ctx, order);
            } else {
                order.flow.hand_back(Handback {
                    key: next,
                    large: None,
                    rest,
                });
            }
        }
        let chunk = search_small(&input, started, ctx);
        searched += chunk.bytes;
        chunks.push(chunk);
        if handed {
            order.commit(key, chunks, End::Part);
            return;
        }
    }
    order.commit(key, chunks, End::Done);
}

/// Starts a batch job for unit `key` (its room taken), counted as running
/// until it ends: it may hand back.
fn spawn_batch<'s>(
    scope: &rayon::ScopeFifo<'s>,
    inputs: Vec<Arc<Input>>,
    key: Key,
    ctx: Ctx<'s>,
    order: &'s Order<'_, '_>,
) {
    lock(&order.flow.state).batches += 1;
    scope.spawn_fifo(move |scope| {
        search_batch(inputs, key, ctx, order, scope);
        order.flow.batch_done();
    });
    // A scheduler asleep in `acquire` is a thread not stealing: wake it to
    // take the job (a batch starts one while it searches a large file).
    order.flow.cv.notify_all();
}

/// What a batch gives back to the scheduler, to be numbered from `key` on:
/// a large file met (opened, with its size) to split into ranges, then the
/// files after it as a batch.
struct Handback {
    key: Key,
    large: Option<(Arc<File>, u64, Arc<Input>)>,
    rest: Vec<Arc<Input>>,
}

/// The bound on the work in flight, and the way back from the batches to
/// the scheduling thread. Only that thread waits here; a job never blocks
/// (a job waiting inside the pool could hold up the very unit it waits
/// for).
struct Flow {
    state: Mutex<FlowState>,
    cv: Condvar,
}

struct FlowState {
    /// Units that may still be started before one is written (below zero
    /// while the next unit to write runs without one: it holds up all the
    /// others).
    free: isize,
    /// Of those, how many only parts of handbacks may take: the units the
    /// scheduler started ahead wait for a handback's parts, so these must
    /// not wait for them.
    reserve: isize,
    /// Handbacks waiting for the scheduler, by key.
    handbacks: BTreeMap<Key, Handback>,
    /// Batch jobs started and not finished: each may still hand back.
    batches: usize,
}

impl Flow {
    /// Room for `units` units, `reserve` of them kept for handbacks.
    fn new(units: usize, reserve: usize) -> Flow {
        Flow {
            state: Mutex::new(FlowState {
                free: units as isize,
                reserve: reserve as isize,
                handbacks: BTreeMap::new(),
                batches: 0,
            }),
            cv: Condvar::new(),
        }
    }

    fn release(&self, n: usize) {
        lock(&self.state).free += n as isize;
        self.cv.notify_all();
    }

    fn hand_back(&self, h: Handback) {
        lock(&self.state).handbacks.insert(h.key, h);
        self.cv.notify_all();
    }

    /// Takes room for unit `key` if there is some (a job never waits).
    fn try_start(&self, key: Key) -> bool {
        let mut st = lock(&self.state);
        let room = st.room(key);
        if room {
            st.free -= 1;
        }
        room
    }

    fn batch_done(&self) {
        lock(&self.state).batches -= 1;
        self.cv.notify_all();
    }
}

impl FlowState {
    /// Whether unit `key` may start now: parts of handbacks (`minor` > 0)
    /// may take the reserve.
    fn room(&self, key: Key) -> bool {
        self.free > if key.minor > 0 { 0 } else { self.reserve }
    }

    /// The first handback, if it comes before `key` in the output.
    fn first_before(&mut self, key: Key) -> Option<Handback> {
        let (&k, _) = self.handbacks.first_key_value()?;
        if k < key {
            self.handbacks.remove(&k)
        } else {
            None
        }
    }
}

/// The scheduling thread's context: the scope to start jobs in, the order
/// they are written in, and what every search needs.
#[derive(Clone, Copy)]
struct Sched<'r, 's, 'o, 'a> {
    scope: &'r rayon::ScopeFifo<'s>,
    order: &'s Order<'o, 'a>,
    ctx: Ctx<'s>,
}

impl<'s> Sched<'_, 's, '_, '_> {
    /// Takes room for unit `key`: a free unit, or none when `key` is the
    /// next to write. Handbacks before `key` in the output are served
    /// first. While it waits the thread runs queued searches itself, so N
    /// threads means N busy cores, not N searchers plus a reader competing
    /// with them.
    fn acquire(self, key: Key) {
        let order = self.order;
        self.wait_until(key, |st| st.room(key) || order.is_next(key))
            .free -= 1;
    }

    /// Serves the handbacks before `key` in the output until `ready`
    /// holds, running queued searches meanwhile; returns the state, locked.
    fn wait_until(
        self,
        key: Key,
        ready: impl Fn(&FlowState) -> bool,
    ) -> std::sync::MutexGuard<'s, FlowState> {
        let flow = &self.order.flow;
        loop {
            let mut st = lock(&flow.state);
            if let Some(h) = st.first_before(key) {
                drop(st);
                if !self.ctx.stop.load(Ordering::Relaxed) {
                    self.serve(h);
                }
                continue;
            }
            if ready(&st) {
                return st;
            }
            drop(st);
            if rayon::yield_now() == Some(rayon::Yield::Executed) {
                continue;
            }
            let mut st = lock(&flow.state);
            while !ready(&st)
                && st
                    .handbacks
                    .first_key_value()
                    .map_or(true, |(&k, _)| k >= key)
            {
                st = flow.cv.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    /// Starts the ranges of a handback's large file and its batch of the
    /// files after it.
    fn serve(self, h: Handback) {
        let Sched { order, ctx, .. } = self;
        let mut key = h.key;
        if let Some((file, size, input)) = h.large {
            let ranges = size.div_ceil(PIECE as u64);
            for r in 0..ranges {
                if ctx.stop.load(Ordering::Relaxed) {
                    return;
                }
                self.acquire(key);
                let end = if r + 1 == ranges && h.rest.is_empty() {
                    End::Done
                } else {
                    End::Part
                };
                let (file, input) = (file.clone(), input.clone());
                self.scope.spawn_fifo(move |_| {
                    search_range_unit(&file, r, ranges, size, input, ctx, order, key, end);
                });
                key = key.then();
            }
        }
        if !h.rest.is_empty() && !ctx.stop.load(Ordering::Relaxed) {
            self.batch(h.rest, key);
        }
    }

    /// Takes room for unit `key` and starts a batch job for it.
    fn batch(self, inputs: Vec<Arc<Input>>, key: Key) {
        self.acquire(key);
        spawn_batch(self.scope, inputs, key, self.ctx, self.order);
    }

    /// Waits for the batches still running, serving what they hand back.
    fn drain(self) {
        let last = Key {
            major: usize::MAX,
            minor: usize::MAX,
        };
        drop(self.wait_until(last, |st| st.batches == 0));
    }

    /// Input `i` (named `name`, or an error entry of the walk) could not be
    /// read: one unit, numbered `seq` (then moved on), holding its message.
    fn fail(self, seq: &mut usize, i: usize, name: Option<Arc<Input>>, message: String) {
        let key = Key::unit(*seq);
        self.acquire(key);
        let chunk = Chunk {
            name,
            ..Chunk::failed(i, message)
        };
        self.order.commit(key, vec![chunk], End::Done);
        *seq += 1;
    }
}

/// The output of the parallel search, put back in input order. Each unit
/// of work (a batch of small files, a range of a large file, a piece of a
/// stream) has a sequence number; whoever finishes the next unit writes
/// it, and the finished units after it. No writer thread, no hand-over:
/// on two cores a third thread costs more than the writing.
struct Order<'s, 'a> {
    state: Mutex<OrderState<'s, 'a>>,
    flow: Flow,
    stop: &'s AtomicBool,
}

struct OrderState<'s, 'a> {
    sink: &'s mut Sink<'a>,
    /// The unit to write next.
    next: Key,
    /// Units waiting for the ones before them: their chunks so far and
    /// how they ended.
    pending: BTreeMap<Key, (Vec<Chunk>, End)>,
    result: io::Result<()>,
}

/// A unit's place in the output. The scheduler numbers its units
/// (`major`); a batch that meets a large file, or has searched enough,
/// hands the rest of its work to jobs numbered after it (`minor`), so the
/// scheduler need not `stat` every file to plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    major: usize,
    minor: usize,
}

impl Key {
    /// The scheduler's unit `major`.
    fn unit(major: usize) -> Key {
        Key { major, minor: 0 }
    }

    /// The part after this one, within the same unit of the scheduler.
    fn then(self) -> Key {
        Key {
            minor: self.minor + 1,
            ..self
        }
    }
}

/// How far a unit's job got when it handed over chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum End {
    /// More chunks of the unit follow.
    #[default]
    Open,
    /// The unit is complete; its scheduler unit goes on in [`Key::then`].
    Part,
    /// The unit is complete, and so is its scheduler unit.
    Done,
}

impl OrderState<'_, '_> {
    fn write(&mut self, chunks: Vec<Chunk>, stop: &AtomicBool) {
        for c in chunks {
            if self.result.is_ok() {
                if let Err(e) = self.sink.chunk(c) {
                    stop.store(true, Ordering::Relaxed);
                    self.result = Err(e);
                }
            }
        }
    }
}

impl Order<'_, '_> {
    /// Hands over unit `key`'s chunks and how far it got. Frees room for
    /// one unit for each unit written whole.
    fn commit(&self, key: Key, chunks: Vec<Chunk>, end: End) {
        let mut st = lock(&self.state);
        if st.next != key {
            let unit = st.pending.entry(key).or_default();
            unit.0.extend(chunks);
            unit.1 = end;
            return;
        }
        st.write(chunks, self.stop);
        let mut end = end;
        let mut written = 0;
        loop {
            st.next = match end {
                // The unit's job is still running and writes the rest.
                End::Open => break,
                End::Part => {
                    written += 1;
                    st.next.then()
                }
                End::Done => {
                    written += 1;
                    Key::unit(st.next.major + 1)
                }
            };
            let next = st.next;
            let Some((chunks, e)) = st.pending.remove(&next) else {
                break;
            };
            st.write(chunks, self.stop);
            end = e;
        }
        drop(st);
        if written > 0 {
            self.flow.release(written);
        }
    }

    /// Whether unit `key` is the one to write now: a job with much output
    /// then hands it over as it goes instead of holding it all.
    fn is_next(&self, key: Key) -> bool {
        lock(&self.state).next == key
    }
}

fn run_parallel(
    inputs: impl Iterator<Item = Item> + Send,
    ctx: Ctx<'_>,
    sink: &mut Sink<'_>,
    threads: usize,
) -> io::Result<()> {
    // The process-wide pool when it can be this size (the command's case:
    // it is never torn down, so exiting costs no handshake with its
    // threads); a pool of its own when a library caller's earlier run set
    // the process-wide one to another size.
    let global = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .is_ok()
        || rayon::current_num_threads() == threads;
    let local = if global {
        None
    } else {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(io::Error::other)?,
        )
    };
    let stop = ctx.stop;
    let order = Order {
        state: Mutex::new(OrderState {
            sink,
            next: Key::default(),
            pending: BTreeMap::new(),
            result: Ok(()),
        }),
        flow: Flow::new(4 * threads, threads),
        stop,
    };
    let order_ref = &order;
    // Run on the pool's threads (from outside them, `scope_fifo` hands its
    // body to one and waits).
    let work = || {
        let order = order_ref;
        rayon::scope_fifo(|scope| {
            let sched = Sched { scope, order, ctx };
            let mut seq = 0usize;
            // Small files go in batches of about a piece: one job and one
            // hand-over per batch, not per news article.
            let mut batch: Vec<Arc<Input>> = Vec::new();
            let mut batch_bytes = 0u64;
            // (A macro, not a closure: the job it spawns must outlive the
            // call.)
            macro_rules! flush {
                () => {
                    if !batch.is_empty() {
                        let key = Key::unit(seq);
                        seq += 1;
                        batch_bytes = 0;
                        sched.batch(std::mem::take(&mut batch), key);
                    }
                };
            }
            for item in inputs {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let input = match item {
                    Err((i, msg)) => {
                        flush!();
                        sched.fail(&mut seq, i, None, msg);
                        continue;
                    }
                    Ok(input) => input,
                };
                let i = input.index;
                // Sized when the walk knows (a path given, a symlink
                // followed). A file the directory listing calls regular is
                // batched without a `stat` (the batch splits what turns out
                // large), unless Message-IDs (whole messages in order) or a
                // gzip name (one stream) want it read by this thread.
                let (size, weight) = match &input.entry {
                    Entry::File {
                        path,
                        regular: true,
                        size: None,
                        ..
                    } if !ctx.msgs && !gz_name(path) => (None, Some(UNSIZED)),
                    Entry::File {
                        regular: true,
                        size: Some(n),
                        ..
                    } => (Some(*n), Some(*n).filter(|&n| n <= SPLIT_MIN)),
                    Entry::File { path, .. } => {
                        let n = std::fs::metadata(path)
                            .ok()
                            .filter(|md| md.is_file())
                            .map(|md| md.len());
                        (n, n.filter(|&n| n <= SPLIT_MIN))
                    }
                    _ => (None, None),
                };
                if let Some(w) = weight {
                    batch.push(input);
                    batch_bytes += w;
                    if batch_bytes >= PIECE as u64 || batch.len() >= 256 {
                        flush!();
                    }
                    continue;
                }
                flush!();
                let reader = match (&input.entry, size) {
                    // A large regular file: its ranges are read and searched
                    // by the pool's threads at once, the parts of one unit
                    // (Message-IDs need the messages in order, so not then).
                    (Entry::File { path, .. }, Some(size)) if !ctx.msgs => {
                        match open_peeked(&input.entry, path) {
                            Ok((file, false)) => {
                                let key = Key::unit(seq);
                                seq += 1;
                                sched.serve(Handback {
                                    key,
                                    large: Some((Arc::new(file), size, input)),
                                    rest: Vec::new(),
                                });
                                continue;
                            }
                            Ok((file, true)) => {
                                Ok(Box::new(MultiGzDecoder::new(file)) as Box<dyn Read + Send>)
                            }
                            Err(err) => Err(err),
                        }
                    }
                    (e, _) => input_reader(e),
                };
                match reader {
                    // Stdin, gzip, or Message-IDs wanted: read here in
                    // order, the pieces searched on the pool.
                    Ok(r) => {
                        let look = ctx.scanner.get_limits().max_bytes;
                        let mut pr = PieceReader::new(r, PIECE, look).scanning(ctx.scanner);
                        let mut tracker = ctx.msgs.then(MessageTracker::new);
                        while let Some(p) = pr.next_piece() {
                            if stop.load(Ordering::Relaxed) {
                                break;
                            }
                            let map = tracker
                                .as_mut()
                                .map(|t| t.feed(&p.bytes()[..p.limit], p.offset));
                            let error = if p.at_end {
                                pr.take_error().map(|err| read_message(&input.entry, &err))
                            } else {
                                None
                            };
                            let my = seq;
                            seq += 1;
                            sched.acquire(Key::unit(my));
                            let input = input.clone();
                            scope.spawn_fifo(move |_| {
                                // Line numbers relative to the piece.
                                let (recs, lines) =
                                    search_piece(&p, 0, true, map.as_ref(), ctx, &input.name);
                                let chunk = Chunk {
                                    input: i,
                                    name: Some(input),
                                    last: p.at_end,
                                    bytes: p.limit as u64,
                                    body: recs,
                                    error,
                                    piece_lines: Some(lines),
                                };
                                SHARED.give(p.data);
                                order.commit(Key::unit(my), vec![chunk], End::Done);
                            });
                        }
                    }
                    Err(err) => {
                        let msg = read_message(&input.entry, &err);
                        sched.fail(&mut seq, i, Some(input), msg);
                    }
                }
            }
            #[allow(unused_assignments)] // the counters are not read again
            {
                flush!();
            }
            sched.drain();
        })
    };
    match &local {
        Some(pool) => pool.install(work),
        None => work(),
    }
    order
        .state
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .result
}

/// The job for range `r` of `ranges` of a large file (input `i`): writes
/// its output as it goes when it is the next unit, else hands it over at
/// the end.
#[allow(clippy::too_many_arguments)]
fn search_range_unit(
    file: &File,
    r: u64,
    ranges: u64,
    size: u64,
    input: Arc<Input>,
    ctx: Ctx<'_>,
    order: &Order<'_, '_>,
    key: Key,
    end: End,
) {
    let i = input.index;
    let mut held = Recs::default();
    let mut held_bytes = 0u64;
    let mut lines = 0u64;
    let res = search_range(file, r, size, ctx, &input.name, &mut |recs, bytes, lf| {
        held.append(recs);
        held_bytes += bytes;
        lines += lf;
        if held.body.len() >= PIECE && order.is_next(key) {
            let part = Chunk {
                input: i,
                name: None,
                last: false,
                bytes: std::mem::take(&mut held_bytes),
                body: std::mem::take(&mut held),
                error: None,
                piece_lines: Some(0),
            };
            order.commit(key, vec![part], End::Open);
        }
        Ok(())
    });
    let error = match res {
        Err(Fail::Read(err)) => Some(read_message(&input.entry, &err)),
        _ => None,
    };
    let chunk = Chunk {
        input: i,
        name: Some(input.clone()),
        last: r + 1 == ranges,
        bytes: held_bytes,
        body: held,
        error,
        piece_lines: Some(lines),
    };
    order.commit(key, vec![chunk], end);
}

/// `--parse`: one JSON object per URL; 0 when all are valid, 1 if not.
fn run_parse(cfg: &Config) -> i32 {
    let mut inputs: Vec<Vec<u8>> = cfg.paths.iter().map(|p| p.as_bytes().to_vec()).collect();
    if cfg.paths.is_empty() {
        let mut all = Vec::new();
        if let Err(e) = io::stdin().read_to_end(&mut all) {
            eprintln!("urlsift: (standard input): {e}");
            return 2;
        }
        for line in all.split(|&b| b == b'\n') {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            inputs.push(line.to_vec());
        }
        if all.ends_with(b"\n") || all.is_empty() {
            inputs.pop();
        }
    }
    let mut out = Vec::new();
    let mut all_valid = true;
    for input in &inputs {
        out.extend_from_slice(b"{\"input\":");
        json_str(&mut out, &String::from_utf8_lossy(input));
        match Url::parse_with(input, cfg.policy) {
            Ok(u) => {
                out.extend_from_slice(b",\"valid\":true,\"scheme\":");
                json_str(&mut out, &u.scheme().to_ascii_lowercase());
                out.extend_from_slice(b",\"parts\":{");
                for (k, (name, v)) in u.components().iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    json_str(&mut out, name);
                    out.push(b':');
                    json_str(&mut out, v);
                }
                out.extend_from_slice(b"},\"fragment\":");
                json_opt(&mut out, u.fragment());
                out.extend_from_slice(b",\"warnings\":");
                json_warnings(&mut out, &u);
                out.extend_from_slice(b",\"error\":null}\n");
            }
            Err(e) => {
                all_valid = false;
                out.extend_from_slice(
                    b",\"valid\":false,\"scheme\":null,\"parts\":null,\"fragment\":null,\"warnings\":[],\"error\":{",
                );
                let _ = write!(out, "\"offset\":{},\"reason\":", e.offset());
                json_str(&mut out, &format!("{}: {}", e.rule(), e.kind().reason()));
                out.extend_from_slice(b"}}\n");
            }
        }
    }
    let mut stdout = io::stdout().lock();
    match stdout.write_all(&out).and_then(|_| stdout.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("urlsift: writing output: {e}");
            2
        }
        Ok(()) if all_valid => 0,
        Ok(()) => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlsift::Match;

    /// A `Write` into a shared buffer, for the order's sink.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            lock(&self.0).extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn chunk(text: &str) -> Vec<Chunk> {
        let recs = Recs {
            body: text.as_bytes().to_vec(),
            count: 1,
            ..Recs::default()
        };
        vec![Chunk {
            input: 0,
            name: None,
            last: false,
            bytes: 0,
            body: recs,
            error: None,
            piece_lines: None,
        }]
    }

    /// Units and the parts batches hand back are written in key order,
    /// whatever order they finish in, and each unit written frees room.
    #[test]
    fn order_writes_parts_of_units_in_key_order() {
        let args = <crate::args::Args as clap::Parser>::try_parse_from(["urlsift"]).unwrap();
        let printer = Printer::new(&args.into_config().unwrap());
        let out = Shared::default();
        let mut sink = Sink::new(Box::new(out.clone()), &printer);
        let stop = AtomicBool::new(false);
        let order = Order {
            state: Mutex::new(OrderState {
                sink: &mut sink,
                next: Key::default(),
                pending: BTreeMap::new(),
                result: Ok(()),
            }),
            flow: Flow::new(0, 0),
            stop: &stop,
        };
        let k = |major, minor| Key { major, minor };
        order.commit(k(1, 0), chunk("d "), End::Done);
        order.commit(k(0, 2), chunk("c "), End::Open);
        order.commit(k(0, 1), chunk("b "), End::Part);
        assert!(lock(&out.0).is_empty(), "nothing before unit (0, 0)");
        order.commit(k(0, 0), chunk("a "), End::Part);
        // (0, 2) is still open: it writes the rest itself when it is next.
        assert_eq!(&*lock(&out.0), b"a b c ");
        assert!(order.is_next(k(0, 2)));
        order.commit(k(0, 2), chunk("c2 "), End::Done);
        order.commit(k(2, 0), chunk("e"), End::Done);
        assert_eq!(&*lock(&out.0), b"a b c c2 d e");
        // Five units written whole, five units of room back.
        assert_eq!(lock(&order.flow.state).free, 5);
    }

    #[test]
    fn pieces_cover_input_at_line_starts() {
        let mut text = Vec::new();
        for i in 0..5000 {
            text.extend_from_slice(format!("line {i} <http://h{i}.example/>\n").as_bytes());
            if i % 37 == 0 {
                text.extend_from_slice(b"\nFrom x\n");
            }
        }
        let mut pr = PieceReader::new(&text[..], 4096, 64);
        let mut pos = 0u64;
        let mut n = 0;
        while let Some(p) = pr.next_piece() {
            assert_eq!(p.offset, pos);
            assert_eq!(
                p.bytes(),
                &text[pos as usize..pos as usize + p.bytes().len()]
            );
            if !p.at_end {
                assert_eq!(p.bytes()[p.limit - 1], b'\n');
                assert!(p.bytes().len() - p.limit >= 64);
            }
            pos += p.limit as u64;
            n += 1;
            pr.recycle(p.data);
        }
        assert_eq!(pos, text.len() as u64);
        assert!(n > 10);
        // Piecewise scanning equals one pass.
        let s = Scanner::new();
        let whole = s.extract(&text);
        let mut pr = PieceReader::new(&text[..], 4096, s.get_limits().max_bytes);
        let mut got = Vec::new();
        let mut lines = 0;
        while let Some(p) = pr.next_piece() {
            let (ms, lf) = s.scan_piece(p.bytes(), p.limit, p.at_end);
            for mut m in ms {
                m.rebase(p.offset, lines);
                got.push(m);
            }
            lines += lf;
        }
        assert_eq!(got, whole);
    }

    /// Scans `text` in pieces of `target` bytes and rebases the matches.
    fn piecewise(text: &[u8], target: usize, s: Scanner) -> Vec<Match> {
        let mut pr = PieceReader::new(text, target, s.get_limits().max_bytes);
        let mut got = Vec::new();
        let mut lines = 0;
        while let Some(p) = pr.next_piece() {
            assert!(p.bytes().len() <= target + s.get_limits().max_bytes);
            let (ms, lf) = s.scan_piece_in(p.bytes(), p.limit, p.at_end, &p.context);
            for mut m in ms {
                m.rebase(p.offset, lines);
                got.push(m);
            }
            lines += lf;
            pr.recycle(p.data);
        }
        got
    }

    #[test]
    fn lines_longer_than_a_piece_are_cut_inside_with_their_context() {
        // A quoted line far longer than a piece, holding URLs (one broken
        // onto the next line, whose quote prefix must go) and an
        // ISO-2022-JP run with a '<' inside it.
        let s = Scanner::new().limits(urlsift::Limits {
            max_bytes: 256,
            max_lines: 4,
        });
        let mut text = b"> ".to_vec();
        for i in 0..3000 {
            text.extend_from_slice(format!("w{i} <http://h{i}.example/> ").as_bytes());
            if i % 101 == 0 {
                text.extend_from_slice(b"\x1b$B<http://no.example/>\x1b(B ");
            }
        }
        text.extend_from_slice(b"<URL:http://end.example/a\n> b/>\n");
        let whole = s.extract(&text);
        assert_eq!(whole.len(), 3001);
        assert_eq!(whole[3000].as_str(), "http://end.example/ab/");
        for target in [1000, 4096, 7777] {
            assert_eq!(piecewise(&text, target, s), whole, "pieces of {target}");
        }
    }

    #[test]
    fn ranges_of_a_split_file_cover_it_and_scan_like_one_pass() {
        // Lines of every length around the boundaries: short ones, ones
        // longer than the window (the range before runs on), one longer
        // than a piece, URLs broken across lines and quoted.
        let mut text = Vec::new();
        for i in 0..4000u32 {
            match i % 97 {
                0 => text.extend_from_slice(&vec![b'x'; 5000 + i as usize]),
                1 => text.extend_from_slice(b"> <URL:http://broken.example/a-\n> b/c>"),
                _ => text.extend_from_slice(format!("w{i} <http://h{i}.example/>").as_bytes()),
            }
            if i == 2000 {
                for k in 0..3000 {
                    text.extend_from_slice(format!(" <news:g{k}.x>").as_bytes());
                }
            }
            text.push(b'\n');
        }
        let path = std::env::temp_dir().join(format!("urlsift-ranges-{}", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let file = File::open(&path).unwrap();
        let size = text.len() as u64;
        let s = Scanner::new();
        let whole = s.extract(&text);
        assert!(whole.len() > 6900);
        assert!(whole
            .iter()
            .any(|m| m.as_str() == "http://broken.example/a-b/c"));
        for piece in [8192u64, 12345, 65536] {
            let mut skipped = 0;
            let mut got = Vec::new();
            let mut pos = 0;
            let mut lines = 0;
            for r in 0..size.div_ceil(piece) {
                let Some((start, end)) = range_bounds(&file, r, size, piece, false).unwrap() else {
                    skipped += 1;
                    continue;
                };
                assert_eq!(start, pos, "ranges meet (piece {piece}, range {r})");
                assert!(start == 0 || text[start as usize - 1] == b'\n');
                pos = end;
                let rd = ReadAt {
                    file: &file,
                    pos: start,
                };
                let mut pr = PieceReader::new(rd, 4096, s.get_limits().max_bytes).range(start, end);
                let mut range_lines = 0;
                while let Some(p) = pr.next_piece() {
                    let (ms, lf) = s.scan_piece_in(p.bytes(), p.limit, p.at_end, &p.context);
                    for mut m in ms {
                        m.rebase(p.offset, lines + range_lines);
                        got.push(m);
                    }
                    range_lines += lf;
                }
                lines += range_lines;
            }
            assert_eq!(pos, size);
            assert!(skipped > 0, "some boundary falls in a long line");
            assert_eq!(got, whole, "piece {piece}");
        }
        std::fs::remove_file(&path).unwrap();
    }
}
