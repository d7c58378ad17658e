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
//! The MIME reader reads a message's header through a `Collector`;
//! [`MessageTracker`](crate::MessageTracker) frames messages in raw bytes
//! for the other readings. Memory stays bounded: of a header block only
//! the wanted fields are kept, each value at most [`VALUE_CAP`] bytes, and
//! a URL in a header block waits for the rest of it at most [`WINDOW`]
//! bytes.
//!
//! [`Match::message`]: crate::Match::message

use std::borrow::Cow;
use std::sync::{Arc, OnceLock};

use memchr::{memchr, memmem};

use crate::charset::Charset;
use crate::class::hex_val;
use crate::date::{DateSource, Timestamp};
use crate::params;

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
    /// The `Subject:`, decoded to UTF-8 (see [`decode_header`]).
    pub const SUBJECT: Fields = Fields(8);
    /// The four above, those `--json` writes.
    pub const ALL: Fields = Fields(15);
    /// The `List-Id:` (RFC 2919), a mailing list's name: asked for by
    /// itself (`list-id`), not among [`Fields::ALL`].
    pub const LIST_ID: Fields = Fields(16);

    /// The names [`Fields`] parses, in order.
    pub const NAMES: [(&'static str, Fields); 5] = [
        ("date", Fields::DATE),
        ("newsgroups", Fields::NEWSGROUPS),
        ("subject", Fields::SUBJECT),
        ("message-id", Fields::MESSAGE_ID),
        ("list-id", Fields::LIST_ID),
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
            "unknown field {:?} (known: date, newsgroups, subject, message-id, list-id)",
            self.0
        )
    }
}

impl std::error::Error for UnknownField {}

impl std::str::FromStr for Fields {
    type Err = UnknownField;

    /// A comma-separated list of `date`, `newsgroups`, `subject`,
    /// `message-id`, `list-id` (any case; empty: none).
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
///
/// The values are kept as read and decoded (the date parsed, the subject
/// decoded, the groups split) the first time any of them is asked for:
/// most matches' callers never read them, and decoding costs more than
/// reading.
#[derive(Clone, Default)]
pub struct MessageInfo {
    raw: RawValues,
    /// Boxed: a message's metadata is moved into its shared allocation
    /// once per message read, decoded or not.
    decoded: OnceLock<Box<Decoded>>,
}

/// The decoded fields of a [`MessageInfo`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Decoded {
    /// The `Message-ID` (UTF-8) and then the subject, in one allocation.
    text: Box<[u8]>,
    /// Where the `Message-ID` ends in `text`, when known.
    id_end: Option<usize>,
    /// Whether the subject (the rest of `text`) is known.
    has_subject: bool,
    date: Option<(Timestamp, DateSource)>,
    newsgroups: Option<Box<[Box<str>]>>,
    list_id: Option<Box<str>>,
    charset: Option<Charset>,
}

impl Decoded {
    fn is_empty(&self) -> bool {
        self.id_end.is_none()
            && self.date.is_none()
            && self.newsgroups.is_none()
            && self.list_id.is_none()
            && !self.has_subject
            && self.charset.is_none()
    }
}

impl PartialEq for MessageInfo {
    /// Equal when every field says the same (however it was written).
    fn eq(&self, other: &MessageInfo) -> bool {
        self.decoded() == other.decoded()
    }
}

impl Eq for MessageInfo {}

impl std::fmt::Debug for MessageInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = self.decoded();
        f.debug_struct("MessageInfo")
            .field("message_id", &self.message_id())
            .field("date", &d.date)
            .field("newsgroups", &d.newsgroups)
            .field("list_id", &d.list_id)
            .field("subject", &self.subject_lossy())
            .field("charset", &d.charset)
            .finish()
    }
}

impl MessageInfo {
    fn decoded(&self) -> &Decoded {
        self.decoded
            .get_or_init(|| Box::new(self.raw.view().decode()))
    }

    /// The `Message-ID`, as written (trimmed; bytes that are not UTF-8
    /// replaced).
    pub fn message_id(&self) -> Option<&str> {
        let d = self.decoded();
        // Written from a `str`: always UTF-8.
        let e = d.id_end?;
        std::str::from_utf8(&d.text[..e]).ok()
    }

    /// The message's date and the field it was read from: `Date:`, else
    /// B news `Posted:`, else `NNTP-Posting-Date:`, else the mbox `From `
    /// line; `None` when none of them is readable.
    pub fn date(&self) -> Option<(Timestamp, DateSource)> {
        self.decoded().date
    }

    /// The groups of `Newsgroups:`, in order (bytes that are not UTF-8
    /// replaced).
    pub fn newsgroups(&self) -> Option<&[Box<str>]> {
        self.decoded().newsgroups.as_deref()
    }

    /// The list identifier of `List-Id:` (RFC 2919): the text between
    /// its angle brackets, else the whole value trimmed (bytes that are not
    /// UTF-8 replaced).
    pub fn list_id(&self) -> Option<&str> {
        self.decoded().list_id.as_deref()
    }

    /// The `Subject:`, unfolded and trimmed, decoded to UTF-8 by
    /// [`decode_header`]: its RFC 2047 encoded words in any known
    /// [`Charset`], or, a value of raw 8-bit bytes, as UTF-8 when it is,
    /// else by the charset the message declares (its `Content-Type`, else
    /// its first text part's). Bytes that cannot be decoded stay as they
    /// are: the value is UTF-8 unless the header held bytes that are not
    /// text in any of these (an encoded word in a charset not known stays
    /// as written).
    pub fn subject(&self) -> Option<&[u8]> {
        let d = self.decoded();
        d.has_subject.then(|| &d.text[d.id_end.unwrap_or(0)..])
    }

    /// [`MessageInfo::subject`] as text, bytes that are not UTF-8 replaced.
    pub fn subject_lossy(&self) -> Option<Cow<'_, str>> {
        self.subject().map(String::from_utf8_lossy)
    }

    /// The charset the message declares: its `Content-Type`'s `charset`,
    /// else (for a subject of raw 8-bit bytes) its first text part's;
    /// `None` when it declares none that is known. Known when any field
    /// is asked for.
    pub fn charset(&self) -> Option<Charset> {
        self.decoded().charset
    }
}

/// The slots of [`RawValues`], in order.
const SLOTS: usize = 9;

/// The values of one header block as read, in one allocation: what a
/// [`MessageInfo`] decodes when asked.
#[derive(Clone, Debug, Default)]
struct RawValues {
    /// The values one after the other, in the order of [`View::slots`].
    bytes: Box<[u8]>,
    /// Where each value ends in `bytes`.
    ends: [u32; SLOTS],
    /// Bit `i`: value `i` was found.
    found: u16,
    part_charset: Option<Charset>,
}

impl RawValues {
    fn new(v: &View<'_>) -> RawValues {
        let slots = v.slots();
        let len = slots.iter().map(|s| s.map_or(0, <[u8]>::len)).sum();
        let mut bytes = Vec::with_capacity(len);
        let mut ends = [0; SLOTS];
        let mut found = 0;
        for (i, s) in slots.iter().enumerate() {
            if let Some(s) = s {
                bytes.extend_from_slice(s);
                found |= 1 << i;
            }
            // At most SLOTS values of at most VALUE_CAP bytes each.
            ends[i] = bytes.len() as u32;
        }
        RawValues {
            bytes: bytes.into_boxed_slice(),
            ends,
            found,
            part_charset: v.part_charset,
        }
    }

    fn view(&self) -> View<'_> {
        let slot = |i: usize| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
            (self.found & 1 << i != 0).then(|| &self.bytes[start..self.ends[i] as usize])
        };
        View::from_slots(std::array::from_fn(slot), self.part_charset)
    }
}

/// The values of one header block, borrowed: from a [`Values`] being read
/// or from a [`MessageInfo`]'s [`RawValues`].
struct View<'a> {
    id: Option<&'a [u8]>,
    date: Option<&'a [u8]>,
    posted: Option<&'a [u8]>,
    nntp: Option<&'a [u8]>,
    groups: Option<&'a [u8]>,
    subject: Option<&'a [u8]>,
    from_line: Option<&'a [u8]>,
    list: Option<&'a [u8]>,
    content_type: Option<&'a [u8]>,
    part_charset: Option<Charset>,
}

impl<'a> View<'a> {
    /// The view of [`View::slots`]'s array.
    fn from_slots(slots: [Option<&'a [u8]>; SLOTS], part_charset: Option<Charset>) -> View<'a> {
        let [id, date, posted, nntp, groups, subject, from_line, list, content_type] = slots;
        View {
            id,
            date,
            posted,
            nntp,
            groups,
            subject,
            from_line,
            list,
            content_type,
            part_charset,
        }
    }

    /// The values in the order [`RawValues`] keeps them.
    fn slots(&self) -> [Option<&'a [u8]>; SLOTS] {
        [
            self.id,
            self.date,
            self.posted,
            self.nntp,
            self.groups,
            self.subject,
            self.from_line,
            self.list,
            self.content_type,
        ]
    }

    /// The charset the message declares: its `Content-Type`'s, else its
    /// first text part's.
    fn declared_charset(&self) -> Option<Charset> {
        self.content_type
            .and_then(params::charset)
            .or(self.part_charset)
    }

    /// Whether a field that always gives a value was found (as most
    /// headers have one): the fields are then not empty, told without
    /// decoding them.
    fn surely_some(&self) -> bool {
        self.id.is_some() || self.subject.is_some() || self.groups.is_some()
    }

    fn decode(&self) -> Decoded {
        let date = || {
            let header = |v: Option<&[u8]>, s| v.and_then(Timestamp::parse_header).map(|t| (t, s));
            header(self.date, DateSource::Date)
                .or_else(|| header(self.posted, DateSource::Posted))
                .or_else(|| header(self.nntp, DateSource::NntpPostingDate))
                .or_else(|| {
                    let t = Timestamp::parse_from_line(self.from_line?)?;
                    Some((t, DateSource::FromLine))
                })
        };
        let id = self.id.map(String::from_utf8_lossy);
        let subject = self
            .subject
            .map(|v| decode_value(trim(v), &|| self.declared_charset()));
        let len = id.as_ref().map_or(0, |i| i.len()) + subject.as_ref().map_or(0, |s| s.len());
        let mut text = Vec::with_capacity(len);
        text.extend_from_slice(id.as_deref().unwrap_or_default().as_bytes());
        text.extend_from_slice(subject.as_deref().unwrap_or_default());
        Decoded {
            text: text.into_boxed_slice(),
            id_end: id.as_ref().map(|i| i.len()),
            has_subject: subject.is_some(),
            date: date(),
            charset: self.declared_charset(),
            newsgroups: self.groups.map(|v| {
                let groups = || v.split(|&b| b == b',').map(trim).filter(|g| !g.is_empty());
                // Sized first: the list is boxed without moving it again.
                let mut list = Vec::with_capacity(groups().count());
                list.extend(groups().map(|g| String::from_utf8_lossy(g).into()));
                list.into_boxed_slice()
            }),
            list_id: self.list.and_then(|v| {
                // `phrase <label.namespace>`: the label between the brackets.
                let v = trim(v);
                let inner = memchr(b'<', v)
                    .and_then(|s| memchr(b'>', &v[s..]).map(|e| trim(&v[s + 1..s + e])))
                    .unwrap_or(v);
                (!inner.is_empty()).then(|| String::from_utf8_lossy(inner).into())
            }),
        }
    }
}

/// Most bytes kept of one field value.
pub const VALUE_CAP: usize = 2048;

/// How far into a header block a URL in it waits for the rest: one past
/// this many bytes from the block's start takes the fields read by then;
/// the URLs after the block take all of them.
pub const WINDOW: u64 = 32 * 1024;

/// Most bytes kept of a line while it is looked at.
pub(crate) const LINE_CAP: usize = VALUE_CAP + 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Id,
    Date,
    Posted,
    Nntp,
    Groups,
    Subject,
    List,
    ContentType,
}

/// The wanted fields of one header block, read line by line.
#[derive(Debug, Default)]
pub(crate) struct Collector {
    fields: Fields,
    last: Option<Slot>,
    id_folding: bool,
    /// Boxed: taken out whole for each message (see
    /// [`Collector::take_values`]), it moves as a pointer.
    v: Box<Values>,
    /// The buffers of the values of messages read before, for the next.
    spare: Vec<Vec<u8>>,
    /// Empty boxes of values taken back, for the next (the boxes are what
    /// is kept: their allocations).
    #[allow(clippy::vec_box)]
    boxes: Vec<Box<Values>>,
}

/// The values of the wanted fields of one header block, as read (each at
/// most [`VALUE_CAP`] bytes): what [`Values::info`] makes the message's
/// metadata of, when asked.
#[derive(Debug, Default)]
pub(crate) struct Values {
    id: Option<Vec<u8>>,
    date: Option<Vec<u8>>,
    posted: Option<Vec<u8>>,
    nntp: Option<Vec<u8>>,
    groups: Option<Vec<u8>>,
    subject: Option<Vec<u8>>,
    from_line: Option<Vec<u8>>,
    list: Option<Vec<u8>>,
    /// The `Content-Type` (read with the subject: its charset decodes a
    /// subject of raw 8-bit bytes).
    content_type: Option<Vec<u8>>,
    /// The charset of the message's first text part, when its
    /// `Content-Type` names none (set by the tracker).
    pub(crate) part_charset: Option<Charset>,
}

/// Most spare buffers (and boxes) a collector keeps: enough for the
/// messages of a step of the tracker's input, whose values live until
/// their matches are handed on (a few megabytes at most).
const SPARE_KEPT: usize = 1024;

use crate::charset::trim;

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

    /// Starts over for the next message, as a new collector of `fields`
    /// (the buffers are kept).
    pub fn restart(&mut self, fields: Fields) {
        self.reset();
        self.fields = fields;
    }

    /// Starts over for the next message (the buffers are kept).
    pub fn reset(&mut self) {
        let spare = &mut self.spare;
        for slot in [
            &mut self.v.id,
            &mut self.v.date,
            &mut self.v.posted,
            &mut self.v.nntp,
            &mut self.v.groups,
            &mut self.v.subject,
            &mut self.v.from_line,
            &mut self.v.list,
            &mut self.v.content_type,
        ] {
            spare.extend(slot.take());
        }
        self.v.part_charset = None;
        self.last = None;
        self.id_folding = false;
    }

    /// No field is being read on: a continuation line changes nothing,
    /// and neither does a line whose name starts with a letter other than
    /// those of [`Collector::FIRST`].
    pub fn idle(&self) -> bool {
        self.last.is_none() && !self.id_folding
    }

    /// The first bytes of the lines that matter to an idle collector: the
    /// first letters of the names it reads, and those of an empty line.
    /// `List-Id:` is read only when asked for ([`Collector::FIRST_LIST`]):
    /// every header line a letter more lets through costs the header walk
    /// a stop.
    pub const FIRST: [u8; 14] = [
        b'\n', b'\r', b'C', b'c', b'D', b'd', b'M', b'm', b'N', b'n', b'P', b'p', b'S', b's',
    ];

    /// [`Collector::FIRST`] and the first letters of `List-Id:`.
    pub const FIRST_LIST: [u8; 16] = {
        let mut set = [b'L'; 16];
        let mut i = 0;
        while i < Collector::FIRST.len() {
            set[i] = Collector::FIRST[i];
            i += 1;
        }
        set[15] = b'l';
        set
    };

    /// Whether a line starting with `first` and then `second` (`None`
    /// when not known yet) may be one that matters to an idle collector
    /// (see [`Collector::FIRST`]): a wanted field's name starts so, or it
    /// may be an empty line. Lets a header walk pass over the other lines
    /// that share a first letter (`MIME-Version:`, `Sender:`).
    pub fn may_start(first: u8, second: Option<u8>) -> bool {
        let Some(second) = second else {
            return true;
        };
        match (first | 0x20, second | 0x20) {
            (b'd', b'a') | (b'p', b'o') | (b's', b'u') | (b'l', b'i') | (b'm', b'e') => true,
            (b'n', b'e' | b'n') | (b'c', b'o') => true,
            (f, _) => !f.is_ascii_lowercase(),
        }
    }

    /// Whether it reads `List-Id:` (its first letters then matter).
    pub fn reads_list(&self) -> bool {
        self.fields.contains(Fields::LIST_ID)
    }

    /// The mbox `From ` line that starts the message.
    pub fn mbox_line(&mut self, line: &[u8]) {
        if self.fields.contains(Fields::DATE) {
            self.v.from_line = Some(capped(&mut self.spare, line));
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
                    self.v.id = Some(capped(&mut self.spare, v));
                    self.id_folding = false;
                }
                return;
            }
            let slot = match self.last {
                Some(Slot::Date) => &mut self.v.date,
                Some(Slot::Posted) => &mut self.v.posted,
                Some(Slot::Nntp) => &mut self.v.nntp,
                Some(Slot::Groups) => &mut self.v.groups,
                Some(Slot::Subject) => &mut self.v.subject,
                Some(Slot::List) => &mut self.v.list,
                Some(Slot::ContentType) => &mut self.v.content_type,
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
        // Only these names are read (most lines of a header are others,
        // let go at their first letter). A name is the bytes before the
        // line's first colon, so a wanted one is the line's start followed
        // by a colon (no wanted name holds one).
        let named = |name: &[u8], slot| {
            let n = name.len();
            (line.get(n) == Some(&b':') && line[..n].eq_ignore_ascii_case(name))
                .then_some((slot, n))
        };
        let slot = match line.first().map(|b| b | 0x20) {
            Some(b'd') => named(b"date", Slot::Date),
            Some(b'p') => named(b"posted", Slot::Posted),
            Some(b's') => named(b"subject", Slot::Subject),
            Some(b'l') => named(b"list-id", Slot::List),
            Some(b'm') => named(b"message-id", Slot::Id),
            Some(b'n') => named(b"newsgroups", Slot::Groups)
                .or_else(|| named(b"nntp-posting-date", Slot::Nntp)),
            Some(b'c') => named(b"content-type", Slot::ContentType),
            _ => None,
        };
        let Some((slot, colon)) = slot else {
            return;
        };
        let value = &line[colon + 1..];
        let (want, target) = match slot {
            Slot::Id => (Fields::MESSAGE_ID, &mut self.v.id),
            Slot::Date => (Fields::DATE, &mut self.v.date),
            Slot::Posted => (Fields::DATE, &mut self.v.posted),
            Slot::Nntp => (Fields::DATE, &mut self.v.nntp),
            Slot::Groups => (Fields::NEWSGROUPS, &mut self.v.groups),
            Slot::Subject => (Fields::SUBJECT, &mut self.v.subject),
            Slot::List => (Fields::LIST_ID, &mut self.v.list),
            // Read whenever a field is: its charset is the message's.
            Slot::ContentType => (self.fields, &mut self.v.content_type),
        };
        // The first of each field counts.
        if !self.fields.contains(want) || want.is_empty() || target.is_some() {
            return;
        }
        if slot == Slot::Id {
            match trim(value) {
                [] => self.id_folding = true,
                v => self.v.id = Some(capped(&mut self.spare, v)),
            }
            return;
        }
        *target = Some(capped(&mut self.spare, value));
        self.last = Some(slot);
    }

    /// What was read, `None` when nothing.
    pub fn info(&self) -> Option<Arc<MessageInfo>> {
        self.v.info()
    }

    /// Whether the subject read is raw 8-bit bytes the header's
    /// `Content-Type` gives no charset for: the first text part's
    /// charset may decode it.
    pub fn wants_part_charset(&self) -> bool {
        let Some(subject) = self.v.subject.as_deref() else {
            return false;
        };
        !subject.is_ascii()
            && std::str::from_utf8(subject).is_err()
            && self
                .v
                .content_type
                .as_deref()
                .and_then(params::charset)
                .is_none()
    }

    /// The charset of the message's first text part.
    pub fn set_part_charset(&mut self, charset: Option<Charset>) {
        self.v.part_charset = charset;
    }

    /// The values read, taken out (for [`Values::info`] later); the
    /// collector starts over for the next message.
    pub fn take_values(&mut self) -> Box<Values> {
        self.last = None;
        self.id_folding = false;
        let empty = self.boxes.pop().unwrap_or_default();
        std::mem::replace(&mut self.v, empty)
    }

    /// Takes back the buffers of values taken out before.
    pub fn recycle(&mut self, mut v: Box<Values>) {
        for b in [
            &mut v.id,
            &mut v.date,
            &mut v.posted,
            &mut v.nntp,
            &mut v.groups,
            &mut v.subject,
            &mut v.from_line,
            &mut v.list,
            &mut v.content_type,
        ] {
            if let Some(b) = b.take() {
                if self.spare.len() < SPARE_KEPT {
                    self.spare.push(b);
                }
            }
        }
        v.part_charset = None;
        if self.boxes.len() < SPARE_KEPT {
            self.boxes.push(v);
        }
    }
}

impl Values {
    /// What was read, `None` when nothing: kept as read, decoded when a
    /// field is asked for (see [`MessageInfo`]).
    pub fn info(&self) -> Option<Arc<MessageInfo>> {
        let view = self.view();
        let decoded = OnceLock::new();
        if !view.surely_some() {
            let d = view.decode();
            if d.is_empty() {
                return None;
            }
            let _ = decoded.set(Box::new(d));
        }
        Some(Arc::new(MessageInfo {
            raw: RawValues::new(&view),
            decoded,
        }))
    }

    fn view(&self) -> View<'_> {
        View {
            id: self.id.as_deref(),
            date: self.date.as_deref(),
            posted: self.posted.as_deref(),
            nntp: self.nntp.as_deref(),
            groups: self.groups.as_deref(),
            subject: self.subject.as_deref(),
            from_line: self.from_line.as_deref(),
            list: self.list.as_deref(),
            content_type: self.content_type.as_deref(),
            part_charset: self.part_charset,
        }
    }
}

/// A header value decoded to UTF-8 as a mail reader shows it: its RFC 2047
/// encoded words decoded ([`decode_words`]); a value of raw 8-bit bytes
/// with no encoded word decoded as UTF-8 when it is valid UTF-8, else by
/// `declared` (the message's charset) when it is text there, else left as
/// its bytes.
///
/// Valid UTF-8 comes before the declared charset: a single-byte charset
/// takes any bytes, so UTF-8 would otherwise never be found, and 8-bit
/// text in another charset is almost never valid UTF-8.
///
/// ```
/// use urlsift::{decode_header, Charset};
/// let big5 = Charset::for_label(b"big5");
/// # #[cfg(feature = "charsets")]
/// assert_eq!(decode_header(b"\xa4\xa4\xa4\xe5 news", big5), "中文 news".as_bytes());
/// assert_eq!(decode_header("café".as_bytes(), big5), "café".as_bytes());
/// assert_eq!(decode_header(b"caf\xe9", None), b"caf\xe9");
/// ```
pub fn decode_header(v: &[u8], declared: Option<Charset>) -> Vec<u8> {
    decode_value(v, &|| declared).into_owned()
}

/// [`decode_header`], borrowed when nothing changes and the declared
/// charset found only when it is needed.
fn decode_value<'a>(v: &'a [u8], declared: &dyn Fn() -> Option<Charset>) -> Cow<'a, [u8]> {
    if memmem::find(v, b"=?").is_some() {
        let (out, decoded) = words(v);
        if decoded {
            return Cow::Owned(out);
        }
    }
    if v.is_ascii() || std::str::from_utf8(v).is_ok() {
        return Cow::Borrowed(v);
    }
    match declared().and_then(|c| c.decode(v)) {
        Some(s) => Cow::Owned(s.into_owned().into_bytes()),
        None => Cow::Borrowed(v),
    }
}

/// A header value with its RFC 2047 encoded words (`=?charset?Q?...?=`,
/// `=?charset?B?...?=`) decoded to UTF-8, the blanks between two adjacent
/// ones dropped. Adjacent words in one charset are decoded together, so a
/// character split between two words (as some mailers split them) comes
/// out whole. A word in a charset not known ([`Charset::for_label`]) or
/// malformed stays as written, and so do words whose bytes are not text
/// in their charset, but UTF-8 that is not valid, which stays as its
/// bytes.
///
/// ```
/// let s = urlsift::decode_words(b"=?ISO-8859-1?Q?Andr=E9?= =?UTF-8?B?w6k=?= x");
/// assert_eq!(String::from_utf8(s).unwrap(), "Andréé x");
/// # #[cfg(feature = "charsets")]
/// assert_eq!(
///     urlsift::decode_words(b"=?ISO-2022-JP?B?GyRCJEYkOSRIGyhC?="),
///     "てすと".as_bytes(),
/// );
/// ```
pub fn decode_words(v: &[u8]) -> Vec<u8> {
    words(v).0
}

/// A run of adjacent encoded words in one charset: their bytes, and where
/// the run starts and ends in the value.
struct Run {
    charset: Charset,
    bytes: Vec<u8>,
    start: usize,
    end: usize,
}

/// [`decode_words`], and whether a word was decoded.
fn words(v: &[u8]) -> (Vec<u8>, bool) {
    let mut out = Vec::with_capacity(v.len());
    let mut decoded = false;
    let mut run: Option<Run> = None;
    // Where the text since the last run (or the start) begins.
    let mut text = 0;
    let mut i = 0;
    while i < v.len() {
        let word = match v[i] == b'=' && v.get(i + 1) == Some(&b'?') {
            true => encoded_word(&v[i..]),
            false => None,
        };
        let Some((charset, bytes, len)) = word else {
            i += 1;
            continue;
        };
        let between = &v[text..i];
        let adjacent = run.is_some() && between.iter().all(|b| matches!(b, b' ' | b'\t'));
        match &mut run {
            Some(r) if adjacent && r.charset == charset => {
                r.bytes.extend_from_slice(&bytes);
                r.end = i + len;
            }
            _ => {
                if let Some(r) = run.take() {
                    decoded |= flush(v, r, &mut out);
                }
                if !adjacent {
                    out.extend_from_slice(between);
                }
                run = Some(Run {
                    charset,
                    bytes,
                    start: i,
                    end: i + len,
                });
            }
        }
        i += len;
        text = i;
    }
    if let Some(r) = run.take() {
        decoded |= flush(v, r, &mut out);
    }
    out.extend_from_slice(&v[text..]);
    (out, decoded)
}

/// Writes a run of words decoded (or as written, when its bytes are not
/// text in its charset); returns whether it was decoded.
fn flush(v: &[u8], r: Run, out: &mut Vec<u8>) -> bool {
    if r.charset.is_utf8() {
        out.extend_from_slice(&r.bytes);
        return true;
    }
    match r.charset.decode(&r.bytes) {
        Some(s) => {
            out.extend_from_slice(s.as_bytes());
            true
        }
        None => {
            out.extend_from_slice(&v[r.start..r.end]);
            false
        }
    }
}

/// The encoded word at the start of `v` (`=?charset?E?text?=`, no blanks
/// inside): its charset, its bytes and its length; `None` when it is
/// none, or its charset is not known.
fn encoded_word(v: &[u8]) -> Option<(Charset, Vec<u8>, usize)> {
    // A word ends at its first blank; the length RFC 2047 allows (75) is
    // not enforced: mailers write longer ones, and readers decode them.
    let end = v
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(v.len());
    let body = &v[2..end];
    let q1 = memchr(b'?', body)?;
    let label = &body[..q1];
    let enc = *body.get(q1 + 1)?;
    if body.get(q1 + 2) != Some(&b'?') {
        return None;
    }
    let text_start = q1 + 3;
    let text_end = memmem::find(&body[text_start..], b"?=")? + text_start;
    let text = &body[text_start..text_end];
    // A language tag (RFC 2231) is not part of the charset's name.
    let label = label.split(|&b| b == b'*').next().unwrap_or_default();
    let charset = Charset::for_label(label)?;
    let bytes = match enc {
        b'Q' | b'q' => q_decode(text)?,
        b'B' | b'b' => b_decode(text)?,
        _ => return None,
    };
    Some((charset, bytes, text_end + 4))
}

fn q_decode(text: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'_' => out.push(b' '),
            b'=' => {
                let h = hex_val(*text.get(i + 1)?)?;
                let l = hex_val(*text.get(i + 2)?)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What a collector read, as the fields' accessors give it.
    fn read(c: &Collector) -> Option<String> {
        c.info().map(|i| {
            format!(
                "{:?} {:?} {:?} {:?} {:?}",
                i.message_id(),
                i.date(),
                i.newsgroups(),
                i.list_id(),
                i.subject_lossy()
            )
        })
    }

    /// A collector started over (the MIME reader keeps one for every
    /// header block) reads the next block as a new collector would: none
    /// of the block before stays, nor its fields.
    #[test]
    fn a_restarted_collector_is_a_new_one() {
        let first: &[&[u8]] = &[
            b"Message-ID: <1@a.example>",
            b"Date: Thu, 1 Jan 1998 00:00:00 +0000",
            b"Newsgroups: comp.a, comp.b",
            b"List-Id: <l.example>",
            b"Subject: one",
            b" folded",
        ];
        let second: &[&[u8]] = &[b"Subject: two", b"Message-ID:", b" <2@b.example>"];
        for fields in [Fields::NONE, Fields::MESSAGE_ID, Fields::ALL] {
            let mut used = Collector::new(Fields::ALL | Fields::LIST_ID);
            first.iter().for_each(|l| used.line(l));
            used.restart(fields);
            let mut new = Collector::new(fields);
            for l in second {
                used.line(l);
                new.line(l);
            }
            assert_eq!(read(&used), read(&new), "{fields:?}");
        }
    }
}
