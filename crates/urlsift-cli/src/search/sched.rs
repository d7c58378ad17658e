//! The parallel scheduler: batches, handbacks and the flow control that
//! bounds the work in flight.
//!
//! # How work flows
//!
//! ```text
//!  walk ──► scheduler thread ──(unit, Key)──► pool jobs (FIFO) ──► Order ──► Sink ──► stdout
//!               ▲   waits on Flow                 │ handback (large file, rest of a batch)
//!               └─────────────────────────────────┘
//! ```
//!
//! Glossary: a *unit* is one job's work: a batch of small files, one range
//! of a large plain file, or one piece of a stream. Its *key* is its place
//! in the output: the scheduler numbers units (`major`), and work a batch
//! hands back is numbered after the batch (`minor`), so the scheduler need
//! not `stat` files to plan. A *part* is output a unit hands over before
//! it ends (a range with dense matches); `End` says whether more follows.
//!
//! Only the scheduler waits, for room under `Flow`'s bound on units in
//! flight; jobs never block (a job waiting inside the pool could hold up
//! the unit it waits for). Handbacks have a reserve, and the next unit to
//! write never waits, so the bound cannot deadlock.
//!
//! # Why output stays in order
//!
//! Units may finish in any order; `Order` keeps finished ones until every
//! unit before them is written, and whoever finishes the next unit writes
//! it and the finished ones after it. A unit numbers its lines from its own
//! start; the writer adds the lines of the units before. So the bytes
//! written are those of one sequential pass, at any thread count: the
//! command's tests compare `-j1` with `-j2`/`-j3` on mailboxes, trees of
//! mixed sizes, long lines and streams.

use crate::input::archive::{open_file, Opened, Zip};
use crate::walk::Entry;
use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};

use super::*;

/// Starts a batch job for unit `key` (its room taken), counted as running
/// until it ends: it may hand back.
pub(super) fn spawn_batch<'s>(
    scope: &rayon::ScopeFifo<'s>,
    inputs: Vec<Arc<Input>>,
    key: Key,
    ctx: Ctx<'s>,
    order: &'s Order<'_, '_>,
) {
    lock(&order.flow.state).batches += 1;
    scope.spawn_fifo(move |scope| {
        search_batch(inputs, key, ctx, order, scope);
        order.flow.batch_done();
    });
    // A scheduler asleep in `acquire` is a thread not stealing: wake it to
    // take the job (a batch starts one while it searches a large file).
    order.flow.cv.notify_all();
}

/// What a batch gives back to the scheduler, to be numbered from `key` on:
/// a large file met (opened, with its size) to split into ranges, then the
/// files after it as a batch.
pub(super) struct Handback {
    pub(super) key: Key,
    pub(super) large: Option<(Arc<File>, u64, Arc<Input>)>,
    /// A zip met: its members are searched as units of their own.
    pub(super) zip: Option<(Arc<Zip>, Arc<Input>)>,
    pub(super) rest: Vec<Arc<Input>>,
}

/// The bound on the work in flight, and the way back from the batches to
/// the scheduling thread. Only that thread waits here; a job never blocks
/// (a job waiting inside the pool could hold up the very unit it waits
/// for).
pub(super) struct Flow {
    pub(super) state: Mutex<FlowState>,
    pub(super) cv: Condvar,
}

pub(super) struct FlowState {
    /// Units that may still be started before one is written (below zero
    /// while the next unit to write runs without one: it holds up all the
    /// others).
    pub(super) free: isize,
    /// Of those, how many only parts of handbacks may take: the units the
    /// scheduler started ahead wait for a handback's parts, so these must
    /// not wait for them.
    pub(super) reserve: isize,
    /// Handbacks waiting for the scheduler, by key.
    pub(super) handbacks: BTreeMap<Key, Handback>,
    /// Batch jobs started and not finished: each may still hand back.
    pub(super) batches: usize,
    /// The units that may be in flight at once.
    pub(super) units: usize,
}

impl Flow {
    /// Room for `units` units, `reserve` of them kept for handbacks.
    pub(super) fn new(units: usize, reserve: usize) -> Flow {
        Flow {
            state: Mutex::new(FlowState {
                free: units as isize,
                reserve: reserve as isize,
                handbacks: BTreeMap::new(),
                batches: 0,
                units,
            }),
            cv: Condvar::new(),
        }
    }

    pub(super) fn release(&self, n: usize) {
        lock(&self.state).free += n as isize;
        self.cv.notify_all();
    }

    pub(super) fn hand_back(&self, h: Handback) {
        lock(&self.state).handbacks.insert(h.key, h);
        self.cv.notify_all();
    }

    /// Takes room for unit `key` if there is some (a job never waits).
    pub(super) fn try_start(&self, key: Key) -> bool {
        let mut st = lock(&self.state);
        let room = st.room(key);
        if room {
            st.free -= 1;
        }
        room
    }

    pub(super) fn batch_done(&self) {
        lock(&self.state).batches -= 1;
        self.cv.notify_all();
    }
}

impl FlowState {
    /// Whether unit `key` may start now: parts of handbacks (`minor` > 0)
    /// may take the reserve.
    pub(super) fn room(&self, key: Key) -> bool {
        self.free > if key.minor > 0 { 0 } else { self.reserve }
    }

    /// The first handback, if it comes before `key` in the output.
    pub(super) fn first_before(&mut self, key: Key) -> Option<Handback> {
        let (&k, _) = self.handbacks.first_key_value()?;
        if k < key {
            self.handbacks.remove(&k)
        } else {
            None
        }
    }
}

/// The scheduling thread's context: the scope to start jobs in, the order
/// they are written in, and what every search needs.
#[derive(Clone, Copy)]
pub(super) struct Sched<'r, 's, 'o, 'a> {
    pub(super) scope: &'r rayon::ScopeFifo<'s>,
    pub(super) order: &'s Order<'o, 'a>,
    pub(super) ctx: Ctx<'s>,
}

impl<'s> Sched<'_, 's, '_, '_> {
    /// Takes room for unit `key`: a free unit, or none when `key` is the
    /// next to write. Handbacks before `key` in the output are served
    /// first. While it waits the thread runs queued searches itself, so N
    /// threads means N busy cores, not N searchers plus a reader competing
    /// with them.
    pub(super) fn acquire(self, key: Key) {
        let order = self.order;
        self.wait_until(key, |st| st.room(key) || order.is_next(key))
            .free -= 1;
    }

    /// Serves the handbacks before `key` in the output until `ready`
    /// holds, running queued searches meanwhile; returns the state, locked.
    pub(super) fn wait_until(
        self,
        key: Key,
        ready: impl Fn(&FlowState) -> bool,
    ) -> std::sync::MutexGuard<'s, FlowState> {
        let flow = &self.order.flow;
        loop {
            let mut st = lock(&flow.state);
            if let Some(h) = st.first_before(key) {
                drop(st);
                if !self.ctx.stop.load(Ordering::Relaxed) {
                    self.serve(h);
                }
                continue;
            }
            if ready(&st) {
                return st;
            }
            drop(st);
            if rayon::yield_now() == Some(rayon::Yield::Executed) {
                continue;
            }
            let mut st = lock(&flow.state);
            while !ready(&st)
                && st
                    .handbacks
                    .first_key_value()
                    .is_none_or(|(&k, _)| k >= key)
            {
                st = flow.cv.wait(st).unwrap_or_else(|e| e.into_inner());
            }
        }
    }

    /// Starts the ranges of a handback's large file and its batch of the
    /// files after it.
    pub(super) fn serve(self, h: Handback) {
        let Sched { order, ctx, .. } = self;
        let mut key = h.key;
        if let Some((file, size, input)) = h.large {
            let ranges = size.div_ceil(piece() as u64);
            for r in 0..ranges {
                if ctx.stop.load(Ordering::Relaxed) {
                    return;
                }
                self.acquire(key);
                let end = if r + 1 == ranges && h.rest.is_empty() {
                    End::Done
                } else {
                    End::Part
                };
                let (file, input) = (file.clone(), input.clone());
                self.scope.spawn_fifo(move |_| {
                    search_range_unit(&file, r, ranges, size, input, ctx, order, key, end);
                });
                key = key.then();
            }
        }
        if let Some((zip, input)) = h.zip {
            // Twice as many units as may be in flight: two rounds.
            let units = zip_units(zip.plan(ctx.opts), 2 * lock(&order.flow.state).units);
            if units.is_empty() && h.rest.is_empty() {
                // Nothing to search: the unit still ends.
                self.acquire(key);
                order.commit(key, Vec::new(), End::Done);
            }
            let n = units.len();
            for (u, members) in units.into_iter().enumerate() {
                if ctx.stop.load(Ordering::Relaxed) {
                    return;
                }
                self.acquire(key);
                let end = if u + 1 == n && h.rest.is_empty() {
                    End::Done
                } else {
                    End::Part
                };
                let (zip, input) = (zip.clone(), input.clone());
                self.scope.spawn_fifo(move |_| {
                    search_zip_members_unit(&zip, members, &input, ctx, order, key, end);
                });
                key = key.then();
            }
        }
        if !h.rest.is_empty() && !ctx.stop.load(Ordering::Relaxed) {
            self.batch(h.rest, key);
        }
    }

    /// Takes room for unit `key` and starts a batch job for it.
    pub(super) fn batch(self, inputs: Vec<Arc<Input>>, key: Key) {
        self.acquire(key);
        spawn_batch(self.scope, inputs, key, self.ctx, self.order);
    }

    /// Waits for the batches still running, serving what they hand back.
    pub(super) fn drain(self) {
        let last = Key {
            major: usize::MAX,
            minor: usize::MAX,
        };
        drop(self.wait_until(last, |st| st.batches == 0));
    }

    /// Input `i` (named `name`, or an error entry of the walk) could not be
    /// read: one unit, numbered `seq` (then moved on), holding its message.
    pub(super) fn fail(self, seq: &mut usize, i: usize, name: Option<Arc<Input>>, message: String) {
        let key = Key::unit(*seq);
        self.acquire(key);
        let chunk = Chunk {
            member: 0,
            name,
            ..Chunk::failed(i, Some(message))
        };
        self.order.commit(key, vec![chunk], End::Done);
        *seq += 1;
    }
}

pub(super) fn run_parallel(
    inputs: impl Iterator<Item = Item> + Send,
    ctx: Ctx<'_>,
    sink: &mut Sink<'_>,
    threads: usize,
) -> io::Result<()> {
    // The process-wide pool when it can be this size (the command's case:
    // it is never torn down, so exiting costs no handshake with its
    // threads); a pool of its own when a library caller's earlier run set
    // the process-wide one to another size.
    let global = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .is_ok()
        || rayon::current_num_threads() == threads;
    let local = if global {
        None
    } else {
        Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .map_err(io::Error::other)?,
        )
    };
    let stop = ctx.stop;
    let order = Order {
        state: Mutex::new(OrderState {
            sink,
            next: Key::default(),
            pending: BTreeMap::new(),
            result: Ok(()),
        }),
        flow: Flow::new(4 * threads, threads),
        stop,
    };
    let order_ref = &order;
    // Run on the pool's threads (from outside them, `scope_fifo` hands its
    // body to one and waits).
    let work = || {
        let order = order_ref;
        rayon::scope_fifo(|scope| {
            let sched = Sched { scope, order, ctx };
            let mut seq = 0usize;
            // Small files go in batches of about a piece: one job and one
            // hand-over per batch, not per news article.
            let mut batch: Vec<Arc<Input>> = Vec::new();
            let mut batch_bytes = 0u64;
            // (A macro, not a closure: the job it spawns must outlive the
            // call.)
            macro_rules! flush {
                () => {
                    if !batch.is_empty() {
                        let key = Key::unit(seq);
                        seq += 1;
                        batch_bytes = 0;
                        sched.batch(std::mem::take(&mut batch), key);
                    }
                };
            }
            for item in inputs {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let input = match item {
                    Err((i, msg)) => {
                        flush!();
                        sched.fail(&mut seq, i, None, msg);
                        continue;
                    }
                    Ok(input) => input,
                };
                let i = input.index;
                // Sized when the walk knows (a path given, a symlink
                // followed). A file the directory listing calls regular is
                // batched without a `stat` (the batch splits what turns out
                // large), unless Message-IDs (whole messages in order) or a
                // gzip name (one stream) want it read by this thread.
                let (size, weight) = match &input.entry {
                    Entry::File {
                        path,
                        regular: true,
                        size: None,
                        ..
                    } if !ctx.in_order() && !gz_name(path) => (None, Some(unsized_weight())),
                    Entry::File {
                        regular: true,
                        size: Some(n),
                        ..
                    } => (Some(*n), Some(*n).filter(|&n| n <= split_min())),
                    Entry::File { path, .. } => {
                        let n = std::fs::metadata(path)
                            .ok()
                            .filter(|md| md.is_file())
                            .map(|md| md.len());
                        (n, n.filter(|&n| n <= split_min()))
                    }
                    _ => (None, None),
                };
                if let Some(w) = weight {
                    batch.push(input);
                    batch_bytes += w;
                    if batch_bytes >= piece() as u64 || batch.len() >= 256 {
                        flush!();
                    }
                    continue;
                }
                flush!();
                let reader = match (&input.entry, size) {
                    // A large regular file: its ranges are read and searched
                    // by the pool's threads at once, the parts of one unit
                    // (not where messages are tracked in order: see
                    // `Ctx::in_order`).
                    (Entry::File { path, .. }, Some(size)) if !ctx.in_order() => {
                        match open_peeked(&input.entry, path, ctx.opts) {
                            Ok((file, false)) => {
                                let key = Key::unit(seq);
                                seq += 1;
                                sched.serve(Handback {
                                    key,
                                    zip: None,
                                    large: Some((Arc::new(file), size, input)),
                                    rest: Vec::new(),
                                });
                                continue;
                            }
                            Ok((file, true)) => open_file(file, ctx.opts),
                            Err(err) => Err(err),
                        }
                    }
                    (e, _) => open_input(e, ctx.opts),
                };
                let reader = match reader {
                    // An archive: one job, which searches a zip's members
                    // in parallel; a tar stream in order.
                    Ok(Opened::Plain(r)) => Ok(r),
                    // A zip: its members are units of their own.
                    Ok(Opened::Zip(zip)) => {
                        let key = Key::unit(seq);
                        seq += 1;
                        sched.serve(Handback {
                            key,
                            large: None,
                            zip: Some((Arc::new(zip), input)),
                            rest: Vec::new(),
                        });
                        continue;
                    }
                    Ok(opened) => {
                        let key = Key::unit(seq);
                        seq += 1;
                        sched.acquire(key);
                        scope.spawn_fifo(move |_| {
                            search_archive_unit(
                                &input,
                                Ok(opened),
                                ctx,
                                order,
                                key,
                                Vec::new(),
                                End::Done,
                            );
                        });
                        continue;
                    }
                    Err(err) => Err(err),
                };
                match reader {
                    // Stdin, gzip, or Message-IDs wanted: read here in
                    // order, the pieces searched on the pool.
                    // The MIME reading carries its state from piece to
                    // piece: the stream is searched here in order (its
                    // output still committed piece by piece).
                    Ok(r) if ctx.scanner.get_mime() => {
                        let pr = PieceReader::stream(r, ctx.scanner);
                        let res = search_pieces(
                            pr,
                            None,
                            false,
                            ctx,
                            &input.name,
                            &mut |recs, bytes, _| {
                                let my = seq;
                                seq += 1;
                                sched.acquire(Key::unit(my));
                                let chunk = Chunk {
                                    bytes,
                                    body: recs,
                                    last: false,
                                    ..Chunk::failed(i, None)
                                };
                                order.commit(Key::unit(my), vec![chunk], End::Done);
                                Ok(())
                            },
                        );
                        let error = match res {
                            Err(Fail::Read(err)) => Some(read_message(&input.entry, &err)),
                            _ => None,
                        };
                        let my = seq;
                        seq += 1;
                        sched.acquire(Key::unit(my));
                        let chunk = Chunk {
                            name: Some(input),
                            ..Chunk::failed(i, error)
                        };
                        order.commit(Key::unit(my), vec![chunk], End::Done);
                    }
                    Ok(r) => {
                        let mut pr = PieceReader::stream(r, ctx.scanner);
                        let mut tracker = ctx
                            .msgs
                            .then(|| urlsift::MessageTracker::new(ctx.scanner.get_fields()));
                        while let Some(p) = pr.next_piece() {
                            if stop.load(Ordering::Relaxed) {
                                break;
                            }
                            let map = tracker.as_mut().map(|t| {
                                t.feed(&p.bytes()[..p.limit]);
                                t.map(p.offset)
                            });
                            let error = if p.at_end {
                                pr.take_error().map(|err| read_message(&input.entry, &err))
                            } else {
                                None
                            };
                            let my = seq;
                            seq += 1;
                            sched.acquire(Key::unit(my));
                            let input = input.clone();
                            scope.spawn_fifo(move |_| {
                                // Line numbers relative to the piece.
                                let (recs, lines) =
                                    search_piece(&p, 0, true, map.as_ref(), ctx, &input.name);
                                let chunk = Chunk {
                                    member: 0,
                                    input: i,
                                    name: Some(input),
                                    last: p.at_end,
                                    bytes: p.limit as u64,
                                    body: recs,
                                    error,
                                    piece_lines: Some(lines),
                                };
                                SHARED.give(p.into_buffer());
                                order.commit(Key::unit(my), vec![chunk], End::Done);
                            });
                        }
                    }
                    Err(err) => {
                        let msg = read_message(&input.entry, &err);
                        sched.fail(&mut seq, i, Some(input), msg);
                    }
                }
            }
            #[allow(unused_assignments)] // the counters are not read again
            {
                flush!();
            }
            sched.drain();
        })
    };
    match &local {
        Some(pool) => pool.install(work),
        None => work(),
    }
    order
        .state
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .result
}
