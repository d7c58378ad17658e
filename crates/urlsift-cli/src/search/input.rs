//! Opening inputs and sniffing what they hold (gzip by magic bytes).

use crate::walk::{self, Entry};
use flate2::read::MultiGzDecoder;
use std::fs::File;
use std::io::{self, Read};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

pub(super) const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// A file that decides on its first read whether it is gzip (by the magic
/// bytes), so a news article costs no separate peek. For a file known to
/// be regular a short read is its end (POSIX: short only at end of file,
/// on a signal, or for pipes and devices), so the read that would return
/// 0 is skipped too: two system calls less per small file.
pub(super) struct Sniffed {
    pub(super) state: Sniff,
    pub(super) regular: bool,
    pub(super) eof: bool,
}

pub(super) enum Sniff {
    Unknown(File),
    Plain(File),
    Gzip(Box<MultiGzDecoder<io::Chain<io::Cursor<Vec<u8>>, File>>>),
    Taken,
}

impl Read for Sniffed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &mut self.state {
            Sniff::Gzip(d) => return d.read(buf),
            Sniff::Plain(_) if self.eof => return Ok(0),
            Sniff::Plain(f) => f.read(buf)?,
            Sniff::Unknown(f) => {
                let n = f.read(buf)?;
                let Sniff::Unknown(f) = std::mem::replace(&mut self.state, Sniff::Taken) else {
                    unreachable!("state checked above")
                };
                if n >= 2 && buf[..2] == GZIP_MAGIC {
                    // The bytes read so far start the compressed stream.
                    let head = io::Cursor::new(buf[..n].to_vec());
                    self.state = Sniff::Gzip(Box::new(MultiGzDecoder::new(head.chain(f))));
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

/// Opens a file and tells whether it is gzip, by its name or its magic
/// bytes (a positional read: the file position stays at the start; a
/// failure there shows again at the first real read).
pub(super) fn open_peeked(entry: &Entry, path: &Path) -> io::Result<(File, bool)> {
    use std::os::unix::fs::FileExt;
    let f = entry.open()?;
    let mut magic = [0u8; 2];
    let gz = gz_name(path) || (f.read_at(&mut magic, 0).unwrap_or(0) == 2 && magic == GZIP_MAGIC);
    Ok((f, gz))
}

/// Opens an input; a file's gzip-ness is decided by its name or on the
/// first read (see [`Sniffed`], also for what a known regular file saves).
pub(super) fn input_reader(entry: &Entry) -> io::Result<Box<dyn Read + Send>> {
    match entry {
        Entry::Stdin => Ok(Box::new(io::stdin())),
        Entry::File { path, .. } if gz_name(path) => {
            Ok(Box::new(MultiGzDecoder::new(entry.open()?)))
        }
        Entry::File { regular, .. } => Ok(Box::new(Sniffed {
            state: Sniff::Unknown(entry.open()?),
            regular: *regular,
            eof: false,
        })),
        Entry::Error(_) => unreachable!("no reader for an error entry"),
    }
}

pub(super) fn read_message(entry: &Entry, e: &io::Error) -> String {
    match entry {
        Entry::File { path, .. } => walk::message(path, e),
        _ => format!("urlsift: (standard input): {e}"),
    }
}
