//! The scanner's settings ([`Scanner`](crate::Scanner), [`Limits`](crate::Limits)): what every reader
//! and the engine are told. The scanning itself is built on them above
//! (`scanner`); the settings import nothing but the URL policy.

use crate::url::Policy;

/// Bounds that keep one candidate from holding the stream.
///
/// No real URL comes near the defaults; text that does (an unclosed
/// `<URL:` followed by megabytes) is abandoned at the bound and scanning
/// resumes right after its `<`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Most source bytes from the opening `<` to the closing `>` inclusive.
    pub max_bytes: usize,
    /// Most line breaks inside one candidate.
    pub max_lines: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 16 * 1024,
            max_lines: 100,
        }
    }
}

/// The extractor's settings: validation policy, limits and what to report.
///
/// Cheap to clone; one per thread is the intended use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scanner {
    pub(crate) policy: Policy,
    pub(crate) limits: Limits,
    pub(crate) rejected: bool,
    pub(crate) mime: bool,
    pub(crate) naked: bool,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner {
            policy: Policy::default(),
            limits: Limits::default(),
            rejected: false,
            mime: true,
            naked: false,
        }
    }
}

impl Scanner {
    /// The contract's defaults: lenient validation, default limits, URLs
    /// only, MIME read (rules 10 to 13).
    pub fn new() -> Scanner {
        Scanner::default()
    }

    /// With `false`, the raw reading: every byte is text read by rules 1
    /// to 9 alone, as before MIME. With `true` (the default), messages
    /// are taken apart as rules 10 to 13 say: quoted-printable and base64
    /// text decoded, HTML and attachments left out, each match at the raw
    /// bytes that encode it. Input without MIME headers reads the same
    /// either way.
    ///
    /// ```
    /// let mail = b"Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n\
    ///              See <http://a.example/very-long=\n-path>.\n";
    /// let found = urlsift::Scanner::new().extract(mail);
    /// assert_eq!(found[0].as_str(), "http://a.example/very-long-path");
    /// assert_eq!((found[0].line(), found[0].column()), (4, 5));
    /// assert_eq!(found[0].encoding().map(|e| e.as_str()), Some("qp"));
    /// assert!(urlsift::Scanner::new().mime(false).extract(mail)[0].as_str().contains('='));
    /// ```
    pub fn mime(mut self, yes: bool) -> Scanner {
        self.mime = yes;
        self
    }

    /// Whether MIME is read (see [`Scanner::mime`](crate::Scanner::mime)).
    pub fn get_mime(&self) -> bool {
        self.mime
    }

    /// Validates with `policy` (contract rule 7).
    pub fn policy(mut self, policy: Policy) -> Scanner {
        self.policy = policy;
        self
    }

    /// Sets the bounds on one candidate.
    pub fn limits(mut self, limits: Limits) -> Scanner {
        self.limits = Limits {
            max_bytes: limits.max_bytes.max(8),
            max_lines: limits.max_lines,
        };
        self
    }

    /// Also reports rejected candidates, each with its [`Rejection`](crate::Rejection).
    pub fn rejected(mut self, yes: bool) -> Scanner {
        self.rejected = yes;
        self
    }

    /// Also reports naked URLs, `scheme:...` without brackets (contract
    /// rules 14 to 17), merged with the others in offset order. Off by
    /// default: without delimiters nothing says for sure where such a URL
    /// ends.
    ///
    /// ```
    /// let text = b"See https://example.org/a_(b). Or <URL:ftp://ftp.example/\n  pub/x> (ftp://h.example/y).";
    /// let found = urlsift::Scanner::new().naked(true).extract(text);
    /// let urls: Vec<_> = found.iter().map(|m| (m.form().as_str(), m.as_str())).collect();
    /// assert_eq!(urls, [
    ///     ("naked", "https://example.org/a_(b)".into()),
    ///     ("wrapped", "ftp://ftp.example/pub/x".into()),
    ///     ("naked", "ftp://h.example/y".into()),
    /// ]);
    /// ```
    pub fn naked(mut self, yes: bool) -> Scanner {
        self.naked = yes;
        self
    }

    /// Whether naked URLs are reported.
    pub fn get_naked(&self) -> bool {
        self.naked
    }

    /// The configured policy.
    pub fn get_policy(&self) -> Policy {
        self.policy
    }

    /// The configured limits.
    pub fn get_limits(&self) -> Limits {
        self.limits
    }
}
