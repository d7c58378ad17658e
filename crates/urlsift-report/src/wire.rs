//! A compact serialization of [`Derivatives`], so that Spark's partitions
//! can ship theirs to be merged: varints, strings with their lengths, each
//! set of hashes sorted and delta-coded.

use std::fmt;

use crate::accum::{Cell, Derivatives, Domain, Edge, Period, Seen, NO_DOMAIN};
use crate::hash::Set;

const MAGIC: &[u8; 8] = b"usrpt\x00\x00\x03";

/// Bytes that are not a serialized [`Derivatives`] of this version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    /// Where reading stopped.
    pub offset: usize,
    /// What was wrong there.
    pub reason: &'static str,
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not urlsift derivatives at byte {}: {}",
            self.offset, self.reason
        )
    }
}

impl std::error::Error for WireError {}

struct W(Vec<u8>);

impl W {
    fn u(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push(v as u8 | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }
    fn i(&mut self, v: Option<i64>) {
        // 0: none; else the zigzag value plus one.
        self.u(v.map_or(0, |v| ((v << 1) ^ (v >> 63)) as u64 + 1));
    }
    fn s(&mut self, v: &str) {
        self.u(v.len() as u64);
        self.0.extend_from_slice(v.as_bytes());
    }
    fn set(&mut self, set: &Set) {
        self.keyed(set.iter().map(|&h| (h, ())).collect(), |_, ()| {});
    }
    /// Entries keyed by distinct hashes: their count, then each key as
    /// its distance from the one before in sorted order, followed by what
    /// `value` writes of its value.
    fn keyed<T>(&mut self, mut v: Vec<(u64, T)>, mut value: impl FnMut(&mut W, T)) {
        v.sort_unstable_by_key(|&(h, _)| h);
        self.u(v.len() as u64);
        let mut prev = 0;
        for (h, x) in v {
            self.u(h - prev);
            prev = h;
            value(self, x);
        }
    }
}

struct R<'a> {
    b: &'a [u8],
    at: usize,
}

impl R<'_> {
    fn err(&self, reason: &'static str) -> WireError {
        WireError {
            offset: self.at,
            reason,
        }
    }
    fn u(&mut self) -> Result<u64, WireError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.b.get(self.at).ok_or_else(|| self.err("cut short"))?;
            self.at += 1;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(self.err("number too long"))
    }
    fn len(&mut self) -> Result<usize, WireError> {
        let n = self.u()?;
        // Every item takes a byte at least: more than the bytes left is a lie.
        if n > (self.b.len() - self.at) as u64 {
            return Err(self.err("count beyond the end"));
        }
        Ok(n as usize)
    }
    fn i(&mut self) -> Result<Option<i64>, WireError> {
        Ok(match self.u()? {
            0 => None,
            z => {
                let z = z - 1;
                Some((z >> 1) as i64 ^ -((z & 1) as i64))
            }
        })
    }
    fn s(&mut self) -> Result<Box<str>, WireError> {
        let n = self.len()?;
        let v = &self.b[self.at..self.at + n];
        let s = std::str::from_utf8(v).map_err(|_| self.err("text not UTF-8"))?;
        self.at += n;
        Ok(s.into())
    }
    fn set(&mut self) -> Result<Set, WireError> {
        let n = self.len()?;
        let mut set = Set::default();
        set.reserve(n);
        let mut prev = 0u64;
        for _ in 0..n {
            set.insert(self.key(&mut prev, "set out of order")?);
        }
        Ok(set)
    }
    /// The next key of what [`W::keyed`] wrote, `prev` the one before
    /// (0 at first); `what` says what is out of order.
    fn key(&mut self, prev: &mut u64, what: &'static str) -> Result<u64, WireError> {
        *prev = prev.checked_add(self.u()?).ok_or_else(|| self.err(what))?;
        Ok(*prev)
    }
    fn index(&mut self, below: usize) -> Result<u32, WireError> {
        let v = self.u()?;
        if v >= below as u64 {
            return Err(self.err("index out of range"));
        }
        Ok(v as u32)
    }
}

impl Derivatives {
    /// The serialized form ([`Derivatives::from_bytes`] reads it back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = W(MAGIC.to_vec());
        w.u(self.urls);
        w.u(self.undated);
        w.i(self.first);
        w.i(self.last);
        w.set(&self.messages);
        w.set(&self.inputs);
        w.u(self.schemes.len() as u64);
        for s in &self.schemes {
            w.s(s);
        }
        w.u(self.timeline.len() as u64);
        for (&(p, s), c) in &self.timeline {
            w.u(u64::from(p.0));
            w.u(u64::from(s));
            w.u(c.urls);
            w.u(c.distinct);
            w.set(&c.messages);
        }
        w.u(self.domains.len() as u64);
        for (name, d) in &self.domains {
            w.s(name);
            w.u(d.urls);
            w.u(d.distinct);
            match &d.first {
                Some((t, u)) => {
                    w.u(1);
                    w.i(Some(*t));
                    w.s(u);
                }
                None => w.u(0),
            }
            w.i(d.last);
        }
        // The distinct URLs, by hash: each its scheme, domain (plus one; 0
        // for none) and first period, then the pairs of later periods.
        w.keyed(self.seen.iter().map(|(&h, &s)| (h, s)).collect(), |w, s| {
            w.u(u64::from(s.scheme));
            w.u(u64::from(s.domain.wrapping_add(1)));
            w.u(u64::from(s.period.0));
        });
        let mut more: Vec<(u64, Period)> = self.more_periods.iter().copied().collect();
        more.sort_unstable();
        w.u(more.len() as u64);
        for (h, p) in more {
            w.u(h);
            w.u(u64::from(p.0));
        }
        // The hosts, by hash: each its domain.
        w.keyed(
            self.hosts.iter().map(|(&h, &d)| (h, d)).collect(),
            |w, d| {
                w.u(u64::from(d));
            },
        );
        let by_year = self.by_year_settled();
        w.u(by_year.len() as u64);
        for (&(p, d), &n) in &by_year {
            w.u(u64::from(p.0));
            w.u(u64::from(d));
            w.u(n);
        }
        w.u(self.groups.len() as u64);
        for g in &self.groups {
            w.s(g);
        }
        w.u(self.edges.len() as u64);
        for (&(g, d), e) in &self.edges {
            w.u(u64::from(g));
            w.u(u64::from(d));
            w.u(e.urls);
            w.i(e.first);
            w.i(e.last);
            w.u(e.years.len() as u64);
            for y in e.years.iter() {
                w.u(u64::from(y));
            }
        }
        w.u(self.earliest.len() as u64);
        for (t, u) in &self.earliest {
            w.i(Some(*t));
            w.s(u);
        }
        w.0
    }

    /// Reads what [`Derivatives::to_bytes`] wrote.
    pub fn from_bytes(b: &[u8]) -> Result<Derivatives, WireError> {
        let mut r = R { b, at: 0 };
        if !b.starts_with(MAGIC) {
            return Err(r.err("no urlsift derivatives header (or another version)"));
        }
        r.at = MAGIC.len();
        let mut d = Derivatives {
            urls: r.u()?,
            undated: r.u()?,
            first: r.i()?,
            last: r.i()?,
            messages: r.set()?,
            inputs: r.set()?,
            ..Derivatives::default()
        };
        for _ in 0..r.len()? {
            d.schemes.push(r.s()?);
        }
        for _ in 0..r.len()? {
            let p = Period(u32::try_from(r.u()?).map_err(|_| r.err("bad period"))?);
            let s = r.index(d.schemes.len())? as u16;
            let c = Cell {
                urls: r.u()?,
                distinct: r.u()?,
                messages: r.set()?,
            };
            d.timeline.insert((p, s), c);
        }
        for _ in 0..r.len()? {
            let name: std::sync::Arc<str> = r.s()?.into();
            let urls = r.u()?;
            let distinct = r.u()?;
            let first = match r.u()? {
                0 => None,
                _ => Some((r.i()?.ok_or_else(|| r.err("missing date"))?, r.s()?)),
            };
            let last = r.i()?;
            d.domain_ids.insert(name.clone(), d.domains.len() as u32);
            d.domains.push((
                name,
                Domain {
                    urls,
                    distinct,
                    first,
                    last,
                    ..Domain::default()
                },
            ));
        }
        let mut prev = 0u64;
        for _ in 0..r.len()? {
            let h = r.key(&mut prev, "URLs out of order")?;
            let scheme = r.index(d.schemes.len())? as u16;
            let domain = match r.index(d.domains.len() + 1)? {
                0 => NO_DOMAIN,
                k => k - 1,
            };
            let period = Period(u32::try_from(r.u()?).map_err(|_| r.err("bad period"))?);
            d.seen.insert(
                h,
                Seen {
                    scheme,
                    domain,
                    period,
                },
            );
        }
        for _ in 0..r.len()? {
            let h = r.u()?;
            let p = Period(u32::try_from(r.u()?).map_err(|_| r.err("bad period"))?);
            if !d.seen.contains_key(&h) {
                return Err(r.err("a later period of no URL"));
            }
            d.more_periods.insert((h, p));
        }
        let mut prev = 0u64;
        for _ in 0..r.len()? {
            let h = r.key(&mut prev, "hosts out of order")?;
            let dom = r.index(d.domains.len())?;
            d.hosts.insert(h, dom);
        }
        for _ in 0..r.len()? {
            let p = Period(u32::try_from(r.u()?).map_err(|_| r.err("bad period"))?);
            let dom = r.index(d.domains.len())?;
            d.by_year.insert((p, dom), r.u()?);
        }
        for _ in 0..r.len()? {
            let g: std::sync::Arc<str> = r.s()?.into();
            d.group_ids.insert(g.clone(), d.groups.len() as u32);
            d.groups.push(g);
        }
        for _ in 0..r.len()? {
            let g = r.index(d.groups.len())?;
            let dom = r.index(d.domains.len())?;
            let mut e = Edge {
                urls: r.u()?,
                first: r.i()?,
                last: r.i()?,
                years: Default::default(),
            };
            for _ in 0..r.len()? {
                e.years
                    .insert(u32::try_from(r.u()?).map_err(|_| r.err("bad year"))?);
            }
            d.edges.insert((g, dom), e);
        }
        for _ in 0..r.len()? {
            let t = r.i()?.ok_or_else(|| r.err("missing date"))?;
            d.earliest.push((t, r.s()?));
        }
        if r.at != b.len() {
            return Err(r.err("bytes after the end"));
        }
        Ok(d)
    }
}
