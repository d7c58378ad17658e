#!/usr/bin/env bash
# Side-by-side throughput of urlsift and ripgrep on a generated mail/news
# corpus: the same job as `rg -n -o` with the bracketed pattern.
#
#   benches/compare.sh [--size 256M] [--runs 5] [--growth] [--raw] [--dir DIR]
#
# Generates `gen-corpus --size SIZE --seed 1` (kept in DIR, default
# /tmp/urlsift-bench, and reused when it is already there), reads it into
# the page cache, then runs each
# pair of commands RUNS times, alternating, and prints the median time of
# each, the median of the paired ratios, and peak RSS (/usr/bin/time -v).
# --growth also generates a 4x corpus and reports the time ratio (linear
# growth means 4.0). --raw runs urlsift with --raw (no MIME reading).
# Installs ripgrep and GNU time when they are missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$root/../shared"
size=256M runs=5 growth=0 dir=/tmp/urlsift-bench raw=""
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --growth) growth=1; shift ;;
        --raw) raw=--raw; shift ;;
        --dir) dir="$2"; shift 2 ;;
        *) echo "usage: $0 [--size 256M] [--runs 5] [--growth] [--raw] [--dir DIR]" >&2; exit 2 ;;
    esac
done

source "$(dirname "$0")/tools.sh"
bench_tools
(cd "$root" && cargo build --release -q)
bin="$root/target/release/urlsift"
loop=$(read_loop)
cpu_line

BARE='<[a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*>'
d=$(bench_corpus "$size")
big=""
if [ "$growth" = 1 ]; then
    big=$(python3 -c "import re; s='$size'; n=int(re.match(r'\d+', s).group()); u=s[-1].upper(); print(f'{n*4}{u}')")
    big=$(bench_corpus "$big")
fi

# Timing in Python: one process per run, no shell in between; peak RSS
# from GNU time in one more run of each command.
python3 - "$bin" "$d" "$runs" "$size" "$BARE" "$big" "$dir" "$raw" "$loop" <<'PY'
import os, statistics, subprocess, sys, time  # noqa
bin, d, runs, size, bare, big, dir_ = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6], sys.argv[7]
raw = [sys.argv[8]] if sys.argv[8] else []
loop = sys.argv[9]

def warm(root):
    for dirpath, _, files in os.walk(root):
        for f in files:
            reread(os.path.join(dirpath, f), drop=False)

def reread(path, drop):
    """Reads a file into the page cache; with `drop`, out of it first, so
    that it sits there as a sequential read leaves it. A file the
    generator just wrote sits in pages as its writes left them, which can
    cost the kernel's copy twice as much per byte: the 1 GiB mailbox's bare
    read once took 5.1x the 256 MiB one's for 4x the bytes."""
    with open(path, "rb") as fh:
        if drop:
            os.posix_fadvise(fh.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
        while fh.read(1 << 20):
            pass

DEVNULL = os.open(os.devnull, os.O_WRONLY)

def run(cmd, cwd):
    """Wall and system time of one run, started with posix_spawn: forking
    this Python process would add milliseconds to both sides of every
    ratio."""
    here = os.getcwd()
    os.chdir(cwd)
    try:
        path = cmd[0] if "/" in cmd[0] else next(
            os.path.join(d, cmd[0]) for d in os.environ["PATH"].split(":")
            if os.access(os.path.join(d, cmd[0]), os.X_OK))
        acts = [(os.POSIX_SPAWN_DUP2, DEVNULL, 1), (os.POSIX_SPAWN_DUP2, DEVNULL, 2)]
        t0 = time.perf_counter()
        pid = os.posix_spawn(path, cmd, os.environ, file_actions=acts)
        _, _, usage = os.wait4(pid, 0)
        return time.perf_counter() - t0, usage.ru_stime
    finally:
        os.chdir(here)

def pair(a, b, cwd):
    ta, tb = [], []
    for _ in range(runs):
        ta.append(run(a, cwd))
        tb.append(run(b, cwd))
    return ta, tb

def peaks(a, b, cwd):
    return peak(a, cwd), peak(b, cwd)

def peak(cmd, cwd):
    """Peak RSS in MiB of one more run, measured by GNU time (a forked
    Python child would count the interpreter's pages too)."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()[-1]
    return int(out) / 1024

def med(t): return statistics.median(x for x, _ in t)
def sys_med(t): return statistics.median(s for _, s in t)
def ratio(a, b): return statistics.median(x[0] / y[0] for x, y in zip(a, b))

warm(d)
nbytes = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(d) for f in fs if f.endswith(("mbox",)) or "/news" in dp)
mbox = os.path.getsize(os.path.join(d, "mail.mbox"))
rg = lambda j: ["rg", f"-j{j}", "-n", "-o", bare, "mail.mbox", "news"]
us = lambda j: [bin, f"-j{j}", *raw, "-H", "-n", "mail.mbox", "news"]
u1, r1 = pair(us(1), rg(1), d)
u2, r2 = pair(us(2), rg(2), d)
n1, q1 = pair([bin, "-j1", *raw, "-H", "-n", "news"], ["rg", "-j1", "-n", "-o", bare, "news"], d)
m2, m1 = pair([bin, "-j2", *raw, "-n", "mail.mbox"], [bin, "-j1", *raw, "-n", "mail.mbox"], d)
l1, f1 = pair(us(1), [loop, "mail.mbox", "news"], d)
rss = {}
# Where the CPU has AVX-512, the AVX2 paths too (most machines run them).
avx512 = "avx512bw" in open("/proc/cpuinfo").read()
if avx512:
    os.environ["URLSIFT_NO_AVX512"] = "1"
    v1, w1 = pair(us(1), rg(1), d)
    vn, wn = pair([bin, "-j1", *raw, "-H", "-n", "news"], ["rg", "-j1", "-n", "-o", bare, "news"], d)
    rss["v1"] = peaks(us(1), rg(1), d)
    rss["vn"] = peaks([bin, "-j1", *raw, "-H", "-n", "news"], ["rg", "-j1", "-n", "-o", bare, "news"], d)
    del os.environ["URLSIFT_NO_AVX512"]
news = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(os.path.join(d, "news")) for f in fs)
rss["u1"] = peaks(us(1), rg(1), d)
rss["u2"] = peaks(us(2), rg(2), d)
rss["n1"] = peaks([bin, "-j1", *raw, "-H", "-n", "news"], ["rg", "-j1", "-n", "-o", bare, "news"], d)
rss["m2"] = peaks([bin, "-j2", *raw, "-n", "mail.mbox"], [bin, "-j1", *raw, "-n", "mail.mbox"], d)
print(f"corpus: gen-corpus --size {size} --seed 1 ({nbytes/1e6:.0f} MB: mail.mbox {mbox/1e6:.0f} MB + news/), {runs} runs of each, alternating; medians")
print("| what | urlsift | other | time ratio (target) | urlsift GB/s | peak RSS urlsift / other |")
print("| --- | --- | --- | --- | --- | --- |")
def row(label, a, b, target, n, key):
    ra, rb = rss[key]
    print(f"| {label} | {med(a):.4f} s | {med(b):.4f} s | {ratio(a, b):.2f} ({target}) | {n/med(a)/1e9:.2f} | {ra:.1f} / {rb:.1f} MiB |")
how = " ".join(raw + ["-H", "-n"])
row(f"urlsift -j1 {how} mail.mbox news vs rg -j1 -n -o BARE", u1, r1, "<= 0.65", nbytes, "u1")
row(f"urlsift -j2 {how} mail.mbox news vs rg -j2 -n -o BARE", u2, r2, "<= 0.60", nbytes, "u2")
row(f"urlsift -j1 {how} news (2000 files) vs rg -j1 -n -o BARE news", n1, q1, "<= 0.75", news, "n1")
row("urlsift -j2 -n mail.mbox vs urlsift -j1 -n mail.mbox", m2, m1, "<= 0.62", mbox, "m2")
if avx512:
    row(f"(AVX2 paths) urlsift -j1 {how} mail.mbox news vs rg -j1", v1, w1, "<= 0.65", nbytes, "v1")
    row(f"(AVX2 paths) urlsift -j1 {how} news vs rg -j1 news", vn, wn, "<= 0.75", news, "vn")
sr = statistics.median(x[1] / y[1] for x, y in zip(l1, f1) if y[1] > 0)
print(f"system time: urlsift -j1 {how} mail.mbox news {sys_med(l1)*1e3:.0f} ms, a plain read loop "
      f"(one page-aligned 1 MiB buffer) {sys_med(f1)*1e3:.0f} ms: {sr:.2f}x (<= 1.3)")
if big:
    # The two mailboxes compared in the same page-cache state.
    reread(os.path.join(d, "mail.mbox"), drop=True)
    reread(os.path.join(big, "mail.mbox"), drop=True)
    warm(big)
    # Bytes, not files: gen-corpus writes 2000 articles at any size, so the
    # mailbox (4x the bytes) is the clean measure of growth.
    mb = lambda j: [bin, f"-j{j}", "-n", "mail.mbox"]
    g1, g4 = pair(mb(1), mb(1), d)[0], pair(mb(1), mb(1), big)[0]
    h1, h4 = pair(mb(2), mb(2), d)[0], pair(mb(2), mb(2), big)[0]
    c1, c4 = pair(us(1), us(1), d)[0], pair(us(1), us(1), big)[0]
    big_mbox = os.path.getsize(os.path.join(big, "mail.mbox"))
    # The fixed cost of a run (start, threads, exit), from an empty input:
    # time linear in bytes is what remains once it is taken off.
    empty = os.path.join(dir_, "empty")
    open(empty, "wb").close()
    z1 = statistics.median(run([bin, "-j1", "-n", empty], dir_)[0] for _ in range(runs))
    z2 = statistics.median(run([bin, "-j2", "-n", empty], dir_)[0] for _ in range(runs))
    lin = lambda a, b, z: (med(b) - z) / (med(a) - z)
    print(f"growth: mail.mbox {big_mbox/mbox:.2f}x the bytes took {med(g4)/med(g1):.2f}x the time with -j1 and "
          f"{med(h4)/med(h1):.2f}x with -j2; less the fixed cost of a run ({z1*1e3:.1f} / {z2*1e3:.1f} ms, "
          f"an empty input) {lin(g1, g4, z1):.2f}x and {lin(h1, h4, z2):.2f}x (linear: 4.00 +- 10%); "
          f"peak RSS {peak(mb(1), big):.1f} MiB (-j1), {peak(mb(2), big):.1f} MiB (-j2); the whole corpus (same 2000 "
          f"articles, larger) took {med(c4)/med(c1):.2f}x")
PY
