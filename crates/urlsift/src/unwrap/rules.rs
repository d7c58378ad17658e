//! The wrappers urlsift knows, as data: one [`Rule`] per gateway or
//! redirector, saying which hosts and paths it serves and where its target
//! is. A new gateway is one more entry in [`RULES`] (and its kind in
//! [`Kind`]), with its public examples in the tests.

/// The kind of a wrapper: which gateway or redirector rewrote the link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// Microsoft Defender for Office 365 Safe Links
    /// (`*.safelinks.protection.outlook.com/?url=`).
    Safelinks,
    /// Proofpoint URL Defense, version 1 (`/v1/url?u=`, percent-encoded).
    ProofpointV1,
    /// Proofpoint URL Defense, version 2 (`/v2/url?u=`, `-XX` escapes and
    /// `_` for `/`).
    ProofpointV2,
    /// Proofpoint URL Defense, version 3 (`/v3/__URL__;BYTES!...$`).
    ProofpointV3,
    /// Google's redirector (`google.com/url?q=` or `?url=`).
    Google,
    /// Facebook's link shim (`l.facebook.com/l.php?u=`).
    Facebook,
    /// Barracuda Link Protection (`linkprotect.cudasvc.com/url?a=`).
    Barracuda,
    /// Cisco Secure Email (`secure-web.cisco.com/TOKEN/TARGET`).
    Cisco,
    /// Trend Micro's time-of-click protection
    /// (`*.trendmicro.com/wis/clicktime/v1/query?url=`).
    TrendMicro,
    /// Sophos time-of-click protection (`*.protection.sophos.com/?u=BASE64`).
    Sophos,
    /// FireEye (Trellix) email security (`protect2.fireeye.com/v1/url?u=`).
    FireEye,
    /// Slack's redirector (`slack-redir.net/link?url=`).
    Slack,
    /// Mimecast URL Protect (`protect-*.mimecast.com/s/TOKEN`): the target
    /// is kept by Mimecast and cannot be recovered offline.
    Mimecast,
}

impl Kind {
    /// The kind's name as output gives it (`via`): `safelinks`,
    /// `proofpoint-v1`, `proofpoint-v2`, `proofpoint-v3`, `google`,
    /// `facebook`, `barracuda`, `cisco`, `trendmicro`, `sophos`, `fireeye`,
    /// `slack`, `mimecast`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Safelinks => "safelinks",
            Kind::ProofpointV1 => "proofpoint-v1",
            Kind::ProofpointV2 => "proofpoint-v2",
            Kind::ProofpointV3 => "proofpoint-v3",
            Kind::Google => "google",
            Kind::Facebook => "facebook",
            Kind::Barracuda => "barracuda",
            Kind::Cisco => "cisco",
            Kind::TrendMicro => "trendmicro",
            Kind::Sophos => "sophos",
            Kind::FireEye => "fireeye",
            Kind::Slack => "slack",
            Kind::Mimecast => "mimecast",
        }
    }

    /// Every kind, in the order of [`Kind::name`]'s list.
    pub const ALL: [Kind; 13] = [
        Kind::Safelinks,
        Kind::ProofpointV1,
        Kind::ProofpointV2,
        Kind::ProofpointV3,
        Kind::Google,
        Kind::Facebook,
        Kind::Barracuda,
        Kind::Cisco,
        Kind::TrendMicro,
        Kind::Sophos,
        Kind::FireEye,
        Kind::Slack,
        Kind::Mimecast,
    ];
}

/// Where a wrapper keeps its target.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Place {
    /// The first of these query parameters that has a value, percent-decoded.
    Query(&'static [&'static str]),
    /// A query parameter holding the target in base64 (either alphabet,
    /// padding optional, the parameter itself percent-decoded first).
    Base64Query(&'static str),
    /// The rest of the wrapper after its first path segment, percent-decoded.
    PathAfterFirst,
    /// A named decoder of the wrapper's own encoding.
    Decoder(Decoder),
    /// Not in the link at all: the gateway keeps it.
    Opaque,
}

/// The decoders of encodings that are more than percent-encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decoder {
    /// Proofpoint v1: the `u` parameter, percent-encoded.
    ProofpointV1,
    /// Proofpoint v2: the `u` parameter with `-` for `%` and `_` for `/`.
    ProofpointV2,
    /// Proofpoint v3: the text after `/v3/__` with `*` tokens replaced by
    /// bytes carried in base64 after `__;`.
    ProofpointV3,
}

/// One wrapper: the hosts and paths it answers on, and where its target is.
///
/// A host pattern is a host name (`l.facebook.com`), a suffix beginning
/// with `.` that a longer host must end with (`.protection.sophos.com`),
/// or `google` for Google's hosts (`google.com`, `www.google.de`,
/// `www.google.co.uk`, `google.com.au`). A path pattern is a path that
/// must be equal, or one ending in `*` that the path must start with
/// (`/ap/*`); the empty path (a query right after the host) is `""`.
/// Hosts are compared without regard to case, paths exactly.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rule {
    pub kind: Kind,
    /// The host's registered name without its top-level domain (the label
    /// before `com`, `us`, `net`, `co.uk`...): the cheap first test each URL
    /// meets. A rule serves a host only if its name is among these.
    pub names: &'static [&'static str],
    pub hosts: &'static [&'static str],
    pub paths: &'static [&'static str],
    pub place: Place,
}

const PROOFPOINT_HOSTS: &[&str] = &[
    "urldefense.proofpoint.com",
    "urldefense.com",
    "urldefense.us",
];
const PROOFPOINT_NAMES: &[&str] = &["proofpoint", "urldefense"];

/// The table. Order matters only where two rules serve one host and path
/// (none do).
pub(crate) const RULES: &[Rule] = &[
    Rule {
        kind: Kind::Safelinks,
        names: &["outlook", "office365"],
        hosts: &[
            ".safelinks.protection.outlook.com",
            ".safelinks.protection.office365.us",
        ],
        paths: &["/", "", "/ap/*"],
        place: Place::Query(&["url"]),
    },
    Rule {
        kind: Kind::ProofpointV1,
        names: PROOFPOINT_NAMES,
        hosts: PROOFPOINT_HOSTS,
        paths: &["/v1/url"],
        place: Place::Decoder(Decoder::ProofpointV1),
    },
    Rule {
        kind: Kind::ProofpointV2,
        names: PROOFPOINT_NAMES,
        hosts: PROOFPOINT_HOSTS,
        paths: &["/v2/url"],
        place: Place::Decoder(Decoder::ProofpointV2),
    },
    Rule {
        kind: Kind::ProofpointV3,
        names: PROOFPOINT_NAMES,
        hosts: PROOFPOINT_HOSTS,
        paths: &["/v3/__*"],
        place: Place::Decoder(Decoder::ProofpointV3),
    },
    Rule {
        kind: Kind::Google,
        names: &["google"],
        hosts: &["google"],
        paths: &["/url"],
        // Search results carry the query in `q` and the target in `url`;
        // Gmail and Docs links carry the target in `q` alone.
        place: Place::Query(&["url", "q"]),
    },
    Rule {
        kind: Kind::Facebook,
        names: &["facebook"],
        hosts: &["l.facebook.com", "lm.facebook.com"],
        paths: &["/l.php"],
        place: Place::Query(&["u"]),
    },
    Rule {
        kind: Kind::Barracuda,
        names: &["cudasvc"],
        hosts: &["linkprotect.cudasvc.com", ".linkprotect.cudasvc.com"],
        paths: &["/url", "/", ""],
        place: Place::Query(&["a"]),
    },
    Rule {
        kind: Kind::Cisco,
        names: &["cisco"],
        hosts: &["secure-web.cisco.com"],
        paths: &["/*"],
        place: Place::PathAfterFirst,
    },
    Rule {
        kind: Kind::TrendMicro,
        names: &["trendmicro"],
        hosts: &[".trendmicro.com", ".trendmicro.eu"],
        paths: &["/wis/clicktime/v1/query"],
        place: Place::Query(&["url"]),
    },
    Rule {
        kind: Kind::Sophos,
        names: &["sophos"],
        hosts: &[".protection.sophos.com"],
        paths: &["/", ""],
        place: Place::Base64Query("u"),
    },
    Rule {
        kind: Kind::FireEye,
        names: &["fireeye"],
        hosts: &["protect2.fireeye.com"],
        paths: &["/v1/url", "/url"],
        place: Place::Query(&["u"]),
    },
    Rule {
        kind: Kind::Slack,
        names: &["slack-redir"],
        hosts: &["slack-redir.net"],
        paths: &["/link"],
        place: Place::Query(&["url"]),
    },
    Rule {
        kind: Kind::Mimecast,
        names: &["mimecast", "mimecastprotect"],
        hosts: &[".mimecast.com", ".mimecastprotect.com"],
        paths: &["/s/*"],
        place: Place::Opaque,
    },
];

/// The label a rule's `names` are compared with: the one before the
/// top-level domain, or before a second-level `co`/`com` under a two-letter
/// country domain (`google.co.uk`, `google.com.au`). `None` for a host with
/// a single label. The definition, for the tests: `find` gets the same
/// label in its one pass over the authority.
#[cfg(test)]
pub(crate) fn registered_name(host: &[u8]) -> Option<&[u8]> {
    let last = host.iter().rposition(|&b| b == b'.')?;
    let tld = &host[last + 1..];
    let dot = host[..last].iter().rposition(|&b| b == b'.');
    let name = &host[dot.map_or(0, |d| d + 1)..last];
    match dot {
        Some(d)
            if tld.len() == 2
                && (name.eq_ignore_ascii_case(b"co") || name.eq_ignore_ascii_case(b"com")) =>
        {
            let before = host[..d].iter().rposition(|&b| b == b'.');
            Some(&host[before.map_or(0, |b| b + 1)..d])
        }
        _ => Some(name),
    }
}

/// A name's first 8 bytes as one word, `|0x20` lowering its letters (other
/// bytes of a host may map onto a name's: [`known_name`] is only the first
/// test, the rule's own comparison decides).
const fn name_key(name: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    let mut i = 0;
    while i < name.len() && i < 8 {
        w[i] = name[i] | 0x20;
        i += 1;
    }
    u64::from_le_bytes(w)
}

const fn name_count() -> usize {
    let (mut n, mut i) = (0, 0);
    while i < RULES.len() {
        n += RULES[i].names.len();
        i += 1;
    }
    n
}

/// Every rule's names as (key, length, rule, name), the last two indices
/// into [`RULES`] and its `names`, made from the table at compile time in
/// its order.
const NAME_KEYS: [(u64, usize, u8, u8); name_count()] = {
    let mut keys = [(0u64, 0usize, 0u8, 0u8); name_count()];
    let (mut k, mut i) = (0, 0);
    assert!(RULES.len() <= u8::MAX as usize);
    while i < RULES.len() {
        let mut j = 0;
        assert!(RULES[i].names.len() <= u8::MAX as usize);
        while j < RULES[i].names.len() {
            let name = RULES[i].names[j].as_bytes();
            keys[k] = (name_key(name), name.len(), i as u8, j as u8);
            k += 1;
            j += 1;
        }
        i += 1;
    }
    keys
};

/// The names' shapes: for each first letter (`| 0x20`, modulo 32), a bit
/// for each length a name with it has.
const SHAPES: [u64; 32] = {
    let mut shapes = [0u64; 32];
    let mut i = 0;
    while i < RULES.len() {
        let mut j = 0;
        while j < RULES[i].names.len() {
            let name = RULES[i].names[j].as_bytes();
            shapes[((name[0] | 0x20) & 31) as usize] |= 1 << name.len();
            j += 1;
        }
        i += 1;
    }
    shapes
};

/// The cheap first test: whether `name` may be one of the table's names
/// (a first letter and a length one has, then the same length and first
/// 8 bytes without regard to case).
#[inline]
pub(crate) fn known_name(name: &[u8]) -> bool {
    match name.first() {
        Some(&b) if name.len() < 64 => {
            if SHAPES[usize::from((b | 0x20) & 31)] >> name.len() & 1 == 0 {
                return false;
            }
        }
        _ => return false,
    }
    has_key(name)
}

/// [`known_name`] past its shape (out of line: few names get this far).
#[inline(never)]
fn has_key(name: &[u8]) -> bool {
    keyed(name).next().is_some()
}

/// The entries of [`NAME_KEYS`] with `name`'s key and length.
fn keyed(name: &[u8]) -> impl Iterator<Item = &'static (u64, usize, u8, u8)> {
    let (key, n) = (name_key(name), name.len());
    NAME_KEYS.iter().filter(move |e| e.0 == key && e.1 == n)
}

/// The rules one of whose names is `name` (any case), in the table's
/// order: found by the names' keys, so that a wrapper's look-up compares
/// its name with the few rules that have it rather than with every rule.
pub(crate) fn named(name: &[u8]) -> impl Iterator<Item = &'static Rule> + '_ {
    keyed(name)
        .filter(move |&&(_, _, r, j)| {
            RULES[usize::from(r)].names[usize::from(j)]
                .as_bytes()
                .eq_ignore_ascii_case(name)
        })
        .map(|&(_, _, r, _)| &RULES[usize::from(r)])
}

/// Whether `host` (any case) is served by `pattern` (see [`Rule`]).
pub(crate) fn host_matches(host: &[u8], pattern: &str) -> bool {
    let p = pattern.as_bytes();
    if pattern == "google" {
        return google_host(host);
    }
    if p.first() == Some(&b'.') {
        host.len() > p.len() && host[host.len() - p.len()..].eq_ignore_ascii_case(p)
    } else {
        host.eq_ignore_ascii_case(p)
    }
}

/// Google's search hosts: `[www.]google.` then `com`, a two-letter country
/// domain, or `co.XX` / `com.XX`.
fn google_host(host: &[u8]) -> bool {
    let lower = |s: &[u8]| s.iter().all(u8::is_ascii_alphabetic);
    let h = if host.len() > 4 && host[..4].eq_ignore_ascii_case(b"www.") {
        &host[4..]
    } else {
        host
    };
    if h.len() < 7 || !h[..7].eq_ignore_ascii_case(b"google.") {
        return false;
    }
    let tail = &h[7..];
    if tail.eq_ignore_ascii_case(b"com") || (tail.len() == 2 && lower(tail)) {
        return true;
    }
    let (sld, cc) = match tail.iter().position(|&b| b == b'.') {
        Some(d) => (&tail[..d], &tail[d + 1..]),
        None => return false,
    };
    (sld.eq_ignore_ascii_case(b"co") || sld.eq_ignore_ascii_case(b"com"))
        && cc.len() == 2
        && lower(cc)
}

/// Whether `path` is served by `pattern` (see [`Rule`]).
pub(crate) fn path_matches(path: &[u8], pattern: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => path.starts_with(prefix.as_bytes()),
        None => path == pattern.as_bytes(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            registered_name(b"eur03.safelinks.protection.outlook.com"),
            Some(&b"outlook"[..])
        );
        assert_eq!(registered_name(b"www.google.co.uk"), Some(&b"google"[..]));
        assert_eq!(registered_name(b"google.com.au"), Some(&b"google"[..]));
        assert_eq!(registered_name(b"co.uk"), Some(&b"co"[..]));
        assert_eq!(registered_name(b"localhost"), None);
        assert_eq!(
            registered_name(b"slack-redir.net"),
            Some(&b"slack-redir"[..])
        );

        assert_eq!(registered_name(b"a.co.uk"), Some(&b"a"[..]));
        assert_eq!(registered_name(b".com"), Some(&b""[..]));
    }

    #[test]
    fn known_names_are_the_tables() {
        for r in RULES {
            for n in r.names {
                assert!(known_name(n.as_bytes()) && known_name(n.to_uppercase().as_bytes()));
            }
        }
        for n in ["example", "outlookx", "outloo", "proofpxint", ""] {
            assert!(!known_name(n.as_bytes()), "{n}");
        }
        // Past 8 bytes only the length is compared: the rule decides.
        assert!(known_name(b"mimecastprotecx"));
        assert!(!super::super::unwrap("https://url.mimecastprotecx.com/s/x").is_wrapped());
    }

    #[test]
    fn hosts() {
        assert!(host_matches(
            b"NAM02.safelinks.protection.outlook.com",
            ".safelinks.protection.outlook.com"
        ));
        assert!(!host_matches(
            b".safelinks.protection.outlook.com",
            ".safelinks.protection.outlook.com"
        ));
        assert!(!host_matches(
            b"evilsafelinks.protection.outlook.com",
            ".safelinks.protection.outlook.com"
        ));
        assert!(host_matches(b"L.Facebook.com", "l.facebook.com"));
        for h in [
            "google.com",
            "www.google.com",
            "www.google.de",
            "google.co.uk",
            "www.google.com.au",
        ] {
            assert!(google_host(h.as_bytes()), "{h}");
        }
        for h in [
            "google.evil.com",
            "notgoogle.com",
            "www.google.example",
            "google.co.u1",
        ] {
            assert!(!google_host(h.as_bytes()), "{h}");
        }
    }

    #[test]
    fn paths() {
        assert!(path_matches(b"/ap/w-59584e83/", "/ap/*"));
        assert!(path_matches(b"/", "/"));
        assert!(!path_matches(b"/x", "/"));
        assert!(path_matches(b"", ""));
    }

    #[test]
    fn every_kind_has_a_rule_and_a_distinct_name() {
        for k in Kind::ALL {
            assert!(RULES.iter().any(|r| r.kind == k), "{k:?}");
            assert_eq!(Kind::ALL.iter().filter(|j| j.name() == k.name()).count(), 1);
        }
        // Each rule's hosts have one of its names (the cheap first test
        // never turns a served host away).
        for r in RULES {
            for h in r.hosts {
                let h = h.trim_start_matches('.');
                let h = if *h == *"google" { "google.com" } else { h };
                let name = registered_name(h.as_bytes()).unwrap();
                assert!(r.names.iter().any(|n| n.as_bytes() == name), "{h}");
            }
        }
    }
}
