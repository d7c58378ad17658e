#!/usr/bin/env bash
# report.sh - the cost of --report: on `gen-corpus --size 256M --seed 1
# --mime 0.4`, one thread, `--report DIR` against `--json --fields
# date,newsgroups > /dev/null` (the target being <= 1.15), and its memory:
# the peak RSS of --report less that of the JSON run, per distinct URL
# (`-u` counts them).
#
#   benches/report.sh [--size 256M] [--runs 7] [--dir DIR]
#
# Each pair runs RUNS times, alternating; the medians of the time (CPU time
# with perf, else wall time) and of the paired ratios are printed. Corpora
# are kept in DIR (default /tmp/urlsift-bench) and reused. Needs ../shared
# (gen-corpus).
set -euo pipefail
size=256M runs=7 dir=/tmp/urlsift-bench
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        *) echo "usage: $0 [--size 256M] [--runs 7] [--dir DIR]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/common.sh"
corpus="$dir/corpus-$size-1-mime0.4"
if [ ! -d "$corpus" ]; then
    mkdir -p "$dir"
    "$shared/bench/gen-corpus" --size "$size" --seed 1 --mime 0.4 --out "$corpus" >/dev/null
fi
cd "$corpus"
rep="$dir/report-out"

# Seconds of one run of the command in "$@": CPU time (perf's task-clock)
# when perf is there, steadier than wall time on a shared machine; wall
# time otherwise.
wall() {
    local t0 t1
    if command -v perf >/dev/null 2>&1; then
        perf stat -x, -e task-clock "$@" mail.mbox news 2>&1 >/dev/null |
            awk -F, '/task-clock/ {printf "%.4f\n", $1 / 1000}'
        return
    fi
    t0=$(date +%s%N)
    "$@" mail.mbox news >/dev/null
    t1=$(date +%s%N)
    echo "scale=4; ($t1 - $t0) / 1000000000" | bc
}

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# pair LABEL "A command" "B command": RUNS alternating runs of each.
pair() {
    local label="$1" a="$2" b="$3" ta tb i
    : >"$dir/a" && : >"$dir/b" && : >"$dir/r"
    # shellcheck disable=SC2086
    for ((i = 0; i < runs; i++)); do
        ta=$(wall $a)
        tb=$(wall $b)
        echo "$ta" >>"$dir/a"
        echo "$tb" >>"$dir/b"
        echo "scale=4; $ta / $tb" | bc >>"$dir/r"
    done
    printf '%-40s A %6.3f s  B %6.3f s  A/B median %s (range %s-%s)\n' "$label" \
        "$(median <"$dir/a")" "$(median <"$dir/b")" "$(median <"$dir/r")" \
        "$(sort -g "$dir/r" | head -1)" "$(sort -g "$dir/r" | tail -1)"
}

# Peak resident set size in KiB of one run.
rss() {
    /usr/bin/time -f %M "$@" mail.mbox news 2>&1 >/dev/null | tail -1
}

echo "corpus: $corpus ($(du -sh . | cut -f1)); CPU: $(lscpu | sed -n 's/^Model name: *//p')"
pair "report / json date,newsgroups" "$bin -j1 --report $rep" "$bin -j1 --json --fields date,newsgroups"
distinct=$("$bin" -j1 -u mail.mbox news | wc -l)
r_report=$(rss "$bin" -j1 --report "$rep")
r_json=$(rss "$bin" -j1 --json --fields date,newsgroups)
echo "distinct URLs: $distinct; peak RSS: --report $r_report KiB, --json $r_json KiB"
echo "memory per distinct URL: $(( (r_report - r_json) * 1024 / (distinct > 0 ? distinct : 1) )) bytes"
