//! Message dates: a minimal reader of RFC 5322 `Date:` values and mbox
//! `From ` lines, the instant as UTC seconds.

use std::fmt;

/// An instant, in seconds since 1970-01-01T00:00:00Z.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

/// Where a message's date was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DateSource {
    /// The `Date:` field.
    Date,
    /// B news `Posted:`.
    Posted,
    /// `NNTP-Posting-Date:`.
    NntpPostingDate,
    /// The mbox `From ` line.
    FromLine,
}

impl DateSource {
    /// The name used in output (`date`, `posted`, `nntp-posting-date`, `from-line`).
    pub fn as_str(self) -> &'static str {
        match self {
            DateSource::Date => "date",
            DateSource::Posted => "posted",
            DateSource::NntpPostingDate => "nntp-posting-date",
            DateSource::FromLine => "from-line",
        }
    }
}

/// A date given by a user that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DateError(String);

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot read the date {:?} (give YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ)",
            self.0
        )
    }
}

impl std::error::Error for DateError {}

/// Days from 1970-01-01 to `y-m-d` (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

const MONTHS: [&[u8]; 12] = [
    b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov", b"dec",
];

fn month(w: &[u8]) -> Option<i64> {
    let w = w.get(..3)?;
    MONTHS
        .iter()
        .position(|m| m.eq_ignore_ascii_case(w))
        .map(|i| i as i64 + 1)
}

fn num(w: &[u8]) -> Option<i64> {
    if w.is_empty() || w.len() > 9 || !w.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(w.iter().fold(0, |n, &b| n * 10 + i64::from(b - b'0')))
}

fn time(w: &[u8]) -> Option<i64> {
    let mut parts = w.split(|&b| b == b':');
    let h = num(parts.next()?)?;
    let m = num(parts.next()?)?;
    let s = parts.next().map_or(Some(0), num)?;
    (h < 24 && m < 60 && s < 61).then_some(h * 3600 + m * 60 + s)
}

fn zone(w: &[u8]) -> Option<i64> {
    match w.first()? {
        b'+' | b'-' if w.len() == 5 => {
            let n = num(&w[1..])?;
            let off = (n / 100) * 3600 + (n % 100) * 60;
            Some(if w[0] == b'-' { -off } else { off })
        }
        _ => {
            let names: [(&[u8], i64); 10] = [
                (b"UT", 0),
                (b"UTC", 0),
                (b"GMT", 0),
                (b"Z", 0),
                (b"EST", -5),
                (b"EDT", -4),
                (b"CST", -6),
                (b"CDT", -5),
                (b"PST", -8),
                (b"PDT", -7),
            ];
            names
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(w))
                .map(|&(_, h)| h * 3600)
        }
    }
}

fn year(y: i64) -> i64 {
    match y {
        0..=49 => 2000 + y,
        50..=999 => 1900 + y,
        _ => y,
    }
}

fn instant(y: i64, m: i64, d: i64, secs: i64, off: i64) -> Option<Timestamp> {
    (1..=31)
        .contains(&d)
        .then(|| Timestamp(days_from_civil(y, m, d) * 86400 + secs - off))
}

impl Timestamp {
    /// The instant `secs` seconds after the epoch.
    pub fn from_unix_seconds(secs: i64) -> Timestamp {
        Timestamp(secs)
    }

    /// Seconds after the epoch.
    pub fn unix_seconds(self) -> i64 {
        self.0
    }

    /// A header date (`Tue, 12 Jan 1993 14:02:11 -0500`), or `None`.
    pub fn parse_header(value: &[u8]) -> Option<Timestamp> {
        let words: Vec<&[u8]> = value
            .split(|b| b.is_ascii_whitespace() || *b == b',')
            .filter(|w| !w.is_empty())
            .collect();
        let i = usize::from(num(words.first()?).is_none() && month(words[0]).is_none());
        if let (Some(d), Some(m)) = (num(words.get(i)?), month(words.get(i + 1)?)) {
            let y = year(num(words.get(i + 2)?)?);
            let t = time(words.get(i + 3)?)?;
            let off = words.get(i + 4).and_then(|w| zone(w)).unwrap_or(0);
            return instant(y, m, d, t, off);
        }
        // ctime: `Tue Jan 12 14:02:11 1993`.
        let m = month(words.get(i)?)?;
        let d = num(words.get(i + 1)?)?;
        let t = time(words.get(i + 2)?)?;
        let y = year(num(words.get(i + 3)?)?);
        instant(y, m, d, t, 0)
    }

    /// The date at the end of an mbox `From ` line, or `None`.
    pub fn parse_from_line(line: &[u8]) -> Option<Timestamp> {
        let rest = line.strip_prefix(b"From ")?;
        let words: Vec<&[u8]> = rest
            .split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty())
            .collect();
        let n = words.len();
        (1..n).find_map(|k| {
            let tail = words[k..].join(&b' ');
            month(words[k].get(..3)?)
                .is_some()
                .then(|| Timestamp::parse_header(&tail))
                .flatten()
        })
    }

    /// A date given by a user: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ`.
    pub fn parse_user(s: &str) -> Result<Timestamp, DateError> {
        let err = || DateError(s.to_string());
        let b = s.as_bytes();
        let y = num(b.get(..4).ok_or_else(err)?).ok_or_else(err)?;
        let m = num(b.get(5..7).ok_or_else(err)?).ok_or_else(err)?;
        let d = num(b.get(8..10).ok_or_else(err)?).ok_or_else(err)?;
        if b[4] != b'-' || b[7] != b'-' || !(1..=12).contains(&m) {
            return Err(err());
        }
        let t = match &b[10..] {
            b"" => 0,
            [b'T' | b' ', rest @ ..] => {
                time(rest.strip_suffix(b"Z").ok_or_else(err)?).ok_or_else(err)?
            }
            _ => return Err(err()),
        };
        instant(y, m, d, t, 0).ok_or_else(err)
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (y, m, d) = civil_from_days(self.0.div_euclid(86400));
        let s = self.0.rem_euclid(86400);
        write!(
            f,
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            s / 3600,
            s / 60 % 60,
            s % 60
        )
    }
}
