//! The scanner: the settings ([`Scanner`](crate::Scanner)) put to work. It composes the
//! layers below it: the MIME reader (rules 10 to 13, with HTML parts, rules
//! 18 to 22) when MIME is read, else the engine (rules 1 to 9, with the
//! naked pass of rules 14 to 17) over the raw bytes.

use crate::matches::Match;
use crate::mime::MimeScan;
use crate::scan::{self, Engine, PieceContext};
use crate::settings::Scanner;
use crate::tracker::MessageTracker;

impl Scanner {
    /// All matches in `haystack`.
    ///
    /// ```
    /// let text = b"see <URL:ftp://ds.in\n  ternic.net/rfc> today";
    /// let found = urlsift::Scanner::new().extract(text);
    /// assert_eq!(found[0].as_str(), "ftp://ds.internic.net/rfc");
    /// assert!(found[0].is_broken());
    /// ```
    pub fn extract(&self, haystack: &[u8]) -> Vec<Match> {
        let mut out = Vec::new();
        if self.mime {
            let mut scan = MimeScan::new(*self, 64 * 1024);
            scan.feed(haystack, &mut |m| out.push(m.clone()));
            scan.finish(&mut |m| out.push(m.clone()));
            return out;
        }
        let mut engine = Engine::new(*self);
        let mut tracker = (!self.fields.is_empty()).then(|| {
            let mut t = MessageTracker::new(self.fields);
            t.feed(haystack);
            t.finish();
            t
        });
        engine.scan(haystack, 0, true, haystack.len(), &mut |m| {
            if let Some(t) = &mut tracker {
                m.message = t.lookup(m.offset).cloned();
                t.forget(m.offset);
            }
            out.push(m.clone())
        });
        out
    }

    /// Scans one piece of a larger haystack that the caller splits itself
    /// (to share one big file among threads). This is the raw reading
    /// whatever [`Scanner::mime`](crate::Scanner::mime) says: MIME state lives across pieces, so
    /// a MIME reading of a stream in pieces goes through a
    /// [`crate::PushScanner`] (see [`crate::PushScanner::feed_each`]).
    ///
    /// `piece` must start at a line start of the whole haystack. Candidates
    /// whose `<` lies before `limit` are reported; bytes after `limit` are
    /// read only to finish them, so `piece` should reach at least
    /// [`Limits::max_bytes`](crate::Limits::max_bytes) past `limit` or to the end of the haystack
    /// (`at_end`). Offsets and lines in the result count from the piece's
    /// start (line 1); [`Match::rebase`](crate::Match::rebase) moves them. Also returns the number
    /// of line feeds before `limit`, to compute the next piece's first line.
    pub fn scan_piece(&self, piece: &[u8], limit: usize, at_end: bool) -> (Vec<Match>, u64) {
        self.scan_piece_in(piece, limit, at_end, &PieceContext::default())
    }

    /// Like [`Scanner::scan_piece`](crate::Scanner::scan_piece) for a piece that may start inside a
    /// line: `context` says what the scanner needs to know of the bytes
    /// before the piece (see [`PieceContext::advance`](crate::PieceContext::advance)). Columns count from
    /// the real line start; offsets still count from the piece's start.
    pub fn scan_piece_in(
        &self,
        piece: &[u8],
        limit: usize,
        at_end: bool,
        context: &PieceContext,
    ) -> (Vec<Match>, u64) {
        let mut out = Vec::new();
        let lines =
            self.scan_piece_each(piece, limit, at_end, context, &mut |m| out.push(m.clone()));
        (out, lines)
    }

    /// Like [`Scanner::scan_piece_in`](crate::Scanner::scan_piece_in), handing each match to `each` as it
    /// is found instead of collecting them (memory stays flat however
    /// dense the matches). The match lives in the scanner's own buffers
    /// until the next one: look at it, [`Match::rebase`](crate::Match::rebase) it, or clone it;
    /// nothing is allocated per match. Returns the number of line feeds
    /// before `limit`.
    pub fn scan_piece_each(
        &self,
        piece: &[u8],
        limit: usize,
        at_end: bool,
        context: &PieceContext,
        each: &mut dyn FnMut(&mut Match),
    ) -> u64 {
        self.scan_piece_counting(piece, limit, at_end, context, true, each)
    }

    /// [`Scanner::scan_piece_each`](crate::Scanner::scan_piece_each); with `count_rest` false, line feeds
    /// are counted only as far as the matches need (their line numbers and
    /// quoting), not to `limit`, and the count returned stops there too: for
    /// a caller that wants no line numbers, or none after this piece.
    pub fn scan_piece_counting(
        &self,
        piece: &[u8],
        limit: usize,
        at_end: bool,
        context: &PieceContext,
        count_rest: bool,
        each: &mut dyn FnMut(&mut Match),
    ) -> u64 {
        scan::scan_piece(*self, piece, limit, at_end, context, count_rest, each)
    }

    /// How far the bytes of `piece` alone decide its candidates: the
    /// offset of the `<` of the first candidate that would need bytes past
    /// the piece, or the piece's length. `piece` starts where `context`
    /// says (a line start for the default). A reader of a live stream cuts
    /// there to scan what has come at once, without waiting for the
    /// lookahead ([`PieceReader::live`](crate::PieceReader::live)): what
    /// is decided does not depend on the bytes beyond.
    ///
    /// ```
    /// let s = urlsift::Scanner::new();
    /// let ctx = urlsift::PieceContext::default();
    /// assert_eq!(s.decided(b"<news:a.b> more", &ctx), 15);
    /// assert_eq!(s.decided(b"<news:a.b> <URL:http://c.d/\n", &ctx), 11);
    /// ```
    pub fn decided(&self, piece: &[u8], context: &PieceContext) -> usize {
        scan::decided(*self, piece, context)
    }
}

/// Returns every URL in `haystack` under the contract's defaults.
///
/// ```
/// let found = urlsift::extract(b"Try <http://example.com/> or <a@b.org>.");
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].as_str(), "http://example.com/");
/// ```
pub fn extract(haystack: &[u8]) -> Vec<Match> {
    Scanner::new().extract(haystack)
}
