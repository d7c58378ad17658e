//! The Message-ID of each match in a stream read by the library's
//! [`Extractor`](urlsift::Extractor), as the command's `--json` gives it.
//!
//! The command's message tracker (`crates/urlsift-cli/src/mail.rs`, shared
//! as a module, not copied) is fed the bytes the extractor reads, through a
//! [`Tee`], in pieces cut just after a blank line: a header block is then
//! never cut, and the answers are those of one pass over the whole input,
//! which the command gives too (its pieces are cut after a blank line
//! where there is one). A match is looked up once the tracker has been fed
//! past it; one in the bytes after the last blank line waits for the next
//! blank line (or the end of the input), which is where its message's
//! header may still give the id.
//!
//! Memory stays bounded: unfed bytes are at most [`MAX_PENDING`] (then cut
//! at a line end, as the command cuts a piece without a blank line), and
//! the maps of fed pieces are dropped once no match can fall in them.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::mail::{MessageMap, MessageTracker};

/// The most bytes held back waiting for a blank line (the command's piece).
pub const MAX_PENDING: usize = 1 << 20;

/// What the tee writes and the match iterator reads.
#[derive(Debug)]
pub struct Ids {
    tracker: MessageTracker,
    /// Bytes read but not fed: no blank line ends among them.
    pending: Vec<u8>,
    /// Absolute offset of `pending[0]`: everything before is fed.
    fed: u64,
    /// The fed pieces' maps with the offset each piece ends at, in order.
    maps: VecDeque<(u64, MessageMap)>,
    /// Bytes read so far.
    read: u64,
    /// The largest read the extractor asked for: with the candidate bound,
    /// how far behind the read position its next match can start.
    largest_read: usize,
    /// The candidate bound (`Limits::max_bytes`).
    max_bytes: usize,
    /// The offset of the oldest match taken from the extractor and not yet
    /// looked up.
    held: Option<u64>,
    /// The input has ended: every offset can be looked up.
    ended: bool,
}

/// The length of `data` up to just after its last blank line (a line of
/// only spaces, tabs and CRs, as the tracker calls it) that ends at or
/// after `from`. A line is known whole only after a line feed: the first
/// one of `data` is not looked at.
fn after_last_blank_line(data: &[u8], from: usize) -> Option<usize> {
    let mut end = data.len();
    while let Some(k) = memchr::memrchr(b'\n', &data[from..end]) {
        let nl = from + k;
        let start = memchr::memrchr(b'\n', &data[..nl])? + 1;
        if data[start..nl]
            .iter()
            .all(|&b| matches!(b, b' ' | b'\t' | b'\r'))
        {
            return Some(nl + 1);
        }
        end = start.max(from);
    }
    None
}

/// The length of `data` up to just after its first blank line, where
/// `data` follows `before` (the line may start there). A line is known
/// whole only after a line feed: one that starts before the last line feed
/// of `before` is not looked at.
fn after_first_blank_line(before: &[u8], data: &[u8]) -> Option<usize> {
    let blank = |l: &[u8]| l.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'));
    let mut start = None;
    for nl in memchr::memchr_iter(b'\n', data) {
        let is_blank = match start {
            Some(s) => blank(&data[s..nl]),
            None => {
                memchr::memrchr(b'\n', before).is_some_and(|p| blank(&before[p + 1..]))
                    && blank(&data[..nl])
            }
        };
        if is_blank {
            return Some(nl + 1);
        }
        start = Some(nl + 1);
    }
    None
}

impl Ids {
    /// The state at the start of an input scanned with candidates of at most
    /// `max_bytes` bytes.
    pub fn new(max_bytes: usize) -> Ids {
        Ids {
            tracker: MessageTracker::new(),
            pending: Vec::new(),
            fed: 0,
            maps: VecDeque::new(),
            read: 0,
            largest_read: 0,
            max_bytes,
            held: None,
            ended: false,
        }
    }

    fn feed(&mut self, piece: &[u8]) {
        let map = self.tracker.feed(piece, self.fed);
        self.fed += piece.len() as u64;
        self.maps.push_back((self.fed, map));
    }

    /// Takes the next bytes of the input.
    pub fn take(&mut self, bytes: &[u8]) {
        self.read += bytes.len() as u64;
        // Fed in place from `bytes` between its first and last blank
        // lines; only what comes before (joined to the held-back bytes) and
        // after is copied.
        if let Some(first) = after_first_blank_line(&self.pending, bytes) {
            let last = after_last_blank_line(bytes, first).unwrap_or(first);
            let mut head = std::mem::take(&mut self.pending);
            head.extend_from_slice(&bytes[..first]);
            self.feed(&head);
            if last > first {
                self.feed(&bytes[first..last]);
            }
            head.clear();
            head.extend_from_slice(&bytes[last..]);
            self.pending = head;
        } else {
            self.pending.extend_from_slice(bytes);
        }
        if self.pending.len() > MAX_PENDING {
            // No blank line for a whole piece: cut at a line end, or
            // inside a line longer than a piece.
            let cut = memchr::memrchr(b'\n', &self.pending).map_or(self.pending.len(), |k| k + 1);
            let pending = std::mem::take(&mut self.pending);
            self.feed(&pending[..cut]);
            self.pending = pending;
            self.pending.drain(..cut);
        }
        self.prune();
    }

    /// Marks the end of the input: the rest is fed.
    pub fn finish(&mut self) {
        if self.ended {
            return;
        }
        let pending = std::mem::take(&mut self.pending);
        if !pending.is_empty() || self.maps.is_empty() {
            self.feed(&pending);
        }
        self.ended = true;
    }

    /// Drops the maps of pieces no match can still fall in: before the
    /// oldest held match, and before what the extractor may still hold: the
    /// piece it is reading (its first read asks for a whole piece), with a
    /// candidate's lookahead, and a wide margin besides (a few more maps
    /// kept cost little; one dropped too early would cost an id).
    fn prune(&mut self) {
        let behind = (4 * self.largest_read + 4 * self.max_bytes + MAX_PENDING) as u64;
        let mut floor = self.read.saturating_sub(behind);
        if let Some(h) = self.held {
            floor = floor.min(h);
        }
        // Keep the last map: it carries the id in force at its end.
        while self.maps.len() > 1 && self.maps[0].0 <= floor {
            self.maps.pop_front();
        }
    }

    /// Notes the oldest match taken and not yet looked up.
    pub fn hold(&mut self, offset: Option<u64>) {
        self.held = offset;
    }

    /// The Message-ID at `offset` (`Some(None)`: no id), or `None` while it
    /// is not known yet. Offsets must be asked in increasing order.
    pub fn lookup(&mut self, offset: u64) -> Option<Option<&str>> {
        if offset >= self.fed && !self.ended {
            return None;
        }
        while self.maps.len() > 1 && self.maps[0].0 <= offset {
            self.maps.pop_front();
        }
        Some(self.maps.front().and_then(|(_, m)| m.lookup(offset)))
    }
}

/// Message-IDs as shared strings: the matches of one message share one.
#[derive(Debug, Default)]
pub struct Interned {
    last: Option<Arc<str>>,
}

impl Interned {
    /// `id` as a shared string, the last one again when it is the same.
    pub fn get(&mut self, id: Option<&str>) -> Option<Arc<str>> {
        let id = id?;
        match &self.last {
            Some(last) if **last == *id => Some(last.clone()),
            _ => {
                let new: Arc<str> = Arc::from(id);
                self.last = Some(new.clone());
                Some(new)
            }
        }
    }
}

/// Locks the shared state (a panic while it was held cannot leave it
/// half-written in a way that matters more than the panic itself).
pub fn lock(ids: &Mutex<Ids>) -> MutexGuard<'_, Ids> {
    ids.lock().unwrap_or_else(|e| e.into_inner())
}

/// A reader that hands what it reads to [`Ids`].
#[derive(Debug)]
pub struct Tee<R> {
    inner: R,
    ids: Arc<Mutex<Ids>>,
}

impl<R: Read> Tee<R> {
    /// Reads `inner`, feeding `ids`.
    pub fn new(inner: R, ids: Arc<Mutex<Ids>>) -> Tee<R> {
        Tee { inner, ids }
    }
}

impl<R: Read> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut ids = lock(&self.ids);
        ids.largest_read = ids.largest_read.max(buf.len());
        if n == 0 {
            ids.finish();
        } else {
            ids.take(&buf[..n]);
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MBOX: &[u8] = b"From a@b Mon\nSubject: <http://h.a/>\nMessage-ID: <1@a>\n\nbody <http://a/>\n\nFrom c@d Tue\nX: <http://h.c/>\nmessage-id:\n  <2@c>\n\nbody2 <http://c/>\r\n\r\nFrom e@f\nSubject: no id\n\nbody3 <http://e/>\n";

    /// The ids of offsets `at`, the input read in chunks of `chunk` bytes,
    /// each offset asked as soon as it can be answered.
    fn ids(input: &[u8], chunk: usize, at: &[u64]) -> Vec<Option<String>> {
        let mut ids = Ids::new(16);
        let mut out = Vec::new();
        let mut ask = at.iter().copied().peekable();
        for c in input.chunks(chunk).map(Some).chain([None]) {
            match c {
                Some(c) => ids.take(c),
                None => ids.finish(),
            }
            ids.hold(ask.peek().copied());
            while let Some(&o) = ask.peek() {
                match ids.lookup(o) {
                    Some(id) => out.push(id.map(str::to_string)),
                    None => break,
                }
                ask.next();
            }
        }
        out
    }

    use memchr::memmem;

    fn offsets(input: &[u8], needle: &[u8]) -> Vec<u64> {
        memmem::find_iter(input, needle).map(|p| p as u64).collect()
    }

    #[test]
    fn one_pass_answers_whatever_the_chunks() {
        let at = offsets(MBOX, b"<http");
        let want: Vec<Option<String>> = ["<1@a>", "<1@a>", "<2@c>", "<2@c>"]
            .iter()
            .map(|s| Some(s.to_string()))
            .chain([None])
            .collect();
        for chunk in 1..MBOX.len() + 1 {
            assert_eq!(ids(MBOX, chunk, &at), want, "chunk {chunk}");
        }
    }

    #[test]
    fn blank_lines_found() {
        assert_eq!(after_last_blank_line(b"a\n\nb\n \t\r\nc", 0), Some(9));
        assert_eq!(after_last_blank_line(b"a\n\nb\nc\n", 0), Some(3));
        assert_eq!(after_last_blank_line(b"a\n\nb\nc\n", 3), None);
        assert_eq!(after_last_blank_line(b"\nab\ncd\n", 0), None);
        assert_eq!(after_last_blank_line(b"ab", 0), None);
        assert_eq!(after_first_blank_line(b"x\n", b"\nb\n\n"), Some(1));
        assert_eq!(after_first_blank_line(b"x\n \r", b"\nb\n\n"), Some(1));
        assert_eq!(after_first_blank_line(b"x", b"\nb\n\n"), Some(4));
        assert_eq!(after_first_blank_line(b"", b"\nb\n \nc\n\n"), Some(5));
        assert_eq!(after_first_blank_line(b"", b"a\nb\n"), None);
    }

    #[test]
    fn memory_stays_bounded_without_matches() {
        // A large mbox of small messages and no lookups: the maps of old
        // pieces go, and the held-back bytes stay below a piece.
        let msg = b"From x@y\nMessage-ID: <m@x>\n\nhello\n\n";
        let mut ids = Ids::new(16 * 1024);
        // The maps of at most the pruning window's bytes stay: each
        // message here is fed as two pieces (up to each blank line).
        let window = 4 * 64 * 1024 + 4 * 16 * 1024 + MAX_PENDING;
        let most = 2 * (window / msg.len() + 2);
        for _ in 0..400_000 {
            ids.largest_read = 64 * 1024;
            ids.take(msg);
            assert!(ids.maps.len() <= most && ids.pending.len() <= MAX_PENDING);
        }
        assert!(most < 400_000 / 4);
        // A line without end is cut once it is longer than a piece.
        let mut ids = Ids::new(16);
        for _ in 0..40 {
            ids.take(&[b'x'; 64 * 1024]);
        }
        assert!(ids.pending.len() <= MAX_PENDING);
    }

    #[test]
    fn a_late_match_after_a_long_gap_keeps_its_id() {
        let mut input = b"From a@b\nMessage-ID: <1@a>\n\n".to_vec();
        for _ in 0..50_000 {
            input.extend_from_slice(b"From c@d\nMessage-ID: <2@c>\n\nno url\n\n");
        }
        input.extend_from_slice(b"From e@f\nMessage-ID: <3@e>\n\n<http://x/>\n");
        let at = offsets(&input, b"<http");
        assert_eq!(ids(&input, 64 * 1024, &at), [Some("<3@e>".to_string())]);
    }
}
