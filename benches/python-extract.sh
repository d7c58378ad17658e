#!/usr/bin/env bash
# urlsift.extract_file over one mbox against the command at -j1 on the same
# file (target: at most 1.3x the command's time). The mbox is a generated
# corpus's mail.mbox (gen-corpus --size SIZE --seed 1). Best of RUNS (10),
# interleaved.
#
#   benches/python-extract.sh [SIZE]     (default 64M)
#
# PYTHON names an interpreter with the package installed (default: the CI
# venv, target/py-venv, made by crates/urlsift-py/ci.sh).
set -euo pipefail
source "$(dirname "$0")/common.sh"
size="${1:-64M}"
py="${PYTHON:-$root/target/py-venv/bin/python}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
python3 "$shared/bench/gen-corpus" --size "$size" --seed 1 --out "$tmp/corpus" >/dev/null
mbox="$tmp/corpus/mail.mbox"
"$py" - "$bin" "$mbox" "${RUNS:-10}" <<'PY'
import os, subprocess, sys, time
import urlsift

bin, mbox, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
size = os.path.getsize(mbox)

def best(fs):
    """Each function's best time, the runs interleaved (a shared machine's
    load drifts)."""
    times = [[] for _ in fs]
    outs = [None] * len(fs)
    for _ in range(runs):
        for i, f in enumerate(fs):
            t = time.perf_counter()
            outs[i] = f()
            times[i].append(time.perf_counter() - t)
    return [(min(t), o) for t, o in zip(times, outs)]

def command(*flags):
    def run():
        p = subprocess.run([bin, "-j1", *flags, mbox], stdout=subprocess.PIPE, check=True)
        return p.stdout.count(b"\n")
    return run

def iterate():
    return sum(1 for _ in urlsift.extract_file(mbox))

def dicts():
    return sum(1 for m in urlsift.extract_file(mbox) if m.to_dict())

open(mbox, "rb").read()  # in the page cache for everyone
rows = [
    ("urlsift -j1", command()),
    ("urlsift -j1 --json", command("--json")),
    ("extract_file (iterate)", iterate),
    ("extract_file + to_dict", dicts),
]
results = {}
print(f"{mbox}: {size / 2**20:.0f} MiB, best of {runs}")
for (name, _), (t, n) in zip(rows, best([f for _, f in rows])):
    results[name] = t
    print(f"  {name:24} {t:7.3f} s  {size / t / 2**20:7.1f} MiB/s  {n} URLs")
base = results["urlsift -j1"]
for name in rows[1:]:
    print(f"  {name[0]:24} {results[name[0]] / base:5.2f}x urlsift -j1")
PY
