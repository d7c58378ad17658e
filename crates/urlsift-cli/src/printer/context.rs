//! `-A/-B/-C`: each URL's own lines (all of them for a URL broken over
//! several) with lines of context around, marked as grep marks them:
//! `path:line:text` for a URL's lines, `path-line-text` for context, `--`
//! between groups that do not touch. With colour the URLs' bytes are
//! highlighted inside their lines (and links, with `--hyperlink`).
//!
//! An input is read in order, piece by piece ([`ContextLines::piece`]
//! walks the lines of each piece's own part once, [`ContextLines::finish`]
//! ends the last). A line is printed whole and once, as grep prints it,
//! wherever the pieces cut it: a line the piece ends inside is kept (its
//! first bytes) until its end comes, then printed, kept or dropped as any
//! other. Lines after a URL are printed as they are reached, in the same
//! piece or the next; lines before it are the last `-B` lines walked and
//! not printed, kept from piece to piece.
//!
//! Memory is bounded whatever the input: of one line at most
//! [`LINE_CAP`] bytes are kept and printed; the rest of a longer line is
//! counted, and the line printed ends with ` [... omitted N bytes of a
//! long line]`. So at most `-B` + 1 lines of at most [`LINE_CAP`] bytes
//! are held, and the output never depends on where the pieces are cut.
//! With `--json`, [`OwnLines`] gives each object its URL's own lines the
//! same way (each cut at [`LINE_CAP`], without the mark).
//!
//! Text is printed as it is, except what could act on a terminal or is not
//! text: bytes below 0x20 but TAB, DEL, the C1 controls and bytes that are
//! not UTF-8 are written `\xNN` (and `\` as `\\`); a line's CR LF end is
//! dropped. For a terminal ([`Look::decode`]) and in JSON, the lines of a
//! group are first decoded to UTF-8 from the charset of its URL's part or
//! message ([`Match::charset`]), line by line; the bytes that do not decode
//! are escaped as any other. Line numbers and the cap stay the raw text's.

use std::collections::VecDeque;

use super::color::{Paint, Style};
use super::{put_int, InputName, Recs};
use crate::args::Context;
use urlsift::{Charset, Match};

/// The most bytes of one line printed (and kept): a person reads no more
/// of a line, and `-B` lines of a mailbox of one-line HTML parts stay
/// small. The cut falls before a UTF-8 character it would split.
pub const LINE_CAP: usize = 64 * 1024;

/// Bytes of a line kept: [`LINE_CAP`] and a CR LF end, so a line that is
/// printed whole is kept whole.
const KEEP: usize = LINE_CAP + 2;

/// A URL to show: where its `<` stands, where the candidate ends, and
/// the byte ranges to highlight (absolute offsets).
#[derive(Clone, Debug)]
pub struct Mark {
    /// Offset of the opening `<`.
    pub start: u64,
    /// Offset just past the candidate.
    pub end: u64,
    /// The URL's bytes in the text.
    pub spans: Vec<(u64, u64)>,
    /// The hyperlink target (a validated URL), if any.
    pub link: Option<Vec<u8>>,
    /// The charset of its text ([`Match::charset`]), when not UTF-8.
    pub charset: Option<Charset>,
}

/// How the lines are decorated.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    /// Print line numbers.
    pub line_number: bool,
    /// Colours and links.
    pub style: Style,
    /// Decode lines from their charset (the output is for a terminal).
    pub decode: bool,
}

/// A line walked: its number, its first [`KEEP`] bytes, and the length of
/// its text (its end of line not counted).
#[derive(Debug)]
struct Kept {
    number: u64,
    head: Vec<u8>,
    len: u64,
}

/// The line a piece ended inside, kept until its end comes.
#[derive(Debug, Default)]
struct Open {
    /// Offset of its first byte.
    start: u64,
    /// Its first [`KEEP`] bytes.
    head: Vec<u8>,
    /// Its bytes so far.
    len: u64,
    /// Its last two bytes (to tell a CR LF end once the head is full).
    tail: [u8; 2],
    /// Whether a URL met in it starts a group (the lines before it are
    /// printed first).
    starts_group: bool,
}

impl Open {
    fn push(&mut self, bytes: &[u8]) {
        let room = KEEP.saturating_sub(self.head.len());
        self.head.extend_from_slice(&bytes[..bytes.len().min(room)]);
        self.len += bytes.len() as u64;
        match bytes {
            [.., a, b] => self.tail = [*a, *b],
            [b] => self.tail = [self.tail[1], *b],
            [] => {}
        }
    }

    /// The length of its text, its end of line not counted.
    fn text_len(&self) -> u64 {
        match self.tail {
            [b'\r', b'\n'] if self.len >= 2 => self.len - 2,
            [_, b'\n'] => self.len - 1,
            _ => self.len,
        }
    }
}

/// The length of a whole line's text, its end of line not counted.
fn text_len(line: &[u8]) -> u64 {
    let t = line.strip_suffix(b"\n").unwrap_or(line);
    t.strip_suffix(b"\r").unwrap_or(t).len() as u64
}

/// The context printer of one input.
#[derive(Debug)]
pub struct ContextLines {
    ctx: Context,
    look: Look,
    /// -m: the URLs this input may still show.
    room: u64,
    /// The number of the next line walked (1-based).
    line: u64,
    /// The line the last piece ended inside, if any.
    open: Option<Open>,
    /// Lines up to this offset are the shown URLs' own.
    url_until: u64,
    /// Spans to highlight not yet passed, with their link.
    spans: VecDeque<(u64, u64, usize)>,
    /// Link targets of the spans (indexes into this list).
    links: Vec<Option<Vec<u8>>>,
    /// Context lines still to print after the last URL line.
    after_left: usize,
    /// The last line printed.
    last_printed: Option<u64>,
    /// The last lines walked and not printed.
    history: VecDeque<Kept>,
    /// The charset of the last URL met, which the lines of its group are
    /// decoded by (with [`Look::decode`]).
    charset: Option<Charset>,
    /// A line decoded, reused.
    decoded: Vec<u8>,
}

impl ContextLines {
    /// The printer of one input's context, at most `max` URLs.
    pub fn new(ctx: Context, look: Look, max: Option<u64>) -> ContextLines {
        ContextLines {
            ctx,
            look,
            room: max.unwrap_or(u64::MAX),
            line: 1,
            open: None,
            url_until: 0,
            spans: VecDeque::new(),
            links: Vec::new(),
            after_left: 0,
            last_printed: None,
            history: VecDeque::new(),
            charset: None,
            decoded: Vec::new(),
        }
    }

    /// Walks the lines of a piece's own part, `bytes[..limit]` at absolute
    /// `offset`, printing into `recs` the lines of `marks` (the piece's
    /// URLs in order) and their context. A line the part ends inside is
    /// kept for the next piece (or [`ContextLines::finish`]). Returns how
    /// many URLs it showed.
    pub fn piece(
        &mut self,
        recs: &mut Recs,
        name: &InputName,
        bytes: &[u8],
        limit: usize,
        offset: u64,
        marks: Vec<Mark>,
    ) -> u64 {
        let mut marks = marks.into_iter().peekable();
        let mut shown = 0;
        let mut pos = 0;
        while pos < limit {
            let lf = memchr::memchr(b'\n', &bytes[pos..limit]);
            let end = lf.map_or(limit, |k| pos + k + 1);
            let e = offset + end as u64;
            let s = self.open.as_ref().map_or(offset + pos as u64, |o| o.start);
            let mut starts_group = self.open.as_ref().is_some_and(|o| o.starts_group);
            while let Some(m) = marks.next_if(|m| m.start < e) {
                if self.room == 0 {
                    continue;
                }
                self.room -= 1;
                shown += 1;
                if s >= self.url_until {
                    starts_group = true;
                }
                self.url_until = self.url_until.max(m.end);
                self.charset = m.charset;
                let k = self.links.len();
                self.links.push(m.link);
                self.spans
                    .extend(m.spans.into_iter().map(|(a, b)| (a, b, k)));
            }
            let text = &bytes[pos..end];
            match (lf, self.open.take()) {
                // The line goes on in the next piece.
                (None, open) => {
                    let mut o = open.unwrap_or(Open {
                        start: s,
                        ..Open::default()
                    });
                    o.push(text);
                    o.starts_group = starts_group;
                    self.open = Some(o);
                }
                (Some(_), Some(mut o)) => {
                    o.push(text);
                    let len = o.text_len();
                    self.line_done(recs, name, s, &o.head, len, starts_group);
                }
                (Some(_), None) => {
                    self.line_done(recs, name, s, text, text_len(text), starts_group);
                }
            }
            pos = end;
        }
        recs.count += shown;
        shown
    }

    /// Ends the input: prints (or drops) the last line when it has no
    /// line feed.
    pub fn finish(&mut self, recs: &mut Recs, name: &InputName) {
        if let Some(o) = self.open.take() {
            let len = o.text_len();
            self.line_done(recs, name, o.start, &o.head, len, o.starts_group);
        }
    }

    /// A whole line walked: line `self.line` at offset `s`, `head` its
    /// first bytes (all of it, end included, unless it is longer than
    /// [`KEEP`]) and `len` the length of its text. Prints it as a URL's own
    /// line, as context, or keeps it for `-B`.
    fn line_done(
        &mut self,
        recs: &mut Recs,
        name: &InputName,
        s: u64,
        head: &[u8],
        len: u64,
        starts_group: bool,
    ) {
        if starts_group {
            // The lines before, walked and kept.
            while let Some(k) = self.history.pop_front() {
                self.print(recs, name, k.number, b'-', &k.head, k.len, None);
            }
        }
        let number = self.line;
        if s < self.url_until {
            self.print(recs, name, number, b':', head, len, Some(s));
            self.after_left = self.ctx.after;
        } else if self.after_left > 0 {
            self.after_left -= 1;
            self.print(recs, name, number, b'-', head, len, None);
        } else if self.ctx.before > 0 {
            let mut buf = if self.history.len() == self.ctx.before {
                self.history.pop_front().map(|k| k.head).unwrap_or_default()
            } else {
                Vec::new()
            };
            buf.clear();
            buf.extend_from_slice(&head[..head.len().min(KEEP)]);
            self.history.push_back(Kept {
                number,
                head: buf,
                len,
            });
        }
        if s >= self.url_until {
            // Past every URL shown: their spans and links are done.
            self.spans.clear();
            self.links.clear();
        }
        self.line += 1;
    }

    /// Prints line `number` marked with `sep`: `head` its first bytes and
    /// `len` the length of its text (starting at offset `at` when its URL
    /// spans are highlighted); at most [`LINE_CAP`] bytes of it.
    #[allow(clippy::too_many_arguments)]
    fn print(
        &mut self,
        recs: &mut Recs,
        name: &InputName,
        number: u64,
        sep: u8,
        head: &[u8],
        len: u64,
        at: Option<u64>,
    ) {
        if self.last_printed.is_some_and(|p| number > p + 1) {
            recs.body.extend_from_slice(b"--\n");
        }
        self.last_printed = Some(number);
        let st = self.look.style;
        let out = &mut recs.body;
        if name.show {
            st.path(out, &name.display);
            out.push(sep);
        }
        if self.look.line_number {
            st.open(out, Paint::Number);
            put_int(out, number);
            st.close(out);
            out.push(sep);
        }
        // The text without its end of line, cut at the cap.
        let whole = &head[..head.len().min(usize::try_from(len).unwrap_or(usize::MAX))];
        let text = &whole[..cap(whole)];
        let omitted = len - text.len() as u64;
        let charset = self.charset.filter(|_| self.look.decode);
        match at {
            None => escape_decoded(out, text, charset, &mut self.decoded),
            Some(s) => self.highlighted(out, text, s),
        }
        if omitted > 0 {
            out.extend_from_slice(b" [... omitted ");
            put_int(out, omitted);
            out.extend_from_slice(b" bytes of a long line]");
        }
        out.push(b'\n');
    }

    /// Writes `text` (at offset `s`) with the URL spans in it highlighted.
    fn highlighted(&mut self, out: &mut Vec<u8>, text: &[u8], s: u64) {
        let st = self.look.style;
        // Each stretch decoded apart: the URL's bytes are ASCII, where
        // every charset read by lines is in its initial state.
        let charset = self.charset.filter(|_| self.look.decode);
        let buf = &mut self.decoded;
        let mut escape_text = |out: &mut Vec<u8>, t: &[u8]| escape_decoded(out, t, charset, buf);
        let e = s + text.len() as u64;
        // Spans wholly before this line are done.
        while self.spans.front().is_some_and(|sp| sp.1 <= s) {
            self.spans.pop_front();
        }
        let mut from = s;
        for &(a, b, k) in self.spans.iter().take_while(|sp| sp.0 < e) {
            let (a, b) = (a.max(from), b.min(e));
            if a >= b {
                continue;
            }
            escape_text(out, &text[(from - s) as usize..(a - s) as usize]);
            if let Some(link) = &self.links[k] {
                st.link_open(out, link);
            }
            st.open(out, Paint::Match);
            escape_text(out, &text[(a - s) as usize..(b - s) as usize]);
            st.close(out);
            if self.links[k].is_some() {
                st.link_close(out);
            }
            from = b;
        }
        escape_text(out, &text[(from - s) as usize..]);
    }
}

/// How much of a line's `text` is printed: all of it up to [`LINE_CAP`]
/// bytes, else [`LINE_CAP`] bytes less a UTF-8 character the cut would
/// split.
fn cap(text: &[u8]) -> usize {
    if text.len() <= LINE_CAP {
        return text.len();
    }
    let mut k = LINE_CAP;
    // Back over at most three continuation bytes, to the character's start.
    while k > LINE_CAP - 3 && text[k] & 0xc0 == 0x80 {
        k -= 1;
    }
    if text[k] & 0xc0 == 0x80 {
        LINE_CAP
    } else {
        k
    }
}

/// `--json` with `-A/-B/-C`: the text of each match's own lines, from the
/// start of the line of its `<` to the end of the line of its last byte,
/// whole wherever the pieces cut them (each line at most [`LINE_CAP`]
/// bytes, cut as [`ContextLines`] cuts it, without a mark: the JSON string
/// holds the line's text).
///
/// A piece holds a match's lines but where a line is longer than the
/// piece: the start of the line a piece ends inside is kept for the next
/// (its first [`KEEP`] bytes), and a match whose last line goes on past the
/// bytes read waits, with the matches after it, until that line ends or
/// its first [`KEEP`] bytes are known. Memory: one line's head, and the
/// matches within the first [`KEEP`] bytes of one line.
#[derive(Debug, Default)]
pub struct OwnLines {
    /// The line the last piece ended inside: its first bytes.
    open: Option<Vec<u8>>,
    /// Matches not yet given, in order: those whose last line goes on past
    /// the bytes read, and those after them.
    waiting: VecDeque<Waiting>,
}

/// What takes each match (with its message) and its own lines' text.
pub type Given<'a> = dyn FnMut(&Match, &[u8]) + 'a;

/// A match whose lines are not all known, or which waits behind one.
#[derive(Debug)]
struct Waiting {
    m: Match,
    /// Its lines so far (to the end of the last piece), or all of them.
    text: Vec<u8>,
    /// Whether `text` is all of its lines.
    done: bool,
}

/// Appends `add` to `text`, keeping at most [`KEEP`] bytes of each line
/// (line feeds kept).
fn push_capped(text: &mut Vec<u8>, add: &[u8]) {
    for seg in add.split_inclusive(|&b| b == b'\n') {
        let room = KEEP.saturating_sub(last_line_len(text));
        let (body, lf) = match seg.strip_suffix(b"\n") {
            Some(b) => (b, true),
            None => (seg, false),
        };
        text.extend_from_slice(&body[..body.len().min(room)]);
        if lf {
            text.push(b'\n');
        }
    }
}

/// The bytes of the last line of `text` (after its last line feed).
fn last_line_len(text: &[u8]) -> usize {
    text.len() - memchr::memrchr(b'\n', text).map_or(0, |k| k + 1)
}

/// Adds to `text` (a match's lines, known up to `bytes[start]`) what
/// `bytes` (at absolute `offset`, own part `..limit`) holds of them, up to
/// the end of the line of `last` (the match's last byte). Returns whether
/// they are all known: that line ended, or the input, or its first
/// [`KEEP`] bytes are known; if not, `text` goes to `bytes[limit]`, where
/// the next piece starts.
#[allow(clippy::too_many_arguments)]
fn extend_lines(
    text: &mut Vec<u8>,
    last: u64,
    bytes: &[u8],
    start: usize,
    limit: usize,
    offset: u64,
    at_end: bool,
) -> bool {
    let rl = usize::try_from(last.saturating_sub(offset))
        .unwrap_or(usize::MAX)
        .clamp(start, bytes.len().max(start));
    if let Some(k) = memchr::memchr(b'\n', &bytes[rl..]) {
        push_capped(text, &bytes[start..rl + k + 1]);
        return true;
    }
    let known = match memchr::memrchr(b'\n', &bytes[start..rl]) {
        Some(j) => bytes.len() - (start + j + 1),
        None => last_line_len(text) + (bytes.len() - start),
    };
    if at_end || known >= KEEP {
        push_capped(text, &bytes[start..]);
        return true;
    }
    push_capped(text, &bytes[start..limit.max(start)]);
    false
}

impl OwnLines {
    /// Takes one piece: `bytes` (lookahead included) at absolute `offset`,
    /// its own part `..limit`, `at_end` when the input ends with it, and
    /// its `matches` in order (each with its message). Calls `each`,
    /// in order, with each match whose lines are known and their text.
    pub fn piece(
        &mut self,
        bytes: &[u8],
        limit: usize,
        offset: u64,
        at_end: bool,
        matches: Vec<Match>,
        each: &mut Given<'_>,
    ) {
        for w in self.waiting.iter_mut().filter(|w| !w.done) {
            let last = w.m.end().saturating_sub(1);
            w.done = extend_lines(&mut w.text, last, bytes, 0, limit, offset, at_end);
        }
        for m in matches {
            let rel = usize::try_from(m.offset().saturating_sub(offset))
                .unwrap_or(usize::MAX)
                .min(limit.saturating_sub(1));
            let (from, prefix) = match memchr::memrchr(b'\n', &bytes[..rel]) {
                Some(k) => (k + 1, &[][..]),
                // The line began in an earlier piece.
                None => (0, self.open.as_deref().unwrap_or_default()),
            };
            let mut text = prefix.to_vec();
            let last = m.end().saturating_sub(1).max(m.offset());
            let done = extend_lines(&mut text, last, bytes, from, limit, offset, at_end);
            self.waiting.push_back(Waiting { m, text, done });
        }
        while let Some(w) = self.waiting.pop_front() {
            if !w.done {
                self.waiting.push_front(w);
                break;
            }
            each(&w.m, &w.text);
        }
        // The line this piece ends inside, for the next.
        let own = &bytes[..limit];
        match memchr::memrchr(b'\n', own) {
            _ if own.is_empty() => {}
            Some(k) if k + 1 == own.len() => self.open = None,
            Some(k) => {
                let mut head = Vec::new();
                push_capped(&mut head, &own[k + 1..]);
                self.open = Some(head);
            }
            None => push_capped(self.open.get_or_insert_with(Vec::new), own),
        }
    }

    /// Ends the input: the matches still waiting, with the lines read.
    pub fn finish(&mut self, each: &mut Given<'_>) {
        for w in self.waiting.drain(..) {
            each(&w.m, &w.text);
        }
        self.open = None;
    }
}

/// How much of a line's text `JSON`'s `lines` holds (see [`LINE_CAP`]).
pub fn capped(text: &[u8]) -> &[u8] {
    &text[..cap(text)]
}

/// `text` decoded from `charset` into `buf` when it names one that lines
/// can be decoded by and the text is not ASCII; else `text` itself.
pub fn decoded<'a>(text: &'a [u8], charset: Option<Charset>, buf: &'a mut Vec<u8>) -> &'a [u8] {
    match charset {
        Some(c) if c.lines_are_ascii_compatible() && !text.is_ascii() => {
            buf.clear();
            c.decode_keeping(text, buf);
            buf
        }
        _ => text,
    }
}

/// [`escape_text`] of `text` [`decoded`] from `charset`.
fn escape_decoded(out: &mut Vec<u8>, text: &[u8], charset: Option<Charset>, buf: &mut Vec<u8>) {
    escape_text(out, decoded(text, charset, buf));
}

/// Writes a line of text: UTF-8 as it is, but control bytes (TAB aside),
/// DEL, the C1 controls, `\` and bytes that are not UTF-8 escaped.
pub fn escape_text(out: &mut Vec<u8>, mut text: &[u8]) {
    while !text.is_empty() {
        let (good, bad) = match std::str::from_utf8(text) {
            Ok(s) => (s, 0),
            Err(e) => {
                let good = e.valid_up_to();
                let bad = e.error_len().unwrap_or(text.len() - good);
                // SAFETY-free: the prefix was just checked.
                (std::str::from_utf8(&text[..good]).unwrap_or(""), bad)
            }
        };
        for c in good.chars() {
            match c {
                '\\' => out.extend_from_slice(b"\\\\"),
                '\t' => out.push(b'\t'),
                '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => {
                    let mut b = [0u8; 4];
                    for &x in c.encode_utf8(&mut b).as_bytes() {
                        hex(out, x);
                    }
                }
                _ => {
                    let mut b = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                }
            }
        }
        let n = good.len();
        for &x in &text[n..n + bad] {
            hex(out, x);
        }
        text = &text[n + bad..];
    }
}

fn hex(out: &mut Vec<u8>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.extend_from_slice(&[
        b'\\',
        b'x',
        HEX[usize::from(b >> 4)],
        HEX[usize::from(b & 15)],
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name() -> InputName {
        InputName {
            display: b"f".to_vec(),
            stdin: false,
            show: false,
            member_at: None,
            escaped: Default::default(),
            json: Default::default(),
        }
    }

    /// Marks at the first `<` of each `needle`, ending at the next `>`,
    /// spanning all between.
    fn marks(text: &[u8], needles: &[&str]) -> Vec<Mark> {
        needles
            .iter()
            .map(|n| {
                let s = memchr::memmem::find(text, n.as_bytes()).unwrap();
                let e = s + memchr::memchr(b'>', &text[s..]).unwrap() + 1;
                Mark {
                    start: s as u64,
                    end: e as u64,
                    spans: vec![(s as u64 + 1, e as u64 - 1)],
                    link: None,
                    charset: None,
                }
            })
            .collect()
    }

    fn show(
        text: &[u8],
        needles: &[&str],
        before: usize,
        after: usize,
        pieces: &[usize],
    ) -> String {
        let look = Look {
            line_number: true,
            style: Style::default(),
            decode: false,
        };
        let mut cl = ContextLines::new(Context { before, after }, look, None);
        let mut recs = Recs::default();
        let all = marks(text, needles);
        let mut from = 0;
        for &to in pieces.iter().chain([&text.len()]) {
            let ms = all
                .iter()
                .filter(|m| (from as u64..to as u64).contains(&m.start))
                .cloned()
                .collect();
            cl.piece(
                &mut recs,
                &name(),
                &text[from..],
                to - from,
                from as u64,
                ms,
            );
            from = to;
        }
        cl.finish(&mut recs, &name());
        String::from_utf8(recs.body).unwrap()
    }

    const TEXT: &[u8] = b"1\n2\n3 <a>\n4\n5\n6\n7\n8 <b\n9 c>\n10\n11 <d>\n12\n";

    #[test]
    fn lines_decoded_from_their_url_s_charset_for_a_terminal() {
        // Shift_JIS: 日本 before the URL, あ in the line after, and a lead
        // byte that ends its line undecoded.
        let text = b"\x93\xfa\x96\x7b <a>\n\x82\xa0\x82\n";
        let sjis = Charset::for_label(b"shift_jis");
        for (decode, want) in [
            (true, "1:日本 <a>\n2-あ\\x82\n"),
            (false, "1:\\x93\\xfa\\x96{ <a>\n2-\\x82\\xa0\\x82\n"),
        ] {
            let look = Look {
                line_number: true,
                style: Style::default(),
                decode,
            };
            let mut cl = ContextLines::new(
                Context {
                    before: 1,
                    after: 1,
                },
                look,
                None,
            );
            let mut recs = Recs::default();
            let mut ms = marks(text, &["<a"]);
            ms[0].charset = sjis;
            cl.piece(&mut recs, &name(), text, text.len(), 0, ms);
            cl.finish(&mut recs, &name());
            assert_eq!(String::from_utf8(recs.body).unwrap(), want);
        }
        // Highlighted, the stretches around the URL each decoded.
        let look = Look {
            line_number: false,
            style: Style {
                color: true,
                hyperlink: false,
            },
            decode: true,
        };
        let mut cl = ContextLines::new(
            Context {
                before: 0,
                after: 0,
            },
            look,
            None,
        );
        let mut recs = Recs::default();
        let mut ms = marks(text, &["<a"]);
        ms[0].charset = sjis;
        cl.piece(&mut recs, &name(), text, text.len(), 0, ms);
        let out = String::from_utf8(recs.body).unwrap();
        assert!(
            out.starts_with("日本 <") && out.contains("a\x1b"),
            "{out:?}"
        );
    }

    #[test]
    fn groups_marked_and_separated() {
        assert_eq!(
            show(TEXT, &["<a", "<b", "<d"], 1, 1, &[]),
            "2-2\n3:3 <a>\n4-4\n--\n7-7\n8:8 <b\n9:9 c>\n10-10\n11:11 <d>\n12-12\n"
        );
        assert_eq!(
            show(TEXT, &["<a", "<b"], 0, 0, &[]),
            "3:3 <a>\n--\n8:8 <b\n9:9 c>\n"
        );
    }

    #[test]
    fn pieces_change_nothing() {
        let whole = show(TEXT, &["<a", "<b", "<d"], 2, 1, &[]);
        // Cut at every line start, and inside lines (a line longer than
        // a piece).
        let starts: Vec<usize> = (1..TEXT.len()).filter(|&i| TEXT[i - 1] == b'\n').collect();
        for c in 1..TEXT.len() {
            assert_eq!(
                show(TEXT, &["<a", "<b", "<d"], 2, 1, &[c]),
                whole,
                "cut at {c}"
            );
        }
        assert_eq!(show(TEXT, &["<a", "<b", "<d"], 2, 1, &starts), whole);
        let every: Vec<usize> = (1..TEXT.len()).collect();
        assert_eq!(show(TEXT, &["<a", "<b", "<d"], 2, 1, &every), whole);
    }

    /// The case the command's piece-splitting property found: a first
    /// line longer than a piece, holding a URL, was printed once as the
    /// URL's line and again, its rest, as context after it.
    #[test]
    fn a_line_cut_by_pieces_is_printed_once() {
        let mut text = vec![b'x'; 4919];
        text.extend_from_slice(b" <u1>\nnext\n");
        text.extend_from_slice(&[b'y'; 3000]);
        text.extend_from_slice(b"\n<u2>\nend");
        let x = "x".repeat(4919);
        let y = "y".repeat(3000);
        let want = format!("1:{x} <u1>\n2-next\n3-{y}\n4:<u2>\n5-end\n");
        assert_eq!(show(&text, &["<u1", "<u2"], 1, 1, &[]), want);
        // Pieces of 1506 bytes (each line cut where it falls), and cuts
        // just before, inside and after the first URL.
        let cuts: Vec<usize> = (1..text.len() / 1506 + 1).map(|k| k * 1506).collect();
        assert_eq!(show(&text, &["<u1", "<u2"], 1, 1, &cuts), want);
        for c in [4919, 4920, 4921, 4923, 4925, 4926] {
            assert_eq!(show(&text, &["<u1", "<u2"], 1, 1, &[c]), want, "{c}");
        }
    }

    #[test]
    fn a_long_line_is_cut_at_the_cap_and_marked() {
        // A context line, then a URL's line, both longer than the cap,
        // the cut falling inside a two-byte character; CR LF ends.
        let mut text = vec![b'a'; LINE_CAP - 1];
        text.extend_from_slice("\u{e9}tail\r\n".as_bytes());
        let own = text.len();
        text.extend_from_slice(b"<u1> ");
        text.extend_from_slice(&vec![b'b'; LINE_CAP + 10]);
        text.extend_from_slice(b"\r\nlast");
        let a = "a".repeat(LINE_CAP - 1);
        let b = "b".repeat(LINE_CAP - 5);
        let want = format!(
            "1-{a} [... omitted 6 bytes of a long line]\n\
             2:<u1> {b} [... omitted 15 bytes of a long line]\n3-last\n"
        );
        assert_eq!(show(&text, &["<u1"], 1, 1, &[]), want);
        // Cut anywhere (in the first line, its CR LF, the second line):
        // the same.
        for c in [
            1,
            LINE_CAP - 1,
            LINE_CAP,
            own - 2,
            own - 1,
            own + 2,
            own + 100,
            text.len() - 5,
        ] {
            assert_eq!(show(&text, &["<u1"], 1, 1, &[c]), want, "{c}");
        }
        let every_kib: Vec<usize> = (1..text.len() / 1024).map(|k| k * 1024).collect();
        assert_eq!(show(&text, &["<u1"], 1, 1, &every_kib), want);
        // A line exactly at the cap is whole, its CR LF dropped.
        let mut t = b"<u1>".to_vec();
        t.extend_from_slice(&vec![b'c'; LINE_CAP - 4]);
        t.extend_from_slice(b"\r\n");
        let want = format!("1:<u1>{}\n", "c".repeat(LINE_CAP - 4));
        assert_eq!(show(&t, &["<u1"], 0, 0, &[LINE_CAP + 1]), want);
        assert_eq!(show(&t, &["<u1"], 0, 0, &[]), want);
    }

    /// grep's rule, from the whole text at once: the lines of each mark
    /// (from its `<` to its end) with `before` lines before and `after`
    /// after, `--` between groups that do not touch.
    fn reference(text: &[u8], marks: &[Mark], before: usize, after: usize) -> String {
        let starts: Vec<u64> = std::iter::once(0)
            .chain(
                memchr::memchr_iter(b'\n', text)
                    .map(|k| k as u64 + 1)
                    .filter(|&s| (s as usize) < text.len()),
            )
            .collect();
        let line_of = |off: u64| starts.partition_point(|&s| s <= off);
        let n = starts.len();
        let mut own = vec![false; n + 1];
        let mut shown = vec![false; n + 1];
        for m in marks {
            let (a, b) = (line_of(m.start), line_of(m.end - 1));
            own[a..=b].fill(true);
            shown[a.saturating_sub(before).max(1)..=(b + after).min(n)].fill(true);
        }
        let mut out = String::new();
        let mut last = None;
        for l in 1..=n {
            if !shown[l] {
                continue;
            }
            if last.is_some_and(|p| l > p + 1) {
                out.push_str("--\n");
            }
            last = Some(l);
            let s = starts[l - 1] as usize;
            let e = starts.get(l).map_or(text.len(), |&e| e as usize);
            let body = std::str::from_utf8(&text[s..e])
                .unwrap()
                .trim_end_matches('\n');
            let sep = if own[l] { ':' } else { '-' };
            out.push_str(&format!("{l}{sep}{body}\n"));
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn any_cuts_print_grep_rule(
            kinds in proptest::collection::vec(0u8..6, 1..40),
            before in 0usize..4,
            after in 0usize..4,
            cuts in proptest::collection::vec(proptest::prelude::any::<proptest::sample::Index>(), 0..6),
        ) {
            // Lines of text, one-line URLs and URLs broken over two or
            // three lines.
            let mut text = Vec::new();
            let mut needles = Vec::new();
            for (i, k) in kinds.iter().enumerate() {
                match k {
                    0 => text.extend_from_slice(format!("<u{i}> t\n").as_bytes()),
                    1 => text.extend_from_slice(format!("a <u{i}\n b>\n").as_bytes()),
                    2 => text.extend_from_slice(format!("<u{i}\nx\ny> <v{i}>\n").as_bytes()),
                    _ => text.extend_from_slice(format!("text {i}\n").as_bytes()),
                }
                match k {
                    0 | 1 => needles.push(format!("<u{i}")),
                    2 => {
                        needles.push(format!("<u{i}"));
                        needles.push(format!("<v{i}"));
                    }
                    _ => {}
                }
            }
            let needles: Vec<&str> = needles.iter().map(|s| s.as_str()).collect();
            // Cuts anywhere: a piece ends inside a line longer than it.
            let mut pieces: Vec<usize> = if text.len() < 2 {
                Vec::new()
            } else {
                cuts.iter().map(|c| 1 + c.index(text.len() - 1)).collect()
            };
            pieces.sort_unstable();
            pieces.dedup();
            let want = reference(&text, &marks(&text, &needles), before, after);
            proptest::prop_assert_eq!(show(&text, &needles, before, after, &pieces), want);
        }
    }

    /// The own lines [`OwnLines`] gives each URL of `text` cut into pieces
    /// ending at `cuts`, each piece with `look` bytes of lookahead.
    fn own(text: &[u8], cuts: &[usize], look: usize) -> Vec<String> {
        let all = urlsift::Scanner::new().mime(false).extract(text);
        let mut ol = OwnLines::default();
        let mut got = Vec::new();
        // Each line as JSON's `lines` holds it.
        let mut each = |m: &Match, t: &[u8]| {
            let lines: Vec<String> = t
                .split_inclusive(|&b| b == b'\n')
                .map(|l| {
                    let l = l.strip_suffix(b"\n").unwrap_or(l);
                    let l = l.strip_suffix(b"\r").unwrap_or(l);
                    String::from_utf8_lossy(capped(l)).into_owned()
                })
                .collect();
            got.push(format!("{}|{}", m.offset(), lines.join("/")));
        };
        let mut from = 0;
        for &to in cuts.iter().chain([&text.len()]) {
            let ms: Vec<Match> = all
                .iter()
                .filter(|m| (from as u64..to as u64).contains(&m.offset()))
                .cloned()
                .collect();
            // A piece holds its candidates whole (its lookahead is at
            // least --max-bytes).
            let end = ms
                .iter()
                .map(|m| m.end() as usize)
                .fold(to + look, usize::max)
                .min(text.len());
            let bytes = &text[from..end];
            ol.piece(
                bytes,
                to - from,
                from as u64,
                to == text.len(),
                ms,
                &mut each,
            );
            from = to;
        }
        ol.finish(&mut each);
        got
    }

    #[test]
    fn own_lines_whole_wherever_pieces_cut() {
        let mut text = b"ab\ncd <URL:http://x.example/a\n b> e".to_vec();
        text.extend_from_slice(&[b'f'; 300]);
        text.extend_from_slice(b"\r\n<news:g.h> i <news:j.k>\nl\n");
        let whole = own(&text, &[], 0);
        let tail = "f".repeat(300);
        assert_eq!(
            whole,
            [
                format!("6|cd <URL:http://x.example/a/ b> e{tail}"),
                "337|<news:g.h> i <news:j.k>".to_string(),
                "350|<news:g.h> i <news:j.k>".to_string(),
            ]
        );
        // Every cut, with lookahead from none to past the end.
        for look in [0, 1, 7, 40, 400] {
            for c in 1..text.len() {
                assert_eq!(own(&text, &[c], look), whole, "cut {c} look {look}");
            }
            let every: Vec<usize> = (1..text.len()).step_by(3).collect();
            assert_eq!(own(&text, &every, look), whole, "look {look}");
        }
    }

    #[test]
    fn own_lines_keep_a_line_head_only() {
        let mut text = b"<news:a.b> ".to_vec();
        text.extend_from_slice(&vec![b'x'; 3 * LINE_CAP]);
        text.extend_from_slice(b" <news:c.d>\n");
        let whole = own(&text, &[], 0);
        assert_eq!(whole.len(), 2);
        for w in &whole {
            assert_eq!(w.split_once('|').unwrap().1.len(), LINE_CAP);
        }
        let cuts: Vec<usize> = (1..text.len() / 5000).map(|k| k * 5000).collect();
        assert!(own(&text, &cuts, 100) == whole);
        assert!(own(&text, &[5], 0) == whole);
        assert!(own(&text, &[LINE_CAP + 1], 1) == whole);
    }

    #[test]
    fn text_escaped_but_utf8_kept() {
        let mut out = Vec::new();
        escape_text(&mut out, "é\t\x1b[2J\\\u{9b}".as_bytes());
        out.extend_from_slice(b"|");
        escape_text(&mut out, b"a\xffb\xe2\x82");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "é\t\\x1b[2J\\\\\\xc2\\x9b|a\\xffb\\xe2\\x82"
        );
    }
}
