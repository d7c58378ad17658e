//! The URL type: a validated RFC 1738 URL borrowed from the input, with the
//! offsets of its parts (no allocation).

mod ftp;
mod parser;
mod specific;

pub use ftp::{Ftp, FtpCommand, FtpType};
pub use specific::{Gopher, Http, News, Prospero, ProsperoFields, Specific, Wais};

use crate::error::{ErrorKind, ParseError};
use crate::warning::Warnings;
use std::fmt;

/// Which grammar to accept (extraction contract, rule 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// Exactly the RFC 1738 section 5 grammar.
    Strict,
    /// The grammar plus an unencoded `~` wherever an unreserved character
    /// may stand, and `/` and `?` inside an http search part (each warned).
    #[default]
    Lenient,
}

/// The schemes of RFC 1738 section 3 (and `Other` for `genericurl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// `http` (3.3)
    Http,
    /// `ftp` (3.2)
    Ftp,
    /// `gopher` (3.4)
    Gopher,
    /// `mailto` (3.5)
    Mailto,
    /// `news` (3.6)
    News,
    /// `nntp` (3.7)
    Nntp,
    /// `telnet` (3.8)
    Telnet,
    /// `wais` (3.9)
    Wais,
    /// `file` (3.10)
    File,
    /// `prospero` (3.11)
    Prospero,
    /// Any other scheme: `genericurl = scheme ":" schemepart`.
    Other,
}

/// A name of at most 8 bytes as one little-endian word, its letters in
/// lower case. Setting bit 0x20 lowers exactly the capital letters and makes
/// no other byte a small letter, so a name has the key of a known name (all
/// letters) iff it equals it without regard to case; the padding stays zero,
/// which no byte of a name becomes, so the length counts too.
const fn name_key(name: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    let mut i = 0;
    while i < name.len() && i < 8 {
        w[i] = name[i] | 0x20;
        i += 1;
    }
    u64::from_le_bytes(w)
}

impl Scheme {
    /// How many bytes at the start of `bytes` could belong to a scheme name:
    /// the run of letters, digits, `+`, `-` and `.` (section 2.1). A scheme
    /// name is such a run of at least one byte followed by `:`.
    ///
    /// ```
    /// assert_eq!(urlsift::Scheme::name_len(b"news:comp.mail"), 4);
    /// assert_eq!(urlsift::Scheme::name_len(b"Re: hello"), 2);
    /// ```
    pub fn name_len(bytes: &[u8]) -> usize {
        crate::class::scheme_run(bytes)
    }

    /// The scheme for a name, matched without regard to case (2.1).
    pub fn from_name(name: &[u8]) -> Scheme {
        // This runs once per candidate in the scanner's hot path: the name
        // becomes one word and the match compares words.
        if name.is_empty() || name.len() > 8 {
            return Scheme::Other;
        }
        Scheme::from_key(name_key(name))
    }

    /// [`Scheme::from_name`] of `s[..n]`, the scheme name of a URL `s`: the
    /// key taken from one 8-byte load when `s` is that long (the parser asks
    /// this of every candidate; `name_key`'s byte loop cost as much as the
    /// rest of the lookup).
    pub(crate) fn from_prefix(s: &[u8], n: usize) -> Scheme {
        match s.get(..8) {
            Some(head) if (1..=8).contains(&n) => {
                let word = u64::from_le_bytes(head.try_into().expect("8 bytes"));
                // The name's bytes lowered as `name_key` lowers them, the
                // rest zero.
                let keep = u64::MAX >> (64 - 8 * n as u32);
                Scheme::from_key((word | 0x2020_2020_2020_2020) & keep)
            }
            _ => Scheme::from_name(&s[..n.min(s.len())]),
        }
    }

    /// The scheme whose `name_key` is `key`.
    fn from_key(key: u64) -> Scheme {
        const HTTP: u64 = name_key(b"http");
        const FTP: u64 = name_key(b"ftp");
        const GOPHER: u64 = name_key(b"gopher");
        const MAILTO: u64 = name_key(b"mailto");
        const NEWS: u64 = name_key(b"news");
        const NNTP: u64 = name_key(b"nntp");
        const TELNET: u64 = name_key(b"telnet");
        const WAIS: u64 = name_key(b"wais");
        const FILE: u64 = name_key(b"file");
        const PROSPERO: u64 = name_key(b"prospero");
        match key {
            HTTP => Scheme::Http,
            FTP => Scheme::Ftp,
            GOPHER => Scheme::Gopher,
            MAILTO => Scheme::Mailto,
            NEWS => Scheme::News,
            NNTP => Scheme::Nntp,
            TELNET => Scheme::Telnet,
            WAIS => Scheme::Wais,
            FILE => Scheme::File,
            PROSPERO => Scheme::Prospero,
            _ => Scheme::Other,
        }
    }

    /// The lower-case name (`"other"` for [`Scheme::Other`]).
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Ftp => "ftp",
            Scheme::Gopher => "gopher",
            Scheme::Mailto => "mailto",
            Scheme::News => "news",
            Scheme::Nntp => "nntp",
            Scheme::Telnet => "telnet",
            Scheme::Wais => "wais",
            Scheme::File => "file",
            Scheme::Prospero => "prospero",
            Scheme::Other => "other",
        }
    }

    /// The default port of section 3.
    pub fn default_port(self) -> Option<u16> {
        match self {
            Scheme::Ftp => Some(21),
            Scheme::Http => Some(80),
            Scheme::Gopher => Some(70),
            Scheme::Nntp => Some(119),
            Scheme::Telnet => Some(23),
            Scheme::Wais => Some(210),
            Scheme::Prospero => Some(1525),
            _ => None,
        }
    }
}

pub(crate) const NONE: u32 = u32::MAX;

/// A byte range of the input; `start == NONE` when absent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Span {
    start: u32,
    end: u32,
}

impl Span {
    pub(crate) const ABSENT: Span = Span {
        start: NONE,
        end: NONE,
    };

    pub(crate) fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }

    fn get(self, s: &str) -> Option<&str> {
        if self.start == NONE {
            None
        } else {
            s.get(self.start as usize..self.end as usize)
        }
    }
}

/// The offsets of a parsed URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Parts {
    /// Offset of the `:` after the scheme.
    pub(crate) scheme_end: u32,
    pub(crate) scheme: Scheme,
    pub(crate) policy: Policy,
    pub(crate) user: Span,
    pub(crate) password: Span,
    pub(crate) host: Span,
    pub(crate) port: Span,
    pub(crate) host_number: bool,
    /// Offset of the `/` that starts the url-path, or `NONE`.
    pub(crate) slash: u32,
    /// Offset of `#`, or the input length.
    pub(crate) body_end: u32,
    pub(crate) warnings: Warnings,
}

/// Saturating value of a digit string.
pub(crate) fn digits_value(d: &[u8]) -> u32 {
    d.iter().fold(0u32, |v, &b| {
        v.saturating_mul(10)
            .saturating_add(u32::from(b.wrapping_sub(b'0')))
    })
}

/// A host (section 3.1): a domain name or a dotted IP number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host<'a> {
    /// `hostname = *[ domainlabel "." ] toplabel`
    Name(&'a str),
    /// `hostnumber = digits "." digits "." digits "." digits`
    Number(&'a str),
}

impl<'a> Host<'a> {
    /// The host as written.
    pub fn as_str(&self) -> &'a str {
        match *self {
            Host::Name(s) | Host::Number(s) => s,
        }
    }

    /// The four octets of a hostnumber; `None` for a name or a group > 255.
    pub fn octets(&self) -> Option<[u8; 4]> {
        let Host::Number(s) = *self else { return None };
        let mut out = [0u8; 4];
        let mut it = s.split('.');
        for o in &mut out {
            let v = digits_value(it.next()?.as_bytes());
            *o = u8::try_from(v).ok()?;
        }
        Some(out)
    }
}

impl fmt::Display for Host<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A URL valid under RFC 1738 section 5 (optionally with `#fragment`),
/// borrowed from its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Url<'a> {
    s: &'a str,
    p: Parts,
}

impl<'a> Url<'a> {
    /// Parses under the lenient policy.
    pub fn parse(input: &'a str) -> Result<Url<'a>, ParseError> {
        // Text already: no second UTF-8 check, as `parse_with` makes of
        // bytes (it cost a sixth of a parse).
        let p = parser::parse(input.as_bytes(), Policy::Lenient)?;
        Ok(Url { s: input, p })
    }

    /// Parses bytes under the lenient policy.
    pub fn parse_bytes(input: &'a [u8]) -> Result<Url<'a>, ParseError> {
        Url::parse_with(input, Policy::Lenient)
    }

    /// Parses bytes under `policy`.
    pub fn parse_with(input: &'a [u8], policy: Policy) -> Result<Url<'a>, ParseError> {
        let p = parser::parse(input, policy)?;
        // A valid URL is ASCII, so this cannot fail; no `unsafe` needed.
        let s = std::str::from_utf8(input)
            .map_err(|e| ParseError::new(e.valid_up_to(), ErrorKind::NonAscii, "url"))?;
        Ok(Url { s, p })
    }

    /// Whether `input` is a URL under `policy`: [`Url::parse_with`]'s
    /// verdict without building the `Url` (the scanner asks this of every
    /// candidate and keeps only the bytes). The parser accepts ASCII only,
    /// so the text check `parse_with` adds cannot fail after it.
    pub(crate) fn check(input: &[u8], policy: Policy) -> Result<(), ParseError> {
        parser::parse(input, policy)?;
        debug_assert!(input.is_ascii());
        Ok(())
    }

    /// [`Url::check`], and with `keep` the parts the parse read, boxed to
    /// be kept with the bytes ([`Url::of_checked`]): in `spare`'s box when
    /// it has one (a scanner reuses the box of its match before). Without
    /// `keep` it is `check` itself: a scanner that keeps no parse carries
    /// no parts about.
    #[inline]
    pub(crate) fn check_keeping(
        input: &[u8],
        policy: Policy,
        keep: bool,
        spare: &mut Option<Box<Parts>>,
    ) -> Result<Option<Box<Parts>>, ParseError> {
        match keep {
            false => Url::check(input, policy).map(|()| None),
            true => Url::check_boxed(input, policy, spare).map(Some),
        }
    }

    /// [`Url::check_keeping`] keeping the parts (out of line: the parts
    /// stay out of the callers' loops).
    #[inline(never)]
    fn check_boxed(
        input: &[u8],
        policy: Policy,
        spare: &mut Option<Box<Parts>>,
    ) -> Result<Box<Parts>, ParseError> {
        let p = parser::parse(input, policy)?;
        debug_assert!(input.is_ascii());
        Ok(match spare.take() {
            Some(mut b) => {
                *b = p;
                b
            }
            None => Box::new(p),
        })
    }

    /// The URL `input` whose parts [`Url::check`] gave, under those
    /// parts' policy: no second parse, and no text check (which, on URLs
    /// of a few dozen bytes, cost about a seventh of what the parse did).
    ///
    /// # Safety
    /// `p` must be what the parser gave for `input` (asserted in debug
    /// builds): the parser accepts ASCII only, so `input` is then UTF-8.
    pub(crate) unsafe fn of_checked(input: &'a [u8], p: Parts) -> Url<'a> {
        debug_assert_eq!(parser::parse(input, p.policy).ok(), Some(p));
        debug_assert!(input.is_ascii());
        // SAFETY: `input` is ASCII by the function's contract.
        let s = unsafe { std::str::from_utf8_unchecked(input) };
        Url { s, p }
    }

    /// The whole URL as given, fragment included.
    pub fn as_str(&self) -> &'a str {
        self.s
    }

    /// The policy it was parsed under.
    pub fn policy(&self) -> Policy {
        self.p.policy
    }

    /// The scheme name as written.
    pub fn scheme(&self) -> &'a str {
        &self.s[..self.p.scheme_end as usize]
    }

    /// The scheme.
    pub fn scheme_kind(&self) -> Scheme {
        self.p.scheme
    }

    /// The user name (3.1); `ftp://@host.com/` gives `Some("")`.
    pub fn user(&self) -> Option<&'a str> {
        self.p.user.get(self.s)
    }

    /// The password (3.1); `ftp://foo:@host.com/` gives `Some("")`.
    pub fn password(&self) -> Option<&'a str> {
        self.p.password.get(self.s)
    }

    /// The host, if the scheme has one (news articles: the host after `@`).
    pub fn host(&self) -> Option<Host<'a>> {
        let h = self.host_str()?;
        Some(if self.p.host_number {
            Host::Number(h)
        } else {
            Host::Name(h)
        })
    }

    /// The host as written.
    pub fn host_str(&self) -> Option<&'a str> {
        self.p.host.get(self.s)
    }

    /// The port digits as written.
    pub fn port_str(&self) -> Option<&'a str> {
        self.p.port.get(self.s)
    }

    /// The port value (saturating at `u32::MAX`).
    pub fn port(&self) -> Option<u32> {
        self.port_str().map(|d| digits_value(d.as_bytes()))
    }

    /// The explicit port, else the scheme's default (only if there is a host).
    pub fn port_or_default(&self) -> Option<u32> {
        self.port().or_else(|| {
            self.host_str()?;
            self.p.scheme.default_port().map(u32::from)
        })
    }

    /// The url-path: the text after the `/` that follows the hostport, up
    /// to `#` (for ftp including `;type=`, for http including `?search`).
    pub fn path(&self) -> Option<&'a str> {
        if self.p.slash == NONE {
            None
        } else {
            Some(&self.s[self.p.slash as usize + 1..self.p.body_end as usize])
        }
    }

    /// The text after `#`.
    pub fn fragment(&self) -> Option<&'a str> {
        let e = self.p.body_end as usize;
        if e < self.s.len() {
            Some(&self.s[e + 1..])
        } else {
            None
        }
    }

    /// The scheme-specific part: after `scheme:`, before `#`.
    pub fn schemepart(&self) -> &'a str {
        &self.s[self.p.scheme_end as usize + 1..self.p.body_end as usize]
    }

    /// The warnings (section 6, lenient deviations).
    pub fn warnings(&self) -> Warnings {
        self.p.warnings
    }

    /// The typed scheme-specific view.
    pub fn specific(&self) -> Specific<'a> {
        specific::specific(self)
    }

    /// The parts named as in RFC 1738, in URL order (for JSON output).
    pub fn components(&self) -> Vec<(&'static str, &'a str)> {
        specific::components(self)
    }

    /// A normalized form: scheme and host in lower case, a default port
    /// dropped, escapes of unreserved characters decoded, other escapes'
    /// hex digits in upper case.
    pub fn normalized(&self) -> String {
        let mut out = Vec::with_capacity(self.s.len());
        self.normalize_into(&mut out);
        // A parsed URL is ASCII, and so is every byte written.
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// [`Url::normalized`] appended to `out` (ASCII): a caller that
    /// normalizes every URL it meets keeps one buffer instead of an
    /// allocation a URL.
    ///
    /// ```
    /// let url = urlsift::Url::parse("HTTP://Example.COM:80/%61b%7e").unwrap();
    /// let mut out = b"key: ".to_vec();
    /// url.normalize_into(&mut out);
    /// assert_eq!(out, b"key: http://example.com/ab%7E");
    /// ```
    pub fn normalize_into(&self, out: &mut Vec<u8>) {
        let b = self.s.as_bytes();
        let n = b.len();
        out.reserve(n);
        let (hs, he) = match self.p.host.start {
            NONE => (usize::MAX, usize::MAX),
            s => (s as usize, self.p.host.end as usize),
        };
        // The `:` before a default port: the port is dropped from there.
        let colon = match (self.port(), self.p.scheme.default_port()) {
            (Some(v), Some(d)) if v == u32::from(d) => self.p.port.start as usize - 1,
            _ => usize::MAX,
        };
        // Most URLs are normal as written: no capital in the scheme or the
        // host, no escape, no default port. They are copied whole (what
        // the walk below would write, a stretch at a time).
        let capital = |s: &[u8]| s.iter().any(u8::is_ascii_uppercase);
        let scheme_end = self.p.scheme_end as usize;
        if colon == usize::MAX
            && !capital(&b[..scheme_end])
            && (hs == usize::MAX || !capital(&b[hs..he]))
            && memchr::memchr(b'%', &b[scheme_end..]).is_none()
        {
            out.extend_from_slice(b);
            return;
        }
        self.normalize_walk(out, (hs, he), colon);
    }

    /// [`Url::normalize_into`] by the walk, for any URL: the host's range
    /// (`usize::MAX` twice for none) and the `:` of a default port
    /// (`usize::MAX` for none) given.
    fn normalize_walk(&self, out: &mut Vec<u8>, (hs, he): (usize, usize), colon: usize) {
        let b = self.s.as_bytes();
        let n = b.len();
        out.extend(self.scheme().bytes().map(|c| c.to_ascii_lowercase()));
        // Stretches copied whole between the places where something
        // changes (an escape, the host's ends, a dropped port): a byte at a
        // time cost about 40 instructions a byte, and `-u`, `--tally` and
        // `--report` normalize every URL.
        let mut i = self.p.scheme_end as usize;
        while i < n {
            if i == colon {
                i = self.p.port.end as usize;
                continue;
            }
            if let Some(v) = crate::percent::escape_at(b, i) {
                if crate::class::is(v, crate::class::UNRESERVED) {
                    out.push(v);
                } else {
                    out.extend_from_slice(&[
                        b'%',
                        b[i + 1].to_ascii_uppercase(),
                        b[i + 2].to_ascii_uppercase(),
                    ]);
                }
                i += 3;
                continue;
            }
            // To the next `%` (past this byte, which is none or no escape),
            // the host's start or end, or the dropped port's colon.
            let mut stop = memchr::memchr(b'%', &b[i + 1..]).map_or(n, |k| i + 1 + k);
            for edge in [hs, he, colon] {
                if edge > i {
                    stop = stop.min(edge);
                }
            }
            let run = &b[i..stop];
            if (hs..he).contains(&i) {
                out.extend(run.iter().map(u8::to_ascii_lowercase));
            } else {
                out.extend_from_slice(run);
            }
            i = stop;
        }
    }
}

impl fmt::Display for Url<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.s)
    }
}

impl AsRef<str> for Url<'_> {
    fn as_ref(&self) -> &str {
        self.s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Url::normalized`] a byte at a time, as the rule reads: each
    /// escape decoded (unreserved) or its hex digits upper-cased, the host
    /// lowered, a default port and its colon dropped.
    fn normalized_bytewise(u: &Url<'_>) -> String {
        let b = u.s.as_bytes();
        let mut out = u.scheme().to_ascii_lowercase();
        let (hs, he) = match u.p.host.start {
            NONE => (usize::MAX, usize::MAX),
            s => (s as usize, u.p.host.end as usize),
        };
        let drop_port = matches!((u.port(), u.p.scheme.default_port()), (Some(v), Some(d)) if v == u32::from(d));
        let mut i = u.p.scheme_end as usize;
        while i < b.len() {
            if drop_port && i + 1 == u.p.port.start as usize {
                i = u.p.port.end as usize;
                continue;
            }
            if let Some(v) = crate::percent::escape_at(b, i) {
                if crate::class::is(v, crate::class::UNRESERVED) {
                    out.push(v as char);
                } else {
                    out.push('%');
                    out.push(b[i + 1].to_ascii_uppercase() as char);
                    out.push(b[i + 2].to_ascii_uppercase() as char);
                }
                i += 3;
                continue;
            }
            let c = b[i];
            out.push(if (hs..he).contains(&i) {
                c.to_ascii_lowercase()
            } else {
                c
            } as char);
            i += 1;
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        /// The stretch-wise normalization is the byte-wise one.
        #[test]
        fn normalized_is_the_bytewise_rule(
            text in "(http|HTTP|hTTps|ftp|FTP|gopher|news|mailto|telnet|wais|prospero|nntp|x-y)://(([a-zA-Z0-9]|%[0-9a-fA-F]{2}){0,4}(:([a-z0-9]|%[0-9a-fA-F]{2}){0,3})?@)?[a-zA-Z0-9.-]{1,14}(:[0-9]{0,3})?(/([a-zA-Z0-9~._;=-]|%[0-9a-fA-F]{2}){0,8}){0,3}(\\?([a-z0-9=&]|%[0-9a-fA-F]{2}){0,6})?(#([a-zA-Z0-9]|%[0-9a-fA-F]{2}){0,4})?",
        ) {
            if let Ok(u) = Url::parse_with(text.as_bytes(), Policy::Lenient) {
                proptest::prop_assert_eq!(u.normalized(), normalized_bytewise(&u));
            }
        }
    }

    #[test]
    fn normalized_drops_only_a_default_port_and_reads_escapes_anywhere() {
        for text in [
            "http://A.Example:80/%7e%7E%2f%2F",
            "http://A.Example:8080/x",
            "HTTP://AB.Example:80",
            "ftp://U%41:P%2f@H.Example:21/a%7e#F%41",
            "gopher://G.Example:70/1%20x",
            "news:Comp.Lang.C",
            "mailto:A%40B.Example",
            "telnet://Host.Example:23/",
        ] {
            let u = Url::parse_with(text.as_bytes(), Policy::Lenient).unwrap();
            assert_eq!(u.normalized(), normalized_bytewise(&u), "{text}");
        }
    }

    /// The parser's 8-byte lookup is `from_name` of the name before the
    /// colon, whatever follows it and however long the URL.
    #[test]
    fn scheme_from_prefix_is_from_name() {
        for name in [
            "http",
            "HtTp",
            "ftp",
            "gopher",
            "mailto",
            "news",
            "nntp",
            "telnet",
            "wais",
            "file",
            "prospero",
            "PROSPERO",
            "x",
            "https",
            "htt",
            "prosperos",
            "a.b+c-d",
            "ne",
        ] {
            for tail in ["", ":", "://a.b/", ":xxxxxxxxxxxxxxxx", ":\x7f\x00"] {
                let s = format!("{name}{tail}");
                assert_eq!(
                    Scheme::from_prefix(s.as_bytes(), name.len()),
                    Scheme::from_name(name.as_bytes()),
                    "{s}"
                );
            }
        }
    }

    #[test]
    fn scheme_names() {
        assert_eq!(Scheme::from_name(b"HTTP"), Scheme::Http);
        assert_eq!(Scheme::from_name(b"Prospero"), Scheme::Prospero);
        assert_eq!(Scheme::from_name(b"https"), Scheme::Other);
        assert_eq!(Scheme::from_name(b"htt"), Scheme::Other);
        assert_eq!(Scheme::from_name(b""), Scheme::Other);
        assert_eq!(Scheme::from_name(b"prosperos"), Scheme::Other);
        // Each byte of each name replaced by every byte value: only the
        // same letter, in either case, keeps the scheme (section 2.1).
        for name in [
            "http", "ftp", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file", "prospero",
        ] {
            let want = Scheme::from_name(name.as_bytes());
            assert_eq!(want.name(), name);
            for i in 0..name.len() {
                for b in 0..=255u8 {
                    let mut n = name.as_bytes().to_vec();
                    n[i] = b;
                    let same = b.eq_ignore_ascii_case(&name.as_bytes()[i]);
                    assert_eq!(
                        Scheme::from_name(&n) == want,
                        same,
                        "{name} byte {i} = {b:#x}"
                    );
                }
                let mut longer = name.as_bytes().to_vec();
                longer.insert(i, b'a');
                assert_ne!(Scheme::from_name(&longer), want);
            }
        }
        assert_eq!(Scheme::Wais.default_port(), Some(210));
        assert_eq!(Scheme::Mailto.default_port(), None);
        assert_eq!(Policy::default(), Policy::Lenient);
    }

    #[test]
    fn accessors() {
        let u = Url::parse("ftp://foo:@Host.COM:21/a%7e/b;type=i#x").unwrap();
        assert_eq!(u.user(), Some("foo"));
        assert_eq!(u.password(), Some(""));
        assert_eq!(u.host_str(), Some("Host.COM"));
        assert_eq!(u.port(), Some(21));
        assert_eq!(u.path(), Some("a%7e/b;type=i"));
        assert_eq!(u.fragment(), Some("x"));
        assert_eq!(u.normalized(), "ftp://foo:@host.com/a%7E/b;type=i#x");
        let u = Url::parse("ftp://@host.com/").unwrap();
        assert_eq!(u.user(), Some(""));
        assert_eq!(Url::parse("ftp://host.com/").unwrap().user(), None);
        let u = Url::parse("HTTP://10.0.0.300:8080/%41").unwrap();
        assert_eq!(u.host(), Some(Host::Number("10.0.0.300")));
        assert_eq!(u.host().unwrap().octets(), None);
        assert_eq!(u.normalized(), "http://10.0.0.300:8080/A");
        assert_eq!(
            Url::parse("http://1.2.3.4/")
                .unwrap()
                .host()
                .unwrap()
                .octets(),
            Some([1, 2, 3, 4])
        );
        assert_eq!(u.port_or_default(), Some(8080));
        assert_eq!(
            Url::parse("gopher://h").unwrap().port_or_default(),
            Some(70)
        );
        assert_eq!(
            Url::parse("http://h:80/").unwrap().normalized(),
            "http://h/"
        );
    }
}
