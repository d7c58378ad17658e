//! Section 6 (security) and lenient-policy warnings, computed while parsing.

use std::fmt;

/// What a [`Warning`] is about.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WarningKind {
    /// Lenient: an unencoded `~` (RFC 1738 calls it unsafe, section 2.2).
    Tilde,
    /// Lenient: an unencoded `/` in an http search part.
    SearchSlash,
    /// Lenient: an unencoded `?` in an http search part.
    SearchQuestion,
    /// A password in the URL (section 6: visible to anyone who sees it).
    Password,
    /// A port other than the scheme's default (section 6).
    NonDefaultPort,
    /// A non-default port below 1024: a well-known service (section 6).
    ReservedPort,
    /// An encoded control byte (`%00`-`%1F`, `%7F`), e.g. CR/LF injection.
    EncodedControl,
    /// A hostnumber group above 255.
    HostnumberRange,
    /// A port above 65535.
    PortRange,
}

const ALL: [WarningKind; 9] = [
    WarningKind::Tilde,
    WarningKind::SearchSlash,
    WarningKind::SearchQuestion,
    WarningKind::Password,
    WarningKind::NonDefaultPort,
    WarningKind::ReservedPort,
    WarningKind::EncodedControl,
    WarningKind::HostnumberRange,
    WarningKind::PortRange,
];

impl WarningKind {
    /// Stable kebab-case identifier (for JSON output).
    pub fn code(self) -> &'static str {
        match self {
            WarningKind::Tilde => "tilde",
            WarningKind::SearchSlash => "search-slash",
            WarningKind::SearchQuestion => "search-question",
            WarningKind::Password => "password",
            WarningKind::NonDefaultPort => "non-default-port",
            WarningKind::ReservedPort => "reserved-port",
            WarningKind::EncodedControl => "encoded-control",
            WarningKind::HostnumberRange => "hostnumber-range",
            WarningKind::PortRange => "port-range",
        }
    }
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WarningKind::Tilde => "unencoded '~' (should be written %7E); accepted by the lenient policy",
            WarningKind::SearchSlash => "unencoded '/' in the http search part; accepted by the lenient policy",
            WarningKind::SearchQuestion => "unencoded '?' in the http search part; accepted by the lenient policy",
            WarningKind::Password => "the URL contains a password in clear text",
            WarningKind::NonDefaultPort => "the URL uses a port other than the protocol's default",
            WarningKind::ReservedPort => "the URL points a protocol at a different well-known port (below 1024): it may talk to another service",
            WarningKind::EncodedControl => "the URL encodes a control character (such as CR or LF) that could inject commands",
            WarningKind::HostnumberRange => "a number of the IP address is above 255",
            WarningKind::PortRange => "the port is above 65535",
        })
    }
}

/// One warning: its kind and the byte offset of its first occurrence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Warning {
    /// What it is about.
    pub kind: WarningKind,
    /// Byte offset (in the URL) of the first occurrence.
    pub offset: usize,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.kind, self.offset)
    }
}

const NONE: u32 = u32::MAX;

/// The warnings of one URL: at most one per kind, at its first occurrence.
/// `Copy`, no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Warnings {
    first: [u32; 9],
}

impl Default for Warnings {
    fn default() -> Self {
        Warnings { first: [NONE; 9] }
    }
}

impl Warnings {
    pub(crate) fn add(&mut self, kind: WarningKind, offset: usize) {
        let slot = &mut self.first[kind as usize];
        let off = offset.min(NONE as usize - 1) as u32;
        if off < *slot {
            *slot = off;
        }
    }

    /// No warnings.
    pub fn is_empty(&self) -> bool {
        self.first.iter().all(|&o| o == NONE)
    }

    /// Number of distinct kinds present.
    pub fn len(&self) -> usize {
        self.first.iter().filter(|&&o| o != NONE).count()
    }

    /// Whether a kind is present.
    pub fn contains(&self, kind: WarningKind) -> bool {
        self.first[kind as usize] != NONE
    }

    /// The warnings in offset order (ties in kind order).
    pub fn iter(&self) -> WarningIter {
        WarningIter {
            w: *self,
            last: None,
        }
    }
}

/// Iterator over [`Warnings`].
#[derive(Clone, Debug)]
pub struct WarningIter {
    w: Warnings,
    last: Option<(u32, usize)>,
}

impl Iterator for WarningIter {
    type Item = Warning;
    fn next(&mut self) -> Option<Warning> {
        let mut best: Option<(u32, usize)> = None;
        for (k, &o) in self.w.first.iter().enumerate() {
            if o == NONE {
                continue;
            }
            let key = (o, k);
            if self.last.is_some_and(|l| key <= l) {
                continue;
            }
            if best.map_or(true, |b| key < b) {
                best = Some(key);
            }
        }
        self.last = best;
        best.map(|(o, k)| Warning {
            kind: ALL[k],
            offset: o as usize,
        })
    }
}

impl IntoIterator for Warnings {
    type Item = Warning;
    type IntoIter = WarningIter;
    fn into_iter(self) -> WarningIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_dedup() {
        let mut w = Warnings::default();
        assert!(w.is_empty());
        w.add(WarningKind::Password, 9);
        w.add(WarningKind::Tilde, 20);
        w.add(WarningKind::Tilde, 12);
        w.add(WarningKind::NonDefaultPort, 9);
        let v: Vec<_> = w.iter().map(|w| (w.kind.code(), w.offset)).collect();
        assert_eq!(v, [("password", 9), ("non-default-port", 9), ("tilde", 12)]);
        assert_eq!(w.len(), 3);
        for (i, k) in ALL.iter().enumerate() {
            assert_eq!(*k as usize, i);
        }
    }
}
