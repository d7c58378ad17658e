//! `-A/-B/-C` (and `--json` with them) over the MIME reading: the raw text
//! of an input held until the matches that may start in it are decided.
//!
//! The push scanner decides a match only once it has read past its end (and
//! a forwarded message's header waits for its Message-ID), so a match may
//! come some way after the bytes that hold it were fed. The context
//! printers walk raw lines in order and must know every match of a line
//! when they reach it, so the raw bytes are walked [`lag`] bytes behind the
//! end of the bytes fed: by then every match starting in them has come.
//! Memory: `lag` bytes and one piece, besides what the printers keep.
//!
//! The matches are the MIME reading's (those the same command prints
//! without context, at the same raw lines); the lines printed around them
//! are the raw lines of the input.

use super::*;
use crate::printer::{ContextLines, InputName, Mark, OwnLines, Recs};
use urlsift::{Match, PushScanner};

/// Raw bytes held behind the end of the bytes fed: more than the reader
/// holds back of text (a candidate of `max_bytes` decoded bytes, whose
/// quoted-printable encoding is three times as long; a forwarded message's
/// header, 32 KiB, waiting for its Message-ID; about 1 KiB of an undecided
/// line), and at least a piece. Only markup the HTML reader drops inside
/// an open candidate (tags that write no text, as long as they come)
/// makes a match later than that.
fn lag(ctx: Ctx<'_>) -> u64 {
    let text = 8 * ctx.scanner.get_limits().max_bytes as u64 + (128 << 10);
    text.max(piece() as u64)
}

/// The most the lag grows to when a match comes later than it (see
/// [`Held::add`]): memory stays bounded.
const MAX_LAG: u64 = 16 << 20;

/// What walks released bytes: the bytes held, how many of them to walk,
/// their offset, whether the input ends there, and the matches that start
/// in them.
type Walk<'a, T> = dyn FnMut(&[u8], usize, u64, bool, Vec<T>) + 'a;

/// The raw bytes of an input from offset `base` on, not yet walked, and
/// the matches decided in them (`T`: a [`Mark`], or a match), in order of
/// their starts.
#[derive(Debug)]
pub(super) struct Held<T> {
    bytes: Vec<u8>,
    base: u64,
    items: Vec<(u64, T)>,
    lag: u64,
}

impl<T> Held<T> {
    /// Nothing held yet; the input's bytes start at `base`.
    pub(super) fn new(base: u64, ctx: Ctx<'_>) -> Held<T> {
        Held {
            bytes: Vec::new(),
            base,
            items: Vec::new(),
            lag: lag(ctx),
        }
    }

    /// A match decided, starting at raw offset `start`. Matches come in
    /// order but for an `href`, placed where its tag stands: each is put
    /// in its place among those held. One that starts in bytes already
    /// walked (later than the lag: never seen) is shown at the first line
    /// not walked, and the lag grows to what it took.
    fn add(&mut self, start: u64, item: T) {
        if start < self.base {
            let late = self.base + self.bytes.len() as u64 - start;
            self.lag = self.lag.max(2 * late).min(MAX_LAG);
        }
        let k = self
            .items
            .iter()
            .rposition(|(s, _)| *s <= start)
            .map_or(0, |k| k + 1);
        self.items.insert(k, (start, item));
    }

    /// Feeds the stream's push scanner (its matches moved to offsets from
    /// `start`), holding the bytes fed and what `item` makes of each match
    /// (its start and its item, `None` when filtered out). Returns whether
    /// the input ends.
    fn feed(
        &mut self,
        feed: Feed<'_>,
        start: u64,
        item: &mut dyn FnMut(&Match) -> Option<(u64, T)>,
    ) -> bool {
        let mut got = Vec::new();
        let at_end = feed.run(
            &mut |m| {
                m.rebase(start, 0);
                got.extend(item(m));
            },
            &mut self.bytes,
        );
        for (at, t) in got {
            self.add(at, t);
        }
        at_end
    }

    /// Walks the bytes held up to `lag` bytes before their end (all of them
    /// `at_end`) through `walk`.
    fn release(&mut self, at_end: bool, walk: &mut Walk<'_, T>) {
        let len = self.bytes.len();
        let cut = if at_end {
            len
        } else {
            len.saturating_sub(usize::try_from(self.lag).unwrap_or(usize::MAX))
        };
        if cut == 0 && !at_end {
            return;
        }
        let end = self.base + cut as u64;
        let n = match at_end {
            true => self.items.len(),
            false => self.items.partition_point(|(s, _)| *s < end),
        };
        let items = self.items.drain(..n).map(|(_, t)| t).collect();
        walk(&self.bytes, cut, self.base, at_end, items);
        self.bytes.drain(..cut);
        self.base = end;
    }
}

/// What goes to the stream's push scanner: a piece, or the end.
pub(super) enum Feed<'a> {
    /// The scanner and the next piece.
    Piece(&'a mut PushScanner, &'a Piece),
    /// The scanner, whose input ends.
    End(Box<PushScanner>),
}

impl Feed<'_> {
    /// Hands the piece's matches (or the last ones) to `each` and appends
    /// the piece's own bytes to `raw`; returns whether the input ends.
    fn run(self, each: &mut dyn FnMut(&mut Match), raw: &mut Vec<u8>) -> bool {
        match self {
            Feed::Piece(push, p) => {
                let own = &p.bytes()[..p.limit];
                push.feed_each(own, each);
                raw.extend_from_slice(own);
                false
            }
            Feed::End(push) => {
                push.finish_each(each);
                true
            }
        }
    }
}

/// Feeds the stream's push scanner (offsets from `start`), keeping the
/// marks of its matches and the raw bytes in `held`, and walks what is
/// decided through `cl`.
pub(super) fn search_piece_mime_context(
    feed: Feed<'_>,
    start: u64,
    held: &mut Held<Mark>,
    cl: &mut ContextLines,
    ctx: Ctx<'_>,
    name: &InputName,
) -> Recs {
    let at_end = held.feed(feed, start, &mut |m| {
        ctx.printer.mark(m).map(|mark| (mark.start, mark))
    });
    let mut recs = new_recs(false);
    held.release(at_end, &mut |bytes, limit, offset, _, marks| {
        cl.piece(&mut recs, name, bytes, limit, offset, marks);
    });
    recs
}

/// [`search_piece_mime_context`] for `--json`: each object with its URL's
/// own raw lines, through `own`.
pub(super) fn search_piece_mime_json_lines(
    feed: Feed<'_>,
    start: u64,
    held: &mut Held<Match>,
    own: &mut OwnLines,
    ctx: Ctx<'_>,
    name: &InputName,
) -> Recs {
    let at_end = held.feed(feed, start, &mut |m| Some((m.offset(), m.clone())));
    let mut recs = new_recs(false);
    held.release(at_end, &mut |bytes, limit, offset, at_end, matches| {
        own.piece(bytes, limit, offset, at_end, matches, &mut |m, text| {
            ctx.printer.push_match_with(&mut recs, name, m, Some(text));
        });
    });
    recs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(lag: u64) -> Held<u64> {
        Held {
            bytes: Vec::new(),
            base: 10,
            items: Vec::new(),
            lag,
        }
    }

    /// What `release` walks: (offset, walked bytes, at end, items).
    fn walked(h: &mut Held<u64>, at_end: bool) -> Vec<(u64, Vec<u8>, bool, Vec<u64>)> {
        let mut got = Vec::new();
        h.release(at_end, &mut |bytes, limit, offset, end, items| {
            got.push((offset, bytes[..limit].to_vec(), end, items));
        });
        got
    }

    #[test]
    fn walks_lag_behind_and_items_in_order() {
        let mut h = held(4);
        h.bytes.extend_from_slice(b"abcdefgh");
        // Out of order (an href placed where its tag stands).
        h.add(15, 15);
        h.add(11, 11);
        h.add(17, 17);
        assert_eq!(
            walked(&mut h, false),
            [(10, b"abcd".to_vec(), false, vec![11])]
        );
        // Nothing more until more bytes come.
        assert!(walked(&mut h, false).is_empty());
        h.bytes.extend_from_slice(b"ij");
        assert_eq!(
            walked(&mut h, false),
            [(14, b"ef".to_vec(), false, vec![15])]
        );
        assert_eq!(
            walked(&mut h, true),
            [(16, b"ghij".to_vec(), true, vec![17])]
        );
    }

    #[test]
    fn a_match_later_than_the_lag_grows_it() {
        let mut h = held(2);
        h.bytes.extend_from_slice(b"abcdef");
        assert_eq!(walked(&mut h, false).len(), 1);
        // Starts at 11, walked already: shown with the next bytes walked.
        h.add(11, 11);
        assert_eq!(h.lag, 2 * (16 - 11));
        assert_eq!(walked(&mut h, true), [(14, b"ef".to_vec(), true, vec![11])]);
    }
}
