//! Messages framed in raw bytes: [`MessageTracker`] is fed the raw input
//! in order, in any chunks, and answers which message holds an offset, for
//! the readings that scan bytes apart from the MIME reader (the raw
//! reading, a file split among threads). Messages are framed as the MIME
//! reading frames them (contract rule 10): an input is a message when its
//! first line is an mbox `From ` line or a header field, and every line
//! starting with `From ` after an empty line starts one; its header block
//! ends at its first empty line. Memory stays bounded: of a header block
//! only the wanted fields are kept, each value at most
//! [`VALUE_CAP`](crate::VALUE_CAP) bytes; a URL in a header block waits
//! for the rest of it at most [`WINDOW`](crate::WINDOW) bytes (then takes
//! what was read by then), and message starts are forgotten once the
//! caller is past them. [`Attach`] holds matches until their message is
//! known.

use std::collections::VecDeque;
use std::sync::{Arc, OnceLock};

use memchr::memchr;

use crate::lines::next_line_start_in;
use crate::matches::Match;
use crate::message::{Collector, Fields, MessageInfo, Values, LINE_CAP, WINDOW};

/// What the tracker is reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// The first line decides whether the input is a message.
    Start,
    /// A header block, from raw offset `start`.
    Header,
    /// Text: a body, or what comes before the first message.
    Text,
    /// The start of a body, read line by line for the first text part's
    /// `Content-Type` (whose charset may decode a subject of raw 8-bit
    /// bytes): the header is decided when it is found, at the next
    /// message, or [`WINDOW`] bytes into the body.
    Probe,
}

/// Finds messages and reads their headers, fed the raw input in order.
///
/// ```
/// use urlsift::{Fields, MessageTracker};
/// let mbox = b"From a@b Tue Jan 12 14:02:11 1993\nSubject: hi\n\n<http://a/>\n";
/// let mut t = MessageTracker::new(Fields::ALL);
/// t.feed(&mbox[..20]);
/// t.feed(&mbox[20..]);
/// t.finish();
/// let info = t.lookup(48).unwrap();
/// assert_eq!(info.subject(), Some(&b"hi"[..]));
/// assert_eq!(info.date().unwrap().0.to_string(), "1993-01-12T14:02:11Z");
/// ```
#[derive(Debug)]
pub struct MessageTracker {
    fields: Fields,
    mode: Mode,
    /// Bytes fed so far.
    fed: u64,
    /// The line being read: its first bytes (up to a cap) and where it
    /// starts; `None` at a line start.
    line: Option<(Vec<u8>, u64)>,
    /// The line before the next line start was empty (true at the start).
    prev_empty: bool,
    /// The header block being read and where its message starts.
    collector: Collector,
    header_start: u64,
    /// The header is past [`WINDOW`]: what it holds is decided.
    decided: bool,
    /// Message starts with their metadata, in order; the last one's is
    /// `None` while its header is read.
    starts: VecDeque<Start>,
    /// The message in force before the first start kept.
    before: Option<Start>,
    /// Every message start found, in order, when a caller asks for them
    /// (and empties it as it goes).
    pub(crate) log: Option<Vec<u64>>,
    /// With [`Mode::Probe`]: where the body starts, and the value of the
    /// `Content-Type` field being read (folded lines to come).
    probe_start: u64,
    probe_type: Option<Vec<u8>>,
}

/// A message start (a raw offset) and its metadata, made only when a match
/// asks for it (most of the cost of a message's metadata is making it, and
/// many messages hold no URL).
#[derive(Debug)]
struct Start {
    at: u64,
    /// The metadata, once made: by the tracker's own lookups (no lock),
    /// or else by a shared one (`shared`).
    info: Option<Option<Arc<MessageInfo>>>,
    shared: OnceLock<Option<Arc<MessageInfo>>>,
    /// The values its metadata is made of, until it is forgotten.
    values: Option<Box<Values>>,
}

impl Start {
    fn new(at: u64) -> Start {
        Start {
            at,
            info: None,
            shared: OnceLock::new(),
            values: None,
        }
    }

    /// Its metadata is `info`, at once.
    fn set(&mut self, info: Option<Arc<MessageInfo>>) {
        self.info = Some(info);
        self.shared = OnceLock::new();
    }

    fn make(&self) -> Option<Arc<MessageInfo>> {
        self.values.as_deref().and_then(Values::info)
    }

    fn info(&self) -> Option<&Arc<MessageInfo>> {
        match &self.info {
            Some(info) => info.as_ref(),
            None => self.shared.get_or_init(|| self.make()).as_ref(),
        }
    }

    /// [`Start::info`] without the lock a shared reference needs.
    fn info_mut(&mut self) -> Option<&Arc<MessageInfo>> {
        if self.info.is_none() {
            let info = match self.shared.take() {
                Some(info) => info,
                None => self.make(),
            };
            self.info = Some(info);
        }
        self.info.as_ref().and_then(Option::as_ref)
    }
}

fn empty_line(line: &[u8]) -> bool {
    matches!(line, b"" | b"\r")
}

/// Whether the first line makes the input a message (rule 10): an mbox
/// `From ` line or a header field.
fn opens_message(line: &[u8]) -> bool {
    let name = line
        .iter()
        .take_while(|&&b| (0x21..=0x7e).contains(&b) && b != b':')
        .count();
    line.starts_with(b"From ") || (name > 0 && line.get(name) == Some(&b':'))
}

impl MessageTracker {
    /// A tracker of `fields` at the start of an input.
    pub fn new(fields: Fields) -> MessageTracker {
        MessageTracker {
            fields,
            mode: Mode::Start,
            fed: 0,
            line: None,
            prev_empty: true,
            collector: Collector::new(fields),
            header_start: 0,
            decided: false,
            starts: VecDeque::new(),
            before: None,
            log: None,
            probe_start: 0,
            probe_type: None,
        }
    }

    /// The fields it reads.
    pub fn fields(&self) -> Fields {
        self.fields
    }

    /// Bytes fed so far.
    pub fn fed(&self) -> u64 {
        self.fed
    }

    /// Takes the next bytes of the input.
    pub fn feed(&mut self, data: &[u8]) {
        let base = self.fed;
        self.fed += data.len() as u64;
        let mut i = 0;
        while i < data.len() {
            if let Some((mut line, at)) = self.line.take() {
                // Finishing a line begun in an earlier chunk.
                let e = memchr(b'\n', &data[i..]).map(|k| i + k);
                let to = e.unwrap_or(data.len());
                let room = LINE_CAP.saturating_sub(line.len());
                line.extend_from_slice(&data[i..to.min(i + room)]);
                match e {
                    Some(e) => {
                        self.whole_line(&line, at);
                        i = e + 1;
                    }
                    None => {
                        self.line = Some((line, at));
                        return;
                    }
                }
                continue;
            }
            if self.mode == Mode::Text {
                i = self.text(data, i, base);
                continue;
            }
            if self.mode == Mode::Header && self.collector.idle() {
                i = self.header_lines(data, i, base);
                continue;
            }
            match memchr(b'\n', &data[i..]) {
                Some(k) => {
                    let line = &data[i..i + k];
                    self.whole_line(&line[..line.len().min(LINE_CAP)], base + i as u64);
                    i += k + 1;
                }
                None => {
                    let rest = &data[i..];
                    self.line = Some((rest[..rest.len().min(LINE_CAP)].to_vec(), base + i as u64));
                    return;
                }
            }
        }
    }

    /// Text from the line start `data[i]`: only a `From ` line after an
    /// empty line matters, found by search. Returns where reading goes on
    /// (a line start, or the end of `data`).
    fn text(&mut self, data: &[u8], i: usize, base: u64) -> usize {
        if self.prev_empty && data[i..].starts_with(b"From ") {
            return self.line_at(data, i, base);
        }
        // The MIME reading's own search for an `F` after an empty line.
        let mut from = i + 1;
        while let Some(p) = crate::mbox::next_message_start(data, from) {
            let nl = p - 1;
            if data[nl] == b'\n' && data[p..].starts_with(b"From ") {
                let ls = memchr::memrchr(b'\n', &data[i..nl]).map_or(i, |k| i + k + 1);
                if empty_line(&data[ls..nl]) {
                    self.prev_empty = true;
                    return self.line_at(data, p, base);
                }
            }
            from = p + 1;
        }
        // No message start: the state after the last complete line, and
        // the line begun after it.
        let rest_at = match memchr::memrchr(b'\n', &data[i..]) {
            Some(k) => {
                let nl = i + k;
                let ls = memchr::memrchr(b'\n', &data[i..nl]).map_or(i, |p| i + p + 1);
                self.prev_empty = empty_line(&data[ls..nl]);
                nl + 1
            }
            None => i,
        };
        let rest = &data[rest_at..];
        if !rest.is_empty() {
            self.line = Some((
                rest[..rest.len().min(LINE_CAP)].to_vec(),
                base + rest_at as u64,
            ));
        }
        data.len()
    }

    /// Header lines from the line start `data[i]` while the collector is
    /// idle: only a line that may start a wanted field or end the block
    /// matters, found by search (the others change nothing, and a header
    /// past [`WINDOW`] decides what it holds at the next line read, which
    /// is what it held at the line before). Returns where reading goes on
    /// (a line start, or the end of `data`).
    fn header_lines(&mut self, data: &[u8], i: usize, base: u64) -> usize {
        let next = if self.collector.reads_list() {
            Self::next_wanted(data, i, Collector::FIRST_LIST)
        } else {
            Self::next_wanted(data, i, Collector::FIRST)
        };
        if next != Some(i) {
            // The lines let go are not empty.
            self.prev_empty = false;
        }
        if let Some(s) = next {
            return self.line_at(data, s, base);
        }
        // The line begun after the last line feed, if any, is read whole
        // when its end comes.
        let rest_at = memchr::memrchr(b'\n', &data[i..]).map_or(i, |k| i + k + 1);
        let rest = &data[rest_at..];
        if !rest.is_empty() {
            self.line = Some((
                rest[..rest.len().min(LINE_CAP)].to_vec(),
                base + rest_at as u64,
            ));
        }
        data.len()
    }

    /// The first line start from the line start `data[i]` whose first
    /// byte is in `first` and whose first two may start a wanted field
    /// ([`Collector::may_start`]), or an empty line.
    fn next_wanted<const N: usize>(data: &[u8], i: usize, first: [u8; N]) -> Option<usize> {
        let wanted = |s: usize| Collector::may_start(data[s], data.get(s + 1).copied());
        if first.contains(&data[i]) && wanted(i) {
            return Some(i);
        }
        next_line_start_in(data, i, first, wanted)
    }

    /// Reads the line at `data[s]` through [`MessageTracker::whole_line`].
    fn line_at(&mut self, data: &[u8], s: usize, base: u64) -> usize {
        match memchr(b'\n', &data[s..]) {
            Some(k) => {
                let line = &data[s..s + k];
                self.whole_line(&line[..line.len().min(LINE_CAP)], base + s as u64);
                s + k + 1
            }
            None => {
                let rest = &data[s..];
                self.line = Some((rest[..rest.len().min(LINE_CAP)].to_vec(), base + s as u64));
                data.len()
            }
        }
    }

    /// One line (without its LF, at most [`LINE_CAP`] bytes of it) at raw
    /// offset `at`.
    fn whole_line(&mut self, line: &[u8], at: u64) {
        let prev_empty = std::mem::replace(&mut self.prev_empty, empty_line(line));
        match self.mode {
            Mode::Start => {
                if opens_message(line) {
                    self.begin(line, at);
                } else {
                    self.mode = Mode::Text;
                }
            }
            Mode::Text => {
                if prev_empty && line.starts_with(b"From ") {
                    self.begin(line, at);
                }
            }
            Mode::Probe => self.probe_line(line, at, prev_empty),
            Mode::Header => {
                if empty_line(line) {
                    if !self.decided && self.collector.wants_part_charset() {
                        self.mode = Mode::Probe;
                        self.probe_start = at;
                        self.probe_type = None;
                        return;
                    }
                    if self.decided {
                        // Past the window: the text after the header takes
                        // all of it.
                        let mut start = Start::new(at);
                        start.values = Some(self.collector.take_values());
                        self.starts.push_back(start);
                    }
                    self.end_header(true);
                    self.mode = Mode::Text;
                } else {
                    if !self.decided && at - self.header_start > WINDOW {
                        self.end_header(false);
                    }
                    self.collector.line(line);
                }
            }
        }
    }

    /// A line of the body while the first text part's `Content-Type` is
    /// looked for ([`Mode::Probe`]).
    fn probe_line(&mut self, line: &[u8], at: u64, prev_empty: bool) {
        if let Some(mut value) = self.probe_type.take() {
            if matches!(line.first(), Some(b' ' | b'\t')) {
                let room = LINE_CAP.saturating_sub(value.len());
                value.extend_from_slice(&line[..line.len().min(room)]);
                self.probe_type = Some(value);
                return;
            }
            if self.probe_type_read(&value) {
                return self.text_line(line, at, prev_empty);
            }
        }
        if (prev_empty && line.starts_with(b"From ")) || at - self.probe_start > WINDOW {
            self.end_probe(None);
            return self.text_line(line, at, prev_empty);
        }
        const NAME: &[u8] = b"content-type:";
        if line.len() >= NAME.len() && line[..NAME.len()].eq_ignore_ascii_case(NAME) {
            self.probe_type = Some(line[NAME.len()..].to_vec());
        }
    }

    /// A part's `Content-Type` read while probing: when it is a text
    /// part's, its charset is the message's and the probe ends (returns
    /// true).
    fn probe_type_read(&mut self, value: &[u8]) -> bool {
        let v = value.strip_suffix(b"\r").unwrap_or(value);
        let t = v
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(v.len());
        if !v[t..]
            .get(..5)
            .is_some_and(|p| p.eq_ignore_ascii_case(b"text/"))
        {
            return false;
        }
        self.end_probe(crate::params::charset(v));
        true
    }

    /// The probe ends: the header is decided with `charset` as its first
    /// text part's, and the body is read as text.
    fn end_probe(&mut self, charset: Option<crate::charset::Charset>) {
        self.collector.set_part_charset(charset);
        self.probe_type = None;
        self.end_header(true);
        self.mode = Mode::Text;
    }

    /// Ends a probe still going (a message starts, or the input ends): the
    /// `Content-Type` being read is judged as it stands.
    fn settle_probe(&mut self) {
        if self.mode != Mode::Probe {
            return;
        }
        if let Some(value) = self.probe_type.take() {
            self.probe_type_read(&value);
        }
        if self.mode == Mode::Probe {
            self.end_probe(None);
        }
    }

    /// `line` read as a line of text (after a probe ended).
    fn text_line(&mut self, line: &[u8], at: u64, prev_empty: bool) {
        if prev_empty && line.starts_with(b"From ") {
            self.begin(line, at);
        }
    }

    /// A message starts at `at` with `line`.
    fn begin(&mut self, line: &[u8], at: u64) {
        self.settle_probe();
        if self.mode == Mode::Header && !self.decided {
            self.end_header(true);
        }
        self.mode = Mode::Header;
        self.header_start = at;
        self.decided = false;
        self.collector.reset();
        self.starts.push_back(Start::new(at));
        if let Some(log) = &mut self.log {
            log.push(at);
        }
        if line.starts_with(b"From ") {
            self.collector.mbox_line(line);
        } else {
            self.collector.line(line);
        }
    }

    /// The header is read (`complete`: its values are taken, the
    /// metadata made when asked) or past its window (made of what is read
    /// so far, at once): its info is decided.
    fn end_header(&mut self, complete: bool) {
        if self.decided {
            return;
        }
        self.decided = true;
        if let Some(last) = self.starts.back_mut() {
            if complete {
                last.info = None;
                last.shared = OnceLock::new();
                last.values = Some(self.collector.take_values());
            } else {
                last.set(self.collector.info());
            }
        }
    }

    /// Ends the input.
    pub fn finish(&mut self) {
        if let Some((line, at)) = self.line.take() {
            self.whole_line(&line, at);
        }
        self.settle_probe();
        if self.mode == Mode::Header {
            self.end_header(true);
        }
    }

    /// The start of the message whose header is still being read, while
    /// what it gives is not decided: a match at or after it must wait.
    pub fn undecided(&self) -> Option<u64> {
        (matches!(self.mode, Mode::Header | Mode::Probe) && !self.decided)
            .then_some(self.header_start)
    }

    /// The metadata of the message holding raw offset `at` (one before
    /// [`MessageTracker::undecided`], and not forgotten).
    pub fn lookup(&self, at: u64) -> Option<&Arc<MessageInfo>> {
        // Most lookups are in the first message kept (what is before the
        // caller is forgotten) or in the last one.
        if let Some(last) = self.starts.back() {
            if last.at <= at {
                return last.info();
            }
        }
        if let (Some(first), Some(second)) = (self.starts.front(), self.starts.get(1)) {
            if first.at <= at && at < second.at {
                return first.info();
            }
        }
        let i = self.starts.partition_point(|s| s.at <= at);
        match i {
            0 => self.before.as_ref().and_then(Start::info),
            _ => self.starts[i - 1].info(),
        }
    }

    /// [`MessageTracker::lookup`] for a caller that may change it.
    fn lookup_mut(&mut self, at: u64) -> Option<&Arc<MessageInfo>> {
        let first = |s: &VecDeque<Start>| match (s.front(), s.get(1)) {
            (Some(a), Some(b)) => a.at <= at && at < b.at,
            _ => false,
        };
        // As in `lookup`: the first message kept, or the last.
        let start = match self.starts.back() {
            Some(last) if last.at <= at => self.starts.back_mut(),
            _ if first(&self.starts) => self.starts.front_mut(),
            _ => match self.starts.partition_point(|s| s.at <= at) {
                0 => self.before.as_mut(),
                i => self.starts.get_mut(i - 1),
            },
        };
        start.and_then(Start::info_mut)
    }

    /// No offset before `at` is looked up any more.
    pub fn forget(&mut self, at: u64) {
        while self.starts.len() > 1 && self.starts[1].at <= at {
            if let Some(start) = self.starts.pop_front() {
                if let Some(values) = self.before.replace(start).and_then(|b| b.values) {
                    self.collector.recycle(values);
                }
            }
        }
    }

    /// The metadata from raw offset `from` to what is fed, for matches
    /// looked up apart from the tracker (another thread): a header still
    /// being read gives what is read of it so far. Forgets what is before
    /// the end.
    pub fn map(&mut self, from: u64) -> MessageMap {
        let first = self.lookup(from).cloned();
        let mut starts: Vec<(u64, Option<Arc<MessageInfo>>)> = self
            .starts
            .iter()
            .filter(|s| s.at > from)
            .map(|s| (s.at, s.info().cloned()))
            .collect();
        if let Some(s) = self.undecided() {
            let partial = self.collector.info();
            match starts.last_mut() {
                Some(last) if last.0 == s => last.1 = partial,
                _ => starts.push((s.max(from), partial)),
            }
        }
        self.forget(self.fed);
        MessageMap { first, starts }
    }
}

/// Which message's metadata holds where, for one stretch of an input
/// (from [`MessageTracker::map`]).
#[derive(Clone, Debug, Default)]
pub struct MessageMap {
    first: Option<Arc<MessageInfo>>,
    starts: Vec<(u64, Option<Arc<MessageInfo>>)>,
}

impl MessageMap {
    /// The metadata of the message holding raw offset `at`.
    pub fn lookup(&self, at: u64) -> Option<&Arc<MessageInfo>> {
        let i = self.starts.partition_point(|&(s, _)| s <= at);
        match i {
            0 => self.first.as_ref(),
            _ => self.starts[i - 1].1.as_ref(),
        }
    }
}

/// A tracker and the matches waiting for their message's header: what a
/// stream front end puts between its scanner and its caller.
#[derive(Debug)]
pub(crate) struct Attach {
    pub tracker: MessageTracker,
    held: VecDeque<Match>,
}

impl Attach {
    pub fn new(fields: Fields) -> Attach {
        Attach {
            tracker: MessageTracker::new(fields),
            held: VecDeque::new(),
        }
    }

    /// Hands `m` on with its message's metadata, or holds it (with what
    /// is held) until its header is read.
    pub fn take(&mut self, m: &mut Match, each: &mut dyn FnMut(&mut Match)) {
        let wait = self.tracker.undecided().is_some_and(|s| m.offset() >= s);
        if wait || !self.held.is_empty() {
            self.held.push_back(m.clone());
            return;
        }
        // Matches come in order: the messages before this one are done.
        self.tracker.forget(m.offset());
        m.message = self.tracker.lookup_mut(m.offset()).cloned();
        each(m);
    }

    /// Hands on the held matches that can go now (all after the input's
    /// end), and forgets what is before `floor`.
    pub fn release(&mut self, floor: u64, each: &mut dyn FnMut(&mut Match)) {
        while let Some(m) = self.held.front() {
            if self.tracker.undecided().is_some_and(|s| m.offset() >= s) {
                break;
            }
            let Some(mut m) = self.held.pop_front() else {
                break;
            };
            m.message = self.tracker.lookup_mut(m.offset()).cloned();
            each(&mut m);
        }
        let floor = self.held.front().map_or(floor, |m| floor.min(m.offset()));
        self.tracker.forget(floor);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::DateSource;
    use crate::message::{decode_words, VALUE_CAP};
    use memchr::memmem;

    /// The metadata at each offset, the input fed in chunks cut at `cuts`.
    fn infos(input: &[u8], cuts: &[usize]) -> Vec<Option<Arc<MessageInfo>>> {
        let mut t = MessageTracker::new(Fields::ALL);
        let mut from = 0;
        for &c in cuts.iter().chain([input.len()].iter()) {
            t.feed(&input[from..c]);
            from = c;
        }
        t.finish();
        (0..input.len() as u64)
            .map(|o| t.lookup(o).cloned())
            .collect()
    }

    fn at<'a>(
        all: &'a [Option<Arc<MessageInfo>>],
        input: &[u8],
        needle: &[u8],
    ) -> Option<&'a MessageInfo> {
        all[memmem::find(input, needle).unwrap()].as_deref()
    }

    const MBOX: &[u8] = b"From a@b Tue Jan 12 14:02:11 1993\nSubject: first\nMessage-ID: <1@a>\nNewsgroups: comp.mail.misc, news.admin\n\nbody <http://a/>\n\nFrom c@d Wed Jan 13 10:00:00 1993\nmessage-id:\n  <2@c>\nsubject: =?utf-8?q?caf=C3=A9?=\n\tsecond line\n\nbody2\nFrom not a start\n\nFrom e@f Thu Jan 14 00:00:00 1993\nDate: Fri, 15 Jan 93 09:30 GMT\n\nbody3\n";

    #[test]
    fn mbox_messages_and_their_fields() {
        let all = infos(MBOX, &[]);
        let one = at(&all, MBOX, b"body <").unwrap();
        assert_eq!(one.message_id(), Some("<1@a>"));
        assert_eq!(one.subject(), Some(&b"first"[..]));
        let groups: Vec<&str> = one.newsgroups().unwrap().iter().map(|g| &**g).collect();
        assert_eq!(groups, ["comp.mail.misc", "news.admin"]);
        let (t, s) = one.date().unwrap();
        assert_eq!(
            (t.to_string().as_str(), s),
            ("1993-01-12T14:02:11Z", DateSource::FromLine)
        );
        let two = at(&all, MBOX, b"body2").unwrap();
        assert_eq!(two.message_id(), Some("<2@c>"));
        assert_eq!(two.subject_lossy().unwrap(), "café\tsecond line");
        assert_eq!(two.newsgroups(), None);
        // A `From ` line after a non-empty line starts nothing.
        assert_eq!(at(&all, MBOX, b"From not"), Some(two));
        let three = at(&all, MBOX, b"body3").unwrap();
        assert_eq!(three.date().unwrap().1, DateSource::Date);
        assert_eq!(three.date().unwrap().0.to_string(), "1993-01-15T09:30:00Z");
        // The header lines of a message are its own too.
        assert_eq!(at(&all, MBOX, b"Subject: first"), Some(one));
    }

    #[test]
    fn list_id_when_asked_for() {
        let mail = b"From a@b Tue Jan 12 14:02:11 1993\nList-Id: Gopher news\n  <gopher-news.lists.example.edu>\nLines: 3\n\nbody\n\nFrom c@d Wed Jan 13 10:00:00 1993\nlist-id: plain.example.org \n\nbody2\n";
        let info = |fields, needle: &[u8]| {
            let mut t = MessageTracker::new(fields);
            t.feed(mail);
            t.finish();
            t.lookup(memmem::find(mail, needle).unwrap() as u64)
                .cloned()
        };
        let one = info(Fields::LIST_ID, b"body\n").unwrap();
        assert_eq!(one.list_id(), Some("gopher-news.lists.example.edu"));
        let two = info(Fields::LIST_ID | Fields::DATE, b"body2").unwrap();
        assert_eq!(two.list_id(), Some("plain.example.org"));
        // Not asked for: not read.
        assert_eq!(info(Fields::ALL, b"body\n").unwrap().list_id(), None);
    }

    #[test]
    fn every_cut_gives_the_same_metadata() {
        let whole = infos(MBOX, &[]);
        for c in 0..=MBOX.len() {
            assert_eq!(infos(MBOX, &[c]), whole, "cut at {c}");
        }
        let bytes: Vec<usize> = (1..MBOX.len()).collect();
        assert_eq!(infos(MBOX, &bytes), whole);
    }

    #[test]
    fn a_raw_subject_takes_the_first_text_part_s_charset_at_every_cut() {
        let mbox = b"From a@b Tue Jan 12 14:02:11 1993\nSubject: \xa4\xa4\xa4\xe5\nContent-Type: multipart/mixed; boundary=X\n\npreamble <http://a/>\n--X\nContent-Type: multipart/alternative;\n boundary=Y\n\n--Y\nContent-Type: text/plain;\n\tcharset=\"big5\"\n\nbody <http://b/>\n--Y--\n--X--\n\nFrom c@d Tue Jan 12 14:02:11 1993\nSubject: \xa4\xa4\n\nno charset\n";
        let whole = infos(mbox, &[]);
        let first = at(&whole, mbox, b"preamble").unwrap();
        #[cfg(feature = "charsets")]
        assert_eq!(first.subject_lossy().unwrap(), "中文");
        assert_eq!(at(&whole, mbox, b"body <"), Some(first));
        assert_eq!(
            at(&whole, mbox, b"no charset").unwrap().subject(),
            Some(&b"\xa4\xa4"[..])
        );
        for c in 0..=mbox.len() {
            assert_eq!(infos(mbox, &[c]), whole, "cut at {c}");
        }
        let bytes: Vec<usize> = (1..mbox.len()).collect();
        assert_eq!(infos(mbox, &bytes), whole);
    }

    #[test]
    fn a_news_article_and_text_that_is_no_message() {
        let news = b"Path: a!b\nNewsgroups: comp.infosystems.www\nPosted: Tue Jan 12 14:02:11 1993\nSubject: Re: WWW\n\n<http://info.cern.ch/>\n";
        let all = infos(news, &[]);
        let a = at(&all, news, b"<http").unwrap();
        assert_eq!(a.date().unwrap().1, DateSource::Posted);
        assert_eq!(a.newsgroups().unwrap().len(), 1);
        let text = b"Just text\n\n<http://a/>\n";
        assert!(infos(text, &[]).iter().all(Option::is_none));
        // Text first, then an mbox message after an empty line.
        let later = b"notes\n\nFrom x Tue Jan 12 14:02:11 1993\nSubject: s\n\n<http://a/>\n";
        let all = infos(later, &[]);
        assert_eq!(all[0], None);
        assert_eq!(
            at(&all, later, b"<http").unwrap().subject(),
            Some(&b"s"[..])
        );
    }

    #[test]
    fn a_header_larger_than_the_window_costs_bounded_memory() {
        let mut big = b"From x Tue Jan 12 14:02:11 1993\nSubject: early\n".to_vec();
        while big.len() < 3 * WINDOW as usize {
            big.extend_from_slice(b"Received: from somewhere by elsewhere; a long line of it\n");
        }
        big.extend_from_slice(
            b"Message-ID: <late@x>\nDate: Mon, 1 Feb 1993 00:00:00 +0000\n\n<http://a/>\n",
        );
        let mut t = MessageTracker::new(Fields::ALL);
        for c in big.chunks(1000) {
            t.feed(c);
            assert!(t.line.as_ref().map_or(0, |l| l.0.capacity()) <= 2 * LINE_CAP);
        }
        t.finish();
        let info = t.lookup(big.len() as u64 - 3).unwrap();
        // The body takes the whole header; the header past the window
        // what was read by then.
        assert_eq!(info.subject(), Some(&b"early"[..]));
        assert_eq!(info.message_id(), Some("<late@x>"));
        assert_eq!(info.date().unwrap().1, DateSource::Date);
        let late = t
            .lookup(memmem::find(&big, b"Message-ID").unwrap() as u64)
            .unwrap();
        assert_eq!(late.subject(), Some(&b"early"[..]));
        assert_eq!(
            (late.message_id(), late.date().unwrap().1),
            (None, DateSource::FromLine)
        );
        // A long value is capped.
        let mut long = b"Subject: ".to_vec();
        long.resize(10 * VALUE_CAP, b'x');
        long.extend_from_slice(b"\n\n");
        let mut t = MessageTracker::new(Fields::SUBJECT);
        t.feed(&long);
        t.finish();
        assert_eq!(t.lookup(0).unwrap().subject().unwrap().len(), VALUE_CAP - 1);
    }

    #[test]
    fn message_starts_are_forgotten() {
        let msg = b"From x Tue Jan 12 14:02:11 1993\nMessage-ID: <m@x>\n\nhello\n\n";
        let mut t = MessageTracker::new(Fields::MESSAGE_ID);
        for _ in 0..10_000 {
            t.feed(msg);
            t.forget(t.fed());
            assert!(t.starts.len() <= 2);
        }
    }

    #[test]
    fn encoded_words() {
        let d = |s: &[u8]| decode_words(s);
        assert_eq!(
            d(b"=?ISO-8859-1?Q?Andr=E9_Pirard?="),
            "André Pirard".as_bytes()
        );
        assert_eq!(d(b"=?UTF-8?B?w6lsw6h2ZQ==?="), "élève".as_bytes());
        // Blanks between adjacent words go, others stay.
        assert_eq!(d(b"=?us-ascii?q?a?= \t =?us-ascii?q?b?= c"), b"ab c");
        assert_eq!(d(b"x =?us-ascii?q?a?="), b"x a");
        // Another charset, a bad encoding, a malformed word: as written.
        assert_eq!(d(b"=?x-unknown?Q?=F0?="), b"=?x-unknown?Q?=F0?=");
        #[cfg(feature = "charsets")]
        assert_eq!(d(b"=?KOI8-R?Q?=F0?="), "П".as_bytes());
        assert_eq!(d(b"=?utf-8?X?abc?="), b"=?utf-8?X?abc?=");
        assert_eq!(d(b"=?utf-8?Q?a b?="), b"=?utf-8?Q?a b?=");
        assert_eq!(d(b"=?utf-8?B?@@@?="), b"=?utf-8?B?@@@?=");
        // Bytes that are not UTF-8 stay as they are, reversibly.
        assert_eq!(d(b"=?utf-8?Q?=FF?= \xe9t\xe9"), b"\xff \xe9t\xe9");
        let mail = b"Subject: caf\xe9 =?utf-8?Q?=E2=82=AC?=\n\n<http://a/>\n";
        let found = crate::Scanner::new().fields(Fields::SUBJECT).extract(mail);
        assert_eq!(
            found[0].message().unwrap().subject(),
            Some(&b"caf\xe9 \xe2\x82\xac"[..])
        );
    }

    #[test]
    fn forwarded_message_gets_its_own_metadata() {
        let mail = b"From: a\nSubject: outer\nContent-Type: multipart/mixed; boundary=XX\n\n--XX\nContent-Type: text/plain\n\n<http://outer.example/>\n--XX\nContent-Type: message/rfc822\n\nSubject: inner <http://in-header.example/>\nDate: Tue, 12 Jan 1993 14:02:11 +0100\nMessage-ID: <in@x>\n\n<http://inner.example/>\n--XX--\n";
        for fields in [Fields::ALL, Fields::SUBJECT] {
            let found = crate::Scanner::new().fields(fields).extract(mail);
            let subj: Vec<_> = found
                .iter()
                .map(|m| {
                    m.message()
                        .and_then(|i| i.subject_lossy())
                        .unwrap()
                        .into_owned()
                })
                .collect();
            assert_eq!(subj[0], "outer");
            assert_eq!(subj[1], "inner <http://in-header.example/>");
            assert_eq!(subj[2], subj[1]);
            assert_eq!(found[2].forwarded_message_id(), Some("<in@x>"));
        }
        let found = crate::Scanner::new().fields(Fields::DATE).extract(mail);
        assert_eq!(
            found[2].message().unwrap().date().unwrap().0.to_string(),
            "1993-01-12T13:02:11Z"
        );
        // The raw reading knows the top-level message only.
        let raw = crate::Scanner::new()
            .mime(false)
            .fields(Fields::ALL)
            .extract(mail);
        assert!(raw
            .iter()
            .all(|m| m.message().unwrap().subject() == Some(&b"outer"[..])));
        // No fields asked: nothing but the forwarded id.
        let none = crate::Scanner::new().extract(mail);
        assert!(none[0].message().is_none());
        assert_eq!(none[2].message().unwrap().subject(), None);
        assert_eq!(none[2].forwarded_message_id(), Some("<in@x>"));
    }

    #[test]
    fn fields_parse() {
        assert_eq!("".parse::<Fields>(), Ok(Fields::NONE));
        assert_eq!(
            "Date, message-id".parse::<Fields>(),
            Ok(Fields::DATE | Fields::MESSAGE_ID)
        );
        assert_eq!(
            "date,newsgroups,subject,message-id".parse::<Fields>(),
            Ok(Fields::ALL)
        );
        assert!("from"
            .parse::<Fields>()
            .unwrap_err()
            .to_string()
            .contains("from"));
    }
}
