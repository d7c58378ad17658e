//! Live inputs (a pipe, a FIFO, a terminal, a socket): what each read
//! returns is searched as soon as the input pauses, so a URL in a line of
//! `tail -f mail.log | urlsift` comes out at once. Files keep their large
//! reads.
//!
//! [`Live`] says "paused" (a `WouldBlock` carrying [`Paused`]) when no byte
//! has come for [`PAUSE`] before it reads on, blocking; the piece reader
//! ([`urlsift::PieceReader::live`]) then cuts what it holds where the
//! scanner decides every candidate before the cut. While bytes keep
//! coming (`cat big.mbox | urlsift`, whose writer refills the pipe within
//! microseconds) nothing pauses and pieces stay full: no second look at
//! the bytes to find the cut, no small units for the threads.

use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::fs::FileType;

/// How long a live input must stay silent to count as paused: far below
/// what a person sees, far above the gaps of a pipe whose writer keeps up.
pub(super) const PAUSE: Timespec = Timespec {
    tv_sec: 0,
    tv_nsec: 5_000_000,
};

/// The mark on a [`Live`] reader's `WouldBlock`: the input paused, read on.
#[derive(Debug)]
pub(super) struct Paused;

impl std::fmt::Display for Paused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the input paused")
    }
}

impl std::error::Error for Paused {}

/// Whether `e` is a [`Live`] reader's pause (not a real `WouldBlock` of a
/// non-blocking input, which stays an error).
pub(super) fn is_pause(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<Paused>())
}

/// A live input's reader: pauses when nothing is waiting.
pub(super) struct Live {
    inner: Box<dyn Read + Send>,
    /// The input's descriptor (a duplicate), to wait on.
    probe: OwnedFd,
    /// Whether the last call said "paused": this one reads.
    paused: bool,
}

impl Read for Live {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut fds = [PollFd::new(&self.probe, PollFlags::IN)];
        if !self.paused && rustix::event::poll(&mut fds, Some(&PAUSE)).is_ok_and(|n| n == 0) {
            self.paused = true;
            return Err(io::Error::new(io::ErrorKind::WouldBlock, Paused));
        }
        self.paused = false;
        self.inner.read(buf)
    }
}

/// `r`, reading from `fd`, as a [`Live`] reader when `fd` is a pipe, FIFO,
/// terminal or socket; as it is otherwise.
pub(super) fn wrap(r: Box<dyn Read + Send>, fd: BorrowedFd<'_>) -> Box<dyn Read + Send> {
    let live = rustix::fs::fstat(fd).is_ok_and(|st| {
        matches!(
            FileType::from_raw_mode(st.st_mode),
            FileType::Fifo | FileType::CharacterDevice | FileType::Socket
        )
    });
    match fd.try_clone_to_owned() {
        Ok(probe) if live => Box::new(Live {
            inner: r,
            probe,
            paused: false,
        }),
        _ => r,
    }
}

/// [`wrap`] for standard input.
pub(super) fn stdin() -> Box<dyn Read + Send> {
    wrap(Box::new(io::stdin()), io::stdin().as_fd())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_pipe_pauses_when_empty_and_reads_when_not() {
        let (r, mut w) = std::io::pipe().unwrap();
        let fd = r.as_fd().try_clone_to_owned().unwrap();
        let mut live = wrap(Box::new(r), fd.as_fd());
        w.write_all(b"abc").unwrap();
        let mut buf = [0u8; 16];
        assert_eq!(live.read(&mut buf).unwrap(), 3);
        let e = live.read(&mut buf).unwrap_err();
        assert!(is_pause(&e), "{e}");
        w.write_all(b"de").unwrap();
        drop(w);
        assert_eq!(live.read(&mut buf).unwrap(), 2);
        // The writer gone, the end comes at once.
        assert_eq!(live.read(&mut buf).unwrap(), 0);
        assert!(!is_pause(&io::Error::from(io::ErrorKind::WouldBlock)));
    }

    #[test]
    fn a_file_is_not_live() {
        let f = tempfile::tempfile().unwrap();
        let fd = f.as_fd().try_clone_to_owned().unwrap();
        let mut r = wrap(Box::new(f), fd.as_fd());
        let mut buf = [0u8; 4];
        // An empty file: the end at once, never a pause.
        assert_eq!(r.read(&mut buf).unwrap(), 0);
    }
}
