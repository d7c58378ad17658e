#!/usr/bin/env bash
# Hostile input: for each kind, an input of SIZE bytes and one of 2*SIZE,
# each followed by a URL that must still be found. Prints the time ratio
# (linear time: about 2.0) and the peak RSS of both runs with two threads
# and of the larger with one (bounded memory: flat). Exits 1 when the URL
# after the hostile part is lost, the ratio exceeds 2.6, or RSS exceeds
# 16 MiB with one thread or 32 MiB with two (the bounds). The kinds
# named naked-* run with --naked (linear, peak RSS at most 64 MiB, the URL
# after still found). The kinds named html-* are the body of an HTML part
# of a multipart/mixed message (contract rules 18-22; linear, peak RSS at
# most 64 MiB): the URL after it stands in the HTML as `&lt;URL:...&gt;`
# where the standard's tokenizer reads text there, and in a text/plain
# part after it (an unclosed comment, script or quoted value ends with
# its part).
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
    # Naked URLs (contract rules 14-17), searched with --naked.
    "naked-http-chain-one-line": lambda t: unit_repeat(b"http://", t),
    "naked-open-paren-storm": lambda t: b"http://a.example/" + b"(" * t,
    "naked-close-paren-storm": lambda t: b"http://a.example/" + b")" * t,
    "naked-trailing-dot-storm": lambda t: b"http://a.example/" + b"." * t,
    "naked-wiki-parens-chain": lambda t: unit_repeat(b"http://a.example/(x)", t),
    "naked-a-colon-repeated": lambda t: unit_repeat(b"a:", t),
    "naked-scheme-alphabet": lambda t: random.Random(1).randbytes(t).translate(
        bytes(b"abcdefghijklmnopqrstuvwxyz0123456789+-.:/"[i % 41] for i in range(256))),
    # Worst case of validation: thousands of candidates in each 15 KB line,
    # each parsed to the line's end before it fails there.
    "naked-rejected-at-line-end": lambda t: unit_repeat(b"ftp://a/" * 1900 + b";x\n", t),
    # HTML parts (rules 18-22): see html() below.
    "html-data-href": lambda t: b'<a href="data:text/plain;base64,' + b"QUJD" * (t // 4) + b'">x</a>',
    "html-unclosed-comment": lambda t: b"<!--" + unit_repeat(b"<a href=http://c.example/>x -- ", t),
    "html-unclosed-script": lambda t: b"<script>" + unit_repeat(b"x<y</scrip </scripty ", t),
    "html-million-tags": lambda t: unit_repeat(b"<b>x</b>", t),
    "html-million-attributes": lambda t: b"<a " + unit_repeat(b"x=y ", t) + b"href=http://a.example/>a</a>",
    "html-deep-nesting": lambda t: unit_repeat(b"<div><span><table><tr><td>", t),
    "html-unclosed-quoted-attribute": lambda t: b'<a title="' + unit_repeat(b"x > y <a href=http://q.example/> ", t),
    "html-character-references": lambda t: unit_repeat(b"&amp;&#60;&lt&#x3E;&notin;&#000000065;", t),
}
html_head = b"Subject: hostile\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n\n"
html_tail = (b"\n&lt;URL:http://found.example/after&gt;\n--b\nContent-Type: text/plain\n\n"
             + tail + b"--b--\n")
for name, make in kinds.items():
    for mult in (1, 2):
        path = os.path.join(d, f"{name}.{mult}x")
        if not os.path.exists(path) or os.path.getsize(path) < mult * n:
            with open(path, "wb") as f:
                if name.startswith("html-"):
                    f.write(html_head + make(mult * n) + html_tail)
                else:
                    f.write(make(mult * n) + tail)
# A directory walk (no stat per file): two halves of dense URLs as large
# files in different batches, small files between them, so threads search
# both at once and the second must wait for the first to be written.
dense = b"".join(b"<http://h%d.example/p%d> " % (i, i) for i in range(20)) + b"\n"
for mult in (1, 2):
    path = os.path.join(d, f"dense-files-in-a-walk.{mult}x")
    if not os.path.isdir(path):
        os.makedirs(path)
        half = unit_repeat(dense, mult * n // 2)
        with open(os.path.join(path, "0"), "wb") as f:
            f.write(half)
        for i in range(1, 9):
            with open(os.path.join(path, str(i)), "wb") as f:
                f.write(dense * 10)
        with open(os.path.join(path, "9"), "wb") as f:
            f.write(half + tail)
print(f"{len(kinds) + 1} kinds of hostile input in {d}", file=sys.stderr)
PY
python3 - "$bin" "$dir" "$size" <<'PY'
import glob, os, subprocess, sys, time
bin, d, size = sys.argv[1], sys.argv[2], sys.argv[3]

def flags(path):
    return ["--naked"] if os.path.basename(path).startswith("naked-") else []

def timed(path):
    t0 = time.perf_counter()
    out = subprocess.run([bin, "-n", *flags(path), path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    return time.perf_counter() - t0, b"http://found.example/after" in out

def peak(path, threads):
    err = subprocess.run(["/usr/bin/time", "-f", "%M", bin, f"-j{threads}", *flags(path), path],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         text=True).stderr.strip().splitlines()[-1]
    return int(err) / 1024

bad = False
print(f"| input ({size}, then 2x) | time 1x | time 2x | ratio | peak RSS -j2 1x / 2x, -j1 2x | URL after it |")
print("| --- | --- | --- | --- | --- | --- |")
for one in sorted(glob.glob(os.path.join(d, "*.1x"))):
    name = os.path.basename(one)[:-3]
    two = one[:-3] + ".2x"
    for top in (one, two):  # warm the page cache
        for f in sorted(glob.glob(os.path.join(top, "*"))) if os.path.isdir(top) else [top]:
            with open(f, "rb") as fh:
                while fh.read(1 << 24):
                    pass
    runs1, runs2 = [], []
    for _ in range(3):
        runs1.append(timed(one))
        runs2.append(timed(two))
    t1, t2 = min(t for t, _ in runs1), min(t for t, _ in runs2)
    found = all(f for _, f in runs1 + runs2)
    r1, r2, s2 = peak(one, 2), peak(two, 2), peak(two, 1)
    ratio = t2 / t1
    if flags(one) or name.startswith("html-"):
        ok = found and ratio <= 2.6 and max(r1, r2, s2) <= 64
    else:
        ok = found and ratio <= 2.6 and max(r1, r2) <= 32 and s2 <= 16
    bad |= not ok
    print(f"| {name} | {t1:.3f} s | {t2:.3f} s | {ratio:.2f} | {r1:.1f} / {r2:.1f}, {s2:.1f} MiB | {'yes' if found else 'NO'}{'' if ok else ' (BAD)'} |")
sys.exit(1 if bad else 0)
PY
