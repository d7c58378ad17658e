//! The derivatives as one accumulator: [`Derivatives::add`] takes a row,
//! [`Derivatives::merge`] joins two (associative and commutative, so
//! threads, inputs and Spark partitions combine in any grouping), and the
//! tables are read from the merged whole ([`crate::Tables`]).
//!
//! Memory grows with what is distinct, never with the input: a 64-bit
//! hash per distinct URL in each set that counts it (the whole, its
//! period and scheme, its domain), one per message, input and host, a
//! string per scheme, domain and group, and the [`EARLIEST`] first URLs.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use urlsift::{Timestamp, Url};

use crate::domain::{host_of, registrable};
use crate::hash::{hash, IdMap, Ids, NameMap, Prehashed, Set};

/// How many of the earliest distinct URLs are kept.
pub const EARLIEST: usize = 25;

/// A year and month, or none (undated): sorts by time, undated last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Period(pub(crate) u32);

impl Default for Period {
    /// [`Period::UNDATED`].
    fn default() -> Period {
        Period::UNDATED
    }
}

impl Period {
    /// No date.
    pub const UNDATED: Period = Period(u32::MAX);

    /// The UTC year and month of `t`.
    pub fn of(t: Timestamp) -> Period {
        let (y, m, _) = civil(t.unix_seconds().div_euclid(86_400));
        // Dates are read within years 1000-9999.
        Period((y.clamp(0, 99_999) as u32) * 16 + m)
    }

    /// The year and month, `None` when undated.
    pub fn year_month(self) -> Option<(u32, u32)> {
        (self != Period::UNDATED).then_some((self.0 / 16, self.0 % 16))
    }

    /// The year alone (month 0), undated staying undated.
    pub(crate) fn year_only(self) -> Period {
        match self.year_month() {
            Some((y, _)) => Period(y * 16),
            None => self,
        }
    }

    /// The year, `None` when undated.
    pub fn year(self) -> Option<u32> {
        self.year_month().map(|(y, _)| y)
    }
}

/// Year, month (1-12) and day of a day count from 1970-01-01 (H. Hinnant's
/// `civil_from_days`).
fn civil(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// One URL found, with what the derivatives count it by.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    /// The URL as found (a valid URL; others are not counted).
    pub url: &'a str,
    /// Its message's date.
    pub date: Option<Timestamp>,
    /// Its message's newsgroups, or its mailing list (`List-Id:`) where it
    /// has no newsgroups: see [`groups_of`]. Empty: none.
    pub groups: &'a [&'a str],
    /// Which message it stands in: [`message_key`].
    pub message: u64,
    /// Which input it was found in: [`input_key`].
    pub input: u64,
}

/// The groups a URL is counted under: its message's newsgroups, else its
/// list identifier, else none.
pub fn groups_of<'a>(
    newsgroups: Option<&'a [Box<str>]>,
    list_id: Option<&'a str>,
    out: &mut Vec<&'a str>,
) {
    out.clear();
    match newsgroups {
        Some(g) if !g.is_empty() => out.extend(g.iter().map(|g| &**g)),
        _ => out.extend(list_id),
    }
}

/// The key of an input: its path and, for an archive's member, the
/// member's name.
pub fn input_key(path: &[u8], member: Option<&[u8]>) -> u64 {
    match member {
        Some(m) => hash(&[path, b"{", m]),
        None => hash(&[path]),
    }
}

/// The key of a message: its input, its `Message-ID` and its date (two
/// messages of one input without a `Message-ID` and of the same date count
/// as one; text that is no message counts as one message per input).
pub fn message_key(input: u64, message_id: Option<&str>, date: Option<Timestamp>) -> u64 {
    let t = date.map_or(i64::MIN, Timestamp::unix_seconds).to_le_bytes();
    let id = message_id.unwrap_or_default().as_bytes();
    hash(&[
        &input.to_le_bytes(),
        &[u8::from(message_id.is_some())],
        id,
        &t,
    ])
}

/// Counts of one year, month and scheme.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cell {
    pub urls: u64,
    /// Distinct URLs: the `(URL, period)` pairs of [`Derivatives::seen`]
    /// and [`Derivatives::more_periods`] that fall here.
    pub distinct: u64,
    pub messages: Set,
}

/// Counts of one registrable domain.
#[derive(Clone, Debug, Default)]
pub(crate) struct Domain {
    pub urls: u64,
    /// Distinct URLs: those of [`Derivatives::seen`] under this domain.
    pub distinct: u64,
    /// The first URL: earliest dated, ties and the undated by text.
    pub first: Option<(i64, Box<str>)>,
    pub last: Option<i64>,
    /// URLs of the year `.0` not yet added to [`Derivatives::by_year`]:
    /// this record is at hand for every URL of the domain, the map is one
    /// more look-up (and rows come mostly in date order, so the year
    /// seldom changes from one URL of a domain to the next). Read through
    /// [`Derivatives::by_year_settled`].
    pub in_year: (Period, u64),
}

/// What a distinct URL is counted under. Its scheme and domain follow
/// from its text; its period is the first it was counted in (the others
/// are in [`Derivatives::more_periods`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    pub scheme: u16,
    /// Its index in [`Derivatives::domains`], [`NO_DOMAIN`] for none.
    pub domain: u32,
    pub period: Period,
}

/// [`Seen::domain`] of a URL counted under no domain.
pub(crate) const NO_DOMAIN: u32 = u32::MAX;

/// Counts of one group and domain.
#[derive(Clone, Debug, Default)]
pub(crate) struct Edge {
    pub urls: u64,
    pub first: Option<i64>,
    pub last: Option<i64>,
    /// The years it has URLs in.
    pub years: Years,
}

/// A set of years: those of 1970-2033 as the bits of one word, held in
/// the edge itself (a year is added at every URL, and a large archive's
/// edges outgrow the caches: a list elsewhere in memory was a cache miss
/// more a URL), any other in a sorted list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Years {
    bits: u64,
    others: Vec<u32>,
}

impl Years {
    /// The year of the lowest bit.
    const BASE: u32 = 1970;

    /// Adds `y`.
    pub fn insert(&mut self, y: u32) {
        match y.checked_sub(Self::BASE) {
            Some(k) if k < 64 => self.bits |= 1 << k,
            _ => {
                if let Err(i) = self.others.binary_search(&y) {
                    self.others.insert(i, y);
                }
            }
        }
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.bits.count_ones() as usize + self.others.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.bits == 0 && self.others.is_empty()
    }

    /// The years, in order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let before = self.others.partition_point(|&y| y < Self::BASE);
        let (early, late) = self.others.split_at(before);
        // The word's years lowest first, a step a year (not a test of
        // each of the 64 bits: the graph files read every edge's years).
        let mut bits = self.bits;
        let word = std::iter::from_fn(move || {
            let k = (bits != 0).then(|| bits.trailing_zeros())?;
            bits &= bits - 1;
            Some(Self::BASE + k)
        });
        early
            .iter()
            .copied()
            .chain(word)
            .chain(late.iter().copied())
    }
}

/// The derivatives of a set of rows, mergeable.
///
/// ```
/// use urlsift_report::{Derivatives, Row};
/// let mut a = Derivatives::new();
/// a.add(&Row { url: "http://www.example.com/", date: None, groups: &["comp.mail.misc"], message: 1, input: 1 });
/// let mut b = Derivatives::new();
/// b.add(&Row { url: "HTTP://WWW.EXAMPLE.COM/", date: None, groups: &[], message: 2, input: 1 });
/// a.merge(b);
/// assert_eq!((a.urls(), a.distinct_urls()), (2, 1));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Derivatives {
    pub(crate) urls: u64,
    pub(crate) undated: u64,
    pub(crate) first: Option<i64>,
    pub(crate) last: Option<i64>,
    /// Each distinct URL (its [`hash`]) and what it is counted under: one
    /// lookup a URL gives the distinct counts of the whole, its timeline
    /// cell and its domain, kept as counters beside them.
    pub(crate) seen: HashMap<u64, Seen, BuildHasherDefault<Prehashed>>,
    /// The `(URL, period)` pairs of URLs counted in more than one period,
    /// beyond the first (kept in [`Derivatives::seen`]).
    pub(crate) more_periods: HashSet<(u64, Period), BuildHasherDefault<Ids>>,
    pub(crate) messages: Set,
    pub(crate) inputs: Set,
    /// Scheme names (lower case), indexed by the timeline's keys.
    pub(crate) schemes: Vec<Box<str>>,
    pub(crate) timeline: IdMap<(Period, u16), Cell>,
    /// Domain names and their index.
    pub(crate) domain_ids: NameMap<Arc<str>, u32>,
    pub(crate) domains: Vec<(Arc<str>, Domain)>,
    /// Each host met (its [`hash`], as the distinct URLs are counted:
    /// a look-up a URL that reads no string) and the domain it counts
    /// under.
    pub(crate) hosts: HashMap<u64, u32, BuildHasherDefault<Prehashed>>,
    pub(crate) by_year: IdMap<(Period, u32), u64>,
    pub(crate) group_ids: NameMap<Arc<str>, u32>,
    pub(crate) groups: Vec<Arc<str>>,
    pub(crate) edges: IdMap<(u32, u32), Edge>,
    /// The earliest distinct dated URLs, sorted by date and text, at most
    /// [`EARLIEST`].
    pub(crate) earliest: Vec<(i64, Box<str>)>,
    /// What counting keeps from row to row.
    pub(crate) carry: Carry,
}

/// What counting keeps from row to row, not part of the counts (neither
/// serialized nor merged): the message and input of the last row and the
/// timeline cell it went to (the URLs of a message come one after the
/// other, and a set already holding a key is left alone, so these sets
/// are looked up once a message, not once a URL), the indices of the
/// last row's groups (interned once a message), the last date's period,
/// and the buffer URLs are normalized into (no allocation a row).
#[derive(Clone, Debug, Default)]
pub(crate) struct Carry {
    message: Option<u64>,
    input: Option<u64>,
    cell_message: Option<((Period, u16), u64)>,
    groups: Vec<u32>,
    /// The last host met (its hash) and its domain.
    host: Option<(u64, u32)>,
    /// The last date met and its period.
    period: Option<(Timestamp, Period)>,
    normalized: Vec<u8>,
}

fn min_opt(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

fn max_opt(a: Option<i64>, b: Option<i64>) -> Option<i64> {
    a.max(b)
}

/// The earlier of two first URLs (dated before undated, then by text).
fn first_of(a: &mut Option<(i64, Box<str>)>, t: i64, url: &[u8]) {
    let better = match a {
        None => true,
        Some((at, au)) => (t, url) < (*at, au.as_bytes()),
    };
    if better {
        *a = Some((t, url_text(url)));
    }
}

/// A normalized URL's bytes as text (ASCII: they are kept as bytes until
/// a URL is kept, which few are).
fn url_text(url: &[u8]) -> Box<str> {
    String::from_utf8_lossy(url).into()
}

/// The index of `name` in `names`, a new one the first time. A name is
/// one shared string, in the table, its index and every row written of it
/// ([`crate::Tables`]): a copy a row was one allocation more for each of
/// a graph's tens of thousands of edges.
fn intern(ids: &mut NameMap<Arc<str>, u32>, names: &mut Vec<Arc<str>>, name: &str) -> u32 {
    if let Some(&i) = ids.get(name) {
        return i;
    }
    let i = names.len() as u32;
    let name: Arc<str> = name.into();
    names.push(name.clone());
    ids.insert(name, i);
    i
}

impl Derivatives {
    /// Nothing counted.
    pub fn new() -> Derivatives {
        Derivatives::default()
    }

    /// URLs counted.
    pub fn urls(&self) -> u64 {
        self.urls
    }

    /// Distinct URLs (by their normalized form).
    pub fn distinct_urls(&self) -> u64 {
        self.seen.len() as u64
    }

    /// Counts the URL `h` in `period` under `scheme` and `domain` (indices
    /// of this accumulator): distinct in the whole, its domain and its
    /// cell the first time it is met, and in a cell the first time it is
    /// met in that period.
    fn see(&mut self, h: u64, period: Period, scheme: u16, domain: u32) {
        if self.meet(h, period, |_| (scheme, domain)).2 {
            self.timeline.entry((period, scheme)).or_default().distinct += 1;
        }
    }

    /// Meets the URL `h` in `period`: its scheme and domain, and whether it
    /// is met for the first time in that period's cell, for the caller to
    /// count (which holds the cell at hand). A URL met before is counted
    /// under the scheme and domain kept with it; a new one under what
    /// `new` gives, and counted distinct in the whole and its domain.
    fn meet(
        &mut self,
        h: u64,
        period: Period,
        new: impl FnOnce(&mut Self) -> (u16, u32),
    ) -> (u16, u32, bool) {
        if let Some(seen) = self.seen.get(&h).copied() {
            let again = seen.period != period && self.more_periods.insert((h, period));
            return (seen.scheme, seen.domain, again);
        }
        let (scheme, domain) = new(self);
        self.seen.insert(
            h,
            Seen {
                scheme,
                domain,
                period,
            },
        );
        if domain != NO_DOMAIN {
            self.domains[domain as usize].1.distinct += 1;
        }
        (scheme, domain, true)
    }

    /// Counts one URL. A row whose URL is not valid under RFC 1738's
    /// lenient reading is not counted (the scanner gives none such).
    pub fn add(&mut self, row: &Row<'_>) {
        let Ok(found) = Url::parse(row.url) else {
            return;
        };
        let mut buf = std::mem::take(&mut self.carry.normalized);
        buf.clear();
        found.normalize_into(&mut buf);
        if found.host().is_some() {
            // The normalized form's scheme and host are these in lower
            // case (a host holds no escape): no second parse for them.
            self.add_parsed(&buf, &found, row);
        } else if let Ok(url) = Url::parse_bytes(&buf) {
            // A `mailto:` or `news:` address's domain is read from the
            // text, whose escapes normalizing decoded.
            self.add_parsed(&buf, &url, row);
        }
        self.carry.normalized = buf;
    }

    /// Counts the URL whose normalized text is `text`; `url` is it parsed,
    /// or the URL it normalizes when that has a host (scheme and host
    /// are read without regard to case).
    fn add_parsed(&mut self, text: &[u8], url: &Url<'_>, row: &Row<'_>) {
        let h = hash(&[text]);
        let t = row.date.map(Timestamp::unix_seconds);
        let period = match row.date {
            None => Period::UNDATED,
            // The URLs of a message share its date: its period is worked
            // out (divisions) once a message.
            Some(d) => match self.carry.period {
                Some((at, p)) if at == d => p,
                _ => {
                    let p = Period::of(d);
                    self.carry.period = Some((d, p));
                    p
                }
            },
        };
        self.urls += 1;
        if t.is_none() {
            self.undated += 1;
        }
        self.first = min_opt(self.first, t);
        self.last = max_opt(self.last, t);
        if self.carry.message != Some(row.message) {
            self.carry.message = Some(row.message);
            self.messages.insert(row.message);
        }
        if self.carry.input != Some(row.input) {
            self.carry.input = Some(row.input);
            self.inputs.insert(row.input);
        }
        if let Some(t) = t {
            self.early(t, text);
        }
        // A URL met before needs no look-up of its host (archives quote
        // their links).
        let (s, d, first_in_cell) = self.meet(h, period, |me| {
            (me.scheme_index(url.scheme()), me.domain_of_url(url))
        });
        let cell = self.timeline.entry((period, s)).or_default();
        cell.urls += 1;
        cell.distinct += u64::from(first_in_cell);
        if self.carry.cell_message != Some(((period, s), row.message)) {
            self.carry.cell_message = Some(((period, s), row.message));
            cell.messages.insert(row.message);
        }
        if d == NO_DOMAIN {
            return;
        }
        let dom = &mut self.domains[d as usize].1;
        dom.urls += 1;
        first_of(&mut dom.first, t.unwrap_or(i64::MAX), text);
        dom.last = max_opt(dom.last, t);
        let year = period.year_only();
        if dom.in_year.0 != year {
            if dom.in_year.1 > 0 {
                *self.by_year.entry((dom.in_year.0, d)).or_default() += dom.in_year.1;
            }
            dom.in_year = (year, 0);
        }
        dom.in_year.1 += 1;
        let mut ids = std::mem::take(&mut self.carry.groups);
        self.group_indices(row.groups, &mut ids);
        for &g in &ids {
            let e = self.edges.entry((g, d)).or_default();
            e.urls += 1;
            e.first = min_opt(e.first, t);
            e.last = max_opt(e.last, t);
            if let Some(y) = period.year() {
                e.years.insert(y);
            }
        }
        self.carry.groups = ids;
    }

    /// The index of the scheme `name` (any case), a new one the first time.
    fn scheme_index(&mut self, name: &str) -> u16 {
        match self
            .schemes
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
        {
            Some(i) => i as u16,
            None => {
                self.schemes.push(name.to_ascii_lowercase().into());
                (self.schemes.len() - 1) as u16
            }
        }
    }

    /// The index of the domain `url` is counted under, [`NO_DOMAIN`] for
    /// none (the last host met is checked before the table of hosts).
    fn domain_of_url(&mut self, url: &Url<'_>) -> u32 {
        let Some((host, ip)) = host_of(url) else {
            return NO_DOMAIN;
        };
        let key = hash(&[host.as_bytes()]);
        if let Some((_, d)) = self.carry.host.filter(|h| h.0 == key) {
            return d;
        }
        let d = self.domain_of_host(key, &host, ip);
        self.carry.host = Some((key, d));
        d
    }

    /// The domain of the host whose [`hash`] is `key` (interned the first
    /// time it is met).
    fn domain_of_host(&mut self, key: u64, host: &str, ip: bool) -> u32 {
        if let Some(&d) = self.hosts.get(&key) {
            return d;
        }
        let d = self.domain_index(registrable(host, ip));
        self.hosts.insert(key, d);
        d
    }

    /// The index of the domain `name`, a new one the first time.
    fn domain_index(&mut self, name: &str) -> u32 {
        if let Some(&d) = self.domain_ids.get(name) {
            return d;
        }
        let d = self.domains.len() as u32;
        // (One string, shared as the groups' names are: see `intern`.)
        let name: Arc<str> = name.into();
        self.domains.push((name.clone(), Domain::default()));
        self.domain_ids.insert(name, d);
        d
    }

    /// URLs by year and domain: [`Derivatives::by_year`] with what the
    /// domains hold of their current year.
    pub(crate) fn by_year_settled(&self) -> IdMap<(Period, u32), u64> {
        let mut all = self.by_year.clone();
        for (d, (_, dom)) in self.domains.iter().enumerate() {
            let (year, n) = dom.in_year;
            if n > 0 {
                *all.entry((year, d as u32)).or_default() += n;
            }
        }
        all
    }

    /// The indices of `groups` into `ids`: those of the row before when
    /// they are the same names (the rows of a message come one after the
    /// other), else interned.
    fn group_indices(&mut self, groups: &[&str], ids: &mut Vec<u32>) {
        let same = ids.len() == groups.len()
            && ids
                .iter()
                .zip(groups)
                .all(|(&i, g)| *self.groups[i as usize] == **g);
        if !same {
            ids.clear();
            ids.extend(
                groups
                    .iter()
                    .map(|g| intern(&mut self.group_ids, &mut self.groups, g)),
            );
        }
    }

    /// Keeps `url` among the earliest if it is.
    fn early(&mut self, t: i64, url: &[u8]) {
        let e = &mut self.earliest;
        if e.len() == EARLIEST && (t, url) >= (e[EARLIEST - 1].0, e[EARLIEST - 1].1.as_bytes()) {
            return;
        }
        if let Some(i) = e.iter().position(|(_, u)| u.as_bytes() == url) {
            if e[i].0 <= t {
                return;
            }
            e.remove(i);
        }
        let at = e.partition_point(|(et, eu)| (*et, eu.as_bytes()) < (t, url));
        e.insert(at, (t, url_text(url)));
        e.truncate(EARLIEST);
    }

    /// Adds the counts of `other` (rows counted apart: another thread,
    /// input or partition).
    pub fn merge(&mut self, other: Derivatives) {
        if self.urls == 0 {
            // Nothing counted here (every row counted adds to `urls`): the
            // other's counts are the whole.
            *self = other;
            return;
        }
        let other_by_year = other.by_year_settled();
        self.urls += other.urls;
        self.undated += other.undated;
        self.first = min_opt(self.first, other.first);
        self.last = max_opt(self.last, other.last);
        self.messages.extend(other.messages);
        self.inputs.extend(other.inputs);
        for (t, u) in other.earliest {
            self.early(t, u.as_bytes());
        }
        let schemes: Vec<u16> = other
            .schemes
            .iter()
            .map(|n| match self.schemes.iter().position(|m| m == n) {
                Some(i) => i as u16,
                None => {
                    self.schemes.push(n.clone());
                    (self.schemes.len() - 1) as u16
                }
            })
            .collect();
        for ((p, s), c) in other.timeline {
            // (The distinct counts are made again below, URL by URL.)
            let mine = self.timeline.entry((p, schemes[s as usize])).or_default();
            mine.urls += c.urls;
            mine.messages.extend(c.messages);
        }
        let mut doms = Vec::with_capacity(other.domains.len());
        for (name, d) in other.domains {
            let i = self.domain_index(&name);
            let mine = &mut self.domains[i as usize].1;
            mine.urls += d.urls;
            if let Some((t, u)) = d.first {
                first_of(&mut mine.first, t, u.as_bytes());
            }
            mine.last = max_opt(mine.last, d.last);
            doms.push(i);
        }
        for (h, d) in other.hosts {
            self.hosts.entry(h).or_insert(doms[d as usize]);
        }
        // Each of the other's (URL, period) pairs counted here once: its
        // first period, then the others.
        let ours = |s: &Seen| {
            let d = match s.domain {
                NO_DOMAIN => NO_DOMAIN,
                d => doms[d as usize],
            };
            (schemes[s.scheme as usize], d)
        };
        for (&h, s) in &other.seen {
            let (scheme, d) = ours(s);
            self.see(h, s.period, scheme, d);
        }
        for &(h, p) in &other.more_periods {
            if let Some(s) = other.seen.get(&h) {
                let (scheme, d) = ours(s);
                self.see(h, p, scheme, d);
            }
        }
        for ((p, d), n) in other_by_year {
            *self.by_year.entry((p, doms[d as usize])).or_default() += n;
        }
        let groups: Vec<u32> = other
            .groups
            .iter()
            .map(|g| intern(&mut self.group_ids, &mut self.groups, g))
            .collect();
        for ((g, d), e) in other.edges {
            let mine = self
                .edges
                .entry((groups[g as usize], doms[d as usize]))
                .or_default();
            mine.urls += e.urls;
            mine.first = min_opt(mine.first, e.first);
            mine.last = max_opt(mine.last, e.last);
            for y in e.years.iter() {
                mine.years.insert(y);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods() {
        let p = Period::of(Timestamp::parse_user("1994-12-31T23:59:59Z").unwrap());
        assert_eq!(p.year_month(), Some((1994, 12)));
        let p = Period::of(Timestamp::parse_user("2000-02-29").unwrap());
        assert_eq!(p.year_month(), Some((2000, 2)));
        assert!(p < Period::UNDATED);
        assert_eq!(Period::UNDATED.year(), None);
    }

    #[test]
    fn by_year_counts_whatever_the_order_of_years() {
        let mut d = Derivatives::new();
        let year = |y: i64| {
            Some(Timestamp::from_unix_seconds(
                (y - 1970) * 31_557_600 + 86_400,
            ))
        };
        for (i, y) in [1994, 1994, 1995, 1994, 0, 1995, 1995, 1993]
            .into_iter()
            .enumerate()
        {
            let url = format!("http://www.example.com/{i}");
            let date = (y != 0).then(|| year(y)).flatten();
            d.add(&Row {
                url: &url,
                date,
                groups: &[],
                message: i as u64,
                input: 1,
            });
        }
        let mut got: Vec<_> = d
            .by_year_settled()
            .into_iter()
            .map(|((p, _), n)| (p.year(), n))
            .collect();
        got.sort();
        assert_eq!(
            got,
            [(None, 1), (Some(1993), 1), (Some(1994), 3), (Some(1995), 3)]
        );
        // Through the wire and a merge, the same.
        let back = Derivatives::from_bytes(&d.to_bytes()).unwrap();
        assert_eq!(back.by_year_settled(), d.by_year_settled());
        let mut m = Derivatives::new();
        m.add(&Row {
            url: "http://a.example.org/",
            date: year(1990),
            groups: &[],
            message: 99,
            input: 2,
        });
        m.merge(d);
        assert_eq!(m.by_year_settled().values().sum::<u64>(), 9);
    }

    #[test]
    fn earliest_keeps_each_url_once_at_its_first_date() {
        let mut d = Derivatives::new();
        for i in 0..40i64 {
            d.early(1000 - i, format!("http://a/{}", i % 30).as_bytes());
        }
        assert_eq!(d.earliest.len(), EARLIEST);
        assert_eq!(d.earliest[0], (961, "http://a/9".into()));
        let mut urls: Vec<_> = d.earliest.iter().map(|e| e.1.clone()).collect();
        urls.sort();
        urls.dedup();
        assert_eq!(urls.len(), EARLIEST);
    }
}
