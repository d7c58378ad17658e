//! The derivatives as sorted tables, and the files written from them:
//! `timeline.csv`, `domains.csv`, `domains-by-year.csv`, `groups.csv`,
//! `graph.gexf` and `graph.graphml`. Every order is a sort on the values,
//! so the same rows give the same bytes however they were counted.

use std::cell::OnceCell;
use std::fmt;
use std::io;
use std::path::Path;
use std::sync::Arc;

use urlsift::{Rfc3339, Timestamp};

use crate::accum::{Derivatives, Years};

/// One row of `timeline.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineRow {
    /// Year and month, `None` when undated.
    pub period: Option<(u32, u32)>,
    /// The scheme, lower case.
    pub scheme: String,
    /// URLs.
    pub urls: u64,
    /// Distinct URLs.
    pub distinct_urls: u64,
    /// Messages with such URLs.
    pub messages: u64,
}

/// One row of `domains.csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomainRow {
    /// The registrable domain.
    pub domain: Arc<str>,
    /// URLs.
    pub urls: u64,
    /// Distinct URLs.
    pub distinct_urls: u64,
    /// Distinct hosts.
    pub hosts: u64,
    /// The first and last dates of its URLs.
    pub first_date: Option<Timestamp>,
    /// See `first_date`.
    pub last_date: Option<Timestamp>,
    /// Its earliest URL (by date, then text; the undated after).
    pub first_url: String,
}

/// One row of `groups.csv`: a group (or list) and a domain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupRow {
    /// The newsgroup or list.
    pub group: Arc<str>,
    /// The registrable domain.
    pub domain: Arc<str>,
    /// URLs.
    pub urls: u64,
    /// First and last dates.
    pub first_date: Option<Timestamp>,
    /// See `first_date`.
    pub last_date: Option<Timestamp>,
    /// The years with URLs (held as the accumulator holds them: the
    /// years of most archives in one word, no list a row).
    pub years: Years,
}

/// The totals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Inputs (files, archive members) with URLs.
    pub files: u64,
    /// Messages with URLs.
    pub messages: u64,
    /// URLs.
    pub urls: u64,
    /// Distinct URLs.
    pub distinct_urls: u64,
    /// Undated URLs.
    pub undated: u64,
    /// The earliest and latest dates.
    pub first: Option<Timestamp>,
    /// See `first`.
    pub last: Option<Timestamp>,
}

/// The merged derivatives, sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    /// By year, month (undated last) and scheme.
    pub timeline: Vec<TimelineRow>,
    /// Most URLs first, then by name.
    pub domains: Vec<DomainRow>,
    /// By year (undated last), most URLs first, then domain.
    pub by_year: Vec<(Option<u32>, Arc<str>, u64)>,
    /// By group, most URLs first, then domain.
    pub groups: Vec<GroupRow>,
    /// The earliest distinct URLs with their first dates.
    pub earliest: Vec<(Timestamp, String)>,
    /// The totals.
    pub totals: Totals,
}

fn ts(t: Option<i64>) -> Option<Timestamp> {
    t.map(Timestamp::from_unix_seconds)
}

/// The place of each of `n` distinct names in their sorted order.
fn rank<'a>(n: usize, name: impl Fn(usize) -> &'a str) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    order.sort_unstable_by(|&a, &b| name(a as usize).cmp(name(b as usize)));
    let mut place = vec![0; n];
    for (i, &k) in order.iter().enumerate() {
        place[k as usize] = i as u32;
    }
    place
}

impl Tables {
    /// The tables of `d`.
    pub fn new(d: &Derivatives) -> Tables {
        let mut timeline: Vec<TimelineRow> = d
            .timeline
            .iter()
            .map(|(&(p, s), c)| TimelineRow {
                period: p.year_month(),
                scheme: String::from(&*d.schemes[s as usize]),
                urls: c.urls,
                distinct_urls: c.distinct,
                messages: c.messages.len() as u64,
            })
            .collect();
        let pk = |p: Option<(u32, u32)>| p.map_or((u32::MAX, 0), |x| x);
        // (Every sort key below is unique, or its equals are summed: an
        // unstable sort gives the one order.)
        timeline.sort_unstable_by(|a, b| (pk(a.period), &a.scheme).cmp(&(pk(b.period), &b.scheme)));
        let mut hosts = vec![0u64; d.domains.len()];
        for &dom in d.hosts.values() {
            hosts[dom as usize] += 1;
        }
        // Each domain's and group's place in the order of names: the rows
        // below are sorted on these numbers, their names copied once.
        let domain_rank = rank(d.domains.len(), |i| &d.domains[i].0);
        let mut order: Vec<usize> = (0..d.domains.len()).collect();
        order.sort_unstable_by_key(|&i| (std::cmp::Reverse(d.domains[i].1.urls), domain_rank[i]));
        let domains: Vec<DomainRow> = order
            .into_iter()
            .map(|i| {
                let (name, c) = &d.domains[i];
                DomainRow {
                    domain: name.clone(),
                    urls: c.urls,
                    distinct_urls: c.distinct,
                    hosts: hosts[i],
                    first_date: c
                        .first
                        .as_ref()
                        .and_then(|f| ts(Some(f.0).filter(|&t| t != i64::MAX))),
                    last_date: ts(c.last),
                    first_url: c
                        .first
                        .as_ref()
                        .map(|f| String::from(&*f.1))
                        .unwrap_or_default(),
                }
            })
            .collect();
        let group_rank = rank(d.groups.len(), |i| &d.groups[i]);
        let yk = |y: Option<u32>| y.unwrap_or(u32::MAX);
        // (The accumulator's keys are a year and a domain: one row each.)
        let mut sums: Vec<(u32, u32, u64)> = d
            .by_year_settled()
            .iter()
            .map(|(&(p, dom), &n)| (yk(p.year()), dom, n))
            .collect();
        sums.sort_unstable_by_key(|&(y, dom, n)| {
            (y, std::cmp::Reverse(n), domain_rank[dom as usize])
        });
        let by_year = sums
            .into_iter()
            .map(|(y, dom, n)| {
                let year = (y != u32::MAX).then_some(y);
                (year, d.domains[dom as usize].0.clone(), n)
            })
            .collect();
        let mut edges: Vec<_> = d.edges.iter().collect();
        edges.sort_unstable_by_key(|&(&(g, dom), e)| {
            (
                group_rank[g as usize],
                std::cmp::Reverse(e.urls),
                domain_rank[dom as usize],
            )
        });
        let groups = edges
            .into_iter()
            .map(|(&(g, dom), e)| GroupRow {
                // (The accumulator's names, shared: no copy a row.)
                group: d.groups[g as usize].clone(),
                domain: d.domains[dom as usize].0.clone(),
                urls: e.urls,
                first_date: ts(e.first),
                last_date: ts(e.last),
                years: e.years.clone(),
            })
            .collect();
        Tables {
            timeline,
            domains,
            by_year,
            groups,
            earliest: d
                .earliest
                .iter()
                .map(|(t, u)| (Timestamp::from_unix_seconds(*t), String::from(&**u)))
                .collect(),
            totals: Totals {
                files: d.inputs.len() as u64,
                messages: d.messages.len() as u64,
                urls: d.urls,
                distinct_urls: d.seen.len() as u64,
                undated: d.undated,
                first: ts(d.first),
                last: ts(d.last),
            },
        }
    }

    /// `timeline.csv`.
    pub fn timeline_csv(&self) -> String {
        text(|s| self.timeline_csv_to(s))
    }

    fn timeline_csv_to(&self, s: &mut impl fmt::Write) -> fmt::Result {
        s.write_str("year,month,scheme,urls,distinct_urls,messages\n")?;
        for r in &self.timeline {
            if let Some((y, m)) = r.period {
                int(s, y)?;
                s.write_char(',')?;
                int(s, m)?;
            } else {
                s.write_char(',')?;
            }
            s.write_char(',')?;
            csv_field(s, &r.scheme)?;
            for n in [r.urls, r.distinct_urls, r.messages] {
                s.write_char(',')?;
                int(s, n)?;
            }
            s.write_char('\n')?;
        }
        Ok(())
    }

    /// `domains.csv`.
    pub fn domains_csv(&self) -> String {
        text(|s| self.domains_csv_to(s))
    }

    fn domains_csv_to(&self, s: &mut impl fmt::Write) -> fmt::Result {
        s.write_str("domain,urls,distinct_urls,hosts,first_date,last_date,first_url\n")?;
        for r in &self.domains {
            csv_field(s, &r.domain)?;
            for n in [r.urls, r.distinct_urls, r.hosts] {
                s.write_char(',')?;
                int(s, n)?;
            }
            s.write_char(',')?;
            date(s, r.first_date)?;
            s.write_char(',')?;
            date(s, r.last_date)?;
            s.write_char(',')?;
            csv_field(s, &r.first_url)?;
            s.write_char('\n')?;
        }
        Ok(())
    }

    /// `domains-by-year.csv`.
    pub fn by_year_csv(&self) -> String {
        text(|s| self.by_year_csv_to(s))
    }

    fn by_year_csv_to(&self, s: &mut impl fmt::Write) -> fmt::Result {
        s.write_str("year,domain,urls\n")?;
        for (y, d, n) in &self.by_year {
            if let Some(y) = y {
                int(s, *y)?;
            }
            s.write_char(',')?;
            csv_field(s, d)?;
            s.write_char(',')?;
            int(s, *n)?;
            s.write_char('\n')?;
        }
        Ok(())
    }

    /// `groups.csv`.
    pub fn groups_csv(&self) -> String {
        text(|s| self.groups_csv_to(s))
    }

    fn groups_csv_to(&self, s: &mut impl fmt::Write) -> fmt::Result {
        s.write_str("group,domain,urls,first_date,last_date\n")?;
        let mut dates = Dates::default();
        for r in &self.groups {
            csv_field(s, &r.group)?;
            s.write_char(',')?;
            csv_field(s, &r.domain)?;
            s.write_char(',')?;
            int(s, r.urls)?;
            s.write_char(',')?;
            dates.write(s, r.first_date)?;
            s.write_char(',')?;
            dates.write(s, r.last_date)?;
            s.write_char('\n')?;
        }
        Ok(())
    }

    /// The nodes of the graph: groups then domains, each sorted, with the
    /// years of their edges.
    fn nodes(&self) -> Nodes<'_> {
        (
            nodes_of(&self.groups, |r| &r.group),
            nodes_of(&self.groups, |r| &r.domain),
        )
    }

    /// `graph.gexf`: groups and domains as nodes, one edge per group and
    /// domain weighted by URLs, the years as spells (Gephi's timeline).
    pub fn gexf(&self) -> String {
        text(|s| self.gexf_to(s, &self.nodes()))
    }

    fn gexf_to(&self, s: &mut impl fmt::Write, nodes: &Nodes<'_>) -> fmt::Result {
        let (groups, domains) = nodes;
        s.write_str(concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            "<gexf xmlns=\"http://gexf.net/1.3\" version=\"1.3\">\n",
            "  <meta><creator>urlsift</creator><description>newsgroups and lists linking registrable domains</description></meta>\n",
            "  <graph mode=\"dynamic\" defaultedgetype=\"directed\" timeformat=\"date\">\n",
            "    <attributes class=\"node\"><attribute id=\"kind\" title=\"kind\" type=\"string\"/></attributes>\n",
            "    <attributes class=\"edge\"><attribute id=\"first_date\" title=\"first_date\" type=\"string\"/><attribute id=\"last_date\" title=\"last_date\" type=\"string\"/></attributes>\n",
            "    <nodes>\n"
        ))?;
        /// A spell a run of consecutive years (`years` sorted, each
        /// once): the same timeline as a spell a year, in fewer bytes (an
        /// edge of a list that linked a site every year is one spell).
        fn spells(s: &mut impl fmt::Write, years: impl IntoIterator<Item = u32>) -> fmt::Result {
            fn spell(s: &mut impl fmt::Write, first: u32, last: u32) -> fmt::Result {
                s.write_str("<spell start=\"")?;
                int(s, first)?;
                s.write_str("-01-01\" end=\"")?;
                int(s, last)?;
                s.write_str("-12-31\"/>")
            }
            let mut years = years.into_iter();
            let Some(mut first) = years.next() else {
                return Ok(());
            };
            s.write_str("<spells>")?;
            let mut last = first;
            for y in years {
                if y != last + 1 {
                    spell(s, first, last)?;
                    first = y;
                }
                last = y;
            }
            spell(s, first, last)?;
            s.write_str("</spells>")
        }
        for (kind, list) in [("group", groups), ("domain", domains)] {
            for (name, years) in list.iter() {
                s.write_str("      <node id=\"")?;
                node_id(s, kind, name)?;
                s.write_str("\" label=\"")?;
                xml(s, name)?;
                s.write_str("\"><attvalues><attvalue for=\"kind\" value=\"")?;
                s.write_str(kind)?;
                s.write_str("\"/></attvalues>")?;
                spells(s, years.iter().copied())?;
                s.write_str("</node>\n")?;
            }
        }
        s.write_str("    </nodes>\n    <edges>\n")?;
        let mut dates = Dates::default();
        for (i, r) in self.groups.iter().enumerate() {
            s.write_str("      <edge id=\"")?;
            int(s, i)?;
            s.write_str("\" source=\"")?;
            node_id(s, "group", &r.group)?;
            s.write_str("\" target=\"")?;
            node_id(s, "domain", &r.domain)?;
            s.write_str("\" weight=\"")?;
            int(s, r.urls)?;
            s.write_str("\"><attvalues>")?;
            edge_dates(
                s,
                r,
                ["<attvalue for=\"", "\" value=\"", "\"/>"],
                &mut dates,
            )?;
            s.write_str("</attvalues>")?;
            spells(s, r.years.iter())?;
            s.write_str("</edge>\n")?;
        }
        s.write_str("    </edges>\n  </graph>\n</gexf>\n")
    }

    /// `graph.graphml`: the same graph, for tools that read GraphML.
    pub fn graphml(&self) -> String {
        text(|s| self.graphml_to(s, &self.nodes()))
    }

    fn graphml_to(&self, s: &mut impl fmt::Write, nodes: &Nodes<'_>) -> fmt::Result {
        let (groups, domains) = nodes;
        s.write_str(concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n",
            "  <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n",
            "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n",
            "  <key id=\"weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"long\"/>\n",
            "  <key id=\"first_date\" for=\"edge\" attr.name=\"first_date\" attr.type=\"string\"/>\n",
            "  <key id=\"last_date\" for=\"edge\" attr.name=\"last_date\" attr.type=\"string\"/>\n",
            "  <graph id=\"urlsift\" edgedefault=\"directed\">\n"
        ))?;
        for (kind, list) in [("group", groups), ("domain", domains)] {
            for (name, _) in list.iter() {
                s.write_str("    <node id=\"")?;
                node_id(s, kind, name)?;
                s.write_str("\"><data key=\"label\">")?;
                xml(s, name)?;
                s.write_str("</data><data key=\"kind\">")?;
                s.write_str(kind)?;
                s.write_str("</data></node>\n")?;
            }
        }
        let mut dates = Dates::default();
        for (i, r) in self.groups.iter().enumerate() {
            s.write_str("    <edge id=\"e")?;
            int(s, i)?;
            s.write_str("\" source=\"")?;
            node_id(s, "group", &r.group)?;
            s.write_str("\" target=\"")?;
            node_id(s, "domain", &r.domain)?;
            s.write_str("\"><data key=\"weight\">")?;
            int(s, r.urls)?;
            s.write_str("</data>")?;
            edge_dates(s, r, ["<data key=\"", "\">", "</data>"], &mut dates)?;
            s.write_str("</edge>\n")?;
        }
        s.write_str("  </graph>\n</graphml>\n")
    }

    /// The names of the files, in the order written.
    pub const NAMES: [&'static str; 7] = [
        "timeline.csv",
        "domains.csv",
        "domains-by-year.csv",
        "groups.csv",
        "graph.gexf",
        "graph.graphml",
        "index.html",
    ];

    /// Writes the file `name` (one of [`Tables::NAMES`]) to `s`.
    fn file_to<'a>(
        &'a self,
        name: &str,
        s: &mut impl fmt::Write,
        nodes: &OnceCell<Nodes<'a>>,
    ) -> fmt::Result {
        match name {
            "timeline.csv" => self.timeline_csv_to(s),
            "domains.csv" => self.domains_csv_to(s),
            "domains-by-year.csv" => self.by_year_csv_to(s),
            "groups.csv" => self.groups_csv_to(s),
            "graph.gexf" => self.gexf_to(s, nodes.get_or_init(|| self.nodes())),
            "graph.graphml" => self.graphml_to(s, nodes.get_or_init(|| self.nodes())),
            "index.html" => s.write_str(&crate::page::render(self)),
            _ => Ok(()),
        }
    }

    /// The contents of the file `name` (one of [`Tables::NAMES`]; another
    /// name gives an empty text).
    pub fn file(&self, name: &str) -> String {
        text(|s| self.file_to(name, s, &OnceCell::new()))
    }

    /// The files' names and contents, in the order written.
    pub fn files(&self) -> Vec<(&'static str, String)> {
        Self::NAMES.iter().map(|&n| (n, self.file(n))).collect()
    }

    /// Writes [`Tables::files`] into `dir` (created if missing), each
    /// streamed to its file: no file's text is held whole (the graphs of a
    /// large archive run to tens of megabytes).
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        std::fs::create_dir_all(dir)?;
        // The graph's nodes, made once for both graph files.
        let nodes = OnceCell::new();
        for name in Self::NAMES {
            let mut out = Stream::new(std::fs::File::create(dir.join(name))?);
            if self.file_to(name, &mut out, &nodes).is_err() {
                return Err(out
                    .error
                    .unwrap_or_else(|| io::Error::other("formatting failed")));
            }
            out.flush()?;
        }
        Ok(())
    }
}

/// A text made by `make` (whose only error would be the formatter's: a
/// `String` takes every write).
fn text(make: impl FnOnce(&mut String) -> fmt::Result) -> String {
    let mut s = String::new();
    make(&mut s).expect("a String takes every write");
    s
}

/// Text written through to a byte stream, keeping the stream's error
/// (`fmt::Error` says only that there was one). Its own buffer rather than
/// a `BufWriter`: a graph file is about a million short pieces, and a
/// piece that fits is copied inline (a literal's length known), with no
/// call a piece.
struct Stream<W: io::Write> {
    to: W,
    buf: Vec<u8>,
    error: Option<io::Error>,
}

impl<W: io::Write> Stream<W> {
    /// Bytes gathered before they are written.
    const CAP: usize = 1 << 16;

    fn new(to: W) -> Stream<W> {
        Stream {
            to,
            buf: Vec::with_capacity(Self::CAP),
            error: None,
        }
    }

    /// Writes out what is gathered.
    fn flush(&mut self) -> io::Result<()> {
        let r = self.to.write_all(&self.buf);
        self.buf.clear();
        r
    }

    #[cold]
    #[inline(never)]
    fn spill(&mut self, s: &str) -> fmt::Result {
        let r = self.flush().and_then(|()| match s.len() < Self::CAP {
            true => {
                self.buf.extend_from_slice(s.as_bytes());
                Ok(())
            }
            false => self.to.write_all(s.as_bytes()),
        });
        r.map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}

impl<W: io::Write> fmt::Write for Stream<W> {
    #[inline]
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.buf.len() + s.len() <= Self::CAP {
            self.buf.extend_from_slice(s.as_bytes());
            return Ok(());
        }
        self.spill(s)
    }
}

/// A node of the graph and its years.
type Node<'a> = (&'a str, Vec<u32>);

/// The graph's group nodes and domain nodes.
type Nodes<'a> = (Vec<Node<'a>>, Vec<Node<'a>>);

/// The nodes of `rows` named by `name`, sorted by it, each with the years
/// of its rows sorted, once each. The rows are gathered by name through a
/// table of the distinct names, which alone are sorted: sorting the rows
/// themselves by name compared strings kept apart in memory for every
/// pair met (a cache miss each, tens of thousands of rows a large
/// archive). Rows of one name that come one after the other (as the rows
/// of a group do from [`Tables::new`]) are gathered without a look-up.
fn nodes_of<'a>(rows: &'a [GroupRow], name: impl Fn(&'a GroupRow) -> &'a str) -> Vec<Node<'a>> {
    let mut ids: crate::hash::NameMap<&'a str, usize> = Default::default();
    let mut out: Vec<Node<'a>> = Vec::new();
    let mut last: Option<(&'a str, usize)> = None;
    for r in rows {
        let n = name(r);
        let i = match last {
            Some((l, i)) if l == n => i,
            _ => *ids.entry(n).or_insert_with(|| {
                out.push((n, Vec::new()));
                out.len() - 1
            }),
        };
        last = Some((n, i));
        out[i].1.extend(r.years.iter());
    }
    // (The names are distinct: an unstable sort gives the one order.)
    out.sort_unstable_by(|a, b| a.0.cmp(b.0));
    for (_, years) in &mut out {
        years.sort_unstable();
        years.dedup();
    }
    out
}

/// An integer in decimal, without the formatting machinery (tens of
/// thousands of them a graph).
fn int(s: &mut impl fmt::Write, v: impl itoa::Integer) -> fmt::Result {
    s.write_str(itoa::Buffer::new().format(v))
}

/// A node's id: its kind and name (a group and a domain may share a name),
/// escaped for XML.
fn node_id(s: &mut impl fmt::Write, kind: &str, name: &str) -> fmt::Result {
    s.write_str(if kind == "group" { "g:" } else { "d:" })?;
    xml(s, name)
}

/// An edge's first and last dates, each it has as `open` `first_date` or
/// `last_date` `mid` the date `close`: the graph files differ only in
/// those pieces.
/// (Inlined: each call site's pieces are constants, copied as such.)
#[inline(always)]
fn edge_dates(
    s: &mut impl fmt::Write,
    r: &GroupRow,
    [open, mid, close]: [&str; 3],
    dates: &mut Dates,
) -> fmt::Result {
    for (key, t) in [("first_date", r.first_date), ("last_date", r.last_date)] {
        if t.is_some() {
            s.write_str(open)?;
            s.write_str(key)?;
            s.write_str(mid)?;
            dates.write(s, t)?;
            s.write_str(close)?;
        }
    }
    Ok(())
}

/// The last two dates written, kept formatted: an edge's first and last
/// dates are one in more than half the edges, and the next edge of its
/// group often has the same first or last date (the message that linked
/// most of a group's domains). Written this way, a graph file formats
/// a date for fewer than half its dates.
struct Dates {
    /// The dates kept, and their texts.
    at: [Option<Timestamp>; 2],
    text: [Rfc3339; 2],
    /// The slot the next new date goes to.
    next: usize,
}

impl Default for Dates {
    fn default() -> Dates {
        Dates {
            at: [None; 2],
            text: [Timestamp::from_unix_seconds(0).rfc3339(); 2],
            next: 0,
        }
    }
}

impl Dates {
    fn write(&mut self, s: &mut impl fmt::Write, t: Option<Timestamp>) -> fmt::Result {
        let Some(t) = t else {
            return Ok(());
        };
        let k = match self.at.iter().position(|&a| a == Some(t)) {
            Some(k) => k,
            None => {
                let k = self.next;
                (self.at[k], self.text[k]) = (Some(t), t.rfc3339());
                self.next = 1 - k;
                k
            }
        };
        s.write_str(self.text[k].as_str())
    }
}

fn date(s: &mut impl fmt::Write, t: Option<Timestamp>) -> fmt::Result {
    match t {
        Some(t) => s.write_str(t.rfc3339().as_str()),
        None => Ok(()),
    }
}

/// A CSV field (RFC 4180): quoted when it holds a comma, quote or line
/// break, quotes doubled.
pub(crate) fn csv_field(s: &mut impl fmt::Write, v: &str) -> fmt::Result {
    if v.bytes().any(|b| matches!(b, b',' | b'"' | b'\n' | b'\r')) {
        s.write_char('"')?;
        s.write_str(&v.replace('"', "\"\""))?;
        s.write_char('"')
    } else {
        s.write_str(v)
    }
}

/// The bytes [`xml`] writes as they are, without a look at what follows
/// (`0xEF` may start U+FFFE or U+FFFF).
static XML_PLAIN: [bool; 256] = {
    let mut t = [true; 256];
    let mut c = 0;
    while c < 0x20 {
        t[c] = false;
        c += 1;
    }
    t[0x7f] = false;
    t[0xef] = false;
    t[b'&' as usize] = false;
    t[b'<' as usize] = false;
    t[b'>' as usize] = false;
    t[b'"' as usize] = false;
    t[b'\'' as usize] = false;
    t
};

/// Text escaped for XML and HTML (attribute values too); characters XML
/// 1.0 forbids (controls, U+FFFE and U+FFFF) become U+FFFD. The runs
/// between the bytes that need a look are written whole.
pub(crate) fn xml(s: &mut impl fmt::Write, v: &str) -> fmt::Result {
    let b = v.as_bytes();
    // Most names need nothing: one table look-up a byte says so.
    if b.iter().all(|&c| XML_PLAIN[usize::from(c)]) {
        return s.write_str(v);
    }
    let mut run = 0;
    let mut i = 0;
    while i < b.len() {
        let (with, len) = match b[i] {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' => ("&quot;", 1),
            b'\'' => ("&#39;", 1),
            b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            c if c < 0x20 || c == 0x7f => ("\u{fffd}", 1),
            // U+FFFE and U+FFFF, in UTF-8.
            0xef if matches!(b[i + 1..], [0xbf, 0xbe | 0xbf, ..]) => ("\u{fffd}", 3),
            _ => {
                i += 1;
                continue;
            }
        };
        // (`i` and `run` are at character boundaries: every byte matched
        // above starts a character.)
        s.write_str(&v[run..i])?;
        s.write_str(with)?;
        i += len;
        run = i;
    }
    s.write_str(&v[run..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accum::Row;

    /// The kept dates write what formatting each date writes, whatever
    /// the order of repeats and new dates.
    #[test]
    fn kept_dates_are_the_dates() {
        let ts = [0i64, 1, 0, 0, 2, 1, 2, 3, 3, 0, 4, 5, 4, 5, 6, 6, 1];
        for n in 0..ts.len() {
            let mut dates = Dates::default();
            let (mut got, mut want) = (String::new(), String::new());
            for (i, &t) in ts.iter().cycle().skip(n).take(3 * ts.len()).enumerate() {
                let t = (i % 5 != 4).then(|| Timestamp::from_unix_seconds(t * 86_461));
                dates.write(&mut got, t).unwrap();
                got.push(',');
                date(&mut want, t).unwrap();
                want.push(',');
            }
            assert_eq!(got, want);
        }
    }

    /// Rows of several dates, groups, schemes and hosts, some repeated.
    fn rows() -> Vec<(String, Option<i64>, Vec<&'static str>, u64)> {
        let urls = [
            "http://www.a.example.com/x",
            "ftp://ftp.b.example.co.uk/pub/",
            "gopher://g.example.edu:70/1/",
            "mailto:x@mail.example.com",
            "news:comp.mail.misc",
            "news:123@news.example.org",
            "http://192.0.2.1/",
            "telnet://localhost/",
            "HTTP://WWW.A.EXAMPLE.COM/x",
        ];
        let groups: [&[&str]; 3] = [&["comp.a", "comp.b"], &["list.example.org"], &[]];
        (0..60u64)
            .map(|i| {
                let date = (i % 7 != 0).then(|| 700_000_000 + (i as i64 % 11) * 40_000_000);
                (
                    urls[i as usize % urls.len()].to_string(),
                    date,
                    groups[i as usize % 3].to_vec(),
                    i / 3,
                )
            })
            .collect()
    }

    fn count(rows: &[(String, Option<i64>, Vec<&'static str>, u64)]) -> Derivatives {
        let mut d = Derivatives::new();
        for (u, t, g, m) in rows {
            d.add(&Row {
                url: u,
                date: t.map(Timestamp::from_unix_seconds),
                groups: g,
                message: *m,
                input: m % 4,
            });
        }
        d
    }

    #[test]
    fn merging_in_any_grouping_gives_the_same_files() {
        let rows = rows();
        let whole = Tables::new(&count(&rows)).files();
        for cut in [1, 7, 20, 33, 59] {
            let (a, b) = rows.split_at(cut);
            let (a, b) = (count(a), count(b));
            // Either order, and through the wire.
            let mut ab = Derivatives::from_bytes(&a.to_bytes()).unwrap();
            ab.merge(Derivatives::from_bytes(&b.to_bytes()).unwrap());
            let mut ba = b.clone();
            ba.merge(a.clone());
            assert_eq!(Tables::new(&ab).files(), whole, "cut {cut}");
            assert_eq!(Tables::new(&ba).files(), whole, "cut {cut}, reversed");
        }
        // Three parts, grouped either way.
        let (a, rest) = rows.split_at(15);
        let (b, c) = rest.split_at(30);
        let mut left = count(a);
        left.merge(count(b));
        left.merge(count(c));
        let mut right = count(b);
        right.merge(count(c));
        let mut r = count(a);
        r.merge(right);
        assert_eq!(Tables::new(&left).files(), whole);
        assert_eq!(Tables::new(&r).files(), whole);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// The law the accumulators keep: rows counted in parts, the parts
        /// merged in any order (some through the wire), give the files of
        /// the rows counted whole. URLs recur over a few periods and
        /// domains, so the distinct counts of cells and domains are made
        /// by merges too.
        #[test]
        fn parts_merged_in_any_order_are_the_whole(
            picks in proptest::collection::vec((0usize..9, 0i64..5, 0usize..3, 0u64..6, 0usize..4), 0..60),
            order in proptest::collection::vec(0usize..4, 4),
            wire in proptest::collection::vec(proptest::bool::ANY, 4),
        ) {
            const URLS: [&str; 9] = [
                "http://www.example.com/a", "HTTP://WWW.EXAMPLE.COM/a", "http://news.example.com/b",
                "ftp://ftp.example.org/pub/", "mailto:someone@lists.example.org",
                "gopher://gopher.example.edu/1", "http://192.0.2.1/x", "news:comp.mail.misc",
                "http://www.example.co.uk/c",
            ];
            const GROUPS: [&[&str]; 3] = [&[], &["comp.mail.misc"], &["alt.test", "comp.mail.misc"]];
            let rows: Vec<_> = picks
                .iter()
                .map(|&(u, t, g, m, _)| {
                    // (About eight months apart: years change between
                    // rows of one domain, in and out of order.)
                    let date = (t != 0).then(|| 700_000_000 + t * 20_000_000);
                    (URLS[u].to_string(), date, GROUPS[g].to_vec(), m)
                })
                .collect();
            let whole = Tables::new(&count(&rows)).files();
            let mut parts: Vec<Vec<_>> = vec![Vec::new(); 4];
            for (row, &(.., part)) in rows.iter().zip(&picks) {
                parts[part].push(row.clone());
            }
            let mut merged = Derivatives::new();
            for &k in &order {
                let mut d = count(&std::mem::take(&mut parts[k]));
                if wire[k] {
                    d = Derivatives::from_bytes(&d.to_bytes()).unwrap();
                }
                merged.merge(d);
            }
            for rest in parts {
                merged.merge(count(&rest));
            }
            proptest::prop_assert_eq!(Tables::new(&merged).files(), whole);
        }
    }

    #[test]
    fn xml_escapes_what_it_must_and_nothing_else() {
        let esc = |v: &str| text(|s| xml(s, v));
        assert_eq!(esc("comp.mail.misc"), "comp.mail.misc");
        assert_eq!(esc("fr.rec.café"), "fr.rec.café");
        assert_eq!(esc("a&b<c>\"d'"), "a&amp;b&lt;c&gt;&quot;d&#39;");
        assert_eq!(esc("a\tb\nc"), "a\tb\nc");
        assert_eq!(esc("a\u{1}b\u{7f}"), "a\u{fffd}b\u{fffd}");
        assert_eq!(
            esc("x\u{fffe}y\u{ffff}\u{fffd}ï"),
            "x\u{fffd}y\u{fffd}\u{fffd}ï"
        );
        // Every byte the fast path lets through is one the walk keeps.
        for c in 0u8..0x80 {
            let v = (c as char).to_string();
            if XML_PLAIN[usize::from(c)] {
                assert_eq!(esc(&v), v, "{c:#x}");
            }
        }
    }

    #[test]
    fn graph_nodes_whatever_the_rows_order() {
        let t = Tables::new(&count(&rows()));
        let mut shuffled = t.clone();
        shuffled.groups.reverse();
        let (groups, domains) = t.nodes();
        assert!(groups.len() > 1 && domains.len() > 1);
        assert_eq!(shuffled.nodes(), (groups, domains));
    }

    #[test]
    fn a_stream_writes_every_piece_in_order_whatever_its_size() {
        use std::fmt::Write as _;
        let cap = Stream::<Vec<u8>>::CAP;
        // Pieces that fill the buffer exactly, cross its end, and outgrow it.
        let sizes = [1, cap - 1, 1, 7, cap, 3, 2 * cap + 5, cap - 3, 9];
        let mut want = String::new();
        let mut out = Stream::new(Vec::new());
        for (k, n) in sizes.into_iter().enumerate() {
            let piece = char::from(b'a' + k as u8).to_string().repeat(n);
            out.write_str(&piece).unwrap();
            want.push_str(&piece);
        }
        out.flush().unwrap();
        assert_eq!(out.to, want.as_bytes());

        // A write that fails is kept, to be told.
        struct Full;
        impl io::Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut out = Stream::new(Full);
        let big = "x".repeat(cap + 1);
        assert!(out.write_str(&big).is_err());
        assert_eq!(
            out.error.map(|e| e.kind()),
            Some(io::ErrorKind::StorageFull)
        );
    }

    #[test]
    fn bad_bytes_are_an_error() {
        let d = count(&rows());
        let b = d.to_bytes();
        assert!(Derivatives::from_bytes(&b[..b.len() - 1]).is_err());
        assert!(Derivatives::from_bytes(b"nonsense").is_err());
        for cut in (0..b.len()).step_by(7) {
            let _ = Derivatives::from_bytes(&b[..cut]);
        }
    }

    #[test]
    fn a_spell_a_run_of_consecutive_years() {
        let mut d = Derivatives::new();
        for (i, y) in [1994i64, 1990, 1993, 1995, 2001, 1992, 1994, 2100, 1969]
            .into_iter()
            .enumerate()
        {
            let url = format!("http://www.example.com/{i}");
            d.add(&Row {
                url: &url,
                date: Some(Timestamp::from_unix_seconds(
                    (y - 1970) * 31_557_600 + 86_400,
                )),
                groups: &["comp.a"],
                message: i as u64,
                input: 1,
            });
        }
        let t = Tables::new(&d);
        assert_eq!(
            t.groups[0].years.iter().collect::<Vec<_>>(),
            [1969, 1990, 1992, 1993, 1994, 1995, 2001, 2100]
        );
        let gexf = t.gexf();
        let spells = |from: &str| {
            let at = gexf[gexf.find(from).unwrap()..].find("<spells>").unwrap()
                + gexf.find(from).unwrap();
            gexf[at..at + gexf[at..].find("</spells>").unwrap()].to_string()
        };
        let want = concat!(
            "<spells><spell start=\"1969-01-01\" end=\"1969-12-31\"/>",
            "<spell start=\"1990-01-01\" end=\"1990-12-31\"/>",
            "<spell start=\"1992-01-01\" end=\"1995-12-31\"/>",
            "<spell start=\"2001-01-01\" end=\"2001-12-31\"/>",
            "<spell start=\"2100-01-01\" end=\"2100-12-31\"/>"
        );
        assert_eq!(spells("<edge "), want);
        assert_eq!(spells("<node id=\"g:comp.a\""), want);
        // Through the wire and a merge, the same years.
        let back = Derivatives::from_bytes(&d.to_bytes()).unwrap();
        assert_eq!(Tables::new(&back).groups[0].years, t.groups[0].years);
        let mut m = Derivatives::new();
        m.merge(back);
        m.merge(d);
        assert_eq!(Tables::new(&m).groups[0].years, t.groups[0].years);
    }
}
