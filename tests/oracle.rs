//! The hand-written parser against the section 5 DFAs of `urlsift::grammar`
//! (which mirror ref-extract's `grammar()`): same language, same offsets.

use proptest::prelude::*;
mod grammar;
use grammar::{check, Verdict};
use urlsift::{Policy, Url};

const PREFIXES: &[&str] = &[
    "http://",
    "ftp://",
    "gopher://",
    "mailto:",
    "news:",
    "nntp://",
    "telnet://",
    "wais://",
    "file://",
    "prospero://",
    "HTTP://",
    "Ftp://",
    "NEWS:",
    "x-y.z+1:",
    "foo://",
    "file:///",
    "http:",
    "ftp:/",
    "",
    ":",
    "ht tp://",
];

const PIECES: &[&str] = &[
    "a",
    "host",
    "b-c",
    "x9",
    "1",
    "12",
    "300",
    ".",
    "-",
    ":",
    "@",
    "/",
    "//",
    "?",
    ";",
    "=",
    "&",
    "%41",
    "%0d",
    "%7e",
    "%4",
    "%G1",
    "%",
    "~",
    "#",
    ";type=",
    ";type=d",
    ";type=x",
    "a.b.c",
    "1.2.3.4",
    "1.2.3",
    "_",
    "*",
    " ",
    "\u{e9}",
    "80",
    "+",
    "!",
    "$",
    "'",
    "com",
    "user:pw@",
    "u@",
    "%09",
    "a=b",
    ";f=v",
    "localhost",
    "\t",
    "<",
    ">",
    "\"",
];

const BYTES: &[u8] = b"-.:@/?;=%~# aZ09_*&+$!\x80\xff\x00\t";

fn near_valid() -> impl Strategy<Value = Vec<u8>> {
    (
        prop::sample::select(PREFIXES),
        prop::collection::vec(prop::sample::select(PIECES), 0..10),
        prop::collection::vec(
            (
                0u8..3,
                any::<prop::sample::Index>(),
                prop::sample::select(BYTES),
            ),
            0..3,
        ),
    )
        .prop_map(|(pre, pieces, muts)| {
            let mut v: Vec<u8> = pre.as_bytes().to_vec();
            for p in pieces {
                v.extend_from_slice(p.as_bytes());
            }
            for (op, at, b) in muts {
                let n = v.len();
                match op {
                    0 => v.insert(at.index(n + 1), b),
                    1 if n > 0 => {
                        v.remove(at.index(n));
                    }
                    _ if n > 0 => v[at.index(n)] = b,
                    _ => v.push(b),
                }
            }
            v
        })
}

/// The parser must agree with the DFA: accept exactly the same inputs and,
/// on rejection, report the offset where the DFA dies.
fn agree(input: &[u8]) -> Result<(), String> {
    for policy in [Policy::Strict, Policy::Lenient] {
        let oracle = check(input, policy);
        let got = Url::parse_with(input, policy);
        let ok = match (&got, oracle) {
            (Ok(_), Verdict::Accept) => true,
            (Err(e), Verdict::Reject(off)) => e.offset() == off,
            _ => false,
        };
        if !ok {
            return Err(format!(
                "{:?} {:?}: parser {:?}, oracle {:?}",
                String::from_utf8_lossy(input),
                policy,
                got.map(|u| u.as_str()),
                oracle
            ));
        }
        if let Ok(u) = got {
            if u.to_string().as_bytes() != input {
                return Err("print is not identity".into());
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn parser_agrees_with_dfa(input in near_valid()) {
        if let Err(m) = agree(&input) {
            prop_assert!(false, "{}", m);
        }
    }

    #[test]
    fn no_panic_on_any_bytes(input in prop::collection::vec(any::<u8>(), 0..64)) {
        let _ = Url::parse_with(&input, Policy::Strict);
        if let Ok(u) = Url::parse_with(&input, Policy::Lenient) {
            prop_assert_eq!(u.as_str().as_bytes(), &input[..]);
            let _ = (u.components(), u.normalized(), u.specific(), u.warnings().len());
        }
    }

    #[test]
    fn no_panic_on_scheme_prefixed_bytes(pre in prop::sample::select(PREFIXES),
                                          tail in prop::collection::vec(any::<u8>(), 0..32)) {
        let mut v = pre.as_bytes().to_vec();
        v.extend_from_slice(&tail);
        if let Err(m) = agree(&v) {
            prop_assert!(false, "{}", m);
        }
    }
}

#[test]
fn known_corners() {
    for s in [
        "ftp://a-:b@h.com/x;type=d#f",
        "ftp://a:1@h/",
        "ftp://a:1x@h/",
        "ftp://host;x",
        "ftp://a_b/",
        "ftp://a:b:c@h",
        "telnet://u:p@h:23/",
        "news:a.b-c",
        "news:*",
        "news:*@h",
        "news:1@h",
        "news:@h",
        "news:a~b",
        "wais://h/db/t/p",
        "wais://h/db/t",
        "prospero://h/a;b=c;d",
        "file://h:1/",
        "http://u@h/",
        "http://1.2.3.4.5/",
        "http://1.2.3.x/",
        "http://1a/",
        "http://a.1a/",
        "nntp://h/g/",
        "foo://u:p@h:1/x",
    ] {
        agree(s.as_bytes()).unwrap();
    }
}

/// Cross-check against ref-extract's `valid()` itself: URLSIFT_REF_TSV names
/// a file of `hex(input) TAB strict(0|1) TAB lenient(0|1)` lines made by
/// running the Python reference; `benches/parser-vs-ref.sh` (run by CI, which
/// has the reference beside the clone) makes one and runs this test.
#[test]
#[ignore = "needs URLSIFT_REF_TSV from benches/parser-vs-ref.sh"]
fn reference_tsv() {
    let path = std::env::var("URLSIFT_REF_TSV").expect("URLSIFT_REF_TSV names the cases");
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let input: Vec<u8> = (0..f[0].len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&f[0][i..i + 2], 16).unwrap())
            .collect();
        for (policy, want) in [(Policy::Strict, f[1]), (Policy::Lenient, f[2])] {
            let got = check(&input, policy) == Verdict::Accept;
            assert_eq!(
                got,
                want == "1",
                "{:?} {:?}",
                String::from_utf8_lossy(&input),
                policy
            );
            assert_eq!(Url::parse_with(&input, policy).is_ok(), got);
        }
        n += 1;
    }
    assert!(n > 0, "no cases in URLSIFT_REF_TSV");
    eprintln!("reference_tsv: {n} inputs agree");
}
