//! Dates as mail and Usenet archives write them: the `Date:` of RFC 5322 and
//! its obsolete forms, the RFC 850 / RFC 1036 news forms, the ctime form of
//! B news `Posted:` lines and mbox `From ` lines, and what a person types on
//! the command line.
//!
//! Reading is lenient but never guesses: a value is read only when every
//! token in it has one meaning (comments aside); otherwise the answer is
//! `None`. Parsing allocates nothing.

use std::fmt;

/// An instant in UTC, whole seconds since the Unix epoch (negative before
/// 1970).
///
/// [`Timestamp::parse_header`] reads a message's date header,
/// [`Timestamp::parse_from_line`] an mbox `From ` line and
/// [`Timestamp::parse_user`] a `--since`/`--until` argument; `Display`
/// prints RFC 3339 in UTC (`1993-01-12T19:02:11Z`).
///
/// ```
/// use urlsift::Timestamp;
///
/// let t = Timestamp::parse_header(b"Tue, 12 Jan 1993 14:02:11 -0500 (EST)").unwrap();
/// assert_eq!(t.to_string(), "1993-01-12T19:02:11Z");
/// assert_eq!(Timestamp::parse_header(b"Tue, 31 Feb 1993 14:02:11 GMT"), None);
/// assert!(Timestamp::parse_user("1993-01-12").unwrap() < t);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

/// Which header gave a message's date.
///
/// [`DateSource::ORDER`] is the order they are consulted in: the first one
/// a message has and [`Timestamp::parse_header`] reads wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DateSource {
    /// The `Date:` header (RFC 5322, RFC 1036).
    Date,
    /// The `Posted:` header of B news before RFC 850's `Date:` took over.
    Posted,
    /// `NNTP-Posting-Date:`, added by the news server that took the post.
    NntpPostingDate,
    /// The date on the mbox `From ` line (when the message was delivered).
    FromLine,
}

impl DateSource {
    /// The sources in the order they are consulted: the author's `Date:`,
    /// then B news `Posted:`, then the server's `NNTP-Posting-Date:`, and
    /// last the delivery date of the mbox `From ` line.
    pub const ORDER: [DateSource; 4] = [
        DateSource::Date,
        DateSource::Posted,
        DateSource::NntpPostingDate,
        DateSource::FromLine,
    ];

    /// A short lower-case name: `date`, `posted`, `nntp-posting-date`,
    /// `from-line`.
    pub fn as_str(self) -> &'static str {
        match self {
            DateSource::Date => "date",
            DateSource::Posted => "posted",
            DateSource::NntpPostingDate => "nntp-posting-date",
            DateSource::FromLine => "from-line",
        }
    }

    /// The source a header field of this name gives (any case, without the
    /// colon): `Date`, `Posted` or `NNTP-Posting-Date`; `None` for others.
    pub fn from_header_name(name: &[u8]) -> Option<DateSource> {
        [
            DateSource::Date,
            DateSource::Posted,
            DateSource::NntpPostingDate,
        ]
        .into_iter()
        .find(|s| s.as_str().as_bytes().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for DateSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a date typed by a person was not understood; `Display` says what
/// was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DateError {
    input: String,
    reason: &'static str,
}

impl DateError {
    fn new(input: &str, reason: &'static str) -> DateError {
        DateError {
            input: input.to_owned(),
            reason,
        }
    }

    /// What was wrong, without the input (e.g. "month 13 is not 01-12").
    pub fn reason(&self) -> &str {
        self.reason
    }
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read the date {:?}: {} (expected YYYY, YYYY-MM, YYYY-MM-DD or \
             YYYY-MM-DDThh:mm[:ss] with an optional Z or +hh:mm; UTC when no offset is given)",
            self.input, self.reason
        )
    }
}

impl std::error::Error for DateError {}

impl Timestamp {
    /// The instant `s` seconds after 1970-01-01T00:00:00Z.
    pub fn from_unix_seconds(s: i64) -> Timestamp {
        Timestamp(s)
    }

    /// Seconds since 1970-01-01T00:00:00Z (negative before).
    pub fn unix_seconds(self) -> i64 {
        self.0
    }

    /// Reads an RFC 5322 / RFC 850 / RFC 1036 / ctime field value (the text
    /// after `Date:`, `Posted:` or `NNTP-Posting-Date:`), leniently.
    ///
    /// Read: an optional weekday (any case, abbreviated or full, a dot or
    /// comma after it, never checked against the date: archives are full of
    /// wrong ones); comments in parentheses anywhere, nested; folding white
    /// space; day and month in either order, the month as a name
    /// (`Jan`, `jan`, `January`, `Sept`), 1- or 2-digit days; 2-digit years
    /// (00-49 are 20xx, 50-99 are 19xx), 3-digit years (+1900) and 4-digit
    /// years; `12-Jan-93` with hyphens (RFC 850); ctime order
    /// (`Tue Jan 12 14:02:11 [EST] 1993`); ISO `1993-01-12[T ]14:02:11`;
    /// `hh:mm` without seconds, RFC 822's `hhmm` after the year, an `am`/`pm`
    /// after the time; numeric zones `+hhmm`, `+hh:mm`, `+hh`, also after
    /// `GMT`/`UT`/`UTC` (`GMT+0100`); RFC 5322's zone names, its military
    /// letters as UTC (its section 4.3 says their meaning is lost), and
    /// common names: `UTC` `Z` `WET` `WEST` `BST` `MET` `CET` `MEZ` `MEST`
    /// `CEST` `MESZ` `METDST` `EET` `EEST` `MSK` `IST` (India) `HKT` `SGT`
    /// `AWST` `JST` `KST` `ACST` `AEST` `AEDT` `NZST` `NZDT` `HST` `HDT`
    /// `AKST` `AKDT` `YST` `YDT` `NST` `NDT` `AST` `ADT`, and a `DST` after a
    /// name for an hour more (`MET DST`). No zone means UTC. A numeric zone
    /// wins over a name next to it (`+1000 EST` is Australian).
    ///
    /// Checked: month 1-12, the day within its month (leap years too), hour
    /// 0-23, minute 0-59, second 0-60, year 1000-9999, zone within a day.
    /// A leap second `:60` reads as `:59` of the same minute, since Unix
    /// time has no leap seconds and moving on to the next minute could
    /// change the written day or year.
    ///
    /// Anything else (a word it does not know, a missing time, a date
    /// without a month name such as `1/12/93`) gives `None`.
    pub fn parse_header(value: &[u8]) -> Option<Timestamp> {
        if let Some(t) = usual(value) {
            return Some(t);
        }
        let mut toks = Tokens::new();
        if !toks.lex(value) {
            return None;
        }
        Fields::read(toks.as_slice())?.timestamp()
    }

    /// Reads the date of an mbox `From ` line (the whole line, with or
    /// without its line ending): `From sender Tue Jan 12 14:02:11 1993`,
    /// also with a zone before the year, an RFC 5322 date instead of the
    /// ctime one, a comment after the sender, or a UUCP `remote from host`
    /// suffix. The date has no zone in the usual form; it is taken as UTC.
    pub fn parse_from_line(line: &[u8]) -> Option<Timestamp> {
        let rest = line.strip_prefix(b"From ")?;
        let mut rest = trim_end(rest);
        if let Some(at) = find_ascii_ci(rest, b" remote from ") {
            rest = &rest[..at];
        }
        let rest = trim_start(rest);
        // The sender is one word (a quoted local part may hold spaces); an
        // empty sender ("From  Tue ...") leaves the date alone.
        let after = skip_sender(rest);
        Timestamp::parse_header(after).or_else(|| {
            if after.len() != rest.len() {
                Timestamp::parse_header(rest)
            } else {
                None
            }
        })
    }

    /// Reads a date typed by a person (`--since`, `--until`): `1993`,
    /// `1993-01`, `1993-01-12`, `1993-01-12T19:02:11Z`, `1993-01-12 19:02`,
    /// with an optional `Z` or offset `+01:00` / `+0100` / `+01` after a
    /// time; fractions of a second are dropped. A date without a time is its
    /// first second, in UTC. A date header (`Tue, 12 Jan 1993 ...`) is
    /// accepted too.
    pub fn parse_user(text: &str) -> Result<Timestamp, DateError> {
        let t = text.trim().as_bytes();
        // What starts like ISO 8601 is held to it; the lenient header
        // reading would take "1993-01-12T19:02+1" as an offset of an hour.
        let iso_shaped = t.len() >= 4
            && t[..4].iter().all(u8::is_ascii_digit)
            && matches!(t.get(4), None | Some(b'-'));
        match parse_iso(t) {
            Ok(ts) => Ok(ts),
            Err(reason) => Timestamp::parse_header(t)
                .filter(|_| !iso_shaped)
                .ok_or_else(|| DateError::new(text, reason)),
        }
    }
}

/// [`Timestamp::parse_user`], for command-line parsers that take `FromStr`.
impl std::str::FromStr for Timestamp {
    type Err = DateError;

    fn from_str(s: &str) -> Result<Timestamp, DateError> {
        Timestamp::parse_user(s)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.rfc3339().as_str())
    }
}

impl Timestamp {
    /// The instant in RFC 3339 form, UTC (`1994-12-31T23:59:59Z`), as
    /// [`Display`](fmt::Display) writes it: a value on the stack, for
    /// writers of many dates (a date a row), without the formatting
    /// machinery.
    ///
    /// ```
    /// use urlsift::Timestamp;
    /// let t = Timestamp::from_unix_seconds(788_918_399);
    /// assert_eq!(t.rfc3339().as_str(), "1994-12-31T23:59:59Z");
    /// assert_eq!(t.rfc3339().as_str(), t.to_string());
    /// ```
    pub fn rfc3339(self) -> Rfc3339 {
        let mut out = Rfc3339 {
            buf: [0; Rfc3339::CAP],
            len: 0,
        };
        if (EARLIEST..=LATEST).contains(&self.0) {
            // The common case by hand, in 32-bit arithmetic (a date row
            // of a report's graph files is several of these): the days
            // counted from 0000-03-01, which the era algorithm takes
            // without its sign corrections, and two digits at a time.
            let t = (self.0 - EARLIEST) as u64;
            let (days, secs) = ((t / 86_400) as u32, (t % 86_400) as u32);
            let (y, m, d) = civil_from_march_days(days + DAYS_1000_FROM_0000_03);
            let b = &mut out.buf;
            b[..20].copy_from_slice(b"0000-00-00T00:00:00Z");
            let put = |b: &mut [u8; Rfc3339::CAP], at: usize, v: u32| {
                let k = 2 * v as usize;
                b[at..at + 2].copy_from_slice(&DIGIT_PAIRS[k..k + 2]);
            };
            put(b, 0, y / 100);
            put(b, 2, y % 100);
            put(b, 5, m);
            put(b, 8, d);
            put(b, 11, secs / 3600);
            put(b, 14, secs / 60 % 60);
            put(b, 17, secs % 60);
            out.len = 20;
        } else {
            use fmt::Write as _;
            let days = self.0.div_euclid(86_400);
            let secs = self.0.rem_euclid(86_400) as u32;
            let (y, m, d) = civil_from_days(days);
            // At most 29 bytes: a year of i64 seconds has 12 digits.
            let _ = write!(
                Fill(&mut out),
                "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
                y,
                m,
                d,
                secs / 3600,
                secs / 60 % 60,
                secs % 60
            );
        }
        out
    }
}

/// `00` to `99`, two bytes each.
static DIGIT_PAIRS: [u8; 200] = {
    let mut t = [0; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// Days from 0000-03-01 to 1000-01-01 ([`EARLIEST`], a midnight):
/// [`civil_from_days`]'s shift of the epoch.
const DAYS_1000_FROM_0000_03: u32 = (EARLIEST / 86_400 + 719_468) as u32;

/// [`civil_from_days`] for days counted from 0000-03-01 (no era before
/// the first, so no sign to mind), for the years 1000 to 9999.
fn civil_from_march_days(z: u32) -> (u32, u32, u32) {
    let era = z / 146_097;
    let (yoe, m, d) = in_era(z - era * 146_097);
    (yoe + era * 400 + u32::from(m <= 2), m, d)
}

/// The year of its era (counted from March), month and day of the day
/// `doe` of a 400-year era: the part of Hinnant's `civil_from_days` that
/// needs no sign, shared by both paths.
fn in_era(doe: u32) -> (u32, u32, u32) {
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365; // [0, 399]
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100); // [0, 365]
    let mp = (5 * doy + 2) / 153; // [0, 11]
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe, m, d)
}

/// A [`Timestamp`] in RFC 3339 form: [`Timestamp::rfc3339`].
#[derive(Clone, Copy)]
pub struct Rfc3339 {
    buf: [u8; Rfc3339::CAP],
    len: u8,
}

impl Rfc3339 {
    const CAP: usize = 32;

    /// The text.
    pub fn as_str(&self) -> &str {
        let b = &self.buf[..usize::from(self.len)];
        debug_assert!(b.is_ascii());
        // SAFETY: `buf` is written only with ASCII digits and punctuation
        // ([`Timestamp::rfc3339`], [`Fill`] taking `str`s of such), so the
        // bytes are UTF-8 (checking them again cost a fifth of a report's
        // graph files).
        unsafe { std::str::from_utf8_unchecked(b) }
    }
}

impl AsRef<str> for Rfc3339 {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// Writes into an [`Rfc3339`] (kept private: the value is a finished text
/// to its users).
struct Fill<'a>(&'a mut Rfc3339);

impl fmt::Write for Fill<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let r = &mut *self.0;
        let at = usize::from(r.len);
        let end = at + s.len();
        if end > Rfc3339::CAP {
            return Err(fmt::Error);
        }
        r.buf[at..end].copy_from_slice(s.as_bytes());
        r.len = end as u8;
        Ok(())
    }
}

impl fmt::Debug for Rfc3339 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Rfc3339 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// 1000-01-01T00:00:00Z, the first instant a date is read as.
const EARLIEST: i64 = -30_610_224_000;
/// 9999-12-31T23:59:59Z, the last.
const LATEST: i64 = 253_402_300_799;

/// Days from 1970-01-01 to the proleptic Gregorian date `y-m-d`: Howard
/// Hinnant's `days_from_civil`, "chrono-Compatible Low-Level Date
/// Algorithms" (<https://howardhinnant.github.io/date_algorithms.html>),
/// which works in 400-year eras of 146097 days counted from March 1.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400; // [0, 399]
    let mp = (i64::from(m) + 9) % 12; // March = 0
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1; // [0, 365]
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy; // [0, 146096]
    era * 146_097 + doe - 719_468
}

/// The inverse, Hinnant's `civil_from_days` (same source).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let (yoe, m, d) = in_era((z - era * 146_097) as u32); // [0, 146096]
    (i64::from(yoe) + era * 400 + i64::from(m <= 2), m, d)
}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        2 if is_leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// The form nearly every `Date:` has, `Tue, 12 Jan 1993 14:02:11 -0500`
/// (or `GMT` for the zone), read in one pass; `None` for anything else,
/// which the general reading takes (a value this reads, it reads alike).
fn usual(v: &[u8]) -> Option<Timestamp> {
    let ws = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let s = v.iter().position(|b| !ws(b))?;
    let e = v.iter().rposition(|b| !ws(b))? + 1;
    let v = &v[s..e];
    let num = |d: &[u8]| -> Option<u32> {
        d.iter().try_fold(0u32, |n, &b| {
            b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
        })
    };
    let alpha = |w: &[u8]| w.iter().all(u8::is_ascii_alphabetic);
    // "Tue, " then a day of one or two digits.
    let head = v.get(..5)?;
    if !(alpha(&head[..3]) && weekday(&head[..3]) && &head[3..] == b", ") {
        return None;
    }
    let v = &v[5..];
    let dl = if v.get(1) == Some(&b' ') { 1 } else { 2 };
    // "12 Jan 1993 14:02:11 " and the zone.
    let rest = v.get(dl..)?;
    if rest.len() < 22 || rest[0] != b' ' || rest[4] != b' ' || rest[9] != b' ' {
        return None;
    }
    if rest[12] != b':' || rest[15] != b':' || rest[18] != b' ' {
        return None;
    }
    let day = num(&v[..dl])?;
    let mon = &rest[1..4];
    if !alpha(mon) {
        return None;
    }
    let month = month(mon)?;
    let year = num(&rest[5..9])?;
    let (h, m, sec) = (
        num(&rest[10..12])?,
        num(&rest[13..15])?,
        num(&rest[16..18])?,
    );
    let zone = match &rest[19..] {
        b"GMT" => 0,
        [sign @ (b'+' | b'-'), z @ ..] if z.len() == 4 => {
            let z = num(z)?;
            let minutes = hm(z / 100, z % 100)?;
            if *sign == b'-' {
                -minutes
            } else {
                minutes
            }
        }
        _ => return None,
    };
    // A leap second, a year before 1000 and the like go the long way.
    let year = i64::from(year);
    if !(1000..=9999).contains(&year)
        || day == 0
        || day > days_in_month(year, month)
        || h > 23
        || m > 59
        || sec > 59
    {
        return None;
    }
    let local = days_from_civil(year, month, day) * 86_400 + i64::from(h * 3600 + m * 60 + sec);
    let t = local - i64::from(zone) * 60;
    (EARLIEST..=LATEST).contains(&t).then_some(Timestamp(t))
}

/// One token of a date value. Comments, white space and commas separate
/// tokens and are dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    /// A run of 1-9 digits.
    Num {
        value: u32,
        digits: u8,
    },
    /// A run of ASCII letters.
    Word(&'a [u8]),
    /// `h:mm` or `h:mm:ss` (1-2 digits each), a fraction after it dropped.
    Time {
        h: u32,
        m: u32,
        s: Option<u32>,
    },
    Plus,
    Minus,
}

/// More tokens than any date has (comments aside); a value with more is
/// not a date. A fixed array keeps parsing free of allocation.
const MAX_TOKENS: usize = 16;

struct Tokens<'a> {
    toks: [Tok<'a>; MAX_TOKENS],
    len: usize,
}

impl<'a> Tokens<'a> {
    fn new() -> Tokens<'a> {
        Tokens {
            toks: [Tok::Plus; MAX_TOKENS],
            len: 0,
        }
    }

    fn as_slice(&self) -> &[Tok<'a>] {
        &self.toks[..self.len]
    }

    fn push(&mut self, t: Tok<'a>) -> bool {
        if self.len == MAX_TOKENS {
            return false;
        }
        self.toks[self.len] = t;
        self.len += 1;
        true
    }

    /// Splits `s` into tokens; false when a byte has no place in a date.
    fn lex(&mut self, s: &'a [u8]) -> bool {
        let mut i = 0;
        while i < s.len() {
            let tok = match s[i] {
                b' ' | b'\t' | b'\r' | b'\n' | b',' => {
                    i += 1;
                    continue;
                }
                b'(' => {
                    i = skip_comment(s, i);
                    continue;
                }
                b'+' => {
                    i += 1;
                    Tok::Plus
                }
                b'-' => {
                    i += 1;
                    Tok::Minus
                }
                b'a'..=b'z' | b'A'..=b'Z' => {
                    let start = i;
                    while i < s.len() && s[i].is_ascii_alphabetic() {
                        i += 1;
                    }
                    let word = &s[start..i];
                    // "Tue." and "Sept." carry a dot.
                    if s.get(i) == Some(&b'.') {
                        i += 1;
                    }
                    Tok::Word(word)
                }
                b'0'..=b'9' => {
                    let Some((tok, next)) = lex_number(s, i) else {
                        return false;
                    };
                    i = next;
                    tok
                }
                _ => return false,
            };
            if !self.push(tok) {
                return false;
            }
        }
        true
    }
}

/// The index after the comment that opens at `s[start] == b'('`: nested
/// comments count, a backslash quotes the next byte, and an unclosed
/// comment runs to the end.
fn skip_comment(s: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < s.len() {
        match s[i] {
            b'\\' => i += 1,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    s.len()
}

/// A digit run at `s[i]`, or a time `h:mm[:ss[.fff]]`; the token and the
/// index after it, `None` for a run too long to be a date field.
fn lex_number(s: &[u8], i: usize) -> Option<(Tok<'_>, usize)> {
    let (value, digits, mut j) = digit_run(s, i)?;
    if s.get(j) != Some(&b':') || !s.get(j + 1).is_some_and(u8::is_ascii_digit) {
        return Some((Tok::Num { value, digits }, j));
    }
    let (m, md, next) = digit_run(s, j + 1)?;
    j = next;
    let mut sec = None;
    if s.get(j) == Some(&b':') && s.get(j + 1).is_some_and(u8::is_ascii_digit) {
        let (v, sd, next) = digit_run(s, j + 1)?;
        if sd > 2 {
            return None;
        }
        sec = Some(v);
        j = next;
        if s.get(j) == Some(&b'.') && s.get(j + 1).is_some_and(u8::is_ascii_digit) {
            j += 1;
            while j < s.len() && s[j].is_ascii_digit() {
                j += 1;
            }
        }
    }
    if digits > 2 || md > 2 {
        return None;
    }
    Some((
        Tok::Time {
            h: value,
            m,
            s: sec,
        },
        j,
    ))
}

/// The value, digit count and end of the digits at `s[i]`; `None` past 9.
fn digit_run(s: &[u8], i: usize) -> Option<(u32, u8, usize)> {
    let mut j = i;
    let mut value = 0u32;
    while j < s.len() && s[j].is_ascii_digit() {
        if j - i == 9 {
            return None;
        }
        value = value * 10 + u32::from(s[j] - b'0');
        j += 1;
    }
    Some((value, (j - i) as u8, j))
}

/// What a date value said, before the checks.
#[derive(Default)]
struct Fields {
    year: Option<(u32, u8)>,
    month: Option<u32>,
    day: Option<u32>,
    /// Numbers not yet known to be a day or a year, in order.
    nums: [(u32, u8); 2],
    n_nums: usize,
    time: Option<(u32, u32, u32)>,
    /// Minutes east of UTC, from a zone name.
    zone_name: Option<i32>,
    /// A `DST` after the zone name moved it an hour east.
    dst: bool,
    /// Minutes east of UTC, from `+hhmm`; it wins over a name.
    zone_num: Option<i32>,
}

impl Fields {
    fn read(toks: &[Tok<'_>]) -> Option<Fields> {
        let mut f = Fields::default();
        let mut i = 0;
        while i < toks.len() {
            match toks[i] {
                Tok::Word(w) => {
                    i += 1;
                    if weekday(w) {
                        continue;
                    }
                    if let Some(m) = month(w) {
                        if f.month.replace(m).is_some() || f.time.is_some() {
                            return None;
                        }
                        continue;
                    }
                    if f.time.is_none() {
                        // ISO's "T" between date and time.
                        if w.eq_ignore_ascii_case(b"t") && f.day.is_some() {
                            continue;
                        }
                        return None;
                    }
                    if w.eq_ignore_ascii_case(b"dst") {
                        // "MET DST": summer time, an hour east of the name.
                        match f.zone_name {
                            Some(z) if !f.dst => f.zone_name = Some(z + 60),
                            _ => return None,
                        }
                        f.dst = true;
                        continue;
                    }
                    if let Some(pm) = meridian(w) {
                        f.apply_meridian(pm)?;
                        continue;
                    }
                    if f.zone_name.replace(zone(w)?).is_some() {
                        return None;
                    }
                }
                Tok::Num { value, digits } => {
                    i += 1;
                    if f.month.is_none() && f.n_nums == 0 && f.time.is_none() && digits == 4 {
                        if let [Tok::Minus, Tok::Num {
                            value: m,
                            digits: md,
                        }, Tok::Minus, Tok::Num {
                            value: d,
                            digits: dd,
                        }, ..] = toks[i..]
                        {
                            // ISO 8601: 1993-01-12.
                            if md > 2 || dd > 2 {
                                return None;
                            }
                            f.year = Some((value, digits));
                            f.month = Some(m);
                            f.day = Some(d);
                            i += 4;
                            continue;
                        }
                    }
                    if digits == 4 && f.time.is_none() && f.n_nums == 2 {
                        // RFC 822's own examples write "26 Aug 76 1429 EDT".
                        f.set_time(value / 100, value % 100, 0)?;
                        continue;
                    }
                    if f.day.is_some() || f.n_nums == 2 {
                        return None;
                    }
                    f.nums[f.n_nums] = (value, digits);
                    f.n_nums += 1;
                }
                Tok::Time { h, m, s } => {
                    i += 1;
                    f.set_time(h, m, s.unwrap_or(0))?;
                }
                Tok::Plus | Tok::Minus => {
                    let sign = if toks[i] == Tok::Plus { 1 } else { -1 };
                    i += 1;
                    if f.time.is_none() {
                        // RFC 850's "12-Jan-93": a separator before the time.
                        if sign < 0 && i < toks.len() && !matches!(toks[i], Tok::Minus | Tok::Plus)
                        {
                            continue;
                        }
                        return None;
                    }
                    let minutes = match toks.get(i) {
                        Some(&Tok::Num { value, digits: 4 }) => hm(value / 100, value % 100)?,
                        Some(&Tok::Num {
                            value,
                            digits: 1..=2,
                        }) => hm(value, 0)?,
                        Some(&Tok::Time { h, m, s: None }) => hm(h, m)?,
                        _ => return None,
                    };
                    i += 1;
                    // "GMT+0100", "+1000 EST": the number wins over a name
                    // beside it, but two numbers contradict each other.
                    if f.zone_num.replace(sign * minutes).is_some() {
                        return None;
                    }
                }
            }
        }
        Some(f)
    }

    fn set_time(&mut self, h: u32, m: u32, s: u32) -> Option<()> {
        if self.time.is_some() || h > 23 || m > 59 || s > 60 {
            return None;
        }
        self.time = Some((h, m, s.min(59)));
        Some(())
    }

    fn apply_meridian(&mut self, pm: bool) -> Option<()> {
        let (h, _, _) = self.time.as_mut()?;
        if *h == 0 || *h > 12 {
            return None;
        }
        *h = match (pm, *h) {
            (false, 12) => 0,
            (true, 12) => 12,
            (true, h) => h + 12,
            (false, h) => h,
        };
        Some(())
    }

    /// The checked instant, or `None`.
    fn timestamp(&self) -> Option<Timestamp> {
        let month = self.month?;
        let (day, year) = match (self.day, self.year) {
            (Some(d), Some(y)) => (d, y),
            _ => {
                if self.n_nums != 2 {
                    return None;
                }
                let (a, b) = (self.nums[0], self.nums[1]);
                // A 3- or 4-digit number is the year; between two short ones
                // the day comes first ("12 Jan 93", "Jan 12 93").
                match (a.1 <= 2, b.1 <= 2) {
                    (true, _) => (a.0, b),
                    (false, true) => (b.0, a),
                    (false, false) => return None,
                }
            }
        };
        let year = i64::from(match year {
            (y, 2) if y < 50 => y + 2000,
            (y, 2) => y + 1900,
            (y, 3) => y + 1900,
            (y, 4) => y,
            _ => return None,
        });
        if !(1000..=9999).contains(&year)
            || !(1..=12).contains(&month)
            || day == 0
            || day > days_in_month(year, month)
        {
            return None;
        }
        let (h, m, s) = self.time?;
        let zone = self.zone_num.or(self.zone_name).unwrap_or(0);
        let days = days_from_civil(year, month, day);
        let local = days * 86_400 + i64::from(h * 3600 + m * 60 + s);
        let t = local - i64::from(zone) * 60;
        // In UTC too, so that every date read prints with a 4-digit year
        // and `parse_user` reads it back.
        (EARLIEST..=LATEST).contains(&t).then_some(Timestamp(t))
    }
}

/// Minutes of a zone offset `hh`, `mm`, checked to lie within a day.
fn hm(h: u32, m: u32) -> Option<i32> {
    if h > 23 || m > 59 {
        return None;
    }
    Some((h * 60 + m) as i32)
}

/// A word of up to 8 ASCII letters folded to lower case and packed into
/// an integer, so that names compare in one instruction.
const fn key(w: &[u8]) -> u64 {
    let mut k = 0u64;
    let mut i = 0;
    while i < w.len() {
        k = k << 8 | (w[i] | 0x20) as u64;
        i += 1;
    }
    k
}

/// Whether `w` names a day of the week: three letters or a longer prefix
/// of the full name ("Tues", "Thurs", "Tuesday"), any case.
fn weekday(w: &[u8]) -> bool {
    const DAYS: [&[u8]; 7] = [
        b"monday",
        b"tuesday",
        b"wednesday",
        b"thursday",
        b"friday",
        b"saturday",
        b"sunday",
    ];
    const KEYS: [u64; 7] = [
        key(b"mon"),
        key(b"tue"),
        key(b"wed"),
        key(b"thu"),
        key(b"fri"),
        key(b"sat"),
        key(b"sun"),
    ];
    w.len() >= 3
        && KEYS
            .iter()
            .position(|&k| k == key(&w[..3]))
            .is_some_and(|i| is_prefix_ci(w, DAYS[i]))
}

/// The month `w` names (1-12): three letters or a longer prefix of the
/// full name ("Sept", "January"), any case.
fn month(w: &[u8]) -> Option<u32> {
    const MONTHS: [&[u8]; 12] = [
        b"january",
        b"february",
        b"march",
        b"april",
        b"may",
        b"june",
        b"july",
        b"august",
        b"september",
        b"october",
        b"november",
        b"december",
    ];
    const KEYS: [u64; 12] = [
        key(b"jan"),
        key(b"feb"),
        key(b"mar"),
        key(b"apr"),
        key(b"may"),
        key(b"jun"),
        key(b"jul"),
        key(b"aug"),
        key(b"sep"),
        key(b"oct"),
        key(b"nov"),
        key(b"dec"),
    ];
    if w.len() < 3 {
        return None;
    }
    let i = KEYS.iter().position(|&k| k == key(&w[..3]))?;
    is_prefix_ci(w, MONTHS[i]).then_some(i as u32 + 1)
}

/// `am` (false) or `pm` (true), any case.
fn meridian(w: &[u8]) -> Option<bool> {
    if w.eq_ignore_ascii_case(b"am") {
        Some(false)
    } else if w.eq_ignore_ascii_case(b"pm") {
        Some(true)
    } else {
        None
    }
}

/// Zone names (as [`key`]s) and their offsets in minutes east of UTC: RFC 5322 section
/// 4.3's, then names common in archives. Where a name is ambiguous (IST,
/// AST, BST, EST) the one mail from the period most often meant is taken;
/// a numeric zone beside it wins anyway.
const ZONES: &[(u64, i32)] = &[
    (key(b"UT"), 0),
    (key(b"GMT"), 0),
    (key(b"EST"), -5 * 60),
    (key(b"EDT"), -4 * 60),
    (key(b"CST"), -6 * 60),
    (key(b"CDT"), -5 * 60),
    (key(b"MST"), -7 * 60),
    (key(b"MDT"), -6 * 60),
    (key(b"PST"), -8 * 60),
    (key(b"PDT"), -7 * 60),
    (key(b"UTC"), 0),
    (key(b"Z"), 0),
    (key(b"WET"), 0),
    (key(b"WEST"), 60),
    (key(b"BST"), 60),
    (key(b"MET"), 60),
    (key(b"CET"), 60),
    (key(b"MEZ"), 60),
    (key(b"MEST"), 2 * 60),
    (key(b"CEST"), 2 * 60),
    (key(b"MESZ"), 2 * 60),
    (key(b"METDST"), 2 * 60),
    (key(b"EET"), 2 * 60),
    (key(b"EEST"), 3 * 60),
    (key(b"MSK"), 3 * 60),
    (key(b"IST"), 5 * 60 + 30),
    (key(b"HKT"), 8 * 60),
    (key(b"SGT"), 8 * 60),
    (key(b"AWST"), 8 * 60),
    (key(b"JST"), 9 * 60),
    (key(b"KST"), 9 * 60),
    (key(b"ACST"), 9 * 60 + 30),
    (key(b"AEST"), 10 * 60),
    (key(b"AEDT"), 11 * 60),
    (key(b"NZST"), 12 * 60),
    (key(b"NZDT"), 13 * 60),
    (key(b"HST"), -10 * 60),
    (key(b"AKST"), -9 * 60),
    (key(b"AKDT"), -8 * 60),
    (key(b"NST"), -(3 * 60 + 30)),
    (key(b"NDT"), -(2 * 60 + 30)),
    (key(b"AST"), -4 * 60),
    (key(b"ADT"), -3 * 60),
    (key(b"YST"), -9 * 60),
    (key(b"YDT"), -8 * 60),
    (key(b"HDT"), -9 * 60),
];

/// The offset of zone name `w` (any case), in minutes east of UTC.
fn zone(w: &[u8]) -> Option<i32> {
    if w.len() <= 6 {
        let k = key(w);
        if let Some(&(_, z)) = ZONES.iter().find(|&&(n, _)| n == k) {
            return Some(z);
        }
    }
    // RFC 5322 section 4.3: the military letters (all but J) were defined
    // with the wrong sign in RFC 822, so they "SHOULD all be considered
    // equivalent to "-0000"".
    match w {
        [c] if c.is_ascii_alphabetic() && !c.eq_ignore_ascii_case(&b'j') => Some(0),
        _ => None,
    }
}

fn is_prefix_ci(w: &[u8], full: &[u8]) -> bool {
    w.len() <= full.len() && full[..w.len()].eq_ignore_ascii_case(w)
}

fn trim_start(s: &[u8]) -> &[u8] {
    let n = s.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &s[n..]
}

fn trim_end(s: &[u8]) -> &[u8] {
    let n = s
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_whitespace())
        .count();
    &s[..s.len() - n]
}

/// Where `needle` (ASCII) first occurs in `hay`, any case.
fn find_ascii_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
}

/// What follows the sender of a `From ` line (`rest` starts at the sender):
/// one word, or a quoted string and what is glued to it.
fn skip_sender(rest: &[u8]) -> &[u8] {
    let mut i = 0;
    if rest.first() == Some(&b'"') {
        i = 1;
        while i < rest.len() && rest[i] != b'"' {
            i += if rest[i] == b'\\' { 2 } else { 1 };
        }
    }
    while i < rest.len() && !rest[i].is_ascii_whitespace() {
        i += 1;
    }
    &rest[i.min(rest.len())..]
}

/// The ISO 8601 subset a person types; the reason when it is not one.
fn parse_iso(s: &[u8]) -> Result<Timestamp, &'static str> {
    if s.is_empty() {
        return Err("it is empty");
    }
    let mut p = Cursor { s, i: 0 };
    let year = p.fixed(4).ok_or("it does not start with a 4-digit year")?;
    if year < 1000 {
        return Err("the year is before 1000");
    }
    let mut month = 1;
    let mut day = 1;
    let (mut h, mut m, mut sec) = (0, 0, 0);
    let mut zone = 0i64;
    if p.eat(b'-') {
        month = p.fixed(2).ok_or("the month is not 2 digits")?;
        if !(1..=12).contains(&month) {
            return Err("the month is not 01-12");
        }
        if p.eat(b'-') {
            day = p.fixed(2).ok_or("the day is not 2 digits")?;
            if day == 0 || day > days_in_month(i64::from(year), month) {
                return Err("that day is not in that month");
            }
            if p.eat(b'T') || p.eat(b't') || p.eat(b' ') {
                h = p.fixed(2).ok_or("the hour is not 2 digits")?;
                if !p.eat(b':') {
                    return Err("the time is not hh:mm");
                }
                m = p.fixed(2).ok_or("the minutes are not 2 digits")?;
                if p.eat(b':') {
                    sec = p.fixed(2).ok_or("the seconds are not 2 digits")?;
                    if p.eat(b'.') && p.digits() == 0 {
                        return Err("no digits after the decimal point");
                    }
                }
                if h > 23 || m > 59 || sec > 60 {
                    return Err("the time is out of range (00:00:00-23:59:60)");
                }
                sec = sec.min(59);
                zone = p.offset()?;
            }
        }
    }
    if p.i != s.len() {
        return Err("unexpected text after the date");
    }
    let days = days_from_civil(i64::from(year), month, day);
    let t = days * 86_400 + i64::from(h * 3600 + m * 60 + sec) - zone * 60;
    if !(EARLIEST..=LATEST).contains(&t) {
        return Err("in UTC that is outside the years 1000-9999");
    }
    Ok(Timestamp(t))
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn eat(&mut self, c: u8) -> bool {
        if self.s.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Exactly `n` digits (not followed by another), as a number.
    fn fixed(&mut self, n: usize) -> Option<u32> {
        let start = self.i;
        if self.digits() != n {
            self.i = start;
            return None;
        }
        Some(
            self.s[start..self.i]
                .iter()
                .fold(0, |v, &c| v * 10 + u32::from(c - b'0')),
        )
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.s.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        self.i - start
    }

    /// `Z`, `+hh:mm`, `+hhmm`, `+hh` or nothing, in minutes east of UTC.
    fn offset(&mut self) -> Result<i64, &'static str> {
        if self.eat(b'Z') || self.eat(b'z') {
            return Ok(0);
        }
        let sign = if self.eat(b'+') {
            1
        } else if self.eat(b'-') {
            -1
        } else {
            return Ok(0);
        };
        const BAD: &str = "the offset is not +hh:mm, +hhmm or +hh";
        let h = self.fixed(2).or_else(|| self.fixed(4)).ok_or(BAD)?;
        let (h, m) = if h > 99 {
            (h / 100, h % 100)
        } else if self.eat(b':') {
            (h, self.fixed(2).ok_or(BAD)?)
        } else {
            (h, 0)
        };
        if h > 23 || m > 59 {
            return Err("the offset is out of range (at most 23:59)");
        }
        Ok(sign * i64::from(h * 60 + m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;

    #[test]
    fn rfc3339_of_any_instant() {
        let cases = [
            (0, "1970-01-01T00:00:00Z"),
            (-1, "1969-12-31T23:59:59Z"),
            (EARLIEST, "1000-01-01T00:00:00Z"),
            (LATEST, "9999-12-31T23:59:59Z"),
            (LATEST + 1, "10000-01-01T00:00:00Z"),
            (-62_167_219_201, "-001-12-31T23:59:59Z"),
        ];
        for (t, text) in cases {
            assert_eq!(Timestamp(t).rfc3339().as_str(), text);
            assert_eq!(Timestamp(t).to_string(), text);
        }
        // The widest years fit.
        for t in [i64::MIN, i64::MAX] {
            let s = Timestamp(t).rfc3339();
            assert!(s.as_str().ends_with('Z') && s.as_str().len() > 25, "{s}");
        }
    }

    /// The general algorithm, formatted by `format!`: what the common
    /// range's 32-bit path must equal.
    fn rfc3339_general(t: i64) -> String {
        let (y, m, d) = civil_from_days(t.div_euclid(86_400));
        let s = t.rem_euclid(86_400);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    }

    #[test]
    fn the_common_range_is_the_general_algorithm() {
        // Every day's midnight and last second over the range's ends and
        // a span around 1970, and a stride across the whole range.
        let day = 86_400;
        let ends = [EARLIEST, LATEST + 1 - day, -400 * day];
        for t in ends
            .iter()
            .flat_map(|&a| (0..800).flat_map(move |k| [a + k * day, a + k * day + day - 1]))
            .chain((EARLIEST..=LATEST).step_by(9_999_991))
        {
            assert_eq!(Timestamp(t).rfc3339().as_str(), rfc3339_general(t), "{t}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_instant_is_the_general_algorithm(t in EARLIEST - 86_400..=LATEST + 86_400) {
            let fast = Timestamp(t).rfc3339();
            proptest::prop_assert_eq!(fast.as_str(), rfc3339_general(t));
        }
    }

    /// Real date strings and the instants they mean; `None` where the
    /// value must not be read. Where a row's source is a public archive the
    /// comment above its group says which.
    /// The rows of tests/data/dates.tsv: kind, input, expected instant.
    fn table() -> Vec<(String, Vec<u8>, Option<String>)> {
        include_str!("../../../tests/data/dates.tsv")
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                assert_eq!(cols.len(), 3, "{l:?}");
                let mut input = Vec::new();
                let mut bytes = cols[1].bytes();
                while let Some(c) = bytes.next() {
                    input.push(match (c, c == b'\\') {
                        (_, true) => match bytes.next() {
                            Some(b'r') => b'\r',
                            Some(b'n') => b'\n',
                            Some(b'\\') => b'\\',
                            other => panic!("bad escape {other:?} in {l:?}"),
                        },
                        (c, false) => c,
                    });
                }
                let want = (cols[2] != "none").then(|| cols[2].to_owned());
                (cols[0].to_owned(), input, want)
            })
            .collect()
    }

    #[test]
    fn table_of_real_dates() {
        let table = table();
        let mut wrong = Vec::new();
        for (kind, input, want) in &table {
            let got = match kind.as_str() {
                "header" => Timestamp::parse_header(input),
                "from" => Timestamp::parse_from_line(input),
                other => panic!("unknown kind {other:?}"),
            };
            let got = got.map(|t| t.to_string());
            if got != *want {
                let input = String::from_utf8_lossy(input);
                wrong.push(format!("{input:?}: got {got:?}, want {want:?}"));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        let read = table.iter().filter(|r| r.2.is_some()).count();
        assert!(
            read >= 70 && table.len() - read >= 20,
            "{read} of {}",
            table.len()
        );
    }

    #[test]
    fn hinnant_days_match_known_dates() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(days_from_civil(1000, 1, 1), -354_285);
        assert_eq!(civil_from_days(-354_285), (1000, 1, 1));
        assert_eq!(days_from_civil(9999, 12, 31), 2_932_896);
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        // Every day of these years goes there and back, one day apart.
        for y in [1000, 1600, 1899, 1900, 1970, 2000, 2024, 2100, 9999] {
            let mut prev = days_from_civil(y - 1, 12, 31);
            for m in 1..=12 {
                for d in 1..=days_in_month(y, m) {
                    let n = days_from_civil(y, m, d);
                    assert_eq!(civil_from_days(n), (y, m, d));
                    assert_eq!(n, prev + 1);
                    prev = n;
                }
            }
        }
    }

    #[test]
    fn display_is_rfc3339_utc() {
        assert_eq!(
            Timestamp::from_unix_seconds(0).to_string(),
            "1970-01-01T00:00:00Z"
        );
        assert_eq!(
            Timestamp::from_unix_seconds(-1).to_string(),
            "1969-12-31T23:59:59Z"
        );
        assert_eq!(
            Timestamp::from_unix_seconds(726_866_531).to_string(),
            "1993-01-12T19:22:11Z"
        );
        assert_eq!(Timestamp::from_unix_seconds(42).unix_seconds(), 42);
    }

    #[test]
    fn user_dates() {
        let ok = |s: &str| Timestamp::parse_user(s).unwrap().to_string();
        assert_eq!(ok("1993"), "1993-01-01T00:00:00Z");
        assert_eq!(ok("1993-01"), "1993-01-01T00:00:00Z");
        assert_eq!(ok("1993-01-12"), "1993-01-12T00:00:00Z");
        assert_eq!(ok(" 1993-01-12T19:02:11Z "), "1993-01-12T19:02:11Z");
        assert_eq!(ok("1993-01-12 19:02"), "1993-01-12T19:02:00Z");
        assert_eq!(ok("1993-01-12T20:02:11+01:00"), "1993-01-12T19:02:11Z");
        assert_eq!(ok("1993-01-12T14:02:11-0500"), "1993-01-12T19:02:11Z");
        assert_eq!(ok("1993-01-12T20:02:11+01"), "1993-01-12T19:02:11Z");
        assert_eq!(ok("1993-01-12t19:02:11.75z"), "1993-01-12T19:02:11Z");
        assert_eq!(
            ok("Tue, 12 Jan 1993 14:02:11 -0500"),
            "1993-01-12T19:02:11Z"
        );
        for (bad, reason) in [
            ("", "it is empty"),
            ("93", "it does not start with a 4-digit year"),
            ("1993-13", "the month is not 01-12"),
            ("1993-1-12", "the month is not 2 digits"),
            ("1993-02-29", "that day is not in that month"),
            (
                "1993-01-12T25:00",
                "the time is out of range (00:00:00-23:59:60)",
            ),
            ("1993-01-12T19", "the time is not hh:mm"),
            (
                "1993-01-12T19:02+25:00",
                "the offset is out of range (at most 23:59)",
            ),
            (
                "1993-01-12T19:02+1",
                "the offset is not +hh:mm, +hhmm or +hh",
            ),
            ("1993-01-12/13", "unexpected text after the date"),
            ("1993-01-12 noon", "the hour is not 2 digits"),
            ("0999", "the year is before 1000"),
            (
                "1000-01-01T00:00+01:00",
                "in UTC that is outside the years 1000-9999",
            ),
            ("yesterday", "it does not start with a 4-digit year"),
        ] {
            let err = Timestamp::parse_user(bad).unwrap_err();
            assert_eq!(err.reason(), reason, "{bad:?}");
            let text = err.to_string();
            assert!(
                text.contains(&format!("{bad:?}")) && text.contains("YYYY-MM-DD"),
                "{text}"
            );
        }
    }

    #[test]
    fn date_sources() {
        let names: Vec<&str> = DateSource::ORDER.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ["date", "posted", "nntp-posting-date", "from-line"]);
        assert_eq!(
            DateSource::from_header_name(b"NNTP-Posting-Date"),
            Some(DateSource::NntpPostingDate)
        );
        assert_eq!(
            DateSource::from_header_name(b"DATE"),
            Some(DateSource::Date)
        );
        assert_eq!(
            DateSource::from_header_name(b"posted"),
            Some(DateSource::Posted)
        );
        assert_eq!(DateSource::from_header_name(b"from-line"), None);
        assert_eq!(DateSource::from_header_name(b"Expires"), None);
        assert_eq!(DateSource::Posted.to_string(), "posted");
    }

    #[test]
    fn leap_second_stays_in_its_minute() {
        let t = Timestamp::parse_header(b"Sat, 31 Dec 2016 23:59:60 +0000").unwrap();
        assert_eq!(t.to_string(), "2016-12-31T23:59:59Z");
        let u = Timestamp::parse_user("2016-12-31T23:59:60Z").unwrap();
        assert_eq!(u, t);
    }

    #[test]
    fn too_many_tokens_is_not_a_date() {
        let long = "Tue 12 Jan 1993 14:02:11 GMT".to_owned() + &" Tue".repeat(MAX_TOKENS);
        assert_eq!(Timestamp::parse_header(long.as_bytes()), None);
        // Comments do not count.
        let commented = "Tue, 12 Jan 1993 14:02:11 GMT".to_owned() + &" (x)".repeat(100);
        assert!(Timestamp::parse_header(commented.as_bytes()).is_some());
    }

    const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];

    /// `t` written as RFC 5322 writes it, by this test's own formatting:
    /// local time at `offset` minutes east.
    fn rfc5322(t: i64, offset: i64, weekday: bool, short_year: bool) -> String {
        let local = t + offset * 60;
        let days = local.div_euclid(86_400);
        let secs = local.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        let mut out = String::new();
        if weekday {
            out += WEEKDAYS[(days + 4).rem_euclid(7) as usize];
            out += ", ";
        }
        let year = if short_year {
            format!("{:02}", y % 100)
        } else {
            y.to_string()
        };
        let sign = if offset < 0 { '-' } else { '+' };
        out += &format!(
            "{} {} {} {:02}:{:02}:{:02} {}{:02}{:02}",
            d,
            MONTHS[m as usize - 1],
            year,
            secs / 3600,
            secs / 60 % 60,
            secs % 60,
            sign,
            offset.abs() / 60,
            offset.abs() % 60
        );
        out
    }

    /// Instants whose local date stays within years 1000-9999 at any
    /// offset: 1000-01-02 to 9999-12-30.
    const FIRST: i64 = EARLIEST + 86_400;
    const LAST: i64 = LATEST - 86_400;

    /// The general reading alone, without the shortcut for the usual form.
    fn general(v: &[u8]) -> Option<Timestamp> {
        let mut toks = Tokens::new();
        if !toks.lex(v) {
            return None;
        }
        Fields::read(toks.as_slice())?.timestamp()
    }

    #[test]
    fn the_usual_form_reads_as_the_general_reading() {
        let mut read = 0;
        for wd in ["Tue", "tue", "Thu", "Xyz", "Tu1"] {
            for day in ["0", "1", "09", "29", "30", "31", "32", "1x", "123"] {
                for mon in ["Jan", "feb", "Feb", "Apr", "Sept", "J4n"] {
                    for year in ["0999", "1000", "1900", "1993", "2000", "9999", "93"] {
                        for time in [
                            "00:00:00", "23:59:59", "24:00:00", "12:60:00", "12:00:60", "1:02:03",
                        ] {
                            for zone in [
                                "GMT", "+0000", "-0500", "+2359", "+2400", "-0060", "EST", "+05",
                                "-05:00", "GMT (x)",
                            ] {
                                for form in [
                                    "{w}, {d} {m} {y} {t} {z}",
                                    " {w}, {d} {m} {y} {t} {z}\r",
                                    "{w} {d} {m} {y} {t} {z}",
                                    "{w},  {d} {m} {y} {t} {z}",
                                ] {
                                    let v = form
                                        .replace("{w}", wd)
                                        .replace("{d}", day)
                                        .replace("{m}", mon)
                                        .replace("{y}", year)
                                        .replace("{t}", time)
                                        .replace("{z}", zone);
                                    let fast = usual(v.as_bytes());
                                    read += usize::from(fast.is_some());
                                    if fast.is_some() {
                                        assert_eq!(fast, general(v.as_bytes()), "{v:?}");
                                    }
                                    assert_eq!(
                                        Timestamp::parse_header(v.as_bytes()),
                                        general(v.as_bytes()),
                                        "{v:?}"
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(read > 1000, "{read}");
    }

    proptest::proptest! {
        #[test]
        fn rfc5322_round_trips(
            t in FIRST..LAST,
            offset in -(23 * 60 + 59)..=(23 * 60 + 59i64),
            weekday in proptest::bool::ANY,
            short_year in proptest::bool::ANY,
        ) {
            let (y, _, _) = civil_from_days((t + offset * 60).div_euclid(86_400));
            // Two digits are unambiguous only for 1950-2049.
            let short_year = short_year && (1950..2050).contains(&y);
            let text = rfc5322(t, offset, weekday, short_year);
            proptest::prop_assert_eq!(
                Timestamp::parse_header(text.as_bytes()),
                Some(Timestamp(t)),
                "{}", text
            );
        }

        #[test]
        fn display_then_parse_user_round_trips(t in EARLIEST..=LATEST) {
            let ts = Timestamp(t);
            proptest::prop_assert_eq!(Timestamp::parse_user(&ts.to_string()), Ok(ts));
        }

        #[test]
        fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..80)) {
            let _ = Timestamp::parse_header(&bytes);
            let mut line = b"From ".to_vec();
            line.extend_from_slice(&bytes);
            let _ = Timestamp::parse_from_line(&line);
            let _ = Timestamp::parse_user(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn date_like_text_never_panics_and_what_is_read_round_trips(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::string::string_regex("[0-9]{1,10}").unwrap(),
                    proptest::string::string_regex("[0-9]{1,3}:[0-9]{1,3}(:[0-9]{1,3}(\\.[0-9])?)?").unwrap(),
                    proptest::sample::select(vec![
                        "Tue", "Jan", "Feb", "GMT", "EST", "DST", "pm", "T", "J", "Z", "(", ")", "\\",
                        "+", "-", ",", ".", " ", "\t", "\r\n ", "remote from", "From ", "\"",
                    ]).prop_map(str::to_owned),
                ],
                0..20,
            )
        ) {
            let text: String = parts.concat();
            let line = format!("From {text}");
            let read = [
                Timestamp::parse_header(text.as_bytes()),
                Timestamp::parse_from_line(line.as_bytes()),
                Timestamp::parse_user(&text).ok(),
            ];
            // Whatever is read prints as RFC 3339 and reads back as itself.
            for t in read.into_iter().flatten() {
                let printed = t.to_string();
                proptest::prop_assert_eq!(Timestamp::parse_user(&printed), Ok(t));
                proptest::prop_assert_eq!(Timestamp::parse_header(printed.as_bytes()), Some(t));
            }
        }
    }
}
