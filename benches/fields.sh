#!/usr/bin/env bash
# fields.sh - the cost of message metadata (--fields): on `gen-corpus --size
# 256M --seed 1`, one thread, `--json` with all four fields (its default)
# against `--json --fields none` (no metadata), the target being <= 1.15;
# and plain output against a BASE binary's (the build before, to see that
# plain output costs what it did) when BASE=path is given.
#
#   benches/fields.sh [--size 256M] [--runs 7] [--dir DIR]
#
# Each pair runs RUNS times, alternating; the medians of the time (CPU time
# with perf, else wall time) and of the paired ratios are printed. Corpora are kept in DIR (default
# /tmp/urlsift-bench) and reused. Needs ../shared (gen-corpus).
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
corpus="$dir/corpus-$size-1"
if [ ! -d "$corpus" ]; then
    mkdir -p "$dir"
    "$shared/bench/gen-corpus" --size "$size" --seed 1 --out "$corpus" >/dev/null
fi
cd "$corpus"

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

echo "corpus: $corpus ($(du -sh . | cut -f1)); CPU: $(lscpu | sed -n 's/^Model name: *//p')"
pair "json all fields / json none" "$bin -j1 --json --fields date,newsgroups,subject,message-id" "$bin -j1 --json --fields none"
if [ -n "${BASE:-}" ]; then
    pair "json all fields / BASE json (ids)" "$bin -j1 --json" "$BASE -j1 --json"
    pair "plain / BASE plain" "$bin -j1" "$BASE -j1"
fi
