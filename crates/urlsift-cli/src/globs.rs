//! `--glob` and `--iglob`: which files of a walked directory are searched,
//! matched as ripgrep matches its override globs (gitignore syntax, with
//! the meaning turned round).
//!
//! - A glob selects; `!glob` excludes. When several match a path, the one
//!   given last wins (the `--iglob` ones count as given after the `--glob`
//!   ones, as in ripgrep).
//! - When some glob selects, a file no glob matches is skipped; a directory
//!   is still entered (only an excluding glob prunes a directory).
//! - A glob with no `/` matches the name at any depth (`*.mbox` is
//!   `**/*.mbox`); one with a `/` matches the whole path as the walk prints
//!   it (a leading `./` dropped), a leading `/` only anchoring it; a
//!   trailing `/` matches directories only. `*` and `?` never match `/`;
//!   `**` does.
//!
//! Paths named on the command line are always searched, as in ripgrep.
//! The archive walk calls [`Globs::allows`] with a member's
//! name inside its archive.

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

/// One glob's meaning beside its matcher.
#[derive(Clone, Debug)]
struct Rule {
    exclude: bool,
    dir_only: bool,
}

/// The compiled `--glob` and `--iglob` patterns.
#[derive(Clone, Debug, Default)]
pub struct Globs {
    set: GlobSet,
    rules: Vec<Rule>,
    selecting: bool,
}

/// A pattern that is not a glob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobError {
    /// The pattern as given.
    pub pattern: String,
    /// Why it is not a glob.
    pub reason: String,
}

impl std::fmt::Display for GlobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "--glob {:?}: {}", self.pattern, self.reason)
    }
}

impl std::error::Error for GlobError {}

impl Globs {
    /// Compiles `(pattern, ignore case)` pairs, lowest precedence first.
    pub fn new(patterns: &[(String, bool)]) -> Result<Globs, GlobError> {
        let mut b = GlobSetBuilder::new();
        let mut rules = Vec::new();
        for (pattern, icase) in patterns {
            let err = |reason: String| GlobError {
                pattern: pattern.clone(),
                reason,
            };
            let mut g = pattern.as_str();
            let exclude = g.starts_with('!');
            // `!` excludes; `\!` is a glob starting with `!`.
            if exclude || g.starts_with("\\!") {
                g = &g[1..];
            }
            let dir_only = g.ends_with('/') && g.len() > 1;
            if dir_only {
                g = &g[..g.len() - 1];
            }
            let anchored = g.starts_with('/');
            if anchored {
                g = &g[1..];
            }
            if g.is_empty() {
                return Err(err("an empty pattern".into()));
            }
            let mut actual = if !anchored && !g.contains('/') && !g.starts_with("**/") {
                format!("**/{g}")
            } else {
                g.to_string()
            };
            // `dir/**` is what is inside the directory, not itself.
            if actual.ends_with("/**") {
                actual.push_str("/*");
            }
            let glob = GlobBuilder::new(&actual)
                .literal_separator(true)
                .case_insensitive(*icase)
                .backslash_escape(true)
                .build()
                .map_err(|e| err(e.kind().to_string()))?;
            b.add(glob);
            rules.push(Rule { exclude, dir_only });
        }
        let set = b.build().map_err(|e| GlobError {
            pattern: String::new(),
            reason: e.to_string(),
        })?;
        let selecting = rules.iter().any(|r| !r.exclude);
        Ok(Globs {
            set,
            rules,
            selecting,
        })
    }

    /// Whether there are no globs (everything is searched).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Whether an archive member (its path inside the archive) is
    /// searched: the last glob matching it decides, and one no glob
    /// matches is searched, since the archive itself was selected already
    /// (`-g '*.mbox.zip'` searches every member; `-g '!*.jpg'` skips the
    /// images inside archives too).
    pub fn allows_member(&self, name: &[u8]) -> bool {
        self.rules.is_empty() || self.last_match(name, false).is_none_or(|r| !r.exclude)
    }

    /// Whether a walked path (a file, or a directory to enter) is kept.
    /// `path` is as the walk prints it, or a member's name in an archive.
    pub fn allows(&self, path: &[u8], is_dir: bool) -> bool {
        if self.rules.is_empty() {
            return true;
        }
        match self.last_match(path, is_dir) {
            Some(r) => !r.exclude,
            None => is_dir || !self.selecting,
        }
    }

    /// The last rule matching `path` (a rule for directories only matches
    /// a directory): the one that decides, as in gitignore.
    fn last_match(&self, path: &[u8], is_dir: bool) -> Option<&Rule> {
        let path = path.strip_prefix(b"./").unwrap_or(path);
        self.set
            .matches(bytes_path(path))
            .into_iter()
            .rev()
            .map(|i| &self.rules[i])
            .find(|r| !r.dir_only || is_dir)
    }
}

/// A path from its bytes (Unix: any bytes).
fn bytes_path(b: &[u8]) -> &std::path::Path {
    use std::os::unix::ffi::OsStrExt;
    std::path::Path::new(std::ffi::OsStr::from_bytes(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn globs(p: &[&str]) -> Globs {
        let v: Vec<(String, bool)> = p.iter().map(|s| (s.to_string(), false)).collect();
        Globs::new(&v).unwrap()
    }

    #[test]
    fn no_globs_keep_everything() {
        let g = globs(&[]);
        assert!(g.is_empty());
        assert!(g.allows(b"a/b.txt", false));
    }

    #[test]
    fn a_name_glob_matches_at_any_depth_and_selects() {
        let g = globs(&["*.mbox"]);
        assert!(g.allows(b"a.mbox", false));
        assert!(g.allows(b"./x/y/a.mbox", false));
        assert!(!g.allows(b"x/a.overview", false));
        // Directories are entered whatever the selecting globs.
        assert!(g.allows(b"x", true));
    }

    #[test]
    fn excludes_and_the_last_match_wins() {
        let g = globs(&["*.txt", "!secret*", "secret-ok.txt"]);
        assert!(g.allows(b"d/a.txt", false));
        assert!(!g.allows(b"d/secret.txt", false));
        assert!(g.allows(b"d/secret-ok.txt", false));
        // Only excluding globs: the rest is kept.
        let g = globs(&["!*.gz"]);
        assert!(g.allows(b"a.txt", false));
        assert!(!g.allows(b"d/a.gz", false));
    }

    #[test]
    fn slashes_anchor_and_a_trailing_slash_means_directories() {
        let g = globs(&["!old/"]);
        assert!(!g.allows(b"mail/old", true));
        assert!(g.allows(b"mail/old", false), "a file named old stays");
        let g = globs(&["spool/*.txt"]);
        assert!(g.allows(b"spool/a.txt", false));
        assert!(!g.allows(b"spool/x/a.txt", false), "* does not cross /");
        assert!(!g.allows(b"top/spool/a.txt", false));
        let g = globs(&["spool/**"]);
        assert!(g.allows(b"spool/x/a.txt", false));
        let g = globs(&["/a.txt"]);
        assert!(g.allows(b"a.txt", false));
        assert!(!g.allows(b"d/a.txt", false));
    }

    #[test]
    fn iglob_ignores_case_and_bad_globs_are_errors() {
        let g = Globs::new(&[("*.eml".into(), true)]).unwrap();
        assert!(g.allows(b"X.EML", false));
        assert!(!globs(&["*.eml"]).allows(b"X.EML", false));
        let e = Globs::new(&[("a[b".into(), false)]).unwrap_err();
        assert!(e.to_string().starts_with("--glob \"a[b\": "), "{e}");
        assert!(Globs::new(&[("!".into(), false)]).is_err());
    }
}
