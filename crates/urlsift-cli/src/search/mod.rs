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

use crate::args::Config;
use crate::printer::{InputName, Printer, Recs};
use crate::walk::{Entry, Walker};
use std::io::{self, IsTerminal, Write};
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use urlsift::Scanner;

mod input;
mod live;
mod order;
mod pieces;
mod sched;
mod split;
#[cfg(test)]
mod tests;
mod unit;

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
    let start = Instant::now();
    if let Some(n) = cfg.piece_size {
        set_piece(n);
    }
    let walker = Walker::new(&cfg.paths).globs(cfg.globs.clone());
    let show = cfg
        .with_filename
        .unwrap_or(walker.had_dir() || cfg.paths.len() > 1);
    // Inputs are numbered and named as the walk yields them.
    let inputs = walker.enumerate().map(|(i, entry)| match entry {
        Entry::Error(msg) => Err((i, msg)),
        entry => Ok(Arc::new(Input::new(i, entry, show))),
    });
    let printer = Printer::new(&cfg);
    let stdout = io::stdout();
    let out: Box<dyn Write + Send> = if stdout.is_terminal() || cfg.line_buffered {
        Box::new(io::LineWriter::new(stdout))
    } else {
        Box::new(io::BufWriter::with_capacity(64 * 1024, stdout))
    };
    let mut sink = Sink::new(out, &printer);
    let scanner = Scanner::new()
        .policy(cfg.policy)
        .limits(cfg.limits)
        .rejected(cfg.invalid)
        .mime(!cfg.raw)
        .naked(cfg.naked);
    let stop = AtomicBool::new(false);
    let ctx = Ctx {
        scanner,
        printer: &printer,
        msgs: cfg.needs_message_id(),
        stop: &stop,
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
        };
        Input { index, entry, name }
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
                sink.chunk(Chunk::failed(i, msg))?;
                continue;
            }
            Ok(input) => input,
        };
        let i = input.index;
        let res = match input_reader(&input.entry) {
            Err(err) => Err(Fail::Read(err)),
            Ok(r) => search_stream(r, ctx, &input.name, &mut |recs, bytes, _| {
                sink.chunk(Chunk {
                    input: i,
                    name: None,
                    last: false,
                    bytes,
                    body: recs,
                    error: None,
                    piece_lines: None,
                })
            }),
        };
        let error = match res {
            Err(Fail::Write(w)) => return Err(w),
            Err(Fail::Read(err)) => Some(read_message(&input.entry, &err)),
            Ok(()) => None,
        };
        sink.chunk(Chunk {
            input: i,
            name: Some(input),
            last: true,
            bytes: 0,
            body: Recs::default(),
            error,
            piece_lines: None,
        })?;
    }
    Ok(())
}
