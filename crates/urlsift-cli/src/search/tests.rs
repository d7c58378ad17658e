//! Tests of the pieces, the ordered output and the range splitting.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::*;
use crate::printer::Recs;
use urlsift::Match;

/// A `Write` into a shared buffer, for the order's sink.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        lock(&self.0).extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn chunk(text: &str) -> Vec<Chunk> {
    let recs = Recs {
        body: text.as_bytes().to_vec(),
        count: 1,
        ..Recs::default()
    };
    vec![Chunk {
        member: 0,
        input: 0,
        name: None,
        last: false,
        bytes: 0,
        body: recs,
        error: None,
        piece_lines: None,
    }]
}

/// Units and the parts batches hand back are written in key order,
/// whatever order they finish in, and each unit written frees room.
#[test]
fn order_writes_parts_of_units_in_key_order() {
    let args = <crate::args::Args as clap::Parser>::try_parse_from(["urlsift"]).unwrap();
    let printer = Printer::new(&args.into_config().unwrap());
    let out = Shared::default();
    let mut sink = Sink::new(Box::new(out.clone()), &printer);
    let stop = AtomicBool::new(false);
    let order = Order {
        state: Mutex::new(OrderState {
            sink: &mut sink,
            next: Key::default(),
            pending: BTreeMap::new(),
            result: Ok(()),
        }),
        flow: Flow::new(0, 0),
        stop: &stop,
    };
    let k = |major, minor| Key { major, minor };
    order.commit(k(1, 0), chunk("d "), End::Done);
    order.commit(k(0, 2), chunk("c "), End::Open);
    order.commit(k(0, 1), chunk("b "), End::Part);
    assert!(lock(&out.0).is_empty(), "nothing before unit (0, 0)");
    order.commit(k(0, 0), chunk("a "), End::Part);
    // (0, 2) is still open: it writes the rest itself when it is next.
    assert_eq!(&*lock(&out.0), b"a b c ");
    assert!(order.is_next(k(0, 2)));
    order.commit(k(0, 2), chunk("c2 "), End::Done);
    order.commit(k(2, 0), chunk("e"), End::Done);
    assert_eq!(&*lock(&out.0), b"a b c c2 d e");
    // Five units written whole, five units of room back.
    assert_eq!(lock(&order.flow.state).free, 5);
}

#[test]
fn pieces_cover_input_at_line_starts() {
    let mut text = Vec::new();
    for i in 0..5000 {
        text.extend_from_slice(format!("line {i} <http://h{i}.example/>\n").as_bytes());
        if i % 37 == 0 {
            text.extend_from_slice(b"\nFrom x\n");
        }
    }
    let few = urlsift::Limits {
        max_bytes: 64,
        max_lines: usize::MAX,
    };
    let mut pr = PieceReader::new(&text[..], 4096, Scanner::new().limits(few));
    let mut pos = 0u64;
    let mut n = 0;
    while let Some(p) = pr.next_piece() {
        assert_eq!(p.offset, pos);
        assert_eq!(
            p.bytes(),
            &text[pos as usize..pos as usize + p.bytes().len()]
        );
        if !p.at_end {
            assert_eq!(p.bytes()[p.limit - 1], b'\n');
            assert!(p.bytes().len() - p.limit >= 64);
        }
        pos += p.limit as u64;
        n += 1;
        pr.recycle(p.into_buffer());
    }
    assert_eq!(pos, text.len() as u64);
    assert!(n > 10);
    // Piecewise scanning equals one pass.
    let s = Scanner::new().mime(false);
    let whole = s.extract(&text);
    let mut pr = PieceReader::new(&text[..], 4096, s);
    let mut got = Vec::new();
    let mut lines = 0;
    while let Some(p) = pr.next_piece() {
        let (ms, lf) = s.scan_piece(p.bytes(), p.limit, p.at_end);
        for mut m in ms {
            m.rebase(p.offset, lines);
            got.push(m);
        }
        lines += lf;
    }
    assert_eq!(got, whole);
}

/// Scans `text` in pieces of `target` bytes and rebases the matches.
fn piecewise(text: &[u8], target: usize, s: Scanner) -> Vec<Match> {
    let mut pr = PieceReader::new(text, target, s);
    let mut got = Vec::new();
    let mut lines = 0;
    while let Some(p) = pr.next_piece() {
        assert!(p.bytes().len() <= target + s.get_limits().max_bytes + urlsift::ReadBuf::ALIGN);
        let (ms, lf) = s.scan_piece_in(p.bytes(), p.limit, p.at_end, &p.context);
        for mut m in ms {
            m.rebase(p.offset, lines);
            got.push(m);
        }
        lines += lf;
        pr.recycle(p.into_buffer());
    }
    got
}

#[test]
fn lines_longer_than_a_piece_are_cut_inside_with_their_context() {
    // A quoted line far longer than a piece, holding URLs (one broken
    // onto the next line, whose quote prefix must go) and an
    // ISO-2022-JP run with a '<' inside it.
    let s = Scanner::new().mime(false).limits(urlsift::Limits {
        max_bytes: 256,
        max_lines: 4,
    });
    let mut text = b"> ".to_vec();
    for i in 0..3000 {
        text.extend_from_slice(format!("w{i} <http://h{i}.example/> ").as_bytes());
        if i % 101 == 0 {
            text.extend_from_slice(b"\x1b$B<http://no.example/>\x1b(B ");
        }
    }
    text.extend_from_slice(b"<URL:http://end.example/a\n> b/>\n");
    let whole = s.extract(&text);
    assert_eq!(whole.len(), 3001);
    assert_eq!(whole[3000].as_str(), "http://end.example/ab/");
    for target in [1000, 4096, 7777] {
        assert_eq!(piecewise(&text, target, s), whole, "pieces of {target}");
    }
}

#[test]
fn ranges_of_a_split_file_cover_it_and_scan_like_one_pass() {
    // Lines of every length around the boundaries: short ones, ones
    // longer than the window (the range before runs on), one longer
    // than a piece, URLs broken across lines and quoted.
    let mut text = Vec::new();
    for i in 0..4000u32 {
        match i % 97 {
            0 => text.extend_from_slice(&vec![b'x'; 5000 + i as usize]),
            1 => text.extend_from_slice(b"> <URL:http://broken.example/a-\n> b/c>"),
            _ => text.extend_from_slice(format!("w{i} <http://h{i}.example/>").as_bytes()),
        }
        if i == 2000 {
            for k in 0..3000 {
                text.extend_from_slice(format!(" <news:g{k}.x>").as_bytes());
            }
        }
        text.push(b'\n');
    }
    let path = std::env::temp_dir().join(format!("urlsift-ranges-{}", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let file = File::open(&path).unwrap();
    let size = text.len() as u64;
    let s = Scanner::new().mime(false);
    let whole = s.extract(&text);
    assert!(whole.len() > 6900);
    assert!(whole
        .iter()
        .any(|m| m.as_str() == "http://broken.example/a-b/c"));
    for piece in [8192u64, 12345, 65536] {
        let mut skipped = 0;
        let mut got = Vec::new();
        let mut pos = 0;
        let mut lines = 0;
        for r in 0..size.div_ceil(piece) {
            let Some((start, end)) =
                range_bounds(&file, r, size, piece, s.get_mime(), s.get_naked()).unwrap()
            else {
                skipped += 1;
                continue;
            };
            assert_eq!(start, pos, "ranges meet (piece {piece}, range {r})");
            assert!(start == 0 || text[start as usize - 1] == b'\n');
            pos = end;
            let rd = ReadAt {
                file: &file,
                pos: start,
            };
            let mut pr = PieceReader::new_range(rd, 4096, s, start, end);
            let mut range_lines = 0;
            while let Some(p) = pr.next_piece() {
                let (ms, lf) = s.scan_piece_in(p.bytes(), p.limit, p.at_end, &p.context);
                for mut m in ms {
                    m.rebase(p.offset, lines + range_lines);
                    got.push(m);
                }
                range_lines += lf;
            }
            lines += range_lines;
        }
        assert_eq!(pos, size);
        assert!(skipped > 0, "some boundary falls in a long line");
        assert_eq!(got, whole, "piece {piece}");
    }
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn a_mailbox_range_starts_at_the_last_message_start_in_its_window() {
    // Messages of every size around the 8 KiB first look and the 64 KiB
    // window, `From ` lines that start no message (no empty line before),
    // and CRLF ones.
    let mut text = Vec::new();
    for i in 0..400usize {
        let sep: &[u8] = if i % 7 == 3 { b"\n\r\n" } else { b"\n\n" };
        text.extend_from_slice(sep);
        text.extend_from_slice(format!("From a{i}@b Mon Jan  1\nSubject: x\n\n").as_bytes());
        let body = (i * 7919) % 70_000;
        for k in 0..body / 50 {
            let line: &[u8] = match k % 13 {
                5 => b"From here on it is text, no message start.\n",
                _ => b"Fine words, Fair weather, no structure in them.\n",
            };
            text.extend_from_slice(line);
        }
    }
    let path = std::env::temp_dir().join(format!("urlsift-mbox-ranges-{}", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let file = File::open(&path).unwrap();
    let size = text.len() as u64;
    // The rule, read off the whole text: the last `\nFrom ` after an empty
    // line in the window before the nominal boundary.
    let want = |at: u64, piece: u64| -> Option<u64> {
        let from = at - split::MESSAGE_WINDOW.min(piece / 2);
        let win = &text[from as usize..at as usize];
        let mut end = win.len();
        while let Some(k) = memchr::memmem::rfind(&win[..end], b"\nFrom ") {
            let before = &win[..k];
            if before.ends_with(b"\n") || before.ends_with(b"\n\r") {
                return Some(from + k as u64 + 1);
            }
            end = k;
        }
        None
    };
    let mut checked = 0;
    for piece in [20_000u64, 65_536, 1 << 20] {
        for r in 1..size.div_ceil(piece) {
            let got = split::boundary(&file, r, size, piece, true, false).unwrap();
            assert_eq!(got, want(r * piece, piece), "piece {piece}, range {r}");
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked}");
    std::fs::remove_file(&path).unwrap();
}

/// Counts the reads whose destination is not page-aligned (only reads
/// that return bytes: where a read at the end would go does not matter).
struct Aligned<R> {
    inner: R,
    reads: Arc<AtomicUsize>,
    unaligned: Arc<AtomicUsize>,
}

impl<R> Aligned<R> {
    fn new(inner: R) -> Aligned<R> {
        Aligned {
            inner,
            reads: Arc::default(),
            unaligned: Arc::default(),
        }
    }

    /// (reads, unaligned reads) so far.
    fn counts(&self) -> (Arc<AtomicUsize>, Arc<AtomicUsize>) {
        (self.reads.clone(), self.unaligned.clone())
    }
}

impl<R: Read> Read for Aligned<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n > 0 {
            self.reads.fetch_add(1, Ordering::Relaxed);
            if buf.as_ptr() as usize % urlsift::ReadBuf::ALIGN != 0 {
                self.unaligned.fetch_add(1, Ordering::Relaxed);
            }
        }
        Ok(n)
    }
}

/// Every path by which bytes enter reads them to an aligned address: a
/// whole small file, a large file in pieces, a range of a large file, a
/// stream such as standard input, and a compressed file (whose decoder
/// reads the compressed bytes to an aligned address: its output is
/// written in user space, in pieces of its own sizes).
#[test]
fn reads_land_aligned_on_every_path() {
    let mut text = Vec::new();
    for i in 0..40_000usize {
        text.extend_from_slice(b"From a@b Tue Jan 12 14:02:11 1993\nSubject: x\n\n");
        text.extend_from_slice(&vec![b'y'; i * 37 % 300]);
        text.extend_from_slice(b" <URL:http://a.example/x> z\n\n");
    }
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.mbox");
    std::fs::write(&big, &text).unwrap();
    let small = dir.path().join("small.txt");
    std::fs::write(&small, &text[..5000]).unwrap();
    let gz = dir.path().join("big.mbox.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&text).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let s = urlsift::Scanner::new();
    let drain = |mut pr: PieceReader<Box<dyn Read + Send>>| {
        let mut n = 0;
        while let Some(p) = pr.next_piece() {
            n += p.bytes().len();
            pr.recycle(p.into_buffer());
        }
        n
    };

    let inputs: [(&str, Box<dyn Read + Send>, bool); 3] = [
        ("small file", Box::new(File::open(&small).unwrap()), false),
        ("large file", Box::new(File::open(&big).unwrap()), false),
        ("stream", Box::new(io::Cursor::new(text.clone())), true),
    ];
    for (what, r, stream) in inputs {
        let rec = Aligned::new(r);
        let (reads, unaligned) = rec.counts();
        let rec: Box<dyn Read + Send> = Box::new(rec);
        drain(match stream {
            true => PieceReader::stream(rec, s),
            false => PieceReader::new(rec, piece(), s),
        });
        assert!(reads.load(Ordering::Relaxed) > 0, "{what}");
        assert_eq!(unaligned.load(Ordering::Relaxed), 0, "{what}");
    }

    let rec = Aligned::new(File::open(&gz).unwrap());
    let (reads, unaligned) = rec.counts();
    let codec = urlsift_archive::sniff::Codec::Gzip;
    let decoded = urlsift_archive::sniff::decoder(codec, rec).unwrap();
    assert!(drain(PieceReader::new(decoded, piece(), s)) >= text.len());
    assert!(reads.load(Ordering::Relaxed) > 1);
    assert_eq!(unaligned.load(Ordering::Relaxed), 0, "compressed file");

    let file: &'static File = Box::leak(Box::new(File::open(&big).unwrap()));
    let start = memchr::memchr(b'\n', &text[777_777..]).unwrap() as u64 + 777_778;
    let stop = memchr::memrchr(b'\n', &text[..1_999_999]).unwrap() as u64 + 1;
    let rec = Aligned::new(split::ReadAt { file, pos: start });
    let (reads, unaligned) = rec.counts();
    drain(PieceReader::new_range(
        Box::new(rec),
        1 << 18,
        s,
        start,
        stop,
    ));
    assert!(reads.load(Ordering::Relaxed) > 1);
    assert_eq!(unaligned.load(Ordering::Relaxed), 0, "range");
}
