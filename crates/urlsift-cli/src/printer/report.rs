//! `--report`: each URL counted into the derivatives of its input
//! ([`urlsift_report::Derivatives`]); the writer merges the inputs' and
//! writes the files and the page at the end.

use urlsift::{Match, MessageInfo};
use urlsift_report::{groups_of, input_key, message_key, Derivatives, Row};

use super::{InputName, Recs};

/// Counts `reading` (a valid reading of `m`) into `recs`'s derivatives.
pub fn add(recs: &mut Recs, name: &InputName, m: &Match, reading: &[u8]) {
    let Ok(url) = std::str::from_utf8(reading) else {
        return;
    };
    let info = m.message();
    let date = info.and_then(MessageInfo::date).map(|d| d.0);
    let mut groups = Vec::new();
    groups_of(
        info.and_then(MessageInfo::newsgroups),
        info.and_then(MessageInfo::list_id),
        &mut groups,
    );
    let input = if name.stdin {
        input_key(b"-", None)
    } else {
        input_key(name.path(), name.member())
    };
    let message = message_key(input, info.and_then(MessageInfo::message_id), date);
    recs.report.get_or_insert_with(Box::default).add(&Row {
        url,
        date,
        groups: &groups,
        message,
        input,
    });
}

/// Adds `other`'s derivatives to `into`'s.
pub fn merge(into: &mut Option<Box<Derivatives>>, other: Option<Box<Derivatives>>) {
    match (into.as_mut(), other) {
        (Some(a), Some(b)) => a.merge(*b),
        (None, b) => *into = b,
        (_, None) => {}
    }
}

/// Writes the files and the page of `d` (nothing counted: empty ones) into
/// `dir`; an error names the directory.
pub fn write(dir: &std::path::Path, d: Option<&Derivatives>) -> std::io::Result<()> {
    let empty = Derivatives::new();
    let tables = urlsift_report::Tables::new(d.unwrap_or(&empty));
    tables
        .write(dir)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))
}
