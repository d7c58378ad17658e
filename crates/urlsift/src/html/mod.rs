//! HTML parts of mail (contract rules 18 to 22).
//!
//! The MIME reader hands the decoded bytes of an HTML part (rule 11) to a
//! [`Part`], which tokenizes them as the WHATWG HTML standard's tokenizer
//! does in the states mail needs: data, tag open, tag and attribute names,
//! attribute values (double-quoted, single-quoted, unquoted, so a `>` in
//! quotes is no tag end), comments (`<!-->`, `--!>`, and the conditional
//! comments of Outlook, which are comments), doctypes and bogus comments,
//! RCDATA (`title`, `textarea`: references decoded), RAWTEXT (`xmp`,
//! `iframe`, `noembed`, `noframes`: read as they stand), script data
//! (`script`, `style`: not read), PLAINTEXT, and character references
//! (named with the standard's longest match and attribute rule, decimal,
//! hexadecimal, with the windows-1252 table for 0x80 to 0x9F). It writes
//! the part's text (rule 21) into the decoded text the engine scans, with
//! the runs that place each byte at the raw bytes that encode it (through
//! the part's own quoted-printable or base64 map), and reports the `href`
//! of each `a` and `area` tag (rule 20) as a match of its own.
//!
//! It is a hand-written state machine rather than a crate (html5gum, the
//! lean one, needs Rust 1.82 and copies each token): the library keeps its
//! MSRV and two dependencies, and the machine works on the part's decoded
//! bytes in place, one byte search per text run or tag, holds at most an
//! `href` value (up to the candidate bound) and a few bytes of look-ahead
//! (a character reference's name, an end tag's name), and resumes in any
//! state when the next chunk comes, so the input's cuts change nothing.
//! Its readings are those of the reference extractor (`ref-extract
//! --html`), which differs from the standard where mail does not care: CR
//! is a blank; script data ends at the first `</script`; the switches to
//! RCDATA, RAWTEXT and script data are made on the start tag alone; NUL is
//! kept.
//!
//! The named references come from [`entities`], generated from Python's
//! `html.entities.html5` by `gen-entities.py` beside this file.

mod entities;
mod link_text;

use std::collections::VecDeque;

use memchr::{memchr, memchr2, memchr3};

use crate::map::{Kind, Map, Out, Place, Run};
use crate::matches::{Match, Rejection, Span, Unclosed};
use crate::settings::Scanner;
use crate::url::{Policy, Url};

use crate::lines::last_lf;
use link_text::LinkText;

/// An `href` found, waiting for the engine to know its line.
#[derive(Debug)]
pub(crate) struct Href {
    /// Where its tag stands in the decoded text.
    pub d: u64,
    /// Its raw line minus the decoded line at `d`.
    pub ldelta: i64,
    pub m: Match,
    /// The href of an `a` element whose text (the match's anchor text)
    /// is still being read: it and what follows it wait.
    pub open: bool,
}

/// The text of an `a` element whose `href` was reported (rule 21): a text
/// URL overlapping it that is the same URL is not reported again.
#[derive(Debug)]
pub(crate) struct Anchor {
    pub start: u64,
    /// `u64::MAX` while the element is open.
    pub end: u64,
    /// Its href, and that normalized once a text URL asks (most links'
    /// text holds none).
    pub url: Vec<u8>,
    pub norm: std::cell::OnceCell<String>,
    pub policy: Policy,
}

/// What the HTML parts read so far give the scan: hrefs in order, and the
/// anchors text URLs are checked against.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub hrefs: VecDeque<Href>,
    pub anchors: VecDeque<Anchor>,
    /// The decoded offset and raw offset of the [`Href::open`] href: the
    /// scan waits there until its anchor text is decided.
    pub open: Option<(u64, u64)>,
}

impl Found {
    /// Whether a text match at decoded `p..q` repeats the `href` of an `a`
    /// element its bytes overlap.
    pub fn is_dup(&self, m: &Match, p: u64, q: u64) -> bool {
        let mut norm: Option<Option<String>> = None;
        for a in self.anchors.iter().rev() {
            if a.start >= q || a.end <= p {
                continue;
            }
            let n = norm.get_or_insert_with(|| m.url().map(|u| u.normalized()));
            let href = a.norm.get_or_init(|| {
                Url::parse_with(&a.url, a.policy).map_or_else(|_| String::new(), |u| u.normalized())
            });
            match n {
                Some(n) if n == href => return true,
                Some(_) => {}
                None => return false,
            }
        }
        false
    }

    /// Anchors wholly before decoded offset `keep` are done with.
    pub fn forget(&mut self, keep: u64) {
        while self.anchors.front().is_some_and(|a| a.end <= keep) {
            self.anchors.pop_front();
        }
    }
}

/// The standard's white space in markup.
fn ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0c | b'\r' | b' ')
}

/// Blanks that leave a pending line end pending (rule 21).
fn blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | 0x0c)
}

/// What a tag name means here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    A,
    Area,
    /// A line end for rule 21.
    LineEnd,
    /// Text not read (`script`, `style`).
    Unread,
    /// Text read as it stands.
    RawText,
    /// Text read with references decoded.
    RcData,
    Plaintext,
    Other,
}

fn class(name: &[u8]) -> Class {
    match name {
        b"a" => Class::A,
        b"area" => Class::Area,
        b"br" | b"p" | b"div" | b"li" | b"tr" | b"td" | b"th" | b"table" | b"ul" | b"ol"
        | b"blockquote" | b"pre" | b"hr" | b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6" => {
            Class::LineEnd
        }
        b"script" | b"style" => Class::Unread,
        b"xmp" | b"iframe" | b"noembed" | b"noframes" => Class::RawText,
        b"title" | b"textarea" => Class::RcData,
        b"plaintext" => Class::Plaintext,
        _ => Class::Other,
    }
}

/// Longest tag name kept (longer ones are none of those above).
const NAME: usize = 12;

/// A raw place: offset, 0-based column, raw line minus decoded line (as
/// it was when the place was taken: `hdelta` then).
#[derive(Clone, Copy, Debug, Default)]
struct At {
    r: u64,
    col: u64,
    delta: i64,
    hdelta: i64,
}

impl At {
    /// The line difference for text written now (a line end written
    /// since the place was taken moves it).
    fn delta_now(&self, hdelta: i64) -> i64 {
        self.delta - self.hdelta + hdelta
    }
}

/// The place of a tag's `<`, looked up when it is needed: inner offset,
/// its line start and the line difference then, which give the same
/// [`At`] as a look-up at once while the map still holds the offset.
#[derive(Clone, Copy, Debug)]
enum Lt {
    Known(At),
    Pending { j: u64, ls: u64, hdelta: i64 },
}

/// The `href` value being read (its bytes are [`Part::value`]).
#[derive(Debug)]
struct Value {
    /// Inner offset of its first byte.
    start: u64,
    at: At,
    /// Longer than the candidate bound: only its start is kept.
    long: bool,
}

/// The tag being read.
#[derive(Debug)]
struct Tag {
    end: bool,
    name: [u8; NAME],
    len: usize,
    /// What the name means, once it is read.
    class: Class,
    /// The place of its `<`: looked up only when a line end or a text
    /// `<` needs it (most tags need none), else before the part's map
    /// forgets it (see [`Lt`]).
    lt: Lt,
    /// The attribute name being read (only `href` matters).
    attr: [u8; 4],
    attr_len: usize,
    href_seen: bool,
    href: Option<Value>,
    /// The `href` value is read now.
    in_href: bool,
}

impl Tag {
    fn name(&self) -> &[u8] {
        if self.len > NAME {
            b"-"
        } else {
            &self.name[..self.len]
        }
    }

    fn is_href(&self) -> bool {
        self.attr_len == 4 && &self.attr == b"href"
    }

    /// Whether an attribute of this tag may still be read: the first
    /// `href` of an `a` or `area` start tag. No other is, so the rest of
    /// most tags is only walked to its end ([`Part::skip_attrs`]).
    fn reads_attrs(&self) -> bool {
        !self.end && !self.href_seen && matches!(self.class, Class::A | Class::Area)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Data,
    TagOpen,
    EndTagOpen,
    TagName,
    BeforeAttr,
    AttrName,
    AfterAttrName,
    BeforeValue,
    /// An attribute value: its quote, or 0 unquoted.
    Value(u8),
    MarkupOpen,
    CommentStart,
    /// A comment's text from inner offset `body`.
    Comment {
        body: u64,
    },
    Bogus,
    /// The text of an element read in its own state, up to its end tag.
    Text(Class),
    Plaintext,
    /// A numeric reference's digits.
    Number {
        hex: bool,
        value: u32,
    },
}

/// Numeric references to 0x80..0x9F: the standard's windows-1252 table
/// (0 where the code point stands).
const C1: [u32; 32] = [
    0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC,
    0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
];

/// The character a numeric reference gives.
fn numeric(v: u32) -> char {
    let v = match v {
        0x80..=0x9f if C1[(v - 0x80) as usize] != 0 => C1[(v - 0x80) as usize],
        v => v,
    };
    match v {
        0 => '\u{fffd}',
        v => char::from_u32(v).unwrap_or('\u{fffd}'),
    }
}

/// The text of a named reference (`name` with its `;` if it has one).
fn entity(name: &[u8]) -> Option<&'static str> {
    // The references mail writes most, before a search of 2,231 names.
    match name {
        b"nbsp;" => return Some("\u{a0}"),
        b"amp;" => return Some("&"),
        b"lt;" => return Some("<"),
        b"gt;" => return Some(">"),
        b"quot;" => return Some("\""),
        _ => {}
    }
    entities::ENTITIES
        .binary_search_by(|(n, _)| (*n).cmp(name))
        .ok()
        .map(|i| entities::ENTITIES[i].1)
}

/// Longest name of a named reference, `;` included.
const LONGEST: usize = 32;

/// What the bytes at an `&` are.
enum Ref {
    /// More bytes are needed to know.
    Wait,
    /// Only an `&`.
    Amp,
    /// A named reference: its text, and its length from the `&`.
    Named(&'static str, usize),
    /// A numeric reference whose digits start this far from the `&`.
    Number { hex: bool, digits: usize },
}

/// The reference at `b[0] == b'&'` (`b` runs to the end of what is known;
/// `eof`: nothing follows it), in an attribute value or in text.
fn reference(b: &[u8], eof: bool, attr: bool) -> Ref {
    let Some(&c) = b.get(1) else {
        return if eof { Ref::Amp } else { Ref::Wait };
    };
    if c == b'#' {
        let hex = matches!(b.get(2), Some(b'x' | b'X'));
        let k = 2 + hex as usize;
        return match b.get(k) {
            None if !eof => Ref::Wait,
            Some(d) if (hex && d.is_ascii_hexdigit()) || (!hex && d.is_ascii_digit()) => {
                Ref::Number { hex, digits: k }
            }
            _ => Ref::Amp,
        };
    }
    let run = b[1..]
        .iter()
        .take(LONGEST + 1)
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    if run == 0 {
        return Ref::Amp;
    }
    let next = b.get(1 + run).copied();
    if next.is_none() && run <= LONGEST && !eof {
        return Ref::Wait;
    }
    let name = &b[1..1 + run];
    if next == Some(b';') && run < LONGEST {
        let mut with = [0u8; LONGEST];
        with[..run].copy_from_slice(name);
        with[run] = b';';
        if let Some(v) = entity(&with[..run + 1]) {
            return Ref::Named(v, run + 2);
        }
    }
    for k in (1..=run.min(6)).rev() {
        if let Some(v) = entity(&name[..k]) {
            if attr && (k < run || next == Some(b'=')) {
                return Ref::Amp;
            }
            return Ref::Named(v, k + 1);
        }
    }
    Ref::Amp
}

/// An attribute value with its character references decoded.
fn decode_attr(v: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    while let Some(k) = memchr(b'&', &v[i..]) {
        out.extend_from_slice(&v[i..i + k]);
        let q = i + k;
        match reference(&v[q..], true, true) {
            Ref::Named(t, n) => {
                out.extend_from_slice(t.as_bytes());
                i = q + n;
            }
            Ref::Number { hex, digits } => {
                let mut j = q + digits;
                let mut value: u32 = 0;
                while let Some(d) = v
                    .get(j)
                    .and_then(|&c| (c as char).to_digit(if hex { 16 } else { 10 }))
                {
                    value = value
                        .saturating_mul(if hex { 16 } else { 10 })
                        .saturating_add(d)
                        .min(0x11_0000);
                    j += 1;
                }
                if v.get(j) == Some(&b';') {
                    j += 1;
                }
                let mut u = [0u8; 4];
                out.extend_from_slice(numeric(value).encode_utf8(&mut u).as_bytes());
                i = j;
            }
            Ref::Amp | Ref::Wait => {
                out.push(b'&');
                i = q + 1;
            }
        }
    }
    out.extend_from_slice(&v[i..]);
    out
}

/// The URL an `href` value gives (rule 20): `None` when it is never
/// reported (empty, relative, or one of the six schemes), else the value
/// as a candidate.
fn href_candidate(raw: &[u8]) -> Option<Vec<u8>> {
    // Most values have no reference and no line break: they are read in
    // place, and copied once they are known to be candidates.
    let decoded;
    let v = if memchr(b'&', raw).is_some() {
        decoded = decode_attr(raw);
        &decoded[..]
    } else {
        raw
    };
    let a = v.iter().position(|&b| !ws(b))?;
    let b = v.iter().rposition(|&b| !ws(b)).map_or(a, |k| k + 1);
    let v = &v[a..b];
    if memchr3(b'\t', b'\n', b'\r', v).is_some() {
        let v: Vec<u8> = v
            .iter()
            .copied()
            .filter(|&c| !matches!(c, b'\t' | b'\n' | b'\r'))
            .collect();
        return is_candidate(&v).then_some(v);
    }
    is_candidate(v).then(|| v.to_vec())
}

/// Whether an `href` value (references decoded, blanks around and line
/// breaks inside removed) is reported: it has a scheme, and not one of
/// the six.
fn is_candidate(v: &[u8]) -> bool {
    let Some(&first) = v.first() else {
        return false;
    };
    if !first.is_ascii_alphabetic() {
        return false;
    }
    let s = v
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
        .count();
    if v.get(s) != Some(&b':') {
        return false;
    }
    let scheme = &v[..s];
    ![
        &b"javascript"[..],
        b"data",
        b"cid",
        b"mid",
        b"about",
        b"vbscript",
    ]
    .iter()
    .any(|n| scheme.eq_ignore_ascii_case(n))
}

/// One HTML part being read: its decoded bytes (from the transfer
/// decoding) and their map, and the tokenizer's state.
#[derive(Debug)]
pub(crate) struct Part {
    /// The part's decoded bytes not taken yet, from inner offset `base`.
    pub buf: Vec<u8>,
    pub base: u64,
    /// Where the part's decoded bytes come from in the raw input.
    pub map: Map,
    state: State,
    /// The state a numeric reference returns to.
    resume: State,
    tag: Tag,
    /// Where the part's text is placed (its content type and encoding).
    place: Place,
    /// Where the reference being read started.
    amp: At,
    policy: Policy,
    rejected: bool,
    /// Matches keep the parse of their URL ([`Scanner::keep_parse`]).
    keep_parse: bool,
    max_bytes: usize,
    /// Inner offset where the line being read starts.
    ls: u64,
    /// Lines taken from the part minus lines written (rule 22's lines).
    hdelta: i64,
    /// A line break stands since the last text byte that is no blank.
    nl: bool,
    /// A line end waiting for the next text: its tag's place.
    pend: Option<At>,
    /// An `a` element whose href was reported is open.
    anchor: bool,
    /// Inner offset up to which line feeds are counted: the markup bytes
    /// after it are counted when a place or text needs them (one count
    /// per stretch of markup, not one per token).
    counted: u64,
    /// The bytes of the `href` value being read (one buffer for all).
    value: Vec<u8>,
    /// The part's charset (anchor texts are decoded from it); `None`:
    /// UTF-8, or none declared.
    charset: Option<crate::charset::Charset>,
    /// The anchor text of the `a` element whose href waits in
    /// [`Found::hrefs`], while `link_until` is `Some`: text is taken up to
    /// that inner offset (a bound, so the wait is bounded).
    link: LinkText,
    link_until: Option<u64>,
    /// Anchor texts are wanted ([`Scanner::anchor_text`]).
    anchor_text: bool,
}

impl Part {
    pub fn new(cfg: &Scanner, place: Place) -> Part {
        Part {
            buf: Vec::new(),
            base: 0,
            map: Map::default(),
            state: State::Data,
            resume: State::Data,
            place,
            tag: Tag {
                end: false,
                name: [0; NAME],
                len: 0,
                class: Class::Other,
                lt: Lt::Known(At::default()),
                attr: [0; 4],
                attr_len: 0,
                href_seen: false,
                href: None,
                in_href: false,
            },
            amp: At::default(),
            policy: cfg.get_policy(),
            rejected: cfg.get_rejected(),
            keep_parse: cfg.get_keep_parse(),
            max_bytes: cfg.get_limits().max_bytes,
            ls: 0,
            hdelta: 0,
            nl: true,
            pend: None,
            anchor: false,
            counted: 0,
            value: Vec::new(),
            charset: None,
            link: LinkText::default(),
            link_until: None,
            anchor_text: cfg.get_anchor_text(),
        }
    }

    /// Sets the charset the part's text is in (its `Content-Type`'s).
    pub fn set_charset(&mut self, charset: Option<crate::charset::Charset>) {
        self.charset = charset;
    }

    /// Starts another part (in `place`), keeping this one's buffers.
    pub fn renew(&mut self, cfg: &Scanner, place: Place) {
        let mut buf = std::mem::take(&mut self.buf);
        let mut map = std::mem::take(&mut self.map);
        let mut value = std::mem::take(&mut self.value);
        let link = std::mem::take(&mut self.link);
        buf.clear();
        map.clear();
        value.clear();
        *self = Part::new(cfg, place);
        self.buf = buf;
        self.map = map;
        self.value = value;
        self.link = link;
    }

    /// Bytes its buffers hold.
    pub fn capacity(&self) -> usize {
        self.buf.capacity() + self.map.capacity() + self.value.capacity()
    }

    /// The lines taken minus the lines written so far (added to the
    /// reader's difference when the part ends).
    pub fn line_difference(&self) -> i64 {
        self.hdelta
    }

    /// The raw place of inner offset `j` (whose line starts at `self.ls`).
    fn at(&self, j: u64) -> At {
        match self.map.locate(j, j.saturating_sub(self.ls)) {
            Some((r, col, delta)) => At {
                r,
                col,
                delta: delta + self.hdelta,
                hdelta: self.hdelta,
            },
            None => At::default(),
        }
    }

    /// The place of the tag's `<` (looked up once).
    fn lt(&mut self) -> At {
        let at = match self.tag.lt {
            Lt::Known(at) => return at,
            Lt::Pending { j, ls, hdelta } => match self.map.locate(j, j.saturating_sub(ls)) {
                Some((r, col, delta)) => At {
                    r,
                    col,
                    delta: delta + hdelta,
                    hdelta,
                },
                None => At::default(),
            },
        };
        self.tag.lt = Lt::Known(at);
        at
    }

    /// Takes what it can of the buffer, writing text to `out` (in
    /// `place`) and hrefs to `found`; `eof` ends the part.
    pub fn pump(&mut self, out: &mut Out<'_>, found: &mut Found, eof: bool) {
        let buf = std::mem::take(&mut self.buf);
        let place = self.place.clone();
        let place = &place;
        let mut i = 0;
        loop {
            match self.step(&buf, i, eof, out, place, found) {
                Ok(j) => i = j,
                Err(j) => {
                    i = j;
                    break;
                }
            }
        }
        self.count(&buf, i);
        // The map forgets what is taken: the `<` of a tag still read is
        // placed while it holds it.
        self.lt();
        if eof {
            self.close_anchor(found, out.d());
        }
        if let Some(until) = self.link_until {
            if eof || self.link.is_full() || self.base + i as u64 >= until {
                self.finish_link(found);
            }
        }
        let keep_from = match (&self.tag.href, self.in_tag()) {
            (Some(v), true) if !v.long => v.start.min(self.base + i as u64),
            _ => self.base + i as u64,
        };
        self.map.forget(keep_from);
        self.buf = buf;
        self.buf.drain(..i);
        self.base += i as u64;
    }

    fn in_tag(&self) -> bool {
        matches!(
            self.state,
            State::TagName
                | State::BeforeAttr
                | State::AttrName
                | State::AfterAttrName
                | State::BeforeValue
                | State::Value(_)
        )
    }

    /// Closes the open `a` element's text at `d`.
    fn close_anchor(&mut self, found: &mut Found, d: u64) {
        if self.anchor {
            if let Some(a) = found.anchors.back_mut() {
                a.end = d;
            }
            self.anchor = false;
        }
    }

    /// The anchor text being read is decided: its href takes it and may go.
    #[inline]
    fn finish_link(&mut self, found: &mut Found) {
        if self.link_until.is_some() {
            self.give_link(found);
        }
    }

    /// [`Part::finish_link`] when an anchor text is being read.
    #[inline(never)]
    fn give_link(&mut self, found: &mut Found) {
        self.link_until = None;
        let text = self.link.finish();
        if let Some(h) = found.hrefs.iter_mut().rev().find(|h| h.open) {
            h.open = false;
            h.m.anchor = Some(text);
        }
        found.open = None;
    }

    /// Takes text `bytes` (at inner offset `at`) into the anchor text,
    /// up to its bound.
    #[inline]
    fn link_bytes(&mut self, at: u64, bytes: &[u8]) {
        if let Some(until) = self.link_until {
            let n = (until.saturating_sub(at) as usize).min(bytes.len());
            self.link.push_bytes(&bytes[..n]);
        }
    }

    /// The bytes from `self.counted` to `buf[p]` are markup, not text
    /// (every byte the reader takes is text, written by [`Part::text`],
    /// or markup, or a reference's name or digits, which hold no line
    /// feed): their line feeds are lines taken and not written.
    fn count(&mut self, buf: &[u8], p: usize) {
        let to = self.base + p as u64;
        if to <= self.counted {
            return;
        }
        let a = (self.counted - self.base) as usize;
        let bytes = &buf[a..p];
        self.counted = to;
        if let Some(k) = last_lf(bytes) {
            self.hdelta += 1 + bytecount::count(&bytes[..k], b'\n') as i64;
            self.ls = self.base + (a + k + 1) as u64;
        }
    }

    /// A line end stands here (rule 21), unless the text has one.
    fn line_end(&mut self) {
        if !self.nl && self.pend.is_none() {
            self.pend = Some(self.lt());
        }
    }

    /// Text `bytes` comes: a pending line end is written before it unless
    /// its first byte that is no blank is a line feed; `false` when it is
    /// all blanks, which leave the line end pending (and are dropped).
    #[inline]
    fn before_text(&mut self, bytes: &[u8], out: &mut Out<'_>) -> bool {
        let Some(at) = self.pend else { return true };
        let Some(&first) = bytes.iter().find(|&&b| !blank(b)) else {
            return false;
        };
        if first != b'\n' {
            out.map.push(
                Run {
                    d: out.d(),
                    r: at.r,
                    col: at.col,
                    delta: at.delta,
                    kind: Kind::Separator,
                    cap: u64::MAX,
                },
                &Place::default(),
            );
            out.dec.push(b'\n');
            self.hdelta -= 1;
            if self.link_until.is_some() {
                self.link.push_bytes(b"\n");
            }
        }
        self.pend = None;
        true
    }

    /// Whether text ending in `bytes` leaves a line break since its last
    /// byte that is no blank.
    fn after_text(&mut self, bytes: &[u8]) {
        self.after_text_nl(bytes, last_lf(bytes));
    }

    /// [`Part::after_text`] given the last line feed of `bytes`.
    fn after_text_nl(&mut self, bytes: &[u8], last_nl: Option<usize>) {
        let t = bytes
            .iter()
            .rposition(|&b| !blank(b) && b != b'\n')
            .map_or(0, |k| k + 1);
        if t == bytes.len() {
            self.nl = false;
        } else if t > 0 {
            // Only blanks and line feeds after `t`.
            self.nl = last_nl.is_some_and(|k| k >= t);
        } else if last_nl.is_some() {
            self.nl = true;
        }
    }

    /// Bytes `buf[a..b]` are text as they stand.
    fn text(&mut self, buf: &[u8], a: usize, b: usize, out: &mut Out<'_>, place: &Place) {
        if a >= b {
            return;
        }
        self.count(buf, a);
        self.counted = self.base + b as u64;
        let bytes = &buf[a..b];
        if !self.before_text(bytes, out) {
            return;
        }
        let ia = self.base + a as u64;
        self.map.copy_to(
            ia,
            ia + bytes.len() as u64,
            bytes,
            self.ls,
            out.map,
            out.d(),
            self.hdelta,
            place,
        );
        out.dec.extend_from_slice(bytes);
        if self.link_until.is_some() {
            self.link_bytes(ia, bytes);
        }
        let last_nl = last_lf(bytes);
        self.after_text_nl(bytes, last_nl);
        if let Some(k) = last_nl {
            self.ls = ia + k as u64 + 1;
        }
    }

    /// A character reference from `self.amp` to inner offset `end` gives
    /// `value`.
    fn reference_text(&mut self, value: &str, end: u64, out: &mut Out<'_>, place: &Place) {
        let bytes = value.as_bytes();
        if !self.before_text(bytes, out) {
            return;
        }
        let cap = match end.checked_sub(1) {
            Some(last) => self.map.raw_end_of(last).unwrap_or(self.amp.r),
            None => self.amp.r,
        };
        out.map.push(
            Run {
                d: out.d(),
                r: self.amp.r,
                col: self.amp.col,
                delta: self.amp.delta_now(self.hdelta),
                kind: Kind::Fixed,
                cap,
            },
            place,
        );
        out.dec.extend_from_slice(bytes);
        if let Some(until) = self.link_until {
            if end <= until {
                self.link.push_str(value);
            }
        }
        self.after_text(bytes);
        let nl = bytecount::count(bytes, b'\n') as i64;
        self.hdelta -= nl;
    }

    /// One step from `buf[i]`: `Ok` with the next index, or `Err` with
    /// where to stop (more bytes are needed, or none are left). A step
    /// that does not move changes the state.
    fn step(
        &mut self,
        buf: &[u8],
        i: usize,
        eof: bool,
        out: &mut Out<'_>,
        place: &Place,
        found: &mut Found,
    ) -> Result<usize, usize> {
        let n = buf.len();
        if i >= n {
            if eof {
                self.count(buf, n);
                match self.state {
                    // A '<' or '</' at the end of the part is text.
                    State::TagOpen => self.text_lit(b"<", out, place),
                    State::EndTagOpen => self.text_lit(b"</", out, place),
                    State::Number { value, .. } => {
                        self.state = self.resume;
                        self.number_end(value, self.base + i as u64, out, place)
                    }
                    _ => {}
                }
                self.state = State::Data;
            }
            return Err(n);
        }
        let j = self.base + i as u64;
        match self.state {
            State::Data => match memchr2(b'<', b'&', &buf[i..]) {
                None => {
                    self.text(buf, i, n, out, place);
                    Ok(n)
                }
                Some(k) => {
                    self.text(buf, i, i + k, out, place);
                    let p = i + k;
                    if buf[p] == b'<' {
                        self.count(buf, p);
                        self.tag.lt = Lt::Pending {
                            j: self.base + p as u64,
                            ls: self.ls,
                            hdelta: self.hdelta,
                        };
                        self.state = State::TagOpen;
                        Ok(p + 1)
                    } else {
                        self.reference_at(buf, p, eof, out, place)
                    }
                }
            },
            State::TagOpen => {
                let c = buf[i];
                if c.is_ascii_alphabetic() {
                    self.begin_tag(false);
                    self.state = State::TagName;
                    Ok(i)
                } else if c == b'/' {
                    self.state = State::EndTagOpen;
                    Ok(i + 1)
                } else if c == b'!' {
                    self.state = State::MarkupOpen;
                    Ok(i + 1)
                } else if c == b'?' {
                    self.state = State::Bogus;
                    Ok(i)
                } else {
                    self.state = State::Data;
                    self.count(buf, i);
                    self.text_lit(b"<", out, place);
                    Ok(i)
                }
            }
            State::EndTagOpen => {
                let c = buf[i];
                if c.is_ascii_alphabetic() {
                    self.begin_tag(true);
                    self.state = State::TagName;
                    Ok(i)
                } else if c == b'>' {
                    self.state = State::Data;
                    Ok(i + 1)
                } else {
                    self.state = State::Bogus;
                    Ok(i)
                }
            }
            State::TagName => {
                let k = buf[i..]
                    .iter()
                    .position(|&c| ws(c) || c == b'/' || c == b'>')
                    .unwrap_or(n - i);
                for &c in &buf[i..i + k] {
                    if self.tag.len < NAME {
                        self.tag.name[self.tag.len] = c.to_ascii_lowercase();
                    }
                    self.tag.len = self.tag.len.saturating_add(1);
                }
                if i + k < n {
                    self.tag.class = class(self.tag.name());
                    self.state = State::BeforeAttr;
                }
                Ok(i + k)
            }
            State::BeforeAttr if !self.tag.reads_attrs() => {
                self.skip_attrs(buf, i, out, place, found)
            }
            State::BeforeAttr => {
                let k = buf[i..]
                    .iter()
                    .position(|&c| !ws(c) && c != b'/')
                    .unwrap_or(n - i);
                let p = i + k;
                match buf.get(p) {
                    None => Ok(p),
                    Some(b'>') => self.tag_end(p + 1, out, place, found),
                    Some(&c) => {
                        self.tag.attr_len = 0;
                        self.state = State::AttrName;
                        if c == b'=' {
                            self.attr_byte(c);
                            return Ok(p + 1);
                        }
                        Ok(p)
                    }
                }
            }
            State::AttrName => {
                let k = buf[i..]
                    .iter()
                    .position(|&c| ws(c) || matches!(c, b'/' | b'>' | b'='))
                    .unwrap_or(n - i);
                for &c in &buf[i..i + k] {
                    self.attr_byte(c);
                }
                if i + k < n {
                    self.state = State::AfterAttrName;
                }
                Ok(i + k)
            }
            State::AfterAttrName => {
                let k = buf[i..].iter().position(|&c| !ws(c)).unwrap_or(n - i);
                let p = i + k;
                match buf.get(p) {
                    None => Ok(p),
                    Some(b'=') => {
                        self.state = State::BeforeValue;
                        Ok(p + 1)
                    }
                    Some(_) => {
                        self.attr_done();
                        self.state = State::BeforeAttr;
                        Ok(p)
                    }
                }
            }
            State::BeforeValue => {
                let k = buf[i..].iter().position(|&c| !ws(c)).unwrap_or(n - i);
                let p = i + k;
                match buf.get(p) {
                    None => Ok(p),
                    // The value's place is that of its first byte, which
                    // must have come (the quote's would be the wrong one).
                    Some(&q) if (q == b'"' || q == b'\'') && p + 1 == n && !eof => Err(p),
                    Some(&q) if q == b'"' || q == b'\'' => {
                        self.value_start(buf, p + 1);
                        self.state = State::Value(q);
                        Ok(p + 1)
                    }
                    Some(b'>') => {
                        // '=' then '>': an empty value.
                        self.value_start(buf, p);
                        self.attr_done();
                        self.state = State::BeforeAttr;
                        Ok(p)
                    }
                    Some(_) => {
                        self.value_start(buf, p);
                        self.state = State::Value(0);
                        Ok(p)
                    }
                }
            }
            State::Value(q) => {
                let k = if q == 0 {
                    buf[i..].iter().position(|&c| ws(c) || c == b'>')
                } else {
                    memchr(q, &buf[i..])
                };
                let e = k.map_or(n, |k| i + k);
                self.value_bytes(&buf[i..e]);
                if k.is_some() {
                    self.attr_done();
                    self.state = State::BeforeAttr;
                    if q != 0 {
                        return Ok(e + 1);
                    }
                }
                Ok(e)
            }
            State::MarkupOpen => {
                if buf[i] == b'-' {
                    match buf.get(i + 1) {
                        None if !eof => return Err(i),
                        Some(b'-') => {
                            self.state = State::CommentStart;
                            return Ok(i + 2);
                        }
                        _ => {}
                    }
                }
                self.state = State::Bogus;
                Ok(i)
            }
            State::CommentStart => match (buf[i], buf.get(i + 1)) {
                (b'>', _) => {
                    self.state = State::Data;
                    Ok(i + 1)
                }
                (b'-', None) if !eof => Err(i),
                (b'-', Some(b'>')) => {
                    self.state = State::Data;
                    Ok(i + 2)
                }
                _ => {
                    self.state = State::Comment { body: j };
                    Ok(i)
                }
            },
            State::Comment { body } => {
                let lo = (body.max(self.base) - self.base) as usize;
                let mut from = i;
                while let Some(k) = memchr(b'>', &buf[from..]) {
                    let q = from + k;
                    let ends = (q >= lo + 2 && &buf[q - 2..q] == b"--")
                        || (q >= lo + 3 && &buf[q - 3..q] == b"--!");
                    if ends {
                        self.state = State::Data;
                        return Ok(q + 1);
                    }
                    from = q + 1;
                }
                // The last bytes may start the end: kept for the next look.
                let e = if eof { n } else { n.saturating_sub(3).max(i) };
                if e == i {
                    return Err(i);
                }
                Ok(e)
            }
            State::Bogus => match memchr(b'>', &buf[i..]) {
                Some(k) => {
                    self.state = State::Data;
                    Ok(i + k + 1)
                }
                None => Ok(n),
            },
            State::Text(kind) => self.element_text(kind, buf, i, eof, out, place),
            State::Plaintext => {
                self.text(buf, i, n, out, place);
                Ok(n)
            }
            State::Number { hex, mut value } => {
                let radix = if hex { 16 } else { 10 };
                let mut p = i;
                while let Some(d) = buf.get(p).and_then(|&c| (c as char).to_digit(radix)) {
                    value = value.saturating_mul(radix).saturating_add(d).min(0x11_0000);
                    p += 1;
                }
                if p == n && !eof {
                    self.state = State::Number { hex, value };
                    return Ok(p);
                }
                if buf.get(p) == Some(&b';') {
                    p += 1;
                }
                self.state = self.resume;
                self.number_end(value, self.base + p as u64, out, place);
                Ok(p)
            }
        }
    }

    /// Text the reader itself stands for (a `<` or `</` that opens
    /// nothing): placed at the tag's `<`.
    fn text_lit(&mut self, lit: &'static [u8], out: &mut Out<'_>, place: &Place) {
        if !self.before_text(lit, out) {
            return;
        }
        let at = self.lt();
        out.map.push(
            Run {
                d: out.d(),
                r: at.r,
                col: at.col,
                delta: at.delta_now(self.hdelta),
                kind: Kind::Identity,
                cap: u64::MAX,
            },
            place,
        );
        out.dec.extend_from_slice(lit);
        if self.link_until.is_some() {
            self.link.push_bytes(lit);
        }
        self.after_text(lit);
    }

    /// A numeric reference of `value` ends before inner offset `end`.
    fn number_end(&mut self, value: u32, end: u64, out: &mut Out<'_>, place: &Place) {
        let mut u = [0u8; 4];
        let c = numeric(value);
        let s: &str = c.encode_utf8(&mut u);
        self.reference_text(s, end, out, place);
    }

    /// The `&` at `buf[p]` in text.
    fn reference_at(
        &mut self,
        buf: &[u8],
        p: usize,
        eof: bool,
        out: &mut Out<'_>,
        place: &Place,
    ) -> Result<usize, usize> {
        match reference(&buf[p..], eof, false) {
            Ref::Wait => Err(p),
            Ref::Amp => {
                self.text(buf, p, p + 1, out, place);
                Ok(p + 1)
            }
            Ref::Named(v, len) => {
                self.count(buf, p);
                self.amp = self.at(self.base + p as u64);
                self.reference_text(v, self.base + (p + len) as u64, out, place);
                Ok(p + len)
            }
            Ref::Number { hex, digits } => {
                self.count(buf, p);
                self.amp = self.at(self.base + p as u64);
                self.resume = self.state;
                self.state = State::Number { hex, value: 0 };
                Ok(p + digits)
            }
        }
    }

    /// A start tag (or with `end` an end tag) begins.
    fn begin_tag(&mut self, end: bool) {
        let t = &mut self.tag;
        t.end = end;
        t.len = 0;
        t.class = Class::Other;
        t.attr_len = 0;
        t.href_seen = false;
        t.href = None;
        t.in_href = false;
    }

    fn attr_byte(&mut self, c: u8) {
        let t = &mut self.tag;
        if t.attr_len < 4 {
            t.attr[t.attr_len] = c.to_ascii_lowercase();
        }
        t.attr_len = t.attr_len.saturating_add(1);
    }

    /// An attribute ends: the first `href` is the only one that counts.
    fn attr_done(&mut self) {
        let t = &mut self.tag;
        if t.is_href() {
            t.href_seen = true;
        }
        t.in_href = false;
    }

    /// An attribute value starts at `buf[p]`.
    fn value_start(&mut self, buf: &[u8], p: usize) {
        if !(self.tag.reads_attrs() && self.tag.is_href()) {
            return;
        }
        let start = self.base + p as u64;
        self.count(buf, p);
        let at = self.at(start);
        self.value.clear();
        self.tag.href = Some(Value {
            start,
            at,
            long: false,
        });
        self.tag.in_href = true;
    }

    fn value_bytes(&mut self, bytes: &[u8]) {
        if !self.tag.in_href {
            return;
        }
        let max = self.max_bytes;
        if let Some(v) = &mut self.tag.href {
            let room = max.saturating_sub(self.value.len());
            if bytes.len() > room {
                v.long = true;
            }
            self.value
                .extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
    }

    /// The attributes of a tag none of which is read (see
    /// [`Tag::reads_attrs`]), from the state before an attribute at
    /// `buf[i]`: the transitions of the attribute states (before and in a
    /// name, after it, before and in a value, quoted or not) in one loop,
    /// with none of their bookkeeping, to the tag's end. Bytes that run
    /// out leave the state the step-by-step reading would be in, and it
    /// takes up from there.
    fn skip_attrs(
        &mut self,
        buf: &[u8],
        mut i: usize,
        out: &mut Out<'_>,
        place: &Place,
        found: &mut Found,
    ) -> Result<usize, usize> {
        let n = buf.len();
        let skip = |mut i: usize, stop: fn(u8) -> bool| {
            while i < n && !stop(buf[i]) {
                i += 1;
            }
            i
        };
        loop {
            // Before a name: blanks and `/` go.
            i = skip(i, |c| !ws(c) && c != b'/');
            match buf.get(i) {
                None => {
                    self.state = State::BeforeAttr;
                    return Ok(n);
                }
                Some(b'>') => return self.tag_end(i + 1, out, place, found),
                // A name: its first byte whatever it is (`=` too).
                Some(_) => i = skip(i + 1, |c| ws(c) || matches!(c, b'/' | b'>' | b'=')),
            }
            if i == n {
                self.state = State::AttrName;
                return Ok(n);
            }
            i = skip(i, |c| !ws(c));
            match buf.get(i) {
                None => {
                    self.state = State::AfterAttrName;
                    return Ok(n);
                }
                Some(b'=') => {}
                // `/`, `>` or the next name: read as before a name.
                Some(_) => continue,
            }
            i = skip(i + 1, |c| !ws(c));
            match buf.get(i) {
                None => {
                    self.state = State::BeforeValue;
                    return Ok(n);
                }
                Some(&q @ (b'"' | b'\'')) => match memchr(q, &buf[i + 1..]) {
                    Some(k) => i += k + 2,
                    None => {
                        self.state = State::Value(q);
                        return Ok(n);
                    }
                },
                // `=` then `>`: an empty value, and the tag's end.
                Some(b'>') => {}
                Some(_) => {
                    i = skip(i, |c| ws(c) || c == b'>');
                    if i == n {
                        self.state = State::Value(0);
                        return Ok(n);
                    }
                }
            }
        }
    }

    /// The tag ends before `buf[p]`.
    fn tag_end(
        &mut self,
        p: usize,
        out: &mut Out<'_>,
        place: &Place,
        found: &mut Found,
    ) -> Result<usize, usize> {
        self.state = State::Data;
        let c = self.tag.class;
        if c == Class::LineEnd {
            self.line_end();
        }
        if self.tag.end {
            if c == Class::A {
                self.close_anchor(found, out.d());
                self.finish_link(found);
            }
            return Ok(p);
        }
        if matches!(c, Class::A | Class::Area) {
            if c == Class::A {
                // An `a` start tag ends the element open before it.
                self.finish_link(found);
            }
            let queued = found.hrefs.len();
            let url = self
                .tag
                .href
                .take()
                .and_then(|v| self.href(v, place, out.d(), found));
            if c == Class::A && self.anchor_text && found.hrefs.len() > queued {
                // Its text is read before it goes.
                if let Some(h) = found.hrefs.back_mut() {
                    h.open = true;
                    found.open = Some((h.d, h.m.offset));
                }
                self.link.start(self.charset);
                self.link_until = Some(self.base + p as u64 + self.max_bytes as u64);
            }
            if c == Class::A {
                self.close_anchor(found, out.d());
                if let Some(url) = url {
                    found.anchors.push_back(Anchor {
                        start: out.d(),
                        end: u64::MAX,
                        url,
                        norm: std::cell::OnceCell::new(),
                        policy: self.policy,
                    });
                    self.anchor = true;
                }
            }
        }
        match c {
            Class::Unread | Class::RawText | Class::RcData => self.state = State::Text(c),
            Class::Plaintext => self.state = State::Plaintext,
            _ => {}
        }
        Ok(p)
    }

    /// The `href` value `v` of a tag ending at decoded `d` (rule 20):
    /// queued as a match when it is a URL (or a rejected candidate, when
    /// asked for); returns the URL when it is one.
    fn href(&mut self, v: Value, place: &Place, d: u64, found: &mut Found) -> Option<Vec<u8>> {
        let url = href_candidate(&self.value)?;
        let mut kept = None;
        let rejection = if v.long {
            Some(Rejection::Unclosed(Unclosed::HrefTooLong))
        } else {
            match Url::check_keeping(&url, self.policy, self.keep_parse, &mut None) {
                Ok(parts) => {
                    kept = parts;
                    None
                }
                Err(e) => Some(Rejection::Invalid(e)),
            }
        };
        if rejection.is_some() && !self.rejected {
            return None;
        }
        let end_inner = v.start + self.value.len() as u64;
        let mut spans = Vec::new();
        let end = if v.long || self.value.is_empty() {
            spans.push(Span {
                start: v.at.r,
                end: v.at.r,
            });
            v.at.r
        } else {
            self.map.raw_spans(v.start, end_inner, &mut spans);
            self.map.raw_end_of(end_inner - 1).unwrap_or(v.at.r)
        };
        let valid = rejection.is_none().then(|| url.clone());
        let mut m = Match::href(
            url,
            self.policy,
            rejection,
            v.at.r,
            end.max(v.at.r),
            v.at.col + 1,
            spans,
            place.content_type.clone(),
            place.encoding,
            place.message.clone(),
        );
        m.charset = place.charset;
        m.parsed.0 = kept;
        found.hrefs.push_back(Href {
            d,
            ldelta: v.at.delta,
            m,
            open: false,
        });
        valid
    }

    /// The text of an element read in its own state (`kind`), up to its
    /// end tag: `</` and its name, then a blank, `/` or `>`.
    fn element_text(
        &mut self,
        kind: Class,
        buf: &[u8],
        i: usize,
        eof: bool,
        out: &mut Out<'_>,
        place: &Place,
    ) -> Result<usize, usize> {
        let n = buf.len();
        let refs = kind == Class::RcData;
        let k = if refs {
            memchr2(b'<', b'&', &buf[i..])
        } else {
            memchr(b'<', &buf[i..])
        };
        let p = k.map_or(n, |k| i + k);
        if kind != Class::Unread {
            self.text(buf, i, p, out, place);
        }
        if p == n {
            return Ok(n);
        }
        if buf[p] == b'&' {
            return self.reference_at(buf, p, eof, out, place);
        }
        let name = self.tag.name();
        let need = p + 2 + name.len() + 1;
        if need > n && !eof {
            return Err(p);
        }
        let ends = need <= n
            && buf[p + 1] == b'/'
            && buf[p + 2..p + 2 + name.len()].eq_ignore_ascii_case(name)
            && {
                let c = buf[p + 2 + name.len()];
                ws(c) || c == b'/' || c == b'>'
            };
        if ends {
            self.state = State::Data;
            return Ok(p);
        }
        if kind != Class::Unread {
            self.text(buf, p, p + 1, out, place);
        }
        Ok(p + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Form;

    fn html(body: &str) -> Vec<Match> {
        let mail = format!("Content-Type: text/html\n\n{body}");
        Scanner::new().rejected(true).extract(mail.as_bytes())
    }

    fn urls(body: &str) -> Vec<String> {
        html(body)
            .iter()
            .filter(|m| m.is_valid())
            .map(|m| m.as_str().into_owned())
            .collect()
    }

    #[test]
    fn entity_table_is_sorted_and_found() {
        let t = entities::ENTITIES;
        assert!(t.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(entity(b"amp;"), Some("&"));
        assert_eq!(entity(b"lt"), Some("<"));
        assert_eq!(
            entity(b"CounterClockwiseContourIntegral;"),
            Some("\u{2233}")
        );
        assert_eq!(entity(b"nosuch;"), None);
        // The names looked up first are those of the table.
        for (name, text) in t.iter() {
            assert_eq!(entity(name), Some(*text));
        }
    }

    #[test]
    fn references_in_text_and_attributes() {
        // Rule 19: longest match, legacy names without ';'.
        let text = |s: &[u8]| match reference(s, true, false) {
            Ref::Named(v, n) => Some((v, n)),
            _ => None,
        };
        assert_eq!(text(b"&amp;x"), Some(("&", 5)));
        assert_eq!(text(b"&ampx"), Some(("&", 4)));
        assert_eq!(text(b"&notit;"), Some(("\u{ac}", 4)));
        assert_eq!(text(b"&LT"), Some(("<", 3)));
        assert!(matches!(reference(b"&zz;", true, false), Ref::Amp));
        assert!(matches!(reference(b"&am", false, false), Ref::Wait));
        // In an attribute a legacy name followed by '=' or an alphanumeric
        // stays as written.
        assert_eq!(
            decode_attr(b"a&copy=1&not=2&amp=3&notx"),
            b"a&copy=1&not=2&amp=3&notx"
        );
        assert_eq!(decode_attr(b"&copy;&amp&lt;"), "\u{a9}&<".as_bytes());
        // Numeric: decimal, hex, windows-1252, out of range.
        assert_eq!(decode_attr(b"&#47;&#x2F&#X3c;"), b"//<");
        assert_eq!(
            decode_attr(b"&#128;&#0;&#x110000;"),
            "\u{20ac}\u{fffd}\u{fffd}".as_bytes()
        );
        assert_eq!(decode_attr(b"&#;&#x;"), b"&#;&#x;");
    }

    #[test]
    fn href_candidates() {
        // Rule 20: blanks around, tabs and line breaks inside removed.
        assert_eq!(
            href_candidate(b" \thttp://a/b\n/c "),
            Some(b"http://a/b/c".to_vec())
        );
        for never in [
            &b""[..],
            b"   ",
            b"/x",
            b"#top",
            b"?q=1",
            b"x.html",
            b"//cdn.example/x",
            b"*|UNSUB|*",
            b"{{url}}",
            b"JavaScript:go()",
            b"vbscript:x",
            b"data:text/html,x",
            b"cid:a@b",
            b"mid:a@b",
            b"about:blank",
            b"1http://a/",
        ] {
            assert_eq!(
                href_candidate(never),
                None,
                "{:?}",
                String::from_utf8_lossy(never)
            );
        }
    }

    #[test]
    fn rule_18_types() {
        let mail = b"Content-Type: application/xhtml+xml\n\n<a href='http://x.example/'>x</a>\n";
        assert_eq!(
            Scanner::new().extract(mail)[0].content_type(),
            Some("application/xhtml+xml")
        );
        let enriched = b"Content-Type: text/enriched\n\n<http://x.example/>\n";
        assert!(Scanner::new().extract(enriched).is_empty());
    }

    #[test]
    fn rule_19_tokens() {
        assert_eq!(
            urls("<a title='x > y' href=http://a.example/>x</a>"),
            ["http://a.example/"]
        );
        assert_eq!(
            urls("<!--> &lt;http://a.example/&gt;"),
            ["http://a.example/"]
        );
        assert_eq!(
            urls("<!---> &lt;http://a.example/&gt;"),
            ["http://a.example/"]
        );
        assert_eq!(
            urls("<!-- --!> &lt;http://a.example/&gt;"),
            ["http://a.example/"]
        );
        assert!(urls("<!-- -- > &lt;http://a.example/&gt;").is_empty());
        assert!(urls("<script>x='</scripty>&lt;http://a.example/&gt;'</script>").is_empty());
        assert_eq!(
            urls("<SCRIPT>x</Script >&lt;http://a.example/&gt;"),
            ["http://a.example/"]
        );
        assert_eq!(
            urls("<?xml x?>&lt;http://a.example/&gt;"),
            ["http://a.example/"]
        );
        assert_eq!(
            urls("<plaintext><a href=http://a.example/>"),
            Vec::<String>::new()
        );
        assert_eq!(
            urls("<plaintext><http://a.example/>"),
            ["http://a.example/"]
        );
        assert_eq!(urls("x < y <http://a.example/>"), Vec::<String>::new());
        assert_eq!(
            urls("x < y\n<a href=\"http://a.example/\">"),
            ["http://a.example/"]
        );
        // Of two hrefs on one tag the first counts; an unclosed tag is none.
        assert_eq!(
            urls("<a href=http://a.example/ href=http://b.example/>"),
            ["http://a.example/"]
        );
        assert!(urls("<a href=http://a.example/").is_empty());
        assert!(urls("<a href='http://a.example/>x</a>").is_empty());
    }

    #[test]
    fn rule_20_rejected_with_reasons() {
        let all =
            html("<a href='http://u@h.example/'>x</a><a href='http://h.example/{{id}}'>y</a>");
        assert_eq!(all.len(), 2);
        assert!(all.iter().all(|m| !m.is_valid() && m.form() == Form::Href));
        assert!(matches!(all[0].rejection(), Some(Rejection::Invalid(_))));
        let long = format!("<a href='http://h.example/{}'>x</a>", "a".repeat(20_000));
        let all = html(&long);
        assert_eq!(
            all[0].rejection(),
            Some(Rejection::Unclosed(Unclosed::HrefTooLong))
        );
        let data = format!(
            "<a href='data:{}'>x</a> <http://after.example/>",
            "a".repeat(20_000)
        );
        assert!(html(&data).is_empty());
        assert_eq!(
            urls(&data.replace("<http", "&lt;http").replace("/>", "/&gt;")),
            ["http://after.example/"]
        );
    }

    #[test]
    fn rule_21_line_ends_and_duplicates() {
        assert_eq!(
            urls("&lt;http://a.example/x<br>\ny&gt;"),
            ["http://a.example/xy"]
        );
        assert_eq!(
            urls("&lt;http://a.example/x<b>y</b>&gt;"),
            ["http://a.example/xy"]
        );
        // A block tag is a line end: a bare URL does not take the word after.
        assert!(urls("&lt;http://a.example/x</p>\n\n<p>y&gt;").is_empty());
        assert_eq!(
            urls("&lt;URL:http://a.example/x</p><p>y&gt;"),
            ["http://a.example/xy"]
        );
        assert_eq!(
            urls("<a href=http://a.example/>&lt;HTTP://A.example:80/&gt;</a>"),
            ["http://a.example/"]
        );
        assert_eq!(
            urls("<a href=http://a.example/>&lt;http://b.example/&gt;</a>"),
            ["http://a.example/", "http://b.example/"]
        );
    }

    #[test]
    fn rule_22_places() {
        let m = &html("<p>\n  <a href=\n\"\nhttp://a.example/\">x</a>")[0];
        // The value's first byte is the line feed after the quote.
        assert_eq!((m.line(), m.column(), m.offset()), (5, 2, 41));
        let m = &html("<p>x</p><div>\n&#60;http://a.example/&#62;</div>")[0];
        assert_eq!((m.line(), m.column(), m.offset()), (4, 1, 39));
        assert_eq!(m.end(), 39 + 27);
    }

    fn anchors(body: &str) -> Vec<(String, Option<String>)> {
        html(body)
            .iter()
            .map(|m| (m.as_str().into_owned(), m.anchor().map(str::to_owned)))
            .collect()
    }

    #[test]
    fn anchor_text() {
        let a = |u: &str, t: Option<&str>| (u.to_owned(), t.map(str::to_owned));
        assert_eq!(
            anchors("<a href=http://a.example/>\n  Read <b>the</b>&nbsp;news&#33;\n</a>"),
            [a("http://a.example/", Some("Read the\u{a0}news!"))]
        );
        // Line-end tags are blanks; an image link has no text; an area none.
        assert_eq!(
            anchors(
                "<a href=http://a.example/>one<br>two</a><a href=http://b.example/><img src=x></a>\
                 <map><area href=http://c.example/></map>"
            ),
            [
                a("http://a.example/", Some("one two")),
                a("http://b.example/", Some("")),
                a("http://c.example/", None),
            ]
        );
        // An `a` start tag, or the part's end, ends the element; text URLs
        // inside it come after its href, in order.
        assert_eq!(
            anchors(
                "<a href=http://a.example/>x &lt;http://t.example/&gt; <a href=http://b.example/>y"
            ),
            [
                a("http://a.example/", Some("x <http://t.example/>")),
                a("http://t.example/", None),
                a("http://b.example/", Some("y")),
            ]
        );
        // Not asked for: the same matches, no texts.
        let mail =
            "Content-Type: text/html\n\n<a href=http://a.example/>x &lt;http://t.example/&gt;</a>";
        let off = Scanner::new().anchor_text(false).extract(mail.as_bytes());
        let on = Scanner::new().extract(mail.as_bytes());
        assert_eq!(off.len(), 2);
        assert!(off.iter().all(|m| m.anchor().is_none()));
        assert_eq!(on[0].anchor(), Some("x <http://t.example/>"));
        assert_eq!(
            off.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
            on.iter().map(|m| m.as_str()).collect::<Vec<_>>()
        );
        // A rejected href has its text too; at most 200 characters.
        let long = format!("<a href='http://u@h.example/'>{}</a>", "ab ".repeat(100));
        let found = anchors(&long);
        assert_eq!(found[0].1.as_ref().map(|t| t.chars().count()), Some(200));
    }

    #[test]
    fn anchor_text_is_bounded_and_cut_anywhere() {
        // Text past the candidate bound after the start tag is not taken
        // (so the wait for `</a>` is bounded).
        let limits = crate::Limits {
            max_bytes: 64,
            ..crate::Limits::default()
        };
        let body = format!(
            "<a href=http://a.example/>first{}last</a> <a href=http://b.example/>b</a>",
            " ".repeat(100)
        );
        let mail = format!("Content-Type: text/html\n\n{body}");
        let found = Scanner::new().limits(limits).extract(mail.as_bytes());
        let texts: Vec<_> = found.iter().map(|m| m.anchor().unwrap()).collect();
        assert_eq!(texts, ["first", "b"]);
        // Any cut of the input gives the same matches and texts.
        let mail = "Content-Type: text/html; charset=utf-8\n\n<p>x<a href=http://a.example/>A &amp; \
                    \u{e9}t\u{e9}</a> &lt;http://t.example/&gt;<a href=\"http://b.example/\">B</a>\n";
        let whole = Scanner::new().extract(mail.as_bytes());
        assert_eq!(whole[0].anchor(), Some("A & \u{e9}t\u{e9}"));
        every_cut_reads_as_whole(mail.as_bytes(), &whole, 7);
    }

    /// `mail` fed in two pieces cut anywhere (through a push scanner
    /// reading `piece` bytes at a time) gives `whole`.
    fn every_cut_reads_as_whole(mail: &[u8], whole: &[Match], piece: usize) {
        for cut in 1..mail.len() {
            let mut ex = crate::PushScanner::with_buffer(Scanner::new(), piece);
            let mut got: Vec<Match> = ex.feed(&mail[..cut]).collect();
            got.extend(ex.feed(&mail[cut..]));
            got.extend(ex.finish());
            assert_eq!(got, whole, "cut at {cut}");
        }
    }

    #[test]
    fn attributes_of_other_tags_are_walked_to_their_end() {
        // Quoted `>`, names that start with `=`, `/` between attributes,
        // unquoted values, `=` then `>`, and an `a` whose second href is
        // not read: none of it is text, and the tag ends where the
        // standard's attribute states end it, whatever the cuts.
        let body = "<p class=\"x > &lt;http://no.example/&gt;\" =odd / title='a>b'>\
                    &lt;http://t1.example/&gt;</p><div\tid=v>x</div ><td width= >\
                    &lt;http://t2.example/&gt;<a href=http://a.example/ href=http://b.example/ \
                    data='>'>A</a><span style = \"a:b\"/>&lt;http://t3.example/&gt;";
        let want = [
            "http://t1.example/",
            "http://t2.example/",
            "http://a.example/",
            "http://t3.example/",
        ];
        assert_eq!(urls(body), want);
        let mail = format!("Content-Type: text/html\n\n{body}\n");
        let whole = Scanner::new().extract(mail.as_bytes());
        every_cut_reads_as_whole(mail.as_bytes(), &whole, 5);
    }

    #[cfg(feature = "charsets")]
    #[test]
    fn anchor_text_in_the_part_charset() {
        // "日本語" in Shift_JIS, with a reference among it.
        let mut mail = b"Content-Type: text/html; charset=\"Shift_JIS\"\n\n<a href=http://a.example/>\x93\xfa&amp;\x96\x7b\x8c\xea</a>\n".to_vec();
        let found = Scanner::new().extract(&mail);
        assert_eq!(found[0].anchor(), Some("\u{65e5}&\u{672c}\u{8a9e}"));
        // Quoted-printable ISO-2022-JP.
        mail = b"Content-Type: text/html; charset=ISO-2022-JP\nContent-Transfer-Encoding: quoted-printable\n\n<a href=3Dhttp://a.example/>=1B$BF|K\\=1B(B</a>\n".to_vec();
        let found = Scanner::new().extract(&mail);
        assert_eq!(found[0].anchor(), Some("\u{65e5}\u{672c}"));
    }
}
