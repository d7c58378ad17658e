//! Unwrapping: where a link rewritten by a mail gateway (Safe Links,
//! Proofpoint URL Defense, ...) or a site's redirector (Google, Facebook,
//! Slack) really goes, read from the link itself.
//!
//! [`unwrap`] looks the URL's host and path up in a table of known wrappers
//! (`rules.rs`: host and path patterns, and where each keeps its target),
//! recovers the target, validates it with the crate's own parser (the
//! lenient policy) and, when the target is itself a wrapper, goes on, up to
//! [`MAX_DEPTH`] wrappers deep. Nothing is fetched: a wrapper whose target
//! is kept by the gateway (Mimecast's `/s/TOKEN`) is said to be opaque. A
//! URL on any other host is left alone whatever its query holds.
//!
//! The decoded target's octets that RFC 1738 section 2.2 says must be
//! encoded (controls, space, and everything outside US-ASCII) are written
//! `%XX`, so a target is a URL in the same text as every other.
//!
//! The target is what the link says, not where the gateway sends the
//! reader: nothing authenticates it, and some wrappers also carry the
//! recipient's address in their other parameters.

mod proofpoint;
mod rules;

pub use rules::Kind;

use crate::error::ParseError;
use crate::percent;
use crate::url::{Policy, Url};
use rules::{Decoder, Place, Rule};
use std::fmt;

/// How many wrappers deep [`unwrap`] follows a link.
pub const MAX_DEPTH: usize = 5;

/// One wrapper a link goes through.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hop {
    kind: Kind,
    url: String,
}

impl Hop {
    /// Which wrapper it is.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The wrapper's URL at this depth (the outermost is the link as given).
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// Why a wrapper's target was not recovered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum UnwrapError {
    /// The wrapper holds nothing where its kind keeps the target (no such
    /// query parameter, or an empty one).
    Missing,
    /// The target's encoding does not decode; the message says how.
    Encoding(&'static str),
    /// The recovered text is no URL under the lenient policy: the parser's
    /// error, its offset into [`Unwrapped::decoded`].
    Parse(ParseError),
}

impl fmt::Display for UnwrapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnwrapError::Missing => f.write_str("the wrapper holds no target"),
            UnwrapError::Encoding(why) => write!(f, "the target does not decode: {why}"),
            UnwrapError::Parse(e) => write!(f, "the target is no URL: {e}"),
        }
    }
}

impl std::error::Error for UnwrapError {}

/// What [`unwrap`] found: the wrappers a link goes through, outermost
/// first, and where it ends.
///
/// Exactly one of these holds for a wrapped link: it has a
/// [`target`](Unwrapped::target), it is [`opaque`](Unwrapped::is_opaque),
/// or it has an [`error`](Unwrapped::error). A link that is no known
/// wrapper has no hops and none of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Unwrapped {
    hops: Vec<Hop>,
    target: Option<String>,
    decoded: Option<String>,
    error: Option<UnwrapError>,
    opaque: bool,
}

impl Unwrapped {
    /// Whether the link is a known wrapper.
    pub fn is_wrapped(&self) -> bool {
        !self.hops.is_empty()
    }

    /// The wrappers, outermost first.
    pub fn hops(&self) -> &[Hop] {
        &self.hops
    }

    /// The wrappers' kind names, outermost first (`["safelinks",
    /// "proofpoint-v3"]`).
    pub fn via(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.hops.iter().map(|h| h.kind.name())
    }

    /// The final target, a URL valid under the lenient policy; `None` when
    /// the link is no wrapper, is opaque, or its target was not recovered.
    pub fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }

    /// Whether the innermost wrapper keeps its target to itself
    /// ([`Kind::Mimecast`]).
    pub fn is_opaque(&self) -> bool {
        self.opaque
    }

    /// Why the target was not recovered.
    pub fn error(&self) -> Option<&UnwrapError> {
        self.error.as_ref()
    }

    /// With [`UnwrapError::Parse`]: the text that was decoded and is no URL
    /// (its unsafe octets `%XX`-encoded).
    pub fn decoded(&self) -> Option<&str> {
        self.decoded.as_deref()
    }
}

/// The wrappers `url` goes through and its target (see the module
/// documentation of what is read and what is not). `url` is text or bytes
/// (a URL is ASCII); bytes that are no URL are no wrapper.
///
/// ```
/// let u = urlsift::unwrap(
///     "https://eur03.safelinks.protection.outlook.com/?url=https%3A%2F%2Furldefense.com\
///      %2Fv3%2F__https%3A%2F%2Fexample.com%2F*newsletter__%3BIw!!x%24&data=05%7C01&reserved=0",
/// );
/// assert_eq!(u.via().collect::<Vec<_>>(), ["safelinks", "proofpoint-v3"]);
/// assert_eq!(u.target(), Some("https://example.com/#newsletter"));
/// assert!(!urlsift::unwrap("https://example.com/?url=https%3A%2F%2Fa.example").is_wrapped());
/// ```
#[inline]
pub fn unwrap(url: impl AsRef<[u8]>) -> Unwrapped {
    wrapped(url).unwrap_or_default()
}

/// [`unwrap`] for a caller that asks it of every URL it meets: `None`
/// when `url` is no known wrapper, so that nearly every answer is one word,
/// with no [`Unwrapped`] to build and drop.
///
/// ```
/// assert!(urlsift::wrapped("https://example.com/?url=https%3A%2F%2Fa.example").is_none());
/// let u = urlsift::wrapped("https://www.google.com/url?q=https%3A%2F%2Fa.example%2F").unwrap();
/// assert_eq!(u.target(), Some("https://a.example/"));
/// ```
#[inline]
pub fn wrapped(url: impl AsRef<[u8]>) -> Option<Unwrapped> {
    let url = url.as_ref();
    // Nearly every URL is no wrapper: that answer is given inline by a
    // test that keeps few values live (so the caller saves no registers
    // for it); the rest is out of line. The scheme is tested inline, so
    // that a URL of another scheme (a third of them) makes no call.
    let after = http_head(url)?;
    if !may_wrap(url, after) {
        return None;
    }
    wrapped_slow(url)
}

/// [`wrapped`] past its first test.
#[cold]
#[inline(never)]
fn wrapped_slow(url: &[u8]) -> Option<Unwrapped> {
    let first = find(url)?;
    Some(unwrap_found(url, first))
}

/// [`unwrap`] of `url`, whose outermost wrapper `find` gave.
#[inline(never)]
fn unwrap_found(url: &[u8], first: (&'static Rule, Parts)) -> Unwrapped {
    let mut out = Unwrapped::default();
    let mut current = String::new();
    let mut link = url;
    let mut found = Some(first);
    while out.hops.len() < MAX_DEPTH {
        let Some((rule, parts)) = found.take().or_else(|| find(link)) else {
            break;
        };
        out.hops.push(Hop {
            kind: rule.kind,
            // A wrapper is ASCII (its scheme, host and path were read).
            url: std::str::from_utf8(link).map_or_else(
                |_| String::from_utf8_lossy(link).into_owned(),
                str::to_owned,
            ),
        });
        let bytes = match extract(rule, link, &parts) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => {
                out.opaque = true;
                return out;
            }
            Err(e) => {
                out.error = Some(e);
                return out;
            }
        };
        let text = encode_unsafe(bytes);
        if let Err(e) = Url::parse_with(text.as_bytes(), Policy::Lenient) {
            out.error = Some(UnwrapError::Parse(e));
            out.decoded = Some(text);
            return out;
        }
        current = text;
        link = current.as_bytes();
    }
    if out.is_wrapped() {
        out.target = Some(current);
    }
    out
}

/// The pieces of an http(s) URL a rule looks at: byte ranges of `url`.
struct Parts {
    /// From the `/` after the host (or the host's end) to `?`, `#` or the end.
    path: (usize, usize),
    /// After `?`, to `#` or the end; empty when there is none.
    query: (usize, usize),
}

const END: u8 = 1;
const AT: u8 = 2;
const COLON: u8 = 3;
const DOT: u8 = 4;

/// What a byte of an authority is to [`find`]'s pass over it.
static AUTHORITY: [u8; 256] = {
    let mut t = [0u8; 256];
    t[b'/' as usize] = END;
    t[b'?' as usize] = END;
    t[b'#' as usize] = END;
    t[b'@' as usize] = AT;
    t[b':' as usize] = COLON;
    t[b'.' as usize] = DOT;
    t
};

/// Whether `name` is `co` or `com` without regard to case (compared as
/// words: the slice comparison is a call).
#[inline]
fn co_or_com(name: &[u8]) -> bool {
    match *name {
        [a, b] => u16::from_le_bytes([a, b]) | 0x2020 == u16::from_le_bytes(*b"co"),
        [a, b, c] => u32::from_le_bytes([a, b, c, 0]) | 0x20_2020 == u32::from_le_bytes(*b"com\0"),
        _ => false,
    }
}

/// [`rules::registered_name`] of the host `s[host.0..host.1]`, from its
/// last three dots (`usize::MAX` where there are fewer).
#[inline]
fn registered_name(s: &[u8], host: (usize, usize), dots: [usize; 3]) -> Option<&[u8]> {
    let (host_start, end) = host;
    let [last, before, third] = dots;
    if last == usize::MAX {
        return None;
    }
    let start = |d: usize| if d == usize::MAX { None } else { Some(d + 1) };
    let name = &s[start(before).unwrap_or(host_start)..last];
    if end - last == 3 && before != usize::MAX && co_or_com(name) {
        return Some(&s[start(third).unwrap_or(host_start)..before]);
    }
    Some(name)
}

/// What [`find`] reads of a URL's authority: where its host starts (after
/// the last `@`), the first `:` after that, where it ends (`/`, `?`, `#` or
/// the end), and the host's last three dots, last first (`usize::MAX`
/// where there are fewer), which give its registered name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Authority {
    host_start: usize,
    colon: Option<usize>,
    end: usize,
    dots: [usize; 3],
}

/// The [`Authority`] from `s[after]` on.
#[inline]
fn authority(s: &[u8], after: usize) -> Authority {
    #[cfg(target_arch = "x86_64")]
    if let Some(a) = authority_sse2(s, after) {
        return a;
    }
    authority_scalar(s, after)
}

/// [`authority`] a byte at a time (out of line: a user or a port is rare).
#[inline(never)]
fn authority_scalar(s: &[u8], after: usize) -> Authority {
    let (mut host_start, mut colon, mut end) = (after, None, s.len());
    let mut dots = [usize::MAX; 3];
    let mut k = after;
    while k < s.len() {
        match AUTHORITY[usize::from(s[k])] {
            0 => {}
            END => {
                end = k;
                break;
            }
            AT => {
                host_start = k + 1;
                colon = None;
                dots = [usize::MAX; 3];
            }
            COLON => colon = colon.or(Some(k)),
            _ => {
                if colon.is_none() {
                    dots = [k, dots[0], dots[1]];
                }
            }
        }
        k += 1;
    }
    Authority {
        host_start,
        colon,
        end,
        dots,
    }
}

/// The 16 bytes of `s` from `from` as three masks, bit `k` for
/// `s[from + k]`: the authority's ends (`/`, `?`, `#`), its stops (`@`,
/// `:`) and its dots. Needs `from + 16 <= s.len()`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classes_sse2(s: &[u8], from: usize) -> [u32; 3] {
    use std::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    assert!(from + 16 <= s.len());
    // SAFETY: SSE2 is part of x86-64; the load is within `s` (above).
    unsafe {
        let v = _mm_loadu_si128(s.as_ptr().add(from).cast());
        let eq = |b: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8));
        let ends = _mm_or_si128(_mm_or_si128(eq(b'/'), eq(b'?')), eq(b'#'));
        [
            _mm_movemask_epi8(ends) as u32,
            _mm_movemask_epi8(_mm_or_si128(eq(b'@'), eq(b':'))) as u32,
            _mm_movemask_epi8(eq(b'.')) as u32,
        ]
    }
}

/// The classes ([`classes_sse2`]) of the `n` bytes from `at`, at most
/// 32, bit `k` for `s[at + k]`: two 16-byte loads, the second ending at
/// the URL's end where fewer than 32 are left (overlapping the first), one
/// ending there where fewer than 16 are. Needs `s.len() >= 16` and
/// `at <= s.len()`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn window_sse2(s: &[u8], at: usize) -> (usize, [u32; 3]) {
    let left = s.len() - at;
    if left >= 16 {
        let n = left.min(32);
        let (lo, hi) = (classes_sse2(s, at), classes_sse2(s, at + n - 16));
        (n, [0, 1, 2].map(|k| lo[k] | hi[k] << (n - 16)))
    } else {
        (
            left,
            classes_sse2(s, s.len() - 16).map(|m| m >> (16 - left)),
        )
    }
}

/// [`authority`] with SSE2 (part of every x86-64 CPU): an authority with
/// no `@` or `:` (no user, no port) in a URL of at least 16 bytes, read
/// 32 bytes at a time ([`window_sse2`]). `None` otherwise, for the pass a
/// byte at a time. (The URLs that are no wrapper seldom come here:
/// [`may_wrap`] reads them on its own.)
#[cfg(target_arch = "x86_64")]
#[inline]
fn authority_sse2(s: &[u8], after: usize) -> Option<Authority> {
    if s.len() < 16 || after > s.len() {
        return None;
    }
    let mut dots = [usize::MAX; 3];
    let mut at = after;
    loop {
        let (n, [ends, stops, dot]) = window_sse2(s, at);
        let len = match ends {
            0 => n,
            e => e.trailing_zeros() as usize,
        };
        let within = ((1u64 << len) - 1) as u32;
        if stops & within != 0 {
            return None;
        }
        // The block's dots in order, each the last so far.
        let mut d = dot & within;
        while d != 0 {
            dots = [at + d.trailing_zeros() as usize, dots[0], dots[1]];
            d &= d - 1;
        }
        if ends != 0 || at + n == s.len() {
            return Some(Authority {
                host_start: after,
                colon: None,
                end: at + len,
                dots,
            });
        }
        at += n;
    }
}

/// The length of `s`'s `http://` or `https://` (any case), if it has one:
/// the bytes lowered as one word (`|0x20` leaves `:` and `/` as they are).
#[inline]
fn http_head(s: &[u8]) -> Option<usize> {
    let head = u64::from_le_bytes(s.get(..8)?.try_into().ok()?) | 0x2020_2020_2020_2020;
    if head == u64::from_le_bytes(*b"https://") {
        Some(8)
    } else if head & 0x00ff_ffff_ffff_ffff == u64::from_le_bytes(*b"http://\0") {
        Some(7)
    } else {
        None
    }
}

/// [`find`]'s first test, false for nearly every URL: whether the http(s)
/// URL `s`, whose `http://` or `https://` ends at `after`, has a host
/// whose registered name is one of the table's.
#[inline(never)]
fn may_wrap(s: &[u8], after: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    if let Some(answer) = may_wrap_sse2(s, after) {
        return answer;
    }
    may_wrap_general(s, after)
}

/// [`may_wrap`] for any authority (out of line, so that the common case
/// saves no registers for it).
#[cold]
#[inline(never)]
fn may_wrap_general(s: &[u8], after: usize) -> bool {
    let a = authority(s, after);
    let host = (a.host_start, a.colon.unwrap_or(a.end));
    registered_name(s, host, a.dots).is_some_and(rules::known_name)
}

/// [`may_wrap`] for an authority of at most 32 bytes with no user (nearly
/// every URL), with SSE2: the first 32 bytes after `//` read at
/// once as two 16-byte loads (overlapping where fewer are left, one where
/// fewer than 16 are), and the registered name's dots taken from the
/// high bits of the dot mask rather than by a loop over every dot. No
/// branch follows the host's length or its number of labels (only a
/// host over 32 bytes and a two-letter top-level domain take one): the
/// test runs between long stretches of scanning, with the predictor
/// cold, so a branch it gets wrong costs more than the instructions.
/// `None` for the other cases, which [`authority`] reads.
#[cfg(target_arch = "x86_64")]
#[inline]
fn may_wrap_sse2(s: &[u8], after: usize) -> Option<bool> {
    if s.len() < 16 || after > s.len() {
        return None;
    }
    // Bit `k` of each mask for `s[after + k]`, `k < n`.
    let (n, [ends, stops, dots]) = window_sse2(s, after);
    if ends == 0 && s.len() - after > 32 {
        return None;
    }
    // The authority's length: to its first end, else all `n` bytes.
    let len = if ends == 0 {
        n as u32
    } else {
        ends.trailing_zeros()
    };
    // The host's length: to a port's `:` (one URL in thirty of old mail
    // and news has one), else the authority's.
    let mut host_len = len;
    let stops = stops & ((1u64 << len) - 1) as u32;
    if stops != 0 {
        let first = stops.trailing_zeros();
        // A user (an `@`, perhaps after a `:` of its password) or more
        // than one `:` is the general pass's.
        if stops & (stops - 1) != 0 || s[after + first as usize] != b':' {
            return None;
        }
        host_len = first;
    }
    let d = dots & ((1u64 << host_len) - 1) as u32;
    if d == 0 {
        return Some(false);
    }
    // The label before the last dot: from after the dot before it (or
    // the host's start) to the last dot.
    let last = 31 - d.leading_zeros();
    let rest = d & !(1 << last);
    let start = 32 - rest.leading_zeros();
    let mut name = &s[after + start as usize..after + last as usize];
    if host_len - last == 3 && rest != 0 && co_or_com(name) {
        // `co.uk`, `com.au`: the label before those.
        let before = start - 1;
        let rest = rest & !(1 << before);
        let start = 32 - rest.leading_zeros();
        name = &s[after + start as usize..after + before as usize];
    }
    Some(rules::known_name(name))
}

/// The rule serving `url`, if any, and the URL's pieces (asked of the
/// URLs [`may_wrap`] lets through).
#[inline]
fn find(s: &[u8]) -> Option<(&'static Rule, Parts)> {
    let after = http_head(s)?;
    let Authority {
        host_start,
        colon,
        end: auth_end,
        dots,
    } = authority(s, after);
    let host_end = colon.unwrap_or(auth_end);
    let host = &s[host_start..host_end];
    let name = registered_name(s, (host_start, host_end), dots)?;
    if !rules::known_name(name) {
        return None;
    }
    let path_end = memchr::memchr2(b'?', b'#', &s[auth_end..]).map_or(s.len(), |k| auth_end + k);
    let query = if s.get(path_end) == Some(&b'?') {
        let end = memchr::memchr(b'#', &s[path_end..]).map_or(s.len(), |k| path_end + k);
        (path_end + 1, end)
    } else {
        (path_end, path_end)
    };
    let path = &s[auth_end..path_end];
    // (A rule with two names may come twice; the first that serves wins,
    // as in the table's order.)
    let rule = rules::named(name).find(|r| {
        r.hosts.iter().any(|h| rules::host_matches(host, h))
            && r.paths.iter().any(|p| rules::path_matches(path, p))
    })?;
    Some((
        rule,
        Parts {
            path: (auth_end, path_end),
            query,
        },
    ))
}

/// The target's bytes as the wrapper holds them, decoded; `None` when the
/// wrapper is opaque.
fn extract(rule: &Rule, s: &[u8], parts: &Parts) -> Result<Option<Vec<u8>>, UnwrapError> {
    let query = &s[parts.query.0..parts.query.1];
    let bytes = match rule.place {
        Place::Opaque => return Ok(None),
        Place::Query(names) => {
            let value = names
                .iter()
                .find_map(|n| query_param(query, n))
                .ok_or(UnwrapError::Missing)?;
            percent::decode(value).into_owned()
        }
        Place::Base64Query(name) => {
            let value = query_param(query, name).ok_or(UnwrapError::Missing)?;
            base64(&percent::decode(value))
                .ok_or(UnwrapError::Encoding("the parameter is not base64"))?
        }
        Place::PathAfterFirst => {
            // `/TOKEN/TARGET`: the target is all after the second slash, its
            // own query included when the gateway left its `?` unencoded.
            let path = &s[parts.path.0..];
            let second = memchr::memchr(b'/', &path[1.min(path.len())..])
                .map(|k| k + 1)
                .ok_or(UnwrapError::Missing)?;
            let target = &path[second + 1..];
            if target.is_empty() {
                return Err(UnwrapError::Missing);
            }
            percent::decode(target).into_owned()
        }
        Place::Decoder(Decoder::ProofpointV1) => proofpoint::v1(query)?,
        Place::Decoder(Decoder::ProofpointV2) => proofpoint::v2(query)?,
        Place::Decoder(Decoder::ProofpointV3) => {
            let from = parts.path.0 + "/v3/__".len();
            proofpoint::v3(&s[from..])?
        }
    };
    if bytes.is_empty() {
        return Err(UnwrapError::Missing);
    }
    Ok(Some(bytes))
}

/// The value of the first `name=value` pair of `query` with a value, not
/// decoded. Pairs are split at `&`; a pair written `amp;name=` (a query
/// copied out of HTML with `&amp;` left in) counts too.
fn query_param<'q>(query: &'q [u8], name: &str) -> Option<&'q [u8]> {
    query.split(|&b| b == b'&').find_map(|pair| {
        let pair = pair.strip_prefix(b"amp;").unwrap_or(pair);
        let value = pair.strip_prefix(name.as_bytes())?.strip_prefix(b"=")?;
        (!value.is_empty()).then_some(value)
    })
}

/// Decodes base64 in either alphabet (RFC 4648 sections 4 and 5), padding
/// optional. Hand-written: the MIME reader's decoder is a streaming one tied
/// to its position map (and a layer above this one), and the library takes
/// no dependency for twenty lines.
fn base64(text: &[u8]) -> Option<Vec<u8>> {
    let text = match text.iter().position(|&b| b == b'=') {
        Some(k) if text[k..].iter().all(|&b| b == b'=') => &text[..k],
        Some(_) => return None,
        None => text,
    };
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for &b in text {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = acc << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// The decoded target as URL text: the octets RFC 1738 section 2.2 says
/// must be encoded (00-20, 7F-FF) written `%XX`, the rest as they are.
fn encode_unsafe(bytes: Vec<u8>) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let unsafe_octet = |b: u8| b <= 0x20 || b >= 0x7f;
    // A fold with no early exit, which the compiler makes a vector loop.
    if !bytes.iter().fold(false, |any, &b| any | unsafe_octet(b)) {
        // Most targets: the bytes are the text, no copy and no second
        // pass to validate them.
        // SAFETY: every byte is in 0x21..=0x7E (ASCII), which is UTF-8.
        return unsafe { String::from_utf8_unchecked(bytes) };
    }
    let mut out = String::with_capacity(bytes.len() + 8);
    for b in bytes {
        if unsafe_octet(b) {
            out.push('%');
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 15)] as char);
        } else {
            out.push(b as char);
        }
    }
    out
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod pass_tests {
    use super::*;

    /// The one-pass registered name is the host's, by `rules`.
    #[test]
    fn one_pass_name_is_the_hosts() {
        for (url, host) in [
            ("https://google.com/url", "google.com"),
            ("https://www.google.co.uk/url", "www.google.co.uk"),
            ("https://google.co.uk/url", "google.co.uk"),
            ("https://co.uk/", "co.uk"),
            ("http://user:pw@a.b.outlook.com:443/x", "a.b.outlook.com"),
            ("http://a.b@c.d.e/x", "c.d.e"),
            ("http://localhost/", "localhost"),
            ("http://x.com.au", "x.com.au"),
            (
                "https://eur03.safelinks.protection.outlook.com?url=x",
                "eur03.safelinks.protection.outlook.com",
            ),
        ] {
            let s = url.as_bytes();
            let after = url.find("//").unwrap() + 2;
            let (mut at, mut dots, mut colon) = (after, [usize::MAX; 3], None);
            let end = url[after..]
                .find(['/', '?', '#'])
                .map_or(url.len(), |k| k + after);
            for (k, &b) in s.iter().enumerate().take(end).skip(after) {
                match b {
                    b'@' => (at, dots, colon) = (k + 1, [usize::MAX; 3], None),
                    b':' => colon = colon.or(Some(k)),
                    b'.' if colon.is_none() => dots = [k, dots[0], dots[1]],
                    _ => {}
                }
            }
            let got = registered_name(s, (at, colon.unwrap_or(end)), dots);
            assert_eq!(got, rules::registered_name(host.as_bytes()), "{url}");
        }
    }

    /// The vector pass gives what the byte pass gives, for authorities of
    /// every length around its 16-byte blocks, with dots anywhere, ending
    /// in each way or at the URL's end; it leaves only a user, a port and
    /// a URL under 16 bytes to the byte pass.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_pass_is_the_byte_pass() {
        let mut tried = 0;
        for len in 0..72 {
            for dot_every in [0, 1, 2, 3, 5, 7, 16] {
                for tail in ["", "/", "/path/x.y", "?q=a.b", "#f.g", "/@:.x"] {
                    for extra in ["", "@", ":8080"] {
                        let host: String = (0..len)
                            .map(|i| match dot_every {
                                0 => 'a',
                                n if i % n == n - 1 => '.',
                                _ => 'a',
                            })
                            .collect();
                        let (user, port) = match extra {
                            "@" => ("u.v@", ""),
                            p => ("", p),
                        };
                        let url = format!("http://{user}{host}{port}{tail}");
                        let s = url.as_bytes();
                        let want = authority_scalar(s, 7);
                        match authority_sse2(s, 7) {
                            Some(got) => assert_eq!(got, want, "{url}"),
                            None => assert!(
                                !extra.is_empty() || s.len() < 16,
                                "left to the byte pass: {url}"
                            ),
                        }
                        tried += 1;
                    }
                }
            }
        }
        assert!(tried > 9000);
    }

    /// The first test, through the vector pass, answers as it does through
    /// the pass a byte at a time, `co.uk`-style names, users and ports
    /// included.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn first_test_is_the_byte_pass() {
        let general = |s: &[u8]| {
            let after = http_head(s).unwrap();
            let a = authority_scalar(s, after);
            registered_name(s, (a.host_start, a.colon.unwrap_or(a.end)), a.dots)
                .is_some_and(rules::known_name)
        };
        let hosts = [
            "a",
            "a.b",
            "example.com",
            "www.example.com",
            "google.com",
            "www.google.co.uk",
            "google.co.uk",
            "x.co.uk",
            "co.uk",
            "bbc.co.uk",
            "x.com.au",
            "GOOGLE.COM",
            "l.facebook.com",
            "urldefense.com",
            "u@google.com",
            "google.com:80",
            "a.b.c.d.e",
            "slack-redir.net",
            "cisco.com",
            "x.cisco.com",
            "mimecast.com",
            "localhost",
            "1.2.3.4",
            "outlook.com",
            "x.outlook.com",
            "office365.us",
        ];
        let mut vector = 0;
        for host in hosts {
            for tail in [
                "/",
                "/path/to/something/long",
                "?q=1&r=2&s=3&t=4",
                "#fragment-part",
            ] {
                for scheme in ["http://", "https://", "HTTPS://"] {
                    let url = format!("{scheme}{host}{tail}");
                    let s = url.as_bytes();
                    vector += usize::from(authority_sse2(s, http_head(s).unwrap()).is_some());
                    assert_eq!(
                        http_head(s).is_some_and(|a| may_wrap(s, a)),
                        general(s),
                        "{url}"
                    );
                }
            }
        }
        assert!(vector >= 200, "{vector}");
    }
}
