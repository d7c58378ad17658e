//! The scanner's settings ([`Scanner`](crate::Scanner), [`Limits`](crate::Limits)): what every reader
//! and the engine are told. The scanning itself is built on them above
//! (`scanner`); the settings import nothing but the URL policy.

use crate::message::Fields;
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
    pub(crate) html: HtmlMode,
    pub(crate) fields: Fields,
    pub(crate) anchor_text: bool,
    pub(crate) keep_parse: bool,
}

impl Default for Scanner {
    fn default() -> Self {
        Scanner {
            policy: Policy::default(),
            limits: Limits::default(),
            rejected: false,
            mime: true,
            naked: false,
            html: HtmlMode::Fallback,
            fields: Fields::NONE,
            anchor_text: true,
            keep_parse: false,
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
    /// text decoded, attachments left out, HTML read as [`Scanner::html`]
    /// says, each match at the raw bytes that encode it. Input without MIME
    /// headers reads the same either way.
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

    /// Gives each match its message's metadata, the header `fields`
    /// asked for ([`Match::message`](crate::Match::message)); none by
    /// default, which costs nothing. In the MIME reading the innermost
    /// forwarded message's `Message-ID` is read whatever this says.
    /// [`Scanner::scan_piece_each`] gives none: a caller that splits an
    /// input tracks messages with a
    /// [`MessageTracker`](crate::MessageTracker).
    pub fn fields(mut self, fields: Fields) -> Scanner {
        self.fields = fields;
        self
    }

    /// The fields asked for (see [`Scanner::fields`]).
    pub fn get_fields(&self) -> Fields {
        self.fields
    }

    /// Whether naked URLs are reported.
    pub fn get_naked(&self) -> bool {
        self.naked
    }

    /// Which HTML parts the MIME reading reads (contract rules 18 to 22):
    /// by default ([`HtmlMode::Fallback`]) those that are no alternative to
    /// plain text; their `a` and `area` hrefs are reported as
    /// [`Form::Href`](crate::Form::Href) and their text is read as text is,
    /// each match at the raw bytes that encode it. [`HtmlMode::Never`]
    /// reads none, as before.
    ///
    /// ```
    /// let mail = b"Content-Type: text/html\n\n<p>See <a href=\"http://a.example/x\">\
    ///              the page</a> or &lt;URL:ftp://b.example/y&gt;.</p>\n";
    /// let found = urlsift::Scanner::new().extract(mail);
    /// assert_eq!(found[0].as_str(), "http://a.example/x");
    /// assert_eq!(found[0].form(), urlsift::Form::Href);
    /// assert_eq!((found[0].line(), found[0].column()), (3, 17));
    /// assert_eq!(found[0].content_type(), Some("text/html"));
    /// assert_eq!(found[1].as_str(), "ftp://b.example/y");
    /// let never = urlsift::Scanner::new().html(urlsift::HtmlMode::Never);
    /// assert!(never.extract(mail).is_empty());
    /// ```
    pub fn html(mut self, mode: HtmlMode) -> Scanner {
        self.html = mode;
        self
    }

    /// Which HTML parts are read.
    pub fn get_html(&self) -> HtmlMode {
        self.html
    }

    /// With `true` (the default), each `href` match of an `a` tag carries
    /// its link's text ([`Match::anchor`](crate::Match::anchor)); `false`
    /// spares reading it where it is not wanted.
    pub fn anchor_text(mut self, yes: bool) -> Scanner {
        self.anchor_text = yes;
        self
    }

    /// Whether `href` matches carry their link's text.
    pub fn get_anchor_text(&self) -> bool {
        self.anchor_text
    }

    /// With `true`, each match keeps what the scanner's parse read of its
    /// URL, and [`Match::url`](crate::Match::url) gives it without
    /// parsing again: for a caller that reads the parts of most URLs
    /// (JSON's fields, normal forms), to whom the second parse was about
    /// a twentieth of the time. Off by default: it is a small cost to
    /// every match, and `Match::url` parses again.
    ///
    /// ```
    /// let s = urlsift::Scanner::new().keep_parse(true);
    /// let m = &s.extract(b"<URL:http://Example.COM:80/a>")[0];
    /// assert_eq!(m.url().unwrap().normalized(), "http://example.com/a");
    /// ```
    pub fn keep_parse(mut self, yes: bool) -> Scanner {
        self.keep_parse = yes;
        self
    }

    /// Whether matches keep the scanner's parse of their URL.
    pub fn get_keep_parse(&self) -> bool {
        self.keep_parse
    }

    /// Whether rejected candidates are reported.
    pub fn get_rejected(&self) -> bool {
        self.rejected
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

/// Which HTML parts of mail are read (contract rule 18).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HtmlMode {
    /// HTML that is no alternative to plain text: an HTML-only message,
    /// an HTML part of a `multipart/mixed` or `multipart/related`, the
    /// HTML of a `multipart/alternative` with no plain text part before
    /// it (one that comes after it is not waited for: the stream is read
    /// once). The default.
    #[default]
    Fallback,
    /// Every HTML part, alternatives to plain text too (a URL in both is
    /// reported for each place).
    Always,
    /// No HTML part (the MIME reading as rules 10 to 13 alone give it).
    Never,
}

impl HtmlMode {
    /// `"fallback"`, `"always"` or `"never"`.
    pub fn as_str(self) -> &'static str {
        match self {
            HtmlMode::Fallback => "fallback",
            HtmlMode::Always => "always",
            HtmlMode::Never => "never",
        }
    }
}
