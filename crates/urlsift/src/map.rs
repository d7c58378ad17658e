//! From decoded offsets back to the raw input (contract rule 13).
//!
//! The MIME reader hands the engine decoded text; every byte of it comes
//! from a *run* of raw bytes that encodes it in one regular way. A run is
//! stored once, by where it starts, so the map costs a few entries per
//! line of encoded text and one per message of plain text:
//!
//! - identity: decoded byte `i` of the run is raw byte `i`;
//! - escape: quoted-printable `=XX` escapes in a row, three raw bytes each;
//! - base64: groups of four alphabet characters in a row on one line, each
//!   three decoded bytes (a group is placed at its first character);
//! - separator: bytes the reader inserts (a blank line where a part, a
//!   header block or a message ends), placed at the raw byte after the end.
//!
//! Lines: every run also holds `delta`, raw line minus decoded line, which
//! stays the same across the run (a run ends where an encoded stretch has a
//! line break in the raw bytes or in the decoded ones), so the raw line of
//! a match is the engine's decoded line plus `delta`, and nothing counts
//! the line feeds of plain text twice.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::charset::Charset;
use crate::matches::{Encoding, Match, Span};
use crate::message::MessageInfo;

/// Where a text was found: its encoding and the content type of its part
/// (both `None` for headers and plain top-level text).
#[derive(Clone, Debug, Default)]
pub(crate) struct Place {
    pub encoding: Option<Encoding>,
    pub content_type: Option<Arc<str>>,
    /// The forwarded message it stands in.
    pub message: Option<Arc<MessageInfo>>,
    /// The charset its part declares, when known and not UTF-8.
    pub charset: Option<Charset>,
}

impl Place {
    /// The same place (one part's: its content type is one allocation).
    pub fn same(&self, other: &Place) -> bool {
        fn same<T: ?Sized>(a: &Option<Arc<T>>, b: &Option<Arc<T>>) -> bool {
            match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
        }
        self.encoding == other.encoding
            && same(&self.content_type, &other.content_type)
            && same(&self.message, &other.message)
            && self.charset == other.charset
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Identity,
    Escape,
    /// `g0`: the decoded offset where the run's first group starts (at or
    /// before the run's start, when the run starts inside a group).
    Base64 {
        g0: u64,
    },
    Separator,
    /// Decoded bytes that all stand for one stretch of encoded bytes (an
    /// HTML character reference): each is placed at `r`, and ends at `cap`.
    Fixed,
}

#[derive(Clone, Debug)]
pub(crate) struct Run {
    /// Decoded offset of the run's first byte.
    pub d: u64,
    /// Raw offset of the encoding of that byte.
    pub r: u64,
    /// 0-based raw column of `r`.
    pub col: u64,
    /// Raw line minus decoded line, across the run.
    pub delta: i64,
    pub kind: Kind,
    /// Raw offset past the run's last encoding byte, for a base64 run
    /// (its last group may be partial); `u64::MAX` otherwise.
    pub cap: u64,
}

impl Run {
    /// Raw offset of the encoding of decoded byte `d` (in this run).
    fn raw(&self, d: u64) -> u64 {
        let k = d - self.d;
        match self.kind {
            Kind::Identity => self.r + k,
            Kind::Escape => self.r + 3 * k,
            Kind::Base64 { g0 } => self.r + 4 * ((d - g0) / 3 - (self.d - g0) / 3),
            Kind::Separator | Kind::Fixed => self.r,
        }
    }

    /// Raw offset just past the encoding of decoded byte `d`.
    fn raw_end(&self, d: u64) -> u64 {
        let r = self.raw(d);
        match self.kind {
            Kind::Identity => r + 1,
            Kind::Escape => r + 3,
            Kind::Base64 { .. } => (r + 4).min(self.cap),
            Kind::Separator => r,
            Kind::Fixed => self.cap.max(r),
        }
    }

    /// 0-based raw column of decoded byte `d`, given its decoded column
    /// (0-based, from the engine).
    fn column(&self, d: u64, dcol: u64) -> u64 {
        let k = d - self.d;
        match self.kind {
            // The decoded line began inside the run: raw and decoded line
            // starts are the same byte.
            Kind::Identity if dcol < k => dcol,
            Kind::Identity => self.col + k,
            Kind::Escape => self.col + 3 * k,
            Kind::Base64 { .. } => self.col + (self.raw(d) - self.r),
            Kind::Separator | Kind::Fixed => self.col,
        }
    }
}

/// The runs of the decoded text still held, in order.
#[derive(Debug, Default)]
pub(crate) struct Map {
    runs: VecDeque<Run>,
    /// Where each place starts in the decoded text, in order. A place
    /// changes a part at a time, so runs do not each hold one (a copy per
    /// quoted-printable line cost two atomic operations).
    places: VecDeque<(u64, Place)>,
    /// The next run starts a place of its own (see [`Map::break_run`]).
    fresh: bool,
    /// Decoded and raw ends of the last run, when it is an identity run
    /// (so that the next identity bytes extend it).
    open: Option<(u64, u64)>,
    spans: Vec<Span>,
    /// The run an HTML part's last look-up found: its look-ups go forward
    /// through the part, so a walk from here beats a search.
    hint: std::cell::Cell<usize>,
}

impl Map {
    /// Appends a run starting at decoded offset `run.d`, in `place`.
    /// Inlined into its callers, with a change of place out of line: a run
    /// is pushed every hundred bytes or so of encoded text (each
    /// quoted-printable line and escape starts one), nearly always in the
    /// place of the last.
    #[inline(always)]
    pub fn push(&mut self, run: Run, place: &Place) {
        self.open = None;
        let same = !self.fresh && self.places.back().is_some_and(|(_, last)| last.same(place));
        if !same {
            self.enter(run.d, place);
        }
        self.fresh = false;
        match self.runs.back_mut() {
            Some(last) if last.d == run.d => *last = run,
            _ => self.runs.push_back(run),
        }
    }

    /// Starts `place` at decoded offset `d` (replacing the last place when
    /// it starts there too).
    #[cold]
    #[inline(never)]
    fn enter(&mut self, d: u64, place: &Place) {
        match self.places.back_mut() {
            Some((at, last)) if *at == d => *last = place.clone(),
            _ => self.places.push_back((d, place.clone())),
        }
    }

    /// Appends `len` identity bytes at decoded `d`, raw `r`, extending the
    /// last run when it is the identity run that ends there.
    pub fn identity(&mut self, d: u64, r: u64, col: u64, delta: i64, len: u64, place: &Place) {
        if len == 0 {
            return;
        }
        if self.open == Some((d, r)) {
            let last = self.runs.back().expect("an open run");
            if last.delta == delta && self.last_place().is_some_and(|p| p.same(place)) {
                self.open = Some((d + len, r + len));
                return;
            }
        }
        self.push(
            Run {
                d,
                r,
                col,
                delta,
                kind: Kind::Identity,
                cap: u64::MAX,
            },
            place,
        );
        self.open = Some((d + len, r + len));
    }

    /// Ends the open identity run: the next bytes start a run, and a
    /// place, of their own (whose id may come later, see
    /// [`Map::name_message`]).
    pub fn break_run(&mut self) {
        self.open = None;
        self.fresh = true;
    }

    /// Gives the text from decoded offset `from` on (a forwarded message's
    /// header, held back until its Message-ID was read; its place starts
    /// there, see [`Map::break_run`]) that id.
    pub fn name_message(&mut self, from: u64, info: Option<&Arc<MessageInfo>>) {
        for (d, place) in self.places.iter_mut().rev() {
            if *d < from {
                break;
            }
            place.message = info.cloned();
        }
    }

    /// The raw offset of the first run kept (nothing before it is
    /// translated any more).
    pub fn first_raw(&self) -> Option<u64> {
        self.runs.front().map(|r| r.r)
    }

    /// The place of the last run.
    pub fn last_place(&self) -> Option<&Place> {
        self.places.back().map(|(_, p)| p)
    }

    /// The place of decoded offset `d` (in a run still held).
    fn place_of(&self, d: u64) -> &Place {
        let i = match self.places.back() {
            Some((s, _)) if *s <= d => self.places.len() - 1,
            _ => self
                .places
                .partition_point(|(s, _)| *s <= d)
                .saturating_sub(1),
        };
        &self.places[i].1
    }

    /// Empties the map for another input, keeping its capacity.
    pub fn clear(&mut self) {
        self.runs.clear();
        self.places.clear();
        self.fresh = false;
        self.open = None;
        self.spans.clear();
        self.hint.set(0);
    }

    /// Bytes its buffers hold.
    pub fn capacity(&self) -> usize {
        self.runs.capacity() * std::mem::size_of::<Run>()
            + self.places.capacity() * std::mem::size_of::<(u64, Place)>()
            + self.spans.capacity() * std::mem::size_of::<Span>()
    }

    /// Drops the runs wholly before decoded offset `d`, and the places no
    /// run left is in.
    pub fn forget(&mut self, d: u64) {
        while self.runs.len() > 1 && self.runs[1].d <= d {
            self.runs.pop_front();
            self.hint.set(self.hint.get().saturating_sub(1));
        }
        if let Some(first) = self.runs.front() {
            while self.places.len() > 1 && self.places[1].0 <= first.d {
                self.places.pop_front();
            }
        }
    }

    /// The last run (for the reader that extends base64 and escape runs).
    pub fn last(&self) -> Option<&Run> {
        self.runs.back()
    }

    /// The last run, to move its end.
    pub fn last_mut(&mut self) -> Option<&mut Run> {
        self.runs.back_mut()
    }

    /// The index of the run holding decoded offset `d`.
    fn index(&self, d: u64) -> usize {
        // Most matches lie in the last run (all of text scanned in place).
        match self.runs.back() {
            Some(last) if last.d <= d => self.runs.len() - 1,
            _ => self.runs.partition_point(|r| r.d <= d).saturating_sub(1),
        }
    }

    /// [`Map::index`] for an offset at or after the start of run `i`: a
    /// match spans few runs, so a walk forward beats a search.
    fn index_from(&self, mut i: usize, d: u64) -> usize {
        if self.runs[i].d > d {
            return self.index(d);
        }
        while self.runs.get(i + 1).is_some_and(|r| r.d <= d) {
            i += 1;
        }
        i
    }

    /// Moves a match found in decoded text to the raw input: offset, end,
    /// line, column and spans (rule 13), and says where it was found.
    pub fn translate(&mut self, m: &mut Match) {
        if self.runs.is_empty() {
            return;
        }
        let p = m.offset;
        let first = self.index(p);
        let run = &self.runs[first];
        let line = (m.line as i64 + run.delta).max(1) as u64;
        let column = run.column(p, m.column - 1) + 1;
        let offset = run.raw(p);
        let end = if run.kind == Kind::Identity
            && self
                .runs
                .get(first + 1)
                .map_or(true, |next| next.d >= m.end)
        {
            // All of the match in one identity run (most matches, and all
            // in text scanned in place): every offset moves by the same,
            // with no search for the run of each byte, and the spans move
            // where they lie (joined as `join` would).
            let shift = run.r.wrapping_sub(run.d);
            let mut kept = 0;
            for i in 0..m.spans.len() {
                let (a, b) = (
                    m.spans[i].start.wrapping_add(shift),
                    m.spans[i].end.wrapping_add(shift),
                );
                if kept > 0 && m.spans[kept - 1].end == a {
                    m.spans[kept - 1].end = b;
                } else if b > a {
                    m.spans[kept] = Span { start: a, end: b };
                    kept += 1;
                }
            }
            m.spans.truncate(kept);
            m.end.max(p).wrapping_add(shift)
        } else {
            let mut spans = std::mem::take(&mut self.spans);
            spans.clear();
            let mut i = first;
            for s in &m.spans {
                let mut a = s.start;
                while a < s.end {
                    i = self.index_from(i, a);
                    let run = &self.runs[i];
                    let b = match self.runs.get(i + 1) {
                        Some(next) => next.d.min(s.end),
                        None => s.end,
                    };
                    join(&mut spans, run.raw(a), run.raw_end(b - 1));
                    a = b;
                }
            }
            std::mem::swap(&mut m.spans, &mut spans);
            self.spans = spans;
            if m.end > p {
                let i = self.index_from(first, m.end - 1);
                self.runs[i].raw_end(m.end - 1)
            } else {
                offset
            }
        };
        let place = self.place_of(p);
        m.encoding = place.encoding;
        m.content_type.clone_from(&place.content_type);
        m.charset = place.charset;
        m.forwarded.clone_from(&place.message);
        m.offset = offset;
        m.end = end.max(offset);
        m.line = line;
        m.column = column;
    }
}

/// Where an HTML part's text comes from: the part's decoded bytes (its
/// own map, the inner one) are read by the HTML reader, and what it writes
/// is placed through them (contract rule 22).
impl Map {
    /// The run holding decoded offset `d`, if one is held.
    pub fn run_at(&self, d: u64) -> Option<&Run> {
        self.hinted(d).map(|i| &self.runs[i])
    }

    /// The index of the run holding `d`, walking from the last one found.
    fn hinted(&self, d: u64) -> Option<usize> {
        if self.runs.is_empty() || self.runs[0].d > d {
            return None;
        }
        let mut i = self.hint.get().min(self.runs.len() - 1);
        if self.runs[i].d > d {
            i = self.index(d);
        } else {
            let mut steps = 0;
            while self.runs.get(i + 1).is_some_and(|r| r.d <= d) {
                i += 1;
                steps += 1;
                if steps == 16 {
                    i = self.index(d);
                    break;
                }
            }
        }
        self.hint.set(i);
        Some(i)
    }

    /// Raw offset, raw column (0-based; `dcol` is `d`'s decoded column)
    /// and line difference of decoded offset `d`.
    pub fn locate(&self, d: u64, dcol: u64) -> Option<(u64, u64, i64)> {
        let run = self.run_at(d)?;
        Some((run.raw(d), run.column(d, dcol), run.delta))
    }

    /// Raw offset just past the encoding of decoded byte `d`.
    pub fn raw_end_of(&self, d: u64) -> Option<u64> {
        Some(self.run_at(d)?.raw_end(d))
    }

    /// Appends the raw spans that encode decoded bytes `a..b`.
    pub fn raw_spans(&self, a: u64, b: u64, spans: &mut Vec<Span>) {
        let mut x = a;
        while x < b {
            let Some(i) = self.hinted(x) else { return };
            let run = &self.runs[i];
            let y = self.runs.get(i + 1).map_or(b, |n| n.d.min(b));
            join(spans, run.raw(x), run.raw_end(y - 1));
            x = y;
        }
    }

    /// Writes to `outer`, at its decoded offset `d`, the runs that place
    /// this map's decoded bytes `a..b` (copied as they are), their line
    /// differences moved by `ddelta`, in `place`. `ls` is this map's
    /// decoded offset of the line start before `a`, `bytes` the bytes
    /// `a..b` (their line feeds start lines, for the columns).
    #[allow(clippy::too_many_arguments)]
    pub fn copy_to(
        &self,
        a: u64,
        b: u64,
        bytes: &[u8],
        ls: u64,
        outer: &mut Map,
        d: u64,
        ddelta: i64,
        place: &Place,
    ) {
        let mut x = a;
        let mut ls = ls;
        let mut prev = a;
        while x < b {
            let Some(i) = self.hinted(x) else { return };
            let run = &self.runs[i];
            let y = self.runs.get(i + 1).map_or(b, |n| n.d.min(b));
            // Line feeds since the last piece (each byte looked at once).
            let from = (prev - a) as usize;
            let to = (x - a) as usize;
            if to > from {
                if let Some(k) = memchr::memrchr(b'\n', &bytes[from..to]) {
                    ls = ls.max(a + (from + k) as u64 + 1);
                }
            }
            prev = x;
            let od = d + (x - a);
            let r = run.raw(x);
            let col = run.column(x, x - ls);
            let delta = run.delta + ddelta;
            match run.kind {
                Kind::Identity => outer.identity(od, r, col, delta, y - x, place),
                kind => {
                    let kind = match kind {
                        Kind::Base64 { g0 } => Kind::Base64 {
                            g0: od.saturating_sub((x - g0) % 3),
                        },
                        k => k,
                    };
                    outer.push(
                        Run {
                            d: od,
                            r,
                            col,
                            delta,
                            kind,
                            cap: run.cap,
                        },
                        place,
                    );
                }
            }
            x = y;
        }
    }
}

/// Appends the raw span `ra..rb`, joined to the last one when it ends
/// there; an empty one adds nothing.
fn join(spans: &mut Vec<Span>, ra: u64, rb: u64) {
    match spans.last_mut() {
        Some(last) if last.end == ra => last.end = rb,
        _ if rb > ra => spans.push(Span { start: ra, end: rb }),
        _ => {}
    }
}

/// Where the reader writes: the decoded text (from decoded offset `base`)
/// and its map.
pub(crate) struct Out<'a> {
    pub dec: &'a mut Vec<u8>,
    pub base: u64,
    pub map: &'a mut Map,
}

impl Out<'_> {
    pub(crate) fn d(&self) -> u64 {
        self.base + self.dec.len() as u64
    }
}
