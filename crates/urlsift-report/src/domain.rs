//! The registrable domain of a URL, by the Public Suffix List's ICANN
//! section.
//!
//! A host whose public suffix the list knows is counted under its
//! registrable domain (the suffix and one label before it:
//! `www.cs.example.ac.uk` under `example.ac.uk`). The list's private
//! section (hosting providers' suffixes such as `blogspot.com`) is not
//! used: archives span decades in which those names meant one site. A host
//! that is an IP address, has no suffix the list knows (`localhost`,
//! `info.cern` before `.cern` existed is still a name the list now knows)
//! or is itself a public suffix stands as itself. URLs without a host name
//! their address's domain where they have one (`mailto:a@b.example.org`,
//! `news:123@b.example.org`); `news:comp.mail.misc` has none.

use std::borrow::Cow;

use psl::{List, Psl, Type};
use urlsift::{Host, Scheme, Url};

/// The host a URL is counted under (in lower case, no trailing dot), and
/// whether it is an IP address: its host, or the domain of the address
/// of a `mailto:` or `news:` URL; `None` when it names none.
pub fn host_of<'a>(url: &Url<'a>) -> Option<(Cow<'a, str>, bool)> {
    let lower = |s: &'a str| match s.bytes().any(|b| b.is_ascii_uppercase()) {
        true => Cow::Owned(s.to_ascii_lowercase()),
        false => Cow::Borrowed(s),
    };
    if let Some(h) = url.host() {
        // (No trailing dot to trim: the parser takes no host ending in
        // `.`, under either policy.)
        let s = h.as_str();
        return (!s.is_empty()).then(|| (lower(s), matches!(h, Host::Number(_))));
    }
    match url.scheme_kind() {
        Scheme::Mailto | Scheme::News => {
            let part = url.schemepart();
            let part = part.split(['?', '#']).next().unwrap_or(part);
            let at = part.rfind('@')?;
            let d = part[at + 1..].trim_end_matches(['>', '.']);
            let ok = !d.is_empty()
                && d.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
            ok.then(|| (lower(d), d.bytes().all(|b| b.is_ascii_digit() || b == b'.')))
        }
        _ => None,
    }
}

/// The length of the ICANN public suffix of `host` (lower case), `None`
/// when the list knows none.
fn icann_suffix_len(host: &str) -> Option<usize> {
    let mut name = host;
    loop {
        let s = List.suffix(name.as_bytes())?;
        let len = s.as_bytes().len();
        match s.typ() {
            Some(Type::Icann) => return Some(len),
            // A private suffix ends in an ICANN one: look again from its
            // second label.
            Some(Type::Private) => {
                let sfx = &name[name.len() - len..];
                name = &sfx[sfx.find('.')? + 1..];
            }
            None => return None,
        }
    }
}

/// The registrable domain of `host` (lower case), or `host` itself when it
/// is an IP address, has no public suffix, or is one.
///
/// ```
/// use urlsift_report::registrable;
/// assert_eq!(registrable("www.cs.example.ac.uk", false), "example.ac.uk");
/// assert_eq!(registrable("foo.blogspot.com", false), "blogspot.com");
/// assert_eq!(registrable("localhost", false), "localhost");
/// assert_eq!(registrable("co.uk", false), "co.uk");
/// assert_eq!(registrable("192.0.2.1", true), "192.0.2.1");
/// ```
pub fn registrable(host: &str, ip: bool) -> &str {
    if ip {
        return host;
    }
    let Some(len) = icann_suffix_len(host) else {
        return host;
    };
    if len >= host.len() {
        return host;
    }
    let rest = &host[..host.len() - len - 1];
    let start = rest.rfind('.').map_or(0, |i| i + 1);
    &host[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dom(url: &str) -> Option<String> {
        let n = Url::parse(url).unwrap().normalized();
        let u = Url::parse(&n).unwrap();
        host_of(&u).map(|(h, ip)| registrable(&h, ip).to_string())
    }

    #[test]
    fn hosts_and_addresses() {
        assert_eq!(
            dom("http://WWW.Example.COM/x").as_deref(),
            Some("example.com")
        );
        assert_eq!(dom("ftp://ftp.uu.net/pub").as_deref(), Some("uu.net"));
        assert_eq!(
            dom("http://a.b.example.co.jp/").as_deref(),
            Some("example.co.jp")
        );
        assert_eq!(dom("gopher://10.0.0.1:70/").as_deref(), Some("10.0.0.1"));
        assert_eq!(dom("telnet://localhost/").as_deref(), Some("localhost"));
        // The parser takes no host with a final dot.
        assert!(Url::parse("http://www.example.com./x").is_err());
        assert_eq!(dom("mailto:Jim@Info.CERN.ch").as_deref(), Some("cern.ch"));
        assert_eq!(
            dom("news:3d9s2p$q1@info.example.ch").as_deref(),
            Some("example.ch")
        );
        assert_eq!(dom("news:comp.mail.misc"), None);
        assert_eq!(dom("file:///etc/motd"), None);
        // Unknown top-level label: the host as it is.
        assert_eq!(
            dom("http://a.b.nosuchtld/").as_deref(),
            Some("a.b.nosuchtld")
        );
        // A wildcard rule of the list (*.ck) and its exception (!www.ck).
        assert_eq!(dom("http://a.b.c.ck/").as_deref(), Some("b.c.ck"));
        assert_eq!(dom("http://www.ck/").as_deref(), Some("www.ck"));
    }
}
