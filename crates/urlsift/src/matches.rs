//! What the scanner reports: a [`Match`](crate::Match) and the types that describe it
//! (how the URL was written, where it stands, why a candidate was
//! rejected). Every layer shares them, so they sit at the bottom: this
//! module imports only the URL parser's types.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use crate::charset::Charset;
use crate::error::ParseError;
use crate::message::MessageInfo;
use crate::url::{Parts, Policy, Url};

/// How a URL stands in the text (RFC 1738, Appendix).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Form {
    /// `<URL:scheme:...>`, the recommended wrapper; all whitespace inside is
    /// ignored.
    Wrapped,
    /// `<scheme:...>`, bare angle brackets; only line-break whitespace is
    /// ignored.
    Bracketed,
    /// `scheme:...` without brackets, reported only when asked for
    /// ([`Scanner::naked`](crate::Scanner::naked); contract rules 14 to 17); never crosses a line.
    Naked,
    /// The `href` of an `a` or `area` tag in an HTML part
    /// ([`Scanner::html`](crate::Scanner::html); contract rules 18 to 22).
    Href,
}

impl Form {
    /// `"wrapped"`, `"bracketed"`, `"naked"` or `"href"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Wrapped => "wrapped",
            Form::Bracketed => "bracketed",
            Form::Naked => "naked",
            Form::Href => "href",
        }
    }
}

/// What the hyphen rule decided for the line breaks that follow a `-`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hyphen {
    /// Every such hyphen was kept.
    Kept,
    /// Every such hyphen was dropped (keeping it gave no valid URL).
    Dropped,
    /// Some were kept and some dropped (several hyphen breaks).
    Mixed,
}

impl Hyphen {
    /// `"kept"`, `"dropped"` or `"mixed"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Hyphen::Kept => "kept",
            Hyphen::Dropped => "dropped",
            Hyphen::Mixed => "mixed",
        }
    }
}

/// Which reading to report when the hyphen rule leaves two valid ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HyphenChoice {
    /// The hyphen-kept reading (the contract's choice).
    #[default]
    Keep,
    /// The hyphen-dropped reading.
    Drop,
    /// Both readings.
    Both,
}

/// Why a candidate was abandoned before its closing `>` (or, for a naked
/// one, before its end).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unclosed {
    /// A blank line came first.
    BlankLine,
    /// Another `<` came first.
    LessThan,
    /// The input ended first.
    EndOfInput,
    /// A blank between two characters of one line in the bracketed form.
    Blank,
    /// Longer than [`Limits::max_bytes`](crate::Limits::max_bytes).
    TooLong,
    /// More line breaks than [`Limits::max_lines`](crate::Limits::max_lines).
    TooManyLines,
    /// A naked candidate that runs on for [`Limits::max_bytes`](crate::Limits::max_bytes) or more.
    RunTooLong,
    /// An HTML `href` value longer than [`Limits::max_bytes`](crate::Limits::max_bytes).
    HrefTooLong,
}

impl fmt::Display for Unclosed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Unclosed::BlankLine => "unclosed: a blank line before '>'",
            Unclosed::LessThan => "unclosed: another '<' before '>'",
            Unclosed::EndOfInput => "unclosed: end of input before '>'",
            Unclosed::Blank => "not a URL: a blank inside one line of <scheme:...>",
            Unclosed::TooLong => "unclosed: longer than the candidate byte limit",
            Unclosed::TooManyLines => "unclosed: more lines than the candidate line limit",
            Unclosed::RunTooLong => "not a URL: a naked candidate as long as the byte limit",
            Unclosed::HrefTooLong => {
                "not a URL: an href value longer than the candidate byte limit"
            }
        })
    }
}

/// Why a candidate is not a URL.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// Closed by `>`, but not a URL by RFC 1738 section 5.
    Invalid(ParseError),
    /// Abandoned before a closing `>`.
    Unclosed(Unclosed),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Invalid(e) => e.fmt(f),
            Rejection::Unclosed(u) => u.fmt(f),
        }
    }
}

/// A byte range `start..end` of the input, in absolute offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// First byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
}

/// One URL found in the text (or, when asked for, one rejected candidate).
///
/// The URL bytes are owned: a URL broken across lines is joined from
/// several pieces of the source, which [`Match::spans`](crate::Match::spans) lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub(crate) bytes: Vec<u8>,
    pub(crate) alternative: Option<Vec<u8>>,
    pub(crate) form: Form,
    pub(crate) offset: u64,
    pub(crate) end: u64,
    pub(crate) line: u64,
    pub(crate) column: u64,
    pub(crate) spans: Vec<Span>,
    pub(crate) encoding: Option<Encoding>,
    pub(crate) content_type: Option<Arc<str>>,
    /// The charset its MIME part declares (see [`Match::charset`]).
    pub(crate) charset: Option<Charset>,
    /// The innermost forwarded message it stands in (MIME reading).
    pub(crate) forwarded: Option<Arc<MessageInfo>>,
    /// The top-level message it stands in ([`Scanner::fields`](crate::Scanner::fields)).
    pub(crate) message: Option<Arc<MessageInfo>>,
    pub(crate) broken: bool,
    pub(crate) quoted: bool,
    pub(crate) hyphen: Option<Hyphen>,
    pub(crate) policy: Policy,
    pub(crate) rejection: Option<Rejection>,
    /// The text of the `a` element of an `href` match.
    pub(crate) anchor: Option<Box<str>>,
    /// The parts of `bytes` as the scanner's parse read them, when it
    /// kept them: see [`Match::url`].
    pub(crate) parsed: Parsed,
}

/// What the scanner's parse read of a match's bytes ([`Url::check`]),
/// kept (with [`Scanner::keep_parse`](crate::Scanner::keep_parse)) so that
/// a caller who wants the URL's parts (JSON's fields, the normal form of
/// `-u`) need not parse it again. Boxed: a match is moved several times
/// on its way out, and the parts would make it 40% larger; the engine
/// reuses one box from match to match. A memo of the bytes and the
/// policy, not part of the match's value: matches compare alike whether
/// or not it is kept.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parsed(pub(crate) Option<Box<Parts>>);

impl PartialEq for Parsed {
    fn eq(&self, _: &Parsed) -> bool {
        true
    }
}

impl Eq for Parsed {}

impl Match {
    /// The URL as text: joined, whitespace and quote prefixes removed, the
    /// hyphen rule applied, a `#fragment` included. Always ASCII for a valid
    /// match; a rejected candidate's bytes are shown lossily.
    pub fn as_str(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.bytes)
    }

    /// The URL bytes (see [`Match::as_str`](crate::Match::as_str)).
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Whether this is a URL (not a rejected candidate).
    pub fn is_valid(&self) -> bool {
        self.rejection.is_none()
    }

    /// The URL (its [`as_bytes`](Match::as_bytes) under its
    /// [`policy`](Match::policy)) parsed: the scanner's own parse where it
    /// kept it ([`Scanner::keep_parse`](crate::Scanner::keep_parse)), else
    /// parsed again. `None` for a rejected candidate.
    ///
    /// ```
    /// let s = urlsift::Scanner::new().keep_parse(true);
    /// let m = &s.extract(b"<URL:http://Example.COM:80/a>")[0];
    /// let url = m.url().unwrap();
    /// assert_eq!((url.host_str(), url.port()), (Some("Example.COM"), Some(80)));
    /// ```
    pub fn url(&self) -> Option<Url<'_>> {
        if !self.is_valid() {
            return None;
        }
        match self.parsed.0.as_deref() {
            // SAFETY: a parse is kept only with the bytes it was made of
            // (the engine's `make`, the naked pass and the HTML reader set
            // both together, and nothing changes the bytes after).
            Some(&p) => Some(unsafe { Url::of_checked(&self.bytes, p) }),
            None => Url::parse_with(&self.bytes, self.policy).ok(),
        }
    }

    /// The text of the `a` element whose `href` this is (contract rule
    /// 20): the element's text as the HTML reader reads it (rule 21),
    /// character references decoded, decoded from the part's charset to
    /// UTF-8 (with the `charsets` feature; else read as UTF-8), blanks
    /// collapsed to one space and trimmed, at most 200 characters, and
    /// taken from at most [`Limits::max_bytes`](crate::Limits) bytes of
    /// the part after the start tag. `Some("")` for a link with no text
    /// (an image); `None` for every other match (an `area` tag's href, a
    /// URL in text), and for all when
    /// [`Scanner::anchor_text`](crate::Scanner::anchor_text) is off.
    pub fn anchor(&self) -> Option<&str> {
        self.anchor.as_deref()
    }

    /// Why the candidate was rejected, if it was.
    pub fn rejection(&self) -> Option<Rejection> {
        self.rejection
    }

    /// The parse error of a candidate closed by `>` that is not a URL.
    pub fn error(&self) -> Option<ParseError> {
        match self.rejection {
            Some(Rejection::Invalid(e)) => Some(e),
            _ => None,
        }
    }

    /// Wrapped `<URL:...>`, bracketed `<scheme:...>` or naked.
    pub fn form(&self) -> Form {
        self.form
    }

    /// Byte offset of the opening `<` (of a naked URL: of its scheme's
    /// first letter).
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Byte offset just past the closing `>` (for a rejected candidate, past
    /// the last byte looked at).
    pub fn end(&self) -> u64 {
        self.end
    }

    /// 1-based line of the opening `<` (lines end at LF).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// 1-based byte column of the opening `<`.
    pub fn column(&self) -> u64 {
        self.column
    }

    /// The source byte ranges the URL was joined from, in order.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// How the text it was found in was encoded (contract rule 11), when
    /// MIME reading is on and it was: quoted-printable or base64. The
    /// positions are those of the raw bytes all the same (rule 13).
    pub fn encoding(&self) -> Option<Encoding> {
        self.encoding
    }

    /// The content type (`type/subtype`, lower case) of the MIME part it
    /// was found in, when that is not the plain text of a top-level
    /// message or a header block: a part of a multipart, a forwarded
    /// message's body, or an encoded body.
    pub fn content_type(&self) -> Option<&str> {
        self.content_type.as_deref()
    }

    /// The charset of the text it stands in, when known and not UTF-8:
    /// its MIME part's (`charset=` of the part's `Content-Type`, where
    /// [`Match::content_type`] is known), else its message's
    /// ([`MessageInfo::charset`], with [`Scanner::fields`](crate::Scanner::fields)).
    /// A printer decodes the text around the URL by it.
    pub fn charset(&self) -> Option<Charset> {
        self.charset
            .or_else(|| self.message.as_deref().and_then(MessageInfo::charset))
            .filter(|c| !c.is_utf8())
    }

    /// The `Message-ID` of the forwarded message (a `message/rfc822` or
    /// `message/news` part, the innermost one) it was found in, headers
    /// included, as written (trimmed); `None` outside forwarded messages,
    /// when that message has none, or when it comes past the first
    /// [`WINDOW`](crate::WINDOW) bytes of its header. Given
    /// whatever [`Scanner::fields`](crate::Scanner::fields) says;
    /// [`Match::message`] gives a top-level message's too.
    pub fn forwarded_message_id(&self) -> Option<&str> {
        self.forwarded.as_deref().and_then(MessageInfo::message_id)
    }

    /// The message it stands in, with the header fields asked for with
    /// [`Scanner::fields`](crate::Scanner::fields): the innermost forwarded
    /// message in the MIME reading, else the top-level message (an mbox
    /// message, a news article, an `.eml`), in either reading. `None`
    /// outside messages, when no field was asked for, or none of them was
    /// found.
    ///
    /// ```
    /// use urlsift::{Fields, Scanner};
    /// let mail = b"Subject: =?ISO-8859-1?Q?Caf=E9?=\nDate: Tue, 12 Jan 1993 14:02:11 -0500\n\n<http://a.example/>\n";
    /// let found = Scanner::new().fields(Fields::ALL).extract(mail);
    /// let info = found[0].message().unwrap();
    /// assert_eq!(info.subject_lossy().unwrap(), "Café");
    /// assert_eq!(info.date().unwrap().0.to_string(), "1993-01-12T19:02:11Z");
    /// ```
    pub fn message(&self) -> Option<&MessageInfo> {
        self.forwarded.as_deref().or(self.message.as_deref())
    }

    /// [`Match::message`] as the shared value the matches of one message
    /// hold (to tell whether two matches share their message cheaply).
    pub fn shared_message(&self) -> Option<&Arc<MessageInfo>> {
        self.forwarded.as_ref().or(self.message.as_ref())
    }

    /// Sets the top-level message's metadata, for a caller that tracks
    /// messages itself (a [`MessageTracker`](crate::MessageTracker) fed
    /// the pieces it scans apart with
    /// [`Scanner::scan_piece_each`](crate::Scanner::scan_piece_each)).
    pub fn set_message(&mut self, info: Option<Arc<MessageInfo>>) {
        self.message = info;
    }

    /// Whether the URL crossed a line break.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Whether a reply-quote prefix was stripped from a continuation line.
    pub fn is_quoted(&self) -> bool {
        self.quoted
    }

    /// The hyphen rule's decision, when a line break followed a `-`.
    pub fn hyphen(&self) -> Option<Hyphen> {
        self.hyphen
    }

    /// The other valid reading when the hyphen rule left two (the
    /// hyphen-dropped one).
    pub fn alternative(&self) -> Option<Cow<'_, str>> {
        self.alternative.as_deref().map(String::from_utf8_lossy)
    }

    /// Whether the hyphen rule left two valid readings.
    pub fn is_ambiguous(&self) -> bool {
        self.alternative.is_some()
    }

    /// The policy the URL was validated with.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// The URL text to report under a [`HyphenChoice`](crate::HyphenChoice): one reading, or two
    /// for [`HyphenChoice::Both`] on an ambiguous match.
    pub fn readings(&self, choice: HyphenChoice) -> impl Iterator<Item = &[u8]> {
        let (first, second) = match (choice, self.alternative.as_deref()) {
            (HyphenChoice::Drop, Some(alt)) => (alt, None),
            (HyphenChoice::Both, Some(alt)) => (&self.bytes[..], Some(alt)),
            _ => (&self.bytes[..], None),
        };
        std::iter::once(first).chain(second)
    }

    /// An HTML `href` (rule 20) at the raw `offset..end`, `spans`; its line
    /// is set when its place in the text is known.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn href(
        bytes: Vec<u8>,
        policy: Policy,
        rejection: Option<Rejection>,
        offset: u64,
        end: u64,
        column: u64,
        spans: Vec<Span>,
        content_type: Option<Arc<str>>,
        encoding: Option<Encoding>,
        forwarded: Option<Arc<MessageInfo>>,
    ) -> Match {
        Match {
            bytes,
            alternative: None,
            form: Form::Href,
            offset,
            end,
            line: 0,
            column,
            spans,
            encoding,
            content_type,
            charset: None,
            forwarded,
            message: None,
            broken: false,
            quoted: false,
            hyphen: None,
            policy,
            rejection,
            anchor: None,
            parsed: Parsed::default(),
        }
    }

    /// Moves the match by `offset` bytes and `lines` lines, for callers that
    /// scan a haystack in pieces (each piece starting at a line start) and
    /// learn where a piece stands only afterwards.
    pub fn rebase(&mut self, offset: u64, lines: u64) {
        self.offset += offset;
        self.end += offset;
        self.line += lines;
        for s in &mut self.spans {
            s.start += offset;
            s.end += offset;
        }
    }
}

/// How a stretch of decoded text was encoded, as [`Match::encoding`](crate::Match::encoding)
/// reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Encoding {
    /// `Content-Transfer-Encoding: quoted-printable`.
    QuotedPrintable,
    /// `Content-Transfer-Encoding: base64`.
    Base64,
}

impl Encoding {
    /// `"qp"` or `"base64"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Encoding::QuotedPrintable => "qp",
            Encoding::Base64 => "base64",
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{HtmlMode, Policy, Scanner, Url};

    /// A match's URL is its bytes parsed under its policy, whichever way
    /// the scanner found it; asked to, the scanner keeps its parse (not
    /// made again) for every kind but a reading the hyphen rule chose, and
    /// equality ignores it.
    #[test]
    fn url_is_the_bytes_parsed_and_kept_where_it_can_be() {
        let text = b"From a@b Mon Jan 4 10:00:00 1993\n\
            Content-Type: multipart/alternative; boundary=b\n\n--b\n\
            Content-Type: text/plain\n\n\
            see <URL:http://Example.COM:80/a> and <ftp://ftp.x.org/pub/\n \
            file.txt> and <http://www.ex-\n ample.org/> and naked \
            https://naked.example/p?q=1, and <http://bad host/>\n--b\n\
            Content-Type: text/html\n\n<a href=\"http://href.example/x\">x</a>\n--b--\n";
        for (policy, keep) in [
            (Policy::Lenient, true),
            (Policy::Strict, true),
            (Policy::Lenient, false),
        ] {
            let s = Scanner::new()
                .keep_parse(keep)
                .policy(policy)
                .naked(true)
                .rejected(true)
                .html(HtmlMode::Always);
            let ms = s.extract(text);
            let kept: Vec<_> = ms
                .iter()
                .filter(|m| m.is_valid())
                .map(|m| (m.as_str().into_owned(), m.parsed.0.is_some()))
                .collect();
            assert_eq!(
                kept,
                [
                    ("http://Example.COM:80/a".to_string(), keep),
                    ("ftp://ftp.x.org/pub/file.txt".to_string(), keep),
                    // (The hyphen kept: the reading the rule chose.)
                    ("http://www.ex-ample.org/".to_string(), false),
                    ("https://naked.example/p?q=1".to_string(), keep),
                    // (Naked, within the rejected bracketed candidate.)
                    ("http://bad".to_string(), keep),
                    ("http://href.example/x".to_string(), keep),
                ],
                "{policy:?}"
            );
            for m in &ms {
                let again = Url::parse_with(m.as_bytes(), m.policy()).ok();
                let again = again.filter(|_| m.is_valid());
                assert_eq!(m.url(), again, "{}", m.as_str());
                let mut other = m.clone();
                other.parsed.0 = None;
                assert_eq!(&other, m);
            }
            assert!(ms.iter().any(|m| !m.is_valid() && m.url().is_none()));
        }
    }
}
