//! Formats matches for the `urlsift` command: plain (`grep -o` style, with
//! optional `path:`, `line:`, `column:` and Message-ID), count,
//! files-with-matches, JSON and rejected candidates (`--invalid`).
//!
//! Nothing from the input reaches the output unescaped: rejected candidate
//! text and Message-IDs in plain output have bytes below 0x20, 0x7f, `\`
//! and non-ASCII written as `\xNN` (`\\` for `\`); JSON strings are
//! escaped by serde_json, plus DEL and the C1 controls as `\u00NN`.
//!
//! File names are data too ([`escape_path`]): printed as text, their
//! control characters (C0, DEL, C1), `\` and bytes that are not UTF-8 are
//! written as `\xNN` (`\\` for `\`), so a name can neither drive the
//! terminal nor forge an output line; in JSON a path that is not UTF-8 is
//! `{"bytes":"<base64>"}`, which gives the name back exactly.

use std::io::Write;
use std::sync::Arc;

use crate::args::{Config, Mode};

pub mod color;
pub mod context;
pub mod picked;
pub mod report;
pub mod tally;
pub mod unwrap;

// What the search hands its matches to: the printer's face to the rest of
// the command (the search never names the printer's modules).
pub use context::{ContextLines, Mark, OwnLines};
pub use picked::line_at;
pub use report::{count as count_report, write as write_report};
pub use tally::Tally;

use color::{Paint, Style};
use urlsift::{Fields, Form, HyphenChoice, Match, MessageInfo};
use urlsift::{Policy, Url};

/// How an input is named in the output.
#[derive(Clone, Debug)]
pub struct InputName {
    /// The path as raw bytes (`(standard input)` for stdin).
    pub display: Vec<u8>,
    /// Standard input (`null` as the JSON path).
    pub stdin: bool,
    /// Whether `path:` goes before each line.
    pub show: bool,
    /// For an archive member: where its names start in `display` (the
    /// archive's path before, `{member}` after, nested ones `{a}{b}`).
    pub member_at: Option<usize>,
    /// `display` as [`escape_path`] writes it, made at its first use (a
    /// name goes before every match: escaping it each time cost a sixth of
    /// formatting a line). Leave it empty (`OnceLock::new()`) and do not
    /// change `display` once the name has been printed.
    pub escaped: std::sync::OnceLock<Box<[u8]>>,
    /// The name's JSON fields (`{"path":...` and `"member":...`), made at
    /// their first use, as `escaped` is.
    pub json: std::sync::OnceLock<Box<[u8]>>,
}

impl InputName {
    /// The input's own path (the archive's, for a member).
    pub fn path(&self) -> &[u8] {
        &self.display[..self.member_at.unwrap_or(self.display.len())]
    }

    /// The name as printed for a person to read (see [`escape_path`]).
    pub fn escaped(&self) -> &[u8] {
        self.escaped.get_or_init(|| {
            let mut v = Vec::with_capacity(self.display.len());
            escape_path(&mut v, &self.display);
            v.into_boxed_slice()
        })
    }

    /// The start of a JSON object for a match in this input: `{"path":`
    /// and the path (`null` for stdin), then `,"member":` and the member's
    /// path when it is one.
    pub fn json_head(&self) -> &[u8] {
        self.json.get_or_init(|| {
            let mut out = Vec::with_capacity(self.display.len() + 24);
            out.extend_from_slice(b"{\"path\":");
            if self.stdin {
                out.extend_from_slice(b"null");
            } else {
                json_path(&mut out, self.path());
            }
            if let Some(member) = self.member() {
                out.extend_from_slice(b",\"member\":");
                json_path(&mut out, member);
            }
            out.into_boxed_slice()
        })
    }

    /// The member's path in its archive (nested: `b.tgz}{c.txt`, so that
    /// `path{member}` is the name printed), if this is a member.
    pub fn member(&self) -> Option<&[u8]> {
        let at = self.member_at?;
        Some(&self.display[at + 1..self.display.len() - 1])
    }
}

/// Formatted output of (part of) one input.
#[derive(Clone, Debug, Default)]
pub struct Recs {
    /// The output lines.
    pub body: Vec<u8>,
    /// With `--unique`, `--tally` or `-m`: each record's key (empty for
    /// `-m` alone) and the end of its bytes in `body` (records in count and
    /// files-with-matches modes are empty).
    pub keys: Vec<(String, usize)>,
    /// Number of records.
    pub count: u64,
    /// Where line numbers stand in `body` when they are relative:
    /// position, length, and the line as the match knew it.
    pub lines: Vec<(usize, usize, u64)>,
    /// Whether line numbers are relative to the piece: one scanned before
    /// the line it starts on is known writes them so, noted in `lines`,
    /// and the writer adds the base.
    pub relative: bool,
    /// The JSON message fields last written and whose they are: the
    /// matches of one message share them, written once.
    pub message_json: Option<(Arc<MessageInfo>, Vec<u8>)>,
    /// With `--report`: the URLs to count.
    pub report: Option<Box<report::Found>>,
}

impl Recs {
    /// Appends `other` (a later part of the same input).
    pub fn append(&mut self, mut other: Recs) {
        if let Some(mine) = self.report.take() {
            let mut all = mine;
            if let Some(theirs) = other.report.take() {
                all.append(theirs);
            }
            other.report = Some(all);
        }
        if self.body.is_empty() && self.keys.is_empty() && self.lines.is_empty() {
            // The common case (one piece per small file): a move, not a copy.
            let count = self.count;
            *self = other;
            self.count += count;
            return;
        }
        let base = self.body.len();
        self.body.extend_from_slice(&other.body);
        self.keys
            .extend(other.keys.into_iter().map(|(k, e)| (k, e + base)));
        self.lines
            .extend(other.lines.into_iter().map(|(p, n, l)| (p + base, n, l)));
        self.count += other.count;
        self.report = other.report;
    }

    /// Writes the body with `base` added to every line number (see
    /// [`Recs::lines`]), piece by piece: no new body.
    pub fn write_shifted(&self, out: &mut dyn std::io::Write, base: u64) -> std::io::Result<()> {
        let mut from = 0;
        for &(pos, len, line) in &self.lines {
            out.write_all(&self.body[from..pos])?;
            out.write_all(itoa::Buffer::new().format(base + line).as_bytes())?;
            from = pos + len;
        }
        out.write_all(&self.body[from..])
    }

    /// Adds `base` to every line number in the body (see [`Recs::lines`]).
    pub fn shift_lines(&mut self, base: u64) {
        if base == 0 || self.lines.is_empty() {
            return;
        }
        let mut body = Vec::with_capacity(self.body.len() + 8 * self.lines.len());
        let mut keys = self.keys.iter_mut().peekable();
        let mut from = 0;
        let mut grown = 0usize;
        for &(pos, len, line) in &self.lines {
            // Keys ending before this line number move by what came before.
            while let Some((_, end)) = keys.next_if(|(_, end)| *end <= pos) {
                *end += grown;
            }
            body.extend_from_slice(&self.body[from..pos]);
            let start = body.len();
            put_int(&mut body, base + line);
            grown = grown + (body.len() - start) - len;
            from = pos + len;
        }
        for (_, end) in keys {
            *end += grown;
        }
        body.extend_from_slice(&self.body[from..]);
        self.body = body;
        self.lines.clear();
    }
}

/// Writes `v` in decimal (a number per match: no formatting machinery).
fn put_int(out: &mut Vec<u8>, v: impl itoa::Integer) {
    out.extend_from_slice(itoa::Buffer::new().format(v).as_bytes());
}

/// Writes the match's line number into `recs`, noting where it stands.
fn put_line(recs: &mut Recs, m: &Match) {
    let pos = recs.body.len();
    put_int(&mut recs.body, m.line());
    if recs.relative {
        recs.lines.push((pos, recs.body.len() - pos, m.line()));
    }
}

/// `seconds:` of a match's message date (`:` alone when unknown), for
/// `--tally`'s first and last dates.
fn put_date(recs: &mut Recs, m: &Match) {
    if let Some((t, _)) = m.message().and_then(MessageInfo::date) {
        put_int(&mut recs.body, t.unix_seconds());
    }
    recs.body.push(b':');
}

/// [`json_message`] for `m`'s message, the bytes of the last message
/// written again when it is the same.
fn put_message(recs: &mut Recs, m: &Match) {
    let Some(info) = m.shared_message() else {
        return json_message(&mut recs.body, None);
    };
    if let Some((last, bytes)) = &recs.message_json {
        if Arc::ptr_eq(last, info) {
            recs.body.extend_from_slice(bytes);
            return;
        }
    }
    let mut bytes = recs.message_json.take().map(|(_, b)| b).unwrap_or_default();
    bytes.clear();
    json_message(&mut bytes, Some(info));
    recs.body.extend_from_slice(&bytes);
    recs.message_json = Some((info.clone(), bytes));
}

/// The message fields of a JSON object: `message_id`, `date` (RFC 3339,
/// UTC), `date_source`, `newsgroups` and `subject` (a string, or
/// `{"bytes":"<base64>"}` when it is not UTF-8), each `null` when not
/// computed or not known.
fn json_message(out: &mut Vec<u8>, info: Option<&MessageInfo>) {
    out.extend_from_slice(b",\"message_id\":");
    json_opt(out, info.and_then(MessageInfo::message_id));
    out.extend_from_slice(b",\"date\":");
    match info.and_then(MessageInfo::date) {
        Some((t, source)) => {
            out.push(b'"');
            out.extend_from_slice(t.rfc3339().as_str().as_bytes());
            out.extend_from_slice(b"\",\"date_source\":\"");
            out.extend_from_slice(source.as_str().as_bytes());
            out.push(b'"');
        }
        None => out.extend_from_slice(b"null,\"date_source\":null"),
    }
    out.extend_from_slice(b",\"newsgroups\":");
    match info.and_then(MessageInfo::newsgroups) {
        Some(groups) => {
            out.push(b'[');
            for (i, g) in groups.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                json_str(out, g);
            }
            out.push(b']');
        }
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"subject\":");
    match info.and_then(MessageInfo::subject) {
        Some(subject) => json_path(out, subject),
        None => out.extend_from_slice(b"null"),
    }
}

/// `line:column:` of a match, for `--tally`'s first place.
fn put_place(recs: &mut Recs, m: &Match) {
    put_line(recs, m);
    let out = &mut recs.body;
    out.push(b':');
    put_int(out, m.column());
    out.push(b':');
}

/// The formatting settings.
#[derive(Clone, Debug)]
pub struct Printer {
    mode: Mode,
    line_number: bool,
    column: bool,
    /// The message fields before each plain URL.
    fields: Fields,
    /// `--tally` shows first and last dates.
    tally_dates: bool,
    /// `--since` and `--until` as UTC seconds (the URLs of messages dated
    /// in `since..until` are kept).
    dates: Option<(i64, i64)>,
    invalid: bool,
    unique: bool,
    hyphen: HyphenChoice,
    schemes: Vec<String>,
    form: Option<Form>,
    policy: Policy,
    /// `-0`: NUL after a printed path instead of `:` or a newline.
    null: bool,
    max_count: Option<u64>,
    style: Style,
    json: bool,
    context: Option<crate::args::Context>,
    /// See [`Printer::keyed`].
    keyed: bool,
    /// `--pick`: records for the picker (see [`picked`]).
    pick: bool,
    /// `--report`: the directory written.
    report: Option<std::path::PathBuf>,
    /// `--unwrap`: a wrapper's target printed in its place.
    unwrap: bool,
}

/// Writes `bytes` with bytes below 0x20, 0x7f, `\` and non-ASCII escaped.
pub fn escape_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        match b {
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x20..=0x7e => out.push(b),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
}

/// Writes a file name for a person to read: UTF-8 text as it is, but
/// control characters (C0, DEL and C1: a line feed would forge an output
/// line, an ESC or CSI drive the terminal), `\` and bytes that are not
/// UTF-8 escaped as [`escape_bytes`] does, so the name can be told back.
pub fn escape_path(out: &mut Vec<u8>, path: &[u8]) {
    // Most names need nothing: one pass to see it.
    if path
        .iter()
        .all(|&b| (0x20..0x7f).contains(&b) && b != b'\\')
    {
        out.extend_from_slice(path);
        return;
    }
    let mut rest = path;
    while !rest.is_empty() {
        let (valid, bad) = match std::str::from_utf8(rest) {
            Ok(text) => (text, 0),
            Err(e) => {
                let (ok, after) = rest.split_at(e.valid_up_to());
                // Known valid: the prefix the error points after.
                let text = std::str::from_utf8(ok).unwrap_or_default();
                (text, e.error_len().unwrap_or(after.len()))
            }
        };
        for c in valid.chars() {
            let mut b = [0u8; 4];
            let bytes = c.encode_utf8(&mut b).as_bytes();
            if c == '\\' || c.is_control() {
                escape_bytes(out, bytes);
            } else {
                out.extend_from_slice(bytes);
            }
        }
        rest = &rest[valid.len()..];
        escape_bytes(out, &rest[..bad]);
        rest = &rest[bad..];
    }
}

/// [`escape_path`] into a `String`.
pub fn escape_path_string(path: &[u8]) -> String {
    let mut v = Vec::new();
    escape_path(&mut v, path);
    String::from_utf8(v).unwrap_or_default()
}

/// Writes `bytes` in standard base64 (RFC 4648, padded).
fn base64(out: &mut Vec<u8>, bytes: &[u8]) {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for group in bytes.chunks(3) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for k in 0..4 {
            if k <= group.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k)) as usize & 63]);
            } else {
                out.push(b'=');
            }
        }
    }
}

/// Writes a path as a JSON value: a string when it is UTF-8 (serde_json's
/// escaping), else `{"bytes":"<base64>"}`, the name exactly (as ripgrep
/// gives a name that is not UTF-8).
pub fn json_path(out: &mut Vec<u8>, path: &[u8]) {
    match std::str::from_utf8(path) {
        Ok(text) => json_str(out, text),
        Err(_) => {
            out.extend_from_slice(b"{\"bytes\":\"");
            base64(out, path);
            out.extend_from_slice(b"\"}");
        }
    }
}

/// Writes `s` as a JSON string (serde_json escaping, and DEL and the C1
/// controls escaped too so no terminal control reaches the output).
pub fn json_str(out: &mut Vec<u8>, s: &str) {
    // Most strings (URLs, paths, dates, names) need no escape at all: told
    // by a test the compiler makes a vector loop, and copied whole.
    if json_plain(s.as_bytes()) {
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
        return;
    }
    // DEL is 0x7f and a C1 control 0xc2 then 0x80-0x9f: most strings have
    // neither byte, found by one vector search.
    let maybe_c1 = memchr::memchr2(0x7f, 0xc2, s.as_bytes()).is_some();
    if maybe_c1 && s.chars().any(|c| ('\u{7f}'..='\u{9f}').contains(&c)) {
        out.push(b'"');
        for c in s.chars() {
            match c {
                '"' => out.extend_from_slice(b"\\\""),
                '\\' => out.extend_from_slice(b"\\\\"),
                '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                _ => {
                    let mut b = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                }
            }
        }
        out.push(b'"');
    } else {
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Whether `b` is printable ASCII with no `"` or `\`: a JSON string as
/// it stands. Most strings written are (URLs, paths, dates, names), and
/// most are short: a string of 16 bytes or more is tested 16 bytes a
/// compare with SSE2 (part of every x86-64 CPU), the last 16 read
/// overlapping the ones before; a shorter one, or one on another CPU, a
/// byte at a time by a table.
fn json_plain(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        return json_plain_sse2(b);
    }
    b.iter().all(|&c| PLAIN[usize::from(c)])
}

/// The bytes [`json_plain`] lets through: printable ASCII but `"` and `\`.
static PLAIN: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0x20;
    while c < 0x7f {
        t[c] = c != b'"' as usize && c != b'\\' as usize;
        c += 1;
    }
    t
};

/// [`json_plain`] of a string of at least 16 bytes.
#[cfg(target_arch = "x86_64")]
fn json_plain_sse2(b: &[u8]) -> bool {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_cmplt_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_set1_epi8,
    };
    debug_assert!(b.len() >= 16);
    // The 16 bytes from `at` that need an escape, as bits. As signed
    // bytes, the controls and every byte from 0x80 on are below 0x20.
    let escapes = |at: usize| -> i32 {
        // SAFETY: SSE2 is part of x86-64, and `at + 16 <= b.len()` at
        // every call below.
        unsafe {
            let v = _mm_loadu_si128(b.as_ptr().add(at).cast());
            let low = _mm_cmplt_epi8(v, _mm_set1_epi8(0x20));
            let del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f));
            let quote = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'"' as i8));
            let backslash = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'\\' as i8));
            _mm_movemask_epi8(_mm_or_si128(
                _mm_or_si128(low, del),
                _mm_or_si128(quote, backslash),
            ))
        }
    };
    let mut at = 0;
    while at + 16 <= b.len() {
        if escapes(at) != 0 {
            return false;
        }
        at += 16;
    }
    at == b.len() || escapes(b.len() - 16) == 0
}

pub(crate) fn json_opt(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => json_str(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// A URL's section 6 warnings as a JSON array of `{code, message, offset}`.
pub(crate) fn json_warnings(out: &mut Vec<u8>, url: &Url<'_>) {
    out.push(b'[');
    for (i, w) in url.warnings().iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"code\":");
        json_str(out, w.kind.code());
        out.extend_from_slice(b",\"message\":");
        json_str(out, &w.kind.to_string());
        out.extend_from_slice(b",\"offset\":");
        put_int(out, w.offset);
        out.push(b'}');
    }
    out.push(b']');
}

/// Adds `"lines":[...]` (each line of `lines`, its end dropped, at most
/// [`context::LINE_CAP`] bytes of it, decoded from `charset`) to the JSON
/// object just written.
fn json_lines_field(out: &mut Vec<u8>, lines: Option<&[u8]>, charset: Option<urlsift::Charset>) {
    let Some(lines) = lines else {
        return;
    };
    if out.ends_with(b"}\n") {
        out.truncate(out.len() - 2);
    }
    out.extend_from_slice(b",\"lines\":[");
    let mut buf = Vec::new();
    for (i, l) in lines.split_inclusive(|&b| b == b'\n').enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let l = l.strip_suffix(b"\n").unwrap_or(l);
        let l = l.strip_suffix(b"\r").unwrap_or(l);
        let l = context::decoded(context::capped(l), charset, &mut buf);
        json_str(out, &String::from_utf8_lossy(l));
    }
    out.extend_from_slice(b"]}\n");
}

/// The scheme name before the first `:` of a candidate, if it is one.
fn candidate_scheme(bytes: &[u8]) -> Option<&[u8]> {
    let k = urlsift::Scheme::name_len(bytes);
    (k > 0 && bytes.get(k) == Some(&b':')).then(|| &bytes[..k])
}

impl Printer {
    /// The printer for a configuration.
    pub fn new(cfg: &Config) -> Printer {
        let mut p = Printer {
            mode: cfg.mode,
            line_number: cfg.line_number,
            column: cfg.column,
            fields: cfg.fields,
            tally_dates: cfg.compute.contains(Fields::DATE),
            dates: (cfg.since.is_some() || cfg.until.is_some()).then(|| {
                (
                    cfg.since.map_or(i64::MIN, |t| t.unix_seconds()),
                    cfg.until.map_or(i64::MAX, |t| t.unix_seconds()),
                )
            }),
            invalid: cfg.invalid,
            unique: cfg.unique,
            hyphen: cfg.hyphen,
            schemes: cfg.schemes.clone(),
            form: cfg.form,
            policy: cfg.policy,
            null: cfg.null,
            max_count: cfg.max_count,
            style: Style::detect(cfg.color, cfg.hyperlink),
            json: cfg.json,
            context: cfg.context,
            keyed: false,
            pick: cfg.pick.is_some(),
            report: cfg.report.clone(),
            unwrap: cfg.unwrap,
        };
        // Context output is not records: ContextLines applies -m itself.
        // (The picker shows each URL once itself, and keys nothing.)
        p.keyed =
            !p.pick && (p.unique || (p.max_count.is_some() && !p.separates_inputs()) || p.tally());
        p
    }

    fn scheme_ok(&self, scheme: Option<&[u8]>) -> bool {
        self.schemes.is_empty()
            || scheme.is_some_and(|s| {
                self.schemes
                    .iter()
                    .any(|w| w.as_bytes().eq_ignore_ascii_case(s))
            })
    }

    /// What stands before a plain record: the prefix, then each message
    /// field asked for (`--fields`, `--message-id`; `-` when unknown) and
    /// a TAB.
    fn lead(&self, recs: &mut Recs, name: &InputName, m: &Match, line: bool) {
        self.prefix(recs, name, m, line);
        if self.fields.is_empty() {
            return;
        }
        let info = m.message();
        let out = &mut recs.body;
        if self.fields.contains(Fields::DATE) {
            match info.and_then(MessageInfo::date) {
                Some((t, _)) => out.extend_from_slice(t.rfc3339().as_str().as_bytes()),
                None => out.push(b'-'),
            }
            out.push(b'\t');
        }
        if self.fields.contains(Fields::NEWSGROUPS) {
            match info.and_then(MessageInfo::newsgroups) {
                Some(groups) => escape_path(out, groups.join(",").as_bytes()),
                None => out.push(b'-'),
            }
            out.push(b'\t');
        }
        if self.fields.contains(Fields::SUBJECT) {
            match info.and_then(MessageInfo::subject) {
                Some(subject) => escape_path(out, subject),
                None => out.push(b'-'),
            }
            out.push(b'\t');
        }
        if self.fields.contains(Fields::MESSAGE_ID) {
            let id = info.and_then(MessageInfo::message_id).unwrap_or("-");
            escape_bytes(out, id.as_bytes());
            out.push(b'\t');
        }
        if self.fields.contains(Fields::LIST_ID) {
            let list = info.and_then(MessageInfo::list_id).unwrap_or("-");
            escape_bytes(out, list.as_bytes());
            out.push(b'\t');
        }
    }

    /// `"list_id"` after the message fields, only when asked for
    /// (`--fields list-id`): the default objects stay as they are.
    fn json_list_id(&self, out: &mut Vec<u8>, m: &Match) {
        if self.fields.contains(Fields::LIST_ID) {
            out.extend_from_slice(b",\"list_id\":");
            json_opt(out, m.message().and_then(MessageInfo::list_id));
        }
    }

    fn prefix(&self, recs: &mut Recs, name: &InputName, m: &Match, line: bool) {
        if self.style.color {
            return self.prefix_coloured(recs, name, m, line);
        }
        let out = &mut recs.body;
        if name.show {
            // With -0 the path goes out as its bytes: a NUL ends it.
            if self.null {
                out.extend_from_slice(&name.display);
                out.push(0);
            } else {
                out.extend_from_slice(name.escaped());
                out.push(b':');
            }
        }
        if line || self.line_number {
            put_line(recs, m);
            recs.body.push(b':');
        }
        let out = &mut recs.body;
        if self.column {
            put_int(out, m.column());
            out.push(b':');
        }
    }

    /// [`Printer::prefix`] in colour (apart: the plain one is the hot path).
    fn prefix_coloured(&self, recs: &mut Recs, name: &InputName, m: &Match, line: bool) {
        let st = self.style;
        let out = &mut recs.body;
        if name.show {
            st.path(out, &name.display);
            out.push(self.path_sep());
        }
        if line || self.line_number {
            st.open(&mut recs.body, Paint::Number);
            put_line(recs, m);
            st.close(&mut recs.body);
            recs.body.push(b':');
        }
        let out = &mut recs.body;
        if self.column {
            st.open(out, Paint::Number);
            put_int(out, m.column());
            st.close(out);
            out.push(b':');
        }
    }

    #[inline(always)]
    fn record(&self, recs: &mut Recs, key: impl FnOnce() -> String) {
        recs.count += 1;
        if self.keyed {
            let key = if self.unique || self.tally() {
                key()
            } else {
                String::new()
            };
            recs.keys.push((key, recs.body.len()));
        }
    }

    /// Whether the records carry keys: for `--unique` and `--tally`, and
    /// for `-m` to cut an input's output after its Nth record.
    pub fn keyed(&self) -> bool {
        self.keyed
    }

    /// With `-A/-B/-C` in plain output: the context printer of an input.
    pub fn context_lines(&self) -> Option<context::ContextLines> {
        let ctx = self.context.filter(|_| self.mode == Mode::Plain)?;
        use std::io::IsTerminal;
        let look = context::Look {
            line_number: self.line_number,
            style: self.style,
            // For a terminal (or as if, with colour): text in its charset.
            decode: self.style.color || std::io::stdout().is_terminal(),
        };
        Some(context::ContextLines::new(ctx, look, self.max_count))
    }

    /// With `-A/-B/-C` and `--json`: each object has its URL's lines.
    pub fn json_lines(&self) -> bool {
        self.context.is_some() && self.mode == Mode::Json
    }

    /// Whether `--since` and `--until` keep `m` (a URL whose message has
    /// no known date is left out when either is given).
    fn dated_ok(&self, m: &Match) -> bool {
        match self.dates {
            None => true,
            Some((since, until)) => m
                .message()
                .and_then(MessageInfo::date)
                .is_some_and(|(t, _)| (since..until).contains(&t.unix_seconds())),
        }
    }

    /// What [`context::ContextLines`] shows of a match: `None` when the
    /// filters drop it.
    pub fn mark(&self, m: &Match) -> Option<context::Mark> {
        if self.form.is_some_and(|f| f != m.form()) || !self.dated_ok(m) {
            return None;
        }
        let link = if self.invalid {
            if m.is_valid() || !self.scheme_ok(candidate_scheme(m.as_bytes())) {
                return None;
            }
            None
        } else {
            if !m.is_valid() {
                return None;
            }
            let first = m
                .readings(self.hyphen)
                .find(|r| self.scheme_ok(candidate_scheme(r)))?;
            self.style.hyperlink.then(|| first.to_vec())
        };
        Some(context::Mark {
            start: m.offset(),
            end: m.end(),
            spans: m.spans().iter().map(|s| (s.start, s.end)).collect(),
            link,
            charset: m.charset(),
        })
    }

    /// `-m`: the most records per input.
    pub fn max_count(&self) -> Option<u64> {
        self.max_count
    }

    /// `--report`: the directory the derivatives and the page go to.
    pub fn report_dir(&self) -> Option<&std::path::Path> {
        self.report.as_deref()
    }

    /// Whether the records are a tally's (`--tally`).
    pub fn tally(&self) -> bool {
        matches!(self.mode, Mode::Tally(_))
    }

    /// The tally the writer keeps with `--tally`.
    pub fn new_tally(&self) -> Option<tally::Tally> {
        match self.mode {
            Mode::Tally(order) => Some(tally::Tally::new(
                order,
                self.json,
                self.style,
                self.tally_dates,
            )),
            _ => None,
        }
    }

    /// Whether the groups of context lines of different inputs are
    /// separated by `--`, as grep separates them.
    pub fn separates_inputs(&self) -> bool {
        self.context.is_some() && self.mode == Mode::Plain
    }

    /// Formats one match (each of its readings that passes the filters)
    /// into `recs`, with its message's fields ([`Match::message`]).
    #[inline]
    pub fn push_match(&self, recs: &mut Recs, name: &InputName, m: &Match) {
        self.push_match_with(recs, name, m, None)
    }

    /// `reading` (one of `m`'s) parsed: the scanner's own parse for the
    /// match's reading, kept with it, else parsed again.
    fn parsed<'m>(&self, m: &'m Match, reading: &'m [u8]) -> Option<Url<'m>> {
        match std::ptr::eq(reading, m.as_bytes()) {
            true if m.policy() == self.policy => m.url(),
            _ => Url::parse_with(reading, self.policy).ok(),
        }
    }

    /// [`Printer::push_match`], with the text of the match's own lines for
    /// JSON's `lines` (see [`Printer::json_lines`]).
    #[inline(always)]
    pub fn push_match_with(
        &self,
        recs: &mut Recs,
        name: &InputName,
        m: &Match,
        lines: Option<&[u8]>,
    ) {
        if self.form.is_some_and(|f| f != m.form()) {
            return;
        }
        if !self.dated_ok(m) {
            return;
        }
        // With -m, a piece never needs more than N records (the writer cuts
        // the input's output at N; with -u the later ones may be needed).
        if let Some(n) = self.max_count {
            if recs.count >= n && !self.unique {
                return;
            }
        }
        if self.invalid {
            if m.is_valid() {
                if self.unwrap {
                    self.push_unwrap_failures(recs, name, m, lines);
                }
                return;
            }
            if !self.scheme_ok(candidate_scheme(m.as_bytes())) {
                return;
            }
            self.push_invalid(recs, name, m, lines);
            return;
        }
        if !m.is_valid() {
            return;
        }
        // Every reading is a URL the scanner validated: its parts are read
        // only where they are printed (JSON) or compared (-u).
        let parse = |reading| self.parsed(m, reading);
        for reading in m.readings(self.hyphen) {
            // With --unwrap, a wrapper's target is what is printed, filtered
            // and counted (the wrapper itself when opaque or undecodable).
            // (An `if`, not `then(..).flatten()`: that moved the large
            // `Option<Unwrapped>` twice for every reading.)
            let unwrapped = if self.unwrap {
                urlsift::wrapped(reading)
            } else {
                None
            };
            let shown = unwrap::shown(unwrapped.as_ref(), reading);
            // (No scheme looked up when there is no --scheme filter.)
            if !self.schemes.is_empty() && !self.scheme_ok(candidate_scheme(shown)) {
                continue;
            }
            // Parsed at most once, when JSON or `-u` first asks.
            let mut url = None;
            let mut parsed = || *url.get_or_insert_with(|| parse(reading));
            if self.pick {
                // The context: an HTML link's text, else the raw line
                // around the URL (`lines`).
                let context = m.anchor().filter(|a| !a.is_empty()).map(str::as_bytes);
                if let Some(url) = parsed() {
                    let context = context.or(lines);
                    picked::push(&mut recs.body, &url, m, reading, context);
                    recs.count += 1;
                }
                continue;
            }
            match self.mode {
                Mode::Count | Mode::FilesWithMatches => {}
                Mode::Report => report::add(recs, name, m, shown),
                Mode::Plain => {
                    self.lead(recs, name, m, false);
                    let out = &mut recs.body;
                    if self.style.any() {
                        self.style.url(out, shown);
                    } else {
                        out.extend_from_slice(shown);
                    }
                    out.push(b'\n');
                }
                Mode::Tally(_) => {
                    // The place, the date and the text as written:
                    // `line:column:seconds:url` (the writer keeps the
                    // first of each key).
                    put_place(recs, m);
                    put_date(recs, m);
                    recs.body.extend_from_slice(shown);
                }
                Mode::Json => match parsed() {
                    Some(url) => {
                        self.json_url(recs, name, m, &url, unwrapped.as_ref());
                        json_lines_field(&mut recs.body, lines, m.charset());
                    }
                    None => continue,
                },
            }
            let same = std::ptr::eq(shown, reading);
            self.record(recs, || {
                let url = if same {
                    parsed()
                } else {
                    Url::parse_with(shown, self.policy).ok()
                };
                match url {
                    Some(url) => url.normalized(),
                    None => String::from_utf8_lossy(shown).into_owned(),
                }
            });
        }
    }

    fn json_head(&self, recs: &mut Recs, name: &InputName, m: &Match, url: &str) {
        let out = &mut recs.body;
        // The name's fields, escaped once an input.
        out.extend_from_slice(name.json_head());
        out.extend_from_slice(b",\"line\":");
        put_line(recs, m);
        let out = &mut recs.body;
        out.extend_from_slice(b",\"column\":");
        put_int(out, m.column());
        out.extend_from_slice(b",\"offset\":");
        put_int(out, m.offset());
        out.extend_from_slice(b",\"url\":");
        json_str(out, url);
        out.extend_from_slice(b",\"form\":");
        json_str(out, m.form().as_str());
    }

    fn json_tail(&self, out: &mut Vec<u8>, m: &Match) {
        out.extend_from_slice(if m.is_broken() {
            b",\"broken\":true,\"hyphen\":"
        } else {
            b",\"broken\":false,\"hyphen\":"
        });
        json_opt(out, m.hyphen().map(|h| h.as_str()));
        out.extend_from_slice(b",\"alternative\":");
        json_opt(out, m.alternative().as_deref());
        out.extend_from_slice(b",\"spans\":[");
        for (i, s) in m.spans().iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.push(b'[');
            put_int(out, s.start);
            out.push(b',');
            put_int(out, s.end);
            out.push(b']');
        }
        out.push(b']');
        // Only for URLs in a MIME part or encoded text, so that the raw
        // reading's objects stay as they were.
        if m.encoding().is_some() || m.content_type().is_some() {
            out.extend_from_slice(b",\"encoding\":");
            json_opt(out, m.encoding().map(|e| e.as_str()));
            out.extend_from_slice(b",\"content_type\":");
            json_opt(out, m.content_type());
        }
        // An HTML link's text, for `href` URLs only.
        if m.form() == Form::Href {
            out.extend_from_slice(b",\"anchor\":");
            json_opt(out, m.anchor());
        }
    }

    fn json_url(
        &self,
        recs: &mut Recs,
        name: &InputName,
        m: &Match,
        url: &Url<'_>,
        unwrapped: Option<&urlsift::Unwrapped>,
    ) {
        self.json_head(recs, name, m, url.as_str());
        let out = &mut recs.body;
        out.extend_from_slice(b",\"scheme\":");
        // (Lowered only when it holds capitals: nearly no scheme does.)
        let scheme = url.scheme();
        if scheme.bytes().any(|b| b.is_ascii_uppercase()) {
            json_str(out, &scheme.to_ascii_lowercase());
        } else {
            json_str(out, scheme);
        }
        out.extend_from_slice(b",\"fragment\":");
        json_opt(out, url.fragment());
        self.json_tail(out, m);
        out.extend_from_slice(b",\"warnings\":");
        json_warnings(out, url);
        if self.unwrap {
            unwrap::json_fields(out, unwrapped);
        }
        put_message(recs, m);
        self.json_list_id(&mut recs.body, m);
        recs.body.extend_from_slice(b"}\n");
    }

    fn push_invalid(&self, recs: &mut Recs, name: &InputName, m: &Match, lines: Option<&[u8]>) {
        let reason = || m.rejection().map(|r| r.to_string()).unwrap_or_default();
        match self.mode {
            Mode::Count | Mode::FilesWithMatches | Mode::Report => {}
            Mode::Tally(_) => {
                put_place(recs, m);
                put_date(recs, m);
                escape_bytes(&mut recs.body, m.as_bytes());
            }
            Mode::Plain => {
                self.lead(recs, name, m, true);
                let out = &mut recs.body;
                self.style.open(out, Paint::Match);
                escape_bytes(out, m.as_bytes());
                self.style.close(out);
                out.push(b'\t');
                out.extend_from_slice(reason().as_bytes());
                out.push(b'\n');
            }
            Mode::Json => {
                self.json_head(recs, name, m, &m.as_str());
                let out = &mut recs.body;
                out.extend_from_slice(b",\"scheme\":null,\"fragment\":null");
                self.json_tail(out, m);
                out.extend_from_slice(b",\"warnings\":[]");
                put_message(recs, m);
                self.json_list_id(&mut recs.body, m);
                let out = &mut recs.body;
                out.extend_from_slice(b",\"reason\":");
                json_str(out, &reason());
                let offset = m.error().map(|e| e.offset());
                match offset {
                    Some(o) => {
                        let _ = writeln!(out, ",\"error_offset\":{o}}}");
                    }
                    None => out.extend_from_slice(b",\"error_offset\":null}\n"),
                }
                json_lines_field(&mut recs.body, lines, m.charset());
            }
        }
        self.record(recs, || String::from_utf8_lossy(m.as_bytes()).into_owned());
    }

    /// The count line of one input (`path:N`, or `N` when paths are not
    /// shown).
    pub fn count_line(&self, out: &mut Vec<u8>, name: &InputName, n: u64) {
        if name.show {
            if self.null {
                out.extend_from_slice(&name.display);
                out.push(0);
            } else {
                self.style.path(out, &name.display);
                out.push(b':');
            }
        }
        let _ = writeln!(out, "{n}");
    }

    /// The files-with-matches line of one input.
    pub fn file_line(&self, out: &mut Vec<u8>, name: &InputName) {
        if self.null {
            out.extend_from_slice(&name.display);
            out.push(0);
        } else {
            self.style.path(out, &name.display);
            out.push(b'\n');
        }
    }

    /// What follows a path before the rest of a line: `:`, or NUL with
    /// `-0` (as `grep -Z`), so that any name can be split off.
    fn path_sep(&self) -> u8 {
        if self.null {
            0
        } else {
            b':'
        }
    }

    /// The output mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether the records are `--pick`'s (see [`picked`]): the search
    /// passes each match the raw line around it.
    pub fn picks(&self) -> bool {
        self.pick
    }

    /// Whether records carry keys for `--unique`.
    pub fn unique(&self) -> bool {
        self.unique
    }

    /// Whether records show line numbers (`-n`, `--json`, `--invalid`).
    pub fn wants_lines(&self) -> bool {
        match self.mode {
            Mode::Json | Mode::Tally(_) => true,
            Mode::Plain => self.line_number || self.invalid,
            Mode::Count | Mode::FilesWithMatches | Mode::Report => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::Args;
    use clap::Parser;
    use urlsift::Scanner;

    fn printer(args: &[&str]) -> Printer {
        let mut v = vec!["urlsift"];
        v.extend_from_slice(args);
        Printer::new(&Args::try_parse_from(v).unwrap().into_config().unwrap())
    }

    fn name(show: bool) -> InputName {
        InputName {
            display: b"dir/a".to_vec(),
            stdin: false,
            show,
            member_at: None,
            escaped: Default::default(),
            json: Default::default(),
        }
    }

    fn run(p: &Printer, text: &[u8], show: bool) -> String {
        let scanner = Scanner::new().rejected(p.invalid);
        let mut recs = Recs::default();
        let info = urlsift::Scanner::new()
            .fields(urlsift::Fields::ALL)
            .extract(b"Message-ID: <1@x>\nSubject: s\xe9\tt\n\n<http://x/>\n")[0]
            .message()
            .cloned()
            .map(std::sync::Arc::new);
        for mut m in scanner.extract(text) {
            m.set_message(info.clone());
            p.push_match(&mut recs, &name(show), &m);
        }
        String::from_utf8(recs.body).unwrap()
    }

    #[test]
    fn plain_prefixes() {
        let t = b"a\n  <URL:http://a.b/c>\n";
        assert_eq!(run(&printer(&[]), t, false), "http://a.b/c\n");
        assert_eq!(run(&printer(&[]), t, true), "dir/a:http://a.b/c\n");
        assert_eq!(
            run(&printer(&["-n", "--column"]), t, true),
            "dir/a:2:3:http://a.b/c\n"
        );
        assert_eq!(
            run(&printer(&["--message-id"]), t, false),
            "<1@x>\thttp://a.b/c\n"
        );
        assert_eq!(
            run(
                &printer(&["--fields", "message-id,subject,date,newsgroups"]),
                t,
                false
            ),
            "-\t-\ts\\xe9\\x09t\t<1@x>\thttp://a.b/c\n"
        );
        assert_eq!(run(&printer(&["--since", "1990-01-01"]), t, false), "");
    }

    #[test]
    fn filters() {
        let t = b"<URL:http://a.b/> <ftp://c.d/> <gopher://e.f/>\n";
        assert_eq!(
            run(&printer(&["--scheme", "FTP,gopher"]), t, false),
            "ftp://c.d/\ngopher://e.f/\n"
        );
        assert_eq!(
            run(&printer(&["--form", "wrapped"]), t, false),
            "http://a.b/\n"
        );
    }

    #[test]
    fn invalid_escaped() {
        let t = b"<http://a\x1b[31m.b/> <x:\xff>\n";
        let out = run(&printer(&["--invalid"]), t, false);
        assert!(out.starts_with("1:http://a\\x1b[31m.b/\t"), "{out}");
        assert!(out.contains("1:x:\\xff\t"), "{out}");
        assert!(!out.bytes().any(|b| b < 0x20 && b != b'\t' && b != b'\n'));
    }

    #[test]
    fn json_object() {
        let out = run(&printer(&["--json"]), b"<URL:HTTP://a.b/~x#f>\n", false);
        let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        assert_eq!(v["path"], "dir/a");
        assert_eq!(v["url"], "HTTP://a.b/~x#f");
        assert_eq!(v["scheme"], "http");
        assert_eq!(v["fragment"], "f");
        assert_eq!(v["form"], "wrapped");
        assert_eq!(v["hyphen"], serde_json::Value::Null);
        assert_eq!(v["spans"][0][0], 5);
        assert_eq!(v["warnings"][0]["code"], "tilde");
        assert_eq!(v["message_id"], "<1@x>");
        assert_eq!(v["date"], serde_json::Value::Null);
        assert_eq!(v["newsgroups"], serde_json::Value::Null);
        // A subject that is not UTF-8 comes as its bytes.
        assert_eq!(v["subject"]["bytes"], "c+kJdA==");
    }

    #[test]
    fn null_ends_paths() {
        let t = b"<URL:http://a.b/c>\n";
        assert_eq!(run(&printer(&["-0"]), t, true), "dir/a\0http://a.b/c\n");
        let p = printer(&["-0", "-l"]);
        let mut out = Vec::new();
        p.file_line(&mut out, &name(true));
        assert_eq!(out, b"dir/a\0");
        let p = printer(&["-0", "-c"]);
        let mut out = Vec::new();
        p.count_line(&mut out, &name(true), 3);
        assert_eq!(out, b"dir/a\x003\n");
    }

    #[test]
    fn member_names_in_json() {
        let member = InputName {
            display: b"a.zip{b.tgz}{c\xff.txt}".to_vec(),
            stdin: false,
            show: true,
            member_at: Some(5),
            escaped: Default::default(),
            json: Default::default(),
        };
        assert_eq!(member.path(), b"a.zip");
        assert_eq!(member.member(), Some(&b"b.tgz}{c\xff.txt"[..]));
        let p = printer(&["--json"]);
        let scanner = Scanner::new();
        let mut recs = Recs::default();
        for m in scanner.extract(b"<URL:http://a.b/>") {
            p.push_match(&mut recs, &member, &m);
        }
        let v: serde_json::Value =
            serde_json::from_str(std::str::from_utf8(&recs.body).unwrap().trim()).unwrap();
        assert_eq!(v["path"], "a.zip");
        // Not UTF-8: as bytes, the way paths are.
        assert_eq!(v["member"]["bytes"], "Yi50Z3p9e2P/LnR4dA==");
        assert_eq!(name(true).member(), None);
    }

    #[test]
    fn paths_escaped_as_text() {
        let esc = |p: &[u8]| escape_path_string(p);
        assert_eq!(esc(b"dir/a.txt"), "dir/a.txt");
        assert_eq!(
            esc("r\u{e9}sum\u{e9} \u{2603}".as_bytes()),
            "r\u{e9}sum\u{e9} \u{2603}"
        );
        assert_eq!(esc(b"a\nb:1:http://x/"), "a\\x0ab:1:http://x/");
        assert_eq!(esc(b"\x1b[2J\x7f\t"), "\\x1b[2J\\x7f\\x09");
        // C1 CSI (U+009B), a lone non-UTF-8 byte, a backslash.
        assert_eq!(esc(b"a\xc2\x9bb\xffc\\d"), "a\\xc2\\x9bb\\xffc\\\\d");
        // A name with a line feed is one line with its prefix.
        let n = InputName {
            display: b"evil\nhttp://forged/".to_vec(),
            ..name(true)
        };
        let p = printer(&["-c"]);
        let mut out = Vec::new();
        p.count_line(&mut out, &n, 3);
        assert_eq!(out, b"evil\\x0ahttp://forged/:3\n");
        out.clear();
        p.file_line(&mut out, &n);
        assert_eq!(out, b"evil\\x0ahttp://forged/\n");
    }

    /// The vector test and the table give what the rule gives, for every
    /// byte at every place around the 16-byte steps.
    #[test]
    fn json_plain_is_the_rule() {
        let rule = |b: &[u8]| {
            b.iter()
                .all(|&c| (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\')
        };
        for len in 0..50 {
            for at in 0..len {
                for c in 0..=255u8 {
                    let mut v = vec![b'a'; len];
                    v[at] = c;
                    assert_eq!(json_plain(&v), rule(&v), "{len} {at} {c}");
                }
            }
            assert!(json_plain(&vec![b'a'; len]));
        }
    }

    #[test]
    fn json_path_string_or_bytes() {
        let json = |p: &[u8]| {
            let mut v = Vec::new();
            json_path(&mut v, p);
            String::from_utf8(v).unwrap()
        };
        assert_eq!(json(b"a/b\nc"), "\"a/b\\nc\"");
        assert_eq!(json(b"a\xff"), r#"{"bytes":"Yf8="}"#);
        assert_eq!(json(b"\xff\xfe\xfd"), r#"{"bytes":"//79"}"#);
        assert_eq!(json(b"\xffa\xff\xfe"), r#"{"bytes":"/2H//g=="}"#);
        let mut v = Vec::new();
        base64(&mut v, b"");
        assert!(v.is_empty());
        base64(&mut v, b"Man");
        assert_eq!(v, b"TWFu");
    }

    #[test]
    fn json_escapes_controls() {
        let mut v = Vec::new();
        json_str(&mut v, "a\u{1b}b\u{7f}c\u{9b}d");
        assert_eq!(v, b"\"a\\u001bb\\u007fc\\u009bd\"");
    }

    proptest::proptest! {
        /// Strings copied whole and strings escaped are written as
        /// serde_json writes them (DEL and C1 controls aside, escaped
        /// above), whatever their length around the 16-byte steps.
        #[test]
        fn json_str_is_serde_json(s in "[ -~\\t\\n\"\\\\é€\\u{1}]{0,40}") {
            let mut v = Vec::new();
            json_str(&mut v, &s);
            proptest::prop_assert_eq!(String::from_utf8(v).unwrap(), serde_json::to_string(&s).unwrap());
        }
    }
}

#[cfg(test)]
mod shift_tests {
    use super::Recs;

    #[test]
    fn shift_lines_moves_numbers_and_keys() {
        let mut r = Recs::default();
        for (line, url) in [(9u64, "a"), (10, "bb")] {
            let pos = r.body.len();
            r.body.extend_from_slice(line.to_string().as_bytes());
            r.lines.push((pos, r.body.len() - pos, line));
            r.body.extend_from_slice(format!(":{url}\n").as_bytes());
            r.keys.push((url.to_string(), r.body.len()));
        }
        let mut w = Vec::new();
        r.write_shifted(&mut w, 990).unwrap();
        assert_eq!(w, b"999:a\n1000:bb\n");
        r.shift_lines(990);
        assert_eq!(r.body, b"999:a\n1000:bb\n");
        assert_eq!(r.keys, [("a".to_string(), 6), ("bb".to_string(), 14)]);
        assert!(r.lines.is_empty());
    }
}
