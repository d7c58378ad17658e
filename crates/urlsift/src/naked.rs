//! Naked URLs, on request: contract rules 14 to 17.
//!
//! A naked candidate starts at a scheme name and `:` (the whole run of
//! scheme bytes before the `:`, not preceded by one), for one of the ten
//! schemes of RFC 1738 or any scheme followed by `//`, unless it stands
//! inside a `<...>` candidate that rules 1-9 reported or inside a naked URL
//! already reported. It runs to the first byte no URL may hold (rule 15),
//! never past a line end; then trailing `. , ; : ! ? ' *` are dropped, and
//! a trailing `)` while the URL holds more `)` than `(`. What is left is
//! validated by [`Url::parse_with`] (rule 16).
//!
//! The pass works on a window of *text* with absolute positions, so it can
//! run over decoded text whose positions map back to raw bytes (rule 17).
//! Time is linear: each colon is looked at once, the backward walk over a
//! scheme name stops at the previous colon, the run end and the bracket
//! counts of a run are computed once and shared by every candidate in it
//! (a candidate only moves a cursor forward), and the trailing bytes of a
//! run are walked once, after which each candidate's end is a binary
//! search. A candidate longer than [`crate::Limits::max_bytes`] is
//! abandoned, like a bracketed one, so a decision never needs more than
//! that many bytes and memory stays bounded.

use crate::error::{ErrorKind, ParseError};
use std::collections::VecDeque;

use crate::matches::{Rejection, Unclosed};
use crate::multibyte::{escape_final, Multibyte};
use crate::settings::Scanner;
use crate::url::{Parts, Policy, Url};
use crate::wide::Skip;

/// The ten schemes of RFC 1738 (matched in any case): naked without `//`.
const TEN: [&[u8]; 10] = [
    b"http",
    b"ftp",
    b"gopher",
    b"mailto",
    b"news",
    b"nntp",
    b"telnet",
    b"wais",
    b"file",
    b"prospero",
];

/// Bytes a naked URL may hold (rule 15): not whitespace, control or
/// non-ASCII, not `<` `>` `"`, not the unsafe `{ } | \ ^ [ ]` and backquote,
/// and `~` only under the lenient policy.
const fn run_table(tilde: bool) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0x21;
    while b < 0x7f {
        t[b] = !matches!(
            b as u8,
            b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'[' | b']' | b'`'
        ) && (tilde || b as u8 != b'~');
        b += 1;
    }
    t
}

static RUN_LENIENT: [bool; 256] = run_table(true);
static RUN_STRICT: [bool; 256] = run_table(false);

/// Whether `b` may stand in a scheme name.
#[inline(always)]
fn is_scheme(b: u8) -> bool {
    crate::class::is(b, crate::class::SCHEME)
}

/// The trailing bytes dropped one at a time (rule 15).
#[inline]
fn is_trailing(b: u8) -> bool {
    matches!(b, b'.' | b',' | b';' | b':' | b'!' | b'?' | b'\'' | b'*')
}

/// What one step of the pass found.
#[derive(Debug)]
pub(crate) enum Step {
    /// No candidate starts before the point asked for.
    Done,
    /// A candidate needs bytes past the window (and more may come).
    NeedMore,
    /// A decided candidate: its bytes `s..t` (absolute), and why it is no
    /// URL (only reported when rejected candidates are wanted) or what the
    /// parser read of it.
    Found {
        s: u64,
        t: u64,
        rejection: Option<Rejection>,
        parts: Option<Box<Parts>>,
    },
}

/// The run of naked-URL bytes the last candidates were in: how far it is
/// known, and the bracket balance from a cursor to its known end.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// Cursor: the start of the last candidate looked at (or the pass's
    /// position); `net` is `)` minus `(` over `at..hi` once `counted`.
    at: u64,
    net: i64,
    /// The balance is counted only when a candidate ends in `)`, as few
    /// do; from then on it is kept up as the cursor and the end move.
    counted: bool,
    /// Bytes `at..hi` are all run bytes.
    hi: u64,
    /// `hi` holds a byte that ends the run (or is the end of the input).
    closed: bool,
}

/// The trailing bytes of a run ending at `end`: `lo..end` is all trailing
/// bytes and `)` (or as far back as it was walked), `closes` lists the
/// `)` among them in order.
#[derive(Debug, Default)]
struct Tail {
    end: u64,
    lo: u64,
    closes: Vec<u64>,
}

/// The naked pass's state between windows (see the module doc).
#[derive(Debug)]
pub(crate) struct Naked {
    run_bytes: &'static [bool; 256],
    policy: Policy,
    rejected: bool,
    /// A URL's parse is handed on, boxed ([`Scanner::keep_parse`]).
    keep_parse: bool,
    max: u64,
    /// Every colon before `pos` has been looked at.
    pos: u64,
    /// Start of the run of scheme bytes that ends at `pos` (`pos` if none).
    scheme_start: u64,
    /// No candidate starts before this: inside a reported `<...>` or naked URL.
    pub(crate) hidden: u64,
    /// No colon in `pos..clear` may start a candidate: the engine's search
    /// for `<` looked at them (see [`Naked::find_lt`]).
    clear: u64,
    run: Option<Run>,
    tail: Tail,
    /// The search for ':' (built once: most searches are short), where
    /// AVX2 is missing.
    colon: Skip,
    /// AVX2 was found at run time: the searches test 32 or 64 bytes at a
    /// time (see `avx2`).
    #[cfg(target_arch = "x86_64")]
    avx2: bool,
    /// Bytes looked at one by one (walks, runs, counts, parses): the
    /// linear-time tests count it.
    work: u64,
    /// The multi-byte charset of the text from each absolute offset on,
    /// in order (rule 23; given by the MIME reader, empty elsewhere).
    charsets: VecDeque<(u64, Option<Multibyte>)>,
}

impl Naked {
    /// A pass under the scanner's settings `cfg` starting at absolute
    /// offset `at`, of which the first `hidden` bytes are hidden;
    /// `scheme_before` says a scheme run of the bytes before `at` reaches
    /// it (a candidate there is not this pass's).
    pub(crate) fn new(cfg: &Scanner, at: u64, hidden: u64, scheme_before: bool) -> Naked {
        let policy = cfg.get_policy();
        Naked {
            run_bytes: match policy {
                Policy::Strict => &RUN_STRICT,
                _ => &RUN_LENIENT,
            },
            policy,
            rejected: cfg.get_rejected(),
            keep_parse: cfg.get_keep_parse(),
            max: cfg.get_limits().max_bytes as u64,
            pos: at,
            // A candidate of the bytes before `at` is theirs: hidden here.
            scheme_start: if scheme_before {
                at.saturating_sub(1)
            } else {
                at
            },
            hidden: at + hidden,
            clear: at,
            run: None,
            tail: Tail::default(),
            colon: Skip::byte(b':'),
            #[cfg(target_arch = "x86_64")]
            avx2: std::is_x86_feature_detected!("avx2") && !tests_want_plain(),
            work: 0,
            charsets: VecDeque::new(),
        }
    }

    /// The text from absolute offset `d` on is in `charset` (rule 23).
    pub(crate) fn charset_from(&mut self, d: u64, charset: Option<Multibyte>) {
        let last = self.charsets.back().and_then(|c| c.1);
        if last == charset {
            return;
        }
        // No candidate to come starts before `keep_from`.
        let keep = self.keep_from();
        while self.charsets.len() >= 2 && self.charsets[1].0 <= keep {
            self.charsets.pop_front();
        }
        self.charsets.push_back((d, charset));
    }

    /// The multi-byte charset at absolute offset `x` (asked in order).
    fn charset_at(&mut self, x: u64) -> Option<Multibyte> {
        while self.charsets.len() >= 2 && self.charsets[1].0 <= x {
            self.charsets.pop_front();
        }
        match self.charsets.front() {
            Some(&(d, c)) if d <= x => c,
            _ => None,
        }
    }

    /// Rule 23: where a scheme run starting at `s` (absolute) really
    /// starts. Its first byte may be the last of a multi-byte character
    /// (only after a non-ASCII byte, in a charset the MIME reader
    /// declared) or the final byte of an ISO-2022-JP escape sequence
    /// (only after an intermediate byte such as `(` or `$`): then it
    /// stands, as its character does, for a byte that is no letter, and
    /// the scheme starts after it. Asked once per candidate.
    #[inline]
    fn start_after_multibyte(&mut self, buf: &[u8], base: u64, s: u64) -> u64 {
        if s <= base {
            return s;
        }
        let i = (s - base) as usize;
        let before = buf[i - 1];
        let inside = if before >= 0x80 {
            self.charset_at(s).is_some_and(|c| c.ends_character(buf, i))
        } else {
            (0x20..=0x2f).contains(&before) && escape_final(buf, i)
        };
        s + inside as u64
    }

    /// The first absolute offset a later step may still read.
    /// Under [`crate::Limits::max_bytes`] before the end of the window when a
    /// candidate waits for more input, as the roll buffer needs.
    pub(crate) fn keep_from(&self) -> u64 {
        // A scheme run reaching `pos` is needed only while a candidate
        // from its start could still fit the bound (see `candidate`).
        if self.pos - self.scheme_start + 3 <= self.max {
            self.scheme_start
        } else {
            self.pos
        }
    }

    /// A `<...>` candidate reported at `p..end` (absolute, `end` past its
    /// `>`) hides what it holds; the pass has looked at every colon before
    /// `p`, and the span holds no naked candidate start, so it moves past it.
    pub(crate) fn hide(&mut self, end: u64) {
        self.hidden = self.hidden.max(end);
        if self.pos < end {
            self.pos = end;
            // The byte before `end` is the `>`.
            self.scheme_start = end;
        }
    }

    /// Moves `pos` to `to` (relative, no candidate's colon in between), keeping
    /// `scheme_start` and the run cursor right.
    fn move_to(&mut self, buf: &[u8], base: u64, to: usize) {
        let from = (self.pos - base) as usize;
        if to <= from {
            return;
        }
        let tail = buf[from..to]
            .iter()
            .rev()
            .take_while(|&&b| is_scheme(b))
            .count();
        if to < buf.len() && !is_scheme(buf[to]) {
            // The run ends here: no later colon's scheme reaches back.
            self.scheme_start = base + to as u64;
        } else if tail < to - from {
            self.scheme_start = base + (to - tail) as u64;
        }
        self.cursor_to(buf, base, base + to as u64);
        self.pos = base + to as u64;
    }

    /// Moves the run cursor forward to `x` (absolute), if the run is still
    /// ahead: the bytes it passes leave the balance.
    fn cursor_to(&mut self, buf: &[u8], base: u64, x: u64) {
        if let Some(r) = &mut self.run {
            if x >= r.hi {
                self.run = None;
            } else if x > r.at {
                if r.counted {
                    let bytes = &buf[(r.at - base) as usize..(x - base) as usize];
                    self.work += bytes.len() as u64;
                    r.net -= net(bytes);
                }
                r.at = x;
            }
        }
    }

    /// The next candidate whose scheme starts before `upto` (relative to
    /// `buf`, which starts at absolute `base`); `eof`: nothing follows `buf`.
    pub(crate) fn step(&mut self, buf: &[u8], base: u64, upto: usize, eof: bool) -> Step {
        let n = buf.len();
        let upto = upto.min(n);
        // A colon after `upto` still belongs here when the scheme run
        // before it starts before `upto` (a piece cut inside a line).
        let reach = if upto < n {
            (upto + crate::class::scheme_run(&buf[upto..]) + 1).min(n)
        } else {
            n
        };
        loop {
            // The colons passed over start nothing, and `pos` need not move
            // past them: the walk back over a scheme stops at a colon, and
            // the run cursor catches up in `candidate`.
            let at = ((self.pos.max(self.clear) - base) as usize).min(reach);
            let Some(c) = self.next_colon(buf, at, reach, eof) else {
                self.move_to(buf, base, upto);
                return Step::Done;
            };
            let from = (self.pos - base) as usize;
            let back = buf[from..c]
                .iter()
                .rev()
                .take_while(|&&b| is_scheme(b))
                .count();
            self.work += back as u64 + 1;
            let s = if back == c - from {
                self.scheme_start
            } else {
                base + (c - back) as u64
            };
            let c_abs = base + c as u64;
            // The window holding the run's first byte owns the candidate
            // (the next one is told a scheme run reaches it), whichever
            // byte rule 23 starts it at.
            if s >= base + upto as u64 {
                self.move_to(buf, base, upto);
                return Step::Done;
            }
            let s = self.start_after_multibyte(buf, base, s);
            let outcome = self.candidate(buf, base, s, c, eof);
            if let Outcome::NeedMore = outcome {
                // Keep only the candidate's bytes: `pos` goes to its start.
                if s > self.pos {
                    self.cursor_to(buf, base, s);
                    self.pos = s;
                    self.scheme_start = s;
                }
                return Step::NeedMore;
            }
            self.cursor_to(buf, base, c_abs + 1);
            self.pos = c_abs + 1;
            self.scheme_start = c_abs + 1;
            match outcome {
                Outcome::Skip | Outcome::NeedMore => {}
                Outcome::Url(t, parts) => {
                    self.hidden = t;
                    return Step::Found {
                        s,
                        t,
                        rejection: None,
                        parts,
                    };
                }
                Outcome::Rejected(t, why) => {
                    if self.rejected {
                        return Step::Found {
                            s,
                            t,
                            rejection: Some(why),
                            parts: None,
                        };
                    }
                }
            }
        }
    }

    /// The engine's search for `<` in `i..limit` (relative to `buf`, at
    /// absolute `base`), which with AVX2 also looks at the colons on the
    /// way: it stops at the first `<` or, before it, at the first colon
    /// that may start a candidate, and the pass need not look at the bytes
    /// before either again. One pass over the text instead of two.
    #[inline]
    pub(crate) fn find_lt(
        &mut self,
        buf: &[u8],
        base: u64,
        i: usize,
        limit: usize,
        eof: bool,
    ) -> Found {
        // The colons before `i` must all have been looked at: `i` is where
        // the last search stopped, or one past the `<` it stopped at.
        let from = self.pos.max(self.clear);
        let at = base + i as u64;
        let seen = from >= at || (from + 1 == at && buf[i - 1] != b':');
        #[cfg(target_arch = "x86_64")]
        if self.avx2 && i >= 2 && seen {
            // SAFETY: the CPU has AVX2 (detected in `Naked::new`).
            let (found, clear) = unsafe { avx2::find_lt(buf, i, limit, eof) };
            self.clear = base + clear as u64;
            return found;
        }
        let _ = (limit, eof, seen);
        Found::Plain(i)
    }

    /// Whether a colon before `x` (absolute) may still start a candidate
    /// the pass has not looked at (see [`Naked::find_lt`]).
    #[inline]
    pub(crate) fn pending(&self, x: u64) -> bool {
        self.clear < x
    }

    /// How many bytes `bytes` starts with that a naked URL may hold.
    #[inline]
    fn run_len(&self, bytes: &[u8]) -> usize {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            let strict = matches!(self.policy, Policy::Strict);
            // SAFETY: the CPU has AVX2 (detected in `Naked::new`).
            return unsafe { avx2::run_len(bytes, strict, self.run_bytes) };
        }
        run_len_by(bytes, self.run_bytes)
    }

    /// The first colon in `at..reach` that may start a candidate (see
    /// [`may_start`]). Most colons (header fields, times) start nothing,
    /// and which do is up to the text: tested one by one, each costs a
    /// mispredicted branch or two, which cost more than the tests.
    #[inline]
    fn next_colon(&self, buf: &[u8], at: usize, reach: usize, eof: bool) -> Option<usize> {
        // The engine's search stops at a colon that may start a candidate
        // (see `find_lt`), and what follows it is short.
        if at < reach && buf[at] == b':' && may_start(buf, at, eof) {
            return Some(at);
        }
        if reach - at.min(reach) < 64 {
            // (A search call costs more than these few bytes.)
            return next_colon_by(|h| h.iter().position(|&b| b == b':'), buf, at, reach, eof);
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the CPU has AVX2 (detected in `Naked::new`).
            return unsafe { avx2::next_colon(buf, at, reach, eof) };
        }
        next_colon_by(|h| self.colon.find(h), buf, at, reach, eof)
    }

    /// Decides the candidate whose scheme runs from `s` (absolute) to the
    /// colon at `c` (relative).
    fn candidate(&mut self, buf: &[u8], base: u64, s: u64, c: usize, eof: bool) -> Outcome {
        let n = buf.len();
        let c_abs = base + c as u64;
        // Rule 14: a scheme name, not hidden; one longer than the bound
        // starts nothing (its candidate could never be decided in bounds).
        // A start past the colon is a colon that ends an escape sequence
        // or a character of rule 23 (`ESC / :`), no scheme's.
        if s >= c_abs || s < self.hidden || c_abs - s + 3 > self.max {
            return Outcome::Skip;
        }
        let si = (s - base) as usize;
        let scheme = &buf[si..c];
        // `//` (the usual case) or one of the ten names.
        if buf.get(c + 1..c + 3) != Some(b"//")
            && !TEN.iter().any(|t| t.eq_ignore_ascii_case(scheme))
        {
            if n < c + 3 && !eof {
                return Outcome::NeedMore;
            }
            return Outcome::Skip;
        }
        // Rule 15: the run, shared with the candidates before in it.
        let bound = s + self.max;
        // A live run holds `s` (when `s` is before its cursor, only scheme
        // bytes lie between: no bracket to count).
        let mut r = match self.run {
            Some(r) if s < r.hi => r,
            _ => Run {
                at: s,
                net: 0,
                counted: false,
                hi: s,
                closed: false,
            },
        };
        if r.at < s {
            if r.counted {
                self.work += s - r.at;
                r.net -= net(&buf[(r.at - base) as usize..si]);
            }
            r.at = s;
        }
        if !r.closed && r.hi < bound {
            let from = (r.hi - base) as usize;
            let to = ((bound - base) as usize).min(n);
            let len = self.run_len(&buf[from..to]);
            self.work += len as u64 + 1;
            if r.counted {
                r.net += net(&buf[from..from + len]);
            }
            r.hi += len as u64;
            r.closed = from + len < to || (from + len == n && eof);
        }
        self.run = Some(r);
        if !r.closed {
            if r.hi >= bound {
                return Outcome::Rejected(r.hi, Rejection::Unclosed(Unclosed::RunTooLong));
            }
            return Outcome::NeedMore;
        }
        // Then the trailing bytes and unbalanced `)`.
        let t = self.trim(buf, base, c_abs, &mut r);
        self.run = Some(r);
        // Rule 16: validation, the fragment split off by the parser.
        let text = &buf[si..(t - base) as usize];
        let after = &text[c + 1 - si..];
        let rest = &after[..memchr::memchr(b'#', after).unwrap_or(after.len())];
        if rest.is_empty() || rest == b"//" {
            let e = ParseError::new(
                c + 1 - si + rest.len(),
                ErrorKind::NothingAfterScheme,
                "naked",
            );
            return Outcome::Rejected(t, Rejection::Invalid(e));
        }
        // The parser reads up to its error (or the whole text).
        match Url::check_keeping(text, self.policy, self.keep_parse, &mut None) {
            Ok(parts) => {
                self.work += text.len() as u64;
                Outcome::Url(t, parts)
            }
            Err(e) => {
                self.work += (e.offset() + 1).min(text.len()) as u64;
                Outcome::Rejected(t, Rejection::Invalid(e))
            }
        }
    }

    /// Where the candidate with colon `c` in the run `r` (from the
    /// candidate's start to the run's end) ends after trimming.
    fn trim(&mut self, buf: &[u8], base: u64, c: u64, r: &mut Run) -> u64 {
        let end = r.hi;
        let floor = c + 1;
        if self.tail.end != end {
            // Walked once per run end: back over trailing bytes and `)`,
            // not past this (the run's first) candidate's colon.
            self.tail.end = end;
            self.tail.closes.clear();
            let mut lo = end;
            while lo > floor {
                self.work += 1;
                let b = buf[(lo - 1 - base) as usize];
                if b == b')' {
                    self.tail.closes.push(lo - 1);
                } else if !is_trailing(b) {
                    break;
                }
                lo -= 1;
            }
            self.tail.lo = lo;
            self.tail.closes.reverse();
        }
        let lo = self.tail.lo.max(floor);
        let first = self.tail.closes.partition_point(|&x| x < lo);
        if first == self.tail.closes.len() {
            return lo;
        }
        if !r.counted {
            let bytes = &buf[(r.at - base) as usize..(r.hi - base) as usize];
            self.work += bytes.len() as u64;
            r.net = net(bytes);
            r.counted = true;
        }
        let net = r.net;
        let closes = &self.tail.closes[first..];
        // In `lo..end` there is no `(`: from `lo` on, the balance only
        // grows by one at each `)`. The `)` number m (from 1) is kept
        // when the balance up to it is not positive.
        let before = net - closes.len() as i64;
        let keep = -before;
        if keep >= 1 && !closes.is_empty() {
            let m = (keep as usize).min(closes.len());
            closes[m - 1] + 1
        } else {
            lo
        }
    }
}

#[cfg(test)]
thread_local! {
    /// The tests turn AVX2 off, to compare with the plain searches.
    static PLAIN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the tests asked for the plain searches (see `PLAIN`).
#[cfg(target_arch = "x86_64")]
fn tests_want_plain() -> bool {
    #[cfg(test)]
    return PLAIN.with(|p| p.get());
    #[cfg(not(test))]
    false
}

/// What [`Naked::find_lt`] found (positions relative to the buffer).
#[derive(Debug)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) enum Found {
    /// The first `<`, with no colon before it that may start a candidate.
    Lt(usize),
    /// A colon that may start a candidate, before any `<`.
    Colon(usize),
    /// Neither, up to the limit.
    End,
    /// Neither before this; the rest is for the plain search for `<` (and
    /// the pass looks at its colons itself).
    Plain(usize),
}

/// How one candidate was decided.
enum Outcome {
    /// Not a candidate (rule 14).
    Skip,
    /// Needs bytes past the window.
    NeedMore,
    /// A URL ending at this absolute offset, and what the parser read of
    /// it when it is to be kept.
    Url(u64, Option<Box<Parts>>),
    /// No URL: what was looked at, and why.
    Rejected(u64, Rejection),
}

/// Whether the colon at `c` may start a candidate: `//` follows it, or one
/// of the ten names ends before it, or it is too near the end of `buf` to
/// tell (and more may come).
#[inline(always)]
fn may_start(buf: &[u8], c: usize, eof: bool) -> bool {
    // `|`, not `||`: one branch, nearly always the same way.
    (c + 3 > buf.len() && !eof) | (buf.get(c + 1..c + 3) == Some(b"//")) | ends_ten(&buf[..c])
}

/// The first colon in `at..reach` that [`may_start`] a candidate, with
/// `find` (a search for ':').
#[inline(always)]
fn next_colon_by(
    find: impl Fn(&[u8]) -> Option<usize>,
    buf: &[u8],
    mut at: usize,
    reach: usize,
    eof: bool,
) -> Option<usize> {
    while let Some(k) = find(&buf[at..reach]) {
        let c = at + k;
        if may_start(buf, c, eof) {
            return Some(c);
        }
        at = c + 1;
    }
    None
}

/// How many bytes `bytes` starts with that are in `run` (a `run_table`).
#[inline]
fn run_len_by(bytes: &[u8], run: &[bool; 256]) -> usize {
    bytes.iter().take_while(|&&b| run[b as usize]).count()
}

/// The printable bytes a naked URL may not hold (rule 15) as two tables of
/// a nibble each (`~` under the strict policy too): `x` is one iff
/// `t[0][x & 15] & t[1][x >> 4] != 0`. Each high nibble has its own bit.
#[cfg(target_arch = "x86_64")]
const fn unsafe_tables(strict: bool) -> [[u8; 16]; 2] {
    let mut t = [[0u8; 16]; 2];
    let mut b = 0x21;
    while b < 0x7f {
        if !run_table(!strict)[b] {
            t[0][b & 15] |= 1 << ((b >> 4) - 2);
            t[1][b >> 4] = 1 << ((b >> 4) - 2);
        }
        b += 1;
    }
    t
}

/// The last two letters of the ten names (eight pairs) as four tables of
/// a nibble each, for a byte-wise table lookup: bit `k` of
/// `t[0][a & 15] & t[1][a >> 4] & t[2][b & 15] & t[3][b >> 4]` is set iff
/// `a b` is pair `k`.
#[cfg(target_arch = "x86_64")]
const fn pair_tables() -> [[u8; 16]; 4] {
    let mut t = [[0u8; 16]; 4];
    let mut bits = 0;
    let mut k = 0;
    while k < TEN.len() {
        let (a, b) = (TEN[k][TEN[k].len() - 2], TEN[k][TEN[k].len() - 1]);
        let mut seen = false;
        let mut j = 0;
        while j < k {
            let o = TEN[j];
            seen |= o[o.len() - 2] == a && o[o.len() - 1] == b;
            j += 1;
        }
        if !seen {
            // (More than eight pairs would overflow here, at compile time.)
            let bit = 1u8 << bits;
            bits += 1;
            t[0][(a & 15) as usize] |= bit;
            t[1][(a >> 4) as usize] |= bit;
            t[2][(b & 15) as usize] |= bit;
            t[3][(b >> 4) as usize] |= bit;
        }
        k += 1;
    }
    t
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The search for colons that may start a candidate, 128 bytes at a
    //! time: a colon is kept when `//` follows it or the two bytes before
    //! it (any case) end one of the ten names; those left are tested
    //! exactly by [`super::may_start`]. In mail about one colon in six is
    //! left, and a block with none costs no branch of its own.
    use std::arch::x86_64::*;

    static PAIRS: [[u8; 16]; 4] = super::pair_tables();

    /// `:` and `<` at their low nibbles, elsewhere 0xff (no ASCII byte):
    /// a byte `x` is one of them iff `EITHER[x & 15] == x` (a byte with its
    /// top bit set looks up 0).
    static EITHER: [u8; 16] = {
        let mut t = [0xff; 16];
        t[(b':' & 15) as usize] = b':';
        t[(b'<' & 15) as usize] = b'<';
        t
    };

    /// The constants of the search, loaded once per call.
    struct Consts {
        colon: __m256i,
        slash: __m256i,
        case: __m256i,
        nib: __m256i,
        pairs: [__m256i; 4],
    }

    impl Consts {
        /// The vectors, built once per search.
        ///
        /// # Safety
        /// The CPU must support AVX2.
        #[inline]
        #[target_feature(enable = "avx2")]
        unsafe fn new() -> Consts {
            let table = |k: usize| {
                // SAFETY: a table is 16 bytes.
                _mm256_broadcastsi128_si256(_mm_loadu_si128(PAIRS[k].as_ptr().cast()))
            };
            Consts {
                colon: _mm256_set1_epi8(b':' as i8),
                slash: _mm256_set1_epi8(b'/' as i8),
                case: _mm256_set1_epi8(0x20),
                nib: _mm256_set1_epi8(0x0f),
                pairs: [table(0), table(1), table(2), table(3)],
            }
        }
    }

    /// [`super::next_colon_by`] with the 128-byte test.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn next_colon(
        buf: &[u8],
        at: usize,
        reach: usize,
        eof: bool,
    ) -> Option<usize> {
        let n = buf.len();
        let mut i = at;
        // A block reads two bytes before it and two after it.
        if i < 2 {
            let head = reach.min(2);
            if i < head {
                let c = super::next_colon_by(|h| memchr::memchr(b':', h), buf, i, head, eof);
                if c.is_some() {
                    return c;
                }
            }
            i = i.max(head);
        }
        let k = Consts::new();
        let p = buf.as_ptr();
        while i < reach && i + 130 <= n {
            // SAFETY (here and below): `i >= 2` and `i + 130 <= n`: the
            // block and the two bytes either side of it are in `buf`.
            let q = p.add(i);
            let m0 = colons(q, &k);
            let m1 = colons(q.add(64), &k);
            if m0 | m1 != 0 {
                let (mut j, mut m, mut next) = (i, m0, m1);
                loop {
                    if m != 0 {
                        let q = p.add(j);
                        m &= kept(q, &k) as u64 | (kept(q.add(32), &k) as u64) << 32;
                        if reach < j + 64 {
                            m &= (1u64 << reach.saturating_sub(j)) - 1;
                        }
                        while m != 0 {
                            let c = j + m.trailing_zeros() as usize;
                            if super::may_start(buf, c, eof) {
                                return Some(c);
                            }
                            m &= m - 1;
                        }
                    }
                    if j > i {
                        break;
                    }
                    (j, m, next) = (j + 64, next, 0);
                }
            }
            i += 128;
        }
        super::next_colon_by(|h| memchr::memchr(b':', h), buf, i.min(reach), reach, eof)
    }

    /// Bit `j` set iff `q[j]` is a colon (64 bytes).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn colons(q: *const u8, k: &Consts) -> u64 {
        let lo = mask(_mm256_cmpeq_epi8(load(q), k.colon));
        let hi = mask(_mm256_cmpeq_epi8(load(q.add(32)), k.colon));
        lo as u64 | (hi as u64) << 32
    }

    /// [`super::Naked::find_lt`] with AVX2 (`i >= 2`): what was found,
    /// and how far no colon may start a candidate.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn find_lt(
        buf: &[u8],
        i: usize,
        limit: usize,
        eof: bool,
    ) -> (super::Found, usize) {
        use super::Found;
        let n = buf.len();
        let k = Consts::new();
        let lt = _mm256_set1_epi8(b'<' as i8);
        // SAFETY: `EITHER` is 16 bytes.
        let either = _mm256_broadcastsi128_si256(_mm_loadu_si128(EITHER.as_ptr().cast()));
        let p = buf.as_ptr();
        let mut j = i;
        // `j < stop`: `j < limit` and `j + 66 <= n`.
        let stop = limit.min(n.saturating_sub(65));
        while j < stop {
            // SAFETY: `j >= 2` and `j + 66 <= n`: the 64 bytes and the two
            // either side of them are in `buf`.
            let q = p.add(j);
            let (v0, v1) = (load(q), load(q.add(32)));
            // `<` or `:` in one step: the table holds them at their low
            // nibbles and bytes no ASCII byte equals elsewhere.
            let any = _mm256_or_si256(
                _mm256_cmpeq_epi8(_mm256_shuffle_epi8(either, v0), v0),
                _mm256_cmpeq_epi8(_mm256_shuffle_epi8(either, v1), v1),
            );
            if _mm256_movemask_epi8(any) != 0 {
                let (l0, l1) = (_mm256_cmpeq_epi8(v0, lt), _mm256_cmpeq_epi8(v1, lt));
                let (c0, c1) = (
                    _mm256_cmpeq_epi8(v0, k.colon),
                    _mm256_cmpeq_epi8(v1, k.colon),
                );
                let mut lts = mask(l0) as u64 | (mask(l1) as u64) << 32;
                let mut cs = mask(c0) as u64 | (mask(c1) as u64) << 32;
                if limit < j + 64 {
                    let m = (1u64 << (limit - j)) - 1;
                    lts &= m;
                    cs &= m;
                }
                // The colons before the first `<`.
                cs &= (lts & lts.wrapping_neg()).wrapping_sub(1);
                if cs != 0 {
                    cs &= kept(q, &k) as u64 | (kept(q.add(32), &k) as u64) << 32;
                    while cs != 0 {
                        let c = j + cs.trailing_zeros() as usize;
                        if super::may_start(buf, c, eof) {
                            return (Found::Colon(c), c);
                        }
                        cs &= cs - 1;
                    }
                }
                if lts != 0 {
                    let at = j + lts.trailing_zeros() as usize;
                    return (Found::Lt(at), at);
                }
            }
            j += 64;
        }
        if j >= limit {
            (Found::End, limit)
        } else {
            (Found::Plain(j), j)
        }
    }

    static UNSAFE_LENIENT: [[u8; 16]; 2] = super::unsafe_tables(false);
    static UNSAFE_STRICT: [[u8; 16]; 2] = super::unsafe_tables(true);

    /// [`super::run_len_by`], 32 bytes at a time: a byte ends the run when
    /// it is a control, SP, DEL or not ASCII, or in the unsafe tables.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn run_len(bytes: &[u8], strict: bool, run: &[bool; 256]) -> usize {
        let t = if strict {
            &UNSAFE_STRICT
        } else {
            &UNSAFE_LENIENT
        };
        // SAFETY: the tables are 16 bytes each.
        let low = _mm256_broadcastsi128_si256(_mm_loadu_si128(t[0].as_ptr().cast()));
        let high = _mm256_broadcastsi128_si256(_mm_loadu_si128(t[1].as_ptr().cast()));
        let nib = _mm256_set1_epi8(0x0f);
        let mut i = 0;
        while i + 32 <= bytes.len() {
            // SAFETY: `bytes[i..i + 32]` is in bounds.
            let x = load(bytes.as_ptr().add(i));
            // Signed: below `!` is a control, SP or a byte with its top bit.
            let outside = _mm256_or_si256(
                _mm256_cmpgt_epi8(_mm256_set1_epi8(0x21), x),
                _mm256_cmpeq_epi8(x, _mm256_set1_epi8(0x7f)),
            );
            let listed = _mm256_and_si256(
                _mm256_shuffle_epi8(low, _mm256_and_si256(x, nib)),
                _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(x, 4), nib)),
            );
            let ok = _mm256_cmpeq_epi8(listed, _mm256_setzero_si256());
            let stop = !mask(_mm256_andnot_si256(outside, ok));
            if stop != 0 {
                return i + stop.trailing_zeros() as usize;
            }
            i += 32;
        }
        i + super::run_len_by(&bytes[i..], run)
    }

    /// The 32 bytes at `q`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn load(q: *const u8) -> __m256i {
        _mm256_loadu_si256(q.cast())
    }

    /// The top bits of the 32 lanes of `v`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn mask(v: __m256i) -> u32 {
        _mm256_movemask_epi8(v) as u32
    }

    /// Bit `j` set iff a colon at `q + j` would be kept: `//` after it, or
    /// the two bytes before it one of the pairs (reads `q - 2 .. q + 34`).
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn kept(q: *const u8, k: &Consts) -> u32 {
        let after = _mm256_and_si256(
            _mm256_cmpeq_epi8(load(q.add(1)), k.slash),
            _mm256_cmpeq_epi8(load(q.add(2)), k.slash),
        );
        // Folding the case bit maps only letters onto lowercase letters;
        // a byte with its top bit set looks up 0 in the high-nibble table.
        let a = _mm256_or_si256(load(q.sub(2)), k.case);
        let b = _mm256_or_si256(load(q.sub(1)), k.case);
        let pair = _mm256_and_si256(
            look(a, k.pairs[0], k.pairs[1], k.nib),
            look(b, k.pairs[2], k.pairs[3], k.nib),
        );
        let none = _mm256_cmpeq_epi8(pair, _mm256_setzero_si256());
        mask(after) | !mask(none)
    }

    /// The lanes of `low[v & 15] & high[v >> 4]`.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn look(v: __m256i, low: __m256i, high: __m256i, nib: __m256i) -> __m256i {
        _mm256_and_si256(
            _mm256_shuffle_epi8(low, _mm256_and_si256(v, nib)),
            _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(v, 4), nib)),
        )
    }
}

/// Whether `bytes` end with one of the ten names (any case): a scheme
/// before a ':' without `//` can be one only then. Asked of most colons
/// (header fields, times), so it compares words: the names are letters,
/// and `| 0x20` lowercases a letter and turns no other byte into one.
#[inline]
fn ends_ten(bytes: &[u8]) -> bool {
    let n = bytes.len();
    // The last 8 bytes (fewer at the start, padded with NULs, which match
    // no name), the last byte in the low 8 bits.
    let w = if n >= 8 {
        u64::from_be_bytes(bytes[n - 8..].try_into().unwrap_or([0; 8]))
    } else {
        let mut b = [0u8; 8];
        b[8 - n..].copy_from_slice(bytes);
        u64::from_be_bytes(b)
    } | 0x2020_2020_2020_2020;
    /// A name as the low bytes of a word, and the mask of its length.
    const fn word(name: &[u8]) -> (u64, u64) {
        let mut v = 0u64;
        let mut i = 0;
        while i < name.len() {
            v = v << 8 | name[i] as u64;
            i += 1;
        }
        (
            v,
            if name.len() == 8 {
                !0
            } else {
                (1 << (8 * name.len())) - 1
            },
        )
    }
    const HTTP: (u64, u64) = word(b"http");
    const NNTP: (u64, u64) = word(b"nntp");
    const FTP: (u64, u64) = word(b"ftp");
    const GOPHER: (u64, u64) = word(b"gopher");
    const MAILTO: (u64, u64) = word(b"mailto");
    const PROSPERO: (u64, u64) = word(b"prospero");
    const NEWS: (u64, u64) = word(b"news");
    const WAIS: (u64, u64) = word(b"wais");
    const TELNET: (u64, u64) = word(b"telnet");
    const FILE: (u64, u64) = word(b"file");
    let is = |(v, m): (u64, u64)| w & m == v;
    // Without branches (`|`, not `||`): which name could match depends on
    // the text, so branches on it are mispredicted, and a mispredicted
    // branch costs more than these compares.
    is(HTTP)
        | is(NNTP)
        | is(FTP)
        | is(GOPHER)
        | is(MAILTO)
        | is(PROSPERO)
        | is(NEWS)
        | is(WAIS)
        | is(TELNET)
        | is(FILE)
}

/// `)` minus `(` in `bytes`.
fn net(bytes: &[u8]) -> i64 {
    let mut k = 0i64;
    for &b in bytes {
        k += (b == b')') as i64 - (b == b'(') as i64;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hostile input of about the size given.
    type Make = Box<dyn Fn(usize) -> Vec<u8>>;

    /// The pass over `data` in one window: the URLs and the work done.
    fn run(data: &[u8], max: usize) -> (Vec<String>, u64) {
        let cfg = crate::Scanner::new().limits(crate::Limits {
            max_bytes: max,
            ..Default::default()
        });
        let mut nk = Naked::new(&cfg, 0, 0, false);
        let mut urls = Vec::new();
        loop {
            match nk.step(data, 0, data.len(), true) {
                Step::Done => break,
                Step::NeedMore => unreachable!("the whole input is there"),
                Step::Found { s, t, .. } => {
                    urls.push(String::from_utf8_lossy(&data[s as usize..t as usize]).into_owned())
                }
            }
        }
        (urls, nk.work)
    }

    /// Hostile inputs: the work grows with the size, not faster (compared
    /// at two sizes, and per byte), and the URL after them is found.
    #[test]
    fn hostile_inputs_take_linear_work() {
        let rep = |unit: &[u8], n: usize| unit.repeat(n / unit.len());
        let kinds: Vec<(&str, Make, u64)> = vec![
            ("http-chain", Box::new(move |n| rep(b"http://", n)), 8),
            (
                "open-parens",
                Box::new(|n| [b"http://a.example/".as_ref(), &b"(".repeat(n)].concat()),
                8,
            ),
            (
                "close-parens",
                Box::new(|n| [b"http://a.example/".as_ref(), &b")".repeat(n)].concat()),
                8,
            ),
            (
                "dots",
                Box::new(|n| [b"http://a.example/".as_ref(), &b".".repeat(n)].concat()),
                8,
            ),
            ("a-colon", Box::new(move |n| rep(b"a:", n)), 8),
            (
                "wiki-chain",
                Box::new(move |n| rep(b"http://a.example/(x)", n)),
                8,
            ),
            (
                "paren-chain",
                Box::new(move |n| rep(b"(http://a.example/x)", n)),
                8,
            ),
            (
                "dot-chain-lines",
                Box::new(move |n| rep(b"http://a.example/x....)))\n", n)),
                8,
            ),
            // Each candidate parsed to its line's end: bounded by the
            // candidate bound, not by the input.
            (
                "rejected-at-line-end",
                Box::new(move |n| rep(&[b"ftp://a/".repeat(60), b";x\n".to_vec()].concat(), n)),
                300,
            ),
        ];
        let max = 1024;
        for (name, make, per_byte) in kinds {
            let mut works = Vec::new();
            for n in [1 << 16, 1 << 17] {
                let mut data = make(n);
                data.extend_from_slice(b" http://after.example/ ");
                let (urls, work) = run(&data, max);
                assert_eq!(
                    urls.last().map(String::as_str),
                    Some("http://after.example/"),
                    "{name}"
                );
                assert!(
                    work <= per_byte * data.len() as u64,
                    "{name}: {work} for {}",
                    data.len()
                );
                works.push(work as f64);
            }
            let ratio = works[1] / works[0];
            assert!(
                ratio < 2.2,
                "{name}: twice the input, {ratio:.2} times the work"
            );
        }
    }

    /// The word compare of `ends_ten` agrees with comparing the names
    /// byte by byte, in any case, at any length, after any byte.
    #[test]
    fn ends_ten_agrees_with_the_names() {
        let slow = |bytes: &[u8]| {
            TEN.iter().any(|t| {
                bytes.len() >= t.len() && bytes[bytes.len() - t.len()..].eq_ignore_ascii_case(t)
            })
        };
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for t in TEN {
            for cut in 0..=t.len() {
                for before in [&b""[..], b"x", b"@", b"`", b"\0", b"Date", b"\xff\xc0"] {
                    let mut v = before.to_vec();
                    v.extend_from_slice(&t[cut..]);
                    cases.push(v.clone());
                    cases.push(v.to_ascii_uppercase());
                    // A byte `| 0x20` must not turn into a letter.
                    if let Some(&last) = v.last() {
                        let k = v.len() - 1;
                        v[k] = last & !0x20;
                        cases.push(v.clone());
                        v[k] = last.wrapping_add(0x80);
                        cases.push(v);
                    }
                }
            }
        }
        for b in 0..=255u8 {
            cases.push(vec![b'h', b't', b't', b]);
            cases.push(vec![b'w', b'a', b'i', b]);
            cases.push(vec![b, b'f', b't', b'p']);
        }
        for c in cases {
            assert_eq!(ends_ten(&c), slow(&c), "{:?}", String::from_utf8_lossy(&c));
        }
    }

    /// The 128-byte colon search finds what the byte-wise one finds, from
    /// any start to any end, at the edges of the buffer, with and without
    /// more to come.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn colon_search_agrees_with_the_plain_one() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let alphabet: &[u8] = b"::://hHtTpPsSeEoOrRwWiIlLfFaAnNgGmM- .\n\x80\xf0\xd0\xef";
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for round in 0..300 {
            let len = next(420);
            let mut buf: Vec<u8> = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            // Whole names before colons, now and then.
            for _ in 0..len / 20 {
                let t = TEN[next(TEN.len())];
                let at = next(len + 1);
                if at + t.len() < len {
                    buf[at..at + t.len()].copy_from_slice(t);
                    buf[at + t.len()] = b':';
                }
            }
            let plain =
                |at, reach, eof| next_colon_by(|h| memchr::memchr(b':', h), &buf, at, reach, eof);
            for _ in 0..40 {
                let at = next(len + 1);
                let reach = at + next(len - at + 1);
                let eof = round % 2 == 0;
                // SAFETY: AVX2 was found above.
                let fast = unsafe { avx2::next_colon(&buf, at, reach, eof) };
                assert_eq!(
                    fast,
                    plain(at, reach, eof),
                    "{at}..{reach} of {:?}",
                    String::from_utf8_lossy(&buf)
                );
            }
        }
    }

    /// With AVX2 (the colons looked at by the engine's search for `<`) and
    /// without, the same matches, in one piece and fed in chunks of any
    /// size, with and without the rejected candidates.
    #[test]
    fn avx2_and_plain_searches_agree() {
        let words: &[&[u8]] = &[
            b"http://a.example/x",
            b"<URL:ftp://b.example/c>",
            b"Date: 10:11:12",
            b"mailto:x@y.z",
            b"news:comp.x",
            b"<",
            b">",
            b":",
            b"//",
            b"(",
            b")",
            b".",
            b" ",
            b"\n",
            b"\n\n",
            b"ab",
            b"HTTP://",
            b"a:b",
            b"x<y:z>",
            b"NNTP://h/",
            b"<http://q.example/>http://r.example/",
            b"telnet:",
            b"file:/x",
            b"Subject: re: ",
            b"wais://w/d?q",
            b">> ",
            b"https://s/(w)).",
            b"\x80",
            b"gopher://g/1",
            b"prospero://p/q",
            b"<news:a.b>",
            b"x@y",
            b"::://",
        ];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let seen = |m: &mut crate::Match, out: &mut Vec<String>| {
            out.push(format!(
                "{} {} {} {}:{} {:?} {:?}",
                m.offset(),
                m.end(),
                m.form().as_str(),
                m.line(),
                m.column(),
                m.as_str(),
                m.rejection().map(|r| r.to_string())
            ))
        };
        for round in 0..150 {
            let mut text = Vec::new();
            let len = next(3000);
            while text.len() < len {
                text.extend_from_slice(words[next(words.len())]);
            }
            let s = crate::Scanner::new().naked(true).rejected(round % 2 == 0);
            let chunk = 1 + next(200);
            let mut runs = Vec::new();
            for plain in [false, true] {
                PLAIN.with(|p| p.set(plain));
                let mut whole = Vec::new();
                for mut m in s.extract(&text) {
                    seen(&mut m, &mut whole);
                }
                let mut fed = Vec::new();
                let mut push = crate::PushScanner::with_buffer(s, 256);
                for part in text.chunks(chunk) {
                    push.feed_each(part, &mut |m| seen(m, &mut fed));
                }
                push.finish_each(&mut |m| seen(m, &mut fed));
                runs.push((whole, fed));
            }
            PLAIN.with(|p| p.set(false));
            assert_eq!(runs[0].0, runs[1].0, "{:?}", String::from_utf8_lossy(&text));
            assert_eq!(
                runs[0].1,
                runs[1].1,
                "{:?} by {chunk}",
                String::from_utf8_lossy(&text)
            );
        }
    }

    /// The 32-byte run agrees with the byte tables on every byte, at
    /// every position of a block and of the tail, under both policies.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn run_len_agrees_with_the_tables() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        for (strict, table) in [(false, &RUN_LENIENT), (true, &RUN_STRICT)] {
            for b in 0..=255u8 {
                for at in [0, 5, 31, 32, 40, 63, 70] {
                    let mut bytes = vec![b'a'; 72];
                    bytes[at] = b;
                    let want = run_len_by(&bytes, table);
                    // SAFETY: AVX2 was found above.
                    let got = unsafe { avx2::run_len(&bytes, strict, table) };
                    assert_eq!(got, want, "{b:#x} at {at}, strict {strict}");
                }
            }
        }
    }

    /// The bracket balance and the trailing walk are shared by the
    /// candidates of one run: a run of a thousand candidates costs about
    /// its length, not its length times the candidates.
    #[test]
    fn one_run_is_counted_once() {
        let data = [
            b"http://".repeat(100).as_slice(),
            b"a.example/".as_ref(),
            &b")".repeat(500),
        ]
        .concat();
        let (urls, work) = run(&data, 4096);
        assert_eq!(urls.len(), 1);
        assert!(work < 12 * data.len() as u64, "{work} for {}", data.len());
    }
}
