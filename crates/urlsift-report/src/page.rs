//! The report page: one self-contained HTML file, its charts inline SVG
//! written as text (no script, no font or file from the network), readable
//! on a laptop and a phone (the charts scale with the page's width), and in
//! greyscale print (each scheme a lightness step and a pattern, every
//! number also written). Everything from the input (URLs, group and domain
//! names) is escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::tables::{xml, Tables};

/// Schemes drawn apart in the stacked chart; the others are "other".
const SCHEMES: usize = 6;
/// Domains in the top chart.
const TOP: usize = 25;
/// Domains (rows) in the heat table.
const HEAT: usize = 15;
/// Groups in the groups table, and domains named per group.
const GROUPS: usize = 20;
const PER_GROUP: usize = 5;

/// The fills of the stacked chart's series, darkest first: a lightness
/// step each, every other one patterned, so that they differ in greyscale.
const FILLS: [&str; SCHEMES + 1] = [
    "#1f1f1f",
    "url(#p-hatch)",
    "#6b6b6b",
    "url(#p-dots)",
    "#a8a8a8",
    "url(#p-cross)",
    "#e0e0e0",
];

const STYLE: &str = "
:root{color-scheme:light}
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;margin:0;color:#111;background:#fff}
main{max-width:1080px;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:2rem 0 .5rem;border-bottom:1px solid #ccc;padding-bottom:.2rem}
.totals{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.5rem;margin:0;padding:0}
.totals div{border:1px solid #bbb;padding:.4rem .6rem}
.totals dt{font-size:.8rem;color:#444}
.totals dd{margin:0;font-size:1.15rem;font-weight:600}
figure{margin:0}
svg.chart{width:100%;height:auto;display:block;min-width:600px}
svg text{font-family:inherit;fill:#111}
.axis line,.axis path{stroke:#333}
.grid line{stroke:#ddd}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;padding:0;margin:.4rem 0}
.legend svg{width:1.2rem;height:1rem;vertical-align:middle;margin-right:.3rem}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:.9rem}
th,td{border:1px solid #ccc;padding:.2rem .45rem;text-align:right;white-space:nowrap}
th:first-child,th.t,td.t{text-align:left}
td.u{text-align:left;white-space:normal;word-break:break-all;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
p.note{color:#444;font-size:.85rem}
@media (max-width:600px){body{font-size:14px}main{padding:.5rem}}
@media print{h2{break-after:avoid}figure,table{break-inside:avoid}}
";

/// The patterns of [`FILLS`], once per page (referenced by every chart).
const DEFS: &str = concat!(
    "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs>",
    "<pattern id=\"p-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">",
    "<rect width=\"6\" height=\"6\" fill=\"#4a4a4a\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#fff\" stroke-width=\"2\"/></pattern>",
    "<pattern id=\"p-dots\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">",
    "<rect width=\"5\" height=\"5\" fill=\"#8c8c8c\"/><circle cx=\"2.5\" cy=\"2.5\" r=\"1.2\" fill=\"#fff\"/></pattern>",
    "<pattern id=\"p-cross\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">",
    "<rect width=\"6\" height=\"6\" fill=\"#c4c4c4\"/><path d=\"M0 0L6 6M6 0L0 6\" stroke=\"#555\" stroke-width=\"1\"/></pattern>",
    "</defs></svg>"
);

fn esc(v: &str) -> String {
    let mut s = String::with_capacity(v.len());
    xml(&mut s, v).expect("a String takes every write");
    s
}

/// Thousands separated by thin spaces.
fn num(n: u64) -> String {
    let d = n.to_string();
    let mut s = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i) % 3 == 0 {
            s.push('\u{2009}');
        }
        s.push(c);
    }
    s
}

/// A round step for an axis up to `max`, about five ticks.
fn step(max: u64) -> u64 {
    let raw = (max.max(1) as f64 / 5.0).max(1.0);
    let mag = 10f64.powi(raw.log10().floor() as i32);
    let s = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|&v| v >= raw)
        .unwrap_or(10.0 * mag);
    s.max(1.0) as u64
}

/// A vertical bar chart: `bars` of stacked `(value, series)` parts, each
/// labelled below; `title` names it for screen readers.
fn bars(
    s: &mut String,
    title: &str,
    ylabel: &str,
    xlabel: &str,
    bars: &[(String, Vec<(u64, usize)>)],
) {
    let (w, h, l, r, t, b) = (760.0, 320.0, 64.0, 12.0, 14.0, 56.0);
    let max = bars
        .iter()
        .map(|(_, p)| p.iter().map(|x| x.0).sum::<u64>())
        .max()
        .unwrap_or(0);
    let st = step(max);
    let top = max.div_ceil(st).max(1) * st;
    let y = |v: u64| t + (h - t - b) * (1.0 - v as f64 / top as f64);
    let _ = write!(
        s,
        "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{}\"><title>{}</title>",
        esc(title),
        esc(title)
    );
    s.push_str("<g class=\"grid\">");
    let mut v = 0;
    while v <= top {
        let _ = write!(
            s,
            "<line x1=\"{l}\" x2=\"{}\" y1=\"{:.1}\" y2=\"{:.1}\"/>",
            w - r,
            y(v),
            y(v)
        );
        v += st;
    }
    s.push_str("</g><g class=\"axis\">");
    let mut v = 0;
    while v <= top {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"14\">{}</text>",
            l - 6.0,
            y(v) + 4.0,
            num(v)
        );
        v += st;
    }
    let _ = write!(
        s,
        "<line x1=\"{l}\" x2=\"{l}\" y1=\"{t}\" y2=\"{}\"/><line x1=\"{l}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/>",
        h - b,
        w - r,
        h - b,
        h - b
    );
    let _ = write!(
        s,
        "<text transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\" font-size=\"14\">{}</text>",
        (t + h - b) / 2.0,
        esc(ylabel)
    );
    let _ = write!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text></g>",
        (l + w - r) / 2.0,
        h - 6.0,
        esc(xlabel)
    );
    let n = bars.len().max(1) as f64;
    let slot = (w - l - r) / n;
    let bw = (slot * 0.8).clamp(1.0, 56.0);
    // Labels thinned to what fits (about 40 px each).
    let every = ((40.0 / slot).ceil() as usize).max(1);
    s.push_str("<g class=\"marks\">");
    for (i, (label, parts)) in bars.iter().enumerate() {
        let x = l + slot * i as f64 + (slot - bw) / 2.0;
        let mut acc = 0;
        let total: u64 = parts.iter().map(|p| p.0).sum();
        for &(v, series) in parts {
            if v == 0 {
                continue;
            }
            let (y0, y1) = (y(acc + v), y(acc));
            let _ = write!(
                s,
                "<rect class=\"mark\" x=\"{x:.1}\" y=\"{y0:.1}\" width=\"{bw:.1}\" height=\"{:.1}\" fill=\"{}\" stroke=\"#111\" stroke-width=\"0.5\"><title>{}: {}</title></rect>",
                (y1 - y0).max(0.5),
                FILLS[series.min(SCHEMES)],
                esc(label),
                num(v)
            );
            acc += v;
        }
        if total == 0 {
            // An empty bar still marks its slot.
            let _ = write!(
                s,
                "<rect class=\"mark\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{bw:.1}\" height=\"0.5\" fill=\"#111\"/>",
                y(0) - 0.5
            );
        }
        if i % every == 0 {
            let _ = write!(
                s,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"end\" font-size=\"13\" transform=\"rotate(-45 {:.1} {})\">{}</text>",
                x + bw / 2.0,
                h - b + 14.0,
                x + bw / 2.0,
                h - b + 14.0,
                esc(label)
            );
        }
    }
    s.push_str("</g></svg>");
}

/// Horizontal bars, one per `(label, value)`.
fn hbars(s: &mut String, title: &str, xlabel: &str, rows: &[(std::sync::Arc<str>, u64)]) {
    let row = 20.0;
    let (w, l, r, t) = (760.0, 230.0, 70.0, 8.0);
    let h = t + row * rows.len().max(1) as f64 + 40.0;
    let max = rows.iter().map(|r| r.1).max().unwrap_or(0).max(1);
    let _ = write!(
        s,
        "<svg class=\"chart\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-label=\"{}\"><title>{}</title><g class=\"axis\">",
        esc(title),
        esc(title)
    );
    let _ = write!(
        s,
        "<line x1=\"{l}\" x2=\"{l}\" y1=\"{t}\" y2=\"{}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">{}</text></g><g class=\"marks\">",
        h - 34.0,
        (l + w - r) / 2.0,
        h - 10.0,
        esc(xlabel)
    );
    for (i, (label, v)) in rows.iter().enumerate() {
        let y = t + row * i as f64;
        let bw = (w - l - r) * *v as f64 / max as f64;
        // Long names are cut (the table holds them whole).
        let shown: String = if label.chars().count() > 32 {
            label.chars().take(31).chain(['…']).collect()
        } else {
            label.to_string()
        };
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"14\">{}</text><rect class=\"mark\" x=\"{l}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#555\"><title>{}: {}</title></rect><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"14\">{}</text>",
            l - 6.0,
            y + row * 0.7,
            esc(&shown),
            y + 3.0,
            bw.max(1.0),
            row - 6.0,
            esc(label),
            num(*v),
            l + bw.max(1.0) + 4.0,
            y + row * 0.7,
            num(*v)
        );
    }
    s.push_str("</g></svg>");
}

/// A group's URLs and its domains with theirs.
type GroupSum<'a> = (u64, Vec<(&'a str, u64)>);

/// The page of `t`.
pub fn render(t: &Tables) -> String {
    let mut s = String::with_capacity(64 * 1024);
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n<title>urlsift report</title>\n<style>");
    s.push_str(STYLE);
    s.push_str("</style></head>\n<body><main>\n");
    s.push_str(DEFS);
    s.push_str("<h1>URLs in the archive</h1>\n");

    // Totals.
    let tt = &t.totals;
    let range = match (tt.first, tt.last) {
        (Some(a), Some(b)) => format!("{} – {}", &a.to_string()[..10], &b.to_string()[..10]),
        _ => "none dated".into(),
    };
    let share = if tt.urls == 0 {
        "–".to_string()
    } else {
        format!("{:.1} %", tt.undated as f64 * 100.0 / tt.urls as f64)
    };
    s.push_str("<section id=\"totals\"><h2>Totals</h2><dl class=\"totals\">");
    for (k, v) in [
        ("files with URLs", num(tt.files)),
        ("messages with URLs", num(tt.messages)),
        ("URLs", num(tt.urls)),
        ("distinct URLs", num(tt.distinct_urls)),
        ("dates", range),
        ("undated URLs", share),
    ] {
        let _ = write!(s, "<div><dt>{k}</dt><dd>{}</dd></div>", esc(&v));
    }
    s.push_str("</dl></section>\n");

    // URLs per year by scheme.
    let mut per_scheme: BTreeMap<&str, u64> = BTreeMap::new();
    for r in &t.timeline {
        *per_scheme.entry(&r.scheme).or_default() += r.urls;
    }
    let mut order: Vec<(&str, u64)> = per_scheme.into_iter().collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let series = |scheme: &str| {
        order
            .iter()
            .position(|o| o.0 == scheme)
            .unwrap_or(SCHEMES)
            .min(SCHEMES)
    };
    let mut years: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    let mut undated = vec![0u64; SCHEMES + 1];
    for r in &t.timeline {
        let v = match r.period {
            Some((y, _)) => years.entry(y).or_insert_with(|| vec![0; SCHEMES + 1]),
            None => &mut undated,
        };
        v[series(&r.scheme)] += r.urls;
    }
    let fill_years = |years: &BTreeMap<u32, Vec<u64>>| -> Vec<u32> {
        // Every year between the first and last, empty ones too, unless
        // the span is too wide to draw (a stray date far off).
        match (years.keys().next(), years.keys().last()) {
            (Some(&a), Some(&b)) if b - a < 80 => (a..=b).collect(),
            _ => years.keys().copied().collect(),
        }
    };
    let mut stacked: Vec<(String, Vec<(u64, usize)>)> = fill_years(&years)
        .into_iter()
        .map(|y| {
            let v = years
                .get(&y)
                .cloned()
                .unwrap_or_else(|| vec![0; SCHEMES + 1]);
            (
                y.to_string(),
                v.into_iter().enumerate().map(|(i, n)| (n, i)).collect(),
            )
        })
        .collect();
    if undated.iter().any(|&n| n > 0) {
        stacked.push((
            "undated".into(),
            undated
                .into_iter()
                .enumerate()
                .map(|(i, n)| (n, i))
                .collect(),
        ));
    }
    s.push_str(
        "<section id=\"schemes\"><h2>URLs per year, by scheme</h2><figure class=\"scroll\">",
    );
    bars(
        &mut s,
        "URLs per year, stacked by scheme",
        "URLs",
        "year of the message",
        &stacked,
    );
    s.push_str("<ul class=\"legend\">");
    let mut names: Vec<String> = order
        .iter()
        .take(SCHEMES)
        .map(|o| o.0.to_string())
        .collect();
    if order.len() > SCHEMES {
        names.push("other".into());
    }
    for (i, name) in names.iter().enumerate() {
        let _ = write!(
            s,
            "<li><svg viewBox=\"0 0 12 10\"><rect width=\"12\" height=\"10\" fill=\"{}\" stroke=\"#111\" stroke-width=\"0.5\"/></svg>{}</li>",
            FILLS[i],
            esc(name)
        );
    }
    s.push_str("</ul></figure></section>\n");

    // Distinct domains per year.
    let mut dom_years: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
    let mut dom_undated = 0;
    for (y, _, _) in &t.by_year {
        match y {
            Some(y) => dom_years.entry(*y).or_insert_with(|| vec![0])[0] += 1,
            None => dom_undated += 1,
        }
    }
    let mut dbars: Vec<(String, Vec<(u64, usize)>)> = fill_years(&dom_years)
        .into_iter()
        .map(|y| {
            (
                y.to_string(),
                vec![(dom_years.get(&y).map_or(0, |v| v[0]), 2)],
            )
        })
        .collect();
    if dom_undated > 0 {
        dbars.push(("undated".into(), vec![(dom_undated, 2)]));
    }
    s.push_str("<section id=\"domains-per-year\"><h2>Distinct domains per year</h2><figure class=\"scroll\">");
    bars(
        &mut s,
        "Distinct registrable domains per year",
        "domains",
        "year of the message",
        &dbars,
    );
    s.push_str("</figure></section>\n");

    // Top domains.
    let top: Vec<(std::sync::Arc<str>, u64)> = t
        .domains
        .iter()
        .take(TOP)
        .map(|d| (d.domain.clone(), d.urls))
        .collect();
    let _ = write!(
        s,
        "<section id=\"top-domains\"><h2>Top {} domains</h2><figure class=\"scroll\">",
        top.len()
    );
    hbars(
        &mut s,
        "URLs per registrable domain, most first",
        "URLs",
        &top,
    );
    s.push_str("</figure></section>\n");

    // Heat table: top domains by year.
    let heat: Vec<&str> = t.domains.iter().take(HEAT).map(|d| &*d.domain).collect();
    // (The rows of every domain are looked through: a set of the few
    // heat domains, not a scan of them a row.)
    let in_heat: std::collections::HashSet<&str> = heat.iter().copied().collect();
    let mut cells: BTreeMap<(&str, Option<u32>), u64> = BTreeMap::new();
    let mut cols: Vec<Option<u32>> = Vec::new();
    for (y, d, n) in &t.by_year {
        if in_heat.contains(&**d) {
            cells.insert((&**d, *y), *n);
            if !cols.contains(y) {
                cols.push(*y);
            }
        }
    }
    cols.sort_by_key(|y| y.unwrap_or(u32::MAX));
    let hmax = cells.values().copied().max().unwrap_or(1).max(1);
    s.push_str("<section id=\"heat\"><h2>Top domains by year</h2><p class=\"note\">URLs per domain and year; darker is more.</p><div class=\"scroll\"><table class=\"heat\"><thead><tr><th>domain</th>");
    for y in &cols {
        let _ = write!(
            s,
            "<th>{}</th>",
            y.map_or("undated".into(), |y| y.to_string())
        );
    }
    s.push_str("</tr></thead><tbody>");
    for d in &heat {
        let _ = write!(s, "<tr><td class=\"t\">{}</td>", esc(d));
        for y in &cols {
            match cells.get(&(*d, *y)) {
                Some(&n) => {
                    // Lightness from 96 % down to 20 %, by the square root
                    // (a few large counts would leave the rest white).
                    let f = (n as f64 / hmax as f64).sqrt();
                    let l = 96.0 - 76.0 * f;
                    let fg = if l < 55.0 { "#fff" } else { "#111" };
                    let _ = write!(
                        s,
                        "<td class=\"mark\" style=\"background:hsl(0,0%,{l:.0}%);color:{fg}\">{}</td>",
                        num(n)
                    );
                }
                None => s.push_str("<td></td>"),
            }
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div></section>\n");

    // Groups by domains.
    // The rows of a group come together (sorted by group): summed as
    // they come, with no look-up of the group a row.
    let mut gl: Vec<(&str, GroupSum)> = Vec::new();
    for r in &t.groups {
        match gl.last_mut() {
            Some((g, e)) if **g == *r.group => {
                e.0 += r.urls;
                e.1.push((&r.domain, r.urls));
            }
            _ => gl.push((&r.group, (r.urls, vec![(&r.domain, r.urls)]))),
        }
    }
    gl.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    s.push_str("<section id=\"groups\"><h2>Groups and lists by domains</h2><div class=\"scroll\"><table><thead><tr><th>group or list</th><th>URLs</th><th>domains</th><th class=\"t\">most linked domains (URLs)</th></tr></thead><tbody>");
    for (g, (n, doms)) in gl.iter().take(GROUPS) {
        let _ = write!(
            s,
            "<tr><td class=\"t\">{}</td><td class=\"mark\">{}</td><td>{}</td><td class=\"u\">",
            esc(g),
            num(*n),
            num(doms.len() as u64)
        );
        for (i, (d, k)) in doms.iter().take(PER_GROUP).enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "{} ({})", esc(d), num(*k));
        }
        s.push_str("</td></tr>");
    }
    s.push_str("</tbody></table></div>");
    if gl.len() > GROUPS {
        let _ = write!(
            s,
            "<p class=\"note\">{} groups and lists in all: see groups.csv.</p>",
            num(gl.len() as u64)
        );
    }
    s.push_str("</section>\n");

    // Earliest URLs.
    s.push_str("<section id=\"earliest\"><h2>Earliest URLs</h2><div class=\"scroll\"><table><thead><tr><th>first date</th><th class=\"t\">URL</th></tr></thead><tbody>");
    for (d, u) in &t.earliest {
        let _ = write!(
            s,
            "<tr><td class=\"t mark\">{d}</td><td class=\"u\">{}</td></tr>",
            esc(u)
        );
    }
    s.push_str("</tbody></table></div></section>\n");
    s.push_str("<p class=\"note\">Written by urlsift. Dates are the messages' own, in UTC; domains are registrable domains by the Public Suffix List (ICANN section). The CSV, GEXF and GraphML files beside this page hold every row.</p>\n</main></body></html>\n");
    s
}
