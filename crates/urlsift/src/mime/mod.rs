//! Mail as it arrives: MIME (contract rules 10 to 13).
//!
//! [`Reader`] is the framing state machine. It takes the raw input in
//! chunks and writes the text that rules 1 to 9 read, decoded, with a
//! [`Map`] of how each decoded byte was encoded: messages (an input whose
//! first line is a header field or an mbox `From ` line, and every `From `
//! line after an empty line), header blocks (read as text), their
//! `Content-Type` and `Content-Transfer-Encoding`, multipart boundaries
//! nested to [`MAX_DEPTH`], `message/rfc822` and `message/news` parts, and
//! the bodies: plain text copied, quoted-printable and base64 decoded
//! ([`qp`], [`base64`]), HTML handed to the HTML reader (rules 18 to 22,
//! [`crate::html`]: the decoders write the part's bytes to it, it writes
//! the part's text here, placed through their map), other markup and
//! non-text parts left out. Where one text
//! ends and another begins (a boundary line, a `From ` line) it writes a
//! blank line unless the text already ends in one, so no candidate crosses
//! (rule 10).
//!
//! Structure is found in the raw bytes only, at line starts, and never
//! needs more than [`HOLD`] bytes past a line start, so memory is bounded
//! whatever the input: a long line is taken in pieces.
//!
//! [`MimeScan`] joins the reader to the scanning engine and moves each
//! match back to the raw input ([`Map::translate`]). Text that the reader
//! would copy as it is (mail without MIME encoding: most mail) does not go
//! through the reader at all: it is surveyed and scanned where it lies
//! ([`unchanged`]).
//!
//! Readings where the contract leaves room are those of the reference
//! extractor (`ref-extract --mime`); two bounds are added: a boundary line
//! or a first line (deciding whether the input is a message) longer than
//! [`HOLD`] bytes is taken for text, and so is a quoted-printable `=`
//! followed by more than [`HOLD`] blanks.

mod base64;
mod blocks;
mod qp;
mod structure;
mod unchanged;

use std::cell::Cell;
use std::sync::Arc;

use memchr::memrchr;

pub(crate) use crate::map::{Kind, Map, Out, Place, Run};

use crate::charset::Charset;
use crate::html::{self, Found};
use crate::matches::{Encoding, Match};
use crate::message::{Collector, Fields, MessageInfo};
use crate::multibyte::Multibyte;
use crate::scan::Engine;
use crate::settings::{HtmlMode, Scanner};
use crate::tracker::Attach;

/// Most bytes the reader looks at past a line start to decide what the
/// line is (a boundary line, a `From ` line, the first line of a message).
pub(crate) const HOLD: usize = 1024;

/// The deepest entity that is taken apart; deeper ones are read as they
/// are (the top-level message is depth 0).
const MAX_DEPTH: usize = 10;

/// Most bytes kept of a `Content-Type` or `Content-Transfer-Encoding`
/// value.
const VALUE_CAP: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Nothing read yet: is the input a message?
    Start,
    /// Plain text before the first `From ` line of an input that is no
    /// message.
    Lead,
    /// A header block.
    Header,
    /// Text read as it is (a plain body, a preamble or epilogue, an entity
    /// deeper than [`MAX_DEPTH`]).
    Plain,
    /// A quoted-printable text body.
    Qp,
    /// A base64 text body.
    Base64,
    /// A body that is not read.
    Skip,
}

/// An open multipart.
#[derive(Debug)]
struct Frame {
    boundary: Vec<u8>,
    alternative: bool,
    /// Depth of the multipart entity (its parts are one deeper).
    depth: usize,
    /// After its closing boundary: the rest is epilogue.
    closed: bool,
    /// The forwarded message it stands in, if any.
    forwarded: Option<Arc<MessageInfo>>,
    /// A plain text part of it was read (rule 18: in an alternative, the
    /// HTML after it is not).
    plain: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Field {
    #[default]
    None,
    ContentType,
    Encoding,
    Other,
}

/// The header block being read.
#[derive(Debug, Default)]
struct Header {
    depth: usize,
    alternative: bool,
    content_type: Option<Vec<u8>>,
    encoding: Option<Vec<u8>>,
    /// The field the last field line started (continuations belong to it).
    last: Field,
    /// The line being read: `Some(continuation)` when its bytes are kept.
    keep: Option<bool>,
    line: Vec<u8>,
    /// Length of the kept field line's name and colon.
    name: usize,
    /// The line being read, cut before its end, is so far all field-name
    /// bytes: whether it is a field is decided by what follows the cut,
    /// as it would be with the whole line at hand (a name can be longer
    /// than the reader holds; no `Content-*` name is).
    name_open: bool,
    /// The entity is a forwarded message (a `message/rfc822` or
    /// `message/news` part): its header's fields are read.
    forwarded: bool,
    collector: Collector,
    /// A forwarded message's header: the raw offset of its first line.
    raw_start: Option<u64>,
    /// Where its text starts in the decoded text, while it is held back.
    hold: Option<u64>,
    /// Its header went on past [`ID_WINDOW`] bytes (or it is read): what
    /// its text gives is decided, `info`.
    id_given_up: bool,
    /// It went on past the window: its body takes all of it, read after.
    window_passed: bool,
    info: Option<Arc<MessageInfo>>,
    /// Empty buffers of the values of a block before (see
    /// [`Header::restart`]), for the lines of this one's.
    spare: Vec<Vec<u8>>,
}

impl Header {
    /// The header block of the next entity: as `Header::default()` with
    /// these, but with the buffers of the one before (its line's, its
    /// values', its collector's), so that an entity allocates nothing once
    /// they have grown. A block holds at most two values, so the line and
    /// its spares are at most three buffers. Every field is named, for a
    /// new one to be reset here too.
    fn restart(&mut self, depth: usize, alternative: bool, forwarded: bool, fields: Fields) {
        let Header {
            depth: d,
            alternative: a,
            content_type,
            encoding,
            last,
            keep,
            line,
            name,
            name_open,
            forwarded: f,
            collector,
            raw_start,
            hold,
            id_given_up,
            window_passed,
            info,
            spare,
        } = self;
        (*d, *a, *f) = (depth, alternative, forwarded);
        for mut v in [content_type.take(), encoding.take()].into_iter().flatten() {
            v.clear();
            spare.push(v);
        }
        (*last, *keep, *name, *name_open) = (Field::None, None, 0, false);
        line.clear();
        collector.restart(fields);
        (*raw_start, *hold, *info) = (None, None, None);
        (*id_given_up, *window_passed) = (false, false);
    }
}

/// How far into a forwarded message's header its fields are read (the
/// header text held back meanwhile is at most this, and a line): the
/// window top-level headers have too.
const ID_WINDOW: u64 = crate::message::WINDOW;

fn blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0c)
}

fn all_blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| blank(b))
}

/// The framing state machine (see the module doc).
#[derive(Debug)]
pub(crate) struct Reader {
    mode: Mode,
    frames: Vec<Frame>,
    /// Boxed: swapped whole with [`Reader::parked`] at each body.
    header: Box<Header>,
    /// A header block read before, its buffers kept for the next (see
    /// [`Reader::begin_body`]).
    parked: Option<Box<Header>>,
    /// The next raw byte starts a line.
    at_line_start: bool,
    /// The line before it was empty ("" or a lone CR); true at the start.
    prev_empty: bool,
    /// The structure of the line at the current line start was looked at.
    checked: bool,
    /// Raw offset where the current raw line starts.
    line_start: u64,
    /// Raw lines minus decoded lines so far.
    delta: i64,
    place: Place,
    /// The innermost forwarded message being read.
    forwarded: Option<Arc<MessageInfo>>,
    b64: base64::State,
    /// The content type last given to a text part's matches.
    last_content_type: Option<Arc<str>>,
    /// The charset labels last read from text parts' `Content-Type`s
    /// (most parts of an input name one of a few), with their charsets.
    last_charsets: Vec<(Vec<u8>, Option<Charset>)>,
    /// The settings (which HTML is read, and how hrefs are judged).
    cfg: Scanner,
    /// The HTML part being read (rules 18 to 22): the decoders write its
    /// bytes to it, and it writes the text.
    html: Option<Box<html::Part>>,
    /// The last HTML part read, its buffers kept for the next (a mailbox
    /// has thousands: no buffer grows from nothing for each).
    spare: Option<Box<html::Part>>,
    /// A step of an HTML part is running: the end of its text waits.
    in_html: bool,
    /// The HTML part ended at this raw offset, with this line difference.
    html_end: Option<(u64, i64)>,
    /// What HTML parts gave beside their text.
    pub(crate) found: Found,
    /// The multi-byte charset of the body being read (rule 23; only with
    /// naked URLs on).
    charset: Option<Multibyte>,
    /// Where the charset changed in the decoded text since the engine was
    /// last told.
    pub(crate) charsets: Vec<(u64, Option<Multibyte>)>,
}

/// What a line start is.
enum Event {
    From,
    Boundary { frame: usize, closing: bool },
}

impl Reader {
    /// A reader with the scanner's settings for HTML.
    pub fn with(cfg: Scanner) -> Reader {
        Reader {
            cfg,
            html: None,
            spare: None,
            in_html: false,
            html_end: None,
            found: Found::default(),
            charset: None,
            charsets: Vec::new(),
            mode: Mode::Start,
            frames: Vec::new(),
            header: Box::default(),
            parked: None,
            at_line_start: true,
            prev_empty: true,
            checked: false,
            line_start: 0,
            delta: 0,
            place: Place::default(),
            forwarded: None,
            b64: base64::State::default(),
            last_content_type: None,
            last_charsets: Vec::new(),
        }
    }

    /// Reads `raw` (raw offset `base`) as far as it can decide, writing to
    /// `out`; `eof` says nothing follows. Returns how many bytes it took:
    /// the caller hands the rest again with more input (never more than
    /// about [`HOLD`] bytes are left when more than that were given).
    pub fn run(&mut self, raw: &[u8], base: u64, eof: bool, out: &mut Out<'_>) -> usize {
        let mut run = Pass::new(raw, base, eof, 0, self.at_line_start, self.prev_empty);
        run.checked = (self.checked && self.at_line_start).then_some(0);
        let mut pos = 0;
        let stop = loop {
            let step = match self.mode {
                Mode::Start => self.start(&run, pos),
                _ if self.html.is_some() => self.html_step(&mut run, pos, out),
                Mode::Lead | Mode::Plain | Mode::Skip => self.fast(&mut run, pos, out),
                Mode::Header | Mode::Qp | Mode::Base64 => self.lines(&mut run, pos, out),
            };
            match step {
                Ok(p) => pos = p,
                Err(p) => break p,
            }
        };
        self.settle(&run, stop);
        stop
    }

    /// Ends the input: whatever a decoder holds is written.
    pub fn finish(&mut self, out: &mut Out<'_>) {
        self.name_held(out);
        if let Some(mut part) = self.html.take() {
            let mut side = Out {
                base: part.base,
                dec: &mut part.buf,
                map: &mut part.map,
            };
            self.end_text(&mut side, None);
            part.pump(out, &mut self.found, true);
            self.delta += part.line_difference();
            self.keep(part);
            return;
        }
        self.end_text(out, None);
    }

    /// One step in an HTML part: the decoders write to the part, which
    /// then writes its text to `out`; where the part ends, its end is
    /// read and the blank line after it written.
    fn html_step(
        &mut self,
        run: &mut Pass<'_>,
        pos: usize,
        out: &mut Out<'_>,
    ) -> Result<usize, usize> {
        let mut part = self.html.take().expect("an HTML part");
        self.in_html = true;
        let step = {
            let mut side = Out {
                base: part.base,
                dec: &mut part.buf,
                map: &mut part.map,
            };
            match self.mode {
                Mode::Lead | Mode::Plain | Mode::Skip => self.fast(run, pos, &mut side),
                _ => self.lines(run, pos, &mut side),
            }
        };
        self.in_html = false;
        part.pump(out, &mut self.found, false);
        match self.html_end.take() {
            Some((at, delta)) => {
                part.pump(out, &mut self.found, true);
                let hdelta = part.line_difference();
                self.delta += hdelta;
                self.separate(out, at, delta + hdelta);
                self.keep(part);
            }
            None => self.html = Some(part),
        }
        step
    }
}

/// One call of [`Reader::run`]: the bytes and what is known of the line
/// state at their start.
struct Pass<'r> {
    raw: &'r [u8],
    base: u64,
    eof: bool,
    lo: usize,
    lo_line_start: bool,
    lo_prev_empty: bool,
    /// The line start whose structure was looked at.
    checked: Option<usize>,
    /// Where the next line starting with `From ` is, and the next starting
    /// with `From ` or `--` (cached searches).
    next_from: Option<Option<usize>>,
    next_any: Option<Option<usize>>,
    /// Where the next `=` is (a cached search).
    next_eq: Option<Option<usize>>,
    /// Where the complete lines of `raw` end (a cached search: a block of
    /// lines asks it at every line that may be structure, and a long
    /// unfinished last line must not be searched again each time).
    lines_end: Option<usize>,
}

impl<'r> Pass<'r> {
    /// A pass over `raw` (raw offset `base`) from `lo`, whose line state
    /// there is `lo_line_start` and `lo_prev_empty`.
    fn new(
        raw: &'r [u8],
        base: u64,
        eof: bool,
        lo: usize,
        lo_line_start: bool,
        lo_prev_empty: bool,
    ) -> Pass<'r> {
        Pass {
            raw,
            base,
            eof,
            lo,
            lo_line_start,
            lo_prev_empty,
            checked: None,
            next_from: None,
            next_any: None,
            next_eq: None,
            lines_end: None,
        }
    }

    /// The end of the complete lines from `pos`: just past the last line
    /// feed of `raw`, or `pos` when none lies at or after it.
    fn lines_end(&mut self, pos: usize) -> usize {
        let end = *self
            .lines_end
            .get_or_insert_with(|| memrchr(b'\n', self.raw).map_or(0, |k| k + 1));
        end.max(pos)
    }

    /// The first `=` at or after `pos` (a search cached for the pass).
    fn next_eq(&mut self, pos: usize) -> Option<usize> {
        match self.next_eq {
            Some(Some(q)) if q >= pos => Some(q),
            Some(None) => None,
            _ => {
                let q = crate::wide::find(b'=', &self.raw[pos..]).map(|k| pos + k);
                self.next_eq = Some(q);
                q
            }
        }
    }

    /// The first line start after `pos` that may be structure: a `From `
    /// line, or with `dashes` a `--` line (searches cached for the pass).
    fn next_structure(&mut self, pos: usize, dashes: bool) -> Option<usize> {
        let cache = match dashes {
            false => &mut self.next_from,
            true => &mut self.next_any,
        };
        match *cache {
            Some(Some(k)) if k > pos => Some(k),
            Some(None) => None,
            _ => {
                let next = structure::next_structure_line(self.raw, pos, dashes);
                *cache = Some(next);
                next
            }
        }
    }

    fn at_line_start(&self, pos: usize) -> bool {
        if pos == self.lo {
            self.lo_line_start
        } else {
            self.raw[pos - 1] == b'\n'
        }
    }

    /// Whether the line before the line start `s` (`raw[s - 1]` is LF, or
    /// `s` is `lo` at a line start) is empty.
    fn prev_empty(&self, s: usize) -> bool {
        if s == self.lo {
            return self.lo_line_start && self.lo_prev_empty;
        }
        let j = s - 1;
        let ls = match memrchr(b'\n', &self.raw[self.lo..j]) {
            Some(k) => self.lo + k + 1,
            None if self.lo_line_start => self.lo,
            None => return false,
        };
        matches!(&self.raw[ls..j], b"" | b"\r")
    }

    /// The line at `s` (without its LF) and whether it is complete, or
    /// `None` when more input is needed to know.
    fn line(&self, s: usize) -> Option<(&'r [u8], bool)> {
        let raw: &'r [u8] = self.raw;
        let end = raw.len();
        let stop = end.min(s + HOLD);
        match crate::wide::find(b'\n', &raw[s..stop]) {
            Some(k) => Some((&raw[s..s + k], true)),
            None if self.eof && stop == end => Some((&raw[s..end], true)),
            None if stop - s >= HOLD => Some((&raw[s..stop], false)),
            None => None,
        }
    }
}

impl Reader {
    /// Records the line state at `pos` (the reader stops there).
    fn settle(&mut self, run: &Pass<'_>, pos: usize) {
        self.checked = run.checked == Some(pos);
        if pos == run.lo {
            return;
        }
        self.at_line_start = run.raw[pos - 1] == b'\n';
        self.prev_empty = self.at_line_start && run.prev_empty(pos);
        if let Some(k) = memrchr(b'\n', &run.raw[run.lo..pos]) {
            self.line_start = run.base + (run.lo + k + 1) as u64;
        }
    }

    /// Moves the line state over `raw[from..]` (raw offset `base`), text
    /// with no structure in it.
    fn move_plain(&mut self, raw: &[u8], base: u64, from: usize) {
        let run = Pass::new(raw, base, false, from, self.at_line_start, self.prev_empty);
        self.settle(&run, raw.len());
    }

    /// Decides whether the input is a message (rule 10).
    fn start(&mut self, run: &Pass<'_>, pos: usize) -> Result<usize, usize> {
        let Some((line, _)) = run.line(pos) else {
            return Err(pos);
        };
        if line.is_empty() && run.raw.len() == pos {
            return Err(pos);
        }
        if opens_message(line) {
            self.begin_entity(0, false, false);
        } else {
            self.mode = Mode::Lead;
        }
        Ok(pos)
    }

    /// What the line at `s` is, structurally (rule 10 and 12).
    fn event(&self, run: &Pass<'_>, s: usize, line: &[u8], complete: bool) -> Option<Event> {
        if line.starts_with(b"From ") && run.prev_empty(s) {
            return Some(Event::From);
        }
        if complete && line.starts_with(b"--") && self.mode != Mode::Lead {
            for (i, f) in self.frames.iter().enumerate() {
                if f.closed || !line[2..].starts_with(&f.boundary) {
                    continue;
                }
                let mut rest = &line[2 + f.boundary.len()..];
                let closing = rest.starts_with(b"--");
                if closing {
                    rest = &rest[2..];
                }
                if all_blank_line(rest) {
                    return Some(Event::Boundary { frame: i, closing });
                }
            }
        }
        None
    }

    /// Handles the structure of the line starting at `s`: `Some(next)`
    /// where reading goes on (the line itself or the one after it), `None`
    /// when more input is needed.
    fn check(&mut self, run: &mut Pass<'_>, s: usize, out: &mut Out<'_>) -> Option<usize> {
        let (line, complete) = run.line(s)?;
        let at = run.base + s as u64;
        run.checked = Some(s);
        match self.event(run, s, line, complete) {
            None => Some(s),
            Some(Event::From) => {
                self.name_held(out);
                self.end_text(out, Some(at));
                self.set_charset(None, out.d());
                self.frames.clear();
                self.forwarded = None;
                self.begin_entity(0, false, false);
                Some(s)
            }
            Some(Event::Boundary { frame, closing }) => {
                run.checked = None;
                self.name_held(out);
                self.end_text(out, Some(at));
                self.set_charset(None, out.d());
                self.frames.truncate(frame + 1);
                let f = &mut self.frames[frame];
                let (depth, alternative) = (f.depth + 1, f.alternative);
                self.forwarded = f.forwarded.clone();
                if closing {
                    f.closed = true;
                    self.mode = Mode::Plain;
                    self.place = self.plain_place();
                } else {
                    self.begin_entity(depth, alternative, false);
                }
                // The boundary line is not text.
                let next = (s + line.len() + 1).min(run.raw.len());
                let nl = (next > s + line.len()) as i64;
                self.delta += nl;
                run.lo_line_start = nl == 1;
                run.lo_prev_empty = false;
                run.lo = next;
                if nl == 1 {
                    self.line_start = run.base + next as u64;
                }
                self.at_line_start = nl == 1;
                self.prev_empty = false;
                Some(next)
            }
        }
    }

    /// A message or part at `depth` starts: its header block comes next
    /// (an entity deeper than [`MAX_DEPTH`] is read as it is).
    fn begin_entity(&mut self, depth: usize, alternative: bool, forwarded: bool) {
        self.place = self.plain_place();
        if depth > MAX_DEPTH {
            self.mode = Mode::Plain;
            return;
        }
        // A forwarded message's header gives the fields asked for, and its
        // Message-ID always.
        let fields = match forwarded {
            true => self.cfg.get_fields() | Fields::MESSAGE_ID,
            false => Fields::NONE,
        };
        self.header.restart(depth, alternative, forwarded, fields);
        self.mode = Mode::Header;
    }

    /// The place of headers and plain text: only the forwarded message,
    /// if any.
    fn plain_place(&self) -> Place {
        Place {
            message: self.forwarded.clone(),
            ..Place::default()
        }
    }

    /// The place of the header block being read (a forwarded message's own
    /// once its header is decided).
    fn header_place(&mut self) {
        let h = &self.header;
        if h.forwarded {
            self.place.message = h.info.clone();
        }
    }

    /// A forwarded message's header is decided (read, past its window, or
    /// cut by structure): the text held back takes its metadata.
    fn name_held(&mut self, out: &mut Out<'_>) {
        let h = &mut self.header;
        if self.mode != Mode::Header || !h.forwarded {
            return;
        }
        if !h.id_given_up {
            h.id_given_up = true;
            h.info = h.collector.info();
        }
        if let Some(from) = h.hold.take() {
            out.map.name_message(from, h.info.as_ref());
        }
    }

    /// The body (its text at decoded offset `d`) is in `charset` (rule
    /// 23): noted for the engine when naked URLs are on.
    fn set_charset(&mut self, charset: Option<Multibyte>, d: u64) {
        if self.charset != charset && self.cfg.naked {
            self.charset = charset;
            self.charsets.push((d, charset));
        }
    }

    /// The header block ended: what is the body (rules 10 and 12), whose
    /// text starts at decoded offset `d`?
    fn begin_body(&mut self, d: u64) {
        // The block read is swapped for the one parked, and parked in its
        // place once read: two blocks' buffers serve every entity. The
        // block swapped in is started over by the next `begin_entity`, the
        // one way into `Mode::Header`, outside which no block is read.
        let parked = self.parked.take().unwrap_or_default();
        let h = std::mem::replace(&mut self.header, parked);
        self.body_of(&h, d);
        self.parked = Some(h);
    }

    /// [`Reader::begin_body`] of the header block `h`.
    fn body_of(&mut self, h: &Header, d: u64) {
        if h.forwarded {
            self.forwarded = match h.window_passed {
                true => h.collector.info(),
                false => h.info.clone(),
            };
        }
        // The type and subtype as they stand (no `type/subtype` means
        // `text/plain`), compared without case: no allocation per part but
        // a multipart's parameters and a new content type for matches.
        let value = h.content_type.as_deref();
        let (mut t, mut s): (&[u8], &[u8]) = match value.and_then(content_type_value) {
            Some((t, s, _)) => (t, s),
            None => (b"text", b"plain"),
        };
        self.place = self.plain_place();
        if t.eq_ignore_ascii_case(b"multipart") {
            let (_, params) = content_type(value.unwrap_or_default());
            match params.into_iter().find(|(k, _)| k == "boundary") {
                Some((_, boundary)) => {
                    if h.alternative && !self.html_read(true) {
                        self.mode = Mode::Skip;
                    } else {
                        self.frames.push(Frame {
                            boundary,
                            alternative: s.eq_ignore_ascii_case(b"alternative"),
                            depth: h.depth,
                            closed: false,
                            forwarded: self.forwarded.clone(),
                            plain: false,
                        });
                        self.mode = Mode::Plain;
                    }
                    return;
                }
                // A multipart with no boundary is plain text.
                None => (t, s) = (b"text", b"plain"),
            }
        }
        if t.eq_ignore_ascii_case(b"message")
            && (s.eq_ignore_ascii_case(b"rfc822") || s.eq_ignore_ascii_case(b"news"))
        {
            if h.alternative {
                self.mode = Mode::Skip;
            } else {
                self.begin_entity(h.depth + 1, false, true);
            }
            return;
        }
        let is_html = (t.eq_ignore_ascii_case(b"text") && s.eq_ignore_ascii_case(b"html"))
            || (t.eq_ignore_ascii_case(b"application") && s.eq_ignore_ascii_case(b"xhtml+xml"));
        if is_html {
            if !self.html_read(h.alternative) {
                self.mode = Mode::Skip;
                return;
            }
        } else if !read_as_text(t, s) {
            self.mode = Mode::Skip;
            return;
        } else if h.alternative {
            if let Some(f) = self.frames.last_mut() {
                f.plain = true;
            }
        }
        let cte = h.encoding.as_deref().map(py_strip).unwrap_or_default();
        let (mode, encoding) = if cte.eq_ignore_ascii_case(b"quoted-printable") {
            (Mode::Qp, Some(Encoding::QuotedPrintable))
        } else if cte.eq_ignore_ascii_case(b"base64") {
            (Mode::Base64, Some(Encoding::Base64))
        } else {
            (Mode::Plain, None)
        };
        self.mode = mode;
        self.b64 = base64::State::default();
        if self.cfg.naked {
            self.set_charset(value.and_then(crate::multibyte::declared), d);
        }
        let content_type =
            (h.depth > 0 || encoding.is_some() || is_html).then(|| self.content_type_of(t, s));
        // The part's charset, where its content type is told (a
        // top-level plain body is scanned where it lies, its place not
        // told: its message's metadata gives its charset).
        let charset = match (&content_type, value.and_then(crate::params::charset_label)) {
            (Some(_), Some(label)) => self.charset_of(&label),
            _ => None,
        };
        self.place = Place {
            encoding,
            content_type,
            message: self.forwarded.clone(),
            charset,
        };
        if is_html {
            let place = self.place.clone();
            self.html = Some(match self.spare.take() {
                Some(mut part) => {
                    part.renew(&self.cfg, place);
                    part
                }
                None => Box::new(html::Part::new(&self.cfg, place)),
            });
            if let Some(part) = self.html.as_mut().filter(|_| self.cfg.get_anchor_text()) {
                part.set_charset(charset);
            }
        }
    }

    /// Keeps an HTML part read to its end for the next one, unless its
    /// buffers grew large.
    fn keep(&mut self, part: Box<html::Part>) {
        if part.capacity() <= BUFFERS_KEPT {
            self.spare = Some(part);
        }
    }

    /// Whether an HTML part, or with `alternative` a part of a
    /// `multipart/alternative` that is HTML or a multipart, is read (rule
    /// 18): in an alternative, by default only when no plain text part
    /// came before it.
    fn html_read(&self, alternative: bool) -> bool {
        match self.cfg.get_html() {
            HtmlMode::Never => false,
            HtmlMode::Always => true,
            HtmlMode::Fallback => !alternative || !self.frames.last().is_some_and(|f| f.plain),
        }
    }

    /// The charset `label` names, when known and not UTF-8; the last few
    /// found serve again for the same label (in any case).
    fn charset_of(&mut self, label: &[u8]) -> Option<Charset> {
        const KEPT: usize = 4;
        let cache = &mut self.last_charsets;
        if let Some(&(_, c)) = cache.iter().find(|(l, _)| l.eq_ignore_ascii_case(label)) {
            return c;
        }
        let c = Charset::for_label(label).filter(|c| !c.is_utf8());
        if cache.len() == KEPT {
            cache.remove(0);
        }
        cache.push((label.to_vec(), c));
        c
    }

    /// `type/subtype` in lower case, for the matches of a text part; the
    /// last one made serves again when it is the same (most parts are
    /// `text/plain`).
    fn content_type_of(&mut self, t: &[u8], s: &[u8]) -> Arc<str> {
        if let Some(last) = &self.last_content_type {
            let c = last.as_bytes();
            if t.is_ascii()
                && s.is_ascii()
                && c.len() == t.len() + 1 + s.len()
                && c[..t.len()].eq_ignore_ascii_case(t)
                && c[t.len()] == b'/'
                && c[t.len() + 1..].eq_ignore_ascii_case(s)
            {
                return last.clone();
            }
        }
        let mut ctype = String::from_utf8_lossy(t).to_ascii_lowercase();
        ctype.push('/');
        ctype.push_str(&String::from_utf8_lossy(s).to_ascii_lowercase());
        let ctype: Arc<str> = Arc::from(ctype);
        self.last_content_type = Some(ctype.clone());
        ctype
    }

    /// A text ends: flush the decoder, and with the raw offset `at` of
    /// what ends it write a blank line unless the text ends in one, so no
    /// candidate runs on.
    fn end_text(&mut self, out: &mut Out<'_>, at: Option<u64>) {
        if self.mode == Mode::Base64 {
            self.b64_flush(out);
        }
        let Some(at) = at else { return };
        if self.in_html {
            // Written once the part's text is (see `html_step`).
            self.html_end = Some((at, self.delta));
            return;
        }
        self.separate(out, at, self.delta);
    }

    /// Writes a blank line at raw offset `at` (line difference `delta`)
    /// unless the text ends in one, so no candidate runs on.
    fn separate(&mut self, out: &mut Out<'_>, at: u64, delta: i64) {
        // What the decoded text still held ends with; a text that ended
        // before it was dropped gets a full blank line (one too many is
        // harmless: a candidate ends there anyway).
        let dec = &out.dec[..];
        let sep: &[u8] = match dec.last() {
            None if out.base == 0 => b"",
            Some(b'\n') => {
                let k = dec.len() - 1;
                match memrchr(b'\n', &dec[..k]) {
                    Some(j) if all_blank(&dec[j + 1..k]) => b"",
                    None if out.base == 0 && all_blank(&dec[..k]) => b"",
                    _ => b"\n",
                }
            }
            _ => b"\n\n",
        };
        if sep.is_empty() {
            return;
        }
        out.map.push(
            Run {
                d: out.d(),
                r: at,
                col: 0,
                delta,
                kind: Kind::Separator,
                cap: u64::MAX,
            },
            &Place::default(),
        );
        out.dec.extend_from_slice(sep);
        self.delta -= sep.len() as i64;
    }
}

impl Reader {
    /// Writes `raw[a..b]` as text read as it is (rule 10: headers, plain
    /// bodies), or leaves it out in [`Mode::Skip`].
    fn push_plain(&mut self, run: &Pass<'_>, a: usize, b: usize, out: &mut Out<'_>) {
        if a >= b {
            return;
        }
        let bytes = &run.raw[a..b];
        let r = run.base + a as u64;
        if self.mode == Mode::Skip {
            self.delta += bytecount::count(bytes, b'\n') as i64;
        } else {
            let col = r.saturating_sub(self.line_start);
            out.map
                .identity(out.d(), r, col, self.delta, bytes.len() as u64, &self.place);
            out.dec.extend_from_slice(bytes);
        }
        if self.mode != Mode::Qp {
            if let Some(k) = memrchr(b'\n', bytes) {
                self.line_start = r + k as u64 + 1;
            }
        }
    }

    /// Plain text, a skipped body or the lead: only line starts that may be
    /// structure (`From ` after an empty line, `--` in a multipart) are
    /// looked at, found by search.
    fn fast(&mut self, run: &mut Pass<'_>, pos: usize, out: &mut Out<'_>) -> Result<usize, usize> {
        let mode = self.mode;
        if run.at_line_start(pos) && run.checked != Some(pos) {
            match self.check(run, pos, out) {
                None => return Err(pos),
                Some(p) if p != pos || self.mode != mode => return Ok(p),
                Some(_) => {}
            }
        }
        let raw = run.raw;
        let end = raw.len();
        let dashes = mode != Mode::Lead && self.frames.iter().any(|f| !f.closed);
        if let Some(s) = run.next_structure(pos, dashes) {
            self.push_plain(run, pos, s, out);
            return Ok(s);
        }
        // No structure in sight: take all the complete lines (a pattern may
        // straddle the end), or all of a line longer than HOLD.
        let stop = if run.eof {
            end
        } else {
            match memrchr(b'\n', &raw[pos..]) {
                Some(k) => pos + k + 1,
                None if end - pos >= HOLD => end,
                None => pos,
            }
        };
        self.push_plain(run, pos, stop, out);
        Err(stop)
    }

    /// Header blocks and encoded bodies: line by line.
    fn lines(
        &mut self,
        run: &mut Pass<'_>,
        mut pos: usize,
        out: &mut Out<'_>,
    ) -> Result<usize, usize> {
        let mode = self.mode;
        let raw = run.raw;
        let end = raw.len();
        // Header text is written in one piece per call: `pend` is where the
        // text not yet written starts.
        let mut pend = pos;
        let mut pend_ls = self.line_start;
        let stop = loop {
            if mode == Mode::Header {
                pos = self.plain_header_lines(run, pos);
            }
            if pos == end {
                break Err(pos);
            }
            let at_ls = run.at_line_start(pos);
            if at_ls && run.checked != Some(pos) && self.may_be_event(run, pos) {
                if mode == Mode::Header {
                    self.push_header(run, pend, pos, pend_ls, out);
                    (pend, pend_ls) = (pos, self.line_start);
                }
                match self.check(run, pos, out) {
                    None => return Err(pos),
                    Some(p) if p != pos || self.mode != mode => return Ok(p),
                    Some(_) => {}
                }
            }
            let (e, complete) = match crate::wide::find(b'\n', &raw[pos..]) {
                Some(k) => (pos + k + 1, true),
                None if run.eof => (end, true),
                None if end - pos >= HOLD || !at_ls => (end, false),
                None => break Err(pos),
            };
            // Quoted-printable: the first `=` from here (a cached search).
            let eq = match mode {
                Mode::Qp => run.next_eq(pos),
                _ => None,
            };
            if mode == Mode::Qp && at_ls && raw[e - 1] == b'\n' {
                // Whole lines with no `=` decode to themselves: one copy.
                if eq.map_or(true, |q| q >= e) {
                    let to = self.qp_plain_lines(run, pos, eq);
                    self.push_plain(run, pos, to, out);
                    self.line_start = run.base + to as u64;
                    pos = to;
                    continue;
                }
            }
            // Encoded lines: all the complete lines up to one that may be
            // structure, in one call (see `blocks`).
            if matches!(mode, Mode::Qp | Mode::Base64)
                && at_ls
                && raw[e - 1] == b'\n'
                && blocks::on()
            {
                let to = self.block_end(run, pos);
                if to > e {
                    match mode {
                        Mode::Qp => self.qp_lines(run, pos, to, out),
                        _ => {
                            self.b64_line(run, pos, to, out);
                        }
                    }
                    self.line_start = run.base + to as u64;
                    pos = to;
                    continue;
                }
            }
            let next = match mode {
                Mode::Header => {
                    if at_ls && complete && matches!(&raw[pos..e], b"\n" | b"\r\n" | b"" | b"\r") {
                        // The empty line ends the header block; it is text.
                        self.push_header(run, pend, e, pend_ls, out);
                        self.name_held(out);
                        self.begin_body(out.d());
                        return Ok(e);
                    }
                    self.header_line(run, pos, e, at_ls);
                    e
                }
                Mode::Qp => self.qp_line(run, pos, e, complete, eq, out),
                _ => self.b64_line(run, pos, e, out),
            };
            if next < e {
                break Err(next);
            }
            if raw[e - 1] == b'\n' {
                self.line_start = run.base + e as u64;
            }
            pos = e;
        };
        if mode == Mode::Header {
            let at = match stop {
                Ok(p) | Err(p) => p,
            };
            self.push_header(run, pend, at, pend_ls, out);
        }
        stop
    }

    /// Writes the header text `raw[a..b]` (its first line starting at raw
    /// offset `ls`). A forwarded message's header text is held back from
    /// the engine ([`Reader::hold`]) until the header is read (or past its
    /// window), whose metadata its runs then take; so what a URL in that
    /// header gets does not depend on where the input was cut.
    fn push_header(&mut self, run: &Pass<'_>, a: usize, b: usize, ls: u64, out: &mut Out<'_>) {
        self.line_start = ls;
        let h = &self.header;
        if h.forwarded && h.id_given_up && h.hold.is_some() {
            self.name_held(out);
        }
        self.header_place();
        let h = &mut self.header;
        if h.forwarded && !h.id_given_up && h.hold.is_none() && a < b {
            // Its own runs, apart from the text before.
            out.map.break_run();
            h.hold = Some(out.d());
        }
        self.push_plain(run, a, b, out);
    }

    /// The decoded offset from which the engine must wait: a forwarded
    /// message's header whose Message-ID may still come (see
    /// [`Reader::push_header`]).
    pub(super) fn hold(&self) -> Option<u64> {
        match self.mode {
            Mode::Header => self.header.hold,
            _ => None,
        }
    }

    /// The end of the complete lines from the line start `pos` (whose
    /// structure is checked, and whose line is complete with no `=`: the
    /// first `=` is `eq`) that quoted-printable leaves as they are: no `=`
    /// in them, and none after the first that [`Reader::lines`] would
    /// check as structure (`From `, or `--` in a multipart). A line start
    /// past `pos`.
    fn qp_plain_lines(&self, run: &mut Pass<'_>, pos: usize, eq: Option<usize>) -> usize {
        let raw = run.raw;
        let last = run.lines_end(pos);
        let to = match eq {
            Some(q) if q < last => memrchr(b'\n', &raw[pos..q]).map_or(pos, |k| pos + k + 1),
            _ => last,
        };
        match run.next_structure(pos, !self.frames.is_empty()) {
            Some(s) => to.min(s),
            None => to,
        }
    }

    /// The end of the complete lines from the line start `pos` (checked as
    /// structure) up to the first line that [`Reader::lines`] would check
    /// as structure: where a block of encoded lines may be decoded to
    /// (see [`blocks`]).
    fn block_end(&self, run: &mut Pass<'_>, pos: usize) -> usize {
        let last = run.lines_end(pos);
        match run.next_structure(pos, !self.frames.is_empty()) {
            Some(s) => last.min(s),
            None => last,
        }
    }

    /// Skips the complete header lines from `pos` that neither end the
    /// block nor may be structure, a `Content-*` field or part of a kept
    /// value (most of a header block: `Received:`, `Subject:` and their
    /// continuations), as [`Reader::lines`] would read them: text, nothing
    /// kept. Returns where the line that needs a closer look starts.
    fn plain_header_lines(&mut self, run: &Pass<'_>, mut pos: usize) -> usize {
        let h = &self.header;
        if h.forwarded
            || h.keep.is_some()
            || matches!(h.last, Field::ContentType | Field::Encoding)
            || !run.at_line_start(pos)
        {
            return pos;
        }
        let raw = run.raw;
        while let Some(&first) = raw.get(pos) {
            if matches!(first, b'\n' | b'\r' | b'-' | b'C' | b'c')
                || raw[pos..].starts_with(b"From ")
            {
                break;
            }
            let Some(k) = crate::wide::find(b'\n', &raw[pos..]) else {
                break;
            };
            pos += k + 1;
            self.line_start = run.base + pos as u64;
        }
        pos
    }

    /// Whether the line at `s` may be structure (a `From ` line, a boundary
    /// line): the cheap test before [`Reader::check`].
    fn may_be_event(&self, run: &Pass<'_>, s: usize) -> bool {
        let b = &run.raw[s..];
        (b.len() < 5 && !run.eof)
            || b.starts_with(b"From ")
            || (b.starts_with(b"--") && !self.frames.is_empty())
    }

    /// A header line (or the part of one in `raw[a..e]`): text, and the
    /// value of the first `Content-Type` and `Content-Transfer-Encoding`.
    fn header_line(&mut self, run: &Pass<'_>, a: usize, e: usize, at_ls: bool) {
        let raw = run.raw;
        if at_ls && self.header.forwarded {
            let line = &raw[a..e];
            let line = line.strip_suffix(b"\n").unwrap_or(line);
            self.header.collector.line(line);
        }
        if at_ls {
            let h = &mut self.header;
            h.line.clear();
            h.keep = None;
            h.name_open = false;
            let first = raw[a];
            if first == b' ' || first == b'\t' {
                if matches!(h.last, Field::ContentType | Field::Encoding) {
                    h.keep = Some(true);
                }
            } else {
                let name = field_name(&raw[a..e]);
                if name > 0 && raw.get(a + name) == Some(&b':') {
                    let n = &raw[a..a + name];
                    h.last = Field::Other;
                    if n.eq_ignore_ascii_case(b"content-type") && h.content_type.is_none() {
                        h.last = Field::ContentType;
                    } else if n.eq_ignore_ascii_case(b"content-transfer-encoding")
                        && h.encoding.is_none()
                    {
                        h.last = Field::Encoding;
                    }
                    if h.last != Field::Other {
                        h.keep = Some(false);
                        h.name = name + 1;
                    }
                } else {
                    h.name_open = name > 0 && a + name == e;
                }
            }
        } else if self.header.name_open {
            // The rest of a line cut inside its first word.
            let h = &mut self.header;
            let more = field_name(&raw[a..e]);
            match raw[a..e].get(more) {
                Some(b':') => {
                    h.name_open = false;
                    h.last = Field::Other;
                }
                Some(_) => h.name_open = false,
                None => {}
            }
        }
        let h = &mut self.header;
        if h.keep.is_some() {
            let room = VALUE_CAP.saturating_sub(h.line.len());
            let bytes = &raw[a..e];
            let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
            h.line.extend_from_slice(&bytes[..bytes.len().min(room)]);
            if raw[e - 1] == b'\n' || (run.eof && e == raw.len()) {
                let mut line = std::mem::take(&mut h.line);
                let slot = match h.last {
                    Field::ContentType => &mut h.content_type,
                    _ => &mut h.encoding,
                };
                match (h.keep, slot) {
                    (Some(true), slot) => {
                        // A continuation: a space and its stripped text
                        // join the value; the line's buffer serves again.
                        let more = py_strip(&line);
                        match slot {
                            Some(old) if old.len() < VALUE_CAP => {
                                old.push(b' ');
                                old.extend_from_slice(more);
                            }
                            Some(_) => {}
                            None => *slot = Some([&b" "[..], more].concat()),
                        }
                        line.clear();
                        h.line = line;
                    }
                    (_, slot) => {
                        // The value after the name: the line's own buffer
                        // (another, kept from a block before, reads on).
                        line.drain(..h.name.min(line.len()));
                        *slot = Some(line);
                        h.line = h.spare.pop().unwrap_or_default();
                    }
                }
                h.keep = None;
            }
        }
        let h = &mut self.header;
        if h.forwarded && !h.id_given_up {
            // Decided by raw positions alone: the same wherever the input
            // was cut.
            let start = *h.raw_start.get_or_insert(run.base + a as u64);
            if run.base + e as u64 - start > ID_WINDOW {
                h.id_given_up = true;
                h.window_passed = true;
                h.info = h.collector.info();
            }
        }
    }
}

/// Length of the field name a header line starts with: printable bytes
/// up to a colon (a field when the colon follows).
fn field_name(line: &[u8]) -> usize {
    line.iter()
        .take_while(|&&b| (0x21..=0x7e).contains(&b) && b != b':')
        .count()
}

/// Whether the first line of an input makes it a message (rule 10): an
/// mbox `From ` line or a header field.
fn opens_message(line: &[u8]) -> bool {
    let name = field_name(line);
    line.starts_with(b"From ") || (name > 0 && line.get(name) == Some(&b':'))
}

/// `rest` holds only SP, HT and CR (the end of a boundary line).
fn all_blank_line(rest: &[u8]) -> bool {
    rest.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r'))
}

/// Python's idea of whitespace over Latin-1 (the reference extractor
/// parses header values as Latin-1 `str`).
const fn py_space(b: u8) -> bool {
    matches!(b, 0x09..=0x0d | 0x1c..=0x20 | 0x85 | 0xa0)
}

fn py_strip(v: &[u8]) -> &[u8] {
    let a = v.iter().position(|&b| !py_space(b)).unwrap_or(v.len());
    let b = v.iter().rposition(|&b| !py_space(b)).map_or(a, |k| k + 1);
    &v[a..b]
}

/// A `tspecials`-free token byte of a type or subtype (as the reference
/// extractor reads them).
fn type_byte(b: u8) -> bool {
    TYPE_BYTES[b as usize]
}

/// [`type_byte`] as a table: every message's `Content-Type` is read byte
/// by byte, and fifteen comparisons a byte cost more than the rest of the
/// field's reading.
static TYPE_BYTES: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = !py_space(b as u8)
            && !matches!(
                b as u8,
                b'/' | b';'
                    | b'('
                    | b')'
                    | b'<'
                    | b'>'
                    | b'@'
                    | b','
                    | b':'
                    | b'"'
                    | b'['
                    | b']'
                    | b'?'
                    | b'='
            );
        b += 1;
    }
    t
};

/// Whether a part of type `t/s` (any case) is text that is read (rule
/// 12): `text/*` but markup.
fn read_as_text(t: &[u8], s: &[u8]) -> bool {
    t.eq_ignore_ascii_case(b"text")
        && ![&b"html"[..], b"enriched", b"richtext", b"xml"]
            .iter()
            .any(|m| s.eq_ignore_ascii_case(m))
}

/// `type/subtype` in lower case and the parameters (names in lower case,
/// first occurrence first, RFC 2231's joined and decoded: see
/// [`params`](crate::params)) of a `Content-Type` value; one that is not
/// `type/subtype` means `text/plain` (rule 10).
fn content_type(v: &[u8]) -> (String, Vec<(String, Vec<u8>)>) {
    let Some((t, s, i)) = content_type_value(v) else {
        return ("text/plain".to_string(), Vec::new());
    };
    let mut ctype = String::from_utf8_lossy(t).to_ascii_lowercase();
    ctype.push('/');
    ctype.push_str(&String::from_utf8_lossy(s).to_ascii_lowercase());
    (ctype, crate::params::params(v, i))
}

/// The `type` and `subtype` of a `Content-Type` value and where they end,
/// or `None` when it is no `type/subtype` (which means `text/plain`).
fn content_type_value(v: &[u8]) -> Option<(&[u8], &[u8], usize)> {
    let i = v.iter().take_while(|&&b| py_space(b)).count();
    let t = v[i..].iter().take_while(|&&b| type_byte(b)).count();
    if t == 0 || v.get(i + t) != Some(&b'/') {
        return None;
    }
    let j = i + t + 1;
    let s = v[j..].iter().take_while(|&&b| type_byte(b)).count();
    if s == 0 {
        return None;
    }
    Some((&v[i..i + t], &v[j..j + s], j + s))
}

/// The scanning engine reading what a [`Reader`] writes, matches moved to
/// raw positions: the MIME side of [`Scanner::extract`], the
/// [`crate::Extractor`] and the [`crate::PushScanner`].
#[derive(Debug)]
pub(crate) struct MimeScan {
    reader: Reader,
    engine: Engine,
    map: Map,
    /// Raw bytes the reader has not taken yet, from raw offset `rbase`.
    raw: Vec<u8>,
    rbase: u64,
    /// Decoded text from decoded offset `dbase`; `fresh` bytes of it are
    /// not scanned yet.
    dec: Vec<u8>,
    dbase: u64,
    fresh: usize,
    min_read: usize,
    /// Text the reader leaves as it is is scanned where it lies
    /// ([`unchanged`]); off only to test that this changes nothing.
    in_place: bool,
    /// Where [`Reader::skim`] writes what is dropped.
    scratch: Vec<u8>,
    scratch_map: Map,
    /// The top-level messages, when fields are asked for.
    attach: Option<Box<Attach>>,
    /// With `attach`: the message starts its tracker found in the step
    /// being read, which spare [`unchanged`]'s survey its own search.
    known: Option<Vec<u64>>,
}

/// Raw bytes handed to the reader at once.
const STEP: usize = 64 * 1024;

/// Raw bytes fed to the message tracker at once.
const ATTACH_STEP: usize = 1 << 20;

/// The buffers a [`MimeScan`] leaves to the next one on its thread, so a
/// search over many small inputs does not grow them again for each.
#[derive(Default)]
struct Buffers {
    raw: Vec<u8>,
    dec: Vec<u8>,
    map: Map,
    /// The HTML reader's (see [`Reader::keep`]).
    html: Option<Box<html::Part>>,
}

thread_local! {
    static BUFFERS: Cell<Option<Buffers>> = const { Cell::new(None) };
}

/// Capacity kept for the next scan, at most (bounded memory per thread).
const BUFFERS_KEPT: usize = 4 * STEP;

impl Drop for MimeScan {
    fn drop(&mut self) {
        let mut b = Buffers {
            raw: std::mem::take(&mut self.raw),
            dec: std::mem::take(&mut self.dec),
            map: std::mem::take(&mut self.map),
            html: self.reader.spare.take(),
        };
        b.raw.clear();
        b.dec.clear();
        b.map.clear();
        if b.raw.capacity() > BUFFERS_KEPT
            || b.dec.capacity() > BUFFERS_KEPT
            || b.map.capacity() > BUFFERS_KEPT
        {
            return;
        }
        let _ = BUFFERS.try_with(|c| c.set(Some(b)));
    }
}

impl MimeScan {
    pub fn new(scanner: Scanner, min_read: usize) -> MimeScan {
        let b = BUFFERS
            .try_with(|c| c.take())
            .ok()
            .flatten()
            .unwrap_or_default();
        let mut reader = Reader::with(scanner);
        reader.spare = b.html;
        MimeScan {
            reader,
            engine: Engine::new(scanner),
            map: b.map,
            raw: b.raw,
            rbase: 0,
            dec: b.dec,
            dbase: 0,
            fresh: 0,
            min_read: min_read.max(1),
            in_place: true,
            scratch: Vec::new(),
            scratch_map: Map::default(),
            attach: (!scanner.get_fields().is_empty()).then(|| {
                let mut attach = Box::new(Attach::new(scanner.get_fields()));
                attach.tracker.log = Some(Vec::new());
                attach
            }),
            known: (!scanner.get_fields().is_empty()).then(Vec::new),
        }
    }

    fn read(&mut self, bytes: &[u8], eof: bool) -> usize {
        let before = self.dec.len();
        let mut out = Out {
            dec: &mut self.dec,
            base: self.dbase,
            map: &mut self.map,
        };
        let took = self.reader.run(bytes, self.rbase, eof, &mut out);
        if !self.reader.charsets.is_empty() {
            for (d, charset) in self.reader.charsets.drain(..) {
                self.engine.charset_from(d, charset);
            }
        }
        self.rbase += took as u64;
        if eof {
            self.reader.finish(&mut out);
        }
        self.fresh += self.dec.len() - before;
        took
    }

    /// Takes the next raw bytes, handing decided matches to `each` (with
    /// their message's metadata when fields are asked for).
    pub fn feed(&mut self, data: &[u8], each: &mut dyn FnMut(&mut Match)) {
        let Some(mut attach) = self.attach.take() else {
            return self.feed_bytes(data, each);
        };
        // In steps, so the message starts kept stay few however much
        // comes at once.
        for step in data.chunks(ATTACH_STEP) {
            attach.tracker.feed(step);
            if let (Some(log), Some(known)) = (&mut attach.tracker.log, &mut self.known) {
                std::mem::swap(log, known);
                log.clear();
            }
            self.feed_bytes(step, &mut |m| attach.take(m, each));
            // No match to come starts before the oldest byte the map
            // still translates, or the href that waits for its text.
            let floor = self.map.first_raw().unwrap_or(self.rbase);
            let floor = match self.reader.found.open {
                Some((_, r)) => floor.min(r),
                None => floor,
            };
            attach.release(floor, each);
        }
        self.attach = Some(attach);
    }

    /// Ends the input, handing the remaining matches to `each`.
    pub fn finish(&mut self, each: &mut dyn FnMut(&mut Match)) {
        let Some(mut attach) = self.attach.take() else {
            return self.finish_bytes(each);
        };
        attach.tracker.finish();
        self.finish_bytes(&mut |m| attach.take(m, each));
        attach.release(u64::MAX, each);
        self.attach = Some(attach);
    }

    fn feed_bytes(&mut self, mut data: &[u8], each: &mut dyn FnMut(&mut Match)) {
        while !data.is_empty() {
            if self.raw.is_empty() {
                let took = self.feed_unchanged(data, each);
                if took > 0 {
                    data = &data[took..];
                    continue;
                }
                // Straight from the caller's bytes; only an undecided tail
                // (at most about HOLD bytes) is copied.
                let take = data.len().min(STEP);
                let took = self.read(&data[..take], false);
                if take == data.len() {
                    self.raw.extend_from_slice(&data[took..]);
                    data = &[];
                } else {
                    data = &data[took..];
                }
            } else {
                // Only as much as completes the undecided tail: once the
                // reader is past it, the rest comes from `data` directly.
                let had = self.raw.len();
                let take = data.len().min(4 * HOLD);
                self.raw.extend_from_slice(&data[..take]);
                let raw = std::mem::take(&mut self.raw);
                let took = self.read(&raw, false);
                self.raw = raw;
                if took >= had && take < data.len() {
                    self.raw.clear();
                    data = &data[took - had..];
                } else {
                    self.raw.drain(..took);
                    data = &data[take..];
                }
            }
            if self.fresh >= self.min_read {
                self.scan(false, each);
            }
        }
    }

    fn finish_bytes(&mut self, each: &mut dyn FnMut(&mut Match)) {
        let raw = std::mem::take(&mut self.raw);
        self.read(&raw, true);
        self.scan(true, each);
    }

    fn scan(&mut self, eof: bool, each: &mut dyn FnMut(&mut Match)) {
        let (dec, base) = (&self.dec, self.dbase);
        // A forwarded message's header whose Message-ID may still come
        // waits: its URLs take that id.
        // So does an `href` whose anchor text is still being read: it
        // and what follows it (rule 22's order).
        let mut hold = self.reader.hold();
        if let Some((d, _)) = self.reader.found.open {
            hold = Some(hold.map_or(d, |h| h.min(d)));
        }
        let limit = match hold {
            Some(h) if !eof => (h.saturating_sub(base) as usize).min(dec.len()),
            _ => dec.len(),
        };
        let keep = scan_window(
            &mut self.engine,
            &mut self.map,
            &mut self.reader.found,
            dec,
            base,
            eof,
            limit,
            each,
        );
        self.dec.drain(..(keep - base) as usize);
        self.kept(keep);
    }

    /// The decoded text before `keep` is done with: only what the buffer
    /// holds from there is still needed.
    fn kept(&mut self, keep: u64) {
        self.dbase = keep;
        self.map.forget(keep);
        self.fresh = 0;
    }
}

/// Runs `engine` over the decoded window `buf` (decoded offset `base`),
/// handing each match to `each` at its raw positions; returns the decoded
/// offset from which the window must be kept for the next call.
///
/// What HTML parts gave (`found`) joins in: each `href` where its tag
/// stands among the matches, its line counted by the engine, and text
/// URLs that repeat the `href` of the `a` element they overlap left out
/// (rule 21).
#[allow(clippy::too_many_arguments)]
fn scan_window(
    engine: &mut Engine,
    map: &mut Map,
    found: &mut Found,
    buf: &[u8],
    base: u64,
    eof: bool,
    limit: usize,
    each: &mut dyn FnMut(&mut Match),
) -> u64 {
    if found.hrefs.is_empty() && found.anchors.is_empty() {
        let stop = engine.scan(buf, base, eof, limit, &mut |m| {
            map.translate(m);
            each(m)
        });
        return engine.settle(buf, base, eof, stop);
    }
    let stop = engine.scan(buf, base, eof, limit, &mut |m| {
        let (p, q) = (m.offset, m.end);
        while found.hrefs.front().is_some_and(|h| h.d <= p && !h.open) {
            let mut h = found.hrefs.pop_front().expect("an href");
            let from = (h.d.max(base) - base) as usize;
            let to = ((p - base) as usize).min(buf.len());
            let line = m.line as i64 - bytecount::count(&buf[from.min(to)..to], b'\n') as i64;
            h.m.line = (line + h.ldelta).max(1) as u64;
            each(&mut h.m);
        }
        if m.is_valid() && found.is_dup(m, p, q) {
            return;
        }
        map.translate(m);
        each(m)
    });
    let keep = engine.settle(buf, base, eof, stop);
    let end = base + buf.len() as u64;
    while found
        .hrefs
        .front()
        .is_some_and(|h| (h.d <= keep && !h.open) || (eof && h.d <= end))
    {
        let mut h = found.hrefs.pop_front().expect("an href");
        let line = engine.line_at(buf, base, h.d.min(end)) as i64;
        h.m.line = (line + h.ldelta).max(1) as u64;
        each(&mut h.m);
    }
    found.forget(keep);
    keep
}
