//! Ordered output: units written in input order whoever finishes them, and the sink that writes.

use crate::args::Mode;
use crate::printer::{count_report, write_report, Printer, Recs, Tally};
use std::collections::{BTreeMap, HashSet};
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::*;

/// Writes chunks in order: unique filtering, counts, error messages.
pub(super) struct Sink<'a> {
    pub(super) out: Box<dyn Write + Send>,
    pub(super) printer: &'a Printer,
    pub(super) seen: HashSet<String>,
    /// The last input (and member) whose error was reported.
    pub(super) failed: Option<(usize, u64)>,
    pub(super) cur_input: (usize, u64),
    /// The inputs (members apart) met so far: the tally names each by it.
    pub(super) unit: usize,
    pub(super) cur_count: u64,
    pub(super) cur_lines: u64,
    pub(super) stats: Stats,
    pub(super) buf: Vec<u8>,
    /// With `--tally`: the URLs counted, written at the end.
    pub(super) tally: Option<Tally>,
    /// With context lines: whether an input has written some, and whether
    /// the current one has (`--` goes between inputs).
    pub(super) wrote: (bool, bool),
    /// With `--report`: the derivatives of the URLs written so far.
    pub(super) report: Option<Box<urlsift_report::Derivatives>>,
    /// With `--report` on a terminal: the progress bar.
    pub(super) progress: Option<crate::progress::Progress>,
}

impl<'a> Sink<'a> {
    pub(super) fn new(out: Box<dyn Write + Send>, printer: &'a Printer) -> Sink<'a> {
        Sink {
            out,
            printer,
            seen: HashSet::new(),
            failed: None,
            cur_input: (usize::MAX, 0),
            unit: 0,
            cur_count: 0,
            cur_lines: 0,
            stats: Stats::default(),
            buf: Vec::new(),
            tally: printer.new_tally(),
            wrote: (false, false),
            report: None,
            progress: None,
        }
    }

    /// Writes what is written at the end (the tally) and flushes.
    pub(super) fn finish(&mut self) -> io::Result<()> {
        if let Some(t) = &self.tally {
            t.write(&mut self.out)?;
        }
        if let Some(p) = &self.progress {
            p.finish();
        }
        if let Some(dir) = self.printer.report_dir() {
            write_report(dir, self.report.take())?;
        }
        self.out.flush()
    }

    /// Writes `r`, its relative line numbers moved by `base`.
    pub(super) fn write_recs(&mut self, mut r: Recs, base: u64) -> io::Result<()> {
        count_report(&mut self.report, r.report.take());
        let n = if self.printer.keyed() {
            r.shift_lines(base);
            self.buf.clear();
            // -m: what the input may still print.
            let room = self
                .printer
                .max_count()
                .map_or(u64::MAX, |m| m.saturating_sub(self.cur_count));
            let mut start = 0;
            let mut n = 0;
            for (k, end) in r.keys {
                if n >= room {
                    break;
                }
                if let Some(t) = &mut self.tally {
                    t.add(self.unit, k, &r.body[start..end]);
                    n += 1;
                } else if !self.printer.unique() || self.seen.insert(k) {
                    self.buf.extend_from_slice(&r.body[start..end]);
                    n += 1;
                }
                start = end;
            }
            if !self.buf.is_empty() {
                self.out.write_all(&self.buf)?;
            }
            n
        } else {
            if self.printer.separates_inputs() && !r.body.is_empty() {
                if self.wrote == (true, false) {
                    self.out.write_all(b"--\n")?;
                }
                self.wrote = (true, true);
            }
            if base > 0 && !r.lines.is_empty() {
                r.write_shifted(&mut self.out, base)?;
            } else if !r.body.is_empty() {
                self.out.write_all(&r.body)?;
            }
            BODIES.give(r.body);
            r.count
        };
        self.cur_count += n;
        self.stats.matches += n;
        Ok(())
    }

    pub(super) fn chunk(&mut self, c: Chunk) -> io::Result<()> {
        if (c.input, c.member) != self.cur_input {
            self.cur_input = (c.input, c.member);
            self.unit = self.unit.wrapping_add(1);
            self.wrote.1 = false;
            self.cur_count = 0;
            self.cur_lines = 0;
        }
        self.stats.bytes += c.bytes;
        if let Some(p) = &self.progress {
            p.bytes(self.stats.bytes);
        }
        let name = c.name.as_ref().map(|input| &input.name);
        let mut base = 0;
        if let Some(lines) = c.piece_lines {
            base = self.cur_lines;
            self.cur_lines += lines;
        }
        self.write_recs(c.body, base)?;
        if c.last {
            if let Some(name) = name {
                self.stats.files += 1;
                if let Some(p) = &self.progress {
                    p.files(self.stats.files);
                }
                if let Some(t) = &mut self.tally {
                    t.input_done(self.unit, name);
                }
                self.buf.clear();
                match self.printer.mode() {
                    Mode::Count => self.printer.count_line(&mut self.buf, name, self.cur_count),
                    Mode::FilesWithMatches if self.cur_count > 0 => {
                        self.printer.file_line(&mut self.buf, name)
                    }
                    _ => {}
                }
                if !self.buf.is_empty() {
                    self.out.write_all(&self.buf)?;
                }
            }
        }
        if let Some(e) = c.error {
            // One message per input, though several ranges may fail.
            if self.failed != Some((c.input, c.member)) {
                self.failed = Some((c.input, c.member));
                self.out.flush()?;
                crate::warn(format_args!("{e}"));
            }
        }
        Ok(())
    }
}

/// The output of the parallel search, put back in input order. Each unit
/// of work (a batch of small files, a range of a large file, a piece of a
/// stream) has a sequence number; whoever finishes the next unit writes
/// it, and the finished units after it. No writer thread, no hand-over:
/// on two cores a third thread costs more than the writing.
pub(super) struct Order<'s, 'a> {
    pub(super) state: Mutex<OrderState<'s, 'a>>,
    pub(super) flow: Flow,
    pub(super) stop: &'s AtomicBool,
}

pub(super) struct OrderState<'s, 'a> {
    pub(super) sink: &'s mut Sink<'a>,
    /// The unit to write next.
    pub(super) next: Key,
    /// Units waiting for the ones before them: their chunks so far and
    /// how they ended.
    pub(super) pending: BTreeMap<Key, (Vec<Chunk>, End)>,
    pub(super) result: io::Result<()>,
}

/// A unit's place in the output. The scheduler numbers its units
/// (`major`); a batch that meets a large file, or has searched enough,
/// hands the rest of its work to jobs numbered after it (`minor`), so the
/// scheduler need not `stat` every file to plan.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Key {
    pub(super) major: usize,
    pub(super) minor: usize,
}

impl Key {
    /// The scheduler's unit `major`.
    pub(super) fn unit(major: usize) -> Key {
        Key { major, minor: 0 }
    }

    /// The part after this one, within the same unit of the scheduler.
    pub(super) fn then(self) -> Key {
        Key {
            minor: self.minor + 1,
            ..self
        }
    }
}

/// How far a unit's job got when it handed over chunks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum End {
    /// More chunks of the unit follow.
    #[default]
    Open,
    /// The unit is complete; its scheduler unit goes on in [`Key::then`].
    Part,
    /// The unit is complete, and so is its scheduler unit.
    Done,
}

impl OrderState<'_, '_> {
    pub(super) fn write(&mut self, chunks: Vec<Chunk>, stop: &AtomicBool) {
        for c in chunks {
            if self.result.is_ok() {
                if let Err(e) = self.sink.chunk(c) {
                    stop.store(true, Ordering::Relaxed);
                    self.result = Err(e);
                }
            }
        }
    }
}

impl Order<'_, '_> {
    /// Hands over unit `key`'s chunks and how far it got. Frees room for
    /// one unit for each unit written whole.
    pub(super) fn commit(&self, key: Key, chunks: Vec<Chunk>, end: End) {
        let mut st = lock(&self.state);
        if st.next != key {
            let unit = st.pending.entry(key).or_default();
            unit.0.extend(chunks);
            unit.1 = end;
            return;
        }
        st.write(chunks, self.stop);
        let mut end = end;
        let mut written = 0;
        loop {
            st.next = match end {
                // The unit's job is still running and writes the rest.
                End::Open => break,
                End::Part => {
                    written += 1;
                    st.next.then()
                }
                End::Done => {
                    written += 1;
                    Key::unit(st.next.major + 1)
                }
            };
            let next = st.next;
            let Some((chunks, e)) = st.pending.remove(&next) else {
                break;
            };
            st.write(chunks, self.stop);
            end = e;
        }
        drop(st);
        if written > 0 {
            self.flow.release(written);
        }
    }

    /// Whether unit `key` is the one to write now: a job with much output
    /// then hands it over as it goes instead of holding it all.
    pub(super) fn is_next(&self, key: Key) -> bool {
        lock(&self.state).next == key
    }
}
