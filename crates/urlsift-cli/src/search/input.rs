//! Opening inputs and sniffing what they hold: compressed streams by
//! their magic bytes, decoded on the first read; archives (and streams
//! inside streams) opened through [`crate::input::archive`].

use crate::input::archive::{self, Opened};
use crate::input::{sniff, ArchiveOpts};
use crate::walk::{self, Entry};
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::AsFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// A file that decides on its first read whether it is compressed (by the
/// magic bytes), so a news article costs no separate peek. For a file
/// known to be regular a short read is its end (POSIX: short only at end
/// of file, on a signal, or for pipes and devices), so the read that
/// would return 0 is skipped too: two system calls less per small file.
pub(super) struct Sniffed {
    pub(super) state: Sniff,
    pub(super) regular: bool,
    pub(super) eof: bool,
    /// Whether compressed streams are decoded.
    pub(super) decompress: bool,
}

pub(super) enum Sniff {
    Unknown(File),
    Plain(File),
    Decoded(Box<dyn Read + Send>),
    Taken,
}

impl Read for Sniffed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &mut self.state {
            Sniff::Decoded(d) => return d.read(buf),
            Sniff::Plain(_) if self.eof => return Ok(0),
            Sniff::Plain(f) => f.read(buf)?,
            Sniff::Unknown(f) => {
                let n = f.read(buf)?;
                let Sniff::Unknown(f) = std::mem::replace(&mut self.state, Sniff::Taken) else {
                    unreachable!("state checked above")
                };
                let codec = self.decompress.then(|| sniff::codec(&buf[..n])).flatten();
                if let Some(codec) = codec {
                    // The bytes read so far start the compressed stream.
                    let head = sniff::rejoin(buf[..n].to_vec(), f);
                    self.state = Sniff::Decoded(sniff::decoder(codec, head)?);
                    return self.read(buf);
                }
                self.state = Sniff::Plain(f);
                n
            }
            Sniff::Taken => return Ok(0),
        };
        self.eof = self.regular && n < buf.len();
        Ok(n)
    }
}

pub(super) fn gz_name(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.as_bytes() == b"gz")
}

/// Whether the first bytes of an input (as [`input_reader`] gives them)
/// need [`reopen`]: an archive to open, or a stream inside the stream.
pub(super) fn needs_opening(head: &[u8], opts: &ArchiveOpts) -> bool {
    (opts.depth > 0 && sniff::container(head).is_some())
        || (opts.decompress && sniff::codec(head).is_some())
}

/// Opens a file and tells whether it is more than plain text: compressed
/// or an archive, by its name (`.gz`) or its first bytes (a positional
/// read: the file position stays at the start; a failure there shows
/// again at the first real read). Plain text may be split among threads.
pub(super) fn open_peeked(
    entry: &Entry,
    path: &Path,
    opts: &ArchiveOpts,
) -> io::Result<(File, bool)> {
    use std::os::unix::fs::FileExt;
    let f = entry.open()?;
    let mut head = [0u8; sniff::HEAD];
    let n = f.read_at(&mut head, 0).unwrap_or(0);
    let special = (opts.decompress && gz_name(path)) || needs_opening(&head[..n], opts);
    Ok((f, special))
}

/// Opens an input; a file's compression is decided on the first read
/// (see [`Sniffed`], also for what a known regular file saves). What it
/// gives may still be an archive: see [`needs_opening`].
pub(super) fn input_reader(entry: &Entry, opts: &ArchiveOpts) -> io::Result<Box<dyn Read + Send>> {
    match entry {
        Entry::Stdin => Ok(super::live::stdin()),
        Entry::File { regular: false, .. } => {
            // A FIFO or a device: maybe live.
            let file = entry.open()?;
            let probe = file.try_clone()?;
            let sniffed = Box::new(Sniffed {
                state: Sniff::Unknown(file),
                regular: false,
                eof: false,
                decompress: opts.decompress,
            });
            Ok(super::live::wrap(sniffed, probe.as_fd()))
        }
        Entry::File { regular, .. } => Ok(Box::new(Sniffed {
            state: Sniff::Unknown(entry.open()?),
            regular: *regular,
            eof: false,
            decompress: opts.decompress,
        })),
        Entry::Error(_) => unreachable!("no reader for an error entry"),
    }
}

/// Opens an input all the way: compressed layers decoded, an archive
/// opened (see [`archive::open_file`]).
pub(super) fn open_input(entry: &Entry, opts: &ArchiveOpts) -> io::Result<Opened> {
    match entry {
        Entry::Stdin => archive::open_stream(super::live::stdin(), opts),
        // A FIFO or a device: read as a stream (maybe live), no peek.
        Entry::File { regular: false, .. } => {
            archive::open_stream(input_reader(entry, opts)?, opts)
        }
        Entry::File { .. } => archive::open_file(entry.open()?, opts),
        Entry::Error(_) => unreachable!("no reader for an error entry"),
    }
}

pub(super) fn read_message(entry: &Entry, e: &io::Error) -> String {
    match entry {
        Entry::File { path, .. } => walk::message(path, e),
        _ => format!("urlsift: (standard input): {e}"),
    }
}
