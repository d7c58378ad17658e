//! Turns the command's paths into the inputs in order, one directory
//! listed at a time ([`Walker`]): files as given, directories walked
//! recursively with entries sorted by name bytes,
//! symlinks followed with loop detection by the (device, inode) of the
//! ancestor directories. Unreadable paths become error entries, in place,
//! so that their messages come out in order.
//!
//! Descriptors are bounded whatever the depth (as walkdir's `max_open`): a
//! directory is listed whole and closed at once; the handles kept to open
//! files relative to their directory are at most [`MAX_OPEN_DIRS`] in all,
//! of which the walker holds at most [`MAX_OPEN_LEVELS`] (the innermost:
//! an outer one is closed, and opened again when the walk comes back to
//! it). Files beyond that are opened by path.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rustix::fs::{Mode, OFlags};

use crate::globs::Globs;
use crate::input::pathlist::PathList;
use crate::printer::escape_path_string;

/// One input to search, or an error to report at its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Standard input.
    Stdin,
    /// A file.
    File {
        /// The path as given or as found in the walk.
        path: PathBuf,
        /// Known to be a regular file (not a FIFO or a device): a short
        /// read is then its end.
        regular: bool,
        /// Its size when the walk had to `stat` it (a path given, a
        /// symlink followed); a directory listing's regular files are not
        /// `stat`ed.
        size: Option<u64>,
        /// The directory that listed it, open: the file is opened relative
        /// to it.
        dir: Option<Dir>,
    },
    /// A message for stderr (`urlsift: PATH: reason`, escaped).
    Error(String),
}

/// Most directory handles open at once: those of the directories being
/// listed and those the inputs in flight hold.
pub const MAX_OPEN_DIRS: usize = 16;

/// Most directory handles the walker itself keeps, for the innermost of
/// the directories it is listing.
pub const MAX_OPEN_LEVELS: usize = 8;

/// Directory handles open now (see [`MAX_OPEN_DIRS`]).
static OPEN_DIRS: AtomicUsize = AtomicUsize::new(0);

/// An open directory of the walk. Its files are opened relative to it
/// (`openat`): one name to look up instead of every component of the path
/// (3% less CPU over 20,000 small files).
#[derive(Clone, Debug)]
pub struct Dir(Arc<DirFd>);

/// A directory descriptor, counted in [`OPEN_DIRS`] while it is open.
#[derive(Debug)]
pub struct DirFd(OwnedFd);

impl Drop for DirFd {
    fn drop(&mut self) {
        OPEN_DIRS.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Dir {
    /// Opens `path` as a handle, unless [`MAX_OPEN_DIRS`] are open (or it
    /// cannot be opened): its files are then opened by path.
    fn open(path: &Path) -> Option<Dir> {
        if OPEN_DIRS.fetch_add(1, Ordering::Relaxed) >= MAX_OPEN_DIRS {
            OPEN_DIRS.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        match rustix::fs::open(path, flags, Mode::empty()) {
            Ok(fd) => Some(Dir(Arc::new(DirFd(fd)))),
            Err(_) => {
                OPEN_DIRS.fetch_sub(1, Ordering::Relaxed);
                None
            }
        }
    }
}

impl PartialEq for Dir {
    fn eq(&self, other: &Dir) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Dir {}

impl Entry {
    /// Opens a file entry for reading (relative to its directory when the
    /// walk listed it).
    pub fn open(&self) -> io::Result<File> {
        match self {
            Entry::File {
                path,
                dir: Some(Dir(fd)),
                ..
            } => match path.file_name() {
                Some(name) => {
                    let flags = OFlags::RDONLY | OFlags::CLOEXEC;
                    Ok(File::from(rustix::fs::openat(
                        &fd.0,
                        name,
                        flags,
                        Mode::empty(),
                    )?))
                }
                None => File::open(path),
            },
            Entry::File { path, .. } => File::open(path),
            _ => Err(io::Error::new(io::ErrorKind::InvalidInput, "not a file")),
        }
    }
}

/// `urlsift: PATH: reason` with the path escaped (see
/// [`escape_path`](crate::printer::escape_path)).
pub fn message(path: &Path, reason: &dyn std::fmt::Display) -> String {
    let path = escape_path_string(path.as_os_str().as_bytes());
    format!("urlsift: {path}: {reason}")
}

/// The inputs named by the command's paths, one directory listed at a time
/// as the iteration reaches it: the search starts on the first input while
/// the rest of a spool is still unlisted (listing 2000 news articles in 26
/// groups takes about a millisecond, which would otherwise be spent before
/// any search).
#[derive(Debug)]
pub struct Walker {
    /// The command-line paths, looked at when the walker is made.
    top: std::vec::IntoIter<Top>,
    /// A path list after them, each path looked at when reached.
    list: Option<PathList>,
    /// The directories being listed, innermost last.
    stack: Vec<Level>,
    had_dir: bool,
    /// `--glob`: the walked files and directories kept.
    globs: Globs,
}

#[derive(Debug)]
enum Top {
    Entry(Entry),
    Dir(PathBuf, (u64, u64)),
}

/// One directory being listed: its read errors first, then its names in
/// byte order, each with whether the directory entry said "regular file".
#[derive(Debug)]
struct Level {
    dir: PathBuf,
    /// The directory open, when it could be opened (else paths are used).
    fd: Option<Dir>,
    /// Whether `fd` was closed to bound the descriptors (to be opened
    /// again when the walk comes back here).
    closed: bool,
    id: (u64, u64),
    errors: std::vec::IntoIter<Entry>,
    names: std::vec::IntoIter<(OsString, bool)>,
}

impl Walker {
    /// Looks at each of `paths` (`-` is stdin; none means stdin); the
    /// directories among them are listed as the iteration reaches them.
    pub fn new(paths: &[OsString]) -> Walker {
        let mut had_dir = false;
        let top: Vec<Top> = if paths.is_empty() {
            vec![Top::Entry(Entry::Stdin)]
        } else {
            paths.iter().map(|p| look(p, &mut had_dir)).collect()
        };
        Walker {
            top: top.into_iter(),
            list: None,
            stack: Vec::new(),
            had_dir,
            globs: Globs::default(),
        }
    }

    /// Each of `paths`, then the paths of `list` as the iteration reaches
    /// them (no stdin by default then).
    pub fn with_list(paths: &[OsString], list: PathList) -> Walker {
        let mut w = if paths.is_empty() {
            Walker {
                top: Vec::new().into_iter(),
                list: None,
                stack: Vec::new(),
                had_dir: false,
                globs: Globs::default(),
            }
        } else {
            Walker::new(paths)
        };
        w.list = Some(list);
        w
    }

    /// Keeps only the files and directories met in the walk that `globs`
    /// allows (paths given are always searched).
    pub fn globs(mut self, globs: Globs) -> Walker {
        self.globs = globs;
        self
    }

    /// Whether a directory was among the paths (paths are then shown).
    pub fn had_dir(&self) -> bool {
        self.had_dir
    }

    /// Starts listing `dir`; an unreadable directory is an error entry.
    fn enter(&mut self, dir: PathBuf, id: (u64, u64)) -> Option<Entry> {
        let rd = match fs::read_dir(&dir) {
            Ok(rd) => rd,
            Err(e) => return Some(Entry::Error(message(&dir, &e))),
        };
        let mut names = Vec::new();
        let mut errors = Vec::new();
        for ent in rd {
            match ent {
                // The directory entry's own type (no system call): a
                // regular file needs no stat; directories (for loop
                // detection), symlinks (to follow) and the unknown are
                // looked at when reached.
                Ok(ent) => {
                    let file = ent.file_type().is_ok_and(|t| t.is_file());
                    names.push((ent.file_name(), file));
                }
                Err(e) => errors.push(Entry::Error(message(&dir, &e))),
            }
        }
        names.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        // The outermost handle goes when the walker would hold too many.
        let open = self.stack.iter().filter(|l| l.fd.is_some()).count();
        if open >= MAX_OPEN_LEVELS {
            if let Some(outer) = self.stack.iter_mut().find(|l| l.fd.is_some()) {
                outer.fd = None;
                outer.closed = true;
            }
        }
        self.stack.push(Level {
            fd: Dir::open(&dir),
            closed: false,
            dir,
            id,
            errors: errors.into_iter(),
            names: names.into_iter(),
        });
        None
    }
}

/// What a path given (on the command line or in a list) is.
fn look(p: &OsString, had_dir: &mut bool) -> Top {
    if p.as_bytes() == b"-" {
        return Top::Entry(Entry::Stdin);
    }
    let path = PathBuf::from(p);
    match fs::metadata(&path) {
        Err(e) => Top::Entry(Entry::Error(message(&path, &e))),
        Ok(md) if md.is_dir() => {
            *had_dir = true;
            Top::Dir(path, (md.dev(), md.ino()))
        }
        Ok(md) => Top::Entry(Entry::File {
            path,
            regular: md.is_file(),
            size: md.is_file().then_some(md.len()),
            dir: None,
        }),
    }
}

impl Iterator for Walker {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        loop {
            let Some(level) = self.stack.last_mut() else {
                let top = match self.top.next() {
                    Some(top) => top,
                    None => match self.list.as_mut()?.next()? {
                        Ok(p) => look(&p, &mut self.had_dir),
                        Err(msg) => Top::Entry(Entry::Error(msg)),
                    },
                };
                match top {
                    Top::Entry(e) => return Some(e),
                    Top::Dir(dir, id) => match self.enter(dir, id) {
                        Some(e) => return Some(e),
                        None => continue,
                    },
                }
            };
            if let Some(e) = level.errors.next() {
                return Some(e);
            }
            let Some((name, file)) = level.names.next() else {
                self.stack.pop();
                continue;
            };
            let path = level.dir.join(&name);
            let globbed = !self.globs.is_empty();
            let allows = |is_dir| self.globs.allows(path.as_os_str().as_bytes(), is_dir);
            if file && globbed && !allows(false) {
                continue;
            }
            if file {
                if level.closed {
                    // Back from deeper levels: this one is innermost again.
                    level.fd = Dir::open(&level.dir);
                    level.closed = level.fd.is_none();
                }
                return Some(Entry::File {
                    path,
                    regular: true,
                    size: None,
                    dir: level.fd.clone(),
                });
            }
            match fs::metadata(&path) {
                Err(e) => return Some(Entry::Error(message(&path, &e))),
                Ok(md) if globbed && !allows(md.is_dir()) => {}
                Ok(md) if md.is_dir() => {
                    let id = (md.dev(), md.ino());
                    if self.stack.iter().any(|l| l.id == id) {
                        return Some(Entry::Error(message(
                            &path,
                            &"symbolic link loop (directory already being searched)",
                        )));
                    }
                    if let Some(e) = self.enter(path, id) {
                        return Some(e);
                    }
                }
                Ok(md) if md.is_file() => {
                    return Some(Entry::File {
                        path,
                        regular: true,
                        size: Some(md.len()),
                        dir: None,
                    })
                }
                // Sockets, FIFOs and devices met in a walk are skipped.
                Ok(_) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk(paths: &[OsString]) -> Vec<Entry> {
        Walker::new(paths).collect()
    }

    #[test]
    fn stdin_default_and_dash() {
        assert_eq!(walk(&[]), [Entry::Stdin]);
        assert_eq!(walk(&["-".into()]), [Entry::Stdin]);
    }

    #[test]
    fn missing_path_message() {
        let w = walk(&["/nonexistent/x\x1b".into()]);
        match &w[0] {
            Entry::Error(m) => assert_eq!(
                m,
                "urlsift: /nonexistent/x\\x1b: No such file or directory (os error 2)"
            ),
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn path_list_after_the_paths_looked_at_lazily() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        fs::write(d.join("a b"), "x").unwrap();
        fs::create_dir(d.join("sub")).unwrap();
        fs::write(d.join("sub/c"), "x").unwrap();
        let mut data = Vec::new();
        for name in ["a b", "missing", "sub"] {
            data.extend_from_slice(d.join(name).as_os_str().as_bytes());
            data.push(0);
        }
        let data: &'static [u8] = Box::leak(data.into_boxed_slice());
        let list = PathList::new(Box::new(data), 0, "l".into());
        let got: Vec<String> = Walker::with_list(&[], list)
            .map(|e| match e {
                Entry::File { path, .. } => {
                    path.strip_prefix(d).unwrap().to_string_lossy().into_owned()
                }
                Entry::Error(m) => format!("error {}", m.contains("missing")),
                Entry::Stdin => "stdin".into(),
            })
            .collect();
        assert_eq!(got, ["a b", "error true", "sub/c"]);
    }

    #[test]
    fn directories_listed_lazily_in_byte_order() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path();
        for f in ["b/2", "b/1", "a", "c/x/y", "B"] {
            let p = d.join(f);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(&p, "x").unwrap();
        }
        let top = d.join("a");
        let mut w = Walker::new(&[top.clone().into(), d.into()]);
        assert!(w.had_dir());
        // The file named first comes before the directory is listed.
        assert_eq!(
            w.next(),
            Some(Entry::File {
                path: top,
                regular: true,
                size: Some(1),
                dir: None,
            })
        );
        assert!(w.stack.is_empty());
        let rest: Vec<_> = w
            .map(|e| match e {
                Entry::File {
                    path,
                    regular,
                    size,
                    dir,
                } => {
                    assert!(dir.is_some(), "opened relative to its directory");
                    assert!(regular);
                    assert_eq!(size, None, "a listed regular file is not stat-ed");
                    path.strip_prefix(d).unwrap().to_string_lossy().into_owned()
                }
                e => panic!("{e:?}"),
            })
            .collect();
        assert_eq!(rest, ["B", "a", "b/1", "b/2", "c/x/y"]);
    }

    #[test]
    fn deep_trees_hold_few_directory_handles() {
        let t = tempfile::tempdir().unwrap();
        let mut dir = t.path().to_path_buf();
        for i in 0..30 {
            dir = dir.join(format!("d{i}"));
            fs::create_dir(&dir).unwrap();
            fs::write(dir.join("a"), format!("{i}")).unwrap();
            fs::write(dir.join("z"), format!("{i}")).unwrap();
        }
        let mut w = Walker::new(&[t.path().into()]);
        let mut seen = Vec::new();
        while let Some(e) = w.next() {
            let open = w.stack.iter().filter(|l| l.fd.is_some()).count();
            assert!(open <= MAX_OPEN_LEVELS, "{open} handles");
            // Every file opens, by handle or by path, and is the right one.
            let mut text = String::new();
            io::Read::read_to_string(&mut e.open().unwrap(), &mut text).unwrap();
            seen.push(text);
        }
        // Depth first, "a" before the subdirectory, "z" after it.
        let a = (0..30).map(|i| i.to_string());
        let z = (0..30).rev().map(|i| i.to_string());
        assert_eq!(seen, a.chain(z).collect::<Vec<_>>());
    }
}
