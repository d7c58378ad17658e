#!/usr/bin/env bash
# corpus-score.sh - precision and recall of the release binary on a 32 MB
# generated corpus, LENIENT (default) and STRICT, MIME (default) and --raw,
# on a `gen-corpus --mime 0.4` corpus (MIME reading, LENIENT and STRICT),
# with naked URLs on a `gen-corpus --naked` corpus and a `--naked --mime
# 0.4` one (LENIENT: their expectation holds that reading only), and on a
# `gen-corpus --mime 0.4 --html 0.5` corpus (HTML parts read, the default
# `--html fallback`; with and without `--naked`, at -j1 and -j2; the
# corpora written without `--html` are scored with `--html never`, as
# their expectation reads no HTML); all must be 1.0000.
#
# Needs ../shared (gen-corpus, score-urls) beside the repository. Builds the
# release binary if it is missing. URLSIFT=path overrides the binary, SIZE
# and SEED the corpus (defaults 32M, 1).
set -euo pipefail
size="${SIZE:-32M}"
seed="${SEED:-1}"
source "$(dirname "$0")/common.sh"
[ -d "$shared/bench" ] || { echo "corpus-score: $shared/bench not found" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$shared/bench/gen-corpus" --size "$size" --seed "$seed" --out "$tmp/corpus" >/dev/null
"$shared/bench/gen-corpus" --size "$size" --seed "$seed" --mime 0.4 --out "$tmp/mime" >/dev/null

status=0
score() { # label, extra urlsift flags, extra score-urls flags[, corpus]
    local label="$1" flags="$2" sflags="$3" corpus="${4:-corpus}" out report
    out="$tmp/out-$label.txt"
    # Paths relative to the corpus, as in expected.tsv.
    (cd "$tmp/$corpus" && "$bin" -H -n $flags mail.mbox news) >"$out"
    report="$("$shared/bench/score-urls" --format grep $sflags "$tmp/$corpus/expected.tsv" "$out")"
    echo "$label: $report" | head -1
    if ! grep -q 'precision 1\.0000' <<<"$report" || ! grep -q 'recall 1\.0000' <<<"$report"; then
        echo "$report" | sed 's/^/    /'
        status=1
    fi
}
score lenient "" ""
score strict "--strict" "--strict"
score raw-lenient "--raw" ""
score raw-strict "--raw --strict" "--strict"
score mime-lenient "--html never" "" mime
score mime-strict "--strict --html never" "--strict" mime
score mime-lenient-j1 "-j1 --html never" "" mime
"$shared/bench/gen-corpus" --naked --size "$size" --seed "$seed" --out "$tmp/naked" >/dev/null
score naked "--naked" "--naked" naked
score naked-j1 "--naked -j1" "--naked" naked
"$shared/bench/gen-corpus" --naked --mime 0.4 --size "$size" --seed "$seed" --out "$tmp/naked-mime" >/dev/null
score naked-mime "--naked --html never" "--naked" naked-mime
"$shared/bench/gen-corpus" --naked --mime 0.4 --html 0.5 --size "$size" --seed "$seed" --out "$tmp/html" >/dev/null
for j in 1 2; do
    score "html-j$j" "-j$j" "" html
    score "html-strict-j$j" "-j$j --strict" "--strict" html
    score "html-naked-j$j" "-j$j --naked" "--naked" html
done
score html-never "--html never" "--html-never" html
if [ "$status" -ne 0 ]; then
    echo "corpus-score: FAILED (precision and recall must both be 1.0000)" >&2
fi
exit "$status"
