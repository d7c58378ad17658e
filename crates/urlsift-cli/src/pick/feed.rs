//! The scanner thread's side: reads the search's records (see
//! `printer::picked`) as the search writes them, keeps each normalized URL
//! once, and sends the picker what is new in batches. It holds one key per
//! distinct URL, so memory grows with distinct URLs, not with the input.

use super::state::{Batch, Entry};
use crate::printer::picked::Record;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, BuildHasherDefault, Hasher};
use std::io::{self, Write};
use std::sync::mpsc::Sender;

/// What the picker hears from the scanner thread.
#[derive(Debug)]
pub enum Msg {
    /// URLs found.
    Batch(Batch),
    /// The search ended with this exit status.
    Done(i32),
}

/// The search's output: records in, batches out.
pub struct Feed {
    tx: Sender<Msg>,
    /// The keys met, one after the other (as bytes: they are only
    /// compared, never shown), and where each entry's ends: no allocation
    /// per URL.
    keys: Vec<u8>,
    ends: Vec<usize>,
    /// A key's SipHash (randomly keyed: a sender cannot aim at
    /// collisions) to the entry of the first key with it.
    seen: HashMap<u64, usize, BuildHasherDefault<Identity>>,
    hasher: RandomState,
    /// The keys whose hash an earlier key had (not met in practice).
    others: HashMap<Box<[u8]>, usize>,
    /// A record cut by a write (the search writes whole records; this is
    /// only for safety).
    partial: Vec<u8>,
}

impl Feed {
    /// A feed sending to `tx`.
    pub fn new(tx: Sender<Msg>) -> Feed {
        Feed {
            tx,
            keys: Vec::new(),
            ends: Vec::new(),
            seen: HashMap::default(),
            hasher: RandomState::new(),
            others: HashMap::new(),
            partial: Vec::new(),
        }
    }

    fn key(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.keys[start..self.ends[i]]
    }

    /// The entry number of `key`: `Ok` if it was met before, `Err` with a
    /// new number if not (the key is then kept).
    fn lookup(&mut self, key: &[u8]) -> Result<usize, usize> {
        let next = self.ends.len();
        let h = self.hasher.hash_one(key);
        match self.seen.get(&h) {
            Some(&i) if self.key(i) == key => return Ok(i),
            Some(_) => match self.others.get(key) {
                Some(&i) => return Ok(i),
                None => {
                    self.others.insert(key.into(), next);
                }
            },
            None => {
                self.seen.insert(h, next);
            }
        }
        self.keys.extend_from_slice(key);
        self.ends.push(self.keys.len());
        Err(next)
    }

    fn add(&mut self, line: &[u8], batch: &mut Batch) {
        let Some(r) = Record::parse(line) else {
            return;
        };
        match self.lookup(r.key) {
            Ok(i) => batch.counts.push((i, 1)),
            Err(_) => {
                // Where a wrapped link goes (Safe Links, Proofpoint, ...),
                // shown beside it; the wrapper stays what is opened.
                let wrapped = urlsift::wrapped(r.url);
                batch.new.push(Entry::new(
                    &text(r.url),
                    r.form,
                    &text(r.context.trim_ascii()),
                    wrapped.as_ref().and_then(urlsift::Unwrapped::target),
                ))
            }
        }
    }
}

/// `bytes` as text, lossily: most are valid UTF-8, which `from_utf8`
/// checks faster than the lossy reading walks it (and borrows).
fn text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.into(),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

impl Write for Feed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut batch = Batch::default();
        let mut rest = buf;
        if !self.partial.is_empty() {
            match memchr::memchr(b'\n', rest) {
                None => {
                    self.partial.extend_from_slice(rest);
                    return Ok(buf.len());
                }
                Some(k) => {
                    let mut line = std::mem::take(&mut self.partial);
                    line.extend_from_slice(&rest[..k]);
                    self.add(&line, &mut batch);
                    rest = &rest[k + 1..];
                }
            }
        }
        while let Some(k) = memchr::memchr(b'\n', rest) {
            self.add(&rest[..k], &mut batch);
            rest = &rest[k + 1..];
        }
        self.partial.extend_from_slice(rest);
        if !batch.new.is_empty() || !batch.counts.is_empty() {
            // The picker has gone: the search stops as on a closed pipe.
            self.tx
                .send(Msg::Batch(batch))
                .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The hasher of keys that are hashes already.
#[derive(Default)]
pub struct Identity(u64);

impl Hasher for Identity {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;
    use urlsift::Form;

    #[test]
    fn each_key_once_counts_after() {
        let (tx, rx) = channel();
        let mut f = Feed::new(tx);
        f.write_all(
            b"http://a/\tbracketed\thttp://A/\t  see <http://A/>\nhttp://b/\tnaked\thttp://b/\t\n",
        )
        .unwrap();
        // A record cut in two, and a repeat.
        f.write_all(b"http://a/\thref\thttp://a/\tx\nhttp://c/\twra")
            .unwrap();
        f.write_all(b"pped\thttp://c/\tctx\n").unwrap();
        f.write_all(b"not a record\n").unwrap();
        drop(f);
        let batches: Vec<Batch> = rx
            .iter()
            .map(|m| match m {
                Msg::Batch(b) => b,
                Msg::Done(_) => unreachable!(),
            })
            .collect();
        assert_eq!(batches.len(), 3);
        assert_eq!(batches[0].new.len(), 2);
        assert_eq!(batches[0].new[0].url(), "http://A/");
        assert_eq!(batches[0].new[0].context(), "see <http://A/>");
        assert_eq!(batches[0].new[1].form, Form::Naked);
        assert_eq!(batches[1].counts, vec![(0, 1)]);
        assert!(batches[1].new.is_empty());
        assert_eq!(batches[2].new[0].url(), "http://c/");
        assert_eq!(batches[2].new[0].form, Form::Wrapped);
    }

    #[test]
    fn keys_whose_hashes_collide_stay_apart() {
        let (tx, _rx) = channel();
        let mut f = Feed::new(tx);
        assert_eq!(f.lookup(b"http://a/"), Err(0));
        assert_eq!(f.lookup(b"http://b/"), Err(1));
        assert_eq!(f.lookup(b"http://a/"), Ok(0));
        // A key given the hash of another (as a collision would).
        let h = f.hasher.hash_one(&b"http://c/"[..]);
        f.seen.insert(h, 1);
        assert_eq!(f.lookup(b"http://c/"), Err(2));
        assert_eq!(f.lookup(b"http://c/"), Ok(2));
        assert_eq!(f.lookup(b"http://b/"), Ok(1));
        assert_eq!(f.key(2), b"http://c/");
    }

    #[test]
    fn a_gone_picker_reads_as_a_closed_pipe() {
        let (tx, rx) = channel();
        drop(rx);
        let mut f = Feed::new(tx);
        let e = f.write_all(b"http://a/\thref\thttp://a/\t\n").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    }
}
