#!/usr/bin/env bash
# The Spark job's speed per core and its cost, and extract_stream against
# extract_file.
#  1. urlsift.extract_stream over an open file must cost at most 1.1x
#     urlsift.extract_file on the same mbox (best of RUNS, interleaved).
#  2. One Spark core (local[1]) over the generated corpus (gen-corpus --size
#     SIZE --seed 7), its files listed REPS times in --files-from, JSON
#     output: MB/s = bytes / (job time - an empty job's time); target 600.
#  3. CPU cost: busy time of the whole machine (/proc/stat: every process,
#     JVM and Python workers included) less an empty job's, in MB per
#     CPU-second; target 500. On a machine shared with other work that
#     counts the others too: the CPU time of the job's own processes (user +
#     system of every process of its session: driver, JVM, Python workers,
#     sampled from /proc) is given beside it.
#  4. local[2]'s speed-up over local[1].
#  5. The largest RSS of a Python worker during the runs (target < 256 MiB).
#  6. The job with --report DIR (the derivatives counted by the scanning
#     tasks) against the same job without, local[2]: the time beyond an
#     empty job's (target: at most 1.2x), the median of REPORT_RUNS pairs.
#
#   benches/spark.sh [SIZE] [REPS]     (default 512M 8)
#
# PYTHON names an interpreter with the package, pyspark and pyarrow
# (default: the CI venv, target/py-venv, made by crates/urlsift-py/ci.sh).
set -euo pipefail
source "$(dirname "$0")/common.sh"
size="${1:-512M}"
reps="${2:-8}"
py="${PYTHON:-$root/target/py-venv/bin/python}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 "$shared/bench/gen-corpus" --size "$size" --seed 7 --out "$work/corpus" >/dev/null
find "$work/corpus" -type f ! -name '*.tsv' | sort >"$work/once"
for _ in $(seq "$reps"); do cat "$work/once"; done >"$work/list"
: >"$work/empty.txt"
echo "$work/empty.txt" >"$work/none"
bytes=$(xargs -a "$work/list" -d '\n' stat -c %s | awk '{s += $1} END {print s}')
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores"
echo "corpus $size seed 7: $(wc -l <"$work/once") files, listed $reps times: $bytes bytes"
# Into the page cache.
xargs -a "$work/once" -d '\n' cat >/dev/null

echo "== extract_stream vs extract_file"
"$py" - "$work/corpus/mail.mbox" "${RUNS:-5}" <<'PY'
import os, sys, time
import urlsift
mbox, runs = sys.argv[1], int(sys.argv[2])
def f():
    return sum(1 for _ in urlsift.extract_file(mbox))
def s():
    with open(mbox, "rb") as fh:
        return sum(1 for _ in urlsift.extract_stream(fh, name=mbox))
times = {f: [], s: []}
for _ in range(runs):
    for g in (f, s):
        t = time.perf_counter(); n = g(); times[g].append(time.perf_counter() - t)
mb = os.path.getsize(mbox) / 1e6
a, b = min(times[f]), min(times[s])
print(f"mail.mbox {mb:.0f} MB, {n} URLs: extract_file {a:.3f} s ({mb/a:.0f} MB/s), "
      f"extract_stream {b:.3f} s ({mb/b:.0f} MB/s): {b/a:.3f}x (target <= 1.1)")
PY

busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
hz=$(getconf CLK_TCK)
# Samples, while a job runs in its own session (setsid), the Python
# workers' RSS (KiB) and the CPU ticks (user + system) of each process of
# the session: the job's own CPU time, whatever else the machine runs.
watch() {
    "$py" - "$work" <<'PY'
import os, sys, time
work = sys.argv[1]
ticks, rss = {}, 0
while not os.path.exists(f"{work}/sid"):
    time.sleep(0.05)
sid = int(open(f"{work}/sid").read())
while os.path.exists(f"{work}/running"):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = open(f"/proc/{pid}/stat").read()
            f = stat[stat.rindex(")") + 2:].split()
            if int(f[3]) != sid:
                continue
            ticks[pid] = max(ticks.get(pid, 0), int(f[11]) + int(f[12]))
            cmd = open(f"/proc/{pid}/cmdline", "rb").read()
            if b"pyspark" in cmd and (b"daemon" in cmd or b"worker" in cmd):
                rss = max(rss, int(f[21]) * os.sysconf("SC_PAGE_SIZE") // 1024)
        except (OSError, ValueError, IndexError):
            pass
    time.sleep(0.2)
open(f"{work}/watched", "w").write(f"{rss} {sum(ticks.values()) / os.sysconf('SC_CLK_TCK'):.2f}\n")
PY
}
# job MASTER LIST [JOB OPTIONS...]: "wall-seconds machine-busy-seconds worker-rss-KiB job-cpu-seconds"
job() {
    rm -rf "$work/out" "$work/sid"
    touch "$work/running"
    watch &
    local w=$!
    local b0 t0 b1 t1
    b0=$(busy); t0=$(date +%s.%N)
    PYSPARK_PYTHON="$py" setsid sh -c 'echo $$ >"$0/sid"; exec "$@"' "$work" \
        "$py" -m urlsift.spark --master "$1" --files-from "$2" --out "$work/out" "${@:3}" \
        >/dev/null 2>"$work/err" || [ $? -eq 1 ] || { cat "$work/err" >&2; exit 1; }
    t1=$(date +%s.%N); b1=$(busy)
    rm -f "$work/running"; wait "$w"
    read -r r own <"$work/watched"
    awk -v t0="$t0" -v t1="$t1" -v b0="$b0" -v b1="$b1" -v hz="$hz" -v r="$r" -v own="$own" \
        'BEGIN {printf "%.2f %.2f %d %.2f\n", t1 - t0, (b1 - b0) / hz, r, own}'
}
for master in "local[1]" "local[2]"; do
    read -r ew eb _ eo < <(job "$master" "$work/none")
    read -r w b rss o < <(job "$master" "$work/list")
    rows=$(cat "$work"/out/part-* | wc -l)
    awk -v m="$master" -v w="$w" -v b="$b" -v ew="$ew" -v eb="$eb" -v n="$bytes" -v rss="$rss" -v rows="$rows" \
        -v o="$o" -v eo="$eo" 'BEGIN {
        printf "%s: job %.1f s (empty job %.1f s), %d rows: %.0f MB/s; machine busy %.1f CPU-s (empty %.1f): %.0f MB per CPU-second; the job'"'"'s own processes %.1f CPU-s (empty %.1f): %.0f MB per CPU-second; worker RSS max %.0f MiB\n",
            m, w, ew, rows, n / 1e6 / (w - ew), b, eb, n / 1e6 / (b - eb), o, eo, n / 1e6 / (o - eo), rss / 1024 }'
    echo "$w $ew" >"$work/time-$master"
done
read -r w1 e1 <"$work/time-local[1]"
read -r w2 e2 <"$work/time-local[2]"
awk -v a="$w1" -v b="$e1" -v c="$w2" -v d="$e2" 'BEGIN {printf "local[2] speed-up over local[1]: %.2fx\n", (a - b) / (c - d)}'
# The report row: REPORT_RUNS (default 3) alternating pairs, with and
# without --report, each against the empty job's time above; the median
# of the paired ratios (one pair is too noisy on a 2-core machine).
: >"$work/ratios"
for _ in $(seq "${REPORT_RUNS:-3}"); do
    rm -rf "$work/report"
    read -r wr _ _ _ < <(job "local[2]" "$work/list" --report "$work/report")
    read -r wp _ _ _ < <(job "local[2]" "$work/list")
    awk -v r="$wr" -v a="$wp" -v e="$e2" 'BEGIN {printf "%.3f %.1f %.1f\n", (r - e) / (a - e), r, a}' >>"$work/ratios"
done
sort -g "$work/ratios" | awk -v e="$e2" '{r[NR] = $0} END {
    split(r[int((NR + 1) / 2)], m, " ");
    printf "--report, local[2]: job %.1f s against %.1f s without (empty job %.1f s): %.2fx, the median of %d pairs (target <= 1.2)\n", m[2], m[3], e, m[1], NR }'
