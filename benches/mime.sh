#!/usr/bin/env bash
# mime.sh - the cost of reading mail as it arrives (contract rules 10-13).
#
#   benches/mime.sh [--size 256M] [--runs 5] [--dir DIR]
#
# On the default generated corpus (no MIME): urlsift (MIME reading, the
# default) against urlsift --raw, one thread (target: <= 1.10).
# On a `gen-corpus --mime 0.4` corpus (and one with `--html 0.5`): urlsift -j1 against
# `rg -j1 -n -o BARE` on the same files (targets: 1.00, and 1.20 with HTML),
# and peak RSS of urlsift -j1 (target: <= 8 MiB). The HTML parts' speed:
# their bytes as written (transfer encoded; counted once by Python's email
# package and kept beside the corpus) over the CPU time the default reading
# takes beyond `--html never` on that corpus (target: >= 400 MB/s). Where
# the CPU has AVX-512, the rows that have a target run again with
# URLSIFT_NO_AVX512=1 (the AVX2 paths most machines run). Corpora are kept in DIR
# (default /tmp/urlsift-bench) and reused. Each pair runs RUNS times,
# alternating; medians of wall and CPU (user + system) time and the
# medians of the paired ratios are printed, with their spread.
# Installs ripgrep and GNU time when they are missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$root/../shared"
size=256M runs=5 dir=/tmp/urlsift-bench
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        *) echo "usage: $0 [--size 256M] [--runs 5] [--dir DIR]" >&2; exit 2 ;;
    esac
done

source "$(dirname "$0")/tools.sh"
bench_tools
(cd "$root" && cargo build --release -q)
bin="$root/target/release/urlsift"
cpu_line

BARE='<[a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*>'
plain=$(bench_corpus "$size")
mime=$(bench_corpus "$size" --mime 0.4)
html=$(bench_corpus "$size" --mime 0.4 --html 0.5)

# The HTML parts of the HTML corpus: how many, and their bytes as written.
if [ ! -f "$html/html-parts.txt" ]; then
    python3 - "$html/mail.mbox" >"$html/html-parts.txt" <<'PY'
import email, email.policy, sys
n = size = 0
with open(sys.argv[1], "rb") as f:
    data = f.read()
pos, msgs = 0, []
while True:
    k = data.find(b"\n\nFrom ", pos)
    if k < 0:
        msgs.append(data[pos:])
        break
    msgs.append(data[pos:k + 1])
    pos = k + 2
for raw in msgs:
    msg = email.message_from_bytes(raw, policy=email.policy.compat32)
    for part in msg.walk():
        if part.get_content_type() in ("text/html", "application/xhtml+xml"):
            payload = part.get_payload(decode=False)
            if isinstance(payload, str):
                n += 1
                size += len(payload.encode("latin-1", "replace"))
print(n, size)
PY
fi
read -r html_parts html_bytes <"$html/html-parts.txt"

python3 - "$bin" "$plain" "$mime" "$runs" "$size" "$BARE" "$html" "$html_parts" "$html_bytes" <<'PY'
import os, statistics, subprocess, sys, time
bin, plain, mime, runs, size, bare = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
html = sys.argv[7]
html_parts, html_bytes = int(sys.argv[8]), int(sys.argv[9])
avx512 = "avx512bw" in open("/proc/cpuinfo").read()
DEVNULL = os.open(os.devnull, os.O_WRONLY)

def warm(root):
    for dirpath, _, files in os.walk(root):
        for f in files:
            with open(os.path.join(dirpath, f), "rb") as fh:
                while fh.read(1 << 20):
                    pass

def run(cmd, cwd):
    """(wall, CPU) time of one run (posix_spawn: no fork of this process;
    CPU is user + system from wait4, the steadier figure on a shared
    machine, where the wall time also holds the waits for a core)."""
    here = os.getcwd()
    os.chdir(cwd)
    try:
        path = cmd[0] if "/" in cmd[0] else next(
            os.path.join(d, cmd[0]) for d in os.environ["PATH"].split(":")
            if os.access(os.path.join(d, cmd[0]), os.X_OK))
        acts = [(os.POSIX_SPAWN_DUP2, DEVNULL, 1), (os.POSIX_SPAWN_DUP2, DEVNULL, 2)]
        t0 = time.perf_counter()
        pid = os.posix_spawn(path, cmd, os.environ, file_actions=acts)
        _, _, ru = os.wait4(pid, 0)
        return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime
    finally:
        os.chdir(here)

def peak(cmd, cwd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], cwd=cwd, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True).stderr.strip().splitlines()[-1]
    return int(out) / 1024

def pair(a, b, cwd):
    ta, tb = [], []
    for _ in range(runs):
        ta.append(run(a, cwd))
        tb.append(run(b, cwd))
    return ta, tb, peak(a, cwd), peak(b, cwd)

def cpu(res):
    """Median CPU times (user + system) of both sides."""
    a, b, _, _ = res
    return statistics.median(x[1] for x in a), statistics.median(y[1] for y in b)

def row(label, res, target):
    a, b, ra, rb = res
    out = []
    for k in (0, 1):
        ratios = [x[k] / y[k] for x, y in zip(a, b)]
        out.append((statistics.median(x[k] for x in a), statistics.median(y[k] for y in b),
                    statistics.median(ratios), max(ratios) - min(ratios)))
    (wa, wb, wr, ws), (ca, cb, cr, cs) = out
    print(f"| {label} | {wa:.3f} / {ca:.3f} s | {wb:.3f} / {cb:.3f} s | "
          f"{wr:.2f} (spread {ws:.2f}) / {cr:.2f} (spread {cs:.2f}) | {target} | {ra:.1f} / {rb:.1f} MiB |")

warm(plain)
warm(mime)
warm(html)
us = lambda *f: [bin, "-j1", "-H", "-n", *f, "mail.mbox", "news"]
rg = ["rg", "-j1", "-n", "-o", bare, "mail.mbox", "news"]
print(f"gen-corpus --size {size} --seed 1, and the same with --mime 0.4; {runs} runs of each, alternating; medians")
print("| what | urlsift wall / CPU | other wall / CPU | ratio wall / CPU | target | peak RSS urlsift / other |")
print("| --- | --- | --- | --- | --- | --- |")
speeds = []
for paths in ["AVX-512", "AVX2"] if avx512 else ["AVX2"]:
    if paths == "AVX2" and avx512:
        os.environ["URLSIFT_NO_AVX512"] = "1"
    tag = f"({paths}) " if avx512 else ""
    row(f"{tag}no MIME: urlsift -j1 -H -n vs urlsift -j1 -H -n --raw", pair(us(), us("--raw"), plain), "<= 1.08")
    row(f"{tag}--mime 0.4: urlsift -j1 -H -n vs rg -j1 -n -o BARE", pair(us(), rg, mime), "<= 1.00")
    if paths == "AVX-512" or not avx512:
        row("--mime 0.4: urlsift -j1 -H -n vs urlsift -j1 -H -n --raw", pair(us(), us("--raw"), mime), "-")
    # HTML parts (rules 18-22): the HTML corpus against ripgrep and against
    # reading no HTML; mail without HTML against --html never.
    row(f"{tag}--mime 0.4 --html 0.5: urlsift -j1 -H -n vs rg -j1 -n -o BARE", pair(us(), rg, html), "<= 1.20")
    never = pair(us(), us("--html", "never"), html)
    row(f"{tag}--mime 0.4 --html 0.5: urlsift -j1 -H -n vs --html never", never, "-")
    a, b = cpu(never)
    speeds.append((paths, a - b))
    if paths == "AVX-512" or not avx512:
        row("no MIME: urlsift -j1 -H -n vs --html never", pair(us(), us("--html", "never"), plain), "<= 1.02")
os.environ.pop("URLSIFT_NO_AVX512", None)
for paths, extra in speeds:
    rate = f"{html_bytes / extra / 1e6:.0f} MB/s" if extra > 0 else "n/a"
    print(f"HTML parts ({paths}): {html_parts} parts, {html_bytes / 1e6:.1f} MB as written; "
          f"{extra * 1e3:.0f} ms of CPU beyond --html never: {rate} (>= 400 MB/s)")
PY
