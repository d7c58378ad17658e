//! The path lists of `--files-from` (one path a line) and `--files0-from`
//! (each path ended by NUL, as `find -print0` writes them): read as the
//! walk reaches them, a buffer at a time, so a manifest of a million paths
//! is never held whole. Paths are raw bytes (any name, non-UTF-8 too);
//! empty entries are skipped.

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::os::unix::ffi::{OsStrExt, OsStringExt};

use crate::printer::escape_path_string;

/// The paths of a list, in order; a read error ends it as one message.
pub struct PathList {
    r: Box<dyn BufRead + Send>,
    end: u8,
    /// The list as named in messages.
    name: String,
    /// Whether the list is standard input (which `-` in it cannot name).
    stdin: bool,
    done: bool,
}

impl std::fmt::Debug for PathList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PathList")
            .field("name", &self.name)
            .finish()
    }
}

impl PathList {
    /// Opens the list at `path` (`-`: standard input), its paths ended by
    /// `end`.
    pub fn open(path: &std::ffi::OsStr, end: u8) -> Result<PathList, String> {
        let bytes = path.as_bytes();
        let (r, name): (Box<dyn BufRead + Send>, String) = if bytes == b"-" {
            (
                Box::new(BufReader::new(io::stdin())),
                "(standard input)".into(),
            )
        } else {
            let name = escape_path_string(bytes);
            match File::open(path) {
                Ok(f) => (Box::new(BufReader::with_capacity(64 << 10, f)), name),
                Err(e) => return Err(format!("urlsift: {name}: {e}")),
            }
        };
        let mut list = PathList::new(r, end, name);
        list.stdin = bytes == b"-";
        Ok(list)
    }

    /// The paths read from `r`, ended by `end`, the list called `name`.
    pub fn new(r: Box<dyn BufRead + Send>, end: u8, name: String) -> PathList {
        PathList {
            r,
            end,
            name,
            stdin: false,
            done: false,
        }
    }
}

impl Iterator for PathList {
    type Item = Result<OsString, String>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let mut path = Vec::new();
            match self.r.read_until(self.end, &mut path) {
                Ok(0) => self.done = true,
                Ok(_) => {
                    if path.last() == Some(&self.end) {
                        path.pop();
                    }
                    if self.stdin && path == b"-" {
                        return Some(Err(
                            "urlsift: -: standard input is the path list, not an input".into(),
                        ));
                    }
                    if !path.is_empty() {
                        return Some(Ok(OsString::from_vec(path)));
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(format!("urlsift: {}: {e}", self.name)));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(data: &'static [u8], end: u8) -> Vec<Vec<u8>> {
        PathList::new(Box::new(data), end, "l".into())
            .map(|p| p.unwrap().into_vec())
            .collect()
    }

    #[test]
    fn lines_and_nul_ended_names_raw() {
        assert_eq!(
            list(b"a\nb c\n\n\xff\xfe\nlast", b'\n'),
            [
                b"a".to_vec(),
                b"b c".to_vec(),
                b"\xff\xfe".to_vec(),
                b"last".to_vec()
            ]
        );
        assert_eq!(
            list(b"new\nline\0 sp \0\0x", 0),
            [b"new\nline".to_vec(), b" sp ".to_vec(), b"x".to_vec()]
        );
        assert!(list(b"", 0).is_empty());
    }

    #[test]
    fn missing_list_is_a_message() {
        let e = PathList::open("/nonexistent/l\x1b".as_ref(), 0).unwrap_err();
        assert!(e.starts_with("urlsift: /nonexistent/l\\x1b: "), "{e}");
    }
}
