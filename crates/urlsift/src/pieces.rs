//! The one streaming reader: an input read in pieces cut at line starts.
//!
//! Every front end scans through it: [`Extractor`](crate::Extractor) pulls
//! pieces from a [`Read`], [`PushScanner`](crate::PushScanner) from the
//! bytes pushed to it, and the `urlsift` command from files, ranges of
//! files and decompressed streams, on any number of threads.
//!
//! A piece is about `target` bytes ending at a line start (just after a
//! blank line when the last half of the piece has one, so a mail header
//! block is rarely cut; after an mbox `From ` line's blank line first),
//! followed by `look` bytes of lookahead: a candidate whose `<` lies in the
//! piece proper is finished from the lookahead, so `look` must be at least
//! [`Limits::max_bytes`](crate::Limits::max_bytes). Only a line longer than
//! a piece is cut inside, with a [`PieceContext`] saying what the scanner
//! needs to know of the line before the cut. Memory is one piece buffer
//! (`target + look` bytes) and the carried lookahead, whatever the input.
//!
//! With [`PieceReader::max_lines`] the lookahead is read only as far as a
//! candidate can reach (past that many line feeds none goes on), so a large
//! `look` costs only where lines are long. With [`PieceReader::live`] the
//! bytes of a stream that pauses come at once, cut where the scanner
//! decides every candidate before the cut.

use std::io::{self, Read};

use memchr::memmem;

use crate::readbuf::ReadBuf;
use crate::scan::PieceContext;
use crate::settings::Scanner;

/// One piece of an input, from a [`PieceReader`].
///
/// [`Piece::bytes`] holds the piece proper (`..limit`) and its lookahead.
/// Matches whose `<` lies before `limit` belong to it; scan it with
/// [`Scanner::scan_piece_each`](crate::Scanner::scan_piece_each) and move
/// the matches by `offset` and the lines before it
/// ([`Match::rebase`](crate::Match::rebase)).
#[derive(Debug)]
pub struct Piece {
    buf: ReadBuf,
    /// End of the piece proper: a line start (or inside a line longer than
    /// a piece), or the end of the bytes at the end of the input.
    pub limit: usize,
    /// Absolute offset of the first byte in the input.
    pub offset: u64,
    /// Whether the input ends with this piece.
    pub at_end: bool,
    /// What the scanner needs to know of the bytes before the piece (it
    /// starts inside a line only when a line is longer than a piece).
    pub context: PieceContext,
}

impl Piece {
    /// The bytes, lookahead included.
    pub fn bytes(&self) -> &[u8] {
        self.buf.filled()
    }

    /// The buffer, to hand back with [`PieceReader::recycle`] (no fresh
    /// allocation for the next piece).
    pub fn into_buffer(self) -> Vec<u8> {
        self.buf.into_vec()
    }
}

/// Reads an input in [`Piece`]s (see the module documentation).
///
/// Reading errors never lose data: `Interrupted` is retried; any other
/// error is returned by [`PieceReader::read_piece`] after the pieces that
/// the bytes read before it complete, and the bytes read stay buffered, so
/// a caller may call again after `WouldBlock` (or any error it deems
/// passing) and go on where the input stood. A caller that gives up can
/// still have the bytes read as the last piece ([`PieceReader::end_early`]).
///
/// ```
/// use urlsift::{PieceReader, Scanner};
/// let text: &[u8] = b"<URL:http://a.example/x\n y>\n<news:comp.mail.mime>\n";
/// let scanner = Scanner::new();
/// let mut reader = PieceReader::new(text, 16, scanner.get_limits().max_bytes);
/// let (mut urls, mut lines) = (Vec::new(), 0);
/// while let Some(piece) = reader.read_piece()? {
///     lines += scanner.scan_piece_each(piece.bytes(), piece.limit, piece.at_end, &piece.context, &mut |m| {
///         m.rebase(piece.offset, lines);
///         urls.push((m.line(), m.as_str().into_owned()));
///     });
/// }
/// assert_eq!(urls, [(1, "http://a.example/xy".into()), (3, "news:comp.mail.mime".into())]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct PieceReader<R> {
    r: R,
    target: usize,
    look: usize,
    offset: u64,
    /// Bytes read past the last piece's end: the next piece's start.
    carry: Vec<u8>,
    eof: bool,
    done: bool,
    /// An error met after enough bytes for a piece: returned next.
    pending: Option<io::Error>,
    /// A piece being filled when a read failed: its buffer and length.
    partial: Option<ReadBuf>,
    spare: Option<Vec<u8>>,
    context: PieceContext,
    /// With [`PieceReader::range`]: where the range ends.
    stop: Option<u64>,
    /// With [`PieceReader::live`]: the scanner that says where to cut when
    /// the input pauses.
    live: Option<Scanner>,
    /// With naked URLs on, the scanner that tells each piece's context
    /// what a URL before the cut hides of it (see [`PieceReader::scanning`]).
    naked: Option<Scanner>,
    /// With [`PieceReader::max_lines`]: the most line breaks a candidate
    /// holds, which ends the lookahead a piece needs before `look` bytes.
    lines: Option<usize>,
}

/// The lookahead first read when [`PieceReader::max_lines`] may end it
/// early (the default [`Limits::max_bytes`](crate::Limits::max_bytes)):
/// more is read only for a piece whose last lines are that long.
const FIRST_LOOK: usize = 16 * 1024;

/// Where to end a piece of `data` (at least `look` bytes must follow).
fn cut(data: &[u8], target: usize, look: usize) -> Option<usize> {
    let lo = target / 2;
    if data.len() >= target.saturating_add(look) {
        let win = &data[lo..target];
        if let Some(k) = rfind_message(win) {
            return Some(lo + k + 2);
        }
        if let Some(k) = memmem::rfind(win, b"\n\n") {
            return Some(lo + k + 2);
        }
    }
    let end = data.len().checked_sub(look)?;
    memchr::memrchr(b'\n', &data[..end]).map(|k| k + 1)
}

/// `memmem::rfind(win, b"\n\nFrom ")`, by a vector search for its `F`:
/// the reverse substring search has no vector prefilter, and walked the
/// whole half piece of text with no mbox line in it at about two
/// instructions a byte.
fn rfind_message(win: &[u8]) -> Option<usize> {
    let mut end = win.len();
    while let Some(k) = memchr::memrchr(b'F', &win[..end]) {
        if k >= 2 && win[k - 2..].starts_with(b"\n\nFrom ") {
            return Some(k - 2);
        }
        end = k;
    }
    None
}

impl<R> PieceReader<R> {
    /// Gives a buffer (a piece's, see [`Piece::into_buffer`]) back for the
    /// next piece; one is kept.
    pub fn recycle(&mut self, data: Vec<u8>) {
        if self.spare.is_none() {
            self.spare = Some(data);
        }
    }

    /// Whether the next piece would allocate a fresh buffer (none was
    /// recycled), for a caller that pools buffers itself.
    pub fn needs_buffer(&self) -> bool {
        self.spare.is_none()
    }

    /// The reader, to reach the input under the pieces (for a reader that
    /// the caller fills, say).
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.r
    }

    /// Takes back the buffer kept for reuse, if any (to pool it elsewhere
    /// when the reader is done).
    pub fn take_buffer(&mut self) -> Option<Vec<u8>> {
        self.spare.take()
    }
}

impl<R: Read> PieceReader<R> {
    /// Pieces of about `target` bytes with `look` bytes of lookahead (at
    /// least [`Limits::max_bytes`](crate::Limits::max_bytes) of the scanner
    /// used). `target` is at least 2; the sum saturates.
    pub fn new(r: R, target: usize, look: usize) -> PieceReader<R> {
        let target = target.max(2);
        PieceReader {
            r,
            target,
            look: look.min(usize::MAX - target),
            offset: 0,
            carry: Vec::new(),
            eof: false,
            done: false,
            pending: None,
            partial: None,
            spare: None,
            context: PieceContext::default(),
            stop: None,
            live: None,
            naked: None,
            lines: None,
        }
    }

    /// Reads the lookahead only as far as a candidate could reach: past
    /// `lines` + 1 line feeds (its
    /// [`Limits::max_lines`](crate::Limits::max_lines) as the scanner's) no
    /// candidate from before the cut goes on, so a large `look` costs only
    /// for the pieces whose lines are that long.
    pub fn max_lines(mut self, lines: usize) -> PieceReader<R> {
        self.lines = Some(lines);
        self
    }

    /// For a live stream (a pipe, a terminal): when a read fails with
    /// `WouldBlock` (the reader's way to say that the input has paused),
    /// the bytes read so far come at once as a piece, cut at the last line
    /// start before which `scanner` decides every candidate
    /// ([`Scanner::decided`]), instead of waiting for a full piece and its
    /// lookahead. The matches are those of any other cut; only when they
    /// come changes. With nothing to cut, the `WouldBlock` is returned.
    pub fn live(mut self, scanner: Scanner) -> PieceReader<R> {
        self.live = Some(scanner);
        self
    }

    /// Pieces for `scanner`: with naked URLs on (rules 14 to 17), a cut
    /// that does not follow an empty line gets the context of
    /// [`PieceContext::advance_scanning`]: a `<...>` broken across it, or a
    /// naked URL across a cut inside a line, hides bytes of the next piece.
    /// Without naked URLs this changes nothing.
    pub fn scanning(mut self, scanner: Scanner) -> PieceReader<R> {
        self.naked = scanner.get_naked().then_some(scanner);
        self
    }

    /// Reads only the range `[start, stop)` of an input, which the reader
    /// delivers from `start` on: the last piece ends at `stop`, with its
    /// lookahead read past it. Both ends must be line starts (or the ends of
    /// the input).
    pub fn range(mut self, start: u64, stop: u64) -> PieceReader<R> {
        self.offset = start;
        self.stop = Some(stop.max(start));
        self
    }

    /// The next piece, `None` at the end of the input.
    ///
    /// # Errors
    ///
    /// A read error other than `Interrupted`, after the pieces the bytes
    /// before it complete. The bytes read stay buffered: calling again
    /// reads on (after `WouldBlock`, say), and [`PieceReader::end_early`]
    /// gives them as the last piece.
    pub fn read_piece(&mut self) -> io::Result<Option<Piece>> {
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        if self.done {
            return Ok(None);
        }
        let look = self.first_look();
        let mut want = self.target + look;
        // The rest of a range and its lookahead, when that is less.
        let rest = self
            .stop
            .map(|stop| usize::try_from(stop - self.offset).unwrap_or(usize::MAX));
        if let Some(rest) = rest {
            want = want.min(rest.saturating_add(look));
        }
        let mut buf = match self.partial.take() {
            Some(partial) => partial,
            None => {
                let mut buf = ReadBuf::from_vec(self.spare.take().unwrap_or_default());
                // Room for a first read of a piece and some lookahead: a
                // large lookahead is read only where an input has it.
                let keep = self.carry.len();
                let first = keep + self.target + look.min(self.target);
                buf.start_with(&self.carry, want.min(first).saturating_sub(keep));
                buf
            }
        };
        let limit = loop {
            let mut paused = None;
            while buf.len() < want && !self.eof {
                let len = buf.len();
                let mut room = buf.room().min(want - len);
                if room == 0 {
                    // Grown as the bytes come (doubling): a large lookahead
                    // costs only what an input really holds.
                    room = (want - len).min(len.max(self.target));
                }
                match self.r.read(buf.spare(room)) {
                    Ok(0) => self.eof = true,
                    Ok(k) => buf.filled_by(k),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let whole = self.cut_at(buf.filled(), rest).is_ok()
                            && rest.map_or(true, |rest| rest > len);
                        if whole {
                            // What is read makes a piece: it comes first.
                            self.pending = Some(e);
                            break;
                        }
                        if e.kind() == io::ErrorKind::WouldBlock {
                            paused = self.live_cut(buf.filled());
                            if paused.is_some() {
                                break;
                            }
                        }
                        self.partial = Some(buf);
                        return Err(e);
                    }
                }
            }
            if let Some(c) = paused {
                break c;
            }
            match self.cut_at(buf.filled(), rest) {
                Ok(c) => break c,
                Err(more) => want = more,
            }
        };
        if rest == Some(limit) {
            self.done = true;
        }
        let at_end = self.eof && self.pending.is_none();
        self.done |= at_end;
        Ok(Some(self.piece(buf, limit, at_end)))
    }

    /// The lookahead read before a cut is looked for (see
    /// [`PieceReader::max_lines`]).
    fn first_look(&self) -> usize {
        match self.lines {
            Some(_) => self.look.min(FIRST_LOOK),
            None => self.look,
        }
    }

    /// Whether `tail`, the bytes after a cut, is all the lookahead the
    /// candidates before the cut may need.
    fn enough(&self, tail: &[u8]) -> bool {
        tail.len() >= self.look
            || self
                .lines
                .is_some_and(|n| memchr::memchr_iter(b'\n', tail).nth(n).is_some())
    }

    /// Where to end a piece of `data` (the bytes read, from the piece's
    /// start): `Ok` with the cut when the bytes allow one, with the
    /// lookahead it needs; `Err` with how many bytes to read first.
    fn cut_at(&self, data: &[u8], rest: Option<usize>) -> Result<usize, usize> {
        let len = data.len();
        let look = self.first_look();
        // The lookahead doubled at each step (each step counts its line
        // feeds again: linear in all), up to `self.look`.
        let more = |c: usize| {
            let ahead = (len - c).saturating_mul(2).max(look);
            c.saturating_add(ahead).min(c.saturating_add(self.look))
        };
        if let Some(rest) = rest.filter(|&rest| rest <= len) {
            return match self.eof || self.enough(&data[rest..]) {
                true => Ok(rest),
                false => Err(more(rest)),
            };
        }
        if self.eof {
            return Ok(len);
        }
        let c = match cut(data, self.target, look) {
            Some(c) => c,
            None => {
                // A line longer than the piece: cut inside it (memory
                // stays flat) and carry what the scanner must know of the
                // line into the next piece. An escape sequence stays
                // whole.
                let mut c = len.saturating_sub(look);
                if let Some(k) = memchr::memrchr(0x1b, &data[c.saturating_sub(2)..c]) {
                    c = c.saturating_sub(2) + k;
                }
                if c == 0 {
                    return Err(len.saturating_add(self.target));
                }
                c
            }
        };
        match self.enough(&data[c..]) {
            true => Ok(c),
            false => Err(more(c)),
        }
    }

    /// Where to cut the bytes of a live stream that has paused (see
    /// [`PieceReader::live`]): the last line start before the first
    /// candidate they leave undecided, if any.
    fn live_cut(&self, data: &[u8]) -> Option<usize> {
        let stop = self.live?.decided(data, &self.context);
        memchr::memrchr(b'\n', &data[..stop]).map(|k| k + 1)
    }

    /// Ends the input where it stands: the bytes read and not yet given
    /// come as the last piece (`None` if there are none). For a caller that
    /// gives up after a read error but wants the URLs those bytes hold.
    pub fn end_early(&mut self) -> Option<Piece> {
        self.pending = None;
        if self.done {
            return None;
        }
        self.done = true;
        self.eof = true;
        let buf = match self.partial.take() {
            Some(partial) => partial,
            None if self.carry.is_empty() => return None,
            None => {
                let mut buf = ReadBuf::from_vec(self.spare.take().unwrap_or_default());
                buf.start_with(&self.carry, 0);
                buf
            }
        };
        let len = buf.len();
        if len == 0 {
            return None;
        }
        let limit = match self.stop {
            Some(stop) => usize::try_from(stop - self.offset).map_or(len, |r| r.min(len)),
            None => len,
        };
        Some(self.piece(buf, limit, true))
    }

    /// Makes the piece `data[..limit]` (lookahead to `len`) and moves the
    /// reader past it.
    fn piece(&mut self, buf: ReadBuf, limit: usize, at_end: bool) -> Piece {
        let context = self.context;
        let data = buf.filled();
        let len = data.len();
        // No URL crosses an empty line, and no piece follows the last one.
        let fresh = at_end || (limit >= 2 && data[limit - 2..limit] == *b"\n\n");
        self.context = if let Some(scanner) = self.naked.filter(|_| !fresh) {
            let mut next = context;
            next.advance_scanning(&scanner, &data[..len], limit, at_end);
            next
        } else if limit > 0 && data[limit - 1] != b'\n' {
            let mut next = context;
            next.advance(&data[..limit]);
            next
        } else {
            PieceContext::default()
        };
        self.carry.clear();
        self.carry.extend_from_slice(&data[limit..len]);
        let offset = self.offset;
        self.offset += limit as u64;
        Piece {
            buf,
            limit,
            offset,
            at_end,
            context,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::matches::Match;

    proptest::proptest! {
        /// The search for the last mbox message start agrees with the
        /// substring search it stands for.
        #[test]
        fn rfind_message_is_rfind(
            text in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just(&b"\n"[..]),
                    proptest::strategy::Just(&b"From "[..]),
                    proptest::strategy::Just(&b"F"[..]),
                    proptest::strategy::Just(&b"x"[..]),
                    proptest::strategy::Just(&b"\n\nFrom"[..]),
                ],
                0..60,
            ),
        ) {
            let text = text.concat();
            proptest::prop_assert_eq!(rfind_message(&text), memmem::rfind(&text, b"\n\nFrom "));
        }
    }

    /// A stream that comes in bursts of `sizes` bytes (cycled), pausing
    /// (`WouldBlock`) after each.
    struct Bursts<'a> {
        text: &'a [u8],
        sizes: &'a [usize],
        k: usize,
        paused: bool,
    }

    impl Read for Bursts<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if !self.paused && !self.text.is_empty() {
                self.paused = true;
                return Err(io::ErrorKind::WouldBlock.into());
            }
            self.paused = false;
            let n = self.sizes[self.k % self.sizes.len()]
                .min(buf.len())
                .min(self.text.len());
            self.k += 1;
            buf[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            Ok(n)
        }
    }

    /// Scans a live stream: each piece's matches, and how many bytes had
    /// been read when it came.
    fn live_scan(text: &[u8], sizes: &[usize], s: Scanner) -> (Vec<Match>, Vec<u64>) {
        let r = Bursts {
            text,
            sizes,
            k: 0,
            paused: false,
        };
        let mut pr = PieceReader::new(r, 4096, s.get_limits().max_bytes).live(s);
        let (mut got, mut ends, mut lines) = (Vec::new(), Vec::new(), 0);
        loop {
            match pr.read_piece() {
                Ok(Some(p)) => {
                    lines +=
                        s.scan_piece_each(p.bytes(), p.limit, p.at_end, &p.context, &mut |m| {
                            m.rebase(p.offset, lines);
                            got.push(m.clone());
                        });
                    ends.push(p.offset + p.limit as u64);
                    pr.recycle(p.into_buffer());
                }
                Ok(None) => break,
                Err(e) => assert_eq!(e.kind(), io::ErrorKind::WouldBlock),
            }
        }
        (got, ends)
    }

    #[test]
    fn a_live_stream_gives_each_line_when_it_pauses() {
        let text = b"one <news:a.b>\ntwo <URL:http://c.d/\n e> three\nfour <x:y\n";
        // Line by line: the first line's piece comes before the rest is read.
        let sizes = [15, 20, 10, 4, 50];
        let (got, ends) = live_scan(text, &sizes, Scanner::new());
        assert_eq!(got, Scanner::new().extract(text));
        assert_eq!(ends[0], 15, "the first line alone");
        // The broken URL's line waits for the byte that closes it.
        assert_eq!(ends[1], 36);
    }

    #[test]
    fn live_cuts_find_what_one_pass_finds() {
        let mut text = Vec::new();
        for i in 0..400 {
            text.extend_from_slice(match i % 7 {
                0 => b"> quoted <URL:http://a.example/x-\n> y/z> and <news:g.h>\n".as_slice(),
                1 => b"<ftp://b.example/\n\nblank line in it>\n",
                2 => b"\x1b$B<http://no.example/>\x1b(B <gopher://c.example/>\n",
                3 => b"<URL:mailto:a@b.example> <http://u@bad> <<news:x>>\n",
                4 => b"long line ",
                _ => b"<http://d.example/\n  e/f> end\n",
            });
        }
        let s = Scanner::new().rejected(true).limits(crate::Limits {
            max_bytes: 64,
            max_lines: 2,
        });
        let whole = s.extract(&text);
        for sizes in [&[1usize][..], &[3, 17, 64], &[100, 7], &[5000]] {
            let (got, _) = live_scan(&text, sizes, s);
            assert_eq!(got, whole, "bursts {sizes:?}");
        }
    }

    /// Scans `text` in pieces from `pr`; the matches, and the longest
    /// lookahead a piece carried.
    fn scan_all<R: Read>(mut pr: PieceReader<R>, s: Scanner) -> (Vec<Match>, usize) {
        let (mut got, mut lines, mut most) = (Vec::new(), 0, 0);
        while let Some(p) = pr.read_piece().unwrap() {
            most = most.max(p.bytes().len() - p.limit);
            lines += s.scan_piece_each(p.bytes(), p.limit, p.at_end, &p.context, &mut |m| {
                m.rebase(p.offset, lines);
                got.push(m.clone());
            });
            pr.recycle(p.into_buffer());
        }
        (got, most)
    }

    #[test]
    fn the_lookahead_stops_where_no_candidate_reaches() {
        // Short lines, candidates broken over lines, and now and then a
        // line longer than the first lookahead read.
        let mut text = Vec::new();
        for i in 0..3000 {
            match i % 500 {
                0 => text.extend_from_slice(&vec![b'x'; 40_000]),
                1 => text.extend_from_slice(b"<URL:http://long.example/"),
                _ => text.extend_from_slice(b"> <URL:http://a.example/b-\n> c/d> <news:e.f>"),
            }
            text.push(b'\n');
        }
        for (max_bytes, max_lines) in [(1 << 20, 3), (1 << 20, 0), (100_000, 100), (50, 1)] {
            let s = Scanner::new().rejected(true).limits(crate::Limits {
                max_bytes,
                max_lines,
            });
            let whole = s.extract(&text);
            for target in [1000, 65536] {
                let pr = PieceReader::new(&text[..], target, max_bytes).max_lines(max_lines);
                let (got, most) = scan_all(pr, s);
                assert_eq!(got, whole, "{max_bytes} {max_lines} {target}");
                // The first read of lookahead, and past the long lines
                // only up to their next line feeds.
                assert!(
                    most <= FIRST_LOOK.max(40_000 + 26 + 2 * FIRST_LOOK),
                    "{most}"
                );
            }
        }
    }

    /// A file as the kernel reads it (full reads until its end) that
    /// records whether each read's destination was aligned.
    pub(crate) struct Aligned<'a> {
        pub(crate) text: &'a [u8],
        pub(crate) reads: usize,
        pub(crate) unaligned: usize,
    }

    impl Read for Aligned<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.text.len());
            // (Where a read that returns nothing would go does not count.)
            if n > 0 {
                self.reads += 1;
                self.unaligned += usize::from(buf.as_ptr() as usize % ReadBuf::ALIGN != 0);
            }
            buf[..n].copy_from_slice(&self.text[..n]);
            self.text = &self.text[n..];
            Ok(n)
        }
    }

    /// Mail with lines of every length, so that pieces carry over any
    /// number of bytes.
    pub(crate) fn ragged_mail(n: usize) -> Vec<u8> {
        let mut text = Vec::new();
        for i in 0..n {
            text.extend_from_slice(b"From a@b Tue Jan 12 14:02:11 1993\nSubject: x\n\n");
            text.extend_from_slice(&vec![b'y'; i * 37 % 1500]);
            text.extend_from_slice(b" <URL:http://a.example/x> z\n\n");
        }
        text
    }

    /// Every read of a piece lands at an aligned address, however many
    /// bytes were carried over, in ranges and with a bounded lookahead too.
    #[test]
    fn every_read_lands_aligned() {
        let text = ragged_mail(3000);
        let scanner = Scanner::new().mime(false);
        let look = scanner.get_limits().max_bytes;
        for target in [1000, 4096, 65536, 1 << 20] {
            let mut rec = Aligned {
                text: &text,
                reads: 0,
                unaligned: 0,
            };
            let mut pr = PieceReader::new(&mut rec, target, look);
            let mut pieces = 0;
            while let Some(p) = pr.read_piece().unwrap() {
                pieces += 1;
                pr.recycle(p.into_buffer());
            }
            assert!(pieces >= text.len() / target.max(text.len() / 2) / 2);
            drop(pr);
            assert!(rec.reads > 1);
            assert_eq!(rec.unaligned, 0, "target {target}: {} reads", rec.reads);

            let mut rec = Aligned {
                text: &text[1000..],
                reads: 0,
                unaligned: 0,
            };
            let start = 1000 + memchr::memchr(b'\n', &text[1000..]).unwrap() as u64 + 1;
            rec.text = &text[start as usize..];
            let stop = text.len() as u64 - 77;
            let stop = memchr::memrchr(b'\n', &text[..stop as usize]).unwrap() as u64 + 1;
            let mut pr = PieceReader::new(&mut rec, target, look)
                .range(start, stop)
                .max_lines(3);
            while let Some(p) = pr.read_piece().unwrap() {
                pr.recycle(p.into_buffer());
            }
            drop(pr);
            assert_eq!(rec.unaligned, 0, "range, target {target}");
        }
    }
}
