//! The Message-ID of the message each match stands in.
//!
//! An mbox is a file whose first line starts with `From `; its messages
//! start at lines beginning with `From ` at the file start or after a blank
//! line. Any other file (a news article, an `.eml`) is one message. The
//! Message-ID is the value of the `Message-ID:` header (any case, possibly
//! on a folded continuation line) in the header block, which ends at the
//! first blank line of the message.
//!
//! [`MessageTracker`] is fed the input in order, in pieces that end at a
//! line end (or at the end of the input), and returns for each piece a
//! [`MessageMap`] that answers "which Message-ID holds at this offset".
//! The state between pieces is carried, so a file split into pieces gets
//! the same answers as one pass. A header block cut by a piece boundary
//! (only when no blank line was found to cut after) may leave the matches
//! of that header before the cut without their id.

use std::sync::Arc;

use memchr::{memchr, memmem};

/// Which Message-ID holds where, for one piece.
#[derive(Clone, Debug, Default)]
pub struct MessageMap {
    /// The id in force at the piece start.
    first: Option<Arc<str>>,
    /// Message starts in the piece (absolute offsets) with their ids.
    starts: Vec<(u64, Option<Arc<str>>)>,
}

impl MessageMap {
    /// The Message-ID of the message holding absolute offset `at`.
    pub fn lookup(&self, at: u64) -> Option<&str> {
        let i = self.starts.partition_point(|&(s, _)| s <= at);
        if i == 0 {
            self.first.as_deref()
        } else {
            self.starts[i - 1].1.as_deref()
        }
    }
}

/// Finds message starts and Message-IDs, one piece after another.
#[derive(Debug)]
pub struct MessageTracker {
    /// Decided by the first line: `Some(true)` for an mbox.
    mbox: Option<bool>,
    /// Whether the last line seen was blank (true at the input start).
    prev_blank: bool,
    /// Inside the header block of the current message.
    in_header: bool,
    /// The last header line was `Message-ID:` with no value yet.
    folding: bool,
    /// Offset of the current message's start.
    msg_start: u64,
    /// The current message's id.
    current: Option<Arc<str>>,
    from_finder: memmem::Finder<'static>,
}

impl Default for MessageTracker {
    fn default() -> Self {
        MessageTracker::new()
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| b == b' ' || b == b'\t' || b == b'\r')
}

fn trim(v: &[u8]) -> &[u8] {
    let s = v
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(v.len());
    let e = v
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(s, |e| e + 1);
    &v[s..e.max(s)]
}

impl MessageTracker {
    /// A tracker at the start of an input.
    pub fn new() -> MessageTracker {
        MessageTracker {
            mbox: None,
            prev_blank: true,
            in_header: true,
            folding: false,
            msg_start: 0,
            current: None,
            from_finder: memmem::Finder::new(b"\nFrom ").into_owned(),
        }
    }

    /// Feeds the next piece (absolute offset `offset`), which must start at
    /// a line start and end at a line end or at the end of the input.
    pub fn feed(&mut self, piece: &[u8], offset: u64) -> MessageMap {
        let mut map = MessageMap {
            first: self.current.clone(),
            starts: Vec::new(),
        };
        let mut i = 0;
        let n = piece.len();
        while i < n {
            if self.in_header {
                let e = memchr(b'\n', &piece[i..]).map_or(n, |k| i + k);
                let line = &piece[i..e];
                if self.mbox.is_none() {
                    let m = line.starts_with(b"From ");
                    self.mbox = Some(m);
                    self.msg_start = offset + i as u64;
                    if m {
                        i = e + 1;
                        continue;
                    }
                }
                self.header_line(line, &mut map);
                i = e + 1;
                continue;
            }
            if self.mbox != Some(true) {
                // One message: nothing more to find.
                self.prev_blank = false;
                break;
            }
            // Body of an mbox message: the next "From " line after a blank line.
            if i == 0 && self.prev_blank && piece.starts_with(b"From ") {
                self.start_message(offset);
                i = memchr(b'\n', piece).map_or(n, |k| k + 1);
                continue;
            }
            let mut found = None;
            let mut from = i.saturating_sub(1);
            while let Some(k) = self.from_finder.find(&piece[from..]) {
                let nl = from + k;
                // The line before `nl` starts after the previous '\n' or
                // at the piece start (always a line start).
                let before = &piece[..nl];
                let ls = memchr::memrchr(b'\n', before).map_or(0, |p| p + 1);
                if is_blank(&before[ls..]) {
                    found = Some(nl + 1);
                    break;
                }
                from = nl + 1;
            }
            match found {
                Some(s) => {
                    self.start_message(offset + s as u64);
                    i = memchr(b'\n', &piece[s..]).map_or(n, |k| s + k + 1);
                }
                None => {
                    // Remember whether the piece ends with a blank line.
                    let body = &piece[i..];
                    let t = body.strip_suffix(b"\n").unwrap_or(body);
                    let ls = memchr::memrchr(b'\n', t).map_or(0, |p| p + 1);
                    self.prev_blank = is_blank(&t[ls..]);
                    i = n;
                }
            }
        }
        if self.in_header {
            // The header goes on in the next piece: record what is known.
            map.starts.push((self.msg_start, self.current.clone()));
        }
        map
    }

    fn start_message(&mut self, at: u64) {
        self.msg_start = at;
        self.in_header = true;
        self.folding = false;
        self.current = None;
    }

    fn header_line(&mut self, line: &[u8], map: &mut MessageMap) {
        if is_blank(line) {
            self.in_header = false;
            self.folding = false;
            self.prev_blank = true;
            map.starts.push((self.msg_start, self.current.clone()));
            return;
        }
        self.prev_blank = false;
        if line[0] == b' ' || line[0] == b'\t' {
            if self.folding {
                let v = trim(line);
                if !v.is_empty() {
                    self.current = Some(String::from_utf8_lossy(v).into());
                    self.folding = false;
                }
            }
            return;
        }
        self.folding = false;
        const NAME: &[u8] = b"message-id:";
        if line.len() >= NAME.len() && line[..NAME.len()].eq_ignore_ascii_case(NAME) {
            if self.current.is_some() {
                return; // the first Message-ID header counts
            }
            let v = trim(&line[NAME.len()..]);
            if v.is_empty() {
                self.folding = true;
            } else {
                self.current = Some(String::from_utf8_lossy(v).into());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MBOX: &[u8] = b"From a@b Mon Jan 1\nSubject: x\nMessage-ID: <1@a>\n\nbody <http://a/>\n\nFrom c@d Tue\nmessage-id:\n  <2@c>\nX: y\n\nbody2\nFrom not a start\n\nFrom e@f\nSubject: no id\n\nbody3\n";

    fn ids(pieces: &[usize]) -> Vec<Option<String>> {
        let mut t = MessageTracker::new();
        let mut maps = Vec::new();
        let mut off = 0;
        for &cut in pieces.iter().chain([MBOX.len()].iter()) {
            maps.push((off, t.feed(&MBOX[off..cut], off as u64)));
            off = cut;
        }
        (0..MBOX.len())
            .map(|o| {
                let (_, m) = maps.iter().rev().find(|(s, _)| *s <= o).unwrap();
                m.lookup(o as u64).map(str::to_string)
            })
            .collect()
    }

    #[test]
    fn mbox_ids_one_piece_and_split() {
        let whole = ids(&[]);
        let find = |s: &[u8]| memmem::find(MBOX, s).unwrap();
        assert_eq!(whole[find(b"body <")].as_deref(), Some("<1@a>"));
        assert_eq!(whole[find(b"body2")].as_deref(), Some("<2@c>"));
        assert_eq!(whole[find(b"From not")].as_deref(), Some("<2@c>"));
        assert_eq!(whole[find(b"body3")], None);
        // Split at every line start: exact after the cut, and everywhere
        // when the cut follows a blank line (as the piece reader prefers).
        let starts: Vec<usize> = memchr::memchr_iter(b'\n', MBOX)
            .map(|p| p + 1)
            .filter(|&p| p < MBOX.len())
            .collect();
        for &s in &starts {
            let got = ids(&[s]);
            assert_eq!(got[s..], whole[s..], "cut at {s}");
            if MBOX[..s].ends_with(b"\n\n") {
                assert_eq!(got, whole, "cut at {s}");
            }
        }
        let blank: Vec<usize> = starts
            .iter()
            .copied()
            .filter(|&s| MBOX[..s].ends_with(b"\n\n"))
            .collect();
        assert!(blank.len() >= 3);
        assert_eq!(ids(&blank), whole);
    }

    #[test]
    fn single_message() {
        let eml = b"Subject: x\nMessage-Id:   <9@z>  \n\n<http://a/>\nFrom x\n";
        let mut t = MessageTracker::new();
        let m = t.feed(eml, 0);
        assert_eq!(m.lookup(0), Some("<9@z>"));
        assert_eq!(m.lookup(eml.len() as u64 - 1), Some("<9@z>"));
    }
}
