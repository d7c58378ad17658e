//! `--tally`: each distinct URL (normalized, as `-u` compares them) with
//! the number of its occurrences and its first place, most frequent first
//! (ties in first-seen order) or in first-seen order; with message dates
//! computed, also the earliest and latest date of its messages.
//!
//! Memory is one entry per distinct URL (its key, the text first seen, a
//! count and a place) and one name per input where a URL was first seen:
//! nothing per occurrence. The output comes at the end of the run.

use std::collections::HashMap;
use std::io::Write;

use super::color::{Paint, Style};
use super::{json_path, json_str, InputName};
use crate::args::TallyOrder;
use urlsift::Timestamp;

/// One distinct URL.
#[derive(Debug)]
struct Entry {
    /// First-seen rank.
    seq: usize,
    count: u64,
    /// The text as first written.
    text: Vec<u8>,
    /// Where first seen: input, line, column.
    input: usize,
    line: u64,
    column: u64,
    /// The earliest and latest message date of its occurrences, where
    /// known.
    dates: Option<(Timestamp, Timestamp)>,
}

/// The tally of a run, fed the records in output order.
#[derive(Debug)]
pub struct Tally {
    order: TallyOrder,
    json: bool,
    style: Style,
    /// Whether the dates are shown.
    dated: bool,
    entries: HashMap<String, Entry>,
    /// The names of the inputs where an entry was first seen, in order.
    names: Vec<(usize, InputName)>,
    /// The input whose records come now, and whether it holds a first.
    cur: Option<(usize, bool)>,
}

impl Tally {
    /// An empty tally printed in `order`, as JSON or plain, with the
    /// first and last dates when `dated`.
    pub fn new(order: TallyOrder, json: bool, style: Style, dated: bool) -> Tally {
        Tally {
            order,
            json,
            style,
            dated,
            entries: HashMap::new(),
            names: Vec::new(),
            cur: None,
        }
    }

    /// Counts one record of input `input`: `key` its normalized URL,
    /// `record` the printer's `line:column:seconds:text` (seconds empty
    /// when the date is unknown).
    pub fn add(&mut self, input: usize, key: String, record: &[u8]) {
        let mut parts = record.splitn(4, |&b| b == b':');
        let mut num = || -> Option<i64> {
            std::str::from_utf8(parts.next().unwrap_or_default())
                .ok()
                .and_then(|s| s.parse().ok())
        };
        let (line, column) = (num(), num());
        let date = num().map(Timestamp::from_unix_seconds);
        let widen = |d: &mut Option<(Timestamp, Timestamp)>| {
            if let Some(t) = date {
                *d = Some(d.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
            }
        };
        if let Some(e) = self.entries.get_mut(&key) {
            e.count += 1;
            widen(&mut e.dates);
            return;
        }
        let mut dates = None;
        widen(&mut dates);
        let (line, column) = (line.unwrap_or(0) as u64, column.unwrap_or(0) as u64);
        let text = parts.next().unwrap_or_default().to_vec();
        let seq = self.entries.len();
        self.entries.insert(
            key,
            Entry {
                seq,
                count: 1,
                text,
                input,
                line,
                column,
                dates,
            },
        );
        self.cur = Some((input, true));
    }

    /// Input `input` is complete: keeps its name if a URL was first seen
    /// in it.
    pub fn input_done(&mut self, input: usize, name: &InputName) {
        if self.cur == Some((input, true)) {
            self.names.push((input, name.clone()));
        }
        self.cur = None;
    }

    /// Writes the tally.
    pub fn write(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut all: Vec<&Entry> = self.entries.values().collect();
        match self.order {
            TallyOrder::Count => all.sort_unstable_by_key(|e| (std::cmp::Reverse(e.count), e.seq)),
            TallyOrder::First => all.sort_unstable_by_key(|e| e.seq),
        }
        let st = self.style;
        let mut buf = Vec::with_capacity(64 << 10);
        for e in all {
            let name = self
                .names
                .binary_search_by_key(&e.input, |(i, _)| *i)
                .ok()
                .map(|k| &self.names[k].1);
            if self.json {
                buf.extend_from_slice(b"{\"url\":");
                json_str(&mut buf, &String::from_utf8_lossy(&e.text));
                let _ = write!(buf, ",\"count\":{},\"path\":", e.count);
                match name.filter(|n| !n.stdin) {
                    Some(n) => json_path(&mut buf, &n.display),
                    None => buf.extend_from_slice(b"null"),
                }
                let _ = write!(buf, ",\"line\":{},\"column\":{}", e.line, e.column);
                if self.dated {
                    match e.dates {
                        Some((a, b)) => {
                            let _ = write!(buf, ",\"first_date\":\"{a}\",\"last_date\":\"{b}\"");
                        }
                        None => buf.extend_from_slice(b",\"first_date\":null,\"last_date\":null"),
                    }
                }
                buf.extend_from_slice(b"}\n");
            } else {
                let _ = write!(buf, "{}\t", e.count);
                if st.any() {
                    st.url(&mut buf, &e.text);
                } else {
                    buf.extend_from_slice(&e.text);
                }
                buf.push(b'\t');
                if let Some(n) = name.filter(|n| n.show) {
                    st.path(&mut buf, &n.display);
                    buf.push(b':');
                }
                st.paint(&mut buf, Paint::Number, e.line.to_string().as_bytes());
                buf.push(b':');
                st.paint(&mut buf, Paint::Number, e.column.to_string().as_bytes());
                if self.dated {
                    match e.dates {
                        Some((a, b)) => {
                            let _ = write!(buf, "\t{a}\t{b}");
                        }
                        None => buf.extend_from_slice(b"\t-\t-"),
                    }
                }
                buf.push(b'\n');
            }
            if buf.len() >= 60 << 10 {
                out.write_all(&buf)?;
                buf.clear();
            }
        }
        out.write_all(&buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(p: &str) -> InputName {
        InputName {
            display: p.as_bytes().to_vec(),
            stdin: false,
            show: true,
            member_at: None,
            escaped: Default::default(),
            json: Default::default(),
        }
    }

    fn tally(order: TallyOrder, json: bool) -> String {
        tally_dated(order, json, false)
    }

    fn tally_dated(order: TallyOrder, json: bool, dated: bool) -> String {
        let mut t = Tally::new(order, json, Style::default(), dated);
        t.add(0, "http://a/".into(), b"1:2::HTTP://a/");
        t.add(0, "ftp://b/".into(), b"3:1:86400:ftp://b/");
        t.input_done(0, &name("x"));
        t.add(1, "ftp://b/".into(), b"9:9::ftp://b/");
        t.add(1, "news:c".into(), b"2:5:726865331:news:c");
        t.add(1, "news:c".into(), b"4:5:0:news:c");
        t.input_done(1, &name("y"));
        t.add(2, "news:c".into(), b"1:1:726865000:news:c");
        t.input_done(2, &name("z"));
        let mut out = Vec::new();
        t.write(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn most_frequent_first_ties_in_first_seen_order() {
        assert_eq!(
            tally(TallyOrder::Count, false),
            "3\tnews:c\ty:2:5\n2\tftp://b/\tx:3:1\n1\tHTTP://a/\tx:1:2\n"
        );
    }

    #[test]
    fn first_seen_order_and_json() {
        assert_eq!(
            tally(TallyOrder::First, false),
            "1\tHTTP://a/\tx:1:2\n2\tftp://b/\tx:3:1\n3\tnews:c\ty:2:5\n"
        );
        let json = tally(TallyOrder::First, true);
        let v: serde_json::Value = serde_json::from_str(json.lines().nth(2).unwrap()).unwrap();
        assert_eq!(v["url"], "news:c");
        assert_eq!(v["count"], 3);
        assert_eq!(v["path"], "y");
        assert_eq!(v["line"], 2);
        assert_eq!(v["column"], 5);
        assert!(v.get("first_date").is_none());
    }

    #[test]
    fn first_and_last_dates() {
        assert_eq!(
            tally_dated(TallyOrder::First, false, true),
            "1\tHTTP://a/\tx:1:2\t-\t-\n\
             2\tftp://b/\tx:3:1\t1970-01-02T00:00:00Z\t1970-01-02T00:00:00Z\n\
             3\tnews:c\ty:2:5\t1970-01-01T00:00:00Z\t1993-01-12T19:02:11Z\n"
        );
        let json = tally_dated(TallyOrder::First, true, true);
        let v: serde_json::Value = serde_json::from_str(json.lines().nth(2).unwrap()).unwrap();
        assert_eq!(v["first_date"], "1970-01-01T00:00:00Z");
        assert_eq!(v["last_date"], "1993-01-12T19:02:11Z");
        let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
        assert_eq!(v["first_date"], serde_json::Value::Null);
    }
}
