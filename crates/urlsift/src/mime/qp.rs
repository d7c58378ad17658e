//! Quoted-printable, decoded as it streams (contract rule 11): `=` and two
//! hex digits (either case) is that byte, `=` and blanks (SP, HT, CR) up to
//! the line end is a soft line break (all of it vanishes), any other `=`
//! stays. A search for `=` and a copy of what lies between; each escape is
//! mapped to its `=`, each literal run to itself (rule 13).

use memchr::memchr;

use crate::lines::last_lf;

use super::{Kind, Out, Pass, Reader, Run, HOLD};
use crate::class::hex_val;

/// What an `=` is (rule 11), given the bytes up to `end` after it.
enum Equals {
    /// `=` and two hex digits: this byte.
    Escape(u8),
    /// `=` and blanks up to a line feed, at this offset: all of it vanishes.
    SoftBreak(usize),
    /// Neither (so far): the `=` stays. The blanks after it end here.
    Other(usize),
}

/// Reads the `=` at `raw[q]`, with `raw[..end]` at hand. Inlined in
/// both decoders: it runs for every `=` of a body.
#[inline(always)]
fn equals(raw: &[u8], q: usize, end: usize) -> Equals {
    if q + 2 < end {
        if let (Some(h), Some(l)) = (hex_val(raw[q + 1]), hex_val(raw[q + 2])) {
            return Equals::Escape(h << 4 | l);
        }
    }
    let b = q
        + 1
        + raw[q + 1..end]
            .iter()
            .take_while(|&&c| matches!(c, b' ' | b'\t' | b'\r'))
            .count();
    if b < end && raw[b] == b'\n' {
        Equals::SoftBreak(b)
    } else {
        Equals::Other(b)
    }
}

impl Reader {
    /// Decodes `raw[a..e]`, one line or (`complete` false) the part of a
    /// long line that has arrived, `eq` being the first `=` at or after
    /// `a` (the reader's cached search). Returns how far it got: short of
    /// `e` when an `=` at the end needs the bytes after it.
    pub(super) fn qp_line(
        &mut self,
        run: &Pass<'_>,
        a: usize,
        e: usize,
        complete: bool,
        eq: Option<usize>,
        out: &mut Out<'_>,
    ) -> usize {
        let raw = run.raw;
        let mut x = a;
        let mut lit = a;
        // The first `=` is known; the others are searched for.
        let mut first = Some(eq.filter(|&q| q < e));
        while let Some(q) = match first.take() {
            Some(known) => known,
            None => memchr(b'=', &raw[x..e]).map(|k| x + k),
        } {
            if !complete && q + 3 > e {
                self.push_plain(run, lit, q, out);
                return q;
            }
            let b = match equals(raw, q, e) {
                Equals::Escape(v) => {
                    self.push_plain(run, lit, q, out);
                    self.push_escape(run, q, v, out);
                    x = q + 3;
                    lit = x;
                    continue;
                }
                Equals::SoftBreak(_) => {
                    self.push_plain(run, lit, q, out);
                    self.delta += 1;
                    return e;
                }
                Equals::Other(b) => b,
            };
            if b == e {
                if complete {
                    // '=' and blanks at the end of the part: a soft break too.
                    self.push_plain(run, lit, q, out);
                    return e;
                }
                if e - q < HOLD {
                    self.push_plain(run, lit, q, out);
                    return q;
                }
            }
            x = q + 1;
        }
        self.push_plain(run, lit, e, out);
        e
    }

    /// Decodes the complete lines `raw[a..to]` (`a` a line start, `to` the
    /// end of a line; none of the line starts after `a` may be structure)
    /// as [`Reader::qp_line`] decodes them one at a time, in one search
    /// for `=` and with the line starts looked up only where a run is
    /// placed: in quoted-printable HTML nearly every line ends in a soft
    /// break, and a call per line cost more than its decoding.
    pub(super) fn qp_lines(&mut self, run: &Pass<'_>, a: usize, to: usize, out: &mut Out<'_>) {
        let raw = run.raw;
        // Line feeds are looked for from `seen` on (each byte once).
        let mut seen = a;
        let (mut x, mut lit) = (a, a);
        while let Some(k) = memchr(b'=', &raw[x..to]) {
            let q = x + k;
            match equals(raw, q, to) {
                Equals::Escape(v) => {
                    self.line_start_at(run, &mut seen, lit);
                    self.push_plain(run, lit, q, out);
                    self.line_start_at(run, &mut seen, q);
                    self.push_escape(run, q, v, out);
                    x = q + 3;
                    lit = x;
                }
                Equals::SoftBreak(b) => {
                    self.line_start_at(run, &mut seen, lit);
                    self.push_plain(run, lit, q, out);
                    self.delta += 1;
                    x = b + 1;
                    lit = x;
                    seen = x;
                    self.line_start = run.base + x as u64;
                }
                Equals::Other(_) => x = q + 1,
            }
        }
        self.line_start_at(run, &mut seen, lit);
        self.push_plain(run, lit, to, out);
    }

    /// Moves `self.line_start` on to the line of `raw[p]` (a run is placed
    /// there), looking for line feeds in `raw[*seen..p]` only.
    fn line_start_at(&mut self, run: &Pass<'_>, seen: &mut usize, p: usize) {
        let from = std::mem::replace(seen, p);
        if let Some(k) = last_lf(&run.raw[from..p]) {
            self.line_start = run.base + (from + k + 1) as u64;
        }
    }

    /// Writes the byte `v` that the escape at `raw[q..q + 3]` encodes.
    fn push_escape(&mut self, run: &Pass<'_>, q: usize, v: u8, out: &mut Out<'_>) {
        let d = out.d();
        let r = run.base + q as u64;
        let extends = matches!(out.map.last(), Some(last) if last.kind == Kind::Escape
            && last.delta == self.delta
            && out.map.last_place().is_some_and(|p| p.same(&self.place))
            && last.r + 3 * (d - last.d) == r);
        if !extends {
            out.map.push(
                Run {
                    d,
                    r,
                    col: r.saturating_sub(self.line_start),
                    delta: self.delta,
                    kind: Kind::Escape,
                    cap: u64::MAX,
                },
                &self.place,
            );
        }
        out.dec.push(v);
        if v == b'\n' {
            // A decoded line break with no raw one: later bytes need a
            // run with the new difference.
            self.delta -= 1;
        }
    }
}
