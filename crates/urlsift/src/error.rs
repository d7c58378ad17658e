//! Parse errors: where the input stops matching RFC 1738 section 5, and why.

use std::fmt;

/// Why a URL was rejected. The offset of the [`ParseError`] is always the
/// first byte at which no valid URL can begin with the bytes read so far
/// (where a DFA for the grammar dies), or the input length when the input is
/// a viable but incomplete prefix; each variant says which byte that is.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The input ends early (offset = input length): a viable prefix.
    Incomplete,
    /// The scheme name is empty (offset 0, the byte that is not a scheme byte).
    SchemeEmpty,
    /// The input ended inside the scheme name: no `:` (offset = length).
    SchemeMissingColon,
    /// A byte that is neither a scheme byte nor `:` (offset: that byte).
    SchemeChar,
    /// A byte outside ASCII (offset: that byte).
    NonAscii,
    /// A byte that the production cannot take here (offset: that byte).
    Unexpected,
    /// `%` not followed by two hex digits (offset: the first non-hex byte).
    BadEscape,
    /// `//` expected after `scheme:` (offset: the byte that is not `/`).
    MissingSlashes,
    /// The host is empty (offset: the byte where the host should start).
    HostEmpty,
    /// A hostname label starts with `-` or is empty (offset: that `-` or `.`).
    LabelStart,
    /// A hostname label ends with `-` (offset: the byte after the `-`).
    LabelEnd,
    /// The hostname ends with `.` (offset: the byte after the `.`).
    TrailingDot,
    /// The last label starts with a digit but the host is not a four-group
    /// hostnumber (offset: the byte after the host).
    TopLabel,
    /// `:` with no digits after it (offset: the byte after the `:`).
    PortEmpty,
    /// The port has a non-digit (offset: that byte).
    PortNotDigits,
    /// User info (`user@`) in an http URL (offset: where the grammar stops
    /// matching: the `@`, or earlier when the user part is not a hostport).
    HttpUserinfo,
    /// A bad `;type=` suffix of an ftp path (offset: the first wrong byte).
    FtpType,
    /// The input is longer than 4 GiB (offset: `u32::MAX`).
    TooLong,
    /// A naked URL candidate with nothing after `scheme:` or `scheme://`
    /// but an optional fragment (contract rule 16; offset: where the rest
    /// should start).
    NothingAfterScheme,
}

impl ErrorKind {
    /// A short reason, as used by `Display`.
    pub fn reason(self) -> &'static str {
        match self {
            ErrorKind::Incomplete => "input ends early",
            ErrorKind::SchemeEmpty => "empty scheme name",
            ErrorKind::SchemeMissingColon => "missing ':'",
            ErrorKind::SchemeChar => "invalid character in scheme name",
            ErrorKind::NonAscii => "non-ASCII byte",
            ErrorKind::Unexpected => "unexpected character",
            ErrorKind::BadEscape => "'%' not followed by two hex digits",
            ErrorKind::MissingSlashes => "expected \"//\"",
            ErrorKind::HostEmpty => "empty host",
            ErrorKind::LabelStart => "empty label or label starts with '-'",
            ErrorKind::LabelEnd => "label ends with '-'",
            ErrorKind::TrailingDot => "ends with '.'",
            ErrorKind::TopLabel => {
                "last label must start with a letter (or be a 4-part hostnumber)"
            }
            ErrorKind::PortEmpty => "empty",
            ErrorKind::PortNotDigits => "not digits",
            ErrorKind::HttpUserinfo => "user name not allowed",
            ErrorKind::FtpType => "expected \";type=\" and one of a, i, d",
            ErrorKind::TooLong => "input longer than 4 GiB",
            ErrorKind::NothingAfterScheme => "nothing after the scheme",
        }
    }
}

/// A rejected URL: the byte offset where it stops matching, the kind of
/// failure and the section 5 production (`rule`) being matched there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ParseError {
    offset: usize,
    kind: ErrorKind,
    rule: &'static str,
}

impl ParseError {
    #[cold]
    #[inline(never)]
    pub(crate) fn new(offset: usize, kind: ErrorKind, rule: &'static str) -> ParseError {
        ParseError { offset, kind, rule }
    }

    /// Byte offset where the input stops matching (see [`ErrorKind`]).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The section 5 production being matched, e.g. `"hostname"`, `"port"`.
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    pub(crate) fn with_kind(mut self, kind: ErrorKind, rule: &'static str) -> ParseError {
        self.kind = kind;
        self.rule = rule;
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} at byte {}",
            self.rule,
            self.kind.reason(),
            self.offset
        )
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display() {
        let e = ParseError::new(12, ErrorKind::LabelEnd, "hostname");
        assert_eq!(e.to_string(), "hostname: label ends with '-' at byte 12");
        let e = ParseError::new(11, ErrorKind::HttpUserinfo, "http");
        assert_eq!(e.to_string(), "http: user name not allowed at byte 11");
    }
}
