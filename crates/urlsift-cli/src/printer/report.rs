//! `--report`: the URLs of each input, with their messages, handed to the
//! writer, which counts them into one accumulator
//! ([`urlsift_report::Derivatives`]) and writes the files and the page at
//! the end. Counting in one place keeps one cache of hosts and domains and
//! spares merging an accumulator per input (which cost more than the
//! counting).

use std::sync::Arc;

use urlsift::{Match, MessageInfo};
use urlsift_report::{groups_of, input_key, message_key, Derivatives, Row};

use super::{InputName, Recs};
use crate::pool::{Buffer, Pool};

/// The URLs of (part of) an input, to be counted: a [`Found`] is kept in
/// the records of one input (an archive's member is an input of its own),
/// see [`Recs`].
#[derive(Clone, Debug, Default)]
pub struct Found {
    /// The URLs' texts, one after the other.
    text: String,
    /// Where each URL ends in `text`, and its message.
    rows: Vec<Kept>,
    /// The input's key, worked out at its first URL (a hash of the path
    /// a URL cost 1% of a report's run).
    input: Option<u64>,
}

impl Found {
    /// Appends `other`'s URLs (its buffers go back to be filled again).
    pub fn append(&mut self, mut other: Box<Found>) {
        let base = self.text.len();
        self.text.push_str(&other.text);
        self.rows
            .extend(other.rows.drain(..).map(|(e, m)| (e + base, m)));
        self.input = self.input.or(other.input);
        give(other);
    }
}

/// Keeps `reading` (a valid reading of `m`) in `recs`, to be counted.
pub fn add(recs: &mut Recs, name: &InputName, m: &Match, reading: &[u8]) {
    let Ok(url) = std::str::from_utf8(reading) else {
        return;
    };
    let found = recs.report.get_or_insert_with(spare);
    found.input.get_or_insert_with(|| match name.stdin {
        true => input_key(b"-", None),
        false => input_key(name.path(), name.member()),
    });
    found.text.push_str(url);
    found
        .rows
        .push((found.text.len(), m.shared_message().cloned()));
}

/// Emptied [`Found`]s, kept for the next pieces to fill: a piece's URLs
/// grow to tens of kilobytes, and growing fresh buffers by doubling for
/// every piece cost 4% of a report's run. As many as the pieces in flight
/// need, none holding over 256 KiB, 2 MiB in all.
static SPARE: Pool<Box<Found>> = Pool::new(64, 256 << 10, 2 << 20);

impl Buffer for Box<Found> {
    fn capacity(&self) -> usize {
        self.text.capacity() + self.rows.capacity() * std::mem::size_of::<Kept>()
    }
}

/// A row of [`Found::rows`].
type Kept = (usize, Option<Arc<MessageInfo>>);

/// An empty [`Found`], from [`SPARE`] when one is there.
fn spare() -> Box<Found> {
    SPARE.take().unwrap_or_default()
}

/// Gives `found` back to [`SPARE`], emptied.
fn give(mut found: Box<Found>) {
    found.text.clear();
    found.rows.clear();
    found.input = None;
    SPARE.give(found);
}

/// Counts the URLs of `found` into `into`.
pub fn count(into: &mut Option<Box<Derivatives>>, found: Option<Box<Found>>) {
    let Some(found) = found else { return };
    count_found(into, &found);
    give(found);
}

/// [`count`] of one [`Found`].
fn count_found(into: &mut Option<Box<Derivatives>>, found: &Found) {
    // (No key only where no URL was kept.)
    let input = found.input.unwrap_or_default();
    let d = into.get_or_insert_with(Box::default);
    let mut groups = Vec::new();
    let mut start = 0;
    // The message of the row before, and what was read of it: the URLs of
    // a message come one after the other, so its key (a hash of its
    // `Message-ID`), date and groups are read once a message.
    let mut last: Option<*const MessageInfo> = None;
    let (mut date, mut message) = (None, 0);
    for (end, info) in &found.rows {
        let url = &found.text[start..*end];
        start = *end;
        let info = info.as_deref();
        let this = info.map_or(std::ptr::null(), std::ptr::from_ref);
        if last != Some(this) {
            last = Some(this);
            date = info.and_then(MessageInfo::date).map(|d| d.0);
            groups_of(
                info.and_then(MessageInfo::newsgroups),
                info.and_then(MessageInfo::list_id),
                &mut groups,
            );
            message = message_key(input, info.and_then(MessageInfo::message_id), date);
        }
        d.add(&Row {
            url,
            date,
            groups: &groups,
            message,
            input,
        });
    }
}

/// Writes the files and the page of `d` (nothing counted: empty ones) into
/// `dir`; an error names the directory. The command ends with this: the
/// counts and the tables (a map node a distinct URL, host and edge, a
/// string a row) are left to the process's exit rather than freed one by
/// one, which took 1-2% of a report's time.
pub fn write(dir: &std::path::Path, d: Option<Box<Derivatives>>) -> std::io::Result<()> {
    let empty = Derivatives::new();
    let tables = urlsift_report::Tables::new(d.as_deref().unwrap_or(&empty));
    let written = tables
        .write(dir)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())));
    std::mem::forget(tables);
    std::mem::forget(d);
    written
}
