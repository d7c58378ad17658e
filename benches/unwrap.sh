#!/usr/bin/env bash
# unwrap.sh - what --unwrap costs, and unwrap alone.
#  1. On `gen-corpus --size 256M --seed 1 --mime 0.4 --html 0.5` (mail with
#     HTML parts and Safe Links among its links), one thread: `--unwrap`
#     against the same run without it, plain and JSON output, the target
#     being <= 1.02. The outputs are checked first: --unwrap changes only
#     the wrappers' lines, its output is the same at -j1 and -j2, and with
#     BASE=path (a build without --unwrap) the output without the flag is
#     byte for byte BASE's.
#  2. `cargo bench --bench unwrap`: urlsift::unwrap alone on 100,000
#     wrapped URLs (every kind) and on 100,000 that are no wrapper
#     (skipped with --no-criterion).
#
#   benches/unwrap.sh [--size 256M] [--runs 7] [--dir DIR] [--no-criterion]
#                     [--instructions]
#
# Each pair runs RUNS rounds of A, B, B, A (tools.sh's bench_pair); the
# medians of the CPU time (perf's task-clock, else wall time) and of the
# rounds' ratios are printed, with the CPU and the load. Corpora are kept
# in DIR (default /tmp/urlsift-bench) and reused. Needs ../shared
# (gen-corpus). --instructions also counts each command's instructions
# once (valgrind; tools.sh's instr_pair): the figure a noisy host does not
# move, where a 2% target is within the spread of its times.
set -euo pipefail
size=256M runs=7 dir=/tmp/urlsift-bench criterion=1 instructions=0
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --no-criterion) criterion=0; shift ;;
        --instructions) instructions=1; shift ;;
        *) echo "usage: $0 [--size 256M] [--runs 7] [--dir DIR] [--no-criterion] [--instructions]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/tools.sh"
corpus="$(bench_corpus "$size" --mime 0.4 --html 0.5)"
cd "$corpus"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

echo "corpus: $corpus ($(du -sh . | cut -f1)); CPU: $(lscpu | sed -n 's/^Model name: *//p'); load: $(cut -d' ' -f1-3 /proc/loadavg)"

# 1. The outputs.
"$bin" -j1 mail.mbox news >"$scratch/plain"
"$bin" -j1 --unwrap mail.mbox news >"$scratch/unwrap"
"$bin" -j2 --unwrap mail.mbox news >"$scratch/unwrap2"
cmp -s "$scratch/unwrap" "$scratch/unwrap2" || { echo "FAIL: --unwrap output differs at -j2"; exit 1; }
[ "$(wc -l <"$scratch/plain")" = "$(wc -l <"$scratch/unwrap")" ] || { echo "FAIL: --unwrap changed the number of lines"; exit 1; }
changed=$(diff "$scratch/plain" "$scratch/unwrap" | grep -c '^>' || true)
echo "output: $(wc -l <"$scratch/plain") URLs, $changed of them wrappers printed as their targets; --unwrap the same at -j1 and -j2"
if [ -n "${BASE:-}" ]; then
    "$BASE" -j1 mail.mbox news | cmp -s - "$scratch/plain" || { echo "FAIL: plain output differs from BASE's"; exit 1; }
    cmp -s <("$BASE" -j1 --json mail.mbox news) <("$bin" -j1 --json mail.mbox news) || { echo "FAIL: --json output differs from BASE's"; exit 1; }
    echo "output without --unwrap: byte for byte BASE's (plain and --json)"
fi

bench_pair "plain --unwrap / plain" "$bin -j1 --unwrap" "$bin -j1"
plain_ratio=$ratio
bench_pair "json --unwrap / json" "$bin -j1 --json --unwrap" "$bin -j1 --json"
verdict=$(awk -v r="$plain_ratio" 'BEGIN{print (r <= 1.02) ? "within" : "ABOVE"}')
echo "--unwrap costs ${plain_ratio}x the plain run: $verdict the target of 1.02"
if [ "$instructions" = 1 ]; then
    instr_pair "plain --unwrap / plain" "$bin -j1 --unwrap" "$bin -j1"
    verdict=$(awk -v r="$iratio" 'BEGIN{print (r <= 1.02) ? "within" : "ABOVE"}')
    echo "--unwrap costs ${iratio}x the plain run's instructions: $verdict the target of 1.02"
fi

# 2. unwrap alone.
if [ "$criterion" = 1 ]; then
    cargo bench --manifest-path "$root/Cargo.toml" -p urlsift --bench unwrap -- --noplot 2>/dev/null |
        grep -E '^unwrap/|time:|thrpt:'
fi
