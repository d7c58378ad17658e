//! Splitting a large plain file into ranges that threads read and search at once.

use crate::printer::{InputName, Recs};
use crate::walk::Entry;
use std::fs::File;
use std::io::{self, Read};
use std::sync::Arc;

use super::*;

/// Reads a file from a position on with positional reads: no shared file
/// position, so several threads read one file at once.
pub(super) struct ReadAt<'f> {
    pub(super) file: &'f File,
    pub(super) pos: u64,
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
pub(super) const BOUNDARY_WINDOW: u64 = 4096;

/// How far before a nominal range boundary a message start is looked for
/// (MIME reading).
pub(super) const MESSAGE_WINDOW: u64 = 64 << 10;

/// Where range `r` of a file of `size` bytes split every `piece` bytes
/// starts: just after the last line feed in the window before `r * piece`,
/// so the ranges on both sides agree without talking to each other. `None`
/// when the window holds no line feed: the range before runs on (a very
/// long line is not cut between threads, as its column and quoting depend
/// on its start). With `mime`, a range starts at a message: the last mbox
/// `From ` line after an empty line in a wider window, so the MIME state
/// there is known (a new message); `None` when there is none. With
/// `blank` (naked URLs on), only just after an empty line.
pub(super) fn boundary(
    file: &File,
    r: u64,
    size: u64,
    piece: u64,
    mime: bool,
    blank: bool,
) -> io::Result<Option<u64>> {
    let at = r * piece;
    if r == 0 || at >= size {
        return Ok(Some(at.min(size)));
    }
    let window = if mime {
        MESSAGE_WINDOW
    } else {
        BOUNDARY_WINDOW
    }
    .min(piece / 2);
    // A message start lies a few kilobytes back: the window's last
    // 8 KiB are read first, the whole window only when they give no
    // answer (a 64 KiB read and its zeroing per range cost 10% of a
    // split mailbox's search).
    if mime {
        if window > NEAR_WINDOW {
            if let Some(start) = message_start_before(file, at, NEAR_WINDOW, true)? {
                return Ok(Some(start));
            }
        }
        return message_start_before(file, at, window, false);
    }
    let from = at - window;
    let win = read_window(file, from, at)?;
    if blank {
        // No URL crosses an empty line: the range after it starts with
        // nothing hidden by a URL before it (naked URLs on).
        return Ok(memchr::memmem::rfind(&win, b"\n\n").map(|k| from + k as u64 + 2));
    }
    Ok(memchr::memrchr(b'\n', &win).map(|k| from + k as u64 + 1))
}

/// Bytes [`boundary`] reads first when it looks for a message start.
const NEAR_WINDOW: u64 = 8 << 10;

/// The bytes `[from, at)` of `file` (fewer at its end).
fn read_window(file: &File, from: u64, at: u64) -> io::Result<Vec<u8>> {
    let mut win = vec![0u8; (at - from) as usize];
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
    win.truncate(n);
    Ok(win)
}

/// The last message start (an mbox `From ` line after an empty line) in
/// the `window` bytes before `at`. With `near` (a window smaller than the
/// whole), a line too close to the window's start to see the line before
/// it gives no answer: `None` then means "look in the whole window".
fn message_start_before(file: &File, at: u64, window: u64, near: bool) -> io::Result<Option<u64>> {
    let from = at - window;
    let win = read_window(file, from, at)?;
    // Each `\nFrom ` from the end, found by its `F` (the reverse
    // substring search has no vector prefilter).
    let mut end = win.len();
    while let Some(f) = memchr::memrchr(b'F', &win[..end]) {
        end = f;
        if f == 0 || win[f - 1] != b'\n' || !win[f..].starts_with(b"From ") {
            continue;
        }
        let k = f - 1;
        if near && k < 2 {
            return Ok(None);
        }
        let before = &win[..k];
        if before.ends_with(b"\n") || before.ends_with(b"\n\r") {
            return Ok(Some(from + k as u64 + 1));
        }
    }
    Ok(None)
}

/// The bytes `[start, end)` that range `r` of a split file covers (see
/// [`boundary`]), or `None` when another range covers its part.
pub(super) fn range_bounds(
    file: &File,
    r: u64,
    size: u64,
    piece: u64,
    mime: bool,
    blank: bool,
) -> io::Result<Option<(u64, u64)>> {
    let Some(start) = boundary(file, r, size, piece, mime, blank)? else {
        return Ok(None);
    };
    for k in r + 1..size.div_ceil(piece) {
        if let Some(end) = boundary(file, k, size, piece, mime, blank)? {
            return Ok(Some((start, end)));
        }
    }
    Ok(Some((start, size)))
}

/// Searches range `r` of a large file split every [`piece`] bytes: line
/// numbers are relative to the range start.
pub(super) fn search_range(
    file: &File,
    r: u64,
    size: u64,
    ctx: Ctx<'_>,
    name: &InputName,
    emit: &mut dyn FnMut(Recs, u64, u64) -> io::Result<()>,
) -> Result<(), Fail> {
    let Some((start, end)) = range_bounds(
        file,
        r,
        size,
        piece() as u64,
        ctx.scanner.get_mime(),
        ctx.scanner.get_naked(),
    )
    .map_err(Fail::Read)?
    else {
        return Ok(());
    };
    let rd = ReadAt { file, pos: start };
    search_pieces(
        PieceReader::new_range(rd, piece(), ctx.scanner, start, end),
        None,
        true,
        ctx,
        name,
        emit,
    )
}

/// A file found larger than a piece: opened with its size when it is
/// larger than [`split_min`] and plain text (a compressed stream is read in
/// order).
pub(super) fn large_plain(entry: &Entry, opts: &ArchiveOpts) -> Option<(File, u64)> {
    let Entry::File { path, .. } = entry else {
        return None;
    };
    let size = std::fs::metadata(path).ok()?.len();
    if size <= split_min() {
        return None;
    }
    match open_peeked(entry, path, opts) {
        Ok((file, false)) => Some((file, size)),
        _ => None,
    }
}

/// The job for range `r` of `ranges` of a large file (input `i`): writes
/// its output as it goes when it is the next unit, else hands it over at
/// the end.
#[allow(clippy::too_many_arguments)]
pub(super) fn search_range_unit(
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
        if held.body.len() >= piece() && order.is_next(key) {
            let part = Chunk {
                member: 0,
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
        member: 0,
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
