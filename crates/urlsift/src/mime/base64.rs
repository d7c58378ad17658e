//! Base64, decoded as it streams (contract rule 11): bytes outside the
//! alphabet (`=` too) are skipped, a last partial group gives what it holds
//! (2 characters: 1 byte, 3: 2 bytes). Each group of four characters is
//! placed at its first character (rule 13); groups in a row on one line
//! share one run of the map.

use super::{Kind, Out, Pass, Reader, Run};

/// The 6-bit value of each alphabet byte; 64 for every other byte.
const TABLE: [u8; 256] = {
    let mut t = [64u8; 256];
    let alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut i = 0;
    while i < 64 {
        t[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The group being gathered, and the run the next group may extend.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct State {
    acc: u32,
    n: u8,
    /// Raw offset, column and line difference of the group's first byte.
    r: u64,
    col: u64,
    delta: i64,
    /// Raw offset past the group's last character so far.
    end: u64,
    /// The next group extends the last run when it starts at this raw
    /// offset and decoded offset with this line difference.
    next: Option<(u64, u64, i64)>,
}

impl Reader {
    /// Decodes `raw[a..e]` (a line, or part of one).
    pub(super) fn b64_line(
        &mut self,
        run: &Pass<'_>,
        a: usize,
        e: usize,
        out: &mut Out<'_>,
    ) -> usize {
        let mut g = self.b64;
        let bytes = &run.raw[a..e];
        out.dec.reserve(bytes.len() / 4 * 3 + 3);
        let mut i = 0;
        while i < bytes.len() {
            if g.n == 0 {
                // Whole groups of four alphabet characters in a row: decoded
                // at once, extending one run of the map (the byte path below
                // takes the rest: other bytes, split groups, line breaks).
                let k = self.b64_groups(&mut g, run.base + a as u64, bytes, i, out);
                if k > i {
                    i = k;
                    continue;
                }
            }
            let (at, c) = (i, bytes[i]);
            i += 1;
            let v = TABLE[c as usize];
            if v == 64 {
                if c == b'\n' {
                    self.delta += 1;
                }
                continue;
            }
            if g.n == 0 {
                g.r = run.base + (a + at) as u64;
                g.col = g.r.saturating_sub(self.line_start);
                g.delta = self.delta;
            }
            g.acc = g.acc << 6 | v as u32;
            g.n += 1;
            g.end = run.base + (a + at) as u64 + 1;
            if g.n == 4 {
                let acc = g.acc;
                g.n = 0;
                g.acc = 0;
                self.b64_group(
                    &mut g,
                    &[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8],
                    out,
                );
            }
        }
        self.b64 = g;
        e
    }

    /// Decodes the whole groups at `bytes[i..]` (raw offset `base` +
    /// index) whose bytes hold no line break, and returns where it stopped.
    /// Each group is placed as [`Reader::b64_group`] places it: the first
    /// starts a run unless it continues the last one, the others continue
    /// it.
    fn b64_groups(
        &mut self,
        g: &mut State,
        base: u64,
        bytes: &[u8],
        mut i: usize,
        out: &mut Out<'_>,
    ) -> usize {
        let Some(three) = group(bytes, i) else {
            return i;
        };
        let r = base + i as u64;
        let d = out.d();
        if g.next != Some((r, d, self.delta)) {
            out.map.push(
                Run {
                    d,
                    r,
                    col: r.saturating_sub(self.line_start),
                    delta: self.delta,
                    kind: Kind::Base64 { g0: d },
                    cap: r + 4,
                },
                &self.place,
            );
        }
        out.dec.extend_from_slice(&three);
        i += 4;
        // The groups that follow, decoded into a block on the stack and
        // appended a block at a time (an append per group cost more than
        // its decoding).
        let mut block = [0u8; 96];
        loop {
            let mut n = 0;
            while n < block.len() {
                let Some(three) = group(bytes, i) else {
                    break;
                };
                block[n..n + 3].copy_from_slice(&three);
                n += 3;
                i += 4;
            }
            out.dec.extend_from_slice(&block[..n]);
            if n < block.len() {
                break;
            }
        }
        let end = base + i as u64;
        if let Some(last) = out.map.last_mut() {
            last.cap = end;
        }
        g.r = end - 4;
        g.col = g.r.saturating_sub(self.line_start);
        g.delta = self.delta;
        g.end = end;
        g.next = Some((end, out.d(), self.delta));
        i
    }

    /// Writes what a last partial group holds.
    pub(super) fn b64_flush(&mut self, out: &mut Out<'_>) {
        let mut g = self.b64;
        let (acc, n) = (g.acc, g.n);
        g.n = 0;
        g.acc = 0;
        match n {
            2 => self.b64_group(&mut g, &[(acc >> 4) as u8], out),
            3 => self.b64_group(&mut g, &[(acc >> 10) as u8, (acc >> 2) as u8], out),
            _ => {}
        }
        g.next = None;
        self.b64 = g;
    }

    /// Writes the decoded bytes of the group placed at `g.r`.
    fn b64_group(&mut self, g: &mut State, bytes: &[u8], out: &mut Out<'_>) {
        let d = out.d();
        if g.next != Some((g.r, d, g.delta)) {
            out.map.push(
                Run {
                    d,
                    r: g.r,
                    col: g.col,
                    delta: g.delta,
                    kind: Kind::Base64 { g0: d },
                    cap: g.end,
                },
                &self.place,
            );
        } else if let Some(last) = out.map.last_mut() {
            last.cap = g.end;
        }
        out.dec.extend_from_slice(bytes);
        let mut delta = g.delta;
        for (j, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                // A decoded line break with no raw one: the bytes after it
                // need a run with the new difference.
                delta -= 1;
                self.delta -= 1;
                if j + 1 < bytes.len() {
                    out.map.push(
                        Run {
                            d: d + j as u64 + 1,
                            r: g.r,
                            col: g.col,
                            delta,
                            kind: Kind::Base64 { g0: d },
                            cap: g.end,
                        },
                        &self.place,
                    );
                }
            }
        }
        // A line break as the last byte leaves no run for what follows.
        g.next = (bytes.last() != Some(&b'\n')).then_some((g.r + 4, d + bytes.len() as u64, delta));
    }
}

/// The three bytes of the group of four alphabet characters at
/// `bytes[i..]`, unless it is not one or they hold a line break (which
/// needs a run of its own).
#[inline]
fn group(bytes: &[u8], i: usize) -> Option<[u8; 3]> {
    let q = bytes.get(i..i + 4)?;
    let (a, b, c, d) = (
        TABLE[q[0] as usize],
        TABLE[q[1] as usize],
        TABLE[q[2] as usize],
        TABLE[q[3] as usize],
    );
    if (a | b | c | d) >= 64 {
        return None;
    }
    let acc = (a as u32) << 18 | (b as u32) << 12 | (c as u32) << 6 | d as u32;
    let three = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
    (three[0] != b'\n' && three[1] != b'\n' && three[2] != b'\n').then_some(three)
}
