//! The derivatives (`urlsift_report::Derivatives`) as a Python class: the
//! Spark job builds one per partition from its rows, ships it as bytes and
//! merges them; the counting is the command's own code.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::{Arc, Mutex, MutexGuard};

use urlsift::{MessageInfo, Timestamp};
use urlsift_report::{groups_of, input_key, message_key, Derivatives, Row, Tables};

use crate::record::Record;

/// Counts the records a scan gives out as `urlsift --report` counts the
/// URLs it prints, into shared derivatives: the Spark job's report is
/// counted by its scans, no row read back.
pub struct Counter {
    /// The derivatives counted into.
    d: Arc<Mutex<Derivatives>>,
    /// The last record's message and input (held, so that their addresses
    /// are not another's) and their keys and date: a message's URLs come
    /// one after the other.
    last: Option<Last>,
}

struct Last {
    message: Option<Arc<MessageInfo>>,
    path: Option<Arc<str>>,
    member: Option<Arc<str>>,
    input: u64,
    key: u64,
    date: Option<Timestamp>,
}

fn same<T: ?Sized>(a: &Option<Arc<T>>, b: Option<&Arc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

impl Counter {
    /// A counter into `d`.
    pub fn new(d: Arc<Mutex<Derivatives>>) -> Counter {
        Counter { d, last: None }
    }

    /// Counts `records` (one lock for all): the target of a wrapper with
    /// `unwrap` (as the command's `--unwrap` prints it), its message's date
    /// and groups, its input (path and member) and message for the
    /// distinct counts.
    pub fn count<'r>(&mut self, records: impl IntoIterator<Item = &'r Record>, unwrap: bool) {
        let mut d = self.d.lock().unwrap_or_else(|e| e.into_inner());
        let mut groups = Vec::new();
        for r in records {
            let m = r.get();
            let info = m.shared_message();
            let hit = self.last.as_ref().is_some_and(|l| {
                same(&l.message, info)
                    && same(&l.path, r.path.as_ref())
                    && same(&l.member, r.member.as_ref())
            });
            if !hit {
                let date = m.message().and_then(MessageInfo::date).map(|d| d.0);
                let path = r.path.as_deref().unwrap_or_default();
                let input = input_key(path.as_bytes(), r.member.as_deref().map(str::as_bytes));
                self.last = Some(Last {
                    message: info.cloned(),
                    path: r.path.clone(),
                    member: r.member.clone(),
                    input,
                    key: message_key(input, r.message_id(), date),
                    date,
                });
            }
            let Some(last) = &self.last else { continue };
            let target = unwrap.then(|| urlsift::unwrap(m.as_bytes()));
            let url = match target.as_ref().and_then(|u| u.target()) {
                Some(t) => t,
                None => r.url(),
            };
            groups_of(
                m.message().and_then(MessageInfo::newsgroups),
                m.message().and_then(MessageInfo::list_id),
                &mut groups,
            );
            d.add(&Row {
                url,
                date: last.date,
                groups: &groups,
                message: last.key,
                input: last.input,
            });
        }
    }
}

/// Mergeable counts of URLs by period, scheme, domain and group: the
/// derivatives ``urlsift --report`` writes.
#[pyclass(name = "Derivatives", module = "urlsift._urlsift")]
#[derive(Default)]
pub struct PyDerivatives {
    /// Shared with the scans counting into it (`scan_arrow(report=...)`),
    /// which add with the GIL released.
    pub(crate) d: Arc<Mutex<Derivatives>>,
}

impl PyDerivatives {
    fn of(d: Derivatives) -> PyDerivatives {
        PyDerivatives {
            d: Arc::new(Mutex::new(d)),
        }
    }

    /// The counts (still readable after a panic in a scan that was
    /// counting into them).
    pub(crate) fn lock(&self) -> MutexGuard<'_, Derivatives> {
        self.d.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl PyDerivatives {
    /// Nothing counted.
    #[new]
    fn new() -> Self {
        PyDerivatives::default()
    }

    /// Counts one URL: its text, its message's date (seconds since the
    /// epoch, UTC, or None), its newsgroups and List-Id (the groups are the
    /// newsgroups, else the list), and where it was found (path, member,
    /// Message-ID: which input and message it counts for).
    #[pyo3(signature = (url, date=None, newsgroups=None, list_id=None, path="", member=None, message_id=None))]
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        url: &str,
        date: Option<i64>,
        newsgroups: Option<Vec<String>>,
        list_id: Option<&str>,
        path: &str,
        member: Option<&str>,
        message_id: Option<&str>,
    ) {
        let date = date.map(Timestamp::from_unix_seconds);
        let groups: Vec<&str> = match &newsgroups {
            Some(g) if !g.is_empty() => g.iter().map(String::as_str).collect(),
            _ => list_id.into_iter().collect(),
        };
        let input = input_key(path.as_bytes(), member.map(str::as_bytes));
        let message = message_key(input, message_id, date);
        self.lock().add(&Row {
            url,
            date,
            groups: &groups,
            message,
            input,
        });
    }

    /// Adds the counts of ``other``; with ``consume=True`` they are moved,
    /// not copied, and ``other`` is left empty (what an accumulator that
    /// owns ``other`` wants).
    #[pyo3(signature = (other, consume=false))]
    fn merge(&self, other: &PyDerivatives, consume: bool) {
        // (`d.merge(d)` counts its rows twice, as merging a copy would.)
        if Arc::ptr_eq(&self.d, &other.d) {
            let theirs = self.lock().clone();
            self.lock().merge(theirs);
            return;
        }
        let theirs = if consume {
            std::mem::take(&mut *other.lock())
        } else {
            other.lock().clone()
        };
        self.lock().merge(theirs);
    }

    /// The counts as bytes (``Derivatives.from_bytes`` reads them).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.lock().to_bytes())
    }

    /// Pickled as its bytes (Spark ships an accumulator's value so).
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let from_bytes = py.get_type::<PyDerivatives>().getattr("from_bytes")?;
        Ok((from_bytes, (self.to_bytes(py),)))
    }

    /// Reads what ``to_bytes`` wrote.
    #[staticmethod]
    fn from_bytes(b: &[u8]) -> PyResult<PyDerivatives> {
        Derivatives::from_bytes(b)
            .map(PyDerivatives::of)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Two serialized counts merged, serialized (for ``treeReduce``).
    #[staticmethod]
    fn merge_bytes<'py>(py: Python<'py>, a: &[u8], b: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
        let err = |e: urlsift_report::WireError| PyValueError::new_err(e.to_string());
        let mut x = Derivatives::from_bytes(a).map_err(err)?;
        x.merge(Derivatives::from_bytes(b).map_err(err)?);
        Ok(PyBytes::new(py, &x.to_bytes()))
    }

    /// URLs counted.
    #[getter]
    fn urls(&self) -> u64 {
        self.lock().urls()
    }

    /// The files' names and texts: the CSV files, the graphs and
    /// ``index.html``.
    fn files<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (name, text) in Tables::new(&self.lock()).files() {
            out.set_item(name, text)?;
        }
        Ok(out)
    }

    /// Writes the files into ``dir`` (created if missing).
    fn write(&self, dir: std::path::PathBuf) -> PyResult<()> {
        Tables::new(&self.lock())
            .write(&dir)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", dir.display())))
    }
}
