//! RFC 1738 section 5 as regular expressions, compiled to dense DFAs: the
//! executable oracle the hand-written parser is tested against.
//!
//! The expressions mirror `grammar()` of the project's reference extractor
//! (`shared/bench/ref-extract`): one per scheme body (the text after
//! `scheme:`), plus the generic `*xchar`, each followed by an optional
//! `"#" *xchar` fragment and `\z`. The scheme name itself
//! (`1*[alpha | digit | "+" | "-" | "."]`, any case) and the dispatch on it
//! are done in code, because "any scheme except the ten known ones" is not
//! a convenient regular expression.
//!
//! [`check`] steps the DFA byte by byte and reports either acceptance or the
//! offset where the DFA dies (or the input length for a viable prefix).
//! Building the DFAs takes a moment, so it happens once, on first use.

#![allow(dead_code)] // each test crate that includes this uses part of it

use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::nfa::thompson;
use regex_automata::util::start;
use regex_automata::util::syntax;
use regex_automata::{Anchored, MatchKind};
use std::sync::OnceLock;
use urlsift::{Policy, Scheme};

/// The section 5 regular expressions for one policy, keyed by scheme name
/// (lower case), plus `"generic"` for `genericurl`'s `*xchar` schemepart.
/// None of them includes the fragment or the `\z`.
pub fn expressions(policy: Policy) -> Vec<(&'static str, String)> {
    let lenient = policy == Policy::Lenient;
    let tilde = if lenient { "~" } else { "" };
    let unreserved = format!(r"[A-Za-z0-9$\-_.+!*'(),{tilde}]");
    let escape = r"%[0-9A-Fa-f]{2}";
    let uchar = format!("(?:{unreserved}|{escape})");
    let xchar = format!("(?:{uchar}|[;/?:@&=])");
    let domainlabel = r"[A-Za-z0-9](?:[A-Za-z0-9\-]*[A-Za-z0-9])?";
    let toplabel = r"[A-Za-z](?:[A-Za-z0-9\-]*[A-Za-z0-9])?";
    let hostname = format!(r"(?:{domainlabel}\.)*{toplabel}");
    let hostnumber = r"[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+";
    let host = format!("(?:{hostname}|{hostnumber})");
    let hostport = format!("{host}(?::[0-9]+)?");
    let user = format!("(?:{uchar}|[;?&=])*");
    let login = format!("(?:{user}(?::{user})?@)?{hostport}");
    let fsegment = format!("(?:{uchar}|[?:@&=])*");
    let fpath = format!("{fsegment}(?:/{fsegment})*");
    let hsegment = format!("(?:{uchar}|[;:@&=])*");
    let search = format!("(?:{uchar}|[;:@&=])*");
    let hsearch = format!("(?:{uchar}|[;:@&={}])*", if lenient { "/?" } else { "" });
    let group = r"[A-Za-z][A-Za-z0-9\-.+_]*";
    vec![
        (
            "http",
            format!(r"//{hostport}(?:/{hsegment}(?:/{hsegment})*(?:\?{hsearch})?)?"),
        ),
        ("ftp", format!(r"//{login}(?:/{fpath}(?:;type=[AIDaid])?)?")),
        ("gopher", format!(r"//{hostport}(?:/{xchar}*)?")),
        ("mailto", format!(r"{xchar}+")),
        (
            "news",
            format!(r"(?:\*|{group}|(?:{uchar}|[;/?:&=])+@{host})"),
        ),
        ("nntp", format!(r"//{hostport}/{group}(?:/[0-9]+)?")),
        ("telnet", format!(r"//{login}/?")),
        (
            "wais",
            format!(r"//{hostport}/{uchar}*(?:\?{search}|/{uchar}*/{uchar}*)?"),
        ),
        ("file", format!(r"//(?:{host})?/{fpath}")),
        (
            "prospero",
            format!(
                r"//{hostport}/{fsegment}(?:/{fsegment})*(?:;(?:{uchar}|[?:@&])*=(?:{uchar}|[?:@&])*)*"
            ),
        ),
        ("generic", format!("{xchar}*")),
    ]
}

/// Fragment suffix appended to every body expression.
fn fragment(policy: Policy) -> String {
    let tilde = if policy == Policy::Lenient { "~" } else { "" };
    format!(r"(?:#(?:[A-Za-z0-9$\-_.+!*'(),{tilde};/?:@&=]|%[0-9A-Fa-f]{{2}})*)?\z")
}

struct Compiled {
    /// Indexed like `expressions()`.
    dfas: Vec<(&'static str, dense::DFA<Vec<u32>>)>,
}

fn compile(policy: Policy) -> Compiled {
    let frag = fragment(policy);
    let dfas = expressions(policy)
        .into_iter()
        .map(|(name, re)| {
            let dfa = dense::Builder::new()
                .syntax(syntax::Config::new().unicode(false).utf8(false))
                .thompson(thompson::Config::new().utf8(false))
                .configure(
                    dense::Config::new()
                        .start_kind(StartKind::Anchored)
                        .match_kind(MatchKind::All)
                        .minimize(true),
                )
                .build(&format!("{re}{frag}"))
                .expect("section 5 expression compiles");
            (name, dfa)
        })
        .collect();
    Compiled { dfas }
}

fn compiled(policy: Policy) -> &'static Compiled {
    static STRICT: OnceLock<Compiled> = OnceLock::new();
    static LENIENT: OnceLock<Compiled> = OnceLock::new();
    match policy {
        Policy::Strict => STRICT.get_or_init(|| compile(Policy::Strict)),
        Policy::Lenient => LENIENT.get_or_init(|| compile(Policy::Lenient)),
    }
}

/// The oracle's verdict on an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The input is a URL.
    Accept,
    /// It is not; the offset where no valid URL can begin with the bytes
    /// read so far, or the input length for a viable but incomplete prefix.
    Reject(usize),
}

/// Runs the DFA for `body` (the bytes after `scheme:`, which start at
/// `base` in the whole input) and reports the verdict with whole-input
/// offsets.
fn run(dfa: &dense::DFA<Vec<u32>>, body: &[u8], base: usize) -> Verdict {
    let cfg = start::Config::new().anchored(Anchored::Yes);
    let mut s = match dfa.start_state(&cfg) {
        Ok(s) => s,
        Err(_) => return Verdict::Reject(base),
    };
    for (i, &b) in body.iter().enumerate() {
        s = dfa.next_state(s, b);
        if dfa.is_dead_state(s) {
            return Verdict::Reject(base + i);
        }
    }
    s = dfa.next_eoi_state(s);
    if dfa.is_match_state(s) {
        Verdict::Accept
    } else {
        Verdict::Reject(base + body.len())
    }
}

/// Is `input` a URL (section 5, with an optional `#fragment`) under
/// `policy`? Same language as `valid(url, lenient)` of ref-extract.
pub fn check(input: &[u8], policy: Policy) -> Verdict {
    // scheme = 1*[ alpha | digit | "+" | "-" | "." ], then ":".
    let i = urlsift::Scheme::name_len(input);
    if i == input.len() {
        return Verdict::Reject(i);
    }
    if input[i] != b':' || i == 0 {
        return Verdict::Reject(i);
    }
    let name = match Scheme::from_name(&input[..i]) {
        Scheme::Other => "generic",
        s => s.name(),
    };
    let c = compiled(policy);
    let dfa = &c
        .dfas
        .iter()
        .find(|(n, _)| *n == name)
        .expect("known scheme")
        .1;
    run(dfa, &input[i + 1..], i + 1)
}

/// Convenience: `check(..) == Verdict::Accept`.
pub fn is_valid(input: &[u8], policy: Policy) -> bool {
    check(input, policy) == Verdict::Accept
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    #[test]
    fn offsets() {
        let l = Policy::Lenient;
        assert_eq!(check(b"http://host/", l), Accept);
        assert_eq!(check(b"http://user@host/", l), Reject(11));
        assert_eq!(check(b"http://host-/", l), Reject(12));
        assert_eq!(check(b"http://host:/", l), Reject(12));
        assert_eq!(check(b"ftp://h/a%4G", l), Reject(11));
        assert_eq!(check(b"http://", l), Reject(7));
        assert_eq!(check(b"", l), Reject(0));
        assert_eq!(check(b":x", l), Reject(0));
        assert_eq!(check(b"HTTP://h/~x", l), Accept);
        assert_eq!(check(b"HTTP://h/~x", Policy::Strict), Reject(9));
        assert_eq!(check(b"http:x", l), Reject(5));
        assert_eq!(check(b"foo:x#y", l), Accept);
        assert_eq!(check(b"ftp://a-:b@h.com/x;type=d#f", l), Accept);
    }
}
