#!/usr/bin/env bash
# pick.sh - how fast `urlsift --pick` shows a large input: the time to its
# first screen of URLs, and to the full list (the bar says `done`), against
# `urlsift -u` on the same input (the same reading: with --naked, as the
# picker reads by default; and --no-naked against plain -u).
#
# The picker runs in a real terminal: a pseudo-terminal driven by Python's
# pty module, whose output is read as it comes (no polling adds work or
# delay) and read into a screen (cursor moves and text; other sequences
# skipped) only when it may hold what is waited for, so that the harness
# takes no CPU from the picker while it runs. The clock starts before the
# fork, so exec and start-up count.
#
#   bash benches/pick.sh [RUNS]     (default 5 runs; medians printed)
#
# Input: the mail of `gen-corpus --size 256M --seed 1` (mail.mbox, 128 MiB),
# generated into $PICK_BENCH_DIR (default /tmp/urlsift-pick-bench) when
# missing. URLSIFT=path picks the binary (default: the release build).
set -euo pipefail
source "$(dirname "$0")/common.sh"
runs="${1:-5}"
dir="${PICK_BENCH_DIR:-/tmp/urlsift-pick-bench}"
mkdir -p "$dir"
if [ ! -s "$dir/corpus/mail.mbox" ]; then
    python3 "$shared/bench/gen-corpus" --size 256M --seed 1 --out "$dir/corpus" >/dev/null
fi
input="$dir/corpus/mail.mbox"
cat "$input" >/dev/null # in the page cache

python3 - "$bin" "$input" "$runs" <<'PY'
import os, pty, re, select, signal, statistics, subprocess, sys, time, fcntl, termios, struct

binary, path, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
ROWS, COLS = 50, 160
CSI = re.compile(rb"\x1b\[([0-9;?]*)([@-~])|\x1b[()][0-9A-Za-z]|\x1b[=>78]|\x1b\][^\x07]*\x07")

class Screen:
    """The terminal's cells, from the bytes written to it (cursor moves and
    text; other sequences skipped)."""

    def __init__(self):
        self.cells = [[" "] * COLS for _ in range(ROWS)]
        self.row = self.col = 0
        self.pending = b""

    def feed(self, data):
        data = self.pending + data
        self.pending = b""
        i = 0
        while i < len(data):
            b = data[i]
            if b == 0x1b:
                m = CSI.match(data, i)
                if m is None:
                    self.pending = data[i:]
                    break
                if m.group(2) == b"H" and m.group(1) is not None:
                    parts = (m.group(1) or b"1;1").split(b";")
                    self.row = int(parts[0] or 1) - 1
                    self.col = int(parts[1] or 1) - 1 if len(parts) > 1 else 0
                elif m.group(2) == b"J" and m.group(1) in (b"2", b"3"):
                    self.cells = [[" "] * COLS for _ in range(ROWS)]
                i = m.end()
                continue
            if b in (0x0d, 0x0a):
                i += 1
                continue
            # One character (UTF-8 sequence) in one cell.
            n = 1 if b < 0x80 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4
            if i + n > len(data):
                self.pending = data[i:]
                break
            if 0 <= self.row < ROWS and 0 <= self.col < COLS:
                self.cells[self.row][self.col] = data[i:i + n].decode("utf-8", "replace")
            self.col += 1
            i += n

    def lines(self):
        return ["".join(r) for r in self.cells]


def pick(extra):
    """Runs the picker on a pty; returns (first screen, full list) seconds.
    The output is kept as it comes and read into a screen only when it
    may hold what is waited for (a URL, the word "done"): a screen model
    run over every frame would take the CPU the picker is measured on."""
    t0 = time.monotonic()
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(binary, [binary, "--pick", *extra, path])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
    screen = Screen()
    unread = b""
    first = full = None
    while full is None:
        r, _, _ = select.select([fd], [], [], 60)
        if not r:
            raise SystemExit("pick.sh: no output for 60 s")
        data = os.read(fd, 1 << 16)
        now = time.monotonic()
        unread += data
        # (The last bytes before these too: a word may be cut between reads.)
        recent = unread[-(len(data) + 8):]
        if (first is None and b"://" in recent) or b"done" in recent:
            screen.feed(unread)
            unread = b""
            lines = screen.lines()
            if first is None and any("://" in l for l in lines[:ROWS - 4]):
                first = now - t0
            if " · done · " in lines[ROWS - 1]:
                full = now - t0
    os.write(fd, b"q")
    try:
        while os.read(fd, 1 << 16):
            pass
    except OSError:
        pass
    _, _, ru = os.wait4(pid, 0)
    os.close(fd)
    return first, full, ru.ru_utime + ru.ru_stime

def unique(extra):
    """Runs urlsift -u; returns (seconds, CPU seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen([binary, "-u", *extra, path], stdout=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = 0
    if status != 0:
        raise SystemExit(f"pick.sh: urlsift -u failed ({status})")
    return time.monotonic() - t0, ru.ru_utime + ru.ru_stime

keys = ("first", "full", "cpu", "u", "ucpu", "first0", "full0", "cpu0", "u0", "ucpu0")
rows = {k: [] for k in keys}
for _ in range(runs):
    # Alternated, so that a load that comes and goes falls on both.
    for tail, extra in (("", []), ("0", ["--no-naked"])):
        u, ucpu = unique(["--naked"] if tail == "" else [])
        f, l, cpu = pick(extra)
        for k, v in (("u", u), ("ucpu", ucpu), ("first", f), ("full", l), ("cpu", cpu)):
            rows[k + tail].append(v)
med = {k: statistics.median(v) for k, v in rows.items()}
size = os.path.getsize(path) / 2**20
print(f"input: {path} ({size:.0f} MiB), {runs} runs, medians; CPU: user + system seconds")
for tail, name, base in (("", "urlsift --pick", "urlsift -u --naked"), ("0", "urlsift --pick --no-naked", "urlsift -u")):
    m = lambda k: med[k + tail]
    print(f"{name:26} first screen {m('first'):.3f} s (target <= 0.3), full list {m('full'):.3f} s, CPU {m('cpu'):.3f} s")
    print(f"{base:26} {m('u'):.3f} s, CPU {m('ucpu'):.3f} s")
    print(f"{'':26} full list / {base}: {m('full') / m('u'):.2f} (target <= 1.2), CPU {m('cpu') / m('ucpu'):.2f}")
PY
