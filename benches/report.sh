#!/usr/bin/env bash
# report.sh - the cost of --report: on `gen-corpus --size 256M --seed 1
# --mime 0.4`, one thread, `--report DIR` against `--json --fields
# date,newsgroups > /dev/null` (the target being <= 1.15), and its memory:
# the peak RSS of --report less that of the JSON run, per distinct URL
# (`-u` counts them).
#
#   benches/report.sh [--size 256M] [--runs 7] [--dir DIR] [--instructions]
#
# Each pair runs RUNS rounds of A, B, B, A (tools.sh's bench_pair); the
# medians of the time (CPU time with perf, else wall time) and of the
# rounds' ratios are printed. Corpora are kept in DIR (default
# /tmp/urlsift-bench) and reused. Needs ../shared (gen-corpus).
# --instructions also counts each command's instructions once (valgrind;
# tools.sh's instr_pair): the figure a noisy host does not move.
set -euo pipefail
size=256M runs=7 dir=/tmp/urlsift-bench instructions=0
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --instructions) instructions=1; shift ;;
        *) echo "usage: $0 [--size 256M] [--runs 7] [--dir DIR] [--instructions]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/tools.sh"
corpus="$(bench_corpus "$size" --mime 0.4)"
cd "$corpus"
rep="$dir/report-out"

# Peak resident set size in KiB of one run.
rss() {
    /usr/bin/time -f %M "$@" mail.mbox news 2>&1 >/dev/null | tail -1
}

echo "corpus: $corpus ($(du -sh . | cut -f1)); CPU: $(lscpu | sed -n 's/^Model name: *//p')"
bench_pair "report / json date,newsgroups" "$bin -j1 --report $rep" "$bin -j1 --json --fields date,newsgroups"
if [ "$instructions" = 1 ]; then
    instr_pair "report / json date,newsgroups" "$bin -j1 --report $rep" "$bin -j1 --json --fields date,newsgroups"
fi
distinct=$("$bin" -j1 -u mail.mbox news | wc -l)
r_report=$(rss "$bin" -j1 --report "$rep")
r_json=$(rss "$bin" -j1 --json --fields date,newsgroups)
echo "distinct URLs: $distinct; peak RSS: --report $r_report KiB, --json $r_json KiB"
echo "memory per distinct URL: $(( (r_report - r_json) * 1024 / (distinct > 0 ? distinct : 1) )) bytes"
