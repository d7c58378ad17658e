//! Naked URLs (contract rules 14-17): the cases of `tests/data/naked/*.txt`
//! (format in `tests/common/mod.rs`; cross-checked with `ref-extract
//! --naked` by `tests/data/xcheck.py`) through every front end, and
//! properties: chunking and piece cuts change nothing, every naked URL
//! reported is valid by rule 7 and is its own source text.

mod common;

use common::{all_front_ends, check, check_with_rejected, load_dir, run_cases, Case, Rng};
use proptest::prelude::*;
use urlsift::{Form, Limits, Match, PieceContext, Policy, Rejection, Scanner, Url};

fn cases() -> Vec<Case> {
    load_dir("tests/data/naked")
}

/// The case's scanner with naked URLs on.
fn naked(c: &Case) -> Scanner {
    c.scanner().naked(true)
}

/// Every observable field of the matches, as text (readable diffs).
fn key(ms: &[Match]) -> Vec<String> {
    ms.iter()
        .map(|m| {
            format!(
                "{:?} {:?} {} {} {} {} {:?} {:?}",
                m.as_str(),
                m.form(),
                m.offset(),
                m.end(),
                m.line(),
                m.column(),
                m.spans(),
                m.rejection(),
            )
        })
        .collect()
}

/// Pieces cut at `cuts` (anywhere), each scanned with the context that
/// [`PieceContext::advance_scanning`] gives, rebased and concatenated.
fn via_pieces(s: Scanner, data: &[u8], cuts: &[usize]) -> Vec<Match> {
    let mut bounds: Vec<usize> = cuts
        .iter()
        .copied()
        .filter(|&c| c > 0 && c < data.len())
        .filter(|&c| !(c.saturating_sub(2)..c).any(|i| data[i] == 0x1b))
        .collect();
    bounds.push(data.len());
    bounds.sort_unstable();
    bounds.dedup();
    let look = s.get_limits().max_bytes;
    let mut out = Vec::new();
    let mut context = PieceContext::default();
    let (mut start, mut lines) = (0usize, 0u64);
    for end in bounds {
        // Each piece sees its lookahead only, as the command's pieces do.
        let stop = (end + look).min(data.len());
        let piece = &data[start..stop];
        let at_end = stop == data.len();
        let (mut ms, n) = s.scan_piece_in(piece, end - start, at_end, &context);
        for m in &mut ms {
            m.rebase(start as u64, lines);
        }
        out.extend(ms);
        lines += n;
        context.advance_scanning(&s, piece, end - start, at_end);
        start = end;
    }
    out
}

fn run_extract(c: &Case) -> Vec<String> {
    let got = naked(c).extract(&c.input);
    let mut errs = check(c, &got);
    for m in got.iter().filter(|m| m.form() == Form::Naked) {
        if let Err(e) = Url::parse_with(m.as_bytes(), c.policy) {
            errs.push(format!("{}: does not re-parse: {e}", m.as_str()));
        }
        if m.spans().len() != 1 || m.is_broken() || m.is_quoted() || m.hyphen().is_some() {
            errs.push(format!("{}: naked with joins", m.as_str()));
        }
    }
    errs
}

fn run_rejected(c: &Case) -> Vec<String> {
    check_with_rejected(c, &naked(c).rejected(true).extract(&c.input))
}

fn run_front_ends(c: &Case) -> Vec<String> {
    let mut errs = Vec::new();
    for rejected in [false, true] {
        for max_bytes in [None, Some(24), Some(64)] {
            let mut s = naked(c).rejected(rejected);
            if let Some(max_bytes) = max_bytes {
                s = s.limits(Limits {
                    max_bytes,
                    max_lines: 3,
                });
            }
            let runs = all_front_ends(s, &c.input, c.input.len() as u64);
            let want = key(&runs[0].1);
            // Pieces are read raw (no MIME): as the raw reading, which is
            // the MIME reading but where a part's charset matters (rule 23).
            let raw = key(&s.mime(false).extract(&c.input));
            for (label, got) in &runs[1..] {
                if key(got) != want {
                    errs.push(format!("{label} (max_bytes {max_bytes:?}) differs"));
                }
            }
            let every: Vec<usize> = (1..c.input.len()).collect();
            if key(&via_pieces(s, &c.input, &every)) != raw {
                errs.push(format!(
                    "pieces of one byte (max_bytes {max_bytes:?}) differ"
                ));
            }
            let lines: Vec<usize> = common::line_starts(&c.input);
            if key(&via_pieces(s, &c.input, &lines)) != raw {
                errs.push(format!("pieces per line (max_bytes {max_bytes:?}) differ"));
            }
        }
    }
    errs
}

#[test]
fn naked_cases() {
    run_cases(&cases(), run_extract);
}

#[test]
fn naked_cases_with_rejected() {
    run_cases(&cases(), run_rejected);
}

#[test]
fn naked_cases_through_every_front_end() {
    run_cases(&cases(), run_front_ends);
}

#[test]
fn every_naked_rule_is_covered() {
    let cases = cases();
    for rule in ["14", "15", "16", "17"] {
        let n = cases
            .iter()
            .filter(|c| {
                c.rule
                    .split(|ch: char| !ch.is_alphanumeric())
                    .any(|w| w == rule)
            })
            .count();
        assert!(n >= 2, "rule {rule}: only {n} cases");
    }
}

/// Off by default: the scan cases give what they gave, naked URLs or not
/// in the text.
#[test]
fn off_by_default() {
    assert!(!Scanner::new().get_naked());
    let text = b"see http://a.example/x and <http://b.example/>";
    let found = Scanner::new().extract(text);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].form(), Form::Bracketed);
    assert_eq!(Scanner::new().naked(true).extract(text).len(), 2);
}

/// A rejected naked candidate says why.
#[test]
fn rejection_reasons() {
    let found = Scanner::new()
        .naked(true)
        .rejected(true)
        .extract(b"sftp:// http://a.example@b.example/");
    let why: Vec<String> = found
        .iter()
        .map(|m| m.rejection().unwrap().to_string())
        .collect();
    assert_eq!(found.len(), 2, "{why:?}");
    assert!(why[0].contains("nothing after the scheme"), "{why:?}");
    assert!(matches!(found[1].rejection(), Some(Rejection::Invalid(_))));
    assert_eq!(found[1].form(), Form::Naked);
}

/// Hostile inputs: a URL after each is still found, with every front end.
#[test]
fn hostile_inputs_then_a_url() {
    let hostile: Vec<Vec<u8>> = vec![
        b"http://".repeat(20_000),
        b"(".repeat(50_000),
        b")".repeat(50_000),
        [b"http://a.example/".as_ref(), &b".".repeat(50_000)].concat(),
        [b"http://a.example/".as_ref(), &b")".repeat(50_000)].concat(),
        b"a:".repeat(50_000),
        b"http://a.example/(".repeat(5_000),
        b"ftp://a/".repeat(5_000),
    ];
    for (k, h) in hostile.iter().enumerate() {
        let mut data = h.clone();
        data.extend_from_slice(b" then http://after.example/ end");
        let s = Scanner::new().naked(true);
        let found = s.extract(&data);
        assert_eq!(
            found.last().map(|m| m.as_str().into_owned()).as_deref(),
            Some("http://after.example/"),
            "hostile input {k}"
        );
        let runs = all_front_ends(s, &data, k as u64);
        for (label, got) in &runs[1..] {
            assert_eq!(key(got), key(&runs[0].1), "hostile input {k}: {label}");
        }
    }
}

const PIECES: &[&str] = &[
    "http://",
    "https://",
    "ftp://",
    "mailto:",
    "news:",
    "x-y:",
    "sftp://",
    "http:",
    ":",
    "//",
    "a.example",
    "host.example",
    "/",
    "(",
    ")",
    ".",
    ",",
    ";",
    "!",
    "?",
    "'",
    "*",
    "\"",
    "#frag",
    "#",
    "%41",
    "%4",
    "~",
    "|",
    "[",
    "@",
    ":80",
    "x",
    "-",
    " ",
    "\t",
    "\n",
    "\n\n",
    "\n> ",
    "-\n",
    "<",
    ">",
    "<URL:",
    "<URL:\n ",
    "<http://",
    "<news:",
    "\u{e9}",
    "\x1b$B",
    "\x1b(B",
    "comp.lang.c",
    "user@",
    ";type=a",
];

/// Rule 23's charsets, each with characters it writes in more than one
/// byte whose last byte may be ASCII (`ア`, `、`, `갂`...) and the
/// punctuation a URL stands between.
#[cfg(feature = "charsets")]
const CHARSETS: &[(&str, &str)] = &[
    ("shift_jis", "（「、ア日本語ソ表」）"),
    ("euc-jp", "（「、ア日本語」）"),
    ("iso-2022-jp", "（「、ア日本語」）"),
    ("big5", "（「、中文許功」）"),
    ("gbk", "（「、中文」）"),
    ("gb18030", "（「、中文\u{452}\u{e9}」）"),
    ("euc-kr", "（「、한국갂」）"),
];

/// Text pieces: `CJK` stands for the charset's characters.
#[cfg(feature = "charsets")]
const CJK_PIECES: &[&str] = &[
    "CJK",
    "CJK",
    "CJK",
    "http://a.example/x",
    "https://b.example/y?z=1",
    "news:comp.x",
    "mailto:u@c.example",
    " ",
    "\n",
    "a",
    "1",
    ":",
    ".",
    "(",
    ")",
];

fn text() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(PIECES), 0..120)
        .prop_map(|v| v.concat().into_bytes())
}

fn scanner() -> impl Strategy<Value = Scanner> {
    (any::<bool>(), any::<bool>(), 8usize..100).prop_map(|(strict, rejected, max_bytes)| {
        Scanner::new()
            .naked(true)
            .policy(if strict {
                Policy::Strict
            } else {
                Policy::Lenient
            })
            .rejected(rejected)
            .limits(Limits {
                max_bytes,
                max_lines: 4,
            })
    })
}

fn cases_n() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases_n(), failure_persistence: None, ..ProptestConfig::default() })]

    /// Chunking does not change the results: readers and push scanners
    /// with tiny buffers, and pieces cut anywhere, equal `extract`.
    #[test]
    fn chunking_does_not_matter(
        data in text(),
        s in scanner(),
        sizes in prop::collection::vec(1usize..9, 1..8),
        min_read in 1usize..20,
        pick in any::<u64>(),
    ) {
        let want = key(&s.extract(&data));
        prop_assert_eq!(&want, &key(&common::via_reader(s, &data, &sizes, min_read)));
        prop_assert_eq!(&want, &key(&common::via_push(s, &data, &sizes, min_read)));
        let mut rng = Rng(pick | 1);
        let cuts: Vec<usize> = (1..data.len()).filter(|_| rng.below(5) == 0).collect();
        prop_assert_eq!(&want, &key(&via_pieces(s, &data, &cuts)));
    }

    /// A naked URL reported is valid by rule 7 under the policy, is its
    /// own source text on one line, and starts a scheme run (rule 14).
    #[test]
    fn naked_urls_are_valid(data in text(), s in scanner()) {
        for m in s.extract(&data).iter().filter(|m| m.form() == Form::Naked) {
            let (a, b) = (m.offset() as usize, m.end() as usize);
            prop_assert_eq!(&data[a..b], m.as_bytes());
            if m.is_valid() {
                prop_assert!(Url::parse_with(m.as_bytes(), s.get_policy()).is_ok(), "{}", m.as_str());
                prop_assert!(!m.as_bytes().contains(&b'\n'));
                // Rule 23: after an escape sequence's final byte (a
                // letter), as after any byte that is no scheme byte.
                let escape = a >= 3 && data[a - 3] == 0x1b && (0x20..0x30).contains(&data[a - 2]);
                prop_assert!(a == 0 || escape || !(data[a - 1].is_ascii_alphanumeric() || b"+-.".contains(&data[a - 1])));
            }
        }
    }

    /// Rule 23: the naked URLs of a text are those of the same text in
    /// UTF-8, in whichever multi-byte charset its part declares.
    #[cfg(feature = "charsets")]
    #[test]
    fn naked_urls_do_not_depend_on_the_charset(
        words in prop::collection::vec(prop::sample::select(CJK_PIECES), 0..40),
        which in 0usize..CHARSETS.len(),
    ) {
        let (label, chars) = CHARSETS[which];
        let text: String = words
            .iter()
            .map(|w| match *w {
                "CJK" => chars,
                w => w,
            })
            .collect();
        let in_charset = |label: &str| {
            let enc = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
            let (body, _, bad) = enc.encode(&text);
            assert!(!bad, "{label}: {text}");
            let mut mail = format!("Content-Type: text/plain; charset={label}\n\n").into_bytes();
            mail.extend_from_slice(&body);
            let found = Scanner::new().naked(true).extract(&mail);
            found.iter().map(|m| m.as_str().into_owned()).collect::<Vec<_>>()
        };
        prop_assert_eq!(in_charset(label), in_charset("utf-8"), "{}", text);
    }

    /// Turning naked URLs on adds naked matches and changes nothing else.
    #[test]
    fn naked_adds_only(data in text(), s in scanner()) {
        let without = key(&s.naked(false).extract(&data));
        let with: Vec<Match> = s.extract(&data).into_iter().filter(|m| m.form() != Form::Naked).collect();
        prop_assert_eq!(without, key(&with));
    }
}
