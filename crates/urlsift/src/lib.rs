//! urlsift finds the URLs that plain-text mail and Usenet news carry the way
//! RFC 1738 says they are written there: wrapped as `<URL:...>` or in bare
//! angle brackets `<scheme:...>`, possibly broken across lines, quoted in
//! replies, with a hyphen at a line break whose meaning is left open.
//!
//! The library is the stream adapter other mail and news tools build on:
//! it depends on two byte-search crates (`memchr`, `bytecount`) and nothing
//! else, reads any input in bounded memory, and gives the same matches
//! however the input is chunked. The `urlsift` command (package
//! `urlsift-cli`) is a thin layer over it.
//!
//! ```toml
//! [dependencies]
//! urlsift = "0.1"
//! ```
//!
//! # Three ways in
//!
//! **Parse one URL** with [`Url::parse`]: the grammar of RFC 1738 section 5
//! for every scheme (http, ftp, gopher, mailto, news, nntp, telnet, wais,
//! file, prospero and the generic form), into typed parts that borrow from
//! the input. A [`ParseError`] gives the byte offset and the rule that
//! failed; [`Warnings`] carry the section 6 security notes.
//!
//! ```
//! use urlsift::{Specific, Url};
//!
//! let url = Url::parse("ftp://ds.internic.net/rfc/rfc1738.txt;type=a")?;
//! assert_eq!(url.host_str(), Some("ds.internic.net"));
//! assert_eq!(url.port_or_default(), Some(21));
//! if let Specific::Ftp(ftp) = url.specific() {
//!     let commands: Vec<String> = ftp.commands().iter().map(|c| c.to_string()).collect();
//!     assert_eq!(commands[2..], ["CWD rfc", "TYPE A", "RETR rfc1738.txt"]);
//! }
//!
//! let err = Url::parse("http://host-/").unwrap_err();
//! assert_eq!(err.offset(), 12);
//! println!("{err}"); // says which rule failed, and where
//! # Ok::<(), urlsift::ParseError>(())
//! ```
//!
//! **Pull URLs from a reader** with [`Extractor`], an iterator over any
//! [`std::io::Read`] (a file, a socket, a decompressor): each [`Match`]
//! has its URL, its place (line, column, byte offset of the opening `<`)
//! and how it was written. A read error comes after the URLs the bytes
//! before it hold; after `WouldBlock` the iteration resumes.
//!
//! ```
//! let mail: &[u8] = b"> Try <URL:ftp://ds.in\n>   ternic.net/rfc/rfc1738.txt;type=a> or\n\
//!                     > <news:comp.infosystems.www>, not <jim@example.org>.\n";
//! for found in urlsift::Extractor::new(mail) {
//!     let m = found?;
//!     println!("{}:{}: {}", m.line(), m.column(), m.as_str());
//! }
//! let all: Vec<_> = urlsift::Extractor::new(mail).collect::<Result<_, _>>()?;
//! assert_eq!(all[0].as_str(), "ftp://ds.internic.net/rfc/rfc1738.txt;type=a");
//! assert!(all[0].is_broken() && all[0].is_quoted());
//! assert_eq!((all[1].line(), all[1].column()), (3, 3));
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! **Push bytes as they come** with [`PushScanner`], for event loops and
//! async code that own their I/O: [`PushScanner::feed`] returns the
//! matches each push decides, [`PushScanner::finish`] the rest.
//!
//! ```
//! use urlsift::{PushScanner, Scanner};
//!
//! let mut push = PushScanner::new(Scanner::new());
//! let mut urls = Vec::new();
//! for packet in [&b"<URL:ftp://ds.in"[..], b"\n  ternic.net/rfc> and <gop", b"her://spinaltap.micro.umn.edu/>"] {
//!     urls.extend(push.feed(packet).map(|m| m.as_str().into_owned()));
//! }
//! urls.extend(push.finish().map(|m| m.as_str().into_owned()));
//! assert_eq!(urls, ["ftp://ds.internic.net/rfc", "gopher://spinaltap.micro.umn.edu/"]);
//! ```
//!
//! A [`Scanner`] holds the settings all three share: the policy, the
//! candidate bounds, rejected candidates on request, the MIME reading
//! ([`Scanner::mime`], on by default: quoted-printable and base64 text
//! decoded, attachments left out, every position still the raw bytes',
//! contract rules 10 to 13), the HTML parts read ([`Scanner::html`]: by
//! default those that are no alternative to plain text, their links as
//! [`Form::Href`], rules 18 to 22) and naked URLs ([`Scanner::naked`],
//! off by default: `https://example.org/x.` without brackets, rules 14 to
//! 17, [`Form::Naked`]), and the message fields each match carries
//! ([`Scanner::fields`], none by default: the [`Match::message`]'s date,
//! newsgroups, subject and Message-ID). [`Scanner::extract`] scans a slice
//! at once. For
//! callers that split a large input among threads, [`PieceReader`] cuts
//! it in [`Piece`]s at line starts and [`Scanner::scan_piece_each`] scans
//! each in the raw reading: the command's own path for plain text.
//!
//! # Conformance
//!
//! What counts as a URL in text is written out in `docs/rules.md`, rule by rule
//! (the Appendix of RFC 1738 made exact); the policies are
//! [`Policy::Strict`], exactly the grammar, and [`Policy::Lenient`] (the
//! default), which also takes an unencoded `~` and `/` or `?` in an http
//! search part, each reported as a warning. User information in an http URL
//! stays invalid under both: it is how `http://bank.example@evil.example/`
//! disguises itself. urlsift reads; it never fetches anything.
#![deny(missing_docs)]

/// The README's examples are compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The guide's library examples are compiled and run as doctests too.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/guide.md")]
pub struct GuideDoctests;

mod charset;
mod class;
mod date;
mod error;
mod html;
mod lines;
mod map;
mod matches;
mod mbox;
mod message;
mod mime;
mod multibyte;
mod naked;
mod params;
mod percent;
mod pieces;
mod readbuf;
mod scan;
mod scanner;
mod settings;
mod stream;
mod tracker;
mod unwrap;
mod url;
mod warning;
mod wide;

pub use charset::Charset;
pub use date::{DateError, DateSource, Rfc3339, Timestamp};
pub use error::{ErrorKind, ParseError};
pub use matches::{Encoding, Form, Hyphen, HyphenChoice, Match, Rejection, Span, Unclosed};
pub use message::{
    decode_header, decode_words, Fields, MessageInfo, UnknownField, VALUE_CAP, WINDOW,
};
pub use pieces::{Piece, PieceReader};
pub use readbuf::ReadBuf;
pub use scan::PieceContext;
pub use scanner::extract;
pub use settings::HtmlMode;
pub use settings::{Limits, Scanner};
pub use stream::{Extractor, PushScanner};
pub use tracker::{MessageMap, MessageTracker};
pub use unwrap::{unwrap, wrapped, Hop, Kind, UnwrapError, Unwrapped, MAX_DEPTH};
pub use url::{
    Ftp, FtpCommand, FtpType, Gopher, Host, Http, News, Policy, Prospero, ProsperoFields, Scheme,
    Specific, Url, Wais,
};
pub use warning::{Warning, WarningIter, WarningKind, Warnings};
