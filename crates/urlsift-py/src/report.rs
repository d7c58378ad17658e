//! The derivatives (`urlsift_report::Derivatives`) as a Python class: the
//! Spark job builds one per partition from its rows, ships it as bytes and
//! merges them; the counting is the command's own code.

use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use urlsift::Timestamp;
use urlsift_report::{input_key, message_key, Derivatives, Row, Tables};

/// Mergeable counts of URLs by period, scheme, domain and group: the
/// derivatives ``urlsift --report`` writes.
#[pyclass(name = "Derivatives", module = "urlsift._urlsift")]
#[derive(Default)]
pub struct PyDerivatives {
    d: Derivatives,
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
        self.d.add(&Row {
            url,
            date,
            groups: &groups,
            message,
            input,
        });
    }

    /// Adds the counts of ``other``.
    fn merge(&mut self, other: &PyDerivatives) {
        self.d.merge(other.d.clone());
    }

    /// The counts as bytes (``Derivatives.from_bytes`` reads them).
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.d.to_bytes())
    }

    /// Reads what ``to_bytes`` wrote.
    #[staticmethod]
    fn from_bytes(b: &[u8]) -> PyResult<PyDerivatives> {
        Derivatives::from_bytes(b)
            .map(|d| PyDerivatives { d })
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
        self.d.urls()
    }

    /// The files' names and texts: the CSV files, the graphs and
    /// ``index.html``.
    fn files<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (name, text) in Tables::new(&self.d).files() {
            out.set_item(name, text)?;
        }
        Ok(out)
    }

    /// Writes the files into ``dir`` (created if missing).
    fn write(&self, dir: std::path::PathBuf) -> PyResult<()> {
        Tables::new(&self.d)
            .write(&dir)
            .map_err(|e| PyOSError::new_err(format!("{}: {e}", dir.display())))
    }
}
