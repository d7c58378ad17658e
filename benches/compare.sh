#!/usr/bin/env bash
# Side-by-side throughput of urlsift and ripgrep on a generated mail/news
# corpus (issue: "faster than ripgrep on the same job").
#
#   benches/compare.sh [--size 256M] [--runs 5] [--growth] [--dir DIR]
#
# Generates `gen-corpus --size SIZE --seed 1` (kept in DIR, default
# /tmp/urlsift-bench, and reused when it is already there), then runs each
# pair of commands RUNS times, alternating, and prints the median time of
# each, the median of the paired ratios, and peak RSS (/usr/bin/time -v).
# --growth also generates a 4x corpus and reports the time ratio (linear
# growth means 4.0). Installs ripgrep and GNU time when they are missing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$root/../shared"
size=256M runs=5 growth=0 dir=/tmp/urlsift-bench
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --growth) growth=1; shift ;;
        --dir) dir="$2"; shift 2 ;;
        *) echo "usage: $0 [--size 256M] [--runs 5] [--growth] [--dir DIR]" >&2; exit 2 ;;
    esac
done

need() { command -v "$1" >/dev/null 2>&1; }
if ! need rg; then
    (apt-get update -qq && apt-get install -y -qq ripgrep) >/dev/null 2>&1 || cargo install -q ripgrep
fi
if [ ! -x /usr/bin/time ]; then
    (apt-get update -qq && apt-get install -y -qq time) >/dev/null 2>&1
fi
(cd "$root" && cargo build --release -q)
bin="$root/target/release/urlsift"

corpus() { # corpus SIZE -> directory
    local d="$dir/$1"
    if [ ! -f "$d/expected.tsv" ]; then
        rm -rf "$d"; mkdir -p "$d"
        "$shared/bench/gen-corpus" --size "$1" --seed 1 --out "$d" >/dev/null
    fi
    echo "$d"
}

BARE='<[a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*>'
stats=$(mktemp)
trap 'rm -f "$stats" "$stats.t"' EXIT

# run LABEL CMD... : one timed run, appends "LABEL seconds maxrss_kb"
run() {
    local label="$1"; shift
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -o "$stats.t" -f "%M" "$@" >/dev/null 2>/dev/null || true
    t1=$(date +%s%N)
    echo "$label $(( (t1 - t0) / 1000 ))e-6 $(tail -1 "$stats.t")" >>"$stats"
}

pair() { # pair NAME_A NAME_B "CMD_A" "CMD_B"
    local i
    for i in $(seq "$runs"); do
        run "$1" bash -c "$3"
        run "$2" bash -c "$4"
    done
}

d=$(corpus "$size")
cd "$d"
cat mail.mbox >/dev/null; find news -type f -exec cat {} + >/dev/null   # warm the page cache
pair u1 r1 "exec $bin -j1 -H -n mail.mbox news" "exec rg -j1 -n -o '$BARE' mail.mbox news"
pair u2 r2 "exec $bin -j2 -H -n mail.mbox news" "exec rg -j2 -n -o '$BARE' mail.mbox news"
pair m2 m1 "exec $bin -j2 -n mail.mbox" "exec $bin -j1 -n mail.mbox"
if [ "$growth" = 1 ]; then
    big=$(python3 -c "import re,sys; s='$size'; m={'K':1,'M':1024,'G':1024**2}; n=int(re.match(r'\d+',s).group()); u=s[-1].upper(); kb=n*m.get(u,1)*4; print(f'{kb//1024//1024}G' if kb%(1024*1024)==0 else f'{kb//1024}M')")
    db=$(corpus "$big")
    cd "$db"; cat mail.mbox >/dev/null; find news -type f -exec cat {} + >/dev/null
    for i in $(seq "$runs"); do
        cd "$d"; run g1 "$bin" -j1 -H -n mail.mbox news
        cd "$db"; run g4 "$bin" -j1 -H -n mail.mbox news
        cd "$d"; run h1 "$bin" -j2 -H -n mail.mbox news
        cd "$db"; run h4 "$bin" -j2 -H -n mail.mbox news
    done
fi

bytes=$(cd "$d" && cat mail.mbox $(find news -type f) | wc -c)
mbox=$(cd "$d" && wc -c < mail.mbox)
python3 - "$stats" "$bytes" "$size" "$mbox" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
t = {}
for name, sec, rss in rows:
    t.setdefault(name, []).append((float(sec), int(rss)))
nbytes = int(sys.argv[2])
mbox = int(sys.argv[4])
def med(n): return statistics.median(s for s, _ in t[n])
def rss(n): return max(r for _, r in t[n]) / 1024
def ratio(a, b): return statistics.median(x[0] / y[0] for x, y in zip(t[a], t[b]))
print(f"corpus: gen-corpus --size {sys.argv[3]} --seed 1 ({nbytes/1e6:.0f} MB), {len(t['u1'])} runs each, medians")
print("| what | urlsift | other | ratio (target) | urlsift GB/s | peak RSS |")
print("| --- | --- | --- | --- | --- | --- |")
def row(label, a, b, target):
    print(f"| {label} | {med(a):.3f} s | {med(b):.3f} s | {ratio(a, b):.2f} ({target}) | {nbytes/med(a)/1e9:.2f} | {rss(a):.1f} MiB |")
row("-j1 -H -n mail.mbox news vs rg -j1 -n -o", "u1", "r1", "<= 0.83")
row("-j2 -H -n mail.mbox news vs rg -j2 -n -o", "u2", "r2", "<= 0.65")
mb = None
print(f"| -j2 vs -j1 -n mail.mbox | {med('m2'):.3f} s | {med('m1'):.3f} s | {ratio('m2', 'm1'):.2f} (<= 0.62) | {mbox/med('m2')/1e9:.2f} | {rss('m2'):.1f} MiB (j1 {rss('m1'):.1f} MiB) |")
print(f"rg peak RSS: -j1 {rss('r1'):.1f} MiB, -j2 {rss('r2'):.1f} MiB")
if "g4" in t:
    print(f"growth: 4x the input took {ratio('g4', 'g1'):.2f}x the time with -j1 and {ratio('h4', 'h1'):.2f}x with -j2 (linear: 4.00, within 10%: 3.6-4.4); peak RSS {rss('g4'):.1f} MiB (-j1), {rss('h4'):.1f} MiB (-j2)")
PY
