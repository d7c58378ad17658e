//! The records of a byte string and of a file, the latter streamed with the
//! library's [`Extractor`] in bounded memory; an archive's members walked
//! (by `urlsift-archive`, as the command walks them) on a thread of their
//! own, their records handed over a bounded channel; a large file's stream
//! moved to such a thread once it has shown itself large.

use std::collections::VecDeque;
use std::fmt::{self, Display};
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

/// A reader that ends at its first error: the error is kept, and the
/// reader gives end of input from then on. The extractor then finishes as
/// at the end of a file, so the matches the bytes before the damage hold
/// all come out (those of the piece in flight too), as the command gives
/// them; the error is said after them.
pub struct UntilError<R> {
    inner: R,
    error: Option<io::Error>,
    ended: bool,
}

impl<R: Read> Read for UntilError<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended {
            return Ok(0);
        }
        loop {
            match self.inner.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.ended = true;
                    self.error = Some(e);
                    return Ok(0);
                }
                got => return got,
            }
        }
    }
}

/// One failure in a file: the archive member it was met in (`None` for the
/// file itself) and what went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The member's path inside the archive, nested names joined by `}{`
    /// (as a record's `member`).
    pub member: Option<String>,
    /// What went wrong, as the command says it after the name.
    pub error: String,
    /// The whole message as the command prints it after `urlsift: `.
    pub shown: String,
}

/// What could not be read in a file, every failure in order: the error a
/// scan ends with after its records (inside an `io::Error`).
#[derive(Debug)]
pub struct Damage(pub Vec<Failure>);

impl Display for Damage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, failure) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            f.write_str(&failure.shown)?;
        }
        Ok(())
    }
}

impl std::error::Error for Damage {}

/// The failures an error stands for: a scan's [`Damage`], else the error
/// itself in the file (not in a member).
pub fn failures(e: &io::Error) -> Vec<Failure> {
    if let Some(d) = e.get_ref().and_then(|x| x.downcast_ref::<Damage>()) {
        return d.0.clone();
    }
    let error = e.to_string();
    vec![Failure {
        member: None,
        shown: error.clone(),
        error,
    }]
}

/// The records of the URLs in a stream, in order, a batch at a time.
pub struct StreamScan<R> {
    extractor: Extractor<UntilError<R>>,
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
            extractor: Extractor::with_scanner(
                UntilError {
                    inner: reader,
                    error: None,
                    ended: false,
                },
                scanner,
            ),
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
                None => {
                    self.done = true;
                    // The reader's error, once every record before it is out.
                    self.error = self.extractor.get_mut().error.take();
                }
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
    /// A stream scanned on a thread of its own ([`FileScan::read_ahead`]).
    Ahead(AheadScan),
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
            FileScan::Ahead(a) => a.next_batch(out),
        }
    }

    /// Moves a stream's scan, where it stands, to a thread of its own (an
    /// archive's walk has one already): the next records are made while
    /// the caller (Python, which holds the GIL) turns the ones before into
    /// objects, at the cost of a thread, worth it only for a large file.
    /// A thread that cannot be started is an error, after which the scan
    /// gives nothing more (the stream went with the thread's closure).
    pub fn read_ahead(&mut self) -> io::Result<()> {
        if let FileScan::Stream(_) = self {
            let FileScan::Stream(s) = std::mem::replace(self, FileScan::Ahead(AheadScan::over()))
            else {
                unreachable!("matched above")
            };
            *self = FileScan::Ahead(AheadScan::spawn(s).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("could not start a thread to scan on: {e}"),
                )
            })?);
        }
        Ok(())
    }
}

/// Records a read-ahead thread sends at a time.
const AHEAD_BATCH: usize = 256;

/// A stream's records, from a thread that scans it. As for an archive,
/// the channel holds a few batches (memory stays bounded), and dropping
/// the scan ends the thread at its next send. A read error comes after
/// the records before it, as from the stream scanned in place.
pub struct AheadScan {
    rx: Receiver<io::Result<VecDeque<Record>>>,
}

impl AheadScan {
    /// The name of its thread (as `top -H` and `/proc` show it).
    pub const THREAD: &'static str = "urlsift-scan";

    fn spawn(mut scan: StreamScan<Box<dyn Read + Send>>) -> io::Result<AheadScan> {
        let (tx, rx) = sync_channel(IN_FLIGHT);
        let thread = std::thread::Builder::new().name(Self::THREAD.into());
        thread.spawn(move || loop {
            let mut out = VecDeque::with_capacity(AHEAD_BATCH);
            let sent = match scan.next_batch(AHEAD_BATCH, &mut out) {
                Ok(()) if out.is_empty() => return,
                Ok(()) => tx.send(Ok(out)),
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            if sent.is_err() {
                // The receiver is gone: the iterator was dropped.
                return;
            }
        })?;
        Ok(AheadScan { rx })
    }

    /// A scan with no records.
    fn over() -> AheadScan {
        AheadScan {
            rx: sync_channel(0).1,
        }
    }

    fn next_batch(&mut self, out: &mut VecDeque<Record>) -> io::Result<()> {
        match self.rx.recv() {
            Ok(Ok(batch)) if out.is_empty() => *out = batch,
            Ok(Ok(batch)) => out.extend(batch),
            Ok(Err(e)) => return Err(e),
            // The scan is over (its error, if any, was received).
            Err(_) => {}
        }
        Ok(())
    }
}

/// What the walking thread sends.
enum Sent {
    Records(Vec<Record>),
    /// Damage, a cap passed or a read error in a member (the walk goes on).
    Damage(Failure),
}

/// An archive's records, from a thread that walks it. The channel holds a
/// few batches: memory stays bounded however large the members, and
/// dropping the scan (the iterator) ends the walk at its next send.
pub struct ArchiveScan {
    rx: Receiver<Sent>,
    damage: Vec<Failure>,
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
                let _ = walker.tx.send(Sent::Damage(walker.failure(&[], &e)));
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
                Err(_) => return Err(io::Error::other(Damage(std::mem::take(&mut self.damage)))),
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

    /// A failure in the member `names` (the archive itself when empty).
    fn failure(&self, names: &[Vec<u8>], what: &dyn Display) -> Failure {
        let member = (!names.is_empty()).then(|| member_name(names));
        Failure {
            member,
            error: what.to_string(),
            shown: format!("{}: {what}", self.printed(names)),
        }
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
        let member: Option<Arc<str>> = (!names.is_empty()).then(|| Arc::from(member_name(names)));
        let mut scan = StreamScan::new(r, self.name.clone(), self.scanner);
        scan.member = member;
        loop {
            let mut out = VecDeque::new();
            match scan.next_batch(crate::BATCH, &mut out) {
                Ok(()) if out.is_empty() => return Ok(()),
                Ok(()) => self.send(Sent::Records(out.into()))?,
                // A member that cannot be read on: said, and the walk goes on.
                Err(e) => return self.send(Sent::Damage(self.failure(names, &e))),
            }
        }
    }

    fn error(&mut self, names: &[Vec<u8>], what: &dyn Display) -> io::Result<()> {
        self.send(Sent::Damage(self.failure(names, what)))
    }
}

/// A member's path as a record's `member`: nested names joined by `}{`.
fn member_name(names: &[Vec<u8>]) -> String {
    let parts: Vec<_> = names.iter().map(|n| String::from_utf8_lossy(n)).collect();
    parts.join("}{")
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
        // Every record of the bytes before the error came first, the
        // last one (still open at the error: the input ends inside its
        // message) too, as the command gives them.
        let urls: Vec<&str> = out.iter().map(|r| r.url()).collect();
        assert_eq!(urls, ["http://a.b/x", "ftp://c.d/y-z"]);
        assert_eq!(
            failures(&err),
            [Failure {
                member: None,
                error: "disk on fire".into(),
                shown: "disk on fire".into()
            }]
        );
        let before = out.len();
        scan.next_batch(1, &mut out).unwrap();
        assert_eq!(out.len(), before);
    }
}
