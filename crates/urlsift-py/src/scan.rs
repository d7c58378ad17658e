//! The records of a byte string and of a file, the latter streamed with the
//! library's [`Extractor`] in bounded memory.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::path::Path;
use std::sync::{Arc, Mutex};

use urlsift::{Extractor, Match, Scanner};

use crate::input;
use crate::mail::MessageTracker;
use crate::messages::{lock, Ids, Interned, Tee};
use crate::record::Record;

/// The records of the URLs in `data` (in memory already: one pass).
pub fn extract_bytes(data: &[u8], scanner: Scanner) -> Vec<Record> {
    let map = MessageTracker::new().feed(data, 0);
    let mut ids = Interned::default();
    scanner
        .extract(data)
        .into_iter()
        .filter_map(|m| {
            // A URL in a forwarded message has that message's own id.
            let id = ids.get(m.forwarded_message_id().or_else(|| map.lookup(m.offset())));
            Record::new(m, None, id)
        })
        .collect()
}

/// The records of the URLs in a stream, in order, a batch at a time.
pub struct StreamScan {
    extractor: Extractor<Tee<Box<dyn Read + Send>>>,
    ids: Arc<Mutex<Ids>>,
    /// Matches taken from the extractor whose Message-ID is not known yet.
    held: VecDeque<Match>,
    path: Option<Arc<str>>,
    interned: Interned,
    done: bool,
    /// A read error, given after the records read before it.
    error: Option<io::Error>,
}

impl StreamScan {
    /// Scans the file at `path` (gzip decompressed), naming it `name`.
    pub fn open(path: &Path, name: Arc<str>, scanner: Scanner) -> io::Result<StreamScan> {
        Ok(StreamScan::new(input::open(path)?, Some(name), scanner))
    }

    /// Scans `reader`; `path` is the records' path.
    pub fn new(reader: Box<dyn Read + Send>, path: Option<Arc<str>>, scanner: Scanner) -> Self {
        let ids = Arc::new(Mutex::new(Ids::new(scanner.get_limits().max_bytes)));
        StreamScan {
            extractor: Extractor::with_scanner(Tee::new(reader, ids.clone()), scanner),
            ids,
            held: VecDeque::new(),
            path,
            interned: Interned::default(),
            done: false,
            error: None,
        }
    }

    /// Appends up to about `max` next records to `out`; none at the end. A
    /// read error comes once the records before it are out.
    pub fn next_batch(&mut self, max: usize, out: &mut VecDeque<Record>) -> io::Result<()> {
        let start = out.len();
        loop {
            {
                let mut ids = lock(&self.ids);
                while let Some(m) = self.held.front() {
                    let Some(id) = ids.lookup(m.offset()) else {
                        break;
                    };
                    let id = self.interned.get(m.forwarded_message_id().or(id));
                    let m = self.held.pop_front().expect("a front match");
                    out.extend(Record::new(m, self.path.as_ref(), id));
                }
                ids.hold(self.held.front().map(Match::offset));
                if self.done && !self.held.is_empty() {
                    // Only after a read error: what was read is all there is.
                    ids.finish();
                    continue;
                }
            }
            if out.len() - start >= max || self.done {
                break;
            }
            match self.extractor.next() {
                Some(Ok(m)) => self.held.push_back(m),
                Some(Err(e)) => {
                    self.done = true;
                    self.error = Some(e);
                }
                None => self.done = true,
            }
        }
        match self.error.take() {
            Some(e) if out.len() == start => Err(e),
            e => {
                self.error = e;
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MBOX: &[u8] = b"From a@b Mon\nMessage-ID: <1@a>\n\n<URL:http://a.b/x>\n\nFrom c@d\nMessage-Id: <2@c>\n\n> <ftp://c.d/y-\n> z> <http://x-/>\n";

    fn all(scan: &mut StreamScan, max: usize) -> io::Result<Vec<Record>> {
        let mut out = VecDeque::new();
        loop {
            let before = out.len();
            scan.next_batch(max, &mut out)?;
            if out.len() == before {
                return Ok(out.into());
            }
        }
    }

    #[test]
    fn stream_gives_the_records_of_one_pass() {
        let one = extract_bytes(MBOX, Scanner::new());
        assert_eq!(one.len(), 2);
        assert_eq!(one[0].message_id.as_deref(), Some("<1@a>"));
        assert_eq!(one[1].message_id.as_deref(), Some("<2@c>"));
        assert_eq!(one[1].url(), "ftp://c.d/y-z");
        for max in [1, 2, 100] {
            let name: Arc<str> = Arc::from("m");
            let mut scan = StreamScan::new(Box::new(MBOX), Some(name), Scanner::new());
            let got = all(&mut scan, max).unwrap();
            let want: Vec<Record> = one
                .iter()
                .cloned()
                .map(|mut r| {
                    r.path = Some(Arc::from("m"));
                    r
                })
                .collect();
            assert_eq!(got, want);
        }
    }

    /// A reader that fails after its data.
    struct Failing(&'static [u8]);

    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn a_read_error_ends_the_records() {
        let mut scan = StreamScan::new(Box::new(Failing(MBOX)), None, Scanner::new());
        let mut out = VecDeque::new();
        let err = loop {
            match scan.next_batch(1, &mut out) {
                Ok(()) => assert!(out.len() <= 2),
                Err(e) => break e,
            }
        };
        assert_eq!(err.to_string(), "disk on fire");
        let before = out.len();
        scan.next_batch(1, &mut out).unwrap();
        assert_eq!(out.len(), before);
    }
}
