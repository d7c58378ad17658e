//! urlsift finds the URLs that plain-text mail and Usenet news carry the way
//! RFC 1738 says they are written there: wrapped as `<URL:...>` or in bare
//! angle brackets `<scheme:...>`, possibly broken across lines, quoted in
//! replies, with a hyphen at a line break whose meaning is left open.
//!
//! # Overview
//!
//! - [`Url`] parses one URL against the grammar of RFC 1738 section 5, every
//!   scheme (http, ftp, gopher, mailto, news, nntp, telnet, wais, file,
//!   prospero and the generic form), into typed parts that borrow from the
//!   input; a [`ParseError`] gives the byte offset and the rule that failed;
//!   [`Warnings`] carry the section 6 security notes.
//! - [`Scanner`] finds the URLs of the Appendix in a byte slice
//!   ([`Scanner::extract`], or the [`extract`] shortcut), [`Extractor`] in any
//!   [`std::io::Read`], and [`PushScanner`] in bytes the caller pushes. All
//!   three give the same [`Match`]es, whatever the chunking, in linear time
//!   and bounded memory.
//! - [`Scanner::naked`] also reports *naked* URLs, `scheme:...` without
//!   brackets (the contract's rules 14 to 17; off by default, since nothing
//!   delimits where such a URL ends), with [`Form::Naked`].
//!
//! # Example
//!
//! ```
//! use urlsift::{Scanner, Specific, Url};
//!
//! let mail = b"> Try <URL:ftp://ds.in\n>   ternic.net/rfc/rfc1738.txt;type=a> or\n\
//!              > <news:comp.infosystems.www>, not <jim@example.org>.\n";
//! let found = Scanner::new().extract(mail);
//! assert_eq!(found.len(), 2);
//! assert_eq!(found[0].as_str(), "ftp://ds.internic.net/rfc/rfc1738.txt;type=a");
//! assert!(found[0].is_broken() && found[0].is_quoted());
//! assert_eq!((found[1].line(), found[1].column()), (3, 3));
//!
//! let url = found[0].url().expect("a valid match parses");
//! assert_eq!(url.host_str(), Some("ds.internic.net"));
//! assert_eq!(url.port_or_default(), Some(21));
//! if let Specific::Ftp(ftp) = url.specific() {
//!     let commands: Vec<String> = ftp.commands().iter().map(|c| c.to_string()).collect();
//!     assert_eq!(commands[2..], ["CWD rfc", "TYPE A", "RETR rfc1738.txt"]);
//! }
//!
//! let err = Url::parse("http://host-/").unwrap_err();
//! assert_eq!(err.offset(), 12);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Conformance
//!
//! What counts as a URL in text is written out in the extraction contract
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

mod class;
mod error;
mod naked;
mod percent;
mod scan;
mod stream;
mod url;
mod warning;

pub use error::{ErrorKind, ParseError};
pub use scan::{
    extract, Form, Hyphen, HyphenChoice, Limits, Match, PieceContext, Rejection, Scanner, Span,
    Unclosed,
};
pub use stream::{Extractor, PushScanner};
pub use url::{
    Ftp, FtpCommand, FtpType, Gopher, Host, Http, News, Policy, Prospero, ProsperoFields, Scheme,
    Specific, Url, Wais,
};
pub use warning::{Warning, WarningIter, WarningKind, Warnings};
