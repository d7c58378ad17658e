//! Searching one unit of work: a stream piece by piece, one small file, a batch of files.

use crate::input::archive::Opened;
use crate::printer::{ContextLines, OwnLines};
use crate::printer::{InputName, Recs};
use std::io::{self, Read};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use urlsift::{Match, MessageMap, MessageTracker, PushScanner};

use super::*;

/// Counters for `--stats`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Stats {
    /// Inputs searched.
    pub(super) files: u64,
    /// Bytes searched (decompressed).
    pub(super) bytes: u64,
    /// Records printed (or counted).
    pub(super) matches: u64,
}

pub(super) struct Chunk {
    pub(super) input: usize,
    /// Which member of an archive input (0: the input itself): each is
    /// counted and named on its own.
    pub(super) member: u64,
    /// The input's name (`None` for an error entry).
    pub(super) name: Option<Arc<Input>>,
    pub(super) last: bool,
    pub(super) bytes: u64,
    pub(super) body: Recs,
    pub(super) error: Option<String>,
    /// For a piece of a split input: its line feeds. Its records carry
    /// line numbers relative to the piece, which the writer (taking pieces
    /// in order) moves by the lines of the pieces before it.
    pub(super) piece_lines: Option<u64>,
}

impl Chunk {
    /// The end of input `input` with no output, and its error if any (an
    /// input that could not be read at all: its one message).
    pub(super) fn failed(input: usize, error: Option<String>) -> Chunk {
        Chunk {
            member: 0,
            input,
            name: None,
            last: true,
            bytes: 0,
            body: Recs::default(),
            error,
            piece_lines: None,
        }
    }
}

/// Searches one stream sequentially, handing each piece's output to `emit`.
pub(super) fn search_stream<R: Read>(
    r: R,
    ctx: Ctx<'_>,
    name: &InputName,
    emit: &mut dyn FnMut(Recs, u64, u64) -> io::Result<()>,
) -> Result<(), Fail> {
    search_pieces(
        PieceReader::stream(r, ctx.scanner),
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
pub(super) fn search_pieces<R: Read>(
    mut pr: PieceReader<R>,
    first: Option<Piece>,
    relative: bool,
    ctx: Ctx<'_>,
    name: &InputName,
    emit: &mut dyn FnMut(Recs, u64, u64) -> io::Result<()>,
) -> Result<(), Fail> {
    let mut lines = 0u64;
    // -A/-B/-C: what one piece leaves to the next.
    let mut context = ctx.printer.context_lines();
    let json_lines = ctx.printer.json_lines();
    // The raw reading tracks messages here, apart from the scanning; the
    // MIME reading's push scanner gives each match its message itself.
    let mime_read = ctx.scanner.get_mime();
    let mut tracker =
        (ctx.msgs && !mime_read).then(|| MessageTracker::new(ctx.scanner.get_fields()));
    let mut own = OwnLines::default();
    // -m: the records this reader may still need (without -u, where later
    // records may replace dropped ones; with context, the lines after the
    // last URL may be in the next piece); a range needs no more than its
    // whole input.
    let mut room = (!ctx.printer.unique() && context.is_none())
        .then(|| ctx.printer.max_count())
        .flatten()
        .unwrap_or(u64::MAX);
    let mut next = first.or_else(|| pr.next_piece());
    // MIME reading: one push scanner carries the state from piece to piece
    // (matches come with offsets from the first piece's start and lines
    // counted from it). It reads all it is given before `feed_each`
    // returns, so each match lands in the piece where it is decided, at
    // most one candidate late. Context output (-A/-B/-C) holds the raw
    // text until its matches are decided (see `held`).
    let mut mime = mime_read.then(|| {
        let start = next.as_ref().map_or(0, |p| p.offset);
        (
            PushScanner::new(ctx.scanner),
            start,
            Counted {
                pos: start,
                lines: 0,
            },
        )
    });
    let start = mime.as_ref().map_or(0, |m| m.1);
    let mut held_marks = Held::new(start, ctx);
    let mut held_json = Held::new(start, ctx);
    while let Some(p) = next.take() {
        if ctx.stop.load(Ordering::Relaxed) || room == 0 {
            return Ok(());
        }
        let map = tracker.as_mut().map(|t| {
            t.feed(&p.bytes()[..p.limit]);
            t.map(p.offset)
        });
        let (recs, lf) = match (context.as_mut(), &mut mime) {
            (Some(cl), Some((push, start, _))) => {
                let feed = Feed::Piece(push, &p);
                let recs = search_piece_mime_context(feed, *start, &mut held_marks, cl, ctx, name);
                (recs, 0)
            }
            (None, Some((push, start, _))) if json_lines => {
                let feed = Feed::Piece(push, &p);
                let recs =
                    search_piece_mime_json_lines(feed, *start, &mut held_json, &mut own, ctx, name);
                (recs, 0)
            }
            (_, Some((push, start, counted))) => {
                search_piece_mime(push, *start, counted, &p, relative, ctx, name)
            }
            (Some(cl), None) => search_piece_context(&p, lines, cl, map.as_ref(), ctx, name),
            // (Context is read in order, from the input's start.)
            (None, None) if json_lines => {
                search_piece_json_lines(&p, lines, &mut own, map.as_ref(), ctx, name)
            }
            (None, None) => search_piece(&p, lines, relative, map.as_ref(), ctx, name),
        };
        lines += lf;
        room = room.saturating_sub(recs.count);
        emit(recs, p.limit as u64, lf).map_err(Fail::Write)?;
        pr.recycle(p.into_buffer());
        next = pr.next_piece();
    }
    if let Some((push, start, _)) = mime {
        // The last matches, and with context the lines held for them.
        let recs = match context.as_mut() {
            Some(cl) => {
                let feed = Feed::End(Box::new(push));
                search_piece_mime_context(feed, start, &mut held_marks, cl, ctx, name)
            }
            None if json_lines => search_piece_mime_json_lines(
                Feed::End(Box::new(push)),
                start,
                &mut held_json,
                &mut own,
                ctx,
                name,
            ),
            None => {
                let mut recs = new_recs(relative);
                push.finish_each(&mut |m| push_mime_match(&mut recs, m, start, ctx, name, None));
                recs
            }
        };
        emit(recs, 0, 0).map_err(Fail::Write)?;
    }
    if let Some(cl) = context.as_mut() {
        // A last line without a line feed waited for more.
        let mut recs = new_recs(false);
        cl.finish(&mut recs, name);
        emit(recs, 0, 0).map_err(Fail::Write)?;
    }
    if json_lines {
        // Matches whose last line the input ended inside.
        let mut recs = new_recs(false);
        own.finish(&mut |m, text| {
            ctx.printer.push_match_with(&mut recs, name, m, Some(text));
        });
        emit(recs, 0, 0).map_err(Fail::Write)?;
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
pub(super) fn search_piece(
    p: &Piece,
    lines: u64,
    relative: bool,
    map: Option<&MessageMap>,
    ctx: Ctx<'_>,
    name: &InputName,
) -> (Recs, u64) {
    let mut recs = new_recs(relative);
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
            if let Some(mm) = map {
                m.set_message(mm.lookup(m.offset()).cloned());
            }
            ctx.printer
                .push_match_with(&mut recs, name, m, pick_line(ctx, p, m));
        },
    );
    (recs, lf)
}

/// The line feeds of a MIME-read input before raw offset `pos` (from the
/// first piece's start).
pub(super) struct Counted {
    pos: u64,
    lines: u64,
}

/// [`search_piece`] for the MIME reading: the piece proper goes to the
/// stream's push scanner (no lookahead needed: the scanner keeps what an
/// open candidate needs); returns the output and the piece's line feeds
/// (counted only for a range, whose successor numbers its lines from them).
///
/// Each match's raw line says how many line feeds come before it, so only
/// the bytes after the piece's last match are counted (the engine counted
/// those before it).
#[allow(clippy::too_many_arguments)]
pub(super) fn search_piece_mime(
    push: &mut PushScanner,
    start: u64,
    counted: &mut Counted,
    p: &Piece,
    relative: bool,
    ctx: Ctx<'_>,
    name: &InputName,
) -> (Recs, u64) {
    let mut recs = new_recs(relative);
    let bytes = &p.bytes()[..p.limit];
    let before = counted.lines;
    push.feed_each(bytes, &mut |m| {
        push_mime_match(&mut recs, m, start, ctx, name, Some(p));
        if m.offset() > counted.pos {
            counted.pos = m.offset();
            counted.lines = m.line() - 1;
        }
    });
    if !(ctx.printer.wants_lines() && relative) {
        return (recs, 0);
    }
    let end = p.offset + p.limit as u64;
    let from = counted.pos.clamp(p.offset, end) - p.offset;
    counted.lines += bytecount::count(&bytes[from as usize..], b'\n') as u64;
    counted.pos = end;
    (recs, counted.lines - before)
}

/// Formats a match of a stream's MIME push scanner, whose offsets count
/// from `start` (it carries its message, the innermost forwarded one in a
/// forwarded message).
fn push_mime_match(
    recs: &mut Recs,
    m: &mut Match,
    start: u64,
    ctx: Ctx<'_>,
    name: &InputName,
    piece: Option<&Piece>,
) {
    m.rebase(start, 0);
    match piece.and_then(|p| pick_line(ctx, p, m)) {
        Some(line) => ctx.printer.push_match_with(recs, name, m, Some(line)),
        None => ctx.printer.push_match(recs, name, m),
    }
}

/// For `--pick`: the raw line around `m` (moved to the input's offsets)
/// when it lies in `p` and is readable as it stands (not base64).
#[inline]
fn pick_line<'p>(ctx: Ctx<'_>, p: &'p Piece, m: &Match) -> Option<&'p [u8]> {
    if !ctx.printer.picks() || m.encoding() == Some(urlsift::Encoding::Base64) {
        return None;
    }
    let at = usize::try_from(m.offset().checked_sub(p.offset)?).ok()?;
    (at < p.bytes().len()).then(|| crate::printer::line_at(p.bytes(), at))
}

/// Scans a piece of an input read in order (context output, `--raw`),
/// each match moved to the input's offsets and lines (`lines` before the
/// piece); returns the piece's line feeds (all of them unless it is the
/// last).
fn scan_in_order(p: &Piece, lines: u64, ctx: Ctx<'_>, each: &mut dyn FnMut(&mut Match)) -> u64 {
    ctx.scanner.scan_piece_counting(
        p.bytes(),
        p.limit,
        p.at_end,
        &p.context,
        !p.at_end,
        &mut |m| {
            m.rebase(p.offset, lines);
            each(m)
        },
    )
}

/// [`search_piece`] for `--json` with `-A/-B/-C` (`--raw`; the MIME
/// reading's is in `held`): each object carries the text of its URL's own
/// lines (apart, so the common path stays as lean), through `own`, which
/// keeps what the next piece needs of a line longer than a piece.
pub(super) fn search_piece_json_lines(
    p: &Piece,
    lines: u64,
    own: &mut OwnLines,
    map: Option<&MessageMap>,
    ctx: Ctx<'_>,
    name: &InputName,
) -> (Recs, u64) {
    let mut recs = new_recs(false);
    let mut matches = Vec::new();
    let lf = scan_in_order(p, lines, ctx, &mut |m| {
        if let Some(mm) = map {
            m.set_message(mm.lookup(m.offset()).cloned());
        }
        matches.push(m.clone());
    });
    own.piece(
        p.bytes(),
        p.limit,
        p.offset,
        p.at_end,
        matches,
        &mut |m, text| {
            ctx.printer.push_match_with(&mut recs, name, m, Some(text));
        },
    );
    (recs, lf)
}

/// Searches one piece of an input read in order for `-A/-B/-C` (`--raw`;
/// the MIME reading's is in `held`): its lines and their context through
/// `cl`, which carries what the next piece needs.
pub(super) fn search_piece_context(
    p: &Piece,
    lines: u64,
    cl: &mut ContextLines,
    map: Option<&MessageMap>,
    ctx: Ctx<'_>,
    name: &InputName,
) -> (Recs, u64) {
    let mut recs = new_recs(false);
    let mut marks = Vec::new();
    let lf = scan_in_order(p, lines, ctx, &mut |m| {
        if let Some(mm) = map {
            m.set_message(mm.lookup(m.offset()).cloned());
        }
        marks.extend(ctx.printer.mark(m))
    });
    cl.piece(&mut recs, name, p.bytes(), p.limit, p.offset, marks);
    (recs, lf)
}

/// A file of a batch, opened, with its first piece read: whether it is
/// small shows only then (the scheduler did not `stat` it).
pub(super) struct Started {
    pub(super) pr: PieceReader<Box<dyn Read + Send>>,
    pub(super) first: Option<Piece>,
}

impl Started {
    /// Opens `input` and reads its first piece.
    pub(super) fn new(input: &Input, ctx: Ctx<'_>) -> io::Result<Started> {
        let r = input_reader(&input.entry, ctx.opts)?;
        Ok(Started::from_reader(r, ctx))
    }

    /// Reads the first piece of the stream `r` (live when it is: see
    /// [`PieceReader::stream`]).
    pub(super) fn from_stream(r: Box<dyn Read + Send>, ctx: Ctx<'_>) -> Started {
        let mut pr = PieceReader::stream(r, ctx.scanner);
        let first = pr.next_piece();
        Started { pr, first }
    }

    /// Reads the first piece of `r`.
    pub(super) fn from_reader(r: Box<dyn Read + Send>, ctx: Ctx<'_>) -> Started {
        let mut pr = PieceReader::new(r, piece(), ctx.scanner);
        let first = pr.next_piece();
        Started { pr, first }
    }

    /// Whether the first piece shows an archive (or a stream inside the
    /// stream): the input is then opened again all the way.
    pub(super) fn needs_opening(&self, ctx: Ctx<'_>) -> bool {
        self.first
            .as_ref()
            .is_some_and(|p| needs_opening(p.bytes(), ctx.opts))
    }

    /// Whether the file is longer than its first piece.
    pub(super) fn large(&self) -> bool {
        self.first.as_ref().is_some_and(|p| !p.at_end)
    }

    /// Gives the piece buffer back (the file is searched another way).
    pub(super) fn recycle(mut self) {
        if let Some(p) = self.first.take() {
            self.pr.recycle(p.into_buffer());
        }
    }
}

/// Searches one file of a batch on the current thread: one chunk.
pub(super) fn search_small(
    input: &Arc<Input>,
    started: io::Result<Started>,
    ctx: Ctx<'_>,
) -> Chunk {
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
        member: 0,
        input: input.index,
        name: Some(input.clone()),
        last: true,
        bytes,
        body: all,
        error,
        piece_lines: None,
    }
}

/// Bytes a batch searches before it hands the files left to another job:
/// the scheduler batches files without knowing their sizes.
pub(super) fn batch_share() -> u64 {
    2 * piece() as u64
}

/// Bytes a file of unknown size counts for in a batch: eight to a batch
/// (measured: sixteen cost 1% more time, thirty-two 3%).
pub(super) fn unsized_weight() -> u64 {
    piece() as u64 / 8
}

/// The job for a batch of files, unit `key`: searched in order, one chunk
/// each. The scheduler did not `stat` them, so the batch learns their
/// sizes as it reads. A file larger than [`split_min`] goes back to the
/// scheduler with the files after it, to be split into ranges for all
/// threads; before a file larger than a piece, or once the batch has
/// searched [`batch_share`] bytes, the files left go back to be a batch of
/// their own for another thread. What goes back is numbered after this
/// unit (see [`Handback`]).
pub(super) fn search_batch<'s>(
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
        if started.as_ref().is_ok_and(|s| s.needs_opening(ctx)) {
            // An archive: searched here, its members in parallel for a
            // zip; the files after it go to another job.
            if let Ok(s) = started {
                s.recycle();
            }
            let opened = open_input(&input.entry, ctx.opts);
            if let Ok(Opened::Zip(zip)) = opened {
                // Its members are units of their own, from the scheduler.
                order.commit(key, chunks, End::Part);
                order.flow.hand_back(Handback {
                    key: key.then(),
                    large: None,
                    zip: Some((Arc::new(zip), input)),
                    rest: files.collect(),
                });
                return;
            }
            let handed = files.len() > 0;
            if handed {
                order.flow.hand_back(Handback {
                    key: key.then(),
                    zip: None,
                    large: None,
                    rest: files.collect(),
                });
            }
            let end = if handed { End::Part } else { End::Done };
            search_archive_unit(&input, opened, ctx, order, key, chunks, end);
            return;
        }
        let large = started.as_ref().is_ok_and(Started::large);
        // Messages tracked in order: never split then (see `Ctx::in_order`).
        if large && !ctx.in_order() {
            if let Some((file, size)) = large_plain(&input.entry, ctx.opts) {
                if let Ok(s) = started {
                    s.recycle();
                }
                order.commit(key, chunks, End::Part);
                order.flow.hand_back(Handback {
                    key: key.then(),
                    zip: None,
                    large: Some((Arc::new(file), size, input)),
                    rest: files.collect(),
                });
                return;
            }
        }
        // The files left go to another thread while this one searches.
        let handed = (large || searched >= batch_share()) && files.len() > 0;
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
                    zip: None,
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
