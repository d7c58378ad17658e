//! urlsift: RFC 1738 URLs in mail and news.
#![deny(missing_docs)]

pub mod class;
pub mod cli;
pub mod error;
pub mod grammar;
pub mod mail;
pub mod percent;
pub mod printer;
pub mod scan;
pub mod search;
pub mod stream;
pub mod url;
pub mod walk;
pub mod warning;

pub use error::{ErrorKind, ParseError};
pub use scan::{
    extract, Form, Hyphen, HyphenChoice, Limits, Match, Rejection, Scanner, Span, Unclosed,
};
pub use stream::{Extractor, PushScanner};
pub use url::{
    Ftp, FtpCommand, FtpType, Gopher, Host, Http, News, Policy, Prospero, ProsperoFields, Scheme,
    Specific, Url, Wais,
};
pub use warning::{Warning, WarningIter, WarningKind, Warnings};
