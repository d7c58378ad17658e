//! Recognises what a stream holds by its first bytes (names are not
//! trusted: a `.txt` may be gzip, a `.zip` may be text): the compressed
//! streams this command decodes and the archives it opens.

use std::io::{self, Read};

/// Bytes to look at: a tar header's magic sits at 257.
pub const HEAD: usize = 512;

/// A compressed stream's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// RFC 1952 (members after the first read too).
    Gzip,
    /// bzip2 (concatenated streams too).
    Bzip2,
    /// xz (concatenated streams too).
    Xz,
    /// Zstandard (all frames).
    Zstd,
}

/// An archive's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// tar: ustar, pax or GNU, or an old (v7) header with a good checksum.
    Tar,
    /// zip (read from its central directory).
    Zip,
}

/// The compressed stream `head` starts, if any.
pub fn codec(head: &[u8]) -> Option<Codec> {
    if head.starts_with(&[0x1f, 0x8b]) {
        return Some(Codec::Gzip);
    }
    if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        return Some(Codec::Xz);
    }
    if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        return Some(Codec::Zstd);
    }
    // "BZh" and a block size digit, then a block's or the end's magic
    // (text may start "BZh1").
    if head.len() >= 10
        && head.starts_with(b"BZh")
        && (b'1'..=b'9').contains(&head[3])
        && (head[4..10] == [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]
            || head[4..10] == [0x17, 0x72, 0x45, 0x38, 0x50, 0x90])
    {
        return Some(Codec::Bzip2);
    }
    None
}

/// The archive `head` starts, if any.
pub fn container(head: &[u8]) -> Option<Container> {
    // A local file header, or the end record of an empty archive.
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Container::Zip);
    }
    if head.len() >= 512 && (&head[257..262] == b"ustar" || tar_checksum_ok(&head[..512])) {
        return Some(Container::Tar);
    }
    None
}

/// Whether a 512-byte block is a tar header by its checksum (the sum of
/// its bytes, the checksum field counted as spaces, written in octal).
fn tar_checksum_ok(h: &[u8]) -> bool {
    // An all-zero block (a tar's end) is no header; a name must start it.
    if h[0] == 0 {
        return false;
    }
    let field = &h[148..156];
    let digits: Vec<u8> = field
        .iter()
        .copied()
        .skip_while(|&b| b == b' ')
        .take_while(|b| (b'0'..=b'7').contains(b))
        .collect();
    if digits.is_empty() {
        return false;
    }
    let Ok(want) = u32::from_str_radix(std::str::from_utf8(&digits).unwrap_or("x"), 8) else {
        return false;
    };
    let sum: u32 = h
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            if (148..156).contains(&i) {
                32
            } else {
                b as u32
            }
        })
        .sum();
    sum == want
}

/// A stream whose first bytes were read ahead (see [`peek`]): they come
/// first, then a read error met reading them (the bytes before an error
/// are searched like any), then the rest of the stream.
pub struct Peeked<R> {
    head: io::Cursor<Vec<u8>>,
    err: Option<io::Error>,
    r: R,
}

impl<R> Peeked<R> {
    /// The bytes read ahead: what [`codec`] and [`container`] look at.
    pub fn head(&self) -> &[u8] {
        self.head.get_ref()
    }
}

impl<R: Read> Read for Peeked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.head.read(buf)?;
        if n > 0 || buf.is_empty() {
            return Ok(n);
        }
        if let Some(e) = self.err.take() {
            return Err(e);
        }
        self.r.read(buf)
    }
}

/// Whether `head` already tells what the stream is, before [`HEAD`]
/// bytes: a live stream (a pipe written a line at a time) must not wait
/// for more. Only a tar needs them all, and a tar header's name field (its
/// first 100 bytes) holds no line feed, which a text's first line has.
fn decided(head: &[u8]) -> bool {
    head.len() >= 10
        && (codec(head).is_some()
            || container(head) == Some(Container::Zip)
            || head[..head.len().min(100)].contains(&b'\n'))
}

/// Reads up to [`HEAD`] bytes of `r` ahead (fewer at its end, at a read
/// error, which comes after them, or once they tell what the stream is).
///
/// A `WouldBlock` before the first byte is read past once: a live input
/// says so when its writer has not written yet (`cat a.zip | urlsift`,
/// the writer slow to start), and reads on, blocking, at the next call;
/// with no byte at hand, nothing tells what the stream is. A second one
/// in a row (an input that cannot block) is kept as the error.
pub fn peek<R: Read>(mut r: R) -> Peeked<R> {
    let mut head = vec![0u8; HEAD];
    let mut n = 0;
    let mut err = None;
    let mut waited = false;
    while n < HEAD {
        match r.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => {
                n += k;
                if decided(&head[..n]) {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock && n == 0 && !waited => {
                waited = true;
            }
            Err(e) => {
                err = Some(e);
                break;
            }
        }
    }
    head.truncate(n);
    Peeked {
        head: io::Cursor::new(head),
        err,
        r,
    }
}

/// The stream again, its first bytes (read by the caller) in front.
pub fn rejoin<R: Read>(head: Vec<u8>, r: R) -> io::Chain<io::Cursor<Vec<u8>>, R> {
    io::Cursor::new(head).chain(r)
}

/// A decoder of `codec` reading the compressed stream `r` (through an
/// [`AlignedBufReader`]: the decoders' own buffers come from the allocator,
/// and the kernel's copy into them is slower where they are not aligned).
pub fn decoder<R: Read + Send + 'static>(codec: Codec, r: R) -> io::Result<Box<dyn Read + Send>> {
    let r = AlignedBufReader::new(r);
    Ok(match codec {
        Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(r)),
        Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(r)),
        Codec::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(r)),
        Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(r)?),
    })
}

/// A buffered reader whose reads land at a page-aligned address
/// ([`urlsift::ReadBuf`]): what the decoders read compressed bytes
/// through.
pub struct AlignedBufReader<R> {
    r: R,
    buf: urlsift::ReadBuf,
    pos: usize,
}

impl<R> AlignedBufReader<R> {
    /// The most bytes one read asks for (the decoders' own default is
    /// 32 KiB; more means fewer system calls for the same copy).
    const READ: usize = 128 << 10;

    /// Buffers `r`.
    pub fn new(r: R) -> AlignedBufReader<R> {
        AlignedBufReader {
            r,
            buf: urlsift::ReadBuf::new(),
            pos: 0,
        }
    }
}

impl<R: Read> io::BufRead for AlignedBufReader<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.buf.len() {
            self.pos = 0;
            self.buf.start_with(&[], Self::READ);
            loop {
                match self.r.read(self.buf.spare(Self::READ)) {
                    Ok(n) => {
                        self.buf.filled_by(n);
                        break;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(&self.buf.filled()[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.buf.len());
    }
}

impl<R: Read> Read for AlignedBufReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let have = io::BufRead::fill_buf(self)?;
        let n = have.len().min(out.len());
        out[..n].copy_from_slice(&have[..n]);
        io::BufRead::consume(self, n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_header(name: &[u8], magic: bool) -> Vec<u8> {
        let mut h = vec![0u8; 512];
        h[..name.len()].copy_from_slice(name);
        h[100..107].copy_from_slice(b"0000644");
        h[124..135].copy_from_slice(b"00000000005");
        h[156] = b'0';
        if magic {
            h[257..263].copy_from_slice(b"ustar\0");
        }
        h[148..156].copy_from_slice(b"        ");
        let sum: u32 = h.iter().map(|&b| b as u32).sum();
        h[148..155].copy_from_slice(format!("{sum:06o}\0").as_bytes());
        h
    }

    #[test]
    fn codecs_by_magic() {
        assert_eq!(codec(&[0x1f, 0x8b, 8, 0]), Some(Codec::Gzip));
        assert_eq!(codec(b"\xfd7zXZ\0\0\x04"), Some(Codec::Xz));
        assert_eq!(codec(&[0x28, 0xb5, 0x2f, 0xfd, 0]), Some(Codec::Zstd));
        assert_eq!(codec(b"BZh91AY&SY\0\0"), Some(Codec::Bzip2));
        assert_eq!(codec(b"BZh1 is a text"), None);
        assert_eq!(codec(b"From a@b Mon"), None);
        assert_eq!(codec(b""), None);
    }

    #[test]
    fn containers_by_magic_and_checksum() {
        assert_eq!(container(b"PK\x03\x04\x14\0"), Some(Container::Zip));
        assert_eq!(container(b"PK\x05\x06\0\0"), Some(Container::Zip));
        assert_eq!(container(b"PK is text"), None);
        assert_eq!(container(&tar_header(b"a.txt", true)), Some(Container::Tar));
        // An old tar: no magic, a good checksum.
        let mut old = tar_header(b"a.txt", false);
        assert_eq!(container(&old), Some(Container::Tar));
        old[0] = b'b';
        assert_eq!(container(&old), None, "checksum no longer matches");
        assert_eq!(container(&[0u8; 512]), None);
        assert_eq!(container(&[b' '; 600]), None);
    }

    /// A reader that says `WouldBlock` `waits` times, then gives `bytes`.
    struct Late {
        waits: usize,
        bytes: io::Cursor<Vec<u8>>,
    }

    impl Read for Late {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.waits > 0 {
                self.waits -= 1;
                return Err(io::ErrorKind::WouldBlock.into());
            }
            self.bytes.read(buf)
        }
    }

    #[test]
    fn peek_reads_past_a_pause_before_the_first_byte() {
        let zip = b"PK\x03\x04\x14\0\0\0\0\0rest".to_vec();
        let late = |waits| Late {
            waits,
            bytes: io::Cursor::new(zip.clone()),
        };
        let p = peek(late(1));
        assert_eq!(container(p.head()), Some(Container::Zip));
        assert!(p.err.is_none());
        // An input that keeps saying so: the error, no byte, no spin.
        let p = peek(late(2));
        assert!(p.head().is_empty());
        assert_eq!(
            p.err.as_ref().map(io::Error::kind),
            Some(io::ErrorKind::WouldBlock)
        );
    }

    #[test]
    fn peek_gives_the_stream_back_and_an_error_after_the_bytes_before_it() {
        let data: Vec<u8> = (0..2000u32).map(|i| i as u8).collect();
        let p = peek(&data[..]);
        assert_eq!(p.head(), &data[..HEAD]);
        let mut back = Vec::new();
        { p }.read_to_end(&mut back).unwrap();
        assert_eq!(back, data);
        assert_eq!(peek(&b"abc"[..]).head(), b"abc");
        // A first line is enough to know text: no wait for more.
        let lines = (&b"a line <news:x>\n"[..]).chain(FailingReader);
        assert_eq!(peek(lines).head(), b"a line <news:x>\n");
        // A stream failing after 3 bytes.
        let failing = (&b"abc"[..]).chain(FailingReader);
        let mut p = peek(failing);
        assert_eq!(p.head(), b"abc");
        let mut buf = [0u8; 8];
        assert_eq!(p.read(&mut buf).unwrap(), 3);
        assert!(p.read(&mut buf).is_err());
    }

    struct FailingReader;

    impl Read for FailingReader {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::Error::new(io::ErrorKind::InvalidData, "bad"))
        }
    }
}
