#!/usr/bin/env bash
# fields.sh - the cost of message metadata (--fields): on `gen-corpus --size
# 256M --seed 1`, one thread, `--json` with all four fields (its default)
# against `--json --fields none` (no metadata), the target being <= 1.15;
# and plain output against a BASE binary's (the build before, to see that
# plain output costs what it did) when BASE=path is given.
#
#   benches/fields.sh [--size 256M] [--runs 7] [--dir DIR]
#
# Each pair runs RUNS rounds of A, B, B, A (tools.sh's bench_pair); the
# medians of the time (CPU time with perf, else wall time) and of the
# rounds' ratios are printed. Corpora are kept in DIR (default
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
source "$(dirname "$0")/tools.sh"
corpus="$(bench_corpus "$size")"
cd "$corpus"

echo "corpus: $corpus ($(du -sh . | cut -f1)); CPU: $(lscpu | sed -n 's/^Model name: *//p')"
bench_pair "json all fields / json none" "$bin -j1 --json --fields date,newsgroups,subject,message-id" "$bin -j1 --json --fields none"
if [ -n "${BASE:-}" ]; then
    bench_pair "json all fields / BASE json (ids)" "$bin -j1 --json" "$BASE -j1 --json"
    bench_pair "plain / BASE plain" "$bin -j1" "$BASE -j1"
fi
