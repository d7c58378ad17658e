//! One found URL as the command's `--json` prints it: the same fields, the
//! same values, `None` where the JSON has `null`.

use std::borrow::Cow;
use std::sync::Arc;

use urlsift::{Match, Url};

/// A section 6 warning: `code`, `message`, `offset`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WarningRecord {
    /// Short code, e.g. `"tilde"`.
    pub code: &'static str,
    /// The sentence the command prints.
    pub message: String,
    /// Byte offset in the URL.
    pub offset: usize,
}

/// One URL with what its `--json` fields are computed from: the match (with
/// its message's fields) and the input's name. The parsed parts (`scheme`,
/// `fragment`, `warnings`) are computed when asked: iterating over URLs
/// costs no second parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    m: Match,
    /// The input's path, `None` for data given in memory (as stdin's).
    pub path: Option<Arc<str>>,
    /// In an archive: the member's path inside it, nested ones joined by
    /// `}{` (`None` for a plain file), as `--json`'s `member`.
    pub member: Option<Arc<str>>,
}

impl Record {
    /// The record of a valid match, or `None` for a rejected candidate
    /// (which `--json` does not print).
    pub fn new(m: Match, path: Option<&Arc<str>>) -> Option<Record> {
        m.is_valid().then(|| Record {
            m,
            path: path.cloned(),
            member: None,
        })
    }

    /// Moves the record by `offset` bytes and `lines` lines (a range of a
    /// file scanned on its own).
    pub fn rebase(&mut self, offset: u64, lines: u64) {
        if offset != 0 || lines != 0 {
            self.m.rebase(offset, lines);
        }
    }

    /// The Message-ID of the message holding the URL (the innermost
    /// forwarded one in a forwarded message).
    pub fn message_id(&self) -> Option<&str> {
        self.m.message().and_then(|i| i.message_id())
    }

    /// The match.
    pub fn get(&self) -> &Match {
        &self.m
    }

    /// The URL parsed (a valid match always parses: the scanner validated
    /// it with the same parser and policy, and kept its parse where it
    /// could).
    pub fn parsed(&self) -> Option<Url<'_>> {
        self.m.url()
    }

    /// The URL (the hyphen-kept reading, the command's default); ASCII.
    pub fn url(&self) -> &str {
        std::str::from_utf8(self.m.as_bytes()).unwrap_or_default()
    }

    /// The scheme in lower case (borrowed when written so).
    pub fn scheme(&self) -> Cow<'_, str> {
        let b = self.m.as_bytes();
        let name = String::from_utf8_lossy(&b[..urlsift::Scheme::name_len(b)]);
        match name.bytes().any(|c| c.is_ascii_uppercase()) {
            true => Cow::Owned(name.to_ascii_lowercase()),
            false => name,
        }
    }

    /// The `#fragment` without `#`.
    pub fn fragment(&self) -> Option<String> {
        self.parsed()?.fragment().map(str::to_owned)
    }

    /// The source byte ranges `[start, end)` the URL was joined from.
    pub fn spans(&self) -> Vec<(u64, u64)> {
        self.m.spans().iter().map(|s| (s.start, s.end)).collect()
    }
}

/// A URL's warnings as the command lists them.
pub fn warnings(url: &Url<'_>) -> Vec<WarningRecord> {
    url.warnings()
        .iter()
        .map(|w| WarningRecord {
            code: w.kind.code(),
            message: w.kind.to_string(),
            offset: w.offset,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use urlsift::Scanner;

    #[test]
    fn fields_of_a_broken_quoted_url() {
        let text = b"Message-ID: <1@x>\n\nx\n> <URL:HTTP://a.b/~x-\n>   y#frag>\n";
        let found = Scanner::new().fields(urlsift::Fields::ALL).extract(text);
        let path: Arc<str> = Arc::from("dir/a");
        let r = Record::new(found[0].clone(), Some(&path)).unwrap();
        assert_eq!(r.url(), "HTTP://a.b/~x-y#frag");
        assert_eq!(r.scheme(), "http");
        assert_eq!(r.fragment().as_deref(), Some("frag"));
        assert_eq!(r.spans().len(), 2);
        let url = r.parsed().unwrap();
        assert_eq!(warnings(&url)[0].code, "tilde");
        assert_eq!(r.message_id(), Some("<1@x>"));
        assert_eq!(r.path.as_deref(), Some("dir/a"));
    }

    #[test]
    fn rejected_candidates_have_no_record() {
        let found = Scanner::new().rejected(true).extract(b"<http://a-/>");
        assert_eq!(found.len(), 1);
        assert!(Record::new(found[0].clone(), None).is_none());
    }
}
