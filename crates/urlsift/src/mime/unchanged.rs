//! Stretches of mail that the MIME reading leaves as they are.
//!
//! Most mail holds no MIME encoding: messages whose header says
//! `text/plain` (or nothing) in 7bit or 8bit, and text that is no message
//! at all. Their MIME reading is their raw reading, byte for byte, so
//! [`MimeScan`] hands such a stretch to the engine where it lies, with one
//! identity run in the map, instead of sending it through the [`Reader`]
//! and copying it into the decoded buffer.
//!
//! [`survey`] finds how far such a stretch goes from a reader state that
//! reads text as it is ([`Reader::leaves_as_is`]): up to the first header
//! field that might change the reading, a `Content-Type` that is not plain
//! text or a `Content-Transfer-Encoding` that decodes. Everything else a
//! reader does in such a stretch (mbox `From ` lines starting messages,
//! header blocks, plain bodies) writes its bytes unchanged. Header blocks
//! are walked with a vector search for the only lines that may matter
//! there (those starting with `C` or `c`, and the empty line that ends the
//! block); in text only an `F` may start what matters, an mbox `From `
//! line after an empty line, found by a vector search for an `F` after a
//! line feed after a line feed or CR ([`crate::mbox::next_message_start`]).
//!
//! The reader then takes up its state at the stretch's end
//! ([`Reader::skim`]) by reading only from the last message start the
//! survey saw (an mbox `From ` line after an empty line) to the end of
//! that message's header block; what it writes meanwhile is dropped.
//!
//! One difference is allowed: at an mbox `From ` line the reader may write
//! a blank line ([`Reader`]'s separator) when the text before it was
//! already dropped from its buffer. The text before a `From ` line always
//! ends in an empty line, so a second one changes no match, and leaving it
//! out changes no position (positions are the raw bytes').

use memchr::{memchr, memrchr};

use super::{
    content_type_value, field_name, opens_message, py_space, py_strip, read_as_text, scan_window,
    type_byte,
};
use super::{Field, MimeScan, Place};
use super::{Mode, Out, Pass, Reader, HOLD};
use crate::lines::next_line_start_in;
use crate::matches::Match;
use crate::mbox::next_message_start;
use crate::multibyte::declared;

/// Longest field line the survey judges; a longer `Content-*` line ends
/// the stretch (the reader keeps at most `VALUE_CAP` bytes of a value, and
/// a judgement of the whole line must agree with one of its start).
const LONGEST_FIELD: usize = 1000;

/// What [`survey`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Survey {
    /// The stretch is `bytes[..end]`: `end` is a line start (the first line
    /// that might change the reading, or the end of the last complete line).
    end: usize,
    /// The last message start in the stretch: a line starting with `From `
    /// after an empty line.
    last_message: Option<usize>,
}

/// How far `bytes` read as they are, for a reader in `mode` (one that
/// [`Reader::leaves_as_is`]) with the line state `at_line_start` and
/// `prev_empty` at `bytes[0]` (see the module doc).
///
/// Header blocks are walked line by line (a few lines per message, each
/// looked at only when it starts with `C` or `c`); in text only an `F` can
/// start what matters, a message, found by one vector search.
///
/// `known`, when given, holds every message start (raw offsets, in order)
/// from `bytes[0]` (raw offset `base`) to its end, found already by a
/// [`MessageTracker`](crate::MessageTracker) that frames messages alike:
/// the search in text looks them up instead.
///
/// With `multibyte` (naked URLs on), a `Content-Type` that declares a
/// charset of contract rule 23 ends the stretch too: the reader notes it.
fn survey(
    bytes: &[u8],
    mode: Mode,
    at_line_start: bool,
    prev_empty: bool,
    known: Option<(&[u64], u64)>,
    multibyte: bool,
) -> Survey {
    let Some(k) = memrchr(b'\n', bytes) else {
        return Survey {
            end: 0,
            last_message: None,
        };
    };
    let bytes = &bytes[..k + 1];
    let stop = |end, last_message| Survey { end, last_message };
    let mut last_message = None;
    let mut pos = 0;
    // The reader's own test of the line before a `From ` line.
    let pass = Pass::new(bytes, 0, false, 0, at_line_start, prev_empty);
    let mut header = match mode {
        Mode::Header => true,
        Mode::Start => {
            // As `Reader::start`: the first line says whether the input is
            // a message (one longer than HOLD is left to the reader).
            let line = &bytes[..memchr(b'\n', bytes).unwrap_or(bytes.len())];
            if line.len() >= HOLD {
                return stop(0, None);
            }
            opens_message(line)
        }
        _ => false,
    };
    if !at_line_start {
        // The rest of a line begun before (longer than the reader holds):
        // neither a field nor a message start.
        pos = memchr(b'\n', bytes).map_or(bytes.len(), |k| k + 1);
    }
    while pos < bytes.len() {
        if header {
            // The header lines from `pos` (a line start) that may matter:
            // a `Content-*` field or the empty line that ends the block
            // (`bytes` ends with a line feed, so each line is complete).
            let mut s = pos;
            loop {
                let rest = &bytes[s..];
                if rest[0] == b'\n' || rest.starts_with(b"\r\n") {
                    header = false;
                    pos = s + if rest[0] == b'\n' { 1 } else { 2 };
                    break;
                }
                if matches!(rest[0], b'C' | b'c') {
                    let line = &rest[..crate::wide::find(b'\n', rest).unwrap_or(rest.len())];
                    if changes(line) || (multibyte && declares_multibyte(rest)) {
                        return stop(s, last_message);
                    }
                }
                match next_header_line(bytes, s) {
                    Some(next) => s = next,
                    None => return stop(bytes.len(), last_message),
                }
            }
            continue;
        }
        let next = match known {
            Some((starts, base)) => {
                let at = base + pos as u64;
                let i = starts.partition_point(|&s| s < at);
                starts
                    .get(i)
                    .map(|&s| (s - base) as usize)
                    .filter(|&p| p < bytes.len())
            }
            None => next_message_start(bytes, pos),
        };
        let Some(p) = next else {
            break;
        };
        pos = p + 1;
        // The search gives line starts only, but at 0, where the state
        // before the bytes decides.
        let line_start = p > 0 || at_line_start;
        if line_start && bytes[p..].starts_with(b"From ") && pass.prev_empty(p) {
            // A message starts; its header block follows this line.
            last_message = Some(p);
            header = true;
            pos = p + crate::wide::find(b'\n', &bytes[p..]).map_or(bytes.len() - p, |k| k + 1);
        }
    }
    stop(bytes.len(), last_message)
}

/// The next line start `s > from` whose line may matter in a header block
/// (its first byte is `C`, `c`, a line feed or a CR; `bytes[s - 1]` is a
/// line feed), if any. Most of a header block costs a few vector
/// operations per 64 bytes.
fn next_header_line(bytes: &[u8], from: usize) -> Option<usize> {
    next_line_start_in(bytes, from, [b'C', b'c', b'\n', b'\r'], |_| true)
}

/// Whether the header field at the start of `rest` (its line and its
/// continuation lines) is a `Content-Type` declaring a charset of contract
/// rule 23.
fn declares_multibyte(rest: &[u8]) -> bool {
    if rest.len() < 13 || !rest[..12].eq_ignore_ascii_case(b"content-type") {
        return false;
    }
    let mut end = 0;
    loop {
        end = match memchr(b'\n', &rest[end..]) {
            Some(k) => end + k + 1,
            None => rest.len(),
        };
        if end >= rest.len() || end > LONGEST_FIELD || !matches!(rest[end], b' ' | b'\t') {
            break;
        }
    }
    declared(&rest[..end.min(rest.len())]).is_some()
}

/// Whether a header line (without its line feed) might change the
/// reading: a `Content-Type` that is not plain text, a
/// `Content-Transfer-Encoding` that decodes, or either of them too long to
/// judge.
fn changes(line: &[u8]) -> bool {
    if line.len() < 8 || !line[..8].eq_ignore_ascii_case(b"content-") {
        return false;
    }
    let name = field_name(line);
    if line.get(name) != Some(&b':') {
        return false;
    }
    let (n, value) = (&line[..name], &line[name + 1..]);
    let plain = if n.eq_ignore_ascii_case(b"content-type") {
        plain_type(value)
    } else if n.eq_ignore_ascii_case(b"content-transfer-encoding") {
        plain_encoding(value)
    } else {
        return false;
    };
    !plain || line.len() > LONGEST_FIELD
}

/// A `Content-Type` value (its first line) that makes a body read as it
/// is at the top level, whatever continuation lines add: `text/*` but
/// markup, or anything that is no `type/subtype` (which means
/// `text/plain`). A blank first line is not judged: the type may follow.
fn plain_type(value: &[u8]) -> bool {
    let Some(a) = value.iter().position(|&b| !py_space(b)) else {
        return false;
    };
    // The value of nearly every message that has one, decided at once.
    let v = &value[a..];
    if v.len() >= 10
        && v[..10].eq_ignore_ascii_case(b"text/plain")
        && v.get(10).map_or(true, |&b| !type_byte(b))
    {
        return true;
    }
    // Continuation lines are joined with a space, which ends a token: the
    // first line decides the type once it holds more than blanks.
    match content_type_value(value) {
        None => true,
        Some((t, s, _)) => read_as_text(t, s),
    }
}

/// A `Content-Transfer-Encoding` value (its first line) that decodes
/// nothing, whatever continuation lines add (they are joined with a space,
/// so a non-blank first line never becomes `base64`).
fn plain_encoding(value: &[u8]) -> bool {
    let v = py_strip(value);
    !v.is_empty()
        && !v.eq_ignore_ascii_case(b"quoted-printable")
        && !v.eq_ignore_ascii_case(b"base64")
}

impl Reader {
    /// Whether the reader reads what comes as it is, at the top level, with
    /// nothing that the bytes before decided otherwise: no multipart open,
    /// no forwarded message, a header block (if one is being read) whose
    /// `Content-*` fields so far keep its body plain.
    pub(super) fn leaves_as_is(&self) -> bool {
        let p = &self.place;
        if !self.frames.is_empty()
            || self.charset.is_some()
            || self.forwarded.is_some()
            || p.encoding.is_some()
            || p.content_type.is_some()
            || p.message.is_some()
        {
            return false;
        }
        match self.mode {
            Mode::Start | Mode::Lead | Mode::Plain => true,
            Mode::Header => {
                let h = &self.header;
                h.depth == 0
                    && !h.forwarded
                    && !h.alternative
                    && h.keep.is_none()
                    && !matches!(h.last, Field::ContentType | Field::Encoding)
                    && h.content_type.as_deref().map_or(true, |v| {
                        plain_type(v) && !(self.cfg.naked && declared(v).is_some())
                    })
                    && h.encoding.as_deref().map_or(true, plain_encoding)
            }
            Mode::Qp | Mode::Base64 | Mode::Skip => false,
        }
    }

    /// Takes up the state at the end of `raw` (raw offset `base`), a
    /// stretch that [`survey`] found read as it is, with `last_message`
    /// its last message start. Reads only from there to the end of that
    /// message's header block, writing to `scratch` (whose bytes the
    /// caller drops). Returns how much of `raw` it took: all of it, or
    /// less when the reader cannot decide a line yet.
    pub(super) fn skim(
        &mut self,
        raw: &[u8],
        base: u64,
        last_message: Option<usize>,
        scratch: &mut Out<'_>,
    ) -> usize {
        // A stretch adds no line, so raw and decoded lines keep their
        // difference (a separator written to `scratch` is not one).
        let delta = self.delta;
        let a = match last_message {
            Some(s) => {
                // Just before the `From ` line, which the reader reads as
                // the start of a message.
                self.mode = Mode::Plain;
                self.at_line_start = true;
                self.prev_empty = true;
                self.checked = false;
                self.line_start = base + s as u64;
                s
            }
            None => 0,
        };
        let mut took = a;
        if matches!(self.mode, Mode::Start | Mode::Header) || last_message.is_some() {
            let e = header_end(raw, a, a > 0 || self.at_line_start);
            took = a + self.run(&raw[a..e], base + a as u64, false, scratch);
            if took < e {
                self.delta = delta;
                return took;
            }
        }
        if took < raw.len() {
            // Text with no structure to the end (the survey saw no message
            // start after `took`): only the line state moves.
            self.move_plain(raw, base, took);
        }
        self.delta = delta;
        raw.len()
    }
}

/// The end of the first empty line at or after the line start `a` (after
/// `a`'s first line feed when `a` is inside a line), or `raw.len()`.
fn header_end(raw: &[u8], a: usize, at_line_start: bool) -> usize {
    let mut s = a;
    if !at_line_start {
        match memchr(b'\n', &raw[s..]) {
            Some(k) => s += k + 1,
            None => return raw.len(),
        }
    }
    while let Some(k) = memchr(b'\n', &raw[s..]) {
        if matches!(&raw[s..s + k], b"" | b"\r") {
            return s + k + 1;
        }
        s += k + 1;
    }
    raw.len()
}

impl MimeScan {
    /// Reads the start of `data` in place when the reader leaves it as it
    /// is (see the module doc); returns how many bytes it took (0 when the
    /// reader's state or the bytes ask for the reader).
    pub(super) fn feed_unchanged(
        &mut self,
        data: &[u8],
        each: &mut dyn FnMut(&mut Match),
    ) -> usize {
        if !self.in_place || !self.reader.leaves_as_is() {
            return 0;
        }
        let at_ls = self.reader.at_line_start;
        let known = self.known.as_deref().map(|k| (k, self.rbase));
        let found = survey(
            data,
            self.reader.mode,
            at_ls,
            self.reader.prev_empty,
            known,
            self.reader.cfg.naked,
        );
        if found.end == 0 {
            return 0;
        }
        let stretch = &data[..found.end];
        let (r, d) = (self.rbase, self.dbase + self.dec.len() as u64);
        let col = r.saturating_sub(self.reader.line_start);
        let delta = self.reader.delta;
        let mut scratch_dec = std::mem::take(&mut self.scratch);
        let mut scratch_map = std::mem::take(&mut self.scratch_map);
        let took = self.reader.skim(
            stretch,
            r,
            found.last_message,
            &mut Out {
                dec: &mut scratch_dec,
                base: 1,
                map: &mut scratch_map,
            },
        );
        scratch_dec.clear();
        scratch_map.clear();
        self.scratch = scratch_dec;
        self.scratch_map = scratch_map;
        if took == 0 {
            return 0;
        }
        self.map
            .identity(d, r, col, delta, took as u64, &Place::default());
        self.rbase += took as u64;
        self.scan_in_place(&data[..took], each);
        took
    }

    /// Scans `text`, the decoded bytes that follow the buffer's, where it
    /// lies: the engine's window must be one run of bytes, so what the
    /// buffer still holds is settled first (with a few of `text`'s bytes
    /// copied after it when a candidate there needs them), then `text` is
    /// scanned, and only what the engine keeps of it is copied.
    fn scan_in_place(&mut self, mut text: &[u8], each: &mut dyn FnMut(&mut Match)) {
        let mut step = 4096;
        loop {
            if !self.dec.is_empty() {
                self.scan(false, each);
            }
            if self.dec.is_empty() || text.is_empty() {
                break;
            }
            let n = step.min(text.len());
            self.dec.extend_from_slice(&text[..n]);
            self.fresh += n;
            text = &text[n..];
            step *= 2;
        }
        if text.is_empty() {
            return;
        }
        let base = self.dbase;
        let keep = scan_window(
            &mut self.engine,
            &mut self.map,
            &mut self.reader.found,
            text,
            base,
            false,
            text.len(),
            each,
        );
        self.dec.extend_from_slice(&text[(keep - base) as usize..]);
        self.kept(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(mode: Mode, text: &[u8]) -> usize {
        survey(text, mode, true, true, None, false).end
    }

    /// A header block of `Subject: x` and `field` (at offset 11), a body
    /// after it; and the field as text, to name a failing case.
    fn header_with(field: &[u8]) -> (Vec<u8>, String) {
        let mut text = b"Subject: x\n".to_vec();
        text.extend_from_slice(field);
        text.extend_from_slice(b"\n\nbody\n");
        (text, String::from_utf8_lossy(field).into_owned())
    }

    #[test]
    fn plain_mail_reads_as_it_is() {
        let text = b"From a@b Thu\nContent-Type: text/plain; charset=utf-8\n\
            Content-Transfer-Encoding: 8bit\n\nbody <http://a.example/>\n";
        for mode in [Mode::Start, Mode::Plain, Mode::Lead] {
            assert_eq!(end(mode, text), text.len());
        }
        assert_eq!(
            survey(text, Mode::Plain, true, true, None, false).last_message,
            Some(0)
        );
        // The first line of an input is no message start (it decides
        // whether the input is a message).
        assert_eq!(
            survey(text, Mode::Start, true, true, None, false).last_message,
            None
        );
    }

    #[test]
    fn a_field_that_may_decode_ends_the_stretch() {
        for field in [
            &b"Content-Type: text/html"[..],
            b"content-type: Multipart/Mixed; boundary=x",
            b"CONTENT-TYPE: message/rfc822",
            b"Content-Type: application/pdf",
            b"Content-Type:",
            b"Content-Type:   \r",
            b"Content-Transfer-Encoding: quoted-printable",
            b"content-transfer-encoding:  BASE64 \r",
            b"Content-Transfer-Encoding:",
        ] {
            let (text, name) = header_with(field);
            assert_eq!(end(Mode::Header, &text), 11, "{name}");
            // In a message's header after a `From ` line, too.
            let mut mbox = b"text\n\nFrom a\n".to_vec();
            mbox.extend_from_slice(&text);
            assert_eq!(end(Mode::Lead, &mbox), 24, "{name}");
            // In a body it is text.
            let mut body = b"\n".to_vec();
            body.extend_from_slice(&text);
            assert_eq!(end(Mode::Header, &body), body.len(), "{name}");
            assert_eq!(end(Mode::Plain, &text), text.len(), "{name}");
        }
    }

    #[test]
    fn fields_that_keep_text_plain() {
        for field in [
            &b"Content-Type: text/plain"[..],
            b"Content-Type: TEXT/X-Whatever; x=y",
            b"Content-Type: plain",
            b"Content-Type: text/",
            b"Content-Type: ;text/html",
            b"Content-Transfer-Encoding: 7bit",
            b"Content-Transfer-Encoding: base",
            b"Content-Disposition: inline",
            b"Content-Type : text/html",
            b"Contents: text/html",
            b" Content-Type: text/html",
        ] {
            let (text, name) = header_with(field);
            assert_eq!(end(Mode::Header, &text), text.len(), "{name}");
        }
    }

    #[test]
    fn plain_type_shortcut_agrees_with_the_full_reading() {
        // The reading without the `text/plain` shortcut.
        let full = |v: &[u8]| match content_type_value(v) {
            None => !v.iter().all(|&b| py_space(b)),
            Some((t, s, _)) => read_as_text(t, s),
        };
        for v in [
            &b" text/plain"[..],
            b"text/plain; charset=us-ascii",
            b"\tTEXT/PLAIN;format=flowed",
            b" text/plainhtml",
            b" text/plain/html",
            b" text/plain html",
            b" text/plai",
            b" text/html",
            b" text/plain\r",
            b"\r",
            b"",
        ] {
            assert_eq!(plain_type(v), full(v), "{}", String::from_utf8_lossy(v));
        }
    }

    #[test]
    fn a_long_field_line_ends_the_stretch() {
        let mut text = b"Content-Type: text/plain; x=".to_vec();
        text.extend(std::iter::repeat(b'y').take(LONGEST_FIELD));
        text.push(b'\n');
        assert_eq!(end(Mode::Header, &text), 0);
        // A first line longer than the reader holds is the reader's to judge.
        let mut long = vec![b'x'; HOLD];
        long.extend_from_slice(b": y\n\n");
        assert_eq!(end(Mode::Start, &long), 0);
        assert_eq!(end(Mode::Start, &long[HOLD - 10..]), HOLD + 5 - (HOLD - 10));
    }

    #[test]
    fn message_starts_need_an_empty_line_before() {
        let text = b"x\n\nFrom a\nb\nFrom c\n\r\nFrom d\nz";
        let s = survey(text, Mode::Plain, true, false, None, false);
        assert_eq!(s.end, text.len() - 1);
        assert_eq!(s.last_message, Some(21));
        // Not at a line start: the first line's start is not in the bytes.
        let at = |ls, pe| survey(b"\nFrom x\n", Mode::Plain, ls, pe, None, false).last_message;
        assert_eq!(at(false, true), None);
        assert_eq!(at(true, false), Some(1));
        assert_eq!(
            survey(b"From x\n", Mode::Plain, true, false, None, false).last_message,
            None
        );
        // Inside a line begun before, an `F` starts nothing.
        assert_eq!(
            survey(b"From x\n", Mode::Plain, false, true, None, false).last_message,
            None
        );
    }

    fn header_byte(b: u8) -> bool {
        b | 0x20 == b'c' || b == b'\n' || b == b'\r'
    }

    /// The header walk a line at a time.
    fn next_header_line_scalar(bytes: &[u8], mut from: usize) -> Option<usize> {
        while let Some(k) = memchr(b'\n', &bytes[from..]) {
            let s = from + k + 1;
            match bytes.get(s) {
                Some(&b) if header_byte(b) => return Some(s),
                Some(_) => from = s,
                None => return None,
            }
        }
        None
    }

    #[test]
    fn the_vector_search_agrees_with_the_scalar_one() {
        let mut text = Vec::new();
        for i in 0..400u32 {
            text.extend(std::iter::repeat(b'a').take((i * 7 % 53) as usize));
            text.push(b'\n');
            text.push([b'C', b'c', b'F', b'\r', b'x', b'\n'][i as usize % 6]);
        }
        for len in [0, 1, 2, 31, 64, 65, 66, 100, 1000, text.len()] {
            let bytes = &text[..len];
            for from in [0, 1, 30, 63, 64, 65] {
                let all = |next: fn(&[u8], usize) -> Option<usize>| {
                    let mut found = Vec::new();
                    let mut at = from;
                    while let Some(s) = (at < bytes.len()).then(|| next(bytes, at)).flatten() {
                        assert!(s > at && bytes[s - 1] == b'\n' && header_byte(bytes[s]));
                        found.push(s);
                        at = s;
                    }
                    found
                };
                let found = all(next_header_line);
                assert_eq!(found, all(next_header_line_scalar));
                if len == text.len() {
                    assert!(found.len() > 200, "{}", found.len());
                }
            }
        }
    }

    #[test]
    fn a_header_ends_at_its_first_empty_line() {
        let text = b"A: b\n c\r\n\r\ncontent-type: text/html\n";
        assert_eq!(end(Mode::Header, text), text.len());
        let text = b"A: b\n \ncontent-type: text/html\n";
        assert_eq!(end(Mode::Header, text), 7);
        // A header line begun before the bytes is not an empty one.
        let text = b"\ncontent-type: text/html\n";
        assert_eq!(survey(text, Mode::Header, false, false, None, false).end, 1);
    }

    /// Pieces of mostly plain mail (see `in_place_reads_plain_mail_as_the_reader`).
    const PLAIN_MAIL: &[&[u8]] = &[
        b"\nFrom a@b Mon Jan  1\n",
        b"\nFrom a@b Mon Jan  1\n",
        b"\r\nFrom c@d\r\n",
        b"From x\n",
        b"Subject: s <http://subj.example/>\n",
        b"Received: from h by h\n\tfor <x@y>\n",
        b"Content-Type: text/plain; charset=us-ascii\n",
        b"content-type: TEXT/PLAIN\n",
        b"Content-Transfer-Encoding: 8bit\n",
        b"Message-ID: <m@i>\n",
        b"Content-Type: text/html\n",
        b"Content-Type: multipart/mixed; boundary=b\n",
        b"Content-Type: message/rfc822\n",
        b"Content-Transfer-Encoding: quoted-printable\n",
        b"--b\n",
        b"--b--\n",
        b"\n",
        b"\n",
        b"\r\n",
        b"body text with <http://a.example/x> in it\n",
        b"> quoted <URL:http://q.example/\n> more/path>\n",
        b"<ftp://h.example/a-\n b>\n",
        b"Content-Type: text/html in a body line\n",
        b"Cc: c@d\n",
        b"Fr",
        b"om ",
        b"=3Chttp://e.example/=\n>\n",
        b"PGh0dHA6Ly9iLmV4YW1wbGUvPg==\n",
        b"x",
        b"  \t",
    ];

    /// Every match of `data` fed in chunks of `sizes` (cycled), with text
    /// scanned in place or not, in a form that compares all it says.
    fn read(data: &[u8], sizes: &[usize], in_place: bool) -> Vec<String> {
        let mut scan = MimeScan::new(crate::Scanner::new().rejected(true), 1);
        scan.in_place = in_place;
        let mut out = Vec::new();
        let mut each = |m: &mut Match| {
            out.push(format!(
                "{} {}..{} {}:{} {:?} {:?} {:?} {:?} {:?}",
                m.as_str(),
                m.offset(),
                m.end(),
                m.line(),
                m.column(),
                m.spans(),
                m.encoding(),
                m.content_type(),
                m.forwarded_message_id(),
                m.rejection(),
            ))
        };
        let mut rest = data;
        for &n in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let n = n.clamp(1, rest.len());
            scan.feed(&rest[..n], &mut each);
            rest = &rest[n..];
        }
        scan.finish(&mut each);
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// The same on mail that is mostly plain, so that most of it is
        /// scanned in place: messages and articles with plain fields, now
        /// and then one that encodes, quoted and broken URLs, `From `
        /// lines that start messages and ones that do not.
        #[test]
        fn in_place_reads_plain_mail_as_the_reader(
            parts in proptest::collection::vec(0usize..PLAIN_MAIL.len(), 0..120),
            sizes in proptest::collection::vec(1usize..300, 1..6),
        ) {
            let data: Vec<u8> = parts.iter().flat_map(|&i| PLAIN_MAIL[i].iter().copied()).collect();
            for sizes in [&[usize::MAX][..], &sizes] {
                proptest::prop_assert_eq!(read(&data, sizes, true), read(&data, sizes, false));
            }
        }

        /// Scanning text in place changes nothing: every match and all it
        /// says are those of the reader's copy, read in the same chunks.
        #[test]
        fn in_place_reads_as_the_reader(
            text in "(From x\n|\n|\r\n|Content-Type: (multipart/mixed; boundary=b|text/html|text/plain|message/rfc822| text/x|)\n|Content-Transfer-Encoding: (base64|quoted-printable|7bit)\n|content-type: text/plain\n|Message-ID: <i@d>\n|Subject: s\n|[ \t]c\n|--b(--)?\n|<http://a.b/c>|<URL:ftp://h/\n p>|=3C|=\n|PGh0dHA6Ly9hLmIvPg|Fr|[a-zA-Z0-9+/= ]{0,5}){0,60}",
            sizes in proptest::collection::vec(1usize..200, 1..6),
        ) {
            let data = text.as_bytes();
            for sizes in [&[usize::MAX][..], &sizes] {
                proptest::prop_assert_eq!(read(data, sizes, true), read(data, sizes, false));
            }
        }
    }
}
