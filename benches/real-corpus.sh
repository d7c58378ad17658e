#!/usr/bin/env bash
# real-corpus.sh - the release binary over ../shared/corpus/real must report
# exactly what ref-extract reports on the same files (LENIENT and STRICT;
# the default reading against ref-extract --mime, --raw against its raw
# reading; naked URLs in both readings, LENIENT); prints a diff otherwise.
# URLSIFT=path overrides the binary.
set -euo pipefail
source "$(dirname "$0")/common.sh"
real="$shared/corpus/real"
[ -d "$real" ] || { echo "real-corpus: $real not found" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$real"
files=()
for f in *; do
    case "$f" in SOURCES.md) ;; *) [ -f "$f" ] && files+=("$f") ;; esac
done

status=0
for mode in lenient strict raw-lenient raw-strict naked raw-naked; do
    flag=""
    case "$mode" in *strict) flag="--strict" ;; *naked) flag="--naked" ;; esac
    # The default reading is MIME (rules 10-13); --raw is rules 1-9 alone.
    ref="--mime" raw=""
    case "$mode" in raw-*) ref="--raw" raw="--raw" ;; esac
    # ref-extract: file<TAB>line<TAB>url; urlsift -H -n: file:line:url.
    "$shared/bench/ref-extract" $ref $flag "${files[@]}" | awk -F'\t' '{print $1 ":" $2 ":" $3}' >"$tmp/ref-$mode"
    : >"$tmp/got-$mode"
    for f in "${files[@]}"; do
        "$bin" -H -n $raw $flag "$f" >>"$tmp/got-$mode" || true
    done
    if diff -u "$tmp/ref-$mode" "$tmp/got-$mode" >"$tmp/diff-$mode"; then
        echo "$mode: identical to ref-extract ($(wc -l <"$tmp/ref-$mode") URLs in ${#files[@]} files)"
    else
        echo "$mode: DIFFERENT from ref-extract:"
        cat "$tmp/diff-$mode"
        status=1
    fi
done
exit "$status"
