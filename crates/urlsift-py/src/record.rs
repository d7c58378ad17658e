//! One found URL as the command's `--json` prints it: the same fields, the
//! same values, `None` where the JSON has `null`.

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

/// The `--json` fields of one URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The input's path, `None` for data given in memory (as stdin's).
    pub path: Option<Arc<str>>,
    /// 1-based line of the opening `<`.
    pub line: u64,
    /// 1-based byte column of the opening `<`.
    pub column: u64,
    /// Byte offset of the opening `<`.
    pub offset: u64,
    /// The URL (the hyphen-kept reading, as the command's default).
    pub url: String,
    /// `"wrapped"` or `"bracketed"`.
    pub form: &'static str,
    /// The scheme in lower case.
    pub scheme: String,
    /// The `#fragment` without `#`.
    pub fragment: Option<String>,
    /// Whether the URL crossed a line break.
    pub broken: bool,
    /// `"kept"`, `"dropped"` or `"mixed"` when a line break followed `-`.
    pub hyphen: Option<&'static str>,
    /// The hyphen-dropped reading when both are valid.
    pub alternative: Option<String>,
    /// Source byte ranges `[start, end)` the URL was joined from.
    pub spans: Vec<(u64, u64)>,
    /// Section 6 warnings.
    pub warnings: Vec<WarningRecord>,
    /// The Message-ID of the message holding the URL.
    pub message_id: Option<String>,
}

impl Record {
    /// The record of a valid match, or `None` for one the command would not
    /// print (a rejected candidate, or, never in practice, a URL that does
    /// not parse again: the command skips it too).
    pub fn new(m: &Match, path: Option<&Arc<str>>, message_id: Option<&str>) -> Option<Record> {
        if !m.is_valid() {
            return None;
        }
        let url = Url::parse_with(m.as_bytes(), m.policy()).ok()?;
        Some(Record {
            path: path.cloned(),
            line: m.line(),
            column: m.column(),
            offset: m.offset(),
            url: url.as_str().to_owned(),
            form: m.form().as_str(),
            scheme: url.scheme().to_ascii_lowercase(),
            fragment: url.fragment().map(str::to_owned),
            broken: m.is_broken(),
            hyphen: m.hyphen().map(|h| h.as_str()),
            alternative: m.alternative().map(|a| a.into_owned()),
            spans: m.spans().iter().map(|s| (s.start, s.end)).collect(),
            warnings: warnings(&url),
            message_id: message_id.map(str::to_owned),
        })
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
        let text = b"x\n> <URL:HTTP://a.b/~x-\n>   y#frag>\n";
        let found = Scanner::new().extract(text);
        let path: Arc<str> = Arc::from("dir/a");
        let r = Record::new(&found[0], Some(&path), Some("<1@x>")).unwrap();
        assert_eq!(r.url, "HTTP://a.b/~x-y#frag");
        assert_eq!((r.line, r.column, r.offset), (2, 3, 4));
        assert_eq!(r.form, "wrapped");
        assert_eq!(r.scheme, "http");
        assert_eq!(r.fragment.as_deref(), Some("frag"));
        assert!(r.broken);
        assert_eq!(r.hyphen, Some("kept"));
        assert_eq!(r.alternative.as_deref(), Some("HTTP://a.b/~xy#frag"));
        assert_eq!(r.spans.len(), 2);
        assert_eq!(r.warnings[0].code, "tilde");
        assert_eq!(r.message_id.as_deref(), Some("<1@x>"));
        assert_eq!(r.path.as_deref(), Some("dir/a"));
    }

    #[test]
    fn rejected_candidates_have_no_record() {
        let found = Scanner::new().rejected(true).extract(b"<http://a-/>");
        assert_eq!(found.len(), 1);
        assert!(Record::new(&found[0], None, None).is_none());
    }
}
