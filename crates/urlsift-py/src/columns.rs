//! Records as Arrow columns: the buffers of an Arrow array per output
//! field (offsets, data, values, validity bitmaps), built in Rust so that
//! the Spark job hands record batches to the JVM without a Python object
//! per row. Python wraps the buffers as they are (`pyarrow.py_buffer`,
//! `Array.from_buffers`): no Arrow library on this side.
//!
//! [`COLUMNS`] is the one list of the output's fields: name, Spark type,
//! whether it may be null, and how a record gives its value. A field is
//! added there (and nowhere else): the Python side builds the schema and
//! the arrays from what [`COLUMNS`] says. A field of a layout not here yet
//! adds a [`Kind`], its [`Built`] buffers, its JSON form in [`json_line`]
//! and its few lines in `urlsift/arrow.py`, once for every such field.

use urlsift::Url;

use crate::record::{self, Record};

/// What a record gives for one field.
pub enum Value<'a> {
    /// A string, `None` for null.
    Str(Option<std::borrow::Cow<'a, str>>),
    /// A 64-bit integer.
    Int(u64),
    /// A boolean.
    Bool(bool),
    /// Source byte ranges, each a list of two integers.
    Spans(Vec<[u64; 2]>),
    /// Section 6 warnings: code, message, offset.
    Warnings(Vec<record::WarningRecord>),
    /// A list of strings, `None` for null.
    StrList(Option<Vec<&'a str>>),
    /// An instant, `None` for null: a Spark `timestamp`, RFC 3339 in JSON.
    Time(Option<urlsift::Timestamp>),
    /// Bytes that are text in most inputs (a subject): a string column
    /// (U+FFFD for bytes that are not UTF-8), and in JSON what `--json`
    /// writes, a string or `{"bytes":"<base64>"}`, so nothing is lost.
    Bytes(Option<&'a [u8]>),
}

/// The Arrow layout of a field: how Python wraps its buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `string`: validity, 32-bit offsets, UTF-8 data.
    Str,
    /// `int64`: validity, values.
    Int,
    /// `bool`: validity, bits.
    Bool,
    /// `list<list<int64>>` of pairs: outer offsets, the values.
    Spans,
    /// `list<struct<code: string, message: string, offset: int64>>`.
    Warnings,
    /// `list<string>`: validity, list offsets, the strings.
    StrList,
    /// `timestamp[us, UTC]`: validity, microseconds since the epoch (the
    /// buffers of `Int`).
    Time,
}

impl Kind {
    /// The name the Python side dispatches on.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Str => "str",
            Kind::Int => "int",
            Kind::Bool => "bool",
            Kind::Spans => "spans",
            Kind::Warnings => "warnings",
            Kind::StrList => "strlist",
            Kind::Time => "timestamp",
        }
    }
}

/// One output field.
pub struct Column {
    /// Its name (the `--json` key).
    pub name: &'static str,
    /// Its Spark SQL type.
    pub spark: &'static str,
    /// Whether it may be null.
    pub nullable: bool,
    /// Its Arrow layout.
    pub kind: Kind,
    /// Its value in a record.
    pub get: for<'a> fn(&Row<'a>) -> Value<'a>,
}

/// A record whose row is being written: its URL parsed once, when a
/// field first needs its parts (`fragment` and `warnings` both do), and
/// unwrapped once (`target` and `via` both need it).
pub struct Row<'a> {
    /// The record.
    pub rec: &'a Record,
    url: std::cell::OnceCell<Option<Url<'a>>>,
    unwrapped: std::cell::OnceCell<urlsift::Unwrapped>,
}

impl<'a> Row<'a> {
    /// The row of `rec`.
    pub fn new(rec: &'a Record) -> Row<'a> {
        Row {
            rec,
            url: std::cell::OnceCell::new(),
            unwrapped: std::cell::OnceCell::new(),
        }
    }

    /// The wrappers the URL goes through ([`urlsift::unwrap`]).
    fn unwrapped(&self) -> &urlsift::Unwrapped {
        self.unwrapped
            .get_or_init(|| urlsift::unwrap(self.rec.url()))
    }

    /// The URL parsed (see [`Record::parsed`]).
    fn url(&self) -> Option<&Url<'a>> {
        self.url.get_or_init(|| self.rec.parsed()).as_ref()
    }
}

fn s(v: Option<&str>) -> Value<'_> {
    Value::Str(v.map(std::borrow::Cow::Borrowed))
}

fn owned<'a>(v: Option<String>) -> Value<'a> {
    Value::Str(v.map(std::borrow::Cow::Owned))
}

/// The output's fields in the command's `--json` order, `path` first.
/// `member`, `encoding`, `content_type` and `anchor` (which `--json` leaves out
/// where they do not apply) are null there: a table has one schema.
pub const COLUMNS: &[Column] = &[
    Column {
        name: "path",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| s(r.rec.path.as_deref()),
    },
    Column {
        name: "member",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| s(r.rec.member.as_deref()),
    },
    Column {
        name: "line",
        spark: "bigint",
        nullable: false,
        kind: Kind::Int,
        get: |r| Value::Int(r.rec.get().line()),
    },
    Column {
        name: "column",
        spark: "bigint",
        nullable: false,
        kind: Kind::Int,
        get: |r| Value::Int(r.rec.get().column()),
    },
    Column {
        name: "offset",
        spark: "bigint",
        nullable: false,
        kind: Kind::Int,
        get: |r| Value::Int(r.rec.get().offset()),
    },
    Column {
        name: "url",
        spark: "string",
        nullable: false,
        kind: Kind::Str,
        get: |r| s(Some(r.rec.url())),
    },
    Column {
        name: "form",
        spark: "string",
        nullable: false,
        kind: Kind::Str,
        get: |r| s(Some(r.rec.get().form().as_str())),
    },
    Column {
        name: "scheme",
        spark: "string",
        nullable: false,
        kind: Kind::Str,
        get: |r| Value::Str(Some(r.rec.scheme())),
    },
    Column {
        name: "fragment",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| s(r.url().and_then(|u| u.fragment())),
    },
    Column {
        name: "broken",
        spark: "boolean",
        nullable: false,
        kind: Kind::Bool,
        get: |r| Value::Bool(r.rec.get().is_broken()),
    },
    Column {
        name: "hyphen",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| s(r.rec.get().hyphen().map(|h| h.as_str())),
    },
    Column {
        name: "alternative",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| owned(r.rec.get().alternative().map(|a| a.into_owned())),
    },
    Column {
        name: "spans",
        spark: "array<array<bigint>>",
        nullable: false,
        kind: Kind::Spans,
        get: |r| Value::Spans(r.rec.spans().into_iter().map(|(a, b)| [a, b]).collect()),
    },
    Column {
        name: "encoding",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| s(r.rec.get().encoding().map(|e| e.as_str())),
    },
    Column {
        name: "content_type",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| s(r.rec.get().content_type()),
    },
    Column {
        name: "anchor",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| s(r.rec.get().anchor()),
    },
    Column {
        name: "warnings",
        spark: "array<struct<code:string,message:string,offset:bigint>>",
        nullable: false,
        kind: Kind::Warnings,
        get: |r| Value::Warnings(r.url().map(record::warnings).unwrap_or_default()),
    },
    Column {
        name: "message_id",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| s(r.rec.message_id()),
    },
    Column {
        name: "date",
        spark: "timestamp",
        nullable: true,
        kind: Kind::Time,
        get: |r| Value::Time(r.rec.get().message().and_then(|i| i.date()).map(|(t, _)| t)),
    },
    Column {
        name: "date_source",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| {
            s(r.rec
                .get()
                .message()
                .and_then(|i| i.date())
                .map(|(_, src)| src.as_str()))
        },
    },
    Column {
        name: "newsgroups",
        spark: "array<string>",
        nullable: true,
        kind: Kind::StrList,
        get: |r| {
            Value::StrList(
                r.rec
                    .get()
                    .message()
                    .and_then(|i| i.newsgroups())
                    .map(|g| g.iter().map(|g| &**g).collect()),
            )
        },
    },
    Column {
        name: "subject",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| Value::Bytes(r.rec.get().message().and_then(|i| i.subject())),
    },
];

/// The fields `unwrap=True` (the job's `--unwrap`) adds, as `--json
/// --unwrap` adds them: the wrapper's target (null for a link that is no
/// wrapper, an opaque one, or one whose target is no URL) and the kinds of
/// wrapper it goes through, outermost first.
pub const UNWRAP_COLUMNS: &[Column] = &[
    Column {
        name: "target",
        spark: "string",
        nullable: true,
        kind: Kind::Str,
        get: |r| owned(r.unwrapped().target().map(str::to_owned)),
    },
    Column {
        name: "via",
        spark: "array<string>",
        nullable: false,
        kind: Kind::StrList,
        get: |r| Value::StrList(Some(r.unwrapped().via().collect())),
    },
];

/// The field `list_id=True` adds, last, as `--json --fields ...,list-id`
/// adds it: the message's `List-Id:` (what the report groups a mailing
/// list's URLs by where there are no newsgroups).
pub const LIST_ID_COLUMN: Column = Column {
    name: "list_id",
    spark: "string",
    nullable: true,
    kind: Kind::Str,
    get: |r| s(r.rec.get().message().and_then(|i| i.list_id())),
};

/// The output's fields in order: [`COLUMNS`], with [`UNWRAP_COLUMNS`]
/// after `warnings` when `unwrap` (where `--json --unwrap` writes them),
/// and [`LIST_ID_COLUMN`] last when `list_id`.
pub fn columns(unwrap: bool, list_id: bool) -> impl Iterator<Item = &'static Column> {
    let at = COLUMNS
        .iter()
        .position(|c| c.name == "warnings")
        .map_or(COLUMNS.len(), |k| k + 1);
    let extra: &'static [Column] = if unwrap { UNWRAP_COLUMNS } else { &[] };
    let last: &'static [Column] = if list_id {
        std::slice::from_ref(&LIST_ID_COLUMN)
    } else {
        &[]
    };
    COLUMNS[..at]
        .iter()
        .chain(extra)
        .chain(&COLUMNS[at..])
        .chain(last)
}

/// A validity (or boolean) bitmap, least significant bit first.
#[derive(Default)]
pub struct Bits {
    /// The bytes.
    pub bytes: Vec<u8>,
    len: usize,
    /// How many bits are 0.
    pub zeros: usize,
}

impl Bits {
    fn push(&mut self, bit: bool) {
        if self.len % 8 == 0 {
            self.bytes.push(0);
        }
        if bit {
            *self.bytes.last_mut().expect("a byte was pushed") |= 1 << (self.len % 8);
        } else {
            self.zeros += 1;
        }
        self.len += 1;
    }
}

/// The buffers of a `string` array.
#[derive(Default)]
pub struct Strings {
    /// Validity.
    pub valid: Bits,
    /// `len + 1` offsets into `data`.
    pub offsets: Vec<i32>,
    /// The UTF-8 bytes.
    pub data: Vec<u8>,
}

impl Strings {
    fn push(&mut self, v: Option<&str>) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.valid.push(v.is_some());
        self.data
            .extend_from_slice(v.unwrap_or_default().as_bytes());
        // A batch stays far below 2 GiB of text: it is cut by rows, and a
        // URL is at most the candidate bound long.
        self.offsets.push(self.data.len() as i32);
    }

    /// Adds a string that `write` appends to the data in place (valid
    /// UTF-8: the caller writes only text).
    fn push_with(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.valid.push(true);
        write(&mut self.data);
        self.offsets.push(self.data.len() as i32);
    }
}

/// The buffers of one column of a batch.
pub enum Built {
    /// `string`.
    Str(Strings),
    /// `int64`: validity, values.
    Int(Bits, Vec<i64>),
    /// `bool`: validity, values.
    Bool(Bits, Bits),
    /// `list<list<int64>>` of pairs: list offsets, the flat values.
    Spans(Vec<i32>, Vec<i64>),
    /// `list<struct>`: list offsets, codes, messages, offsets.
    Warnings(Vec<i32>, Strings, Strings, Vec<i64>),
    /// `list<string>`: validity, list offsets, the strings.
    StrList(Bits, Vec<i32>, Strings),
}

impl Built {
    fn new(kind: Kind) -> Built {
        match kind {
            Kind::Str => Built::Str(Strings::default()),
            Kind::Int | Kind::Time => Built::Int(Bits::default(), Vec::new()),
            Kind::Bool => Built::Bool(Bits::default(), Bits::default()),
            Kind::Spans => Built::Spans(vec![0], Vec::new()),
            Kind::StrList => Built::StrList(Bits::default(), vec![0], Strings::default()),
            Kind::Warnings => {
                Built::Warnings(vec![0], Strings::default(), Strings::default(), Vec::new())
            }
        }
    }

    fn push(&mut self, v: Value<'_>) {
        match (self, v) {
            (Built::Str(b), Value::Str(v)) => b.push(v.as_deref()),
            (Built::Str(b), Value::Bytes(v)) => b.push(v.map(String::from_utf8_lossy).as_deref()),
            (Built::Int(valid, values), Value::Int(n)) => {
                valid.push(true);
                values.push(n as i64);
            }
            (Built::Int(valid, values), Value::Time(t)) => {
                valid.push(t.is_some());
                let us = t.map_or(0, |t| t.unix_seconds().saturating_mul(1_000_000));
                values.push(us);
            }
            (Built::Bool(valid, bits), Value::Bool(b)) => {
                valid.push(true);
                bits.push(b);
            }
            (Built::Spans(offsets, values), Value::Spans(spans)) => {
                for [a, b] in spans {
                    values.extend([a as i64, b as i64]);
                }
                offsets.push((values.len() / 2) as i32);
            }
            (Built::Warnings(offsets, codes, messages, at), Value::Warnings(ws)) => {
                for w in &ws {
                    codes.push(Some(w.code));
                    messages.push(Some(&w.message));
                    at.push(w.offset as i64);
                }
                offsets.push(at.len() as i32);
            }
            (Built::StrList(valid, offsets, strings), Value::StrList(v)) => {
                valid.push(v.is_some());
                for x in v.unwrap_or_default() {
                    strings.push(Some(x));
                }
                offsets.push((strings.offsets.len().max(1) - 1) as i32);
            }
            // The table pairs each kind with its value: a mismatch is a
            // mistake in `COLUMNS`, caught by the tests.
            _ => unreachable!("a column's value does not match its kind"),
        }
    }
}

/// A batch of records being turned into columns.
pub struct Batch {
    /// One per field of [`columns`].
    pub columns: Vec<Built>,
    /// Rows so far.
    pub rows: usize,
    unwrap: bool,
    list_id: bool,
}

impl Default for Batch {
    fn default() -> Batch {
        Batch::new(false, false)
    }
}

/// What a batch of rows is built as: typed columns or JSON lines.
pub trait Rows: Send {
    /// An empty batch of the fields of [`columns`]`(unwrap, list_id)`.
    fn new(unwrap: bool, list_id: bool) -> Self;
    /// Adds a record's row.
    fn push(&mut self, r: &Record);
    /// Rows so far.
    fn rows(&self) -> usize;
}

impl Rows for Batch {
    fn new(unwrap: bool, list_id: bool) -> Batch {
        Batch {
            columns: columns(unwrap, list_id)
                .map(|c| Built::new(c.kind))
                .collect(),
            rows: 0,
            unwrap,
            list_id,
        }
    }

    fn push(&mut self, r: &Record) {
        let row = Row::new(r);
        for (col, built) in columns(self.unwrap, self.list_id).zip(&mut self.columns) {
            built.push((col.get)(&row));
        }
        self.rows += 1;
    }

    fn rows(&self) -> usize {
        self.rows
    }
}

/// Whether a byte is written escaped in a JSON string.
fn escaped(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Appends `s` as a JSON string.
fn json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    // Most strings (URLs, paths, ids) have nothing to escape: sixteen
    // bytes at a time are looked at without a branch per byte.
    let mut clean = 0;
    for chunk in bytes.chunks_exact(16) {
        if chunk.iter().fold(false, |any, &b| any | escaped(b)) {
            break;
        }
        clean += 16;
    }
    let mut from = 0;
    for (i, &b) in bytes.iter().enumerate().skip(clean) {
        let esc: &[u8] = match b {
            b'"' => br#"\""#,
            b'\\' => br"\\",
            b'\n' => br"\n",
            b'\r' => br"\r",
            b'\t' => br"\t",
            0..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[from..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.extend_from_slice(&[HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
        } else {
            out.extend_from_slice(esc);
        }
        from = i + 1;
    }
    out.extend_from_slice(&bytes[from..]);
    out.push(b'"');
}

/// Appends `n` in decimal (`itoa`: the formatting machinery costs more
/// than the digits, for the several integers of each row).
fn json_int(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

/// Appends a record's row as one JSON object: the fields of
/// [`columns`]`(unwrap, false)` in order, nulls written (what Spark's JSON
/// writer writes for the typed row, so the JSON output needs no row
/// conversion in the JVM).
pub fn json_line(r: &Record, unwrap: bool, out: &mut Vec<u8>) {
    let row = Row::new(r);
    out.push(b'{');
    for (k, col) in columns(unwrap, false).enumerate() {
        if k > 0 {
            out.push(b',');
        }
        // A name is a plain identifier: nothing in it is escaped.
        out.push(b'"');
        out.extend_from_slice(col.name.as_bytes());
        out.extend_from_slice(b"\":");
        match (col.get)(&row) {
            Value::Str(Some(v)) => json_str(out, &v),
            Value::Str(None) => out.extend_from_slice(b"null"),
            Value::Int(n) => json_int(out, n),
            Value::Bool(b) => out.extend_from_slice(if b { b"true" } else { b"false" }),
            Value::Time(None) | Value::Bytes(None) => out.extend_from_slice(b"null"),
            Value::Bytes(Some(v)) => match std::str::from_utf8(v) {
                Ok(text) => json_str(out, text),
                Err(_) => {
                    out.extend_from_slice(br#"{"bytes":""#);
                    base64(out, v);
                    out.extend_from_slice(br#""}"#);
                }
            },
            // RFC 3339: nothing in it is escaped.
            Value::Time(Some(t)) => {
                out.push(b'"');
                out.extend_from_slice(t.rfc3339().as_str().as_bytes());
                out.push(b'"');
            }
            Value::Spans(spans) => {
                out.push(b'[');
                for (i, &[a, b]) in spans.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.push(b'[');
                    json_int(out, a);
                    out.push(b',');
                    json_int(out, b);
                    out.push(b']');
                }
                out.push(b']');
            }
            Value::StrList(None) => out.extend_from_slice(b"null"),
            Value::StrList(Some(v)) => {
                out.push(b'[');
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    json_str(out, x);
                }
                out.push(b']');
            }
            Value::Warnings(ws) => {
                out.push(b'[');
                for (i, w) in ws.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(br#"{"code":"#);
                    json_str(out, w.code);
                    out.extend_from_slice(br#","message":"#);
                    json_str(out, &w.message);
                    out.extend_from_slice(br#","offset":"#);
                    json_int(out, w.offset as u64);
                    out.push(b'}');
                }
                out.push(b']');
            }
        }
    }
    out.push(b'}');
}

/// Rows as JSON lines: one `string` column, and with `list_id` a second
/// beside it, each row's `list_id` (the lines stay the rows a write gives:
/// the column is for a reader of the batch, the report, not for the
/// output).
#[derive(Default)]
pub struct JsonBatch {
    /// The lines (no line feeds).
    pub lines: Strings,
    /// Each row's `List-Id`, with `list_id`.
    pub list_ids: Option<Strings>,
    /// Rows so far.
    pub rows: usize,
    unwrap: bool,
}

impl Rows for JsonBatch {
    fn new(unwrap: bool, list_id: bool) -> JsonBatch {
        JsonBatch {
            unwrap,
            list_ids: list_id.then(Strings::default),
            ..JsonBatch::default()
        }
    }

    fn rows(&self) -> usize {
        self.rows
    }

    fn push(&mut self, r: &Record) {
        // Written where it goes: only UTF-8 is written (the record's
        // strings, digits, base64).
        let unwrap = self.unwrap;
        self.lines.push_with(|out| json_line(r, unwrap, out));
        if let Some(ids) = &mut self.list_ids {
            ids.push(r.get().message().and_then(|i| i.list_id()));
        }
        self.rows += 1;
    }
}

/// Standard base64 with padding, as `--json` writes bytes that are not
/// UTF-8. Hand-written: one function of a few lines, where a crate would
/// be a dependency for it alone.
fn base64(out: &mut Vec<u8>, bytes: &[u8]) {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * k)) as usize & 63]);
            } else {
                out.push(b'=');
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_the_command_writes_it() {
        for (bytes, want) in [
            (&b"a\xff"[..], "Yf8="),
            (b"\xff\xfe\xfd", "//79"),
            (b"\xffa\xff\xfe", "/2H//g=="),
            (b"", ""),
        ] {
            let mut out = Vec::new();
            base64(&mut out, bytes);
            assert_eq!(out, want.as_bytes());
        }
    }
    use std::sync::Arc;
    use urlsift::Scanner;

    #[test]
    fn each_column_takes_its_kind_of_value() {
        let text = b"Message-ID: <1@x>\n\n> <URL:HTTP://a.b/~x-\n>   y#frag> <ftp://c.d/>\n";
        let path: Arc<str> = Arc::from("p");
        let recs: Vec<Record> = Scanner::new()
            .extract(text)
            .into_iter()
            .filter_map(|m| Record::new(m, Some(&path)))
            .collect();
        let mut batch = Batch::default();
        for r in &recs {
            batch.push(r);
        }
        assert_eq!(batch.rows, 2);
        let at = |name| COLUMNS.iter().position(|c| c.name == name).unwrap();
        let Built::Str(urls) = &batch.columns[at("url")] else {
            panic!("url is a string")
        };
        assert_eq!(&urls.data[..], b"HTTP://a.b/~x-y#fragftp://c.d/");
        assert_eq!(urls.offsets, [0, 20, 30]);
        let Built::Str(member) = &batch.columns[at("member")] else {
            panic!("member is a string")
        };
        assert_eq!(member.valid.zeros, 2);
        let Built::Spans(offsets, values) = &batch.columns[at("spans")] else {
            panic!("spans")
        };
        assert_eq!(offsets, &[0, 2, 3]);
        assert_eq!(values.len(), 6);
        let Built::Warnings(offsets, codes, _, _) = &batch.columns[at("warnings")] else {
            panic!("warnings")
        };
        assert_eq!(offsets, &[0, 1, 1]);
        assert_eq!(codes.data, b"tilde");
        let Built::Bool(_, broken) = &batch.columns[at("broken")] else {
            panic!("broken")
        };
        assert_eq!(broken.bytes, [0b01]);
        let mut line = Vec::new();
        json_line(&recs[0], false, &mut line);
        let line = String::from_utf8(line).unwrap();
        assert!(
            line.starts_with(r#"{"path":"p","member":null,"line":3,"column":3,"#),
            "{line}"
        );
        assert!(
            line.contains(
                r#""encoding":null,"content_type":null,"anchor":null,"warnings":[{"code":"tilde","message":"#
            ),
            "{line}"
        );
        let mut esc = Vec::new();
        json_str(&mut esc, "a\"b\\c\n\u{1}é");
        assert_eq!(esc, r#""a\"b\\c\n\u0001é""#.as_bytes());
        // Past the first sixteen clean bytes, and at a chunk's end.
        for (text, want) in [
            (
                "0123456789abcdef0123\t\u{1f}",
                r#""0123456789abcdef0123\t\u001f""#,
            ),
            ("0123456789abcde\"", r#""0123456789abcde\"""#),
            ("0123456789abcdef", r#""0123456789abcdef""#),
        ] {
            let mut esc = Vec::new();
            json_str(&mut esc, text);
            assert_eq!(String::from_utf8(esc).unwrap(), want);
        }
        for n in [0, 7, 10, 1234567890, u64::MAX] {
            let mut out = Vec::new();
            json_int(&mut out, n);
            assert_eq!(out, n.to_string().as_bytes());
        }
        let mut json = JsonBatch::default();
        json.push(&recs[1]);
        assert_eq!(json.rows, 1);
        assert_eq!(json.lines.offsets.len(), 2);
    }

    #[test]
    fn unwrap_adds_target_and_via_after_warnings() {
        let names = |u| columns(u, false).map(|c| c.name).collect::<Vec<_>>();
        let (plain, unwrap) = (names(false), names(true));
        assert_eq!(plain, COLUMNS.iter().map(|c| c.name).collect::<Vec<_>>());
        let at = plain.iter().position(|n| *n == "warnings").unwrap() + 1;
        assert_eq!(unwrap[at..at + 2], ["target", "via"]);
        assert_eq!([&unwrap[..at], &unwrap[at + 2..]].concat(), plain);
        let text =
            b"<https://l.facebook.com/l.php?u=https%3A%2F%2Fa.example%2F&h=1> <ftp://c.d/>\n";
        let recs: Vec<Record> = Scanner::new()
            .extract(text)
            .into_iter()
            .filter_map(|m| Record::new(m, None))
            .collect();
        let mut batch = Batch::new(true, false);
        let mut json = JsonBatch::new(true, false);
        for r in &recs {
            batch.push(r);
            json.push(r);
        }
        let Built::Str(targets) = &batch.columns[at] else {
            panic!("target is a string")
        };
        assert_eq!(targets.data, b"https://a.example/");
        assert_eq!(targets.valid.zeros, 1);
        let Built::StrList(valid, offsets, kinds) = &batch.columns[at + 1] else {
            panic!("via is a list of strings")
        };
        assert_eq!((valid.zeros, &offsets[..]), (0, &[0, 1, 1][..]));
        assert_eq!(kinds.data, b"facebook");
        let lines = String::from_utf8(json.lines.data.clone()).unwrap();
        assert!(
            lines.contains(r#""warnings":[],"target":"https://a.example/","via":["facebook"],"message_id":null"#),
            "{lines}"
        );
        assert!(lines.contains(r#""target":null,"via":[],"#), "{lines}");
    }

    #[test]
    fn list_id_is_last_and_beside_the_json_lines() {
        let names = |l| columns(true, l).map(|c| c.name).collect::<Vec<_>>();
        let (plain, with) = (names(false), names(true));
        assert_eq!(with.last(), Some(&"list_id"));
        assert_eq!(with[..with.len() - 1], plain[..]);
        let text = b"From a@b Tue Jan 12 14:02:11 1993\nList-Id: Gopher <g.example.edu>\n\n<ftp://a.b/>\n\nFrom c@d Tue Jan 12 14:02:11 1993\n\n<ftp://c.d/>\n";
        let fields = urlsift::Fields::ALL | urlsift::Fields::LIST_ID;
        let recs: Vec<Record> = Scanner::new()
            .fields(fields)
            .extract(text)
            .into_iter()
            .filter_map(|m| Record::new(m, None))
            .collect();
        let mut batch = Batch::new(false, true);
        let (mut json, mut lines) = (JsonBatch::new(false, true), JsonBatch::new(false, false));
        for r in &recs {
            batch.push(r);
            json.push(r);
            lines.push(r);
        }
        let Some(Built::Str(ids)) = batch.columns.last() else {
            panic!("list_id is a string")
        };
        assert_eq!((&ids.data[..], ids.valid.zeros), (&b"g.example.edu"[..], 1));
        // The lines are the rows without it; the column beside them has it.
        assert_eq!(json.lines.data, lines.lines.data);
        assert!(lines.list_ids.is_none());
        let ids = json.list_ids.as_ref().unwrap();
        assert_eq!(
            (&ids.data[..], &ids.offsets[..]),
            (&b"g.example.edu"[..], &[0, 13, 13][..])
        );
    }
}
