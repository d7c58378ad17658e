//! The records of a byte string and of a file, the latter streamed with the
//! library's [`Extractor`] in bounded memory; an archive's members walked
//! (by `urlsift-archive`, as the command walks them) on a thread of their
//! own, their records handed over a bounded channel.

use std::collections::VecDeque;
use std::fmt::Display;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;

use urlsift::{Extractor, Scanner};
use urlsift_archive::archive::{self, Opened, PosFile, ReadAt, Visitor};
use urlsift_archive::ArchiveOpts;

use crate::record::Record;

/// The records of the URLs in `data` (in memory already: one pass). Each
/// match carries its message's fields from the library.
pub fn extract_bytes(data: &[u8], scanner: Scanner) -> Vec<Record> {
    scanner
        .extract(data)
        .into_iter()
        .filter_map(|m| Record::new(m, None))
        .collect()
}

/// The records of the URLs in a stream, in order, a batch at a time.
pub struct StreamScan<R> {
    extractor: Extractor<R>,
    path: Option<Arc<str>>,
    /// The archive member the stream is, if any.
    member: Option<Arc<str>>,
    done: bool,
    /// A read error, given after the records read before it.
    error: Option<io::Error>,
    /// Where the stream stands in its file: bytes and lines before it (a
    /// range of a file cut at message starts).
    base: (u64, u64),
}

impl<R: Read> StreamScan<R> {
    /// Scans `reader`; `path` is the records' path.
    pub fn new(reader: R, path: Option<Arc<str>>, scanner: Scanner) -> Self {
        StreamScan {
            extractor: Extractor::with_scanner(reader, scanner),
            path,
            member: None,
            done: false,
            error: None,
            base: (0, 0),
        }
    }

    /// Appends up to about `max` next records to `out`; none at the end. A
    /// read error comes once the records before it are out.
    pub fn next_batch(&mut self, max: usize, out: &mut VecDeque<Record>) -> io::Result<()> {
        let start = out.len();
        while out.len() - start < max && !self.done {
            match self.extractor.next() {
                Some(Ok(m)) => {
                    let (offset, lines) = self.base;
                    out.extend(Record::new(m, self.path.as_ref()).map(|mut r| {
                        r.member.clone_from(&self.member);
                        r.rebase(offset, lines);
                        r
                    }))
                }
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

/// What `extract_file` reads: one stream (a plain or compressed file), or
/// the members of an archive.
pub enum FileScan {
    /// A file searched as one stream (decoded when compressed).
    Stream(StreamScan<Box<dyn Read + Send>>),
    /// An archive walked member by member.
    Archive(ArchiveScan),
}

impl FileScan {
    /// Opens the file at `path` as the command does (by content, with its
    /// default depth and caps), naming the records' path `name`.
    pub fn open(path: &Path, name: Arc<str>, scanner: Scanner) -> io::Result<FileScan> {
        let opts = ArchiveOpts::default();
        Ok(match archive::open_file(File::open(path)?, &opts)? {
            Opened::Plain(r) => FileScan::Stream(StreamScan::new(r, Some(name), scanner)),
            opened => FileScan::Archive(ArchiveScan::spawn(opened, opts, Some(name), scanner)),
        })
    }

    /// Opens a stream as the command opens stdin (a zip in it spooled to
    /// a temporary file, up to its cap).
    pub fn open_stream(
        r: Box<dyn Read + Send>,
        name: Option<Arc<str>>,
        scanner: Scanner,
    ) -> io::Result<FileScan> {
        let opts = ArchiveOpts::default();
        Ok(match archive::open_stream(r, &opts)? {
            Opened::Plain(r) => FileScan::Stream(StreamScan::new(r, name, scanner)),
            opened => FileScan::Archive(ArchiveScan::spawn(opened, opts, name, scanner)),
        })
    }

    /// Opens `len` bytes read at positions (a zip read in place).
    pub fn open_at(
        src: Arc<dyn ReadAt>,
        len: u64,
        name: Option<Arc<str>>,
        scanner: Scanner,
    ) -> io::Result<FileScan> {
        let opts = ArchiveOpts::default();
        Ok(match archive::open_at(src, len, &opts)? {
            Opened::Plain(r) => FileScan::Stream(StreamScan::new(r, name, scanner)),
            opened => FileScan::Archive(ArchiveScan::spawn(opened, opts, name, scanner)),
        })
    }

    /// The range `[start, stop)` of a plain file, `start` a message start
    /// after `lines` lines: its records are those a scan of the whole file
    /// gives there (same offsets, lines and Message-IDs).
    pub fn range(
        src: Arc<dyn ReadAt>,
        (start, stop, lines): (u64, u64, u64),
        name: Arc<str>,
        scanner: Scanner,
    ) -> io::Result<FileScan> {
        let mut at = PosFile::new(src, stop);
        at.seek(SeekFrom::Start(start))?;
        let r: Box<dyn Read + Send> = Box::new(at.take(stop.saturating_sub(start)));
        let mut scan = StreamScan::new(r, Some(name), scanner);
        scan.base = (start, lines);
        Ok(FileScan::Stream(scan))
    }

    /// Appends up to about `max` next records to `out`; none at the end.
    /// An error comes once the records before it are out.
    pub fn next_batch(&mut self, max: usize, out: &mut VecDeque<Record>) -> io::Result<()> {
        match self {
            FileScan::Stream(s) => s.next_batch(max, out),
            FileScan::Archive(a) => a.next_batch(out),
        }
    }
}

/// What the walking thread sends.
enum Sent {
    Records(Vec<Record>),
    /// Damage, a cap passed or a read error in a member (the walk goes on),
    /// as the command words it after `urlsift: `.
    Damage(String),
}

/// An archive's records, from a thread that walks it. The channel holds a
/// few batches: memory stays bounded however large the members, and
/// dropping the scan (the iterator) ends the walk at its next send.
pub struct ArchiveScan {
    rx: Receiver<Sent>,
    damage: Vec<String>,
}

/// Batches in the channel at most.
const IN_FLIGHT: usize = 2;

impl ArchiveScan {
    fn spawn(
        opened: Opened,
        opts: ArchiveOpts,
        name: Option<Arc<str>>,
        scanner: Scanner,
    ) -> ArchiveScan {
        let (tx, rx) = sync_channel(IN_FLIGHT);
        std::thread::spawn(move || {
            let mut walker = Walker { tx, name, scanner };
            if let Err(e) = archive::walk(opened, &opts, &mut walker) {
                let what = format!("{}: {e}", walker.printed(&[]));
                let _ = walker.tx.send(Sent::Damage(what));
            }
        });
        ArchiveScan {
            rx,
            damage: Vec::new(),
        }
    }

    fn next_batch(&mut self, out: &mut VecDeque<Record>) -> io::Result<()> {
        loop {
            match self.rx.recv() {
                Ok(Sent::Records(batch)) => {
                    out.extend(batch);
                    return Ok(());
                }
                Ok(Sent::Damage(what)) => self.damage.push(what),
                // The walk is over: what was wrong, after every record.
                Err(_) if self.damage.is_empty() => return Ok(()),
                Err(_) => {
                    return Err(io::Error::other(
                        std::mem::take(&mut self.damage).join("; "),
                    ))
                }
            }
        }
    }
}

/// The archive visitor of the walking thread: each member scanned as a
/// file is, its records sent in batches.
struct Walker {
    tx: SyncSender<Sent>,
    /// The records' path (`None` for a stream with no name).
    name: Option<Arc<str>>,
    scanner: Scanner,
}

impl Walker {
    /// `archive{member}{inner}`, as the command prints it.
    fn printed(&self, names: &[Vec<u8>]) -> String {
        let mut s = self.name.as_deref().unwrap_or("(stream)").to_string();
        for n in names {
            s.push('{');
            s.push_str(&String::from_utf8_lossy(n));
            s.push('}');
        }
        s
    }

    fn send(&self, sent: Sent) -> io::Result<()> {
        // The receiver is gone: the iterator was dropped; stop the walk.
        self.tx
            .send(sent)
            .map_err(|_| io::Error::other("the iterator is gone"))
    }
}

impl Visitor for Walker {
    fn member(&mut self, names: &[Vec<u8>], r: &mut dyn Read) -> io::Result<()> {
        let member: Option<Arc<str>> = (!names.is_empty()).then(|| {
            let parts: Vec<_> = names.iter().map(|n| String::from_utf8_lossy(n)).collect();
            Arc::from(parts.join("}{"))
        });
        let mut scan = StreamScan::new(r, self.name.clone(), self.scanner);
        scan.member = member;
        loop {
            let mut out = VecDeque::new();
            match scan.next_batch(crate::BATCH, &mut out) {
                Ok(()) if out.is_empty() => return Ok(()),
                Ok(()) => self.send(Sent::Records(out.into()))?,
                // A member that cannot be read on: said, and the walk goes on.
                Err(e) => return self.send(Sent::Damage(format!("{}: {e}", self.printed(names)))),
            }
        }
    }

    fn error(&mut self, names: &[Vec<u8>], what: &dyn Display) -> io::Result<()> {
        self.send(Sent::Damage(format!("{}: {what}", self.printed(names))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanner() -> Scanner {
        crate::options::Options::default().scanner()
    }

    const MBOX: &[u8] = b"From a@b Mon\nMessage-ID: <1@a>\n\n<URL:http://a.b/x>\n\nFrom c@d\nMessage-Id: <2@c>\n\n> <ftp://c.d/y-\n> z> <http://x-/>\n";

    fn all<R: Read>(scan: &mut StreamScan<R>, max: usize) -> io::Result<Vec<Record>> {
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
        let one = extract_bytes(MBOX, scanner());
        assert_eq!(one.len(), 2);
        assert_eq!(one[0].message_id(), Some("<1@a>"));
        assert_eq!(one[1].message_id(), Some("<2@c>"));
        assert_eq!(one[1].url(), "ftp://c.d/y-z");
        for max in [1, 2, 100] {
            let name: Arc<str> = Arc::from("m");
            let mut scan = StreamScan::new(Box::new(MBOX), Some(name), scanner());
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
        let mut scan = StreamScan::new(Box::new(Failing(MBOX)), None, scanner());
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
