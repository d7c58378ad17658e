//! `urlsift._urlsift`, the extension module of the Python package `urlsift`:
//! thin bindings over the library. [`extract`] scans bytes or text in
//! memory, [`extract_file`] streams a file with the library's `Extractor`,
//! [`extract_stream`] a Python binary file object (see `pyio`), [`parse`]
//! parses one URL; matches carry the command's `--json` fields.
//! [`scan_arrow`] gives the matches as Arrow column buffers (see
//! `columns`) for the Spark job. The GIL is released while the library
//! scans.
#![deny(missing_docs)]

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::create_exception;
use pyo3::exceptions::{PyOSError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};

use urlsift::{Policy, Scanner, Url};

mod columns;
mod options;
mod pyio;
mod record;
mod report;
mod scan;

use options::Options;
use record::{Record, WarningRecord};
use scan::FileScan;
use urlsift_archive::archive::ReadAt;

create_exception!(
    urlsift,
    URLError,
    PyValueError,
    "Not a URL by RFC 1738. `input` is the text given, `offset` the byte \
     where it stops matching, `rule` the section 5 production being matched \
     there and `reason` what went wrong."
);

create_exception!(
    urlsift,
    DamageWarning,
    PyUserWarning,
    "A file that could not be read to its end, warned of (with \
     `errors=\"warn\"`) after the URLs of the bytes before the damage."
);

/// Records handed to Python per release of the GIL.
pub(crate) const BATCH: usize = 1024;

/// Records a `FileMatches` iterator reads ahead per release of the GIL:
/// few, so that the records made into `Match` objects are still in the
/// caches (and their allocations reused) when Python takes them; reading
/// ahead [`BATCH`] cost the iteration about 3% more.
const AHEAD: usize = 64;

/// Records an `extract_file` iterator gives from the file scanned in place
/// before it moves the scan to a thread of its own ([`FileScan::read_ahead`]),
/// which then makes the next records while Python turns the ones before
/// into objects. A file with fewer is over before a thread would pay for
/// itself (starting one costs about what scanning a news article does);
/// counted in records, not bytes, as a compressed file's size says little.
const READ_AHEAD_AFTER: usize = 4 * AHEAD;

/// The scanner for the keyword options, reading the message fields
/// `fields` gives ([`fields_arg`]) and each message's `List-Id:` too when
/// `list_id`; with it, whether the matches show their `list_id` (asked
/// for either way).
fn scanner_with(
    naked: bool,
    raw: bool,
    strict: bool,
    html: &str,
    fields: Option<&Bound<'_, PyAny>>,
    list_id: bool,
) -> PyResult<(Scanner, bool)> {
    let s = scanner(naked, raw, strict, html)?;
    let mut wanted = fields_arg(fields)?;
    if list_id {
        wanted |= urlsift::Fields::LIST_ID;
    }
    let list_id = wanted.contains(urlsift::Fields::LIST_ID);
    Ok((s.fields(wanted), list_id))
}

/// `fields=`: the message fields read, as the command's `--fields` takes
/// them. `None` gives `--json`'s four (date, newsgroups, subject,
/// message-id); else a comma-separated `str` or an iterable of names
/// (`message_id` and `message-id` alike), `"none"` or empty for none.
/// A field not read is `None` on every match (`to_dict` keeps its key, as
/// `--json --fields` does), and reading none spares the scan the walk of
/// every header.
fn fields_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<urlsift::Fields> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(urlsift::Fields::ALL);
    };
    let names: Vec<String> = match value.downcast::<PyString>() {
        Ok(s) => s.to_cow()?.split(',').map(str::to_owned).collect(),
        Err(_) => value
            .try_iter()
            .map_err(|_| {
                PyTypeError::new_err(
                    "fields= takes None, a str such as \"date,subject\" or an iterable of names",
                )
            })?
            .map(|n| n?.extract::<String>())
            .collect::<PyResult<_>>()?,
    };
    let mut wanted = urlsift::Fields::NONE;
    for name in names.iter().map(|n| n.trim()) {
        if name.is_empty() || name.eq_ignore_ascii_case("none") {
            continue;
        }
        let one: urlsift::Fields = name.replace('_', "-").parse().map_err(|_| {
            PyValueError::new_err(format!(
                "fields=: unknown field '{name}' (known: date, newsgroups, subject, message_id, list_id)"
            ))
        })?;
        wanted |= one;
    }
    Ok(wanted)
}

/// The scanner for the keyword options.
fn scanner(naked: bool, raw: bool, strict: bool, html: &str) -> PyResult<Scanner> {
    let html = options::html_mode(html).map_err(PyValueError::new_err)?;
    Ok(Options {
        naked,
        raw,
        strict,
        html,
    }
    .scanner())
}

/// A read or open error as Python's `OSError` (its subclass for the errno),
/// naming the file.
fn os_error(e: std::io::Error, path: &str) -> PyErr {
    match e.raw_os_error() {
        Some(code) => PyOSError::new_err((code, e.to_string(), path.to_owned())),
        None => PyOSError::new_err(format!("{path}: {e}")),
    }
}

/// A read error met after a file was opened, as `os_error` gives it, with
/// `damages`: a list of `(member, error)`, one per failure (`member`
/// `None` for the file itself), for a caller that lists them.
fn read_error(py: Python<'_>, e: std::io::Error, path: &str) -> PyErr {
    let failures = scan::failures(&e);
    let err = os_error(e, path);
    let list: Vec<(Option<String>, String)> =
        failures.into_iter().map(|f| (f.member, f.error)).collect();
    // Setting an attribute on a fresh OSError does not fail; if it did,
    // the error itself still says what went wrong.
    let _ = err.value(py).setattr("damages", list);
    err
}

/// What `errors=` says to do when a file cannot be read to its end, after
/// the URLs of the bytes before the damage: as Python's codecs name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnError {
    /// Raise `OSError` (the default).
    Strict,
    /// Warn (`DamageWarning`) and end the iteration.
    Warn,
    /// End the iteration quietly.
    Ignore,
}

impl OnError {
    fn parse(value: &str) -> PyResult<OnError> {
        match value {
            "strict" => Ok(OnError::Strict),
            "warn" => Ok(OnError::Warn),
            "ignore" => Ok(OnError::Ignore),
            other => Err(PyValueError::new_err(format!(
                "errors={other:?}: expected 'strict', 'warn' or 'ignore'"
            ))),
        }
    }
}

/// `s` as a Python string: one made once a process for the words most
/// values of [`PyMatch::to_dict`] are (forms, hyphen decisions, date
/// sources, the common schemes), a new one for any other.
fn word<'py>(py: Python<'py>, s: &str) -> Bound<'py, PyString> {
    let known = match s {
        "http" => intern!(py, "http"),
        "https" => intern!(py, "https"),
        "ftp" => intern!(py, "ftp"),
        "mailto" => intern!(py, "mailto"),
        "news" => intern!(py, "news"),
        "nntp" => intern!(py, "nntp"),
        "gopher" => intern!(py, "gopher"),
        "telnet" => intern!(py, "telnet"),
        "file" => intern!(py, "file"),
        "wais" => intern!(py, "wais"),
        "prospero" => intern!(py, "prospero"),
        "wrapped" => intern!(py, "wrapped"),
        "bracketed" => intern!(py, "bracketed"),
        "naked" => intern!(py, "naked"),
        "href" => intern!(py, "href"),
        "kept" => intern!(py, "kept"),
        "dropped" => intern!(py, "dropped"),
        "mixed" => intern!(py, "mixed"),
        "date" => intern!(py, "date"),
        "posted" => intern!(py, "posted"),
        "nntp-posting-date" => intern!(py, "nntp-posting-date"),
        "from-line" => intern!(py, "from-line"),
        _ => return PyString::new(py, s),
    };
    known.clone()
}

/// Which of the optional keys of [`PyMatch::to_dict`] a match has (as
/// `--json` writes them: a member's path, a MIME part's fields, a link's
/// text, `unwrap=True`'s and `list_id=True`'s).
#[derive(Clone, Copy)]
struct DictShape {
    member: bool,
    mime: bool,
    href: bool,
    unwrap: bool,
    list_id: bool,
}

impl DictShape {
    /// The keys of a dict of this shape, in `--json`'s order: the output's
    /// fields ([`columns::columns`], the one list of them) less the
    /// optional ones this shape has not.
    fn keys(self) -> impl Iterator<Item = &'static str> {
        columns::columns(self.unwrap, self.list_id)
            .map(|c| c.name)
            .filter(move |&name| match name {
                "member" => self.member,
                "encoding" | "content_type" => self.mime,
                "anchor" => self.href,
                _ => true,
            })
    }

    /// The shape's place among the 32, a bit a key (and back).
    fn index(self) -> usize {
        usize::from(self.member)
            | usize::from(self.mime) << 1
            | usize::from(self.href) << 2
            | usize::from(self.unwrap) << 3
            | usize::from(self.list_id) << 4
    }

    fn from_index(i: usize) -> DictShape {
        DictShape {
            member: i & 1 != 0,
            mime: i & 2 != 0,
            href: i & 4 != 0,
            unwrap: i & 8 != 0,
            list_id: i & 16 != 0,
        }
    }

    /// A dict with this shape's keys (interned) in order, each `None`;
    /// made once a process for each of the 32 shapes.
    fn template<'py>(self, py: Python<'py>) -> PyResult<&'py Bound<'py, PyDict>> {
        static TEMPLATES: pyo3::sync::GILOnceCell<Vec<Py<PyDict>>> = pyo3::sync::GILOnceCell::new();
        let all = TEMPLATES.get_or_try_init(py, || {
            (0..32usize)
                .map(|i| {
                    let d = PyDict::new(py);
                    for key in DictShape::from_index(i).keys() {
                        d.set_item(PyString::intern(py, key), py.None())?;
                    }
                    Ok(d.unbind())
                })
                .collect::<PyResult<Vec<_>>>()
        })?;
        Ok(all[self.index()].bind(py))
    }
}

fn warnings_list<'py>(py: Python<'py>, ws: &[WarningRecord]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for w in ws {
        let d = PyDict::new(py);
        d.set_item(intern!(py, "code"), w.code)?;
        d.set_item(intern!(py, "message"), &w.message)?;
        d.set_item(intern!(py, "offset"), w.offset)?;
        list.append(d)?;
    }
    Ok(list)
}

/// One URL found in text, with the fields of the command's `--json` output
/// (same names, same values, `None` for `null`).
#[pyclass(frozen, eq, name = "Match", module = "urlsift")]
#[derive(PartialEq)]
pub struct PyMatch {
    rec: Record,
    /// `unwrap=True`: `target` and `via` computed (and in `to_dict`).
    unwrap: bool,
    /// `list_id=True`: the `List-Id` read (and in `to_dict`).
    list_id: bool,
}

#[pymethods]
impl PyMatch {
    /// The file's path (`None` for data given in memory).
    #[getter]
    fn path(&self) -> Option<&str> {
        self.rec.path.as_deref()
    }
    /// In an archive: the member's path inside it (nested archives'
    /// names joined by `}{`), `None` for a plain file.
    #[getter]
    fn member(&self) -> Option<&str> {
        self.rec.member.as_deref()
    }
    /// 1-based line of the opening `<`.
    #[getter]
    fn line(&self) -> u64 {
        self.rec.get().line()
    }
    /// 1-based byte column of the opening `<`.
    #[getter]
    fn column(&self) -> u64 {
        self.rec.get().column()
    }
    /// Byte offset of the opening `<` (of the UTF-8 bytes, for `str` input).
    #[getter]
    fn offset(&self) -> u64 {
        self.rec.get().offset()
    }
    /// The URL: joined across lines, quote prefixes and whitespace removed.
    #[getter]
    fn url(&self) -> &str {
        self.rec.url()
    }
    /// `"wrapped"` (`<URL:...>`) or `"bracketed"` (`<scheme:...>`).
    #[getter]
    fn form(&self) -> &str {
        self.rec.get().form().as_str()
    }
    /// The scheme in lower case.
    #[getter]
    fn scheme(&self) -> std::borrow::Cow<'_, str> {
        self.rec.scheme()
    }
    /// The fragment after `#`, if any.
    #[getter]
    fn fragment(&self) -> Option<String> {
        self.rec.fragment()
    }
    /// Whether the URL crossed a line break.
    #[getter]
    fn broken(&self) -> bool {
        self.rec.get().is_broken()
    }
    /// `"kept"`, `"dropped"` or `"mixed"` when a line break followed `-`.
    #[getter]
    fn hyphen(&self) -> Option<&str> {
        self.rec.get().hyphen().map(|h| h.as_str())
    }
    /// The hyphen-dropped reading when both readings are valid.
    #[getter]
    fn alternative(&self) -> Option<String> {
        self.rec.get().alternative().map(|a| a.into_owned())
    }
    /// The source byte ranges `(start, end)` the URL was joined from.
    #[getter]
    fn spans(&self) -> Vec<(u64, u64)> {
        self.rec.spans()
    }
    /// Section 6 warnings: dicts with `code`, `message`, `offset`.
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ws = self.rec.parsed().map(|u| record::warnings(&u));
        warnings_list(py, ws.as_deref().unwrap_or_default())
    }
    /// How the text holding the URL was encoded (`"qp"`, `"base64"`), or
    /// `None` for text as written.
    #[getter]
    fn encoding(&self) -> Option<&'static str> {
        self.rec.get().encoding().map(|e| e.as_str())
    }
    /// The content type of the MIME part holding the URL, or `None` in plain
    /// top-level text.
    #[getter]
    fn content_type(&self) -> Option<&str> {
        self.rec.get().content_type()
    }
    /// The text of the HTML link (`<a href>`) the URL is the `href` of:
    /// blanks collapsed, at most 200 characters, decoded from the part's
    /// charset; `""` for a link with no text, `None` for other URLs.
    #[getter]
    fn anchor(&self) -> Option<&str> {
        self.rec.get().anchor()
    }
    /// The Message-ID of the message holding the URL (the innermost
    /// forwarded one in a forwarded message), or `None`.
    #[getter]
    fn message_id(&self) -> Option<&str> {
        self.rec.message_id()
    }
    /// The date of the message holding the URL as a timezone-aware
    /// `datetime` in UTC (from `Date:`, else `Posted:`, else
    /// `NNTP-Posting-Date:`, else the mbox `From ` line), or `None`.
    #[getter]
    fn date<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some((t, _)) = self.rec.get().message().and_then(|i| i.date()) else {
            return Ok(None);
        };
        let dt = py.import("datetime")?;
        let utc = dt.getattr("timezone")?.getattr("utc")?;
        let epoch = dt
            .getattr("datetime")?
            .call1((1970, 1, 1, 0, 0, 0, 0, utc))?;
        let delta = dt.getattr("timedelta")?.call1((0, t.unix_seconds()))?;
        Ok(Some(epoch.call_method1("__add__", (delta,))?))
    }
    /// Which header the date was read from: `"date"`, `"posted"`,
    /// `"nntp-posting-date"` or `"from-line"`, or `None`.
    #[getter]
    fn date_source(&self) -> Option<&'static str> {
        let (_, source) = self.rec.get().message()?.date()?;
        Some(source.as_str())
    }
    /// The groups of the message's `Newsgroups:`, or `None`.
    #[getter]
    fn newsgroups(&self) -> Option<Vec<&str>> {
        let groups = self.rec.get().message()?.newsgroups()?;
        Some(groups.iter().map(|g| &**g).collect())
    }
    /// The message's `Subject:`, RFC 2047 encoded words decoded; bytes
    /// that are not UTF-8 as lone surrogates (`surrogateescape`, so
    /// `subject.encode("utf-8", "surrogateescape")` gives them back), or
    /// `None`.
    #[getter]
    fn subject<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(subject) = self.rec.get().message().and_then(|i| i.subject()) else {
            return Ok(None);
        };
        let s = PyBytes::new(py, subject).call_method1("decode", ("utf-8", "surrogateescape"))?;
        Ok(Some(s))
    }
    /// With `list_id=True`: the list identifier of the message's
    /// `List-Id:` (RFC 2919; the text between its angle brackets), or
    /// `None`; `None` without `list_id=True`.
    #[getter]
    fn list_id(&self) -> Option<&str> {
        self.rec.get().message()?.list_id()
    }

    /// With `unwrap=True`: where the link goes when it is a known wrapper
    /// (Safe Links, Proofpoint, ...: docs/unwrap.md), else `None` (as for an
    /// opaque wrapper, or one whose target is no URL); `None` without
    /// `unwrap=True`.
    #[getter]
    fn target(&self) -> Option<String> {
        if !self.unwrap {
            return None;
        }
        urlsift::unwrap(self.rec.url()).target().map(str::to_owned)
    }
    /// With `unwrap=True`: the kinds of wrapper the link goes through,
    /// outermost first (`["safelinks", "proofpoint-v3"]`, `[]` for most
    /// links); `None` without `unwrap=True`.
    #[getter]
    fn via(&self) -> Option<Vec<&'static str>> {
        self.unwrap
            .then(|| urlsift::unwrap(self.rec.url()).via().collect())
    }

    /// The fields as a dict equal to the command's `--json` object
    /// (`spans` as lists of two; with `unwrap=True`, `--json --unwrap`'s;
    /// with `list_id=True`, `list_id` last, as `--json --fields
    /// date,newsgroups,subject,message-id,list-id` adds it).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let r = &self.rec;
        let m = r.get();
        let url = r.parsed();
        // A copy of a dict with this match's keys in order (interned: made
        // once, not a string each a dict), whose values are then replaced:
        // no key is added and the dict is never resized.
        let shape = DictShape {
            member: r.member.is_some(),
            mime: m.encoding().is_some() || m.content_type().is_some(),
            href: m.form() == urlsift::Form::Href,
            unwrap: self.unwrap,
            list_id: self.list_id,
        };
        let d = shape.template(py)?.copy()?;
        d.set_item(intern!(py, "path"), r.path.as_deref())?;
        // As in `--json`: only for a member of an archive.
        if let Some(member) = &r.member {
            d.set_item(intern!(py, "member"), &**member)?;
        }
        d.set_item(intern!(py, "line"), m.line())?;
        d.set_item(intern!(py, "column"), m.column())?;
        d.set_item(intern!(py, "offset"), m.offset())?;
        d.set_item(intern!(py, "url"), r.url())?;
        d.set_item(intern!(py, "form"), word(py, m.form().as_str()))?;
        d.set_item(intern!(py, "scheme"), word(py, &r.scheme()))?;
        d.set_item(
            intern!(py, "fragment"),
            url.as_ref().and_then(|u| u.fragment()),
        )?;
        d.set_item(intern!(py, "broken"), m.is_broken())?;
        d.set_item(
            intern!(py, "hyphen"),
            m.hyphen().map(|h| word(py, h.as_str())),
        )?;
        d.set_item(intern!(py, "alternative"), m.alternative())?;
        let spans: Vec<[u64; 2]> = m.spans().iter().map(|s| [s.start, s.end]).collect();
        d.set_item(intern!(py, "spans"), spans)?;
        // As in `--json`: only for a URL in a MIME part or encoded text.
        if shape.mime {
            d.set_item(intern!(py, "encoding"), m.encoding().map(|e| e.as_str()))?;
            d.set_item(intern!(py, "content_type"), m.content_type())?;
        }
        // As in `--json`: only for an `href` URL.
        if shape.href {
            d.set_item(intern!(py, "anchor"), m.anchor())?;
        }
        let ws = url.as_ref().map(record::warnings).unwrap_or_default();
        d.set_item(intern!(py, "warnings"), warnings_list(py, &ws)?)?;
        if shape.unwrap {
            let u = urlsift::unwrap(r.url());
            d.set_item(intern!(py, "target"), u.target())?;
            d.set_item(intern!(py, "via"), u.via().collect::<Vec<_>>())?;
        }
        d.set_item(intern!(py, "message_id"), r.message_id())?;
        let date = self.rec.get().message().and_then(|i| i.date());
        d.set_item(
            intern!(py, "date"),
            date.map(|(t, _)| t.rfc3339()).as_ref().map(|t| t.as_str()),
        )?;
        d.set_item(
            intern!(py, "date_source"),
            self.date_source().map(|s| word(py, s)),
        )?;
        d.set_item(intern!(py, "newsgroups"), self.newsgroups())?;
        // As in `--json`: a subject that is not UTF-8 as `{"bytes": base64}`.
        let subject = self.rec.get().message().and_then(|i| i.subject());
        match subject.map(std::str::from_utf8) {
            None => d.set_item(intern!(py, "subject"), py.None())?,
            Some(Ok(s)) => d.set_item(intern!(py, "subject"), s)?,
            Some(Err(_)) => {
                let b64 = py
                    .import("base64")?
                    .call_method1(
                        "b64encode",
                        (PyBytes::new(py, subject.unwrap_or_default()),),
                    )?
                    .call_method1("decode", ("ascii",))?;
                let bytes = PyDict::new(py);
                bytes.set_item(intern!(py, "bytes"), b64)?;
                d.set_item(intern!(py, "subject"), bytes)?;
            }
        }
        if shape.list_id {
            d.set_item(intern!(py, "list_id"), self.list_id())?;
        }
        Ok(d)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        // Python's own quoting, so that the repr reads as Python.
        let q = |s: &str| -> PyResult<String> { Ok(PyString::new(py, s).repr()?.to_string()) };
        let r = &self.rec;
        let path = match &r.path {
            Some(p) => format!("path={}, ", q(p)?),
            None => String::new(),
        };
        Ok(format!(
            "Match({path}line={}, column={}, url={}, form={})",
            r.get().line(),
            r.get().column(),
            q(r.url())?,
            q(r.get().form().as_str())?
        ))
    }

    fn __str__(&self) -> &str {
        self.rec.url()
    }
}

/// Finds the URLs in `data` (`bytes`, `bytearray` or `str`) the way the
/// command does: a list of `Match`. Offsets and columns count bytes (the
/// UTF-8 bytes of a `str`). `strict` validates exactly by the grammar,
/// `naked` also takes URLs without brackets, `raw` reads every byte as
/// text (no MIME), `html` says which HTML parts are read (`"fallback"`,
/// `"always"`, `"never"`), `unwrap` gives each match its `target` and `via`
/// (where a wrapped link goes), `list_id` its message's `list_id`.
/// `fields` names the message fields read, as the command's `--fields`
/// takes them (`"date,subject"`, or an iterable of names; `"none"` or
/// empty for none): by default `--json`'s four, `date`, `newsgroups`,
/// `subject` and `message_id`. A field not read is `None` on every match;
/// reading none scans faster (no header is walked for them).
#[pyfunction]
#[pyo3(signature = (data, *, naked=false, raw=false, strict=false, html="fallback", unwrap=false, list_id=false, fields=None))]
#[allow(clippy::too_many_arguments)]
fn extract(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    naked: bool,
    raw: bool,
    strict: bool,
    html: &str,
    unwrap: bool,
    list_id: bool,
    fields: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PyMatch>> {
    let (scanner, list_id) = scanner_with(naked, raw, strict, html, fields, list_id)?;
    let recs = if let Ok(b) = data.downcast::<PyBytes>() {
        let bytes = b.as_bytes();
        py.allow_threads(|| scan::extract_bytes(bytes, scanner))
    } else if let Ok(s) = data.downcast::<PyString>() {
        let text = s.to_cow()?;
        let bytes = text.as_bytes();
        py.allow_threads(|| scan::extract_bytes(bytes, scanner))
    } else if let Ok(b) = data.downcast::<PyByteArray>() {
        // A copy: a bytearray may change while the GIL is released.
        let bytes = b.to_vec();
        py.allow_threads(|| scan::extract_bytes(&bytes, scanner))
    } else {
        return Err(PyTypeError::new_err(format!(
            "extract() takes bytes or str, not {}",
            data.get_type().name()?
        )));
    };
    Ok(recs
        .into_iter()
        .map(|rec| PyMatch {
            rec,
            unwrap,
            list_id,
        })
        .collect())
}

/// The state of a file being scanned and the records read ahead.
struct FileState {
    scan: FileScan,
    ready: VecDeque<Record>,
    /// Records read so far while the scan may still move to a thread;
    /// `None` once it may not (it did, or the source is read through
    /// Python, which a thread would contend with for the GIL).
    until_ahead: Option<usize>,
}

/// An iterator over the URLs of one file, which it streams in bounded
/// memory (see `extract_file`). Frozen (its state is behind its own
/// mutexes): each `__next__` then takes `self` without PyO3's borrow
/// flag.
#[pyclass(frozen, name = "FileMatches", module = "urlsift")]
pub struct FileMatches {
    /// Boxed: the scanner's state holds SIMD values aligned to 32 bytes,
    /// more than Python's allocator gives a class instance (16), and a Box
    /// is allocated with the alignment its contents ask.
    state: Box<Mutex<FileState>>,
    path: Arc<str>,
    /// `unwrap=True`.
    unwrap: bool,
    /// `list_id=True`.
    list_id: bool,
    errors: OnError,
    /// `(member, error)` of each failure met, whatever `errors` says.
    damages: Mutex<Vec<(Option<String>, String)>>,
}

// No class instance may hold what needs more alignment than 16 bytes.
const _: () = assert!(std::mem::align_of::<FileMatches>() <= 16);
const _: () = assert!(std::mem::align_of::<PyMatch>() <= 16);

#[pymethods]
impl FileMatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<PyMatch>> {
        // The records read ahead, without giving up the GIL; the mutex is
        // only waited for with the GIL released (a thread scanning holds
        // it while it does not hold the GIL).
        if let Ok(mut st) = self.state.try_lock() {
            if let Some(rec) = st.ready.pop_front() {
                return Ok(Some(PyMatch {
                    rec,
                    unwrap: self.unwrap,
                    list_id: self.list_id,
                }));
            }
        }
        let next = py.allow_threads(|| {
            let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let FileState {
                scan,
                ready,
                until_ahead,
            } = &mut *st;
            if ready.is_empty() {
                if let Some(n) = until_ahead {
                    if *n >= READ_AHEAD_AFTER {
                        *until_ahead = None;
                        scan.read_ahead()?;
                    }
                }
                scan.next_batch(AHEAD, ready)?;
                if let Some(n) = until_ahead {
                    *n += ready.len();
                }
            }
            Ok::<_, std::io::Error>(ready.pop_front())
        });
        let e = match next {
            Ok(rec) => {
                return Ok(rec.map(|rec| PyMatch {
                    rec,
                    unwrap: self.unwrap,
                    list_id: self.list_id,
                }))
            }
            Err(e) => e,
        };
        let err = read_error(py, e, &self.path);
        if let Ok(list) = err.value(py).getattr("damages")?.extract() {
            *self.damages.lock().unwrap_or_else(|e| e.into_inner()) = list;
        }
        match self.errors {
            OnError::Strict => Err(err),
            OnError::Warn => {
                let category = py.get_type::<DamageWarning>();
                let message = err.value(py).str()?.to_string();
                PyErr::warn(py, &category, &std::ffi::CString::new(message)?, 1)?;
                Ok(None)
            }
            OnError::Ignore => Ok(None),
        }
    }

    /// The failures met so far, `(member, error)` each (`member` `None`
    /// for the file itself): empty while the file reads well.
    #[getter]
    fn damages(&self) -> Vec<(Option<String>, String)> {
        self.damages
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let path = PyString::new(py, &self.path).repr()?;
        Ok(format!("<urlsift.FileMatches {path}>"))
    }
}

/// Streams the file at `path` as the command reads it (compressed streams
/// decoded, the members of zip and tar archives searched one by one, each
/// match's `member` saying which) and iterates over its URLs: `Match` objects whose `path` is `path` as
/// given. Memory stays bounded whatever the file's size. Options as for
/// `extract`; a file that cannot be opened raises `OSError` at once.
/// `name`, when given, is the matches' `path` instead. A file damaged
/// further on (a compressed stream cut short, a bad archive member) gives
/// every URL of the bytes before the damage, as the command does, then
/// `errors` says what follows: `"strict"` raises `OSError` (its `damages`
/// lists `(member, error)` per failure), `"warn"` warns (`DamageWarning`)
/// and ends, `"ignore"` ends; the iterator's `damages` lists them in
/// every case. A file that has given a few hundred URLs is scanned on
/// a thread of its own from there. `fields` as for `extract`.
#[pyfunction]
#[pyo3(signature = (path, *, name=None, naked=false, raw=false, strict=false, html="fallback", unwrap=false, errors="strict", list_id=false, fields=None))]
#[allow(clippy::too_many_arguments)]
fn extract_file(
    py: Python<'_>,
    path: PathBuf,
    name: Option<String>,
    naked: bool,
    raw: bool,
    strict: bool,
    html: &str,
    unwrap: bool,
    errors: &str,
    list_id: bool,
    fields: Option<&Bound<'_, PyAny>>,
) -> PyResult<FileMatches> {
    let (scanner, list_id) = scanner_with(naked, raw, strict, html, fields, list_id)?;
    let errors = OnError::parse(errors)?;
    let name: Arc<str> = match name {
        Some(n) => Arc::from(n),
        None => Arc::from(path.to_string_lossy()),
    };
    let scan = py
        .allow_threads(|| FileScan::open(&path, name.clone(), scanner))
        .map_err(|e| os_error(e, &name))?;
    Ok(FileMatches::new(
        scan,
        name,
        (unwrap, list_id),
        errors,
        true,
    ))
}

impl FileMatches {
    /// `extra`: `(unwrap, list_id)`; `read_ahead`: whether the scan may
    /// move to a thread (a source read natively, not through Python).
    fn new(
        scan: FileScan,
        path: Arc<str>,
        extra: (bool, bool),
        errors: OnError,
        read_ahead: bool,
    ) -> FileMatches {
        let (unwrap, list_id) = extra;
        FileMatches {
            state: Box::new(Mutex::new(FileState {
                scan,
                ready: VecDeque::new(),
                until_ahead: read_ahead.then_some(0),
            })),
            path,
            unwrap,
            list_id,
            errors,
            damages: Mutex::new(Vec::new()),
        }
    }
}

/// Where a scan reads: a path (read natively), or a Python binary file
/// object, `range` being `(start, stop, lines before start)` of a plain
/// file cut at message starts.
fn open_source(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<Arc<str>>,
    range: Option<(u64, u64, u64)>,
    scanner: Scanner,
) -> PyResult<FileScan> {
    let shown = |name: &Option<Arc<str>>| name.as_deref().unwrap_or("(stream)").to_owned();
    if let Ok(path) = source.extract::<PathBuf>() {
        let name: Arc<str> = name.unwrap_or_else(|| Arc::from(path.to_string_lossy()));
        let open = || match range {
            Some(r) => {
                let file = std::fs::File::open(&path)?;
                FileScan::range(Arc::new(file), r, name.clone(), scanner)
            }
            None => FileScan::open(&path, name.clone(), scanner),
        };
        return py.allow_threads(open).map_err(|e| os_error(e, &name));
    }
    if !source.hasattr("read")? {
        return Err(PyTypeError::new_err(format!(
            "expected a path or a binary file object, not {}",
            source.get_type().name()?
        )));
    }
    let what = shown(&name);
    match pyio::PyReadAt::new(source)? {
        Some((r, len)) => {
            let src: Arc<dyn ReadAt> = Arc::new(r);
            py.allow_threads(|| match range {
                Some(range) => {
                    let name = name.clone().unwrap_or_else(|| Arc::from("(stream)"));
                    FileScan::range(src, range, name, scanner)
                }
                None => FileScan::open_at(src, len, name, scanner),
            })
        }
        None if range.is_some() => {
            return Err(PyValueError::new_err(
                "a range is read from a seekable object only",
            ))
        }
        None => {
            let r: Box<dyn std::io::Read + Send> = Box::new(pyio::PyStream::new(source));
            py.allow_threads(|| FileScan::open_stream(r, name, scanner))
        }
    }
    .map_err(|e| os_error(e, &what))
}

/// Streams a binary file object (an open file, an fsspec or pyarrow file,
/// a socket's `makefile("rb")`, `sys.stdin.buffer`) as `extract_file`
/// streams a file, and iterates over its URLs. `name` is the matches'
/// `path` (`None` as for stdin). The object is read with `readinto` (else
/// `read`) in bounded memory, the GIL held only for each call; a seekable
/// object is read in place from its current position (a zip from its
/// central directory, by positions), a zip in a stream that cannot seek is
/// spooled to a temporary file, 64 GiB at most (an error past that).
/// `errors`, `list_id` and `fields` as for `extract_file`.
#[pyfunction]
#[pyo3(signature = (fileobj, *, name=None, naked=false, raw=false, strict=false, html="fallback", unwrap=false, errors="strict", list_id=false, fields=None))]
#[allow(clippy::too_many_arguments)]
fn extract_stream(
    py: Python<'_>,
    fileobj: &Bound<'_, PyAny>,
    name: Option<String>,
    naked: bool,
    raw: bool,
    strict: bool,
    html: &str,
    unwrap: bool,
    errors: &str,
    list_id: bool,
    fields: Option<&Bound<'_, PyAny>>,
) -> PyResult<FileMatches> {
    let errors = OnError::parse(errors)?;
    if fileobj.extract::<PathBuf>().is_ok() {
        return Err(PyTypeError::new_err(
            "extract_stream() takes a binary file object; extract_file() takes a path",
        ));
    }
    let (scanner, list_id) = scanner_with(naked, raw, strict, html, fields, list_id)?;
    let name: Option<Arc<str>> = name.map(Arc::from);
    let scan = open_source(py, fileobj, name.clone(), None, scanner)?;
    Ok(FileMatches::new(
        scan,
        name.unwrap_or_else(|| Arc::from("(stream)")),
        (unwrap, list_id),
        errors,
        false,
    ))
}

/// A scan, the records read ahead of the batch and a read error to raise
/// after them.
/// The scan, the records read and not yet in a batch, a read error to
/// raise after them, and (`report=`) the derivatives the records given out
/// are counted into.
type ArrowState = (
    FileScan,
    VecDeque<Record>,
    Option<std::io::Error>,
    Option<report::Counter>,
);

/// The records of a source as Arrow column buffers, batch by batch (see
/// `columns`): what the Spark job turns into record batches.
#[pyclass(name = "ArrowBatches", module = "urlsift")]
pub struct ArrowBatches {
    /// Boxed for the scanner's alignment, as in `FileMatches`.
    state: Box<Mutex<ArrowState>>,
    name: Arc<str>,
    rows: usize,
    /// Rows as one column of JSON lines instead of typed columns.
    json: bool,
    /// The `target` and `via` fields too.
    unwrap: bool,
    /// The `list_id` field too.
    list_id: bool,
}

const _: () = assert!(std::mem::align_of::<ArrowBatches>() <= 16);

/// Little-endian bytes of integers, as Arrow lays them out.
fn le<'py, T: Copy, const N: usize>(
    py: Python<'py>,
    v: &[T],
    bytes: fn(T) -> [u8; N],
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, v.len() * N, |out| {
        for (chunk, x) in out.chunks_exact_mut(N).zip(v) {
            chunk.copy_from_slice(&bytes(*x));
        }
        Ok(())
    })
}

fn i32s<'py>(py: Python<'py>, v: &[i32]) -> PyResult<Bound<'py, PyBytes>> {
    le(py, v, i32::to_le_bytes)
}

fn i64s<'py>(py: Python<'py>, v: &[i64]) -> PyResult<Bound<'py, PyBytes>> {
    le(py, v, i64::to_le_bytes)
}

/// A validity bitmap, `None` when no value is null.
fn validity<'py>(py: Python<'py>, b: &columns::Bits) -> PyObject {
    if b.zeros == 0 {
        py.None()
    } else {
        PyBytes::new(py, &b.bytes).into_any().unbind()
    }
}

fn strings<'py>(
    py: Python<'py>,
    s: &columns::Strings,
) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    let offsets = if s.offsets.is_empty() {
        &[0][..]
    } else {
        &s.offsets[..]
    };
    (
        s.valid.zeros,
        validity(py, &s.valid),
        i32s(py, offsets)?,
        PyBytes::new(py, &s.data),
    )
        .into_pyobject(py)
}

fn built<'py>(py: Python<'py>, b: &columns::Built) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
    use columns::Built;
    match b {
        Built::Str(s) => strings(py, s),
        Built::Int(valid, v) => (valid.zeros, validity(py, valid), i64s(py, v)?).into_pyobject(py),
        Built::Bool(valid, bits) => (
            valid.zeros,
            validity(py, valid),
            PyBytes::new(py, &bits.bytes),
        )
            .into_pyobject(py),
        Built::Spans(offsets, values) => {
            // Every span is a pair: the inner lists' offsets are 0, 2, 4, ...
            let pairs: Vec<i32> = (0..=values.len() as i32 / 2).map(|k| 2 * k).collect();
            (i32s(py, offsets)?, i32s(py, &pairs)?, i64s(py, values)?).into_pyobject(py)
        }
        Built::StrList(valid, offsets, items) => (
            valid.zeros,
            validity(py, valid),
            i32s(py, offsets)?,
            strings(py, items)?,
        )
            .into_pyobject(py),
        Built::Warnings(offsets, codes, messages, at) => (
            i32s(py, offsets)?,
            strings(py, codes)?,
            strings(py, messages)?,
            i64s(py, at)?,
        )
            .into_pyobject(py),
    }
}

#[pymethods]
impl ArrowBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// `(rows, columns)`: each column a tuple of buffers as `columns()`
    /// lays it out. A read error is raised once the rows before it are out.
    fn __next__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(usize, Vec<Bound<'py, pyo3::types::PyTuple>>)>> {
        if self.json {
            let batch: columns::JsonBatch = self.fill(py)?;
            if batch.rows == 0 {
                return Ok(None);
            }
            let mut cols = vec![strings(py, &batch.lines)?];
            if let Some(ids) = &batch.list_ids {
                cols.push(strings(py, ids)?);
            }
            return Ok(Some((batch.rows, cols)));
        }
        let batch: columns::Batch = self.fill(py)?;
        if batch.rows == 0 {
            return Ok(None);
        }
        let cols = batch
            .columns
            .iter()
            .map(|b| built(py, b))
            .collect::<PyResult<_>>()?;
        Ok(Some((batch.rows, cols)))
    }
}

impl ArrowBatches {
    /// The next rows, at most `self.rows`, with the GIL released.
    fn fill<B: columns::Rows>(&self, py: Python<'_>) -> PyResult<B> {
        let rows = self.rows;
        let got = py.allow_threads(|| {
            let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let (scan, ready, error, report) = &mut *st;
            let mut batch = B::new(self.unwrap, self.list_id);
            while batch.rows() < rows {
                if !ready.is_empty() {
                    let take = ready.len().min(rows - batch.rows());
                    // Counted as they are given out.
                    if let Some(c) = report {
                        c.count(ready.range(..take), self.unwrap);
                    }
                    for r in ready.drain(..take) {
                        batch.push(&r);
                    }
                    continue;
                }
                if let Some(e) = error.take() {
                    if batch.rows() == 0 {
                        return Err(e);
                    }
                    *error = Some(e);
                    break;
                }
                match scan.next_batch(BATCH.min(rows - batch.rows()), ready) {
                    Ok(()) if ready.is_empty() => break,
                    Ok(()) => {}
                    Err(e) => *error = Some(e),
                }
            }
            Ok(batch)
        });
        got.map_err(|e| read_error(py, e, &self.name))
    }
}

/// Scans `source` (a path, or a binary file object as `extract_stream`
/// takes) and iterates over `(rows, columns)` batches of at most `rows`
/// rows, each column the Arrow buffers of one field of `columns()`.
/// `range=(start, stop, lines)` scans that range of a plain file, `start`
/// a message start after `lines` lines (see `message_start`). With `json`
/// a batch has one column instead: each row as a JSON object, the fields
/// of `columns()` in order, nulls written. With `unwrap` the fields are
/// `columns(unwrap=True)`'s. With `list_id` each message's `List-Id:` is
/// read too: a last column, `columns(list_id=True)`'s, and with `json` a
/// second column beside the lines (which stay the rows without it). With
/// `report` (a `Derivatives`) each row given out is counted into it as
/// `urlsift --report` counts it (the target with `unwrap`).
#[pyfunction]
#[pyo3(signature = (source, *, name=None, range=None, rows=16384, json=false, naked=false, raw=false, strict=false, html="fallback", unwrap=false, list_id=false, report=None))]
#[allow(clippy::too_many_arguments)]
fn scan_arrow(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    name: Option<String>,
    range: Option<(u64, u64, u64)>,
    rows: usize,
    json: bool,
    naked: bool,
    raw: bool,
    strict: bool,
    html: &str,
    unwrap: bool,
    list_id: bool,
    report: Option<PyRef<'_, report::PyDerivatives>>,
) -> PyResult<ArrowBatches> {
    // The report groups a list's URLs by List-Id: read for it, whether
    // the rows have the column or not.
    let (scanner, _) = scanner_with(naked, raw, strict, html, None, list_id || report.is_some())?;
    let name: Option<Arc<str>> = name.map(Arc::from);
    let scan = open_source(py, source, name.clone(), range, scanner)?;
    let counts = report.map(|d| report::Counter::new(d.d.clone()));
    Ok(ArrowBatches {
        state: Box::new(Mutex::new((scan, VecDeque::new(), None, counts))),
        name: name.unwrap_or_else(|| Arc::from("(stream)")),
        rows: rows.max(1),
        json,
        unwrap,
        list_id,
    })
}

/// The output's fields: `(name, kind, spark_type, nullable)` in order,
/// `kind` saying how `scan_arrow`'s buffers of the field are laid out;
/// with `unwrap`, `target` and `via` too; with `list_id`, `list_id` last.
#[pyfunction]
#[pyo3(name = "columns", signature = (unwrap=false, list_id=false))]
fn column_fields(
    unwrap: bool,
    list_id: bool,
) -> Vec<(&'static str, &'static str, &'static str, bool)> {
    columns::columns(unwrap, list_id)
        .map(|c| (c.name, c.kind.as_str(), c.spark, c.nullable))
        .collect()
}

/// Where the last message in `window` starts: the offset of an mbox
/// `From ` line that follows an empty line (or starts the window after a
/// line feed before it, `after_newline`), `None` when there is none. A
/// file cut there gives each range a whole message from its header on.
#[pyfunction]
fn message_start(window: &[u8]) -> Option<usize> {
    memchr::memmem::rfind_iter(window, b"\n\nFrom ")
        .next()
        .map(|k| k + 2)
}

/// Whether a file starting with `head` (its first 512 bytes) is plain
/// text: neither compressed nor an archive, by content as the command
/// tells them. Only such a file is cut into ranges.
#[pyfunction]
fn plain_head(head: &[u8]) -> bool {
    use urlsift_archive::sniff;
    sniff::codec(head).is_none() && sniff::container(head).is_none()
}

/// The line feeds in `[start, stop)` of `source` (a path or a seekable
/// binary file object), read with the GIL released.
#[pyfunction]
fn count_lines(py: Python<'_>, source: &Bound<'_, PyAny>, start: u64, stop: u64) -> PyResult<u64> {
    let src: Arc<dyn ReadAt> = if let Ok(path) = source.extract::<PathBuf>() {
        Arc::new(std::fs::File::open(&path).map_err(|e| os_error(e, &path.to_string_lossy()))?)
    } else {
        match pyio::PyReadAt::new(source)? {
            Some((r, _)) => Arc::new(r),
            None => {
                return Err(PyValueError::new_err(
                    "count_lines() needs a seekable object",
                ))
            }
        }
    };
    py.allow_threads(|| {
        let mut buf = vec![0u8; 1 << 20];
        let (mut at, mut n) = (start, 0u64);
        while at < stop {
            let want = ((stop - at) as usize).min(buf.len());
            let got = src.pread(&mut buf[..want], at)?;
            if got == 0 {
                break;
            }
            n += memchr::memchr_iter(b'\n', &buf[..got]).count() as u64;
            at += got as u64;
        }
        Ok::<_, std::io::Error>(n)
    })
    .map_err(|e| os_error(e, "count_lines"))
}

/// Parses one URL (`str` or `bytes`) as `urlsift --parse` does and returns
/// its object: `input`, `valid`, `scheme`, `parts` (the RFC 1738 parts in
/// URL order), `fragment`, `warnings`, `error`. Raises `URLError` (a
/// `ValueError`) with `offset` and `rule` when it is not a URL.
#[pyfunction]
#[pyo3(signature = (url, *, strict=false))]
fn parse<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    strict: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let bytes: Vec<u8> = if let Ok(b) = url.downcast::<PyBytes>() {
        b.as_bytes().to_vec()
    } else if let Ok(s) = url.downcast::<PyString>() {
        s.to_cow()?.as_bytes().to_vec()
    } else {
        return Err(PyTypeError::new_err(format!(
            "parse() takes str or bytes, not {}",
            url.get_type().name()?
        )));
    };
    let input = String::from_utf8_lossy(&bytes).into_owned();
    let policy = if strict {
        Policy::Strict
    } else {
        Policy::Lenient
    };
    match Url::parse_with(&bytes, policy) {
        Ok(u) => {
            let d = PyDict::new(py);
            d.set_item("input", &input)?;
            d.set_item("valid", true)?;
            d.set_item("scheme", u.scheme().to_ascii_lowercase())?;
            let parts = PyDict::new(py);
            for (name, value) in u.components() {
                parts.set_item(name, value)?;
            }
            d.set_item("parts", parts)?;
            d.set_item("fragment", u.fragment())?;
            d.set_item("warnings", warnings_list(py, &record::warnings(&u))?)?;
            d.set_item("error", py.None())?;
            Ok(d)
        }
        Err(e) => {
            let reason = e.kind().reason();
            let err = URLError::new_err(format!(
                "not a URL: {input:?} at byte {}: {}: {reason}",
                e.offset(),
                e.rule()
            ));
            let value = err.value(py);
            value.setattr("input", &input)?;
            value.setattr("offset", e.offset())?;
            value.setattr("rule", e.rule())?;
            value.setattr("reason", reason)?;
            Err(err)
        }
    }
}

/// The extension module.
#[pymodule]
fn _urlsift(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(extract_file, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(extract_stream, m)?)?;
    m.add_function(wrap_pyfunction!(scan_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(column_fields, m)?)?;
    m.add_function(wrap_pyfunction!(message_start, m)?)?;
    m.add_function(wrap_pyfunction!(count_lines, m)?)?;
    m.add_function(wrap_pyfunction!(plain_head, m)?)?;
    m.add_class::<ArrowBatches>()?;
    m.add_class::<PyMatch>()?;
    m.add_class::<FileMatches>()?;
    m.add_class::<report::PyDerivatives>()?;
    m.add("URLError", m.py().get_type::<URLError>())?;
    m.add("DamageWarning", m.py().get_type::<DamageWarning>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
