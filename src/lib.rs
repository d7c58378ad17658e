//! urlsift: extract RFC 1738 URLs from mail and news.
//!
//! The parser part: [`Url`] validates one URL against RFC 1738 section 5
//! (strict or lenient, see [`Policy`]) and exposes its parts without
//! allocating; [`grammar`] is the same grammar as regular expressions and
//! DFAs, used as the test oracle.

pub mod class;
pub mod error;
pub mod grammar;
pub mod percent;
pub mod url;
pub mod warning;

// --- parser re-exports (integrator: keep these lines) ---
pub use error::{ErrorKind, ParseError};
pub use url::{
    Ftp, FtpCommand, FtpType, Gopher, Host, Http, News, Policy, Prospero, ProsperoFields, Scheme,
    Specific, Url, Wais,
};
pub use warning::{Warning, WarningIter, WarningKind, Warnings};
