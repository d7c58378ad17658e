//! The derivatives as sorted tables, and the files written from them:
//! `timeline.csv`, `domains.csv`, `domains-by-year.csv`, `groups.csv`,
//! `graph.gexf` and `graph.graphml`. Every order is a sort on the values,
//! so the same rows give the same bytes however they were counted.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use urlsift::Timestamp;

use crate::accum::Derivatives;

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
    pub domain: String,
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
    pub group: String,
    /// The registrable domain.
    pub domain: String,
    /// URLs.
    pub urls: u64,
    /// First and last dates.
    pub first_date: Option<Timestamp>,
    /// See `first_date`.
    pub last_date: Option<Timestamp>,
    /// The years with URLs.
    pub years: Vec<u32>,
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
    pub by_year: Vec<(Option<u32>, String, u64)>,
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

impl Tables {
    /// The tables of `d`.
    pub fn new(d: &Derivatives) -> Tables {
        let mut timeline: Vec<TimelineRow> = d
            .timeline
            .iter()
            .map(|(&(p, s), c)| TimelineRow {
                period: p.year_month(),
                scheme: d.schemes[s as usize].to_string(),
                urls: c.urls,
                distinct_urls: c.distinct.len() as u64,
                messages: c.messages.len() as u64,
            })
            .collect();
        let pk = |p: Option<(u32, u32)>| p.map_or((u32::MAX, 0), |x| x);
        timeline.sort_by(|a, b| (pk(a.period), &a.scheme).cmp(&(pk(b.period), &b.scheme)));
        let mut hosts = vec![0u64; d.domains.len()];
        for &dom in d.hosts.values() {
            hosts[dom as usize] += 1;
        }
        let mut domains: Vec<DomainRow> = d
            .domains
            .iter()
            .enumerate()
            .map(|(i, (name, c))| DomainRow {
                domain: name.to_string(),
                urls: c.urls,
                distinct_urls: c.distinct.len() as u64,
                hosts: hosts[i],
                first_date: c
                    .first
                    .as_ref()
                    .and_then(|f| ts(Some(f.0).filter(|&t| t != i64::MAX))),
                last_date: ts(c.last),
                first_url: c
                    .first
                    .as_ref()
                    .map(|f| f.1.to_string())
                    .unwrap_or_default(),
            })
            .collect();
        domains.sort_by(|a, b| b.urls.cmp(&a.urls).then_with(|| a.domain.cmp(&b.domain)));
        let yk = |y: Option<u32>| y.unwrap_or(u32::MAX);
        let mut by_year: Vec<(Option<u32>, String, u64)> = d
            .by_year
            .iter()
            .map(|(&(p, dom), &n)| (p.year(), d.domains[dom as usize].0.to_string(), n))
            .collect();
        // Months apart in the accumulator: summed here by year.
        by_year.sort_by(|a, b| (yk(a.0), &a.1).cmp(&(yk(b.0), &b.1)));
        by_year.dedup_by(|b, a| {
            let same = a.0 == b.0 && a.1 == b.1;
            if same {
                a.2 += b.2;
            }
            same
        });
        by_year.sort_by(|a, b| {
            yk(a.0)
                .cmp(&yk(b.0))
                .then(b.2.cmp(&a.2))
                .then_with(|| a.1.cmp(&b.1))
        });
        let mut groups: Vec<GroupRow> = d
            .edges
            .iter()
            .map(|(&(g, dom), e)| GroupRow {
                group: d.groups[g as usize].to_string(),
                domain: d.domains[dom as usize].0.to_string(),
                urls: e.urls,
                first_date: ts(e.first),
                last_date: ts(e.last),
                years: e.years.clone(),
            })
            .collect();
        groups.sort_by(|a, b| {
            a.group
                .cmp(&b.group)
                .then(b.urls.cmp(&a.urls))
                .then_with(|| a.domain.cmp(&b.domain))
        });
        Tables {
            timeline,
            domains,
            by_year,
            groups,
            earliest: d
                .earliest
                .iter()
                .map(|(t, u)| (Timestamp::from_unix_seconds(*t), u.to_string()))
                .collect(),
            totals: Totals {
                files: d.inputs.len() as u64,
                messages: d.messages.len() as u64,
                urls: d.urls,
                distinct_urls: d.distinct.len() as u64,
                undated: d.undated,
                first: ts(d.first),
                last: ts(d.last),
            },
        }
    }

    /// `timeline.csv`.
    pub fn timeline_csv(&self) -> String {
        let mut s = String::from("year,month,scheme,urls,distinct_urls,messages\n");
        for r in &self.timeline {
            match r.period {
                Some((y, m)) => write!(s, "{y},{m},"),
                None => write!(s, ",,"),
            }
            .ok();
            csv_field(&mut s, &r.scheme);
            writeln!(s, ",{},{},{}", r.urls, r.distinct_urls, r.messages).ok();
        }
        s
    }

    /// `domains.csv`.
    pub fn domains_csv(&self) -> String {
        let mut s =
            String::from("domain,urls,distinct_urls,hosts,first_date,last_date,first_url\n");
        for r in &self.domains {
            csv_field(&mut s, &r.domain);
            write!(s, ",{},{},{},", r.urls, r.distinct_urls, r.hosts).ok();
            date(&mut s, r.first_date);
            s.push(',');
            date(&mut s, r.last_date);
            s.push(',');
            csv_field(&mut s, &r.first_url);
            s.push('\n');
        }
        s
    }

    /// `domains-by-year.csv`.
    pub fn by_year_csv(&self) -> String {
        let mut s = String::from("year,domain,urls\n");
        for (y, d, n) in &self.by_year {
            if let Some(y) = y {
                write!(s, "{y}").ok();
            }
            s.push(',');
            csv_field(&mut s, d);
            writeln!(s, ",{n}").ok();
        }
        s
    }

    /// `groups.csv`.
    pub fn groups_csv(&self) -> String {
        let mut s = String::from("group,domain,urls,first_date,last_date\n");
        for r in &self.groups {
            csv_field(&mut s, &r.group);
            s.push(',');
            csv_field(&mut s, &r.domain);
            write!(s, ",{},", r.urls).ok();
            date(&mut s, r.first_date);
            s.push(',');
            date(&mut s, r.last_date);
            s.push('\n');
        }
        s
    }

    /// The nodes of the graph: groups then domains, each sorted, with the
    /// years of their edges.
    fn nodes(&self) -> (Vec<Node<'_>>, Vec<Node<'_>>) {
        use std::collections::BTreeMap;
        let mut g: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        let mut d: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
        for r in &self.groups {
            g.entry(&r.group).or_default().extend(&r.years);
            d.entry(&r.domain).or_default().extend(&r.years);
        }
        (done(g), done(d))
    }

    /// `graph.gexf`: groups and domains as nodes, one edge per group and
    /// domain weighted by URLs, the years as spells (Gephi's timeline).
    pub fn gexf(&self) -> String {
        let (groups, domains) = self.nodes();
        let mut s = String::from(concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            "<gexf xmlns=\"http://gexf.net/1.3\" version=\"1.3\">\n",
            "  <meta><creator>urlsift</creator><description>newsgroups and lists linking registrable domains</description></meta>\n",
            "  <graph mode=\"dynamic\" defaultedgetype=\"directed\" timeformat=\"date\">\n",
            "    <attributes class=\"node\"><attribute id=\"kind\" title=\"kind\" type=\"string\"/></attributes>\n",
            "    <attributes class=\"edge\"><attribute id=\"first_date\" title=\"first_date\" type=\"string\"/><attribute id=\"last_date\" title=\"last_date\" type=\"string\"/></attributes>\n",
            "    <nodes>\n"
        ));
        let spells = |s: &mut String, years: &[u32]| {
            if years.is_empty() {
                return;
            }
            s.push_str("<spells>");
            for y in years {
                write!(s, "<spell start=\"{y}-01-01\" end=\"{y}-12-31\"/>").ok();
            }
            s.push_str("</spells>");
        };
        for (kind, list) in [("group", &groups), ("domain", &domains)] {
            for (name, years) in list.iter() {
                s.push_str("      <node id=\"");
                xml(&mut s, &node_id(kind, name));
                s.push_str("\" label=\"");
                xml(&mut s, name);
                write!(
                    s,
                    "\"><attvalues><attvalue for=\"kind\" value=\"{kind}\"/></attvalues>"
                )
                .ok();
                spells(&mut s, years);
                s.push_str("</node>\n");
            }
        }
        s.push_str("    </nodes>\n    <edges>\n");
        for (i, r) in self.groups.iter().enumerate() {
            write!(s, "      <edge id=\"{i}\" source=\"").ok();
            xml(&mut s, &node_id("group", &r.group));
            s.push_str("\" target=\"");
            xml(&mut s, &node_id("domain", &r.domain));
            write!(s, "\" weight=\"{}\"><attvalues>", r.urls).ok();
            for (k, v) in [("first_date", r.first_date), ("last_date", r.last_date)] {
                if let Some(v) = v {
                    write!(s, "<attvalue for=\"{k}\" value=\"{v}\"/>").ok();
                }
            }
            s.push_str("</attvalues>");
            spells(&mut s, &r.years);
            s.push_str("</edge>\n");
        }
        s.push_str("    </edges>\n  </graph>\n</gexf>\n");
        s
    }

    /// `graph.graphml`: the same graph, for tools that read GraphML.
    pub fn graphml(&self) -> String {
        let (groups, domains) = self.nodes();
        let mut s = String::from(concat!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n",
            "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n",
            "  <key id=\"label\" for=\"node\" attr.name=\"label\" attr.type=\"string\"/>\n",
            "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n",
            "  <key id=\"weight\" for=\"edge\" attr.name=\"weight\" attr.type=\"long\"/>\n",
            "  <key id=\"first_date\" for=\"edge\" attr.name=\"first_date\" attr.type=\"string\"/>\n",
            "  <key id=\"last_date\" for=\"edge\" attr.name=\"last_date\" attr.type=\"string\"/>\n",
            "  <graph id=\"urlsift\" edgedefault=\"directed\">\n"
        ));
        for (kind, list) in [("group", &groups), ("domain", &domains)] {
            for (name, _) in list.iter() {
                s.push_str("    <node id=\"");
                xml(&mut s, &node_id(kind, name));
                s.push_str("\"><data key=\"label\">");
                xml(&mut s, name);
                writeln!(s, "</data><data key=\"kind\">{kind}</data></node>").ok();
            }
        }
        for (i, r) in self.groups.iter().enumerate() {
            write!(s, "    <edge id=\"e{i}\" source=\"").ok();
            xml(&mut s, &node_id("group", &r.group));
            s.push_str("\" target=\"");
            xml(&mut s, &node_id("domain", &r.domain));
            write!(s, "\"><data key=\"weight\">{}</data>", r.urls).ok();
            for (k, v) in [("first_date", r.first_date), ("last_date", r.last_date)] {
                if let Some(v) = v {
                    write!(s, "<data key=\"{k}\">{v}</data>").ok();
                }
            }
            s.push_str("</edge>\n");
        }
        s.push_str("  </graph>\n</graphml>\n");
        s
    }

    /// The files' names and contents, in the order written.
    pub fn files(&self) -> Vec<(&'static str, String)> {
        vec![
            ("timeline.csv", self.timeline_csv()),
            ("domains.csv", self.domains_csv()),
            ("domains-by-year.csv", self.by_year_csv()),
            ("groups.csv", self.groups_csv()),
            ("graph.gexf", self.gexf()),
            ("graph.graphml", self.graphml()),
            ("index.html", crate::page::render(self)),
        ]
    }

    /// Writes [`Tables::files`] into `dir` (created if missing).
    pub fn write(&self, dir: &Path) -> io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for (name, text) in self.files() {
            std::fs::write(dir.join(name), text)?;
        }
        Ok(())
    }
}

/// A node of the graph and its years.
type Node<'a> = (&'a str, Vec<u32>);

/// Nodes with their years sorted, once each.
fn done(m: std::collections::BTreeMap<&str, Vec<u32>>) -> Vec<Node<'_>> {
    m.into_iter()
        .map(|(k, mut v)| {
            v.sort_unstable();
            v.dedup();
            (k, v)
        })
        .collect()
}

/// A node's id: its kind and name (a group and a domain may share a name).
fn node_id(kind: &str, name: &str) -> String {
    format!("{}:{name}", &kind[..1])
}

fn date(s: &mut String, t: Option<Timestamp>) {
    if let Some(t) = t {
        write!(s, "{t}").ok();
    }
}

/// A CSV field (RFC 4180): quoted when it holds a comma, quote or line
/// break, quotes doubled.
pub(crate) fn csv_field(s: &mut String, v: &str) {
    if v.contains([',', '"', '\n', '\r']) {
        s.push('"');
        s.push_str(&v.replace('"', "\"\""));
        s.push('"');
    } else {
        s.push_str(v);
    }
}

/// Text escaped for XML and HTML (attribute values too); characters XML
/// 1.0 forbids (controls) become U+FFFD.
pub(crate) fn xml(s: &mut String, v: &str) {
    for c in v.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&#39;"),
            '\t' | '\n' | '\r' => s.push(c),
            c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{fffe}' || c == '\u{ffff}' => {
                s.push('\u{fffd}')
            }
            c => s.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::accum::Row;

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
}
