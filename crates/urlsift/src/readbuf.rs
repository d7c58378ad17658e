//! Read buffers whose reads land on aligned addresses.
//!
//! The kernel copies a page-cache page into a `read`'s destination with
//! `rep movsb`, and on many CPUs (measured on an AVX2 AMD EPYC: 2.5 to 3
//! times slower) that copy is much dearer when the destination is not
//! 64-byte aligned. A buffer from the allocator is 16-byte aligned (glibc
//! puts a large block 16 bytes past a page start), and a read that follows
//! bytes carried over from the last piece lands wherever they end. So
//! [`ReadBuf`] places the kept bytes *before* an aligned address, and reads
//! go to that address: the system's copy runs at its full speed whatever
//! the allocator gave and however many bytes were kept.
//!
//! The alignment is a page ([`ReadBuf::ALIGN`]): for buffers of a megabyte
//! the slack costs nothing, and a page is aligned for any copy width.

/// A byte buffer filled by reads at an aligned address (see the module
/// documentation): bytes kept from before, then the bytes read.
///
/// ```
/// use urlsift::ReadBuf;
/// use std::io::Read;
///
/// let mut input: &[u8] = b"world\n";
/// let mut buf = ReadBuf::new();
/// buf.start_with(b"hello, ", 64);
/// assert_eq!(buf.spare(64).as_ptr() as usize % ReadBuf::ALIGN, 0);
/// let n = input.read(buf.spare(64))?;
/// buf.filled_by(n);
/// assert_eq!(buf.filled(), b"hello, world\n");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ReadBuf {
    data: Vec<u8>,
    /// Where the filled bytes start in `data`.
    start: usize,
    /// How many bytes are filled.
    len: usize,
}

impl ReadBuf {
    /// The alignment of the address where a read begins: a page.
    pub const ALIGN: usize = 4096;

    /// An empty buffer (it allocates when first given bytes or room).
    pub fn new() -> ReadBuf {
        ReadBuf::default()
    }

    /// A buffer that reuses `data`'s allocation (its bytes are not kept).
    pub fn from_vec(data: Vec<u8>) -> ReadBuf {
        ReadBuf {
            data,
            start: 0,
            len: 0,
        }
    }

    /// The allocation, to recycle (its contents are unspecified).
    pub fn into_vec(self) -> Vec<u8> {
        self.data
    }

    /// The bytes kept and read.
    pub fn filled(&self) -> &[u8] {
        &self.data[self.start..self.start + self.len]
    }

    /// How many bytes are filled.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no byte is filled.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many bytes a read may take without the buffer growing.
    pub fn room(&self) -> usize {
        self.data.len() - self.start - self.len
    }

    /// Empties the buffer but for `keep`, copied in so that it ends at an
    /// aligned address, with room for `room` bytes after it.
    pub fn start_with(&mut self, keep: &[u8], room: usize) {
        self.len = 0;
        self.start = 0;
        self.make_room(keep.len().saturating_add(room));
        let start = front(self.data.as_ptr() as usize, keep.len());
        self.data[start..start + keep.len()].copy_from_slice(keep);
        self.start = start;
        self.len = keep.len();
    }

    /// Where the next read goes: `room` bytes after the filled ones, give
    /// or take less than [`ReadBuf::ALIGN`] so that the read ends at an
    /// aligned address, where a read that goes on then lands (more when
    /// the buffer has the room, else fewer). When the buffer must grow,
    /// the filled bytes move so that the read lands aligned again.
    pub fn spare(&mut self, room: usize) -> &mut [u8] {
        let end = self.start + self.len;
        if self.data.len() - end < room {
            self.make_room(self.len.saturating_add(room));
            let start = front(self.data.as_ptr() as usize, self.len);
            self.data
                .copy_within(self.start..self.start + self.len, start);
            self.start = start;
        }
        let end = self.start + self.len;
        let mut stop = end.saturating_add(room).min(self.data.len());
        let past = (self.data.as_ptr() as usize).wrapping_add(stop) % Self::ALIGN;
        if past != 0 && room != 0 {
            if stop + (Self::ALIGN - past) <= self.data.len() {
                stop += Self::ALIGN - past;
            } else if stop - end > past {
                stop -= past;
            }
        }
        &mut self.data[end..stop]
    }

    /// Counts `n` bytes written to [`ReadBuf::spare`] as filled.
    pub fn filled_by(&mut self, n: usize) {
        assert!(
            self.start + self.len + n <= self.data.len(),
            "more bytes than the buffer holds"
        );
        self.len += n;
    }

    /// Makes `data` at least `need` bytes past any alignment slack: one
    /// [`ReadBuf::ALIGN`] before the filled bytes and one after the room,
    /// so a read can always be made to end aligned (the filled bytes are
    /// kept at `start`).
    fn make_room(&mut self, need: usize) {
        let want = need.saturating_add(2 * Self::ALIGN);
        if self.data.len() < want {
            if self.data.capacity() == 0 {
                // Zeroed by the allocator (fresh pages from the kernel): no
                // pass over a megabyte that a small input never reaches.
                self.data = vec![0; want];
            } else {
                self.data.resize(want, 0);
            }
        }
    }
}

thread_local! {
    /// The allocation of the last read buffer an input on this thread was
    /// done with, for the next input's ([`take_spare`], [`keep_spare`]).
    static SPARE: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// The largest allocation [`keep_spare`] keeps (bounded memory per thread:
/// a read buffer is a piece and its lookahead, a few hundred KiB).
const SPARE_KEPT: usize = 4 << 20;

/// The read buffer allocation an earlier input on this thread left, or an
/// empty one. A fresh buffer is zeroed before a read may fill it (`Read`
/// takes initialized bytes): by the allocator's `calloc`, which must clear
/// memory it had already handed out once the first buffer is freed. For a
/// quarter of a megabyte per input that clearing cost more than reading a
/// small file, so the stream front ends hand their buffer on.
pub(crate) fn take_spare() -> Vec<u8> {
    SPARE.try_with(std::cell::Cell::take).unwrap_or_default()
}

/// Keeps `data` for the next [`take_spare`] on this thread (unless it is
/// larger than [`SPARE_KEPT`], or one is kept already and is larger).
pub(crate) fn keep_spare(data: Vec<u8>) {
    if data.capacity() > SPARE_KEPT {
        return;
    }
    let _ = SPARE.try_with(|c| {
        let kept = c.take();
        c.set(if kept.len() > data.len() { kept } else { data });
    });
}

/// The index at which `keep` bytes must start in a buffer at address `ptr`
/// to end on an aligned address.
fn front(ptr: usize, keep: usize) -> usize {
    (ReadBuf::ALIGN - (ptr.wrapping_add(keep)) % ReadBuf::ALIGN) % ReadBuf::ALIGN
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aligned(p: *const u8) -> bool {
        p as usize % ReadBuf::ALIGN == 0
    }

    #[test]
    fn a_read_after_kept_bytes_lands_aligned() {
        for keep in [0usize, 1, 15, 16, 63, 64, 4095, 4096, 70_000] {
            let carry = vec![7u8; keep];
            let mut b = ReadBuf::new();
            b.start_with(&carry, 1000);
            assert!(aligned(b.spare(1000).as_ptr()), "keep {keep}");
            let read = b.spare(1000);
            assert!(read.len() >= 1000 && aligned(read.as_ptr_range().end));
            let long = b.spare(10_000);
            assert!(long.len().abs_diff(10_000) < ReadBuf::ALIGN);
            assert!(aligned(long.as_ptr_range().end));
            assert_eq!(b.filled(), &carry[..]);
        }
    }

    #[test]
    fn growing_keeps_the_bytes_and_the_alignment() {
        let mut b = ReadBuf::new();
        b.start_with(b"abc", 10);
        let n = 10;
        assert!(b.spare(10).len() >= 10);
        b.spare(10)[..n].copy_from_slice(b"0123456789");
        b.filled_by(n);
        // Growing moves the bytes so that the next read lands aligned.
        assert!(aligned(b.spare(1 << 20).as_ptr()));
        assert_eq!(b.filled(), b"abc0123456789");
        let mut b = ReadBuf::new();
        b.start_with(b"xyz", 4096);
        let room = b.spare(4096).len();
        assert_eq!(room, 4096);
        b.filled_by(4096);
        // The read filled its room: the end is aligned, and stays so when
        // the buffer grows.
        assert!(aligned(b.spare(1 << 22).as_ptr()));
        assert_eq!(&b.filled()[..3], b"xyz");
        assert_eq!(b.filled().len(), 4099);
    }

    #[test]
    fn a_recycled_vec_is_reused_and_realigned() {
        let v = vec![1u8; 3 << 20];
        let p = v.as_ptr();
        let mut b = ReadBuf::from_vec(v);
        b.start_with(&[9; 17], 1 << 20);
        assert_eq!(b.data.as_ptr(), p);
        assert!(aligned(b.spare(1 << 20).as_ptr()));
        assert_eq!(b.filled(), &[9; 17]);
    }

    #[test]
    fn spare_of_zero_is_empty() {
        let mut b = ReadBuf::new();
        b.start_with(b"", 0);
        assert!(b.spare(0).is_empty());
        assert!(b.is_empty());
    }
}

#[cfg(test)]
mod spare_tests {
    use super::*;
    use crate::{Extractor, Scanner};

    /// An input's read buffer, zeroed once, serves the next input on the
    /// thread as it is (no second clearing), in both readings; what each
    /// finds is unchanged.
    #[test]
    fn an_inputs_read_buffer_serves_the_next_one() {
        let text: &[u8] = b"From a@b\nSubject: s\n\n<URL:http://a.example/x>\n";
        for scanner in [Scanner::new(), Scanner::new().mime(false)] {
            let _ = take_spare();
            let first: Vec<_> = Extractor::with_scanner(text, scanner)
                .map(|m| m.unwrap().as_str().into_owned())
                .collect();
            let spare = take_spare();
            assert!(spare.len() >= 64 * 1024, "{}", spare.len());
            let at = spare.as_ptr();
            keep_spare(spare);
            let again: Vec<_> = Extractor::with_scanner(text, scanner)
                .map(|m| m.unwrap().as_str().into_owned())
                .collect();
            assert_eq!(first, ["http://a.example/x"]);
            assert_eq!(again, first);
            let after = take_spare();
            assert_eq!(after.as_ptr(), at, "the same allocation");
        }
    }

    /// A larger allocation than the bound is let go; of two, the larger
    /// stays.
    #[test]
    fn the_spare_kept_is_bounded() {
        let _ = take_spare();
        keep_spare(vec![0; SPARE_KEPT + 1]);
        assert_eq!(take_spare().capacity(), 0);
        keep_spare(vec![0; 10]);
        keep_spare(vec![0; 5]);
        assert_eq!(take_spare().len(), 10);
    }
}
