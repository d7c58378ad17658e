//! Python file objects as the library's readers: [`PyStream`] reads a
//! binary stream in order (`readinto`, else `read`), [`PyReadAt`] reads a
//! seekable one at positions (`seek` then `readinto`), so that a zip is read
//! in place and a range is read without the bytes before it. Each call takes
//! the GIL for the call only: the scan around it runs with the GIL released.

use std::io::{self, Read};
use std::os::raw::c_char;
use std::sync::Mutex;

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use urlsift_archive::archive::ReadAt;

/// `PyBUF_WRITE` of CPython's buffer API: a view that may be written.
const PYBUF_WRITE: std::os::raw::c_int = 0x200;

/// A Python exception met while reading, as an I/O error: an `OSError`
/// keeps its errno, anything else its type and message.
fn io_error(py: Python<'_>, e: PyErr) -> io::Error {
    let value = e.value(py);
    let errno = value
        .getattr("errno")
        .ok()
        .and_then(|n| n.extract::<i32>().ok());
    let text = value
        .str()
        .map(|s| s.to_string())
        .unwrap_or_else(|_| "read failed".into());
    match errno {
        Some(code) => {
            let kind = io::Error::from_raw_os_error(code).kind();
            io::Error::new(kind, text)
        }
        None => {
            let ty = e
                .get_type(py)
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default();
            io::Error::other(format!("{ty}: {text}"))
        }
    }
}

/// Reads into `buf` with `obj.readinto(memoryview)`: the view over Rust's
/// buffer lives for the call only, and is released before returning (a
/// callee that kept a view of it is an error, not a dangling pointer).
fn readinto(obj: &Bound<'_, PyAny>, buf: &mut [u8]) -> PyResult<Option<usize>> {
    let py = obj.py();
    let len = buf.len().min(isize::MAX as usize);
    // SAFETY: the view points into `buf`, which outlives it: it is
    // released below, before `buf`'s borrow ends.
    let view = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            ffi::PyMemoryView_FromMemory(
                buf.as_mut_ptr() as *mut c_char,
                len as ffi::Py_ssize_t,
                PYBUF_WRITE,
            ),
        )?
    };
    let got = obj.call_method1("readinto", (&view,));
    view.call_method0("release")?;
    let got = got?;
    if got.is_none() {
        // A non-blocking stream with nothing to give now.
        return Ok(None);
    }
    let n: usize = got.extract()?;
    if n > len {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "readinto() returned {n}, more than the {len} bytes asked"
        )));
    }
    Ok(Some(n))
}

/// Reads into `buf` with `obj.read(len)` (bytes or bytearray), copied.
fn read_copy(obj: &Bound<'_, PyAny>, buf: &mut [u8]) -> PyResult<Option<usize>> {
    let got = obj.call_method1("read", (buf.len(),))?;
    if got.is_none() {
        return Ok(None);
    }
    let n = if let Ok(b) = got.downcast::<PyBytes>() {
        copy_in(b.as_bytes(), buf)?
    } else if let Ok(b) = got.downcast::<PyByteArray>() {
        copy_in(&b.to_vec(), buf)?
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "read() returned {}, not bytes (open the file in binary mode)",
            got.get_type().name()?
        )));
    };
    Ok(Some(n))
}

fn copy_in(data: &[u8], buf: &mut [u8]) -> PyResult<usize> {
    if data.len() > buf.len() {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "read() returned more bytes than asked",
        ));
    }
    buf[..data.len()].copy_from_slice(data);
    Ok(data.len())
}

/// One read of `obj` into `buf`, by `readinto` when it has it.
fn read_into(obj: &Bound<'_, PyAny>, into: bool, buf: &mut [u8]) -> io::Result<usize> {
    let py = obj.py();
    let got = if into {
        readinto(obj, buf)
    } else {
        read_copy(obj, buf)
    };
    match got {
        Ok(Some(n)) => Ok(n),
        Ok(None) => Err(io::Error::new(
            io::ErrorKind::WouldBlock,
            "the stream is non-blocking and has no data now",
        )),
        Err(e) => Err(io_error(py, e)),
    }
}

/// A binary Python stream read in order.
pub struct PyStream {
    obj: Py<PyAny>,
    into: bool,
}

impl PyStream {
    /// Reads `obj` from its current position.
    pub fn new(obj: &Bound<'_, PyAny>) -> PyStream {
        PyStream {
            obj: obj.clone().unbind(),
            into: obj.hasattr("readinto").unwrap_or(false),
        }
    }
}

impl Read for PyStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        Python::with_gil(|py| read_into(self.obj.bind(py), self.into, buf))
    }
}

/// A seekable binary Python object read at positions, `base` being its
/// position 0. The lock keeps one thread's `seek` and `read` together
/// (it is taken before the GIL, never while holding it).
pub struct PyReadAt {
    obj: Mutex<Py<PyAny>>,
    into: bool,
    base: u64,
}

impl PyReadAt {
    /// `obj` read from its current position on, and the bytes left there;
    /// `None` when it cannot seek.
    pub fn new(obj: &Bound<'_, PyAny>) -> PyResult<Option<(PyReadAt, u64)>> {
        let seekable = obj.hasattr("seek")?
            && obj.hasattr("tell")?
            && match obj.call_method0("seekable") {
                Ok(s) => s.is_truthy()?,
                Err(_) => false,
            };
        if !seekable {
            return Ok(None);
        }
        let base: u64 = obj.call_method0("tell")?.extract()?;
        // Some objects say they seek and do not (a streaming HTTP file):
        // read as streams.
        let end: u64 = match obj.call_method1("seek", (0, 2)) {
            Ok(end) => end.extract()?,
            Err(_) => return Ok(None),
        };
        obj.call_method1("seek", (base,))?;
        let r = PyReadAt {
            obj: Mutex::new(obj.clone().unbind()),
            into: obj.hasattr("readinto")?,
            base,
        };
        Ok(Some((r, end.saturating_sub(base))))
    }
}

impl ReadAt for PyReadAt {
    fn pread(&self, buf: &mut [u8], pos: u64) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        let obj = self.obj.lock().unwrap_or_else(|e| e.into_inner());
        Python::with_gil(|py| {
            let o = obj.bind(py);
            o.call_method1("seek", (self.base + pos,))
                .map_err(|e| io_error(py, e))?;
            read_into(o, self.into, buf)
        })
    }
}
