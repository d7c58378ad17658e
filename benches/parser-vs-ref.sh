#!/usr/bin/env bash
# The hand-written parser against the reference extractor's own grammar
# (`valid()` in ../shared/bench/ref-extract, which the corpus is built
# from): N near-valid URLs (random pieces of every scheme with random
# insertions, deletions and replacements), both policies. Fails on the
# first disagreement.
#
#   benches/parser-vs-ref.sh [N] [SEED]      (default 100000 1)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ref="$root/../shared/bench/ref-extract"
n="${1:-100000}" seed="${2:-1}"
tsv=$(mktemp)
trap 'rm -f "$tsv"' EXIT
python3 - "$ref" "$tsv" "$seed" "$n" <<'PY'
import importlib.machinery, importlib.util, random, sys
loader = importlib.machinery.SourceFileLoader("refx", sys.argv[1])
spec = importlib.util.spec_from_loader("refx", loader)
ref = importlib.util.module_from_spec(spec)
loader.exec_module(ref)
PRE = ["http://", "ftp://", "gopher://", "mailto:", "news:", "nntp://", "telnet://", "wais://",
       "file://", "prospero://", "HTTP://", "Ftp://", "x-y.z+1:", "foo://", "file:///", "http:", "", ":"]
PIE = ["a", "host", "b-c", "x9", "1", "12", "300", ".", "-", ":", "@", "/", "//", "?", ";", "=", "&",
       "%41", "%0d", "%7e", "%4", "%G1", "%", "~", "#", ";type=", ";type=d", ";type=x", "a.b.c",
       "1.2.3.4", "1.2.3", "_", "*", " ", "80", "+", "!", "$", "'", "com", "user:pw@", "u@", "%09",
       "a=b", ";f=v", "localhost", "<", "\"", "(", ","]
BY = list("-.:@/?;=%~# aZ09_*&+$!")
random.seed(int(sys.argv[3]))
with open(sys.argv[2], "w") as out:
    for _ in range(int(sys.argv[4])):
        s = list(random.choice(PRE) + "".join(random.choice(PIE) for _ in range(random.randrange(0, 9))))
        for _ in range(random.randrange(0, 3)):
            op, b = random.randrange(3), random.choice(BY)
            if op == 0:
                s.insert(random.randrange(len(s) + 1), b)
            elif s and op == 1:
                s.pop(random.randrange(len(s)))
            elif s:
                s[random.randrange(len(s))] = b
        s = "".join(s)
        out.write("%s\t%d\t%d\n" % (s.encode().hex(), ref.valid(s, False), ref.valid(s, True)))
PY
cd "$root"
URLSIFT_REF_TSV="$tsv" cargo test -q --release --test oracle reference_tsv -- --ignored --nocapture 2>&1 | grep -E "inputs agree|test result|panicked|FAILED"
