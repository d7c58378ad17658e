#!/usr/bin/env bash
# charsets.sh - what decoding headers and context lines in every charset
# costs: on `gen-corpus --size 256M --seed 1 --mime 0.4 --html 0.5`, one
# thread, this build against BASE (the build before; by default the `main`
# branch, built in a temporary worktree): `--json` with all four fields
# (its default; target <= 1.03) and plain output (target 1.00).
#
#   benches/charsets.sh [--size 256M] [--runs 7] [--dir DIR] [--callgrind]
#
# BASE=path sets the binary to compare with. Each pair runs RUNS rounds of
# A, B, B, A (tools.sh's bench_pair); the medians of the CPU time
# (perf's task-clock, else wall time) and of the rounds' ratios are printed. With --callgrind, the
# instructions of one run of each on a 16M corpus of the same kind
# (repeatable on a loaded machine). Corpora are kept in DIR (default
# /tmp/urlsift-bench) and reused. Needs ../shared (gen-corpus).
set -euo pipefail
size=256M runs=7 dir=/tmp/urlsift-bench callgrind=0
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        --callgrind) callgrind=1; shift ;;
        *) echo "usage: $0 [--size 256M] [--runs 7] [--dir DIR] [--callgrind]" >&2; exit 2 ;;
    esac
done
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/tools.sh"
mkdir -p "$dir"

if [ -z "${BASE:-}" ]; then
    base_tree="$dir/base-main"
    if [ ! -x "$base_tree/target/release/urlsift" ]; then
        rm -rf "$base_tree"
        git -C "$root" worktree add --detach "$base_tree" main >/dev/null
        cargo build --release -q --manifest-path "$base_tree/Cargo.toml" -p urlsift-cli
    fi
    BASE="$base_tree/target/release/urlsift"
fi

cpu="$(lscpu | sed -n 's/^Model name: *//p')"

if [ "$callgrind" = 1 ]; then
    command -v valgrind >/dev/null || { apt-get update >/dev/null && apt-get install -y valgrind >/dev/null; }
    corpus="$(bench_corpus 16M --mime 0.4 --html 0.5)"
    cd "$corpus"
    instr() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" mail.mbox news 2>&1 >/dev/null |
            sed -n 's/.*Collected : *//p'
    }
    echo "corpus: $corpus ($(du -sh . | cut -f1)); CPU: $cpu; instructions (callgrind)"
    for mode in "--json" ""; do
        # shellcheck disable=SC2086
        a=$(instr "$bin" -j1 $mode) b=$(instr "$BASE" -j1 $mode)
        printf '%-10s this %s  base %s  ratio %s\n' "${mode:-plain}" "$a" "$b" \
            "$(echo "scale=4; $a / $b" | bc)"
    done
    exit 0
fi

corpus="$(bench_corpus "$size" --mime 0.4 --html 0.5)"
cd "$corpus"

echo "corpus: $corpus ($(du -sh . | cut -f1)); CPU: $cpu; base: $BASE"
bench_pair "--json (all fields)" "$bin -j1 --json" "$BASE -j1 --json"
bench_pair "plain" "$bin -j1" "$BASE -j1"
