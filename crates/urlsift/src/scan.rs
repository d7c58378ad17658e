//! Finding URLs in free text: RFC 1738's Appendix ("Recommendations for URLs
//! in Context") made exact by the rules of `docs/rules.md`.
//!
//! The scanner looks only at `<`. A `<` opens a *candidate* when `URL:`
//! follows it at once (any case: the *wrapped* form) or a scheme name and
//! `:` (the *bracketed* form). The candidate is followed to the next `>`,
//! dropping whitespace as the Appendix says (all of it in the wrapped form,
//! only line-break whitespace in the bracketed form), stripping the reply
//! quote prefix of the opening line from each continuation line, and noting
//! every line break that follows a `-`. A `<`, a blank line, the end of the
//! input or one of the [`Limits`](crate::Limits) abandons it, and scanning goes on right
//! after its `<`, so no later URL is lost. What is left is validated by
//! [`Url::parse_with`](crate::Url::parse_with); under the hyphen rule each reading is tried.
//!
//! Every `<` is looked at once and every byte is followed by at most one
//! candidate (a `<` ends any candidate), so time is linear in the input;
//! a candidate never holds more than [`Limits::max_bytes`](crate::Limits::max_bytes) source bytes, so
//! memory is bounded whatever the input.
//!
//! The engine here (`Engine`) works on a window of the input: a whole slice
//! for [`Scanner::extract`](crate::Scanner::extract), or one piece of a stream with its lookahead
//! ([`Scanner::scan_piece_each`](crate::Scanner::scan_piece_each)), which the one streaming reader
//! ([`crate::PieceReader`]) cuts at line starts for every front end.

use memchr::{memchr, memchr2, memrchr};

use crate::error::ParseError;
use crate::matches::{Form, Hyphen, Match, Rejection, Span, Unclosed};
use crate::naked::{Found, Naked, Step};
use crate::settings::Scanner;
use crate::url::{Parts, Url};
use crate::wide::Skip;

/// Byte classes of the Appendix rules, one bit per class (the scheme name
/// of rule 1 is RFC 1738's, [`crate::class::scheme_run`]).
mod class {
    /// SP, HT, CR, FF: blanks that may stand inside a line (contract rule 8:
    /// a CR before LF is whitespace).
    pub const BLANK: u8 = 2;
    /// Bytes that end a run of candidate text: blanks, LF, `<`, `>`.
    pub const STOP: u8 = 4;
    /// Candidate text: every byte that is not [`STOP`] (rule 3).
    pub const TEXT: u8 = 8;
    /// SP and HT: the spacing around reply-quote marks (rule 4).
    pub const HSPACE: u8 = 16;

    const fn build() -> [u8; 256] {
        let mut t = [0u8; 256];
        let mut b = 0;
        while b < 256 {
            let c = b as u8;
            if c == b' ' || c == b'\t' || c == b'\r' || c == 0x0c {
                t[b] |= BLANK | STOP;
            }
            if c == b'\n' || c == b'<' || c == b'>' {
                t[b] |= STOP;
            }
            if t[b] & STOP == 0 {
                t[b] |= TEXT;
            }
            if c == b' ' || c == b'\t' {
                t[b] |= HSPACE;
            }
            b += 1;
        }
        t
    }

    /// The table, indexed by byte.
    pub static TABLE: [u8; 256] = build();

    #[inline(always)]
    pub fn is(b: u8, class: u8) -> bool {
        TABLE[b as usize] & class != 0
    }

    /// Length of the run of candidate text that `bytes` starts with: a
    /// URL's text between its breaks, the long runs, 16 bytes at a time.
    #[inline]
    pub fn text_run(bytes: &[u8]) -> usize {
        crate::class::run(bytes, crate::class::Block::Text, |b| is(b, TEXT))
    }

    /// Length of the run of [`BLANK`] bytes that `bytes` starts with.
    #[inline]
    pub fn blank_run(bytes: &[u8]) -> usize {
        bytes.iter().take_while(|&&b| is(b, BLANK)).count()
    }

    /// Length of the run of [`HSPACE`] bytes that `bytes` starts with.
    #[inline]
    pub fn hspace_run(bytes: &[u8]) -> usize {
        bytes.iter().take_while(|&&b| is(b, HSPACE)).count()
    }
}

const ESC: u8 = 0x1b;

/// What scanning a piece of a haystack needs to know of the bytes before
/// it: how far into its line the piece starts, that line's reply-quote
/// prefix, and whether an ISO-2022-JP two-byte run is open; with naked URLs
/// on, also how much of the piece a URL reported before it covers. A piece
/// that starts at a line start needs the default (empty) context, unless
/// naked URLs are on (see [`PieceContext::advance_scanning`](crate::PieceContext::advance_scanning)).
///
/// ```
/// use urlsift::{PieceContext, Scanner};
/// let text = b"> <http://a.example/x\n> y> <http://b.example/>";
/// let cut = 12; // inside the first line
/// let mut context = PieceContext::default();
/// context.advance(&text[..cut]);
/// let (found, _) = Scanner::new().scan_piece_in(&text[cut..], text.len() - cut, true, &context);
/// assert_eq!(found[0].as_str(), "http://b.example/");
/// assert_eq!(found[0].column(), 6);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct PieceContext {
    column: u64,
    prefix: QuotePrefix,
    jis: bool,
    /// Naked pass: bytes at the piece's start inside a URL reported before
    /// it (a `<...>` span or a naked URL), and whether a scheme run of the
    /// bytes before reaches the piece (its candidate is theirs).
    hidden: u64,
    scheme_before: bool,
}

impl PieceContext {
    /// Moves the context past `bytes`, the bytes that follow it. A cut must
    /// not split an escape sequence: the two bytes after an ESC stay with it.
    /// With naked URLs on, use [`PieceContext::advance_scanning`](crate::PieceContext::advance_scanning): what a
    /// URL reported in `bytes` hides of the next piece depends on the
    /// bytes after them too.
    pub fn advance(&mut self, bytes: &[u8]) {
        self.hidden = self.hidden.saturating_sub(bytes.len() as u64);
        if let Some(&last) = bytes.last() {
            self.scheme_before = crate::class::is(last, crate::class::SCHEME);
        }
        if self.jis || memchr(ESC, bytes).is_some() {
            self.jis = jis_after(self.jis, bytes);
        }
        match memrchr(b'\n', bytes) {
            Some(k) => {
                self.column = (bytes.len() - k - 1) as u64;
                self.prefix = QuotePrefix::default();
                self.prefix.feed(&bytes[k + 1..]);
            }
            None => {
                self.column += bytes.len() as u64;
                self.prefix.feed(bytes);
            }
        }
    }
}

impl PieceContext {
    /// Moves the context past `bytes[..cut]` for `scanner`, which
    /// `bytes[cut..]` follow: at least [`Limits::max_bytes`](crate::Limits::max_bytes) of them, or all
    /// up to the end of the input (`at_end`), as a piece's lookahead.
    /// Without naked URLs this is [`PieceContext::advance`](crate::PieceContext::advance); with them it
    /// also learns which bytes after `cut` a URL that starts before it
    /// covers (a `<...>` broken across the cut's line start, or a naked URL
    /// across a cut inside a line), by scanning the last
    /// [`Limits::max_bytes`](crate::Limits::max_bytes) before `cut`: whatever started earlier has
    /// ended before `cut`.
    ///
    /// ```
    /// use urlsift::{PieceContext, Scanner};
    /// let s = Scanner::new().naked(true);
    /// let text = b"<URL:\n http://a.example/x>\nhttp://b.example/\n";
    /// let cut = 6; // the second line: inside the wrapped URL
    /// let mut context = PieceContext::default();
    /// context.advance_scanning(&s, text, cut, true);
    /// let (found, _) = s.scan_piece_in(&text[cut..], text.len() - cut, true, &context);
    /// assert_eq!(found.len(), 1);
    /// assert_eq!(found[0].as_str(), "http://b.example/");
    /// ```
    pub fn advance_scanning(&mut self, scanner: &Scanner, bytes: &[u8], cut: usize, at_end: bool) {
        let cut = cut.min(bytes.len());
        if !scanner.naked {
            self.advance(&bytes[..cut]);
            return;
        }
        let w = cut.saturating_sub(scanner.limits.max_bytes + 1);
        let mut at_w = *self;
        at_w.advance(&bytes[..w]);
        let mut engine = Engine::for_piece(scanner.rejected(false), &at_w);
        let back = at_w.column;
        engine.scan(&bytes[w..], back, at_end, cut - w, &mut |_| {});
        let hidden = engine.naked.as_ref().map_or(0, |nk| nk.hidden);
        self.advance(&bytes[..cut]);
        self.hidden = hidden.saturating_sub(back + (cut - w) as u64);
    }
}

/// Scans one piece for [`Scanner::scan_piece_counting`](crate::Scanner::scan_piece_counting): matches at
/// offsets from the piece's start; the line feeds before `limit` (or as
/// far as the matches need, without `count_rest`).
pub(crate) fn scan_piece(
    cfg: Scanner,
    piece: &[u8],
    limit: usize,
    at_end: bool,
    context: &PieceContext,
    count_rest: bool,
    each: &mut dyn FnMut(&mut Match),
) -> u64 {
    let mut engine = Engine::for_piece(cfg, context);
    let back = context.column;
    let limit = limit.min(piece.len());
    engine.scan(piece, back, at_end, limit, &mut |m| {
        m.offset -= back;
        m.end -= back;
        for s in &mut m.spans {
            s.start -= back;
            s.end -= back;
        }
        each(m)
    });
    if count_rest {
        engine.count_lines(piece, back, back + limit as u64);
    }
    engine.count.line - 1
}

/// How far `piece` alone decides its candidates ([`Scanner::decided`](crate::Scanner::decided)).
pub(crate) fn decided(cfg: Scanner, piece: &[u8], context: &PieceContext) -> usize {
    let cfg = Scanner {
        rejected: false,
        ..cfg
    };
    let mut engine = Engine::for_piece(cfg, context);
    engine.scan(piece, context.column, false, piece.len(), &mut |_| {})
}

/// The ISO-2022-JP two-byte state after `bytes`, starting from `jis`
/// (contract rule 8; a line feed also ends a run, as RFC 1468 lines end in
/// ASCII).
fn jis_after(mut jis: bool, bytes: &[u8]) -> bool {
    let mut i = 0;
    loop {
        let found = if jis {
            memchr2(ESC, b'\n', &bytes[i..])
        } else {
            memchr(ESC, &bytes[i..])
        };
        let Some(k) = found else { return jis };
        let p = i + k;
        if bytes[p] == b'\n' {
            jis = false;
        } else if jis {
            if bytes.get(p + 1) == Some(&b'(') && matches!(bytes.get(p + 2), Some(b'B' | b'J')) {
                jis = false;
            }
        } else if bytes.get(p + 1) == Some(&b'$') && matches!(bytes.get(p + 2), Some(b'B' | b'@')) {
            jis = true;
        }
        i = p + 1;
    }
}

/// The reply-quote prefix of a line (contract rule 4), built byte by byte
/// from the line start so that a line longer than the buffer still works.
#[derive(Clone, Copy, Debug, Default)]
struct QuotePrefix {
    depth: usize,
    gt: bool,
    bar: bool,
    done: bool,
}

impl QuotePrefix {
    /// Feeds bytes of the line; returns once the prefix has ended.
    fn feed(&mut self, bytes: &[u8]) {
        if self.done {
            return;
        }
        for &b in bytes {
            match b {
                b' ' | b'\t' => {}
                b'>' => {
                    self.depth += 1;
                    self.gt = true;
                }
                b'|' => {
                    self.depth += 1;
                    self.bar = true;
                }
                _ => {
                    self.done = true;
                    return;
                }
            }
        }
    }

    fn is_mark(&self, b: u8) -> bool {
        (b == b'>' && self.gt) || (b == b'|' && self.bar)
    }
}

/// How following one candidate ended.
enum Follow {
    /// Rule 1 does not hold at this `<`.
    NotCandidate,
    /// The window ended before the candidate did; more input may decide it.
    NeedMore,
    /// Abandoned (rule 2, or a limit) after looking at bytes up to `end`.
    Abandoned(Unclosed, usize),
    /// Closed by the `>` at `end - 1`.
    Closed(usize),
}

/// How far an engine has counted line feeds (rule 9's line numbers).
#[derive(Clone, Copy, Debug)]
struct LineCount {
    /// Line feeds are counted up to here (absolute).
    counted: u64,
    /// 1-based line number at `counted`.
    line: u64,
    /// Absolute offset of the start of the line holding `counted`.
    line_start: u64,
}

/// What a line's start says of the bytes after it: its reply-quote prefix
/// (rule 4) and whether an ISO-2022-JP two-byte run is open (rule 8). Built
/// from the line start and cached per line, so each byte is fed once.
#[derive(Clone, Copy, Debug)]
struct LineState {
    /// The quote prefix of the line starting at `prefix_line` (a cache, and
    /// the carry for a line that began before the current window).
    prefix: QuotePrefix,
    prefix_line: u64,
    prefix_valid: bool,
    /// The prefix has been fed with the line's bytes up to here (absolute).
    prefix_fed: u64,
    /// Inside a two-byte run of ISO-2022-JP at `jis_fed`, on the line
    /// starting at `prefix_line`.
    jis: bool,
    jis_fed: u64,
}

/// The candidate being followed (rules 1 to 4).
#[derive(Clone, Copy, Debug, Default)]
struct Following {
    /// `<URL:...>` (all whitespace ignored) rather than `<scheme:...>`.
    wrapped: bool,
    /// Line breaks crossed so far.
    lines: usize,
    /// Reply quoting dropped on a continuation line.
    quoted: bool,
}

/// The scanning state machine over a window of the input.
///
/// The caller hands it windows `buf` that start at absolute offset `base`;
/// each call of [`Engine::scan`] reports what it can and returns the
/// absolute offset from which bytes must be kept for the next call.
#[derive(Debug)]
pub(crate) struct Engine {
    cfg: Scanner,
    /// Absolute offset where the next search for `<` starts.
    resume: u64,
    /// How far line feeds are counted.
    count: LineCount,
    /// The current line's quote prefix and two-byte state.
    state: LineState,
    /// The candidate being followed: its form, line breaks, quoting.
    follow: Following,
    // Scratch space reused across candidates: no allocation per byte.
    joined: Vec<u8>,
    pieces: Vec<Span>,
    hyphens: Vec<usize>,
    reading: Vec<u8>,
    /// The match handed to the caller, its buffers reused (see `make`).
    out: Match,
    /// The box of the last match's kept parse, for the next to reuse
    /// ([`Scanner::keep_parse`]).
    spare_parse: Option<Box<Parts>>,
    /// The search for `<`.
    skip: Skip,
    /// The naked pass (contract rules 14 to 17), when asked for.
    naked: Option<Box<Naked>>,
}

/// What [`Engine::next_lt`] found.
enum Next {
    /// A `<` at this offset.
    Lt(usize),
    /// No `<` before the limit.
    End,
    /// The naked candidate at this colon needs more input.
    Wait(usize),
}

/// An engine's scratch buffers, kept per thread from one engine to the
/// next: an engine is made per piece (per news article), and growing fresh
/// buffers for each cost more allocations than it has candidates.
#[derive(Default)]
struct Scratch {
    joined: Vec<u8>,
    pieces: Vec<Span>,
    hyphens: Vec<usize>,
    reading: Vec<u8>,
    bytes: Vec<u8>,
    spans: Vec<Span>,
}

thread_local! {
    static SCRATCH: std::cell::Cell<Option<Scratch>> = const { std::cell::Cell::new(None) };
}

/// Scratch capacity kept for the next engine, at most (raised limits may
/// grow a buffer far beyond what a usual candidate needs).
const SCRATCH_KEPT: usize = 1 << 16;

impl Drop for Engine {
    fn drop(&mut self) {
        fn keep<T>(v: &mut Vec<T>) -> Vec<T> {
            let mut v = std::mem::take(v);
            v.clear();
            if v.capacity() > SCRATCH_KEPT {
                v = Vec::new();
            }
            v
        }
        let s = Scratch {
            joined: keep(&mut self.joined),
            pieces: keep(&mut self.pieces),
            hyphens: keep(&mut self.hyphens),
            reading: keep(&mut self.reading),
            bytes: keep(&mut self.out.bytes),
            spans: keep(&mut self.out.spans),
        };
        // (During thread teardown the cache may be gone: then just free.)
        let _ = SCRATCH.try_with(|c| c.set(Some(s)));
    }
}

impl Engine {
    pub(crate) fn new(cfg: Scanner) -> Engine {
        let s = SCRATCH
            .try_with(|c| c.take())
            .ok()
            .flatten()
            .unwrap_or_default();
        Engine {
            cfg,
            resume: 0,
            count: LineCount {
                counted: 0,
                line: 1,
                line_start: 0,
            },
            state: LineState {
                prefix: QuotePrefix::default(),
                prefix_line: 0,
                prefix_valid: false,
                prefix_fed: 0,
                jis: false,
                jis_fed: 0,
            },
            follow: Following::default(),
            joined: s.joined,
            pieces: s.pieces,
            hyphens: s.hyphens,
            reading: s.reading,
            out: Match {
                bytes: s.bytes,
                alternative: None,
                form: Form::Bracketed,
                offset: 0,
                end: 0,
                line: 0,
                column: 0,
                spans: s.spans,
                encoding: None,
                content_type: None,
                charset: None,
                forwarded: None,
                message: None,
                broken: false,
                quoted: false,
                hyphen: None,
                policy: cfg.policy,
                rejection: None,
                anchor: None,
                parsed: Default::default(),
            },
            spare_parse: None,
            skip: Skip::new(),
            // Boxed: an engine without the naked pass stays as small as it was.
            naked: cfg.naked.then(|| Box::new(Naked::new(&cfg, 0, 0, false))),
        }
    }

    /// An engine for a piece that starts `context.column` bytes into its
    /// line: it counts from the line's start, so columns and the quote
    /// prefix come out right.
    fn for_piece(cfg: Scanner, context: &PieceContext) -> Engine {
        let mut engine = Engine::new(cfg);
        let back = context.column;
        engine.resume = back;
        engine.count.counted = back;
        engine.state.jis = context.jis;
        engine.state.jis_fed = back;
        engine.state.prefix = context.prefix;
        engine.state.prefix_valid = true;
        engine.state.prefix_fed = back;
        if cfg.naked {
            engine.naked = Some(Box::new(Naked::new(
                &cfg,
                back,
                context.hidden,
                context.scheme_before,
            )));
        }
        engine
    }

    /// Scans `buf` (absolute offset `base`) from where the last call
    /// stopped, reporting candidates whose `<` is before `limit` (relative).
    /// `eof` says no bytes follow `buf`. Returns where the scan stopped
    /// (relative): a candidate that needs more bytes, or `limit`. Line feeds
    /// are counted only as far as the candidates needed (see
    /// [`Engine::settle`]).
    pub(crate) fn scan(
        &mut self,
        buf: &[u8],
        base: u64,
        eof: bool,
        limit: usize,
        emit: &mut dyn FnMut(&mut Match),
    ) -> usize {
        debug_assert!(self.resume >= base);
        let n = buf.len();
        let limit = limit.min(n);
        let mut i = (self.resume - base) as usize;
        let (resume, keep) = loop {
            if i >= limit {
                break (limit, limit);
            }
            // The hot loop: only '<' matters. Whether it stands inside an
            // ISO-2022-JP two-byte run is asked only of candidates (rule 8,
            // in `follow`), so plain text pays nothing for it.
            let p = if self.naked.is_none() {
                match self.skip.find(&buf[i..limit]) {
                    None => break (limit, limit),
                    Some(k) => i + k,
                }
            } else {
                match self.next_lt(buf, base, i, limit, eof, emit) {
                    Next::Lt(p) => p,
                    Next::End => break (limit, limit),
                    Next::Wait(c) => break (c, c),
                }
            };
            let follow = match self.opening(buf, p, eof) {
                Ok((q, known)) => {
                    // Naked URLs before this candidate come first (offset
                    // order, and line numbers counted forward), and need
                    // nothing after it: their text stops at a '<'. Most
                    // '<' open no candidate and cost the naked pass nothing.
                    if self
                        .naked
                        .as_ref()
                        .is_some_and(|nk| nk.pending(base + p as u64))
                        && !self.naked_to(buf, base, p, eof, emit)
                    {
                        break (p, p);
                    }
                    self.follow_from(buf, base, p, q, known, eof)
                }
                Err(f) => f,
            };
            match follow {
                Follow::NotCandidate => i = p + 1,
                Follow::NeedMore => {
                    // The naked pass must not keep more than the candidate.
                    if self.naked.is_some() {
                        self.naked_to(buf, base, p, eof, emit);
                    }
                    break (p, p);
                }
                Follow::Abandoned(why, end) => {
                    if self.cfg.rejected {
                        self.make(base, p, end, Some(Rejection::Unclosed(why)));
                        emit(&mut self.out);
                    }
                    i = p + 1;
                }
                Follow::Closed(end) => {
                    let valid = self.validate(base, p, end, emit);
                    if valid {
                        if let Some(nk) = &mut self.naked {
                            nk.hide(base + end as u64);
                        }
                    }
                    // A closed candidate holds no '<' and no ESC: resuming
                    // after it loses nothing. A rejected one may hold an ESC.
                    i = if valid { end } else { p + 1 };
                }
            }
        };
        let keep = if self.naked.is_some() && keep == limit && resume == limit {
            // The naked candidates up to the limit (one may need more input).
            self.naked_to(buf, base, limit, eof, emit);
            keep
        } else {
            keep
        };
        self.resume = base + resume as u64;
        match &self.naked {
            Some(nk) => keep.min((nk.keep_from().max(base) - base) as usize),
            None => keep,
        }
    }

    /// With naked URLs on: the next `<` from `i` (relative) before `limit`,
    /// the naked pass taking the colons on the way (see
    /// [`Naked::find_lt`]); `Wait(c)` when the candidate at colon `c` needs
    /// more input.
    fn next_lt(
        &mut self,
        buf: &[u8],
        base: u64,
        mut i: usize,
        limit: usize,
        eof: bool,
        emit: &mut dyn FnMut(&mut Match),
    ) -> Next {
        loop {
            let Some(nk) = &mut self.naked else {
                return Next::End;
            };
            let from = match nk.find_lt(buf, base, i, limit, eof) {
                Found::Lt(p) => return Next::Lt(p),
                Found::End => return Next::End,
                Found::Colon(c) => {
                    // Its scheme starts before `c + 1`, and nothing after
                    // it (no `<`) is needed to decide it.
                    if !self.naked_to(buf, base, c + 1, eof, emit) {
                        return Next::Wait(c);
                    }
                    i = c + 1;
                    continue;
                }
                Found::Plain(j) => j,
            };
            return match self.skip.find(&buf[from..limit]) {
                None => Next::End,
                Some(k) => Next::Lt(from + k),
            };
        }
    }

    /// The text from decoded offset `d` on is in `charset` (rule 23; the
    /// MIME reader says so where a part declares one). Only the naked
    /// pass asks.
    pub(crate) fn charset_from(&mut self, d: u64, charset: Option<crate::multibyte::Multibyte>) {
        if let Some(nk) = &mut self.naked {
            nk.charset_from(d, charset);
        }
    }

    /// Runs the naked pass over the candidates whose scheme starts before
    /// `upto` (relative), emitting them; false when one needs more input.
    fn naked_to(
        &mut self,
        buf: &[u8],
        base: u64,
        upto: usize,
        eof: bool,
        emit: &mut dyn FnMut(&mut Match),
    ) -> bool {
        loop {
            let Some(nk) = &mut self.naked else {
                return true;
            };
            match nk.step(buf, base, upto, eof) {
                Step::Done => return true,
                Step::NeedMore => return false,
                Step::Found {
                    s,
                    t,
                    rejection,
                    parts,
                } => {
                    // Rule 23: ISO-2022-JP two-byte text holds no URL.
                    self.count_lines(buf, base, s);
                    if self.line_state(buf, base, s).1 {
                        continue;
                    }
                    self.make_naked(buf, base, s, t, rejection);
                    self.out.parsed.0 = parts;
                    emit(&mut self.out);
                }
            }
        }
    }

    /// Fills [`Engine::out`] with the naked candidate at `s..t` (absolute).
    fn make_naked(&mut self, buf: &[u8], base: u64, s: u64, t: u64, rejection: Option<Rejection>) {
        self.count_lines(buf, base, s);
        let m = &mut self.out;
        m.bytes.clear();
        m.bytes
            .extend_from_slice(&buf[(s - base) as usize..(t - base) as usize]);
        m.alternative = None;
        m.form = Form::Naked;
        m.offset = s;
        m.end = t;
        m.line = self.count.line;
        m.column = s - self.count.line_start + 1;
        m.spans.clear();
        m.spans.push(Span { start: s, end: t });
        m.broken = false;
        m.quoted = false;
        m.hyphen = None;
        m.policy = self.cfg.policy;
        m.rejection = rejection;
        self.drop_parse();
    }

    /// For a caller that drops the window's bytes before a later call (a
    /// stream): accounts for them (line numbers, the last line's quote
    /// prefix and two-byte state) up to the first byte still needed, which
    /// it returns (absolute). `keep` is what [`Engine::scan`] returned; an
    /// escape sequence that `keep` would cut (by the end of the window, or
    /// a naked candidate's start) is kept whole, so that the two-byte state
    /// never sees half of one: at most 2 bytes more than `keep` asks. A
    /// one-shot scan needs none of this.
    pub(crate) fn settle(&mut self, buf: &[u8], base: u64, eof: bool, keep: usize) -> u64 {
        let mut retain = keep;
        if !eof {
            if let Some(k) = memrchr(ESC, &buf[keep.saturating_sub(2)..keep]) {
                retain = keep.saturating_sub(2) + k;
            }
        }
        let retain = base + retain as u64;
        self.count_lines(buf, base, retain);
        if self.count.line_start < retain {
            self.line_state(buf, base, retain);
        }
        retain
    }

    /// The 1-based line of absolute offset `at` (in `buf`, and at or
    /// after where the window the engine keeps starts): counted forward,
    /// or back from where counting got.
    pub(crate) fn line_at(&mut self, buf: &[u8], base: u64, at: u64) -> u64 {
        if at >= self.count.counted {
            self.count_lines(buf, base, at);
            return self.count.line;
        }
        let from = (at.max(base) - base) as usize;
        let to = ((self.count.counted - base) as usize).min(buf.len());
        self.count.line - bytecount::count(&buf[from.min(to)..to], b'\n') as u64
    }

    /// Counts line feeds up to absolute offset `to` (which is in `buf`).
    pub(crate) fn count_lines(&mut self, buf: &[u8], base: u64, to: u64) {
        if to <= self.count.counted {
            return;
        }
        let from = (self.count.counted - base) as usize;
        let hay = &buf[from..(to - base) as usize];
        // Counting with SIMD, then one reverse search for the line start:
        // both touch each byte once over the whole input.
        let count = match self.skip.wide {
            Some(wide) => wide.count(hay, b'\n'),
            None => bytecount::count(hay, b'\n'),
        } as u64;
        if count > 0 {
            self.count.line += count;
            if let Some(k) = memrchr(b'\n', hay) {
                self.count.line_start = base + (from + k + 1) as u64;
            }
        }
        self.count.counted = to;
    }

    /// The state of the line holding `at` (absolute, in `buf`, after
    /// `count_lines(.., at)`) just before `at`: its reply-quote prefix and
    /// whether an ISO-2022-JP two-byte run is open. Both are built from the
    /// line start and cached per line, so each byte is fed once.
    fn line_state(&mut self, buf: &[u8], base: u64, at: u64) -> (QuotePrefix, bool) {
        if !self.state.prefix_valid || self.state.prefix_line != self.count.line_start {
            self.state.prefix = QuotePrefix::default();
            self.state.prefix_line = self.count.line_start;
            self.state.prefix_valid = true;
            // A line that began before this window was fed up to the
            // window's start when that window was dropped.
            self.state.prefix_fed = self.count.line_start.max(base);
            self.state.jis = false;
            self.state.jis_fed = self.state.prefix_fed;
        }
        let slice = |from: u64| &buf[(from.max(base) - base) as usize..(at - base) as usize];
        if !self.state.prefix.done && self.state.prefix_fed < at {
            self.state.prefix.feed(slice(self.state.prefix_fed));
            self.state.prefix_fed = at;
        }
        if self.state.jis_fed < at {
            let bytes = slice(self.state.jis_fed);
            // With the wide search the engine found at its start (no CPU
            // check per candidate).
            let wide = self.skip.wide;
            let has_esc = || match wide {
                Some(wide) => wide.find(bytes, ESC).is_some(),
                None => memchr(ESC, bytes).is_some(),
            };
            if self.state.jis || has_esc() {
                self.state.jis = jis_after(self.state.jis, bytes);
            }
            self.state.jis_fed = at;
        }
        (self.state.prefix, self.state.jis)
    }
}

impl Engine {
    /// Rule 1 at the `<` at `p`: `URL:` (any case) or a scheme name and
    /// ':', at once. Returns where the candidate's text starts and how far
    /// it is already known to be candidate text (the scheme name just
    /// checked, so the first run need not read it again).
    #[inline(always)]
    fn opening(&mut self, buf: &[u8], p: usize, eof: bool) -> Result<(usize, usize), Follow> {
        let n = buf.len();
        let max_end = p.saturating_add(self.cfg.limits.max_bytes);
        let q = p + 1;
        let wrapped = if n - q >= 4 {
            buf[q..q + 4].eq_ignore_ascii_case(b"URL:")
        } else if !eof && buf[q..].eq_ignore_ascii_case(&b"URL:"[..n - q]) {
            return Err(Follow::NeedMore);
        } else {
            false
        };
        self.follow.wrapped = wrapped;
        if wrapped {
            return Ok((q + 4, q + 4));
        }
        let k = q + crate::class::scheme_run(&buf[q..n.min(max_end)]);
        if k >= max_end {
            return Err(Follow::NotCandidate);
        }
        if k == n {
            return Err(if eof {
                Follow::NotCandidate
            } else {
                Follow::NeedMore
            });
        }
        if k == q || buf[k] != b':' {
            return Err(Follow::NotCandidate);
        }
        Ok((q, k))
    }

    /// Follows the candidate that [`Engine::opening`] found at the `<` at
    /// `p` (rules 2 to 5 and 8 of the contract), collecting its text in
    /// `self.joined`, its source pieces in `self.pieces` and its hyphen
    /// breaks in `self.hyphens`.
    fn follow_from(
        &mut self,
        buf: &[u8],
        base: u64,
        p: usize,
        q: usize,
        known: usize,
        eof: bool,
    ) -> Follow {
        let max_end = p.saturating_add(self.cfg.limits.max_bytes);
        let wrapped = self.follow.wrapped;
        // Rule 4 needs the opening line's quote prefix; rule 8 whether the
        // '<' stands in a two-byte run (then it is no '<' at all).
        self.count_lines(buf, base, base + p as u64);
        let (prefix, jis) = self.line_state(buf, base, base + p as u64);
        if jis {
            return Follow::NotCandidate;
        }

        self.joined.clear();
        self.pieces.clear();
        self.hyphens.clear();
        self.follow.lines = 0;
        self.follow.quoted = false;
        match self.follow_text(buf, base, q, known, wrapped, prefix, max_end, eof) {
            Ok(end) | Err(end) => end,
        }
    }

    /// Rules 2 to 5 from `q`, the first byte of the candidate's text (known
    /// to be text up to `known`): collects it until the closing `>` or
    /// whatever abandons it. Every loop
    /// stops at the bound (see [`skip`]), so what is decided does not depend
    /// on how much input lies beyond it.
    #[allow(clippy::too_many_arguments)]
    fn follow_text(
        &mut self,
        buf: &[u8],
        base: u64,
        mut q: usize,
        mut known: usize,
        wrapped: bool,
        prefix: QuotePrefix,
        max_end: usize,
        eof: bool,
    ) -> Result<Follow, Follow> {
        let n = buf.len();
        loop {
            // A run of candidate text (rule 3: no whitespace, no '<' '>').
            let start = q;
            let end = skip(buf, known.max(q), class::text_run, max_end, eof);
            known = 0;
            let q_end = match end {
                Ok(e) => e,
                Err(_) => n.min(max_end),
            };
            if q_end > start {
                self.joined.extend_from_slice(&buf[start..q_end]);
                self.pieces.push(Span {
                    start: base + start as u64,
                    end: base + q_end as u64,
                });
            }
            q = end?;
            match buf[q] {
                b'>' => return Ok(Follow::Closed(q + 1)),
                b'<' => return Ok(Follow::Abandoned(Unclosed::LessThan, q)),
                _ => {}
            }
            // Whitespace: blanks, then maybe a line feed.
            let r = skip(buf, q, class::blank_run, max_end, eof)?;
            if buf[r] != b'\n' {
                // Blanks inside one line: ignored only in the wrapped form.
                if !wrapped {
                    return Ok(Follow::Abandoned(Unclosed::Blank, r));
                }
                q = r;
                continue;
            }
            self.follow.lines += 1;
            if self.follow.lines > self.cfg.limits.max_lines {
                return Ok(Follow::Abandoned(Unclosed::TooManyLines, r));
            }
            // Rule 5: a break right after '-' leaves the hyphen open.
            if self.joined.last() == Some(&b'-') {
                self.hyphens.push(self.joined.len() - 1);
            }
            q = r + 1;
            // Rule 4: drop up to the opening line's depth of quote marks.
            let mut stripped = 0;
            while stripped < prefix.depth {
                let h = skip(buf, q, class::hspace_run, max_end, eof)?;
                if !prefix.is_mark(buf[h]) {
                    // The spaces before it are blanks: not read again.
                    q = h;
                    break;
                }
                q = h + 1;
                stripped += 1;
            }
            self.follow.quoted |= stripped > 0;
            q = skip(buf, q, class::blank_run, max_end, eof)?;
            if buf[q] == b'\n' {
                return Ok(Follow::Abandoned(Unclosed::BlankLine, q));
            }
        }
    }
}

/// Skips the run of one class from `q` (`run` measures it: one of
/// `class::text_run`, `blank_run`, `hspace_run`) in a candidate that may
/// not reach `max_end`. It stops at the bound whatever lies beyond, so a decision
/// never depends on how much of the input the window holds: `Err` when the
/// bound comes first (`TooLong`) or the window's end (`NeedMore`, or
/// `EndOfInput` when nothing follows).
#[inline(always)]
fn skip(
    buf: &[u8],
    mut q: usize,
    run: impl Fn(&[u8]) -> usize,
    max_end: usize,
    eof: bool,
) -> Result<usize, Follow> {
    let stop = buf.len().min(max_end);
    if q < stop {
        q += run(&buf[q..stop]);
    }
    if q == max_end {
        Err(Follow::Abandoned(Unclosed::TooLong, max_end))
    } else if q == buf.len() {
        Err(if eof {
            Follow::Abandoned(Unclosed::EndOfInput, q)
        } else {
            Follow::NeedMore
        })
    } else {
        Ok(q)
    }
}

/// Most parses the hyphen rule may spend on one candidate: the search is
/// guided by the parser's error offsets and needs about one parse per
/// hyphen break on real text, so this only stops hostile input from
/// multiplying readings.
const HYPHEN_BUDGET: usize = 64;

impl Engine {
    /// Validates the closed candidate at `p..end` (rules 5 to 7) and emits
    /// it if it is a URL (or if rejected candidates are asked for).
    /// Returns whether it is a URL.
    fn validate(
        &mut self,
        base: u64,
        p: usize,
        end: usize,
        emit: &mut dyn FnMut(&mut Match),
    ) -> bool {
        let policy = self.cfg.policy;
        if self.hyphens.is_empty() {
            // (The parts boxed before `make`, so that they need not be
            // held across it. A reading the hyphen rule chose is parsed
            // again if asked.)
            let keep = self.cfg.keep_parse;
            return match Url::check_keeping(&self.joined, policy, keep, &mut self.spare_parse) {
                Ok(kept) => {
                    self.make(base, p, end, None);
                    self.out.parsed.0 = kept;
                    emit(&mut self.out);
                    true
                }
                Err(e) => self.reject(base, p, end, e, None, emit),
            };
        }
        match self.hyphen_search() {
            Ok(drops) => {
                let k = self.hyphens.len();
                let decision = match drops.len() {
                    0 => Hyphen::Kept,
                    d if d == k => Hyphen::Dropped,
                    _ => Hyphen::Mixed,
                };
                // `reading` holds the chosen reading (the search's last
                // parse). With every hyphen kept it is the joined text,
                // which `make` takes, and the alternative is every hyphen
                // dropped, when that reading is valid too.
                let alternative = if drops.is_empty() {
                    self.build_reading(0..k);
                    Url::check(&self.reading, policy)
                        .ok()
                        .map(|_| self.reading.clone())
                } else {
                    None
                };
                self.make(base, p, end, None);
                let m = &mut self.out;
                if !drops.is_empty() {
                    std::mem::swap(&mut m.bytes, &mut self.reading);
                }
                m.hyphen = Some(decision);
                m.alternative = alternative;
                emit(m);
                true
            }
            Err(e) => self.reject(base, p, end, e, Some(Hyphen::Kept), emit),
        }
    }

    /// The candidate at `p..end` is no URL (`e`): reported only to a
    /// scanner that asks for rejected candidates. Returns `false`.
    fn reject(
        &mut self,
        base: u64,
        p: usize,
        end: usize,
        e: ParseError,
        hyphen: Option<Hyphen>,
        emit: &mut dyn FnMut(&mut Match),
    ) -> bool {
        if self.cfg.rejected {
            self.make(base, p, end, Some(Rejection::Invalid(e)));
            self.out.hyphen = hyphen;
            emit(&mut self.out);
        }
        false
    }

    /// The first valid reading in the contract's order of preference
    /// (earlier hyphens weigh more, keeping before dropping): a depth-first
    /// search that only flips hyphens standing before the parser's error
    /// offset, since a reading that fails there fails whatever follows.
    /// Returns the indices of the hyphens to drop, or the error of the
    /// hyphen-kept reading.
    ///
    /// At most [`HYPHEN_BUDGET`] readings are parsed and at most that many
    /// are ever queued, each holding only its dropped hyphens: a candidate
    /// with a million hyphen breaks costs a bounded number of parses.
    fn hyphen_search(&mut self) -> Result<Vec<usize>, ParseError> {
        let policy = self.cfg.policy;
        // Each node: hyphens before `from` decided (`drops` lists the
        // dropped ones, ascending), the rest kept.
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(0, Vec::new())];
        let mut first_error: Option<ParseError> = None;
        let mut budget = HYPHEN_BUDGET;
        while let Some((from, drops)) = stack.pop() {
            if budget == 0 {
                break;
            }
            budget -= 1;
            self.build_reading(drops.iter().copied());
            let err = match Url::check(&self.reading, policy) {
                Ok(_) => return Ok(drops),
                Err(e) => e,
            };
            first_error.get_or_insert(err);
            // Map the error offset back to the joined text.
            let mut at = err.offset();
            for &j in &drops {
                if self.hyphens[j] <= at {
                    at += 1;
                }
            }
            // Children: keep from..m, drop m, for the hyphens up to the
            // error; pushed so that the largest m (the longest kept prefix,
            // the preferred reading) pops first. Only as many as could
            // still be parsed are queued.
            let last = self.hyphens[from..].partition_point(|&h| h <= at) + from;
            let first = last.saturating_sub(budget).max(from);
            for m in first..last {
                let mut child = drops.clone();
                child.push(m);
                stack.push((m + 1, child));
            }
            if stack.len() > budget {
                stack.drain(..stack.len() - budget);
            }
        }
        // The first node (all kept) is always parsed: there is an error.
        Err(first_error.expect("the all-kept reading is parsed first"))
    }

    /// Writes into `self.reading` the joined text without the hyphens whose
    /// indices `drops` gives (ascending).
    fn build_reading(&mut self, drops: impl IntoIterator<Item = usize>) {
        self.reading.clear();
        let mut from = 0;
        for j in drops {
            let h = self.hyphens[j];
            self.reading.extend_from_slice(&self.joined[from..h]);
            from = h + 1;
        }
        self.reading.extend_from_slice(&self.joined[from..]);
    }

    /// Builds the match for the candidate at `p..end` from the scratch state.
    /// Fills the reusable [`Engine::out`] with the candidate at `p..end`:
    /// its buffers are kept from match to match, so a caller that only
    /// looks at each match (the command's printer) allocates nothing.
    fn make(&mut self, base: u64, p: usize, end: usize, rejection: Option<Rejection>) {
        let offset = base + p as u64;
        let m = &mut self.out;
        // Swapped, not copied: `joined` and `pieces` are cleared before
        // the next candidate anyway.
        std::mem::swap(&mut m.bytes, &mut self.joined);
        m.alternative = None;
        m.form = if self.follow.wrapped {
            Form::Wrapped
        } else {
            Form::Bracketed
        };
        m.offset = offset;
        m.end = base + end as u64;
        m.line = self.count.line;
        m.column = offset - self.count.line_start + 1;
        std::mem::swap(&mut m.spans, &mut self.pieces);
        m.encoding = None;
        m.content_type = None;
        m.charset = None;
        m.forwarded = None;
        m.message = None;
        m.broken = self.follow.lines > 0;
        m.quoted = self.follow.quoted;
        m.hyphen = None;
        m.policy = self.cfg.policy;
        m.rejection = rejection;
        self.drop_parse();
    }

    /// Takes the parse the last match kept (its box kept for a later one).
    fn drop_parse(&mut self) {
        if let Some(b) = self.out.parsed.0.take() {
            self.spare_parse = Some(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scanner::extract;
    use crate::settings::Limits;
    use crate::url::Policy;

    /// Without the count to the piece's end, the matches and their line
    /// numbers are the same; the count stops at the last match.
    #[test]
    fn lines_past_the_last_match_counted_only_on_request() {
        let piece = b"a\n> b <URL:http://x.y/\n> z> c\n<ftp://h/p>\nd\ne\nf\n";
        let s = Scanner::new();
        let ctx = PieceContext::default();
        let mut full = Vec::new();
        let n = s.scan_piece_counting(piece, piece.len(), true, &ctx, true, &mut |m| {
            full.push((m.as_str().into_owned(), m.line(), m.column()))
        });
        assert_eq!(n, 7);
        let mut lazy = Vec::new();
        let k = s.scan_piece_counting(piece, piece.len(), true, &ctx, false, &mut |m| {
            lazy.push((m.as_str().into_owned(), m.line(), m.column()))
        });
        assert_eq!(full, lazy);
        assert_eq!(full.len(), 2);
        assert_eq!(full[1].1, 4, "the second match is on line 4");
        assert_eq!(k, 3, "line feeds before the last match's line");
    }

    /// The 16-byte text run and the byte table agree on every byte (rule 3).
    #[test]
    fn text_run_is_the_text_class() {
        for b in 0..=255u8 {
            let block = [b; 20];
            let want = if class::is(b, class::TEXT) { 20 } else { 0 };
            assert_eq!(class::text_run(&block), want, "{b:#x}");
            assert_eq!(class::text_run(&block[..3]), want.min(3), "{b:#x}");
        }
    }

    /// `text_run` stops at whitespace, `<` and `>` only (the contract's
    /// rule 3; RFC 1738 Appendix: whitespace in a wrapped URL is ignored),
    /// at every position of a block and of the tail.
    #[test]
    fn text_run_stops_at_blanks_and_brackets() {
        let stops = b" \t\r\x0c\n<>";
        crate::class::tests::agrees(
            class::text_run,
            |c| !stops.contains(&c),
            b"h/:?%~=;\x0b\x80\xff-",
        );
    }

    fn urls(text: &str) -> Vec<String> {
        extract(text.as_bytes())
            .iter()
            .map(|m| m.as_str().into_owned())
            .collect()
    }

    #[test]
    fn rule1_wrapped_and_bracketed_forms() {
        assert_eq!(urls("a <URL:http://a.b/> b"), ["http://a.b/"]);
        assert_eq!(urls("a <url:http://a.b/> b"), ["http://a.b/"]);
        assert_eq!(urls("a <URL:\n  http://a.b/> b"), ["http://a.b/"]);
        assert_eq!(urls("a <http://a.b/> b"), ["http://a.b/"]);
        let m = &extract(b"x <URL:news:*>")[0];
        assert_eq!(m.form(), Form::Wrapped);
        assert_eq!((m.offset(), m.line(), m.column()), (2, 1, 3));
    }

    #[test]
    fn rule1_not_candidates() {
        for text in ["<a@b.org>", "a < b", "<b>", "<>", "< http://a.b/>", "<:x>"] {
            assert!(urls(text).is_empty(), "{text:?}");
        }
    }

    #[test]
    fn rule2_abandoned_candidate_does_not_hide_later_urls() {
        assert_eq!(urls("<URL:http://a.b/ <http://c.d/>"), ["http://c.d/"]);
        assert_eq!(urls("<URL:http://a.b/\n\n<http://c.d/>"), ["http://c.d/"]);
        assert!(urls("<URL:http://a.b/").is_empty());
    }

    #[test]
    fn rule3_whitespace_wrapped_vs_bracketed() {
        // Appendix: "The whitespace should be ignored when extracting the URL".
        assert_eq!(
            urls("<URL:ftp://ds.in\nternic.net/rfc>"),
            ["ftp://ds.internic.net/rfc"]
        );
        assert_eq!(urls("<URL:http://a. b/>"), ["http://a.b/"]);
        assert_eq!(urls("<http://a.\r\n   b/>"), ["http://a.b/"]);
        assert!(urls("<http://a. b/>").is_empty());
        assert!(urls("<Re: hello>").is_empty());
        assert!(urls("map<std::string, int>").is_empty());
    }

    #[test]
    fn rule4_reply_quoting() {
        assert_eq!(urls("> see <URL:http://a.b/x\n> y/>"), ["http://a.b/xy/"],);
        assert_eq!(urls(">> <http://a.b/x\n> > y/>"), ["http://a.b/xy/"]);
        assert_eq!(urls("| <http://a.b/x\n| y/>"), ["http://a.b/xy/"]);
        // A re-wrapped, shallower quote is fine; the '>' after the marks closes.
        assert_eq!(urls(">> <http://a.b/x\n> y/>"), ["http://a.b/xy/"]);
        assert_eq!(urls("> <http://a.b/x\n> >"), ["http://a.b/x"]);
        let m = &extract(b"> <http://a.b/x\n> y>")[0];
        assert!(m.is_quoted() && m.is_broken());
    }

    #[test]
    fn rule5_hyphen_rule() {
        // Both readings valid: the hyphen-kept one, with the other as alternative.
        let m = &extract(b"<URL:http://www.ex-\nample.com/>")[0];
        assert_eq!(m.as_str(), "http://www.ex-ample.com/");
        assert_eq!(m.alternative().as_deref(), Some("http://www.example.com/"));
        assert_eq!(m.hyphen(), Some(Hyphen::Kept));
        // Only the dropped reading is valid (a label cannot end with '-').
        let m = &extract(b"<URL:http://www.example-\n.com/>")[0];
        assert_eq!(m.as_str(), "http://www.example.com/");
        assert_eq!(m.hyphen(), Some(Hyphen::Dropped));
        assert!(!m.is_ambiguous());
        // Several breaks: the preferred reading keeps the earliest hyphens.
        let m = &extract(b"<URL:http://a-\nb.c-\n.d/>")[0];
        assert_eq!(m.as_str(), "http://a-b.c.d/");
        assert_eq!(m.hyphen(), Some(Hyphen::Mixed));
    }

    #[test]
    fn rule5_many_hyphen_breaks_cost_bounded_parses() {
        // 20,000 hyphen breaks in one wrapper (limits raised so it is
        // followed at all): the search must not branch per break.
        let s = Scanner::new().limits(Limits {
            max_bytes: 1 << 20,
            max_lines: 1 << 20,
        });
        let mut text = b"<URL:http://x.example/".to_vec();
        text.extend(b"a-\n".repeat(20_000));
        text.extend_from_slice(b"b> <URL:http://h");
        text.extend(b"-\n".repeat(20_000));
        text.extend_from_slice(b".example/> <http://after.example/>");
        let found = s.extract(&text);
        assert_eq!(found.len(), 2);
        assert!(found[0].as_str().starts_with("http://x.example/a-a-"));
        assert_eq!(found[0].hyphen(), Some(Hyphen::Kept));
        assert!(found[0].is_ambiguous());
        // Only dropping all 20,000 hyphens would do: out of reach, so invalid.
        assert_eq!(found[1].as_str(), "http://after.example/");
    }

    #[test]
    fn rule6_fragment_stays_with_its_url() {
        assert_eq!(
            urls("<URL:http://ds.internic.\nnet/instructions/overview.html#WARNING>"),
            ["http://ds.internic.net/instructions/overview.html#WARNING"]
        );
    }

    #[test]
    fn rule7_policies() {
        let text = b"<http://a.b/~x>";
        assert_eq!(extract(text).len(), 1);
        assert!(Scanner::new()
            .policy(Policy::Strict)
            .extract(text)
            .is_empty());
        let rejected = Scanner::new()
            .policy(Policy::Strict)
            .rejected(true)
            .extract(text);
        assert!(matches!(
            rejected[0].rejection(),
            Some(Rejection::Invalid(_))
        ));
        // User info in http stays invalid under both (section 6 disguise).
        assert!(urls("<http://bank.example@evil.example/>").is_empty());
    }

    #[test]
    fn rule8_iso_2022_jp_two_byte_runs() {
        let mut text = b"\x1b$B<http://a.b/>\x1b(B <http://c.d/>".to_vec();
        assert_eq!(Scanner::new().extract(&text).len(), 1);
        text.extend_from_slice(b"\n\x1b$B$3\n<http://e.f/>");
        assert_eq!(Scanner::new().extract(&text).len(), 2);
    }

    #[test]
    fn limits_abandon_and_resume() {
        let s = Scanner::new().limits(Limits {
            max_bytes: 32,
            max_lines: 1,
        });
        let long = format!("<URL:http://a.b/{}> <http://c.d/>", "x".repeat(40));
        assert_eq!(s.extract(long.as_bytes()).len(), 1);
        assert!(s.extract(b"<URL:http://a\n.b\n/>").is_empty());
    }

    #[test]
    fn scan_piece_reports_only_before_limit() {
        let text = b"<http://a.b/>\n<http://c.d/>\n";
        let (found, lines) = Scanner::new().scan_piece(text, 14, false);
        assert_eq!(found.len(), 1);
        assert_eq!(lines, 1);
    }
}
