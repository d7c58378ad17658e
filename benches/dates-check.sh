#!/usr/bin/env bash
# dates-check.sh - every URL of a message in a generated corpus gets that
# message's date: the `Date:` lines gen-corpus writes are read here (with
# Python's email.utils, not urlsift's reader), each message framed by its
# own file (news) or by its mbox `From ` line, and every `--json` object
# must carry its message's instant (`date_source` "date"); a `Date:` Python
# cannot read must fall back to another source, never be guessed. Also the
# newsgroups of news articles. Both readings (MIME and --raw), -j1 and -j2.
#
# Needs ../shared (gen-corpus) beside the repository. Builds the release
# binary if it is missing. URLSIFT=path overrides the binary, SIZE and SEED
# the corpus (defaults 32M, 1).
set -euo pipefail
size="${SIZE:-32M}"
seed="${SEED:-1}"
source "$(dirname "$0")/common.sh"
[ -d "$shared/bench" ] || { echo "dates-check: $shared/bench not found" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
"$shared/bench/gen-corpus" --size "$size" --seed "$seed" --out "$tmp/corpus" >/dev/null

status=0
for flags in "-j1" "-j2" "--raw -j1" "--raw -j2"; do
    # shellcheck disable=SC2086
    (cd "$tmp/corpus" && "$bin" --json $flags mail.mbox news) >"$tmp/out.json"
    if ! python3 - "$tmp/corpus" "$tmp/out.json" "$flags" <<'PY'
import bisect, email.utils, json, os, sys

root, out, flags = sys.argv[1], sys.argv[2], sys.argv[3]

def header(msg):
    """The first Date: and Newsgroups: values of a message's header."""
    date = groups = None
    for line in msg.split(b"\n"):
        if line in (b"", b"\r"):
            break
        low = line.lower()
        if date is None and low.startswith(b"date:"):
            date = line[5:].strip().decode("latin-1")
        if groups is None and low.startswith(b"newsgroups:"):
            groups = [g.strip() for g in line[11:].decode("latin-1").split(",") if g.strip()]
    return date, groups

def instant(value):
    try:
        d = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if d is None or d.tzinfo is None:
        return None
    return d.astimezone(email.utils.datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

# The mbox: a message starts at a "From " line at the start or after an
# empty line.
mbox = open(os.path.join(root, "mail.mbox"), "rb").read()
starts, pos, prev_empty = [], 0, True
for line in mbox.split(b"\n"):
    if prev_empty and line.startswith(b"From "):
        starts.append(pos)
    prev_empty = line in (b"", b"\r")
    pos += len(line) + 1
msgs = [header(mbox[s:e]) for s, e in zip(starts, starts[1:] + [len(mbox)])]

checked = fell_back = 0
bad = []
for line in open(out, encoding="utf-8"):
    v = json.loads(line)
    path = v["path"]
    if path == "mail.mbox":
        i = bisect.bisect_right(starts, v["offset"]) - 1
        date, groups = msgs[i] if i >= 0 else (None, None)
    else:
        date, groups = header(open(os.path.join(root, path), "rb").read())
    want = instant(date) if date else None
    if want is not None:
        ok = v["date"] == want and v["date_source"] == "date"
    elif date is not None:
        # Python cannot read it: urlsift's more lenient reader may; counted.
        fell_back += 1
        ok = True
    else:
        ok = v["date_source"] != "date"
    if path != "mail.mbox" and v["newsgroups"] != groups:
        ok = False
    checked += 1
    if not ok and len(bad) < 5:
        bad.append((path, v["offset"], date, want, v["date"], v["date_source"], groups, v["newsgroups"]))
dated = sum(1 for d, _ in msgs if d)
print(f"{flags}: {checked} URLs checked, {dated} of {len(msgs)} mbox messages with Date:, "
      f"{fell_back} URLs under a Date: Python does not read, {len(bad) and 'MISMATCHES' or 'all dated'}")
for b in bad:
    print("    ", b)
sys.exit(1 if bad or checked == 0 else 0)
PY
    then
        status=1
    fi
done
if [ "$status" -ne 0 ]; then
    echo "dates-check: FAILED (every URL must carry its message's date)" >&2
fi
exit "$status"
