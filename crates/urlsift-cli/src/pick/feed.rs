//! The scanner thread's side: reads the search's records (see
//! `printer::picked`) as the search writes them, keeps each normalized URL
//! once, and sends the picker what is new in batches. It holds one key per
//! distinct URL, so memory grows with distinct URLs, not with the input.

use super::state::{Batch, Entry};
use crate::printer::picked::Record;
use std::collections::HashMap;
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
    /// Each key met, with its entry's number (keys as bytes: they are
    /// only compared, never shown).
    seen: HashMap<Box<[u8]>, usize>,
    /// A record cut by a write (the search writes whole records; this is
    /// only for safety).
    partial: Vec<u8>,
}

impl Feed {
    /// A feed sending to `tx`.
    pub fn new(tx: Sender<Msg>) -> Feed {
        Feed {
            tx,
            seen: HashMap::new(),
            partial: Vec::new(),
        }
    }

    fn add(&mut self, line: &[u8], batch: &mut Batch, counts: &mut HashMap<usize, u64>) {
        let Some(r) = Record::parse(line) else {
            return;
        };
        // One hash per record (most keys are new).
        let next = self.seen.len();
        match self.seen.entry(r.key.into()) {
            std::collections::hash_map::Entry::Occupied(e) => {
                *counts.entry(*e.get()).or_default() += 1;
            }
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(next);
                batch.new.push(Entry {
                    url: String::from_utf8_lossy(r.url).into_owned(),
                    form: r.form,
                    count: 1,
                    context: String::from_utf8_lossy(r.context.trim_ascii()).into_owned(),
                    target: None,
                });
            }
        }
    }
}

impl Write for Feed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut batch = Batch::default();
        let mut counts = HashMap::new();
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
                    self.add(&line, &mut batch, &mut counts);
                    rest = &rest[k + 1..];
                }
            }
        }
        while let Some(k) = memchr::memchr(b'\n', rest) {
            self.add(&rest[..k], &mut batch, &mut counts);
            rest = &rest[k + 1..];
        }
        self.partial.extend_from_slice(rest);
        batch.counts = counts.into_iter().collect();
        batch.counts.sort_unstable();
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
        assert_eq!(batches[0].new[0].url, "http://A/");
        assert_eq!(batches[0].new[0].context, "see <http://A/>");
        assert_eq!(batches[0].new[1].form, Form::Naked);
        assert_eq!(batches[1].counts, vec![(0, 1)]);
        assert!(batches[1].new.is_empty());
        assert_eq!(batches[2].new[0].url, "http://c/");
        assert_eq!(batches[2].new[0].form, Form::Wrapped);
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
