#!/usr/bin/env bash
# real-corpus.sh - the release binary over ../shared/corpus/real must report
# exactly what ref-extract reports on the same files (LENIENT and STRICT,
# and LENIENT with naked URLs); prints a diff otherwise. URLSIFT=path
# overrides the binary.
#
# Both read every byte as text (ref-extract's default --raw; urlsift has no
# MIME decoding yet), so the one quoted-printable message
# (linux-media-...-qp.eml) is compared too: its URLs broken by soft line
# breaks come out the same raw way from both, naked ones included (a naked
# URL stops at the '=' before a soft break). The --naked --mime comparison
# belongs with MIME decoding.
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
for mode in lenient strict naked; do
    flag=""
    [ "$mode" = strict ] && flag="--strict"
    [ "$mode" = naked ] && flag="--naked"
    # ref-extract: file<TAB>line<TAB>url; urlsift -H -n: file:line:url.
    "$shared/bench/ref-extract" $flag "${files[@]}" | awk -F'\t' '{print $1 ":" $2 ":" $3}' >"$tmp/ref-$mode"
    : >"$tmp/got-$mode"
    for f in "${files[@]}"; do
        "$bin" -H -n $flag "$f" >>"$tmp/got-$mode" || true
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
