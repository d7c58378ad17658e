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

/// The group being gathered.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct State {
    acc: u32,
    n: u8,
    /// Raw offset, column and line difference of the group's first byte.
    r: u64,
    col: u64,
    delta: i64,
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
        for (i, &c) in run.raw[a..e].iter().enumerate() {
            let v = TABLE[c as usize];
            if v == 64 {
                if c == b'\n' {
                    self.delta += 1;
                }
                continue;
            }
            let g = &mut self.b64;
            if g.n == 0 {
                g.r = run.base + (a + i) as u64;
                g.col = g.r.saturating_sub(self.line_start);
                g.delta = self.delta;
            }
            g.acc = g.acc << 6 | v as u32;
            g.n += 1;
            if g.n == 4 {
                let acc = g.acc;
                let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
                self.b64.n = 0;
                self.b64.acc = 0;
                self.b64_group(&bytes, out);
            }
        }
        e
    }

    /// Writes what a last partial group holds.
    pub(super) fn b64_flush(&mut self, out: &mut Out<'_>) {
        let g = self.b64;
        self.b64.n = 0;
        self.b64.acc = 0;
        match g.n {
            2 => self.b64_group(&[(g.acc >> 4) as u8], out),
            3 => self.b64_group(&[(g.acc >> 10) as u8, (g.acc >> 2) as u8], out),
            _ => {}
        }
    }

    /// Writes the decoded bytes of the group placed at `self.b64.r`.
    fn b64_group(&mut self, bytes: &[u8], out: &mut Out<'_>) {
        let g = self.b64;
        let d = out.d();
        let extends = matches!(out.map.last(), Some(last) if matches!(last.kind, Kind::Base64 { g0 }
                if last.r + 4 * ((d - g0) / 3 - (last.d - g0) / 3) == g.r)
            && last.delta == g.delta
            && last.place == self.place);
        if !extends {
            out.map.push(Run {
                d,
                r: g.r,
                col: g.col,
                delta: g.delta,
                kind: Kind::Base64 { g0: d },
                place: self.place.clone(),
            });
        }
        let mut delta = g.delta;
        for (j, &b) in bytes.iter().enumerate() {
            out.dec.push(b);
            if b == b'\n' {
                delta -= 1;
                self.delta -= 1;
                if j + 1 < bytes.len() {
                    out.map.push(Run {
                        d: d + j as u64 + 1,
                        r: g.r,
                        col: g.col,
                        delta,
                        kind: Kind::Base64 { g0: d },
                        place: self.place.clone(),
                    });
                }
            }
        }
        self.tail.after(bytes);
    }
}
