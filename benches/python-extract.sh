#!/usr/bin/env bash
# urlsift.extract_file over one mbox against the command at -j1 on the same
# file (target: at most 1.2x the command's time), with every message field
# (the default), with to_dict(), and with fields=() (as the command reads:
# no field). The mbox is a generated
# corpus's mail.mbox (gen-corpus --size SIZE --seed 1), kept in DIR
# (default /tmp/urlsift-bench) and reused. RUNS (10) rounds, each running
# every row in turn and then in the reverse order (a shared machine's load
# drifts, and a later run came out faster); the median and
# best time of each row and the median of its paired ratios to the command
# (each round's row over the same round's command) are printed.
#
#   benches/python-extract.sh [SIZE]     (default 64M)
#
# PYTHON names an interpreter with the package installed (default: the CI
# venv, target/py-venv, made by crates/urlsift-py/ci.sh).
set -euo pipefail
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/tools.sh"
size="${1:-64M}"
dir="${DIR:-/tmp/urlsift-bench}"
py="${PYTHON:-$root/target/py-venv/bin/python}"
mbox="$(bench_corpus "$size")/mail.mbox"
cpu_line
"$py" - "$bin" "$mbox" "${RUNS:-10}" <<'PY'
import os, statistics, subprocess, sys, time
import urlsift

bin, mbox, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
size = os.path.getsize(mbox)

def timed(fs):
    """Each function's times, the runs interleaved, and its last output.
    A round runs them in order and then in the reverse order, a function's
    time in it being the mean of its two: on a shared host the later runs
    of a round came out faster, which favoured the rows after the first."""
    times = [[] for _ in fs]
    outs = [None] * len(fs)
    order = list(range(len(fs)))
    for _ in range(runs):
        took = [0.0] * len(fs)
        for i in order + order[::-1]:
            t = time.perf_counter()
            outs[i] = fs[i]()
            took[i] += (time.perf_counter() - t) / 2
        for i, t in enumerate(took):
            times[i].append(t)
    return times, outs

def command(*flags):
    def run():
        p = subprocess.run([bin, "-j1", *flags, mbox], stdout=subprocess.PIPE, check=True)
        return p.stdout.count(b"\n")
    return run

def iterate():
    return sum(1 for _ in urlsift.extract_file(mbox))

def dicts():
    return sum(1 for m in urlsift.extract_file(mbox) if m.to_dict())

def no_fields():
    # As the command reads by default: no message field.
    return sum(1 for _ in urlsift.extract_file(mbox, fields=()))

open(mbox, "rb").read()  # in the page cache for everyone
rows = [
    ("urlsift -j1", command()),
    ("urlsift -j1 --json", command("--json")),
    ("extract_file (iterate)", iterate),
    ("extract_file + to_dict", dicts),
    ("extract_file(fields=())", no_fields),
]
times, outs = timed([f for _, f in rows])
print(f"{mbox}: {size / 2**20:.0f} MiB, {runs} rounds")
print(f"  {'':24} {'median':>8} {'best':>8}  {'MiB/s':>7}")
for (name, _), t, n in zip(rows, times, outs):
    med = statistics.median(t)
    print(f"  {name:24} {med:7.3f}s {min(t):7.3f}s  {size / med / 2**20:7.1f}  {n} URLs")
base = times[0]
for (name, _), t in zip(rows[1:], times[1:]):
    ratios = sorted(a / b for a, b in zip(t, base))
    print(f"  {name:24} {statistics.median(ratios):5.2f}x urlsift -j1 "
          f"(median of paired ratios; range {ratios[0]:.2f}-{ratios[-1]:.2f})")
PY
