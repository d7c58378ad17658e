#!/usr/bin/env bash
# Archives: the generated corpus packed two ways.
#  1. a zip of it searched at -j2 must take at most 0.7 of the -j1 time
#     (members searched in parallel);
#  2. a .tar.gz of it must cost at most 1.25x the CPU time (user + system)
#     of `gzip -dc` plus the search of the unpacked files.
# The output is checked too: the same URLs as the unpacked corpus, in the
# members' order.
# Usage: benches/archives.sh [SIZE] [RUNS]   (default 256M, best of 3)
set -euo pipefail
source "$(dirname "$0")/common.sh"
size="${1:-256M}"
runs="${2:-3}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"$shared/bench/gen-corpus" --size "$size" --seed 1 --out "$work/corpus" >/dev/null 2>&1
(cd "$work/corpus" && zip -q -r -6 "$work/corpus.zip" . && tar -cf - . | gzip -6 >"$work/corpus.tgz")
echo "corpus $size: $(du -sb "$work/corpus" | cut -f1) bytes; zip $(stat -c %s "$work/corpus.zip"), tgz $(stat -c %s "$work/corpus.tgz")"

# Best of $runs: wall seconds, and CPU seconds (user + system).
best() {
    local wall=999999 cpu=999999 w c
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$work/time" -f "%e %U %S" "$@" >/dev/null 2>&1
        read -r w c < <(awk '{print $1, $2 + $3}' "$work/time")
        wall=$(awk -v a="$wall" -v b="$w" 'BEGIN{print (b < a) ? b : a}')
        cpu=$(awk -v a="$cpu" -v b="$c" 'BEGIN{print (b < a) ? b : a}')
    done
    echo "$wall $cpu"
}

# Same URLs: the members' URLs (names stripped) against the directory's,
# both sorted (zip and tar order members their own way).
"$bin" --no-filename "$work/corpus" | sort >"$work/dir.txt"
for a in corpus.zip corpus.tgz; do
    "$bin" --no-filename "$work/$a" | sort >"$work/a.txt"
    cmp -s "$work/dir.txt" "$work/a.txt" || { echo "FAIL: $a: URLs differ from the directory's"; exit 1; }
    cmp -s <("$bin" -j1 "$work/$a") <("$bin" -j2 "$work/$a") || { echo "FAIL: $a: -j2 output differs"; exit 1; }
done
echo "output: $(wc -l <"$work/dir.txt") URLs, the same from the directory, the zip and the tgz, at -j1 and -j2"

read -r z1 _ < <(best "$bin" -j1 "$work/corpus.zip")
read -r z2 _ < <(best "$bin" -j2 "$work/corpus.zip")
ratio=$(awk -v a="$z2" -v b="$z1" 'BEGIN{printf "%.2f", a / b}')
echo "zip: -j1 ${z1}s, -j2 ${z2}s: ratio $ratio (at most 0.70)"

read -r _ gz < <(best gzip -dc "$work/corpus.tgz")
read -r _ dir < <(best "$bin" -j1 "$work/corpus")
read -r _ tgz < <(best "$bin" -j1 "$work/corpus.tgz")
tratio=$(awk -v t="$tgz" -v g="$gz" -v d="$dir" 'BEGIN{printf "%.2f", t / (g + d)}')
echo "tgz: CPU ${tgz}s; gzip -dc ${gz}s + search of the files ${dir}s: ratio $tratio (at most 1.25)"

fail=0
awk -v r="$ratio" 'BEGIN{exit !(r <= 0.70)}' || { echo "FAIL: zip -j2/-j1 $ratio > 0.70"; fail=1; }
awk -v r="$tratio" 'BEGIN{exit !(r <= 1.25)}' || { echo "FAIL: tgz CPU ratio $tratio > 1.25"; fail=1; }
exit "$fail"
