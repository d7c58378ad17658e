//! Shared harness of the data-driven extraction tests: the case file format,
//! the front ends (slice, reader, push) and the expectation checker.
//!
//! # Case files (`tests/data/scan/*.txt`, `tests/data/real/*.txt`)
//!
//! ```text
//! # comment (outside a case)
//! === case-name
//! rule: 3 (bracketed form: a blank inside one line)   free text, required
//! policy: strict                                      optional (default lenient)
//! limits: 256 8                                       optional (max_bytes max_lines)
//! rejected: blank-line less-than                      optional: the rejection kinds
//!                                                     reported with rejected(true), in order
//! mime: off                                           optional: the raw reading (MIME
//!                                                     off; rules 10-13 are on by default)
//! html: always                                        optional: which HTML parts are read
//!                                                     (fallback, always, never; rules 18-22)
//! ref: skip (why)                                     optional: ref-extract does not apply
//! bug: description                                    optional: the library disagrees
//!                                                     with the contract; the case runs
//!                                                     only in an #[ignore]d test
//! --- input
//! text, exactly (no final newline unless an empty line precedes --- expect);
//! escapes: \r \t \e (ESC) \s (space) \xHH \\
//! --- expect
//! url [line=N] [col=N] [off=N] [form=wrapped|bracketed|naked|href] [broken|unbroken]
//!     [quoted|unquoted] [hyphen=kept|dropped|mixed|none] [alt=URL|alt=none]
//! ```
//!
//! An empty `--- expect` section means: no URL. `tests/data/xcheck.py`
//! compares every case with `ref-extract` (it is run by hand, not by
//! `cargo test`, which must not depend on anything outside the repository).

#![allow(dead_code)]

use std::io::{self, Read};
use std::path::Path;

use urlsift::{
    Extractor, Form, HtmlMode, Hyphen, Limits, Match, Policy, PushScanner, Rejection, Scanner,
    Unclosed,
};

/// One expected URL with the attributes to check.
#[derive(Clone, Debug, Default)]
pub struct Want {
    pub url: String,
    pub line: Option<u64>,
    pub col: Option<u64>,
    pub off: Option<u64>,
    pub form: Option<Form>,
    pub broken: Option<bool>,
    pub quoted: Option<bool>,
    pub hyphen: Option<Option<Hyphen>>,
    pub alt: Option<Option<String>>,
}

/// One case of a data file.
#[derive(Clone, Debug)]
pub struct Case {
    pub file: String,
    pub name: String,
    pub rule: String,
    pub policy: Policy,
    pub limits: Option<Limits>,
    pub rejected: Option<Vec<String>>,
    pub bug: Option<String>,
    pub mime: bool,
    pub html: HtmlMode,
    pub input: Vec<u8>,
    pub want: Vec<Want>,
}

impl Case {
    pub fn scanner(&self) -> Scanner {
        let mut s = Scanner::new()
            .policy(self.policy)
            .mime(self.mime)
            .html(self.html);
        if let Some(l) = self.limits {
            s = s.limits(l);
        }
        s
    }

    pub fn id(&self) -> String {
        format!("{}:{}", self.file, self.name)
    }
}

/// Decodes the escapes of an input block.
pub fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'e' => out.push(0x1b),
                b's' => out.push(b' '),
                b'\\' => out.push(b'\\'),
                b'x' => {
                    let hex = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
                    out.push(u8::from_str_radix(hex, 16).unwrap());
                    i += 4;
                    continue;
                }
                _ => {
                    out.push(b'\\');
                    i += 1;
                    continue;
                }
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

fn parse_want(line: &str, ctx: &str) -> Want {
    let mut it = line.split_whitespace();
    let mut w = Want {
        url: it.next().unwrap().to_string(),
        ..Want::default()
    };
    for attr in it {
        let (k, v) = attr.split_once('=').unwrap_or((attr, ""));
        match k {
            "line" => w.line = Some(v.parse().unwrap()),
            "col" => w.col = Some(v.parse().unwrap()),
            "off" => w.off = Some(v.parse().unwrap()),
            "form" => {
                w.form = Some(match v {
                    "wrapped" => Form::Wrapped,
                    "bracketed" => Form::Bracketed,
                    "naked" => Form::Naked,
                    "href" => Form::Href,
                    _ => panic!("{ctx}: bad form {v}"),
                })
            }
            "broken" => w.broken = Some(true),
            "unbroken" => w.broken = Some(false),
            "quoted" => w.quoted = Some(true),
            "unquoted" => w.quoted = Some(false),
            "hyphen" => {
                w.hyphen = Some(match v {
                    "kept" => Some(Hyphen::Kept),
                    "dropped" => Some(Hyphen::Dropped),
                    "mixed" => Some(Hyphen::Mixed),
                    "none" => None,
                    _ => panic!("{ctx}: bad hyphen {v}"),
                })
            }
            "alt" => {
                w.alt = Some(if v == "none" {
                    None
                } else {
                    Some(v.to_string())
                })
            }
            _ => panic!("{ctx}: unknown attribute {attr}"),
        }
    }
    w
}

/// Parses one case file.
pub fn parse_cases(file: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    for block in text.split("\n=== ").skip(1) {
        let (name, rest) = block.split_once('\n').expect("case name line");
        let name = name.trim().to_string();
        let ctx = format!("{file}:{name}");
        let (head, rest) = rest
            .split_once("--- input\n")
            .unwrap_or_else(|| panic!("{ctx}: no --- input"));
        let (input, expect) = match rest.split_once("\n--- expect\n") {
            Some(x) => x,
            None => match rest.strip_suffix("\n--- expect") {
                Some(i) => (i, ""),
                None => rest
                    .split_once("\n--- expect")
                    .unwrap_or_else(|| panic!("{ctx}: no --- expect")),
            },
        };
        let mut case = Case {
            file: file.to_string(),
            name,
            rule: String::new(),
            policy: Policy::Lenient,
            limits: None,
            rejected: None,
            bug: None,
            mime: true,
            html: HtmlMode::Fallback,
            input: unescape(input),
            want: Vec::new(),
        };
        for h in head.lines() {
            let h = h.trim();
            if h.is_empty() || h.starts_with('#') {
                continue;
            }
            let (k, v) = h
                .split_once(':')
                .unwrap_or_else(|| panic!("{ctx}: bad header {h}"));
            let v = v.trim();
            match k {
                "rule" => case.rule = v.to_string(),
                "policy" => {
                    case.policy = match v {
                        "strict" => Policy::Strict,
                        "lenient" => Policy::Lenient,
                        _ => panic!("{ctx}: bad policy"),
                    }
                }
                "limits" => {
                    let mut n = v.split_whitespace().map(|x| x.parse::<usize>().unwrap());
                    case.limits = Some(Limits {
                        max_bytes: n.next().unwrap(),
                        max_lines: n.next().unwrap(),
                    });
                }
                "rejected" => {
                    case.rejected = Some(v.split_whitespace().map(String::from).collect())
                }
                "ref" => {}
                "mime" => {
                    case.mime = match v {
                        "on" => true,
                        "off" => false,
                        _ => panic!("{ctx}: bad mime"),
                    }
                }
                "html" => {
                    case.html = match v {
                        "fallback" => HtmlMode::Fallback,
                        "always" => HtmlMode::Always,
                        "never" => HtmlMode::Never,
                        _ => panic!("{ctx}: bad html"),
                    }
                }
                "bug" => case.bug = Some(v.to_string()),
                _ => panic!("{ctx}: unknown header {k}"),
            }
        }
        assert!(!case.rule.is_empty(), "{ctx}: every case cites its rule");
        for l in expect.lines() {
            let l = l.trim();
            if l.is_empty() || l.starts_with('#') {
                continue;
            }
            case.want.push(parse_want(l, &ctx));
        }
        cases.push(case);
    }
    cases
}

/// All cases of the `.txt` files in `dir` (relative to the crate root),
/// sorted by file name.
pub fn load_dir(dir: &str) -> Vec<Case> {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        out.extend(parse_cases(&name, &text));
    }
    assert!(!out.is_empty(), "no cases in {dir}");
    out
}

pub fn rejection_name(r: Rejection) -> &'static str {
    match r {
        Rejection::Invalid(_) => "invalid",
        Rejection::Unclosed(u) => match u {
            Unclosed::BlankLine => "blank-line",
            Unclosed::LessThan => "less-than",
            Unclosed::EndOfInput => "end-of-input",
            Unclosed::Blank => "blank",
            Unclosed::TooLong => "too-long",
            Unclosed::TooManyLines => "too-many-lines",
            Unclosed::RunTooLong => "run-too-long",
            Unclosed::HrefTooLong => "href-too-long",
            other => panic!("a new way to be unclosed: {other:?}; name it here"),
        },
        other => panic!("a new rejection: {other:?}; name it here"),
    }
}

/// Checks a scan with rejected candidates on (`all`): its valid matches
/// against the case, the rejections' names against `rejected:`, and what
/// every rejected candidate says of itself (no URL, an error exactly for
/// an invalid one, a message).
pub fn check_with_rejected(case: &Case, all: &[Match]) -> Vec<String> {
    let valid: Vec<_> = all.iter().filter(|m| m.is_valid()).cloned().collect();
    let mut errs = check(case, &valid);
    if let Some(want) = &case.rejected {
        let got: Vec<&str> = all
            .iter()
            .filter_map(|m| m.rejection())
            .map(rejection_name)
            .collect();
        if got != *want {
            errs.push(format!("rejections: got {got:?}, want {want:?}"));
        }
    }
    for m in all.iter().filter(|m| !m.is_valid()) {
        if m.url().is_some() {
            errs.push(format!("rejected {} has url()", m.as_str()));
        }
        let r = m.rejection().unwrap();
        if matches!(r, Rejection::Invalid(_)) != m.error().is_some() {
            errs.push(format!("rejected {}: error() disagrees", m.as_str()));
        }
        if r.to_string().is_empty() {
            errs.push("empty rejection message".into());
        }
    }
    errs
}

/// Checks the matches of one case against its expectations; returns a
/// description of every difference.
pub fn check(case: &Case, got: &[Match]) -> Vec<String> {
    let mut errs = Vec::new();
    let urls: Vec<String> = got.iter().map(|m| m.as_str().into_owned()).collect();
    let want: Vec<&str> = case.want.iter().map(|w| w.url.as_str()).collect();
    if urls != want {
        errs.push(format!("urls: got {urls:?}, want {want:?}"));
        return errs;
    }
    for (m, w) in got.iter().zip(&case.want) {
        let u = &w.url;
        let mut diff = |what: &str, g: String, e: String| {
            if g != e {
                errs.push(format!("{u}: {what}: got {g}, want {e}"));
            }
        };
        if !m.is_valid() {
            diff("valid", "false".into(), "true".into());
        }
        if let Some(l) = w.line {
            diff("line", m.line().to_string(), l.to_string());
        }
        if let Some(c) = w.col {
            diff("col", m.column().to_string(), c.to_string());
        }
        if let Some(o) = w.off {
            diff("off", m.offset().to_string(), o.to_string());
        }
        if let Some(f) = w.form {
            diff("form", format!("{:?}", m.form()), format!("{f:?}"));
        }
        if let Some(b) = w.broken {
            diff("broken", m.is_broken().to_string(), b.to_string());
        }
        if let Some(q) = w.quoted {
            diff("quoted", m.is_quoted().to_string(), q.to_string());
        }
        if let Some(h) = w.hyphen {
            diff("hyphen", format!("{:?}", m.hyphen()), format!("{h:?}"));
        }
        if let Some(a) = &w.alt {
            diff(
                "alt",
                format!("{:?}", m.alternative().map(|s| s.into_owned())),
                format!("{a:?}"),
            );
        }
        // The line and column agree with the offset.
        let before = &case.input[..m.offset() as usize];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
        let col = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count() as u64;
        diff("line(offset)", m.line().to_string(), line.to_string());
        diff("col(offset)", m.column().to_string(), col.to_string());
        if m.form() == Form::Naked && m.encoding().is_none() {
            // A naked URL is its own source text, from its scheme on.
            let text = &case.input[m.offset() as usize..m.end() as usize];
            diff(
                "source text",
                String::from_utf8_lossy(text).into_owned(),
                m.as_str().into_owned(),
            );
        } else if m.form() == Form::Href {
            // At the value's first byte (rule 22): after the quote, if any.
            if m.encoding().is_none() {
                let at = m.offset() as usize;
                let before = case.input[..at].iter().rev().find(|&&b| b != b'\n');
                assert!(
                    before.is_some(),
                    "an href stands after its attribute's name"
                );
            }
        } else if matches!(
            m.content_type(),
            Some("text/html" | "application/xhtml+xml")
        ) {
            // In HTML text (rule 22): the '<' or the '&' of its reference.
            if m.encoding().is_none() {
                let at = case.input[m.offset() as usize];
                diff(
                    "byte at offset",
                    (at as char).to_string(),
                    if at == b'&' { "&" } else { "<" }.into(),
                );
            }
        } else if m.form() != Form::Naked {
            // In decoded text (rule 13): the '=' of an encoded '<' or the
            // first byte of a base64 group.
            let at = case.input[m.offset() as usize];
            match m.encoding() {
                None => {
                    diff("byte at offset", (at as char).to_string(), "<".into());
                    diff(
                        "byte before end",
                        (case.input[m.end() as usize - 1] as char).to_string(),
                        ">".into(),
                    );
                }
                Some(urlsift::Encoding::QuotedPrintable) if at == b'=' => {
                    diff(
                        "escape at offset",
                        String::from_utf8_lossy(&case.input[m.offset() as usize..][..3]).into(),
                        "=3C".into(),
                    );
                }
                Some(urlsift::Encoding::QuotedPrintable) => {
                    diff("byte at offset", (at as char).to_string(), "<".into());
                }
                Some(_) => {
                    if !at.is_ascii_alphanumeric() && at != b'+' && at != b'/' {
                        diff(
                            "base64 group at offset",
                            (at as char).to_string(),
                            "alphabet".into(),
                        );
                    }
                }
            }
        }
    }
    errs
}

/// Runs a list of cases through `run`, collecting every failure.
pub fn run_cases(cases: &[Case], run: impl Fn(&Case) -> Vec<String>) {
    let mut failed = Vec::new();
    let mut n = 0;
    for c in cases.iter().filter(|c| c.bug.is_none()) {
        n += 1;
        for e in run(c) {
            failed.push(format!("{} [rule {}]: {e}", c.id(), c.rule));
        }
    }
    assert!(n > 0);
    assert!(
        failed.is_empty(),
        "{} failures:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// The case named `file:name`, for the BUG tests.
pub fn find_case<'a>(cases: &'a [Case], id: &str) -> &'a Case {
    cases
        .iter()
        .find(|c| c.id() == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

/// A reader that returns reads of 1..=7 bytes, cycling through `sizes`.
pub struct Trickle<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    k: usize,
}

impl<'a> Trickle<'a> {
    pub fn new(data: &'a [u8], sizes: &[usize]) -> Trickle<'a> {
        Trickle {
            data,
            sizes: sizes.to_vec(),
            k: 0,
        }
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let want = self.sizes[self.k % self.sizes.len()];
        self.k += 1;
        // An interruption now and then: the extractor retries.
        if self.k % 5 == 0 {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "again"));
        }
        let n = want.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Everything through an [`Extractor`] with a trickling reader.
pub fn via_reader(scanner: Scanner, data: &[u8], sizes: &[usize], min_read: usize) -> Vec<Match> {
    Extractor::with_buffer(Trickle::new(data, sizes), scanner, min_read)
        .collect::<io::Result<Vec<_>>>()
        .unwrap()
}

/// Everything through a [`PushScanner`] fed in chunks of the given sizes
/// (cycled).
pub fn via_push(scanner: Scanner, data: &[u8], sizes: &[usize], min_read: usize) -> Vec<Match> {
    let mut push = PushScanner::with_buffer(scanner, min_read);
    let mut out = Vec::new();
    let mut rest = data;
    let mut k = 0;
    while !rest.is_empty() {
        let n = sizes[k % sizes.len()].clamp(1, rest.len());
        k += 1;
        out.extend(push.feed(&rest[..n]));
        rest = &rest[n..];
    }
    out.extend(push.finish());
    out
}

/// A tiny deterministic generator (xorshift), for chunk sizes.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Every front end over `data`: `(label, matches)`.
pub fn all_front_ends(scanner: Scanner, data: &[u8], seed: u64) -> Vec<(String, Vec<Match>)> {
    let mut rng = Rng(seed | 1);
    let random: Vec<usize> = (0..64).map(|_| 1 + rng.below(40) as usize).collect();
    let mut out = vec![("extract".to_string(), scanner.extract(data))];
    out.push((
        "Extractor::new".into(),
        Extractor::with_scanner(data, scanner)
            .map(|m| m.unwrap())
            .collect(),
    ));
    for min_read in [1, 2, 3, 7, 64] {
        out.push((
            format!("Extractor reads 1..7 min_read {min_read}"),
            via_reader(scanner, data, &[1, 2, 3, 4, 5, 6, 7], min_read),
        ));
        out.push((
            format!("PushScanner 1-byte min_read {min_read}"),
            via_push(scanner, data, &[1], min_read),
        ));
        out.push((
            format!("PushScanner random chunks min_read {min_read}"),
            via_push(scanner, data, &random, min_read),
        ));
    }
    out.push((
        "PushScanner::new whole".into(),
        via_push(scanner, data, &[usize::MAX], 64 * 1024),
    ));
    out
}

/// Byte-level ranges of lines: the offsets of line starts in `data`.
pub fn line_starts(data: &[u8]) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(
        memchr_all(b'\n', data)
            .into_iter()
            .map(|i| i + 1)
            .filter(|&i| i < data.len()),
    );
    v
}

fn memchr_all(b: u8, data: &[u8]) -> Vec<usize> {
    data.iter()
        .enumerate()
        .filter(|(_, &x)| x == b)
        .map(|(i, _)| i)
        .collect()
}

/// `scan_piece` over pieces cut at the given line starts, rebased and
/// concatenated.
pub fn via_pieces(scanner: Scanner, data: &[u8], cuts: &[usize]) -> Vec<Match> {
    let mut out = Vec::new();
    let mut bounds: Vec<usize> = cuts.to_vec();
    bounds.push(data.len());
    bounds.sort_unstable();
    bounds.dedup();
    let mut start = 0usize;
    let mut lines = 0u64;
    for &end in bounds.iter().filter(|&&e| e > 0) {
        if end <= start {
            continue;
        }
        let piece = &data[start..];
        let (mut ms, n) = scanner.scan_piece(piece, end - start, true);
        for m in &mut ms {
            m.rebase(start as u64, lines);
        }
        out.extend(ms);
        lines += n;
        start = end;
    }
    out
}
