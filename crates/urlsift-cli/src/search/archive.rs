//! Searching the members of an archive input, each as a file of its own:
//! named `archive{member}` (nested: `a.zip{b.tgz}{c.txt}`), line numbers
//! and counts per member, its read error reported as
//! `urlsift: archive{member}: what is wrong` while the other members are
//! still searched. On the pool, a zip's members are units of their own
//! (see `Sched::serve`): searched in parallel, each job reading the file
//! at positions of its own, and written in directory order, so the output
//! is the same at any number of threads.

use crate::input::archive::{self, Opened, Planned, Visitor, Zip};
use crate::printer::escape_path_string;
use std::fmt::Display;
use std::io::{self, Read};
use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::*;

/// The visitor that searches each member, its output handed to `emit` as
/// chunks. Members are numbered from `base` on (each needs a number of
/// its own in the sink, which counts and names per member).
struct Members<'a, 'e> {
    input: &'a Arc<Input>,
    ctx: Ctx<'a>,
    next: u64,
    emit: &'e mut dyn FnMut(Chunk) -> io::Result<()>,
}

impl Members<'_, '_> {
    fn number(&mut self) -> u64 {
        self.next += 1;
        self.next
    }
}

impl Visitor for Members<'_, '_> {
    fn member(&mut self, names: &[Vec<u8>], r: &mut dyn Read) -> io::Result<()> {
        let id = self.number();
        // `--glob` on the member's path in its (innermost) archive.
        if !names
            .last()
            .is_none_or(|name| self.ctx.globs.allows_member(name))
        {
            return Ok(());
        }
        let member = Arc::new(self.input.member(names, self.ctx.member_show));
        let i = self.input.index;
        let emit = &mut *self.emit;
        let res = search_stream(r, self.ctx, &member.name, &mut |recs, bytes, _| {
            emit(Chunk {
                member: id,
                bytes,
                body: recs,
                last: false,
                ..Chunk::failed(i, None)
            })
        });
        let error = match res {
            Err(Fail::Write(e)) => return Err(e),
            Err(Fail::Read(e)) => Some(format!(
                "urlsift: {}: {e}",
                escape_path_string(&member.name.display)
            )),
            Ok(()) => None,
        };
        emit(Chunk {
            member: id,
            name: Some(member),
            ..Chunk::failed(i, error)
        })
    }

    fn error(&mut self, names: &[Vec<u8>], what: &dyn Display) -> io::Result<()> {
        let id = self.number();
        let display = self.input.member(names, true).name.display;
        let message = format!("urlsift: {}: {what}", escape_path_string(&display));
        (self.emit)(Chunk {
            member: id,
            ..Chunk::failed(self.input.index, Some(message))
        })
    }

    fn stopped(&self) -> bool {
        self.ctx.stop.load(Ordering::Relaxed)
    }
}

/// Searches an opened input member by member on this thread (a plain
/// stream as the input itself), handing the chunks to `emit` in order.
pub(super) fn search_archive(
    input: &Arc<Input>,
    opened: Opened,
    ctx: Ctx<'_>,
    emit: &mut dyn FnMut(Chunk) -> io::Result<()>,
) -> io::Result<()> {
    let mut v = Members {
        input,
        ctx,
        next: 0,
        emit,
    };
    archive::walk(opened, ctx.opts, &mut v)
}

/// The job for `members` of a zip's plan (each with its place in the
/// plan), unit `key` (the scheduler starts units of members as it starts
/// the ranges of a large file, see [`zip_units`]): their output handed
/// over as it goes when it is the next unit to write.
pub(super) fn search_zip_members_unit(
    zip: &Zip,
    members: Vec<(usize, Planned)>,
    input: &Arc<Input>,
    ctx: Ctx<'_>,
    order: &Order<'_, '_>,
    key: Key,
    end: End,
) {
    let mut held = Held::new(order, key, Vec::new());
    let mut emit = |c: Chunk| {
        held.push(c);
        Ok(())
    };
    for (k, planned) in members {
        if ctx.stop.load(Ordering::Relaxed) {
            break;
        }
        // Numbers apart from the other members' (a nested archive numbers
        // its members one after the other).
        let mut v = Members {
            input,
            ctx,
            next: (k as u64 + 1) << 32,
            emit: &mut emit,
        };
        // Collecting cannot fail.
        let _ = match planned {
            Planned::Member { index, name, .. } => {
                let mut names = vec![name];
                zip.search(index, &mut names, ctx.opts, ctx.opts.depth, &mut v)
            }
            Planned::Error { name, message } => v.error(&[name], &message),
        };
    }
    held.finish(end);
}

/// Most bytes (declared) of the members of one unit.
const ZIP_UNIT_MAX: u64 = 32 << 20;

/// A zip's plan cut into units of consecutive members: about a
/// `units`-th of the archive each (at least a piece, at most
/// [`ZIP_UNIT_MAX`]; a larger member alone), so that while one thread
/// decodes a large member the others have work beyond it within the units
/// in flight, and the output a unit holds stays bounded.
pub(super) fn zip_units(plan: Vec<Planned>, units: usize) -> Vec<Vec<(usize, Planned)>> {
    let size = |p: &Planned| match p {
        Planned::Member { size, .. } => *size,
        Planned::Error { .. } => 0,
    };
    let total: u64 = plan.iter().map(size).sum();
    let target = (total / units.max(1) as u64).clamp(piece() as u64, ZIP_UNIT_MAX);
    let mut out: Vec<Vec<(usize, Planned)>> = Vec::new();
    let mut cur = Vec::new();
    let mut bytes = 0u64;
    for (k, p) in plan.into_iter().enumerate() {
        let n = size(&p);
        if !cur.is_empty() && bytes + n > target {
            out.push(std::mem::take(&mut cur));
            bytes = 0;
        }
        bytes += n;
        cur.push((k, p));
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Searches one input on this thread, start to end: a plain stream piece
/// by piece, an archive member by member; `started` is the input opened
/// with its first piece read (stdin: opened all the way first).
pub(super) fn search_input(
    input: &Arc<Input>,
    started: io::Result<Started>,
    ctx: Ctx<'_>,
    emit: &mut dyn FnMut(Chunk) -> io::Result<()>,
) -> io::Result<()> {
    let i = input.index;
    if started.as_ref().is_ok_and(|s| s.needs_opening(ctx)) {
        if let Ok(s) = started {
            s.recycle();
        }
        return match open_input(&input.entry, ctx.opts) {
            Ok(opened) => search_archive(input, opened, ctx, emit),
            Err(e) => emit(Chunk {
                name: Some(input.clone()),
                ..Chunk::failed(i, Some(read_message(&input.entry, &e)))
            }),
        };
    }
    let res = match started {
        Err(err) => Err(Fail::Read(err)),
        Ok(Started { pr, first }) => {
            search_pieces(pr, first, false, ctx, &input.name, &mut |recs, bytes, _| {
                emit(Chunk {
                    bytes,
                    body: recs,
                    last: false,
                    ..Chunk::failed(i, None)
                })
            })
        }
    };
    let error = match res {
        Err(Fail::Write(w)) => return Err(w),
        Err(Fail::Read(err)) => Some(read_message(&input.entry, &err)),
        Ok(()) => None,
    };
    emit(Chunk {
        name: Some(input.clone()),
        ..Chunk::failed(i, error)
    })
}

/// Opens `input` and reads its first piece; stdin is opened all the way
/// (it cannot be opened again), so an archive on stdin is an error-free
/// [`Opened`] to search with [`search_archive`].
pub(super) fn start(input: &Input, ctx: Ctx<'_>) -> Result<io::Result<Started>, Opened> {
    match &input.entry {
        Entry::Stdin => match open_input(&input.entry, ctx.opts) {
            Ok(Opened::Plain(r)) => Ok(Ok(Started::from_stream(r, ctx))),
            Ok(opened) => Err(opened),
            Err(e) => Ok(Err(e)),
        },
        // As a stream (live when it is a FIFO), as one thread reads it.
        _ => Ok(input_reader(&input.entry, ctx.opts).map(|r| Started::from_stream(r, ctx))),
    }
}

/// The job for an archive input read in order (a tar, a zip inside a
/// stream...), unit `key`, after `chunks` (the files of its batch before
/// it): its members' output handed over as it goes when it is the next
/// unit to write, else held to the end.
pub(super) fn search_archive_unit(
    input: &Arc<Input>,
    opened: io::Result<Opened>,
    ctx: Ctx<'_>,
    order: &Order<'_, '_>,
    key: Key,
    chunks: Vec<Chunk>,
    end: End,
) {
    let i = input.index;
    let mut held = Held::new(order, key, chunks);
    let mut emit = |c: Chunk| {
        held.push(c);
        Ok(())
    };
    let _ = match opened {
        Ok(opened) => search_archive(input, opened, ctx, &mut emit),
        Err(e) => emit(Chunk {
            name: Some(input.clone()),
            ..Chunk::failed(i, Some(read_message(&input.entry, &e)))
        }),
    };
    held.finish(end);
}

/// A unit's chunks: once the unit is the next to write, written a piece's
/// worth at a time as they come (memory stays bounded however large the
/// archive); else held to the unit's end.
struct Held<'u, 's, 'a> {
    order: &'u Order<'s, 'a>,
    key: Key,
    chunks: Vec<Chunk>,
    bytes: usize,
}

impl<'u, 's, 'a> Held<'u, 's, 'a> {
    fn new(order: &'u Order<'s, 'a>, key: Key, chunks: Vec<Chunk>) -> Self {
        Held {
            order,
            key,
            chunks,
            bytes: 0,
        }
    }

    fn push(&mut self, c: Chunk) {
        self.bytes += c.body.body.len();
        self.chunks.push(c);
        if self.bytes >= piece() && self.order.is_next(self.key) {
            self.bytes = 0;
            let chunks = std::mem::take(&mut self.chunks);
            self.order.commit(self.key, chunks, End::Open);
        }
    }

    fn finish(self, end: End) {
        self.order.commit(self.key, self.chunks, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(k: usize, size: u64) -> Planned {
        Planned::Member {
            index: k,
            name: format!("m{k}").into_bytes(),
            size,
        }
    }

    #[test]
    fn zip_units_cover_the_plan_in_order_within_their_size() {
        let sizes = [
            5u64 << 20,
            100 << 20,
            1,
            2 << 20,
            3 << 20,
            700 << 10,
            9 << 20,
            0,
        ];
        let mut plan: Vec<Planned> = sizes
            .iter()
            .enumerate()
            .map(|(k, &s)| member(k, s))
            .collect();
        plan.insert(
            3,
            Planned::Error {
                name: b"bad".to_vec(),
                message: "why".into(),
            },
        );
        let units = zip_units(plan.clone(), 16);
        let flat: Vec<(usize, Planned)> = units.iter().flatten().cloned().collect();
        assert_eq!(flat.len(), plan.len());
        for (i, (k, p)) in flat.iter().enumerate() {
            assert_eq!(*k, i, "in plan order");
            assert_eq!(p, &plan[i]);
        }
        let total: u64 = sizes.iter().sum();
        let target = (total / 16).clamp(piece() as u64, ZIP_UNIT_MAX);
        for u in &units {
            let bytes: u64 = u
                .iter()
                .map(|(_, p)| match p {
                    Planned::Member { size, .. } => *size,
                    Planned::Error { .. } => 0,
                })
                .sum();
            assert!(
                bytes <= target || u.len() == 1,
                "{bytes} in {} members",
                u.len()
            );
        }
        // The large member stands alone.
        assert!(units.iter().any(|u| u.len() == 1 && u[0].0 == 1));
        assert!(zip_units(Vec::new(), 16).is_empty());
    }
}
