//! Messages: where each one starts, and what its header says of it.
//!
//! A URL that stands in a message (an mbox, a news article, an `.eml`, a
//! forwarded `message/rfc822` part) carries that message's
//! [`MessageInfo`]: its `Message-ID`, date, newsgroups and subject, those
//! asked for with [`Scanner::fields`](crate::Scanner::fields) and no
//! others. Messages are framed as the MIME reading frames them (contract
//! rule 10): an input is a message when its first line is an mbox `From `
//! line or a header field, and every line starting with `From ` after an
//! empty line starts one; its header block ends at its first empty line.
//! Both readings give the same top-level messages; the MIME reading adds
//! the innermost forwarded message (see [`Match::message`]).
//!
//! [`MessageTracker`] is fed the raw input in order, in any chunks, and
//! answers which message holds an offset. Memory stays bounded: of a
//! header block only the wanted fields are kept, each value at most
//! [`VALUE_CAP`] bytes; a URL in a header block waits for the rest of it
//! at most [`WINDOW`] bytes (then takes what was read by then), and
//! message starts are forgotten once the caller is past them.
//!
//! [`Match::message`]: crate::Match::message

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::Arc;

use memchr::{memchr, memmem};

use crate::date::{DateSource, Timestamp};
use crate::scan::Match;

/// Which header fields of a message are computed for its matches.
///
/// ```
/// use urlsift::Fields;
/// let f = Fields::DATE | Fields::SUBJECT;
/// assert!(f.contains(Fields::DATE) && !f.contains(Fields::NEWSGROUPS));
/// assert_eq!("date,subject".parse::<Fields>(), Ok(f));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fields(u8);

impl Fields {
    /// None: matches carry no message metadata (the default).
    pub const NONE: Fields = Fields(0);
    /// The `Message-ID`.
    pub const MESSAGE_ID: Fields = Fields(1);
    /// The date (`Date:`, `Posted:`, `NNTP-Posting-Date:`, the `From ` line).
    pub const DATE: Fields = Fields(2);
    /// The `Newsgroups:` list.
    pub const NEWSGROUPS: Fields = Fields(4);
    /// The `Subject:`, RFC 2047 encoded words decoded.
    pub const SUBJECT: Fields = Fields(8);
    /// All four.
    pub const ALL: Fields = Fields(15);

    /// The names [`Fields`] parses, in order.
    pub const NAMES: [(&'static str, Fields); 4] = [
        ("date", Fields::DATE),
        ("newsgroups", Fields::NEWSGROUPS),
        ("subject", Fields::SUBJECT),
        ("message-id", Fields::MESSAGE_ID),
    ];

    /// Whether every field of `other` is in `self`.
    pub fn contains(self, other: Fields) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no field is asked for.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Fields {
    type Output = Fields;
    fn bitor(self, rhs: Fields) -> Fields {
        Fields(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Fields {
    fn bitor_assign(&mut self, rhs: Fields) {
        self.0 |= rhs.0;
    }
}

/// A field name that [`Fields`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownField(pub String);

impl std::fmt::Display for UnknownField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown field {:?} (known: date, newsgroups, subject, message-id)",
            self.0
        )
    }
}

impl std::error::Error for UnknownField {}

impl std::str::FromStr for Fields {
    type Err = UnknownField;

    /// A comma-separated list of `date`, `newsgroups`, `subject`,
    /// `message-id` (any case; empty: none).
    fn from_str(s: &str) -> Result<Fields, UnknownField> {
        let mut f = Fields::NONE;
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let one = Fields::NAMES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .ok_or_else(|| UnknownField(name.to_string()))?;
            f |= one.1;
        }
        Ok(f)
    }
}

/// What a message's header says of it: the fields asked for
/// ([`Fields`]), each `None` when not asked for or not found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessageInfo {
    message_id: Option<Box<str>>,
    date: Option<(Timestamp, DateSource)>,
    newsgroups: Option<Box<[Box<str>]>>,
    subject: Option<Box<[u8]>>,
}

impl MessageInfo {
    /// The `Message-ID`, as written (trimmed; bytes that are not UTF-8
    /// replaced).
    pub fn message_id(&self) -> Option<&str> {
        self.message_id.as_deref()
    }

    /// The message's date and the field it was read from: `Date:`, else
    /// B news `Posted:`, else `NNTP-Posting-Date:`, else the mbox `From `
    /// line; `None` when none of them is readable.
    pub fn date(&self) -> Option<(Timestamp, DateSource)> {
        self.date
    }

    /// The groups of `Newsgroups:`, in order (bytes that are not UTF-8
    /// replaced).
    pub fn newsgroups(&self) -> Option<&[Box<str>]> {
        self.newsgroups.as_deref()
    }

    /// The `Subject:`, unfolded and trimmed, RFC 2047 encoded words in
    /// UTF-8, US-ASCII or ISO-8859-1 decoded to UTF-8. Bytes that cannot
    /// be decoded stay as they are: the value is UTF-8 unless the header
    /// held bytes that are not (an encoded word in another charset stays
    /// as written).
    pub fn subject(&self) -> Option<&[u8]> {
        self.subject.as_deref()
    }

    /// [`MessageInfo::subject`] as text, bytes that are not UTF-8 replaced.
    pub fn subject_lossy(&self) -> Option<Cow<'_, str>> {
        self.subject().map(String::from_utf8_lossy)
    }

    fn is_empty(&self) -> bool {
        self.message_id.is_none()
            && self.date.is_none()
            && self.newsgroups.is_none()
            && self.subject.is_none()
    }
}

/// Most bytes kept of one field value.
pub const VALUE_CAP: usize = 2048;

/// How far into a header block a URL in it waits for the rest: one past
/// this many bytes from the block's start takes the fields read by then;
/// the URLs after the block take all of them.
pub const WINDOW: u64 = 32 * 1024;

/// Most bytes kept of a line while it is looked at.
const LINE_CAP: usize = VALUE_CAP + 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Id,
    Date,
    Posted,
    Nntp,
    Groups,
    Subject,
}

/// The wanted fields of one header block, read line by line.
#[derive(Debug, Default)]
pub(crate) struct Collector {
    fields: Fields,
    last: Option<Slot>,
    id: Option<Vec<u8>>,
    id_folding: bool,
    date: Option<Vec<u8>>,
    posted: Option<Vec<u8>>,
    nntp: Option<Vec<u8>>,
    groups: Option<Vec<u8>>,
    subject: Option<Vec<u8>>,
    from_line: Option<Vec<u8>>,
    /// The buffers of the values of messages read before, for the next.
    spare: Vec<Vec<u8>>,
}

fn trim(v: &[u8]) -> &[u8] {
    let s = v
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(v.len());
    let e = v
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(s, |e| e + 1);
    &v[s..e]
}

/// At most [`VALUE_CAP`] bytes of `v`, in a spare buffer if there is one.
fn capped(spare: &mut Vec<Vec<u8>>, v: &[u8]) -> Vec<u8> {
    let mut b = spare.pop().unwrap_or_default();
    b.clear();
    b.extend_from_slice(&v[..v.len().min(VALUE_CAP)]);
    b
}

impl Collector {
    /// A collector of `fields`.
    pub fn new(fields: Fields) -> Collector {
        Collector {
            fields,
            ..Collector::default()
        }
    }

    /// Starts over for the next message (the buffers are kept).
    pub fn reset(&mut self) {
        let spare = &mut self.spare;
        for slot in [
            &mut self.id,
            &mut self.date,
            &mut self.posted,
            &mut self.nntp,
            &mut self.groups,
            &mut self.subject,
            &mut self.from_line,
        ] {
            spare.extend(slot.take());
        }
        self.last = None;
        self.id_folding = false;
    }

    /// The mbox `From ` line that starts the message.
    pub fn mbox_line(&mut self, line: &[u8]) {
        if self.fields.contains(Fields::DATE) {
            self.from_line = Some(capped(&mut self.spare, line));
        }
    }

    /// The next line of the header block (without its LF; at most
    /// [`LINE_CAP`] bytes of it).
    pub fn line(&mut self, line: &[u8]) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if matches!(line.first(), Some(b' ' | b'\t')) {
            if self.id_folding {
                let v = trim(line);
                if !v.is_empty() {
                    self.id = Some(capped(&mut self.spare, v));
                    self.id_folding = false;
                }
                return;
            }
            let slot = match self.last {
                Some(Slot::Date) => &mut self.date,
                Some(Slot::Posted) => &mut self.posted,
                Some(Slot::Nntp) => &mut self.nntp,
                Some(Slot::Groups) => &mut self.groups,
                Some(Slot::Subject) => &mut self.subject,
                _ => return,
            };
            if let Some(v) = slot {
                // Unfolding: the line break goes, the blank stays.
                let room = VALUE_CAP.saturating_sub(v.len());
                v.extend_from_slice(&line[..line.len().min(room)]);
            }
            return;
        }
        self.id_folding = false;
        self.last = None;
        let Some(colon) = memchr(b':', line) else {
            return;
        };
        let (name, value) = (&line[..colon], &line[colon + 1..]);
        let slot = match name.len() {
            4 if name.eq_ignore_ascii_case(b"date") => Slot::Date,
            6 if name.eq_ignore_ascii_case(b"posted") => Slot::Posted,
            7 if name.eq_ignore_ascii_case(b"subject") => Slot::Subject,
            10 if name.eq_ignore_ascii_case(b"message-id") => Slot::Id,
            10 if name.eq_ignore_ascii_case(b"newsgroups") => Slot::Groups,
            17 if name.eq_ignore_ascii_case(b"nntp-posting-date") => Slot::Nntp,
            _ => return,
        };
        let (want, target) = match slot {
            Slot::Id => (Fields::MESSAGE_ID, &mut self.id),
            Slot::Date => (Fields::DATE, &mut self.date),
            Slot::Posted => (Fields::DATE, &mut self.posted),
            Slot::Nntp => (Fields::DATE, &mut self.nntp),
            Slot::Groups => (Fields::NEWSGROUPS, &mut self.groups),
            Slot::Subject => (Fields::SUBJECT, &mut self.subject),
        };
        // The first of each field counts.
        if !self.fields.contains(want) || target.is_some() {
            return;
        }
        if slot == Slot::Id {
            match trim(value) {
                [] => self.id_folding = true,
                v => self.id = Some(capped(&mut self.spare, v)),
            }
            return;
        }
        *target = Some(capped(&mut self.spare, value));
        self.last = Some(slot);
    }

    /// What was read, `None` when nothing.
    pub fn info(&self) -> Option<Arc<MessageInfo>> {
        let date = || {
            let header = |v: &Option<Vec<u8>>, s| {
                v.as_deref()
                    .and_then(Timestamp::parse_header)
                    .map(|t| (t, s))
            };
            header(&self.date, DateSource::Date)
                .or_else(|| header(&self.posted, DateSource::Posted))
                .or_else(|| header(&self.nntp, DateSource::NntpPostingDate))
                .or_else(|| {
                    let t = Timestamp::parse_from_line(self.from_line.as_deref()?)?;
                    Some((t, DateSource::FromLine))
                })
        };
        let info = MessageInfo {
            message_id: self
                .id
                .as_deref()
                .map(|v| String::from_utf8_lossy(v).into()),
            date: date(),
            newsgroups: self.groups.as_deref().map(|v| {
                v.split(|&b| b == b',')
                    .map(trim)
                    .filter(|g| !g.is_empty())
                    .map(|g| String::from_utf8_lossy(g).into())
                    .collect()
            }),
            subject: self
                .subject
                .as_deref()
                .map(|v| decode_words(trim(v)).into()),
        };
        (!info.is_empty()).then(|| Arc::new(info))
    }
}

/// A header value with its RFC 2047 encoded words (`=?charset?Q?...?=`,
/// `=?charset?B?...?=`) decoded to UTF-8, the blanks between two adjacent
/// ones dropped. A word in a charset other than UTF-8, US-ASCII and
/// ISO-8859-1 (or malformed) stays as written; UTF-8 that is not valid
/// stays as its bytes.
///
/// ```
/// let s = urlsift::decode_words(b"=?ISO-8859-1?Q?Andr=E9?= =?UTF-8?B?w6k=?= x");
/// assert_eq!(String::from_utf8(s).unwrap(), "Andréé x");
/// ```
pub fn decode_words(v: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len());
    let mut i = 0;
    // Where the blanks after the last decoded word start in `out`.
    let mut after_word: Option<usize> = None;
    while i < v.len() {
        if v[i] == b'=' && v.get(i + 1) == Some(&b'?') {
            if let Some((decoded, len)) = encoded_word(&v[i..]) {
                if let Some(k) = after_word {
                    if out[k..].iter().all(|b| matches!(b, b' ' | b'\t')) {
                        out.truncate(k);
                    }
                }
                out.extend_from_slice(&decoded);
                i += len;
                after_word = Some(out.len());
                continue;
            }
        }
        if !matches!(v[i], b' ' | b'\t') {
            after_word = None;
        }
        out.push(v[i]);
        i += 1;
    }
    out
}

/// The encoded word at the start of `v`, decoded, and its length.
fn encoded_word(v: &[u8]) -> Option<(Vec<u8>, usize)> {
    // `=?charset?E?text?=`, no blanks inside, at most 75 bytes.
    let body = &v[2..v.len().min(75)];
    let q1 = memchr(b'?', body)?;
    let charset = &body[..q1];
    let enc = *body.get(q1 + 1)?;
    if body.get(q1 + 2) != Some(&b'?') {
        return None;
    }
    let text_start = q1 + 3;
    let end = memmem::find(&body[text_start..], b"?=")? + text_start;
    let text = &body[text_start..end];
    if text.iter().any(|b| b.is_ascii_whitespace()) {
        return None;
    }
    // A language tag (RFC 2231) is not part of the charset's name.
    let charset = charset.split(|&b| b == b'*').next().unwrap_or_default();
    let bytes = match enc {
        b'Q' | b'q' => q_decode(text)?,
        b'B' | b'b' => b_decode(text)?,
        _ => return None,
    };
    let decoded = if charset.eq_ignore_ascii_case(b"utf-8")
        || charset.eq_ignore_ascii_case(b"us-ascii")
    {
        bytes
    } else if charset.eq_ignore_ascii_case(b"iso-8859-1") || charset.eq_ignore_ascii_case(b"latin1")
    {
        bytes
            .iter()
            .map(|&b| char::from(b))
            .collect::<String>()
            .into_bytes()
    } else {
        return None;
    };
    Some((decoded, end + 4))
}

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

fn q_decode(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'_' => out.push(b' '),
            b'=' => {
                let h = hex(*text.get(i + 1)?)?;
                let l = hex(*text.get(i + 2)?)?;
                out.push(h << 4 | l);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    Some(out)
}

fn b_decode(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0);
    for &b in text {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = acc << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// What the tracker is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The first line decides whether the input is a message.
    Start,
    /// A header block, from raw offset `start`.
    Header,
    /// Text: a body, or what comes before the first message.
    Text,
}

/// Finds messages and reads their headers, fed the raw input in order.
///
/// ```
/// use urlsift::{Fields, MessageTracker};
/// let mbox = b"From a@b Tue Jan 12 14:02:11 1993\nSubject: hi\n\n<http://a/>\n";
/// let mut t = MessageTracker::new(Fields::ALL);
/// t.feed(&mbox[..20]);
/// t.feed(&mbox[20..]);
/// t.finish();
/// let info = t.lookup(48).unwrap();
/// assert_eq!(info.subject(), Some(&b"hi"[..]));
/// assert_eq!(info.date().unwrap().0.to_string(), "1993-01-12T14:02:11Z");
/// ```
#[derive(Debug)]
pub struct MessageTracker {
    fields: Fields,
    mode: Mode,
    /// Bytes fed so far.
    fed: u64,
    /// The line being read: its first bytes (up to a cap) and where it
    /// starts; `None` at a line start.
    line: Option<(Vec<u8>, u64)>,
    /// The line before the next line start was empty (true at the start).
    prev_empty: bool,
    /// The header block being read and where its message starts.
    collector: Collector,
    header_start: u64,
    /// The header is past [`WINDOW`]: what it holds is decided.
    decided: bool,
    /// Message starts (raw offsets) with their metadata, in order; the
    /// last one's is `None` while its header is read.
    starts: VecDeque<(u64, Option<Arc<MessageInfo>>)>,
    /// The info of the message in force before the first start kept.
    before: Option<Arc<MessageInfo>>,
}

fn empty_line(line: &[u8]) -> bool {
    matches!(line, b"" | b"\r")
}

/// Whether the first line makes the input a message (rule 10): an mbox
/// `From ` line or a header field.
fn opens_message(line: &[u8]) -> bool {
    let name = line
        .iter()
        .take_while(|&&b| (0x21..=0x7e).contains(&b) && b != b':')
        .count();
    line.starts_with(b"From ") || (name > 0 && line.get(name) == Some(&b':'))
}

impl MessageTracker {
    /// A tracker of `fields` at the start of an input.
    pub fn new(fields: Fields) -> MessageTracker {
        MessageTracker {
            fields,
            mode: Mode::Start,
            fed: 0,
            line: None,
            prev_empty: true,
            collector: Collector::new(fields),
            header_start: 0,
            decided: false,
            starts: VecDeque::new(),
            before: None,
        }
    }

    /// The fields it reads.
    pub fn fields(&self) -> Fields {
        self.fields
    }

    /// Bytes fed so far.
    pub fn fed(&self) -> u64 {
        self.fed
    }

    /// Takes the next bytes of the input.
    pub fn feed(&mut self, data: &[u8]) {
        let base = self.fed;
        self.fed += data.len() as u64;
        let mut i = 0;
        while i < data.len() {
            if let Some((mut line, at)) = self.line.take() {
                // Finishing a line begun in an earlier chunk.
                let e = memchr(b'\n', &data[i..]).map(|k| i + k);
                let to = e.unwrap_or(data.len());
                let room = LINE_CAP.saturating_sub(line.len());
                line.extend_from_slice(&data[i..to.min(i + room)]);
                match e {
                    Some(e) => {
                        self.whole_line(&line, at);
                        i = e + 1;
                    }
                    None => {
                        self.line = Some((line, at));
                        return;
                    }
                }
                continue;
            }
            if self.mode == Mode::Text {
                i = self.text(data, i, base);
                continue;
            }
            match memchr(b'\n', &data[i..]) {
                Some(k) => {
                    let line = &data[i..i + k];
                    self.whole_line(&line[..line.len().min(LINE_CAP)], base + i as u64);
                    i += k + 1;
                }
                None => {
                    let rest = &data[i..];
                    self.line = Some((rest[..rest.len().min(LINE_CAP)].to_vec(), base + i as u64));
                    return;
                }
            }
        }
    }

    /// Text from the line start `data[i]`: only a `From ` line after an
    /// empty line matters, found by search. Returns where reading goes on
    /// (a line start, or the end of `data`).
    fn text(&mut self, data: &[u8], i: usize, base: u64) -> usize {
        if self.prev_empty && data[i..].starts_with(b"From ") {
            return self.line_at(data, i, base);
        }
        // The MIME reading's own search for an `F` after an empty line.
        let mut from = i + 1;
        while let Some(p) = crate::mime::next_message_start(data, from) {
            let nl = p - 1;
            if data[nl] == b'\n' && data[p..].starts_with(b"From ") {
                let ls = memchr::memrchr(b'\n', &data[i..nl]).map_or(i, |k| i + k + 1);
                if empty_line(&data[ls..nl]) {
                    self.prev_empty = true;
                    return self.line_at(data, p, base);
                }
            }
            from = p + 1;
        }
        // No message start: the state after the last complete line, and
        // the line begun after it.
        let rest_at = match memchr::memrchr(b'\n', &data[i..]) {
            Some(k) => {
                let nl = i + k;
                let ls = memchr::memrchr(b'\n', &data[i..nl]).map_or(i, |p| i + p + 1);
                self.prev_empty = empty_line(&data[ls..nl]);
                nl + 1
            }
            None => i,
        };
        let rest = &data[rest_at..];
        if !rest.is_empty() {
            self.line = Some((
                rest[..rest.len().min(LINE_CAP)].to_vec(),
                base + rest_at as u64,
            ));
        }
        data.len()
    }

    /// Reads the line at `data[s]` through [`MessageTracker::whole_line`].
    fn line_at(&mut self, data: &[u8], s: usize, base: u64) -> usize {
        match memchr(b'\n', &data[s..]) {
            Some(k) => {
                let line = &data[s..s + k];
                self.whole_line(&line[..line.len().min(LINE_CAP)], base + s as u64);
                s + k + 1
            }
            None => {
                let rest = &data[s..];
                self.line = Some((rest[..rest.len().min(LINE_CAP)].to_vec(), base + s as u64));
                data.len()
            }
        }
    }

    /// One line (without its LF, at most [`LINE_CAP`] bytes of it) at raw
    /// offset `at`.
    fn whole_line(&mut self, line: &[u8], at: u64) {
        let prev_empty = std::mem::replace(&mut self.prev_empty, empty_line(line));
        match self.mode {
            Mode::Start => {
                if opens_message(line) {
                    self.begin(line, at);
                } else {
                    self.mode = Mode::Text;
                }
            }
            Mode::Text => {
                if prev_empty && line.starts_with(b"From ") {
                    self.begin(line, at);
                }
            }
            Mode::Header => {
                if empty_line(line) {
                    if self.decided {
                        // Past the window: the text after the header takes
                        // all of it.
                        self.starts.push_back((at, self.collector.info()));
                    }
                    self.end_header();
                    self.mode = Mode::Text;
                } else {
                    if !self.decided && at - self.header_start > WINDOW {
                        self.end_header();
                    }
                    self.collector.line(line);
                }
            }
        }
    }

    /// A message starts at `at` with `line`.
    fn begin(&mut self, line: &[u8], at: u64) {
        if self.mode == Mode::Header && !self.decided {
            self.end_header();
        }
        self.mode = Mode::Header;
        self.header_start = at;
        self.decided = false;
        self.collector.reset();
        self.starts.push_back((at, None));
        if line.starts_with(b"From ") {
            self.collector.mbox_line(line);
        } else {
            self.collector.line(line);
        }
    }

    /// The header is read (or past its window): its info is decided.
    fn end_header(&mut self) {
        if self.decided {
            return;
        }
        self.decided = true;
        let info = self.collector.info();
        if let Some(last) = self.starts.back_mut() {
            last.1 = info;
        }
    }

    /// Ends the input.
    pub fn finish(&mut self) {
        if let Some((line, at)) = self.line.take() {
            self.whole_line(&line, at);
        }
        if self.mode == Mode::Header {
            self.end_header();
        }
    }

    /// The start of the message whose header is still being read, while
    /// what it gives is not decided: a match at or after it must wait.
    pub fn undecided(&self) -> Option<u64> {
        (self.mode == Mode::Header && !self.decided).then_some(self.header_start)
    }

    /// The metadata of the message holding raw offset `at` (one before
    /// [`MessageTracker::undecided`], and not forgotten).
    pub fn lookup(&self, at: u64) -> Option<&Arc<MessageInfo>> {
        // Most lookups are in the first message kept (what is before the
        // caller is forgotten) or in the last one.
        if let Some((s, info)) = self.starts.back() {
            if *s <= at {
                return info.as_ref();
            }
        }
        if let (Some(first), Some(second)) = (self.starts.front(), self.starts.get(1)) {
            if first.0 <= at && at < second.0 {
                return first.1.as_ref();
            }
        }
        let i = self.starts.partition_point(|&(s, _)| s <= at);
        match i {
            0 => self.before.as_ref(),
            _ => self.starts[i - 1].1.as_ref(),
        }
    }

    /// No offset before `at` is looked up any more.
    pub fn forget(&mut self, at: u64) {
        while self.starts.len() > 1 && self.starts[1].0 <= at {
            if let Some((_, info)) = self.starts.pop_front() {
                self.before = info;
            }
        }
    }

    /// The metadata from raw offset `from` to what is fed, for matches
    /// looked up apart from the tracker (another thread): a header still
    /// being read gives what is read of it so far. Forgets what is before
    /// the end.
    pub fn map(&mut self, from: u64) -> MessageMap {
        let first = self.lookup(from).cloned();
        let mut starts: Vec<(u64, Option<Arc<MessageInfo>>)> = self
            .starts
            .iter()
            .filter(|(s, _)| *s > from)
            .cloned()
            .collect();
        if let Some(s) = self.undecided() {
            let partial = self.collector.info();
            match starts.last_mut() {
                Some(last) if last.0 == s => last.1 = partial,
                _ => starts.push((s.max(from), partial)),
            }
        }
        self.forget(self.fed);
        MessageMap { first, starts }
    }
}

/// Which message's metadata holds where, for one stretch of an input
/// (from [`MessageTracker::map`]).
#[derive(Clone, Debug, Default)]
pub struct MessageMap {
    first: Option<Arc<MessageInfo>>,
    starts: Vec<(u64, Option<Arc<MessageInfo>>)>,
}

impl MessageMap {
    /// The metadata of the message holding raw offset `at`.
    pub fn lookup(&self, at: u64) -> Option<&Arc<MessageInfo>> {
        let i = self.starts.partition_point(|&(s, _)| s <= at);
        match i {
            0 => self.first.as_ref(),
            _ => self.starts[i - 1].1.as_ref(),
        }
    }
}

/// A tracker and the matches waiting for their message's header: what a
/// stream front end puts between its scanner and its caller.
#[derive(Debug)]
pub(crate) struct Attach {
    pub tracker: MessageTracker,
    held: VecDeque<Match>,
}

impl Attach {
    pub fn new(fields: Fields) -> Attach {
        Attach {
            tracker: MessageTracker::new(fields),
            held: VecDeque::new(),
        }
    }

    /// Hands `m` on with its message's metadata, or holds it (with what
    /// is held) until its header is read.
    pub fn take(&mut self, m: &mut Match, each: &mut dyn FnMut(&mut Match)) {
        let wait = self.tracker.undecided().is_some_and(|s| m.offset() >= s);
        if wait || !self.held.is_empty() {
            self.held.push_back(m.clone());
            return;
        }
        // Matches come in order: the messages before this one are done.
        self.tracker.forget(m.offset());
        m.message = self.tracker.lookup(m.offset()).cloned();
        each(m);
    }

    /// Hands on the held matches that can go now (all after the input's
    /// end), and forgets what is before `floor`.
    pub fn release(&mut self, floor: u64, each: &mut dyn FnMut(&mut Match)) {
        while let Some(m) = self.held.front() {
            if self.tracker.undecided().is_some_and(|s| m.offset() >= s) {
                break;
            }
            let Some(mut m) = self.held.pop_front() else {
                break;
            };
            m.message = self.tracker.lookup(m.offset()).cloned();
            each(&mut m);
        }
        let floor = self.held.front().map_or(floor, |m| floor.min(m.offset()));
        self.tracker.forget(floor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The metadata at each offset, the input fed in chunks cut at `cuts`.
    fn infos(input: &[u8], cuts: &[usize]) -> Vec<Option<Arc<MessageInfo>>> {
        let mut t = MessageTracker::new(Fields::ALL);
        let mut from = 0;
        for &c in cuts.iter().chain([input.len()].iter()) {
            t.feed(&input[from..c]);
            from = c;
        }
        t.finish();
        (0..input.len() as u64)
            .map(|o| t.lookup(o).cloned())
            .collect()
    }

    fn at<'a>(
        all: &'a [Option<Arc<MessageInfo>>],
        input: &[u8],
        needle: &[u8],
    ) -> Option<&'a MessageInfo> {
        all[memmem::find(input, needle).unwrap()].as_deref()
    }

    const MBOX: &[u8] = b"From a@b Tue Jan 12 14:02:11 1993\nSubject: first\nMessage-ID: <1@a>\nNewsgroups: comp.mail.misc, news.admin\n\nbody <http://a/>\n\nFrom c@d Wed Jan 13 10:00:00 1993\nmessage-id:\n  <2@c>\nsubject: =?utf-8?q?caf=C3=A9?=\n\tsecond line\n\nbody2\nFrom not a start\n\nFrom e@f Thu Jan 14 00:00:00 1993\nDate: Fri, 15 Jan 93 09:30 GMT\n\nbody3\n";

    #[test]
    fn mbox_messages_and_their_fields() {
        let all = infos(MBOX, &[]);
        let one = at(&all, MBOX, b"body <").unwrap();
        assert_eq!(one.message_id(), Some("<1@a>"));
        assert_eq!(one.subject(), Some(&b"first"[..]));
        let groups: Vec<&str> = one.newsgroups().unwrap().iter().map(|g| &**g).collect();
        assert_eq!(groups, ["comp.mail.misc", "news.admin"]);
        let (t, s) = one.date().unwrap();
        assert_eq!(
            (t.to_string().as_str(), s),
            ("1993-01-12T14:02:11Z", DateSource::FromLine)
        );
        let two = at(&all, MBOX, b"body2").unwrap();
        assert_eq!(two.message_id(), Some("<2@c>"));
        assert_eq!(two.subject_lossy().unwrap(), "café\tsecond line");
        assert_eq!(two.newsgroups(), None);
        // A `From ` line after a non-empty line starts nothing.
        assert_eq!(at(&all, MBOX, b"From not"), Some(two));
        let three = at(&all, MBOX, b"body3").unwrap();
        assert_eq!(three.date().unwrap().1, DateSource::Date);
        assert_eq!(three.date().unwrap().0.to_string(), "1993-01-15T09:30:00Z");
        // The header lines of a message are its own too.
        assert_eq!(at(&all, MBOX, b"Subject: first"), Some(one));
    }

    #[test]
    fn every_cut_gives_the_same_metadata() {
        let whole = infos(MBOX, &[]);
        for c in 0..=MBOX.len() {
            assert_eq!(infos(MBOX, &[c]), whole, "cut at {c}");
        }
        let bytes: Vec<usize> = (1..MBOX.len()).collect();
        assert_eq!(infos(MBOX, &bytes), whole);
    }

    #[test]
    fn a_news_article_and_text_that_is_no_message() {
        let news = b"Path: a!b\nNewsgroups: comp.infosystems.www\nPosted: Tue Jan 12 14:02:11 1993\nSubject: Re: WWW\n\n<http://info.cern.ch/>\n";
        let all = infos(news, &[]);
        let a = at(&all, news, b"<http").unwrap();
        assert_eq!(a.date().unwrap().1, DateSource::Posted);
        assert_eq!(a.newsgroups().unwrap().len(), 1);
        let text = b"Just text\n\n<http://a/>\n";
        assert!(infos(text, &[]).iter().all(Option::is_none));
        // Text first, then an mbox message after an empty line.
        let later = b"notes\n\nFrom x Tue Jan 12 14:02:11 1993\nSubject: s\n\n<http://a/>\n";
        let all = infos(later, &[]);
        assert_eq!(all[0], None);
        assert_eq!(
            at(&all, later, b"<http").unwrap().subject(),
            Some(&b"s"[..])
        );
    }

    #[test]
    fn a_header_larger_than_the_window_costs_bounded_memory() {
        let mut big = b"From x Tue Jan 12 14:02:11 1993\nSubject: early\n".to_vec();
        while big.len() < 3 * WINDOW as usize {
            big.extend_from_slice(b"Received: from somewhere by elsewhere; a long line of it\n");
        }
        big.extend_from_slice(
            b"Message-ID: <late@x>\nDate: Mon, 1 Feb 1993 00:00:00 +0000\n\n<http://a/>\n",
        );
        let mut t = MessageTracker::new(Fields::ALL);
        for c in big.chunks(1000) {
            t.feed(c);
            assert!(t.line.as_ref().map_or(0, |l| l.0.capacity()) <= 2 * LINE_CAP);
        }
        t.finish();
        let info = t.lookup(big.len() as u64 - 3).unwrap();
        // The body takes the whole header; the header past the window
        // what was read by then.
        assert_eq!(info.subject(), Some(&b"early"[..]));
        assert_eq!(info.message_id(), Some("<late@x>"));
        assert_eq!(info.date().unwrap().1, DateSource::Date);
        let late = t
            .lookup(memmem::find(&big, b"Message-ID").unwrap() as u64)
            .unwrap();
        assert_eq!(late.subject(), Some(&b"early"[..]));
        assert_eq!(
            (late.message_id(), late.date().unwrap().1),
            (None, DateSource::FromLine)
        );
        // A long value is capped.
        let mut long = b"Subject: ".to_vec();
        long.resize(10 * VALUE_CAP, b'x');
        long.extend_from_slice(b"\n\n");
        let mut t = MessageTracker::new(Fields::SUBJECT);
        t.feed(&long);
        t.finish();
        assert_eq!(t.lookup(0).unwrap().subject().unwrap().len(), VALUE_CAP - 1);
    }

    #[test]
    fn message_starts_are_forgotten() {
        let msg = b"From x Tue Jan 12 14:02:11 1993\nMessage-ID: <m@x>\n\nhello\n\n";
        let mut t = MessageTracker::new(Fields::MESSAGE_ID);
        for _ in 0..10_000 {
            t.feed(msg);
            t.forget(t.fed());
            assert!(t.starts.len() <= 2);
        }
    }

    #[test]
    fn encoded_words() {
        let d = |s: &[u8]| decode_words(s);
        assert_eq!(
            d(b"=?ISO-8859-1?Q?Andr=E9_Pirard?="),
            "André Pirard".as_bytes()
        );
        assert_eq!(d(b"=?UTF-8?B?w6lsw6h2ZQ==?="), "élève".as_bytes());
        // Blanks between adjacent words go, others stay.
        assert_eq!(d(b"=?us-ascii?q?a?= \t =?us-ascii?q?b?= c"), b"ab c");
        assert_eq!(d(b"x =?us-ascii?q?a?="), b"x a");
        // Another charset, a bad encoding, a malformed word: as written.
        assert_eq!(d(b"=?KOI8-R?Q?=F0?="), b"=?KOI8-R?Q?=F0?=");
        assert_eq!(d(b"=?utf-8?X?abc?="), b"=?utf-8?X?abc?=");
        assert_eq!(d(b"=?utf-8?Q?a b?="), b"=?utf-8?Q?a b?=");
        assert_eq!(d(b"=?utf-8?B?@@@?="), b"=?utf-8?B?@@@?=");
        // Bytes that are not UTF-8 stay as they are, reversibly.
        assert_eq!(d(b"=?utf-8?Q?=FF?= \xe9t\xe9"), b"\xff \xe9t\xe9");
        let mail = b"Subject: caf\xe9 =?utf-8?Q?=E2=82=AC?=\n\n<http://a/>\n";
        let found = crate::Scanner::new().fields(Fields::SUBJECT).extract(mail);
        assert_eq!(
            found[0].message().unwrap().subject(),
            Some(&b"caf\xe9 \xe2\x82\xac"[..])
        );
    }

    #[test]
    fn forwarded_message_gets_its_own_metadata() {
        let mail = b"From: a\nSubject: outer\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/plain\n\n<http://outer.example/>\n--XX\nContent-Type: message/rfc822\n\nSubject: inner <http://in-header.example/>\nDate: Tue, 12 Jan 1993 14:02:11 +0100\nMessage-ID: <in@x>\n\n<http://inner.example/>\n--XX--\n";
        for fields in [Fields::ALL, Fields::SUBJECT] {
            let found = crate::Scanner::new().fields(fields).extract(mail);
            let subj: Vec<_> = found
                .iter()
                .map(|m| {
                    m.message()
                        .and_then(|i| i.subject_lossy())
                        .unwrap()
                        .into_owned()
                })
                .collect();
            assert_eq!(subj[0], "outer");
            assert_eq!(subj[1], "inner <http://in-header.example/>");
            assert_eq!(subj[2], subj[1]);
            assert_eq!(found[2].forwarded_message_id(), Some("<in@x>"));
        }
        let found = crate::Scanner::new().fields(Fields::DATE).extract(mail);
        assert_eq!(
            found[2].message().unwrap().date().unwrap().0.to_string(),
            "1993-01-12T13:02:11Z"
        );
        // The raw reading knows the top-level message only.
        let raw = crate::Scanner::new()
            .mime(false)
            .fields(Fields::ALL)
            .extract(mail);
        assert!(raw
            .iter()
            .all(|m| m.message().unwrap().subject() == Some(&b"outer"[..])));
        // No fields asked: nothing but the forwarded id.
        let none = crate::Scanner::new().extract(mail);
        assert!(none[0].message().is_none());
        assert_eq!(none[2].message().unwrap().subject(), None);
        assert_eq!(none[2].forwarded_message_id(), Some("<in@x>"));
    }

    #[test]
    fn fields_parse() {
        assert_eq!("".parse::<Fields>(), Ok(Fields::NONE));
        assert_eq!(
            "Date, message-id".parse::<Fields>(),
            Ok(Fields::DATE | Fields::MESSAGE_ID)
        );
        assert_eq!(
            "date,newsgroups,subject,message-id".parse::<Fields>(),
            Ok(Fields::ALL)
        );
        assert!("from"
            .parse::<Fields>()
            .unwrap_err()
            .to_string()
            .contains("from"));
    }
}
