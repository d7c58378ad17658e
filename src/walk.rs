//! Turns the command's paths into the sorted list of inputs: files as
//! given, directories walked recursively with entries sorted by name bytes,
//! symlinks followed with loop detection by the (device, inode) of the
//! ancestor directories. Unreadable paths become error entries, in place,
//! so that their messages come out in order.

use std::ffi::OsString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::printer::escape_bytes;

/// One input to search, or an error to report at its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
    /// A message for stderr (`urlsift: PATH: reason`, escaped).
    Error(String),
}

/// The result of a walk.
#[derive(Clone, Debug, Default)]
pub struct Walk {
    /// The inputs in order.
    pub entries: Vec<Entry>,
    /// Whether a directory was given (paths are then shown).
    pub had_dir: bool,
}

/// `urlsift: PATH: reason` with the path escaped.
pub fn message(path: &Path, reason: &dyn std::fmt::Display) -> String {
    let mut v = Vec::new();
    escape_bytes(&mut v, path.as_os_str().as_bytes());
    format!("urlsift: {}: {}", String::from_utf8_lossy(&v), reason)
}

/// Lists the inputs named by `paths` (none: stdin).
pub fn walk(paths: &[OsString]) -> Walk {
    let mut w = Walk::default();
    if paths.is_empty() {
        w.entries.push(Entry::Stdin);
        return w;
    }
    for p in paths {
        if p.as_bytes() == b"-" {
            w.entries.push(Entry::Stdin);
            continue;
        }
        let path = PathBuf::from(p);
        match fs::metadata(&path) {
            Err(e) => w.entries.push(Entry::Error(message(&path, &e))),
            Ok(md) if md.is_dir() => {
                w.had_dir = true;
                let mut ancestors = vec![(md.dev(), md.ino())];
                walk_dir(&path, &mut ancestors, &mut w.entries);
            }
            Ok(_) => w.entries.push(Entry::File(path)),
        }
    }
    w
}

fn walk_dir(dir: &Path, ancestors: &mut Vec<(u64, u64)>, out: &mut Vec<Entry>) {
    let rd = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            out.push(Entry::Error(message(dir, &e)));
            return;
        }
    };
    let mut names = Vec::new();
    for ent in rd {
        match ent {
            // The directory entry's own type (no system call): a regular
            // file needs no stat; directories (for loop detection),
            // symlinks (to follow) and the unknown are looked at below.
            Ok(ent) => {
                let file = ent.file_type().is_ok_and(|t| t.is_file());
                names.push((ent.file_name(), file));
            }
            Err(e) => out.push(Entry::Error(message(dir, &e))),
        }
    }
    names.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    for (name, file) in names {
        let path = dir.join(&name);
        if file {
            out.push(Entry::File(path));
            continue;
        }
        match fs::metadata(&path) {
            Err(e) => out.push(Entry::Error(message(&path, &e))),
            Ok(md) if md.is_dir() => {
                let id = (md.dev(), md.ino());
                if ancestors.contains(&id) {
                    out.push(Entry::Error(message(
                        &path,
                        &"symbolic link loop (directory already being searched)",
                    )));
                    continue;
                }
                ancestors.push(id);
                walk_dir(&path, ancestors, out);
                ancestors.pop();
            }
            Ok(md) if md.is_file() => out.push(Entry::File(path)),
            // Sockets, FIFOs and devices met in a walk are skipped.
            Ok(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdin_default_and_dash() {
        assert_eq!(walk(&[]).entries, [Entry::Stdin]);
        assert_eq!(walk(&["-".into()]).entries, [Entry::Stdin]);
    }

    #[test]
    fn missing_path_message() {
        let w = walk(&["/nonexistent/x\x1b".into()]);
        match &w.entries[0] {
            Entry::Error(m) => assert_eq!(
                m,
                "urlsift: /nonexistent/x\\x1b: No such file or directory (os error 2)"
            ),
            e => panic!("{e:?}"),
        }
    }
}
