#!/usr/bin/env bash
# anchors.sh - what anchor texts (and rule 23) cost: this build against a
# baseline build (one without them, e.g. main's), on the generated corpus
# `gen-corpus --size 256M --seed 1 --mime 0.4 --html 0.5`.
#
#   benches/anchors.sh --base PATH/TO/OLD/urlsift [--size 256M] [--runs 7] [--dir DIR]
#
# Prints, for `--json` (target <= 1.03) and the plain output (target: the
# same), the medians of wall and CPU time of each build and the medians of
# the paired ratios new/base (runs alternating, `-j1`), with callgrind's
# instruction counts of both on a 16M corpus of the same kind when
# valgrind is at hand (repeatable on a loaded machine). The corpora are
# kept in DIR (default /tmp/urlsift-bench) and reused.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
shared="$root/../shared"
size=256M runs=7 dir=/tmp/urlsift-bench base=
while [ $# -gt 0 ]; do
    case "$1" in
        --base) base="$2"; shift 2 ;;
        --size) size="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        *) echo "usage: $0 --base OLD_URLSIFT [--size 256M] [--runs 7] [--dir DIR]" >&2; exit 2 ;;
    esac
done
[ -x "$base" ] || { echo "anchors.sh: --base must name the baseline binary" >&2; exit 2; }
(cd "$root" && cargo build --release -q -p urlsift-cli)
new="$root/target/release/urlsift"

corpus() { # corpus SIZE -> directory
    local d="$dir/$1-mime0.4-html0.5"
    if [ ! -f "$d/expected.tsv" ]; then
        rm -rf "$d"; mkdir -p "$d"
        "$shared/bench/gen-corpus" --size "$1" --seed 1 --mime 0.4 --html 0.5 --out "$d" >/dev/null
    fi
    echo "$d"
}
html=$(corpus "$size")
echo "corpus: gen-corpus --size $size --seed 1 --mime 0.4 --html 0.5; base $base, new $new"
echo "machine load: $(cut -d' ' -f1-3 /proc/loadavg)"
for args in "--json" "" ; do
    echo "== urlsift -j1 $args (A = new, B = base)"
    # shellcheck disable=SC2086
    python3 "$root/benches/ab.py" "$runs" "$html" -- "$new" -j1 $args mail.mbox news -- "$base" -j1 $args mail.mbox news
done
if command -v valgrind >/dev/null; then
    small=$(corpus 16M)
    ir() { # the instructions callgrind counts for a run in $small
        (cd "$small" && valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null) |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    for args in "--json" "" ; do
        # shellcheck disable=SC2086
        n=$(ir "$new" -j1 $args mail.mbox news)
        # shellcheck disable=SC2086
        o=$(ir "$base" -j1 $args mail.mbox news)
        python3 -c "import sys; n, o = int(sys.argv[1]), int(sys.argv[2]); print(f'callgrind 16M -j1 {sys.argv[3]}: new {n:,} base {o:,} instructions, new/base {n / o:.4f}')" "$n" "$o" "${args:-plain}"
    done
fi
