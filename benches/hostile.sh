#!/usr/bin/env bash
# Hostile input: for each kind, an input of SIZE bytes and one of 2*SIZE,
# each followed by a URL that must still be found. Prints the time ratio
# (linear time: about 2.0) and the peak RSS of both runs (bounded memory:
# flat). Exits 1 when the URL after the hostile part is lost, the ratio
# exceeds 2.6, or RSS exceeds 16 MiB.
#
#   benches/hostile.sh [--size 50M] [--dir /tmp/urlsift-hostile]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
size=50M dir=/tmp/urlsift-hostile
while [ $# -gt 0 ]; do
    case "$1" in
        --size) size="$2"; shift 2 ;;
        --dir) dir="$2"; shift 2 ;;
        *) echo "usage: $0 [--size 50M] [--dir DIR]" >&2; exit 2 ;;
    esac
done
if [ ! -x /usr/bin/time ]; then
    (apt-get update -qq && apt-get install -y -qq time) >/dev/null 2>&1
fi
(cd "$root" && cargo build --release -q)
bin="$root/target/release/urlsift"
mkdir -p "$dir"
python3 - "$dir" "$size" <<'PY'
import os, random, sys
d, size = sys.argv[1], sys.argv[2]
n = int(size[:-1]) * {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[size[-1].upper()]
tail = b"\n\nafter <URL:http://found.example/after>\n"
def unit_repeat(unit, total):
    return unit * max(1, total // len(unit))
kinds = {
    "unclosed-100MB-line": lambda t: b"<URL:http://x.example/" + b"a" * t,
    "many-unclosed-wrappers": lambda t: unit_repeat(b"<URL:http://x.example/ab\n\n", t),
    "only-lt": lambda t: b"<" * t,
    "a-colon-repeated": lambda t: unit_repeat(b"<a:", t),
    "hyphen-breaks-in-one-wrapper": lambda t: b"<URL:http://x.example/" + unit_repeat(b"a-\n", t) + b">",
    "hyphen-breaks-many-wrappers": lambda t: unit_repeat(b"<URL:http://x.example/a-\nb-\nc>\n", t),
    "whitespace-in-wrapper": lambda t: b"<URL:http://x.example/" + b" \t" * (t // 2) + b">",
    "400-quote-markers": lambda t: unit_repeat(b">" * 400 + b" <URL:http://q.example/a\n" + b">" * 400 + b" b>\n", t),
    "random-bytes": lambda t: random.Random(1).randbytes(t),
    "nul-bytes": lambda t: b"\0" * t,
    "letters-after-lt": lambda t: b"<" + b"a" * t,
}
for name, make in kinds.items():
    for mult in (1, 2):
        path = os.path.join(d, f"{name}.{mult}x")
        if not os.path.exists(path) or os.path.getsize(path) < mult * n:
            with open(path, "wb") as f:
                f.write(make(mult * n) + tail)
print("\n".join(kinds))
PY
status=0
printf '| input (%s, then 2x) | time 1x | time 2x | ratio | peak RSS 1x / 2x | URL after it |\n' "$size"
printf '| --- | --- | --- | --- | --- | --- |\n'
for f in "$dir"/*.1x; do
    name=$(basename "$f" .1x)
    t1=$( { /usr/bin/time -f "%e %M" "$bin" "$dir/$name.1x" >"$dir/out1" 2>/dev/null; } 2>&1 | tail -1)
    t2=$( { /usr/bin/time -f "%e %M" "$bin" "$dir/$name.2x" >"$dir/out2" 2>/dev/null; } 2>&1 | tail -1)
    found=yes
    grep -q 'http://found.example/after' "$dir/out1" && grep -q 'http://found.example/after' "$dir/out2" || found=NO
    read -r s1 r1 <<<"$t1"; read -r s2 r2 <<<"$t2"
    line=$(python3 -c "
s1, s2, r1, r2 = $s1, $s2, $r1, $r2
ratio = s2 / max(s1, 0.01)
bad = (s2 > 0.05 and ratio > 2.6) or max(r1, r2) > 16 * 1024
print(f'{s1:.2f} s|{s2:.2f} s|{ratio:.2f}|{r1/1024:.1f} / {r2/1024:.1f} MiB|' + ('BAD' if bad else 'ok'))")
    [ "${line##*|}" = ok ] && [ "$found" = yes ] || status=1
    printf '| %s | %s | %s |\n' "$name" "${line%|*}" "$found"
done
exit $status
