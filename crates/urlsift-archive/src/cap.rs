//! Readers that stop a decompression bomb: [`Capped`] fails once more
//! than its allowance has come out of the stream it wraps, with an error
//! ([`CapError`]) that names the limit, so the member is reported and the
//! search goes on with the next one.

use std::fmt;
use std::io::{self, Read};

/// Which limit a stream went past.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `--max-member-size`.
    Member,
    /// `--max-archive-size`.
    Archive,
    /// The size the archive's own directory declares for the member.
    Declared,
    /// The most bytes of a zip met in a stream that are spooled to a
    /// temporary file (a zip is read from its end).
    Spool,
}

/// A stream went past a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapError {
    /// The limit.
    pub limit: Limit,
    /// Its value in bytes.
    pub bytes: u64,
}

impl fmt::Display for CapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.bytes;
        match self.limit {
            Limit::Member => write!(
                f,
                "member decompresses to more than {n} bytes (--max-member-size); rest skipped"
            ),
            Limit::Archive => write!(
                f,
                "archive decompresses to more than {n} bytes (--max-archive-size); rest skipped"
            ),
            Limit::Declared => write!(
                f,
                "member holds more than the {n} bytes its archive declares; rest skipped"
            ),
            Limit::Spool => write!(
                f,
                "zip read from a stream is larger than {n} bytes, the most spooled to a \
                 temporary file to read it; read it from a file or a seekable object"
            ),
        }
    }
}

impl std::error::Error for CapError {}

impl CapError {
    /// The cap error inside `e`, if that is what `e` is.
    pub fn of(e: &io::Error) -> Option<CapError> {
        e.get_ref()?.downcast_ref::<CapError>().copied()
    }
}

/// Reads at most `left` bytes from `inner`; one byte more is an error (a
/// stream exactly at its limit is whole).
#[derive(Debug)]
pub struct Capped<R> {
    inner: R,
    left: u64,
    cap: CapError,
}

impl<R: Read> Capped<R> {
    /// `inner`, failing past `bytes` bytes with `limit`.
    pub fn new(inner: R, bytes: u64, limit: Limit) -> Capped<R> {
        Capped {
            inner,
            left: bytes,
            cap: CapError { limit, bytes },
        }
    }
}

impl<R: Read> Read for Capped<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        // One byte past the allowance tells a stream at its limit from one
        // over it.
        let want = buf
            .len()
            .min(self.left.saturating_add(1).min(usize::MAX as u64) as usize);
        let n = self.inner.read(&mut buf[..want])?;
        if n as u64 > self.left {
            self.left = 0;
            return Err(io::Error::new(io::ErrorKind::InvalidData, self.cap));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_at_the_limit_is_whole() {
        let mut out = Vec::new();
        Capped::new(&[7u8; 100][..], 100, Limit::Member)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out.len(), 100);
    }

    #[test]
    fn past_the_limit_fails_with_the_limit_named() {
        let mut out = Vec::new();
        let e = Capped::new(io::repeat(b'x'), 1000, Limit::Archive)
            .read_to_end(&mut out)
            .unwrap_err();
        assert!(out.len() <= 1000);
        let cap = CapError::of(&e).unwrap();
        assert_eq!(cap.limit, Limit::Archive);
        assert!(e.to_string().contains("--max-archive-size"), "{e}");
        // And it stays failed.
        let mut c = Capped::new(io::repeat(b'x'), 3, Limit::Declared);
        let mut buf = [0u8; 8];
        assert!(c.read(&mut buf).is_err());
        assert!(c.read(&mut buf).is_err());
    }
}
