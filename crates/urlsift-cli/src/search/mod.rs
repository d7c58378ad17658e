//! The per-input driver and the parallel scheduler of the `urlsift`
//! command.
//!
//! Every input is read with `read()` into reused buffers, in pieces of
//! about [`PIECE`] bytes cut at a line start (just after a blank line when
//! there is one, so a mail header block is never cut; inside a line only
//! when a line is longer than a piece, with a
//! [`PieceContext`](urlsift::PieceContext)), each carrying the lookahead
//! its last candidates may need (at most
//! [`Limits::max_bytes`](urlsift::Limits), only as far as `max_lines` lines
//! reach), and scanned with [`Scanner::scan_piece_each`], formatting as it
//! goes. A live input (a pipe, a FIFO, a terminal) is searched each time it
//! pauses (see `live`).
//!
//! One thread: one sequential pass per input, output written piece by
//! piece. Several threads: the scheduling thread is one of the rayon pool's
//! own, takes the inputs as the walk lists them, and hands out units of
//! work in input order: batches of files; the ranges of a large plain
//! file, which the pool's threads read (positional reads) and search at
//! once, each range starting at a line start both neighbours find alone
//! (see `boundary`); the pieces of a stream (stdin, `.gz`, or any large
//! file when Message-IDs are wanted), which the scheduler reads in order.
//! Files a directory listing calls regular are batched without a `stat`
//! (a `stat` per news article cost 3% of the time). A batch that finds a
//! large file on its first read hands it back to the scheduler, with the
//! files after it, to be split into ranges; one that finds a file over a
//! piece starts the files after it as another batch first. That work is
//! numbered after the batch's own (see `Key`). Units run first in, first
//! out; whoever finishes the next unit in order writes it and the finished
//! ones after it, adding the line numbers of the units before (a unit
//! numbers its lines from its own start), so the output is byte-identical
//! to one thread. Only the scheduler waits for room (`Flow`): a bounded
//! number of units is in flight and piece buffers are recycled, so memory
//! stays flat.
//!
//! Archives (see `archive`): a zip's members become units the way a large
//! file's ranges do (groups of consecutive members, in directory order);
//! a tar, or an archive inside a stream, is one unit read in order.

use crate::args::{Config, Mode};
use crate::globs::Globs;
use crate::input::pathlist::PathList;
use crate::input::ArchiveOpts;
use crate::printer::{InputName, Printer};
use crate::walk::{Entry, Walker};
use std::io::{self, IsTerminal, Write};
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use urlsift::Scanner;

mod archive;
mod held;
mod input;
mod live;
mod order;
mod pieces;
mod sched;
mod split;
#[cfg(test)]
mod tests;
mod unit;

use archive::*;
use held::*;
use input::*;
use order::*;
use pieces::*;
use sched::*;
use split::*;
use unit::*;

/// What the search of one input needs.
#[derive(Clone, Copy)]
pub(super) struct Ctx<'a> {
    pub(super) scanner: Scanner,
    pub(super) printer: &'a Printer,
    pub(super) msgs: bool,
    pub(super) stop: &'a AtomicBool,
    /// How compressed inputs and archives are read.
    pub(super) opts: &'a ArchiveOpts,
    /// Whether archive members are named before their matches (unless
    /// `--no-filename`: an archive holds many).
    pub(super) member_show: bool,
    /// `--glob`, which archive members are also held to.
    pub(super) globs: &'a Globs,
}

impl Ctx<'_> {
    /// Whether a large file must be read in order, not split among
    /// threads: the raw reading's messages are tracked apart from the
    /// scanning, from the input's start. The MIME reading splits a file
    /// only at message starts, where its own framing starts anew.
    pub(super) fn in_order(&self) -> bool {
        self.msgs && !self.scanner.get_mime()
    }
}

pub(super) enum Fail {
    Read(io::Error),
    Write(io::Error),
}

/// Runs the command; returns the exit status.
pub fn run(cfg: Config) -> i32 {
    if cfg.parse {
        return crate::parse::run_parse(&cfg);
    }
    let stdout = io::stdout();
    let out: Box<dyn Write + Send> = if stdout.is_terminal() || cfg.line_buffered {
        Box::new(io::LineWriter::new(stdout))
    } else {
        Box::new(io::BufWriter::with_capacity(64 * 1024, stdout))
    };
    search(&cfg, out)
}

/// Searches the inputs of `cfg`, writing the output to `out` (standard
/// output, or the picker's reader); returns the exit status.
pub fn search(cfg: &Config, out: Box<dyn Write + Send>) -> i32 {
    let start = Instant::now();
    if let Some(n) = cfg.piece_size {
        set_piece(n);
    }
    let walker = match &cfg.list {
        None => Walker::new(&cfg.paths),
        Some(list) => match PathList::open(&list.path, list.end) {
            Ok(list) => Walker::with_list(&cfg.paths, list),
            Err(msg) => {
                eprintln!("{msg}");
                return 2;
            }
        },
    }
    .globs(cfg.globs.clone());
    // A path list names many files, as a directory does.
    let show = cfg
        .with_filename
        .unwrap_or(walker.had_dir() || cfg.paths.len() > 1 || cfg.list.is_some());
    // Inputs are numbered and named as the walk yields them.
    let inputs = walker.enumerate().map(|(i, entry)| match entry {
        Entry::Error(msg) => Err((i, msg)),
        entry => Ok(Arc::new(Input::new(i, entry, show))),
    });
    let printer = Printer::new(cfg);
    let mut sink = Sink::new(out, &printer);
    if cfg.report.is_some() {
        sink.progress = crate::progress::Progress::start(&cfg.paths);
    }
    let scanner = Scanner::new()
        .policy(cfg.policy)
        .limits(cfg.limits)
        .rejected(cfg.invalid)
        .mime(!cfg.raw)
        .html(cfg.html)
        .naked(cfg.naked)
        .fields(cfg.compute)
        // Only `--json` prints links' texts.
        .anchor_text(cfg.json || cfg.pick.is_some())
        // The outputs that read each URL's parts (JSON's fields, the normal
        // form `-u` and `--tally` compare, the picker's) take the
        // scanner's parse rather than parse again.
        .keep_parse(
            cfg.json || cfg.unique || cfg.pick.is_some() || matches!(cfg.mode, Mode::Tally(_)),
        );
    let stop = AtomicBool::new(false);
    let ctx = Ctx {
        scanner,
        printer: &printer,
        msgs: cfg.needs_messages(),
        stop: &stop,
        opts: &cfg.archive,
        member_show: cfg.with_filename.unwrap_or(true),
        globs: &cfg.globs,
    };
    let result = if cfg.threads <= 1 {
        run_sequential(inputs, ctx, &mut sink)
    } else {
        run_parallel(inputs, ctx, &mut sink, cfg.threads)
    }
    .and_then(|_| sink.finish());
    let mut code = if sink.stats.matches > 0 { 0 } else { 1 };
    if sink.failed.is_some() {
        code = 2;
    }
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return 0,
        Err(e) => {
            crate::warn(format_args!("urlsift: writing output: {e}"));
            code = 2;
        }
        Ok(()) => {}
    }
    if cfg.stats {
        let secs = start.elapsed().as_secs_f64();
        let s = sink.stats;
        crate::warn(format_args!(
            "urlsift: {} files, {} bytes, {} matches, {:.3} s, {:.1} MB/s",
            s.files,
            s.bytes,
            s.matches,
            secs,
            s.bytes as f64 / 1e6 / secs.max(1e-9)
        ));
    }
    code
}

/// One input to search, numbered in walk order, with its name as printed.
struct Input {
    index: usize,
    entry: Entry,
    name: InputName,
}

impl Input {
    pub(super) fn new(index: usize, entry: Entry, show: bool) -> Input {
        let name = InputName {
            display: match &entry {
                Entry::File { path, .. } => path.as_os_str().as_bytes().to_vec(),
                _ => b"(standard input)".to_vec(),
            },
            stdin: matches!(entry, Entry::Stdin),
            show,
            member_at: None,
            escaped: Default::default(),
            json: Default::default(),
        };
        Input { index, entry, name }
    }

    /// The member `names` of this archive input (nested: one name per
    /// archive), named `input{name}{name}`.
    pub(super) fn member(&self, names: &[Vec<u8>], show: bool) -> Input {
        let mut display = self.name.display.clone();
        for n in names {
            display.push(b'{');
            display.extend_from_slice(n);
            display.push(b'}');
        }
        let name = InputName {
            display,
            stdin: self.name.stdin,
            show: if names.is_empty() {
                self.name.show
            } else {
                show
            },
            member_at: (!names.is_empty()).then_some(self.name.display.len()),
            escaped: Default::default(),
            json: Default::default(),
        };
        Input {
            index: self.index,
            entry: self.entry.clone(),
            name,
        }
    }
}

/// The inputs as the walk yields them: a numbered error entry, or an input.
type Item = Result<Arc<Input>, (usize, String)>;

fn run_sequential(
    inputs: impl Iterator<Item = Item>,
    ctx: Ctx<'_>,
    sink: &mut Sink<'_>,
) -> io::Result<()> {
    for item in inputs {
        let input = match item {
            Err((i, msg)) => {
                sink.chunk(Chunk::failed(i, Some(msg)))?;
                continue;
            }
            Ok(input) => input,
        };
        let mut emit = |c| sink.chunk(c);
        match start(&input, ctx) {
            Ok(started) => search_input(&input, started, ctx, &mut emit)?,
            Err(opened) => search_archive(&input, opened, ctx, &mut emit)?,
        }
    }
    Ok(())
}
