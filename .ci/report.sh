#!/usr/bin/env bash
# The report page in a real browser: `urlsift --report` of samples/ opened
# in headless Chromium (Debian's chromium, installed here if missing). The
# page must log nothing to the console (it has no script: any message is
# a failure, such as a resource it tried to load), every chart and the heat
# table must have their marks in the rendered DOM, and screenshots (laptop
# and phone widths) are written under target/report-check/. Then the
# progress bar as a person sees it: `urlsift --report` over a large mailbox
# in a terminal (tmux, installed here if missing), the screen read while it
# runs (bytes, rate, files, time left) and after (the bar cleared).
set -euo pipefail
cd "$(dirname "$0")/.."
out=target/report-check
rm -rf "$out"
mkdir -p "$out"
bin=target/release/urlsift
[ -x "$bin" ] || bin=target/debug/urlsift
[ -x "$bin" ] || { cargo build -q; bin=target/debug/urlsift; }

if ! command -v chromium >/dev/null; then
    (apt-get update && apt-get install -y --no-install-recommends chromium) >/dev/null
fi

"$bin" --report "$out/samples" samples/
page="file://$(pwd)/$out/samples/index.html"

chrome() {
    # A fresh profile each time; nothing from the network.
    local profile
    profile=$(mktemp -d)
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$profile" --enable-logging=stderr --v=0 "$@" "$page"
    rm -rf "$profile"
}

chrome --dump-dom > "$out/dom.html" 2> "$out/console.log"
if grep -n "CONSOLE" "$out/console.log"; then
    echo "report.sh: the page wrote to the console" >&2
    exit 1
fi
python3 - "$out/dom.html" <<'PY'
import sys
from html.parser import HTMLParser

class Marks(HTMLParser):
    """Counts the marks inside each chart (svg.chart) and the heat table."""
    def __init__(self):
        super().__init__()
        self.charts, self.heat, self.stack = [], 0, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "svg" and "chart" in cls:
            self.charts.append([a.get("aria-label"), 0])
        if "mark" in cls:
            if tag == "rect" and self.charts:
                self.charts[-1][1] += 1
            elif tag == "td":
                self.heat += 1

p = Marks()
p.feed(open(sys.argv[1], encoding="utf-8").read())
print("charts:", p.charts, "heat cells:", p.heat)
assert len(p.charts) == 3, p.charts
for label, n in p.charts:
    assert n > 0, f"no marks in {label!r}"
assert p.heat > 0, "no cells in the heat table"
PY
chrome --screenshot="$out/laptop.png" --window-size=1280,3000 --hide-scrollbars 2>/dev/null
chrome --screenshot="$out/phone.png" --window-size=390,4200 --hide-scrollbars 2>/dev/null
ls -l "$out"/*.png
echo "report.sh: the page renders with its marks and no console message"

if ! command -v tmux >/dev/null 2>&1; then
    (apt-get update && apt-get install -y tmux) >/dev/null
fi
# Samples' mailbox made large (about 240 MB, its messages' IDs kept apart),
# given four times: a few seconds of reading.
python3 - "$out/big.mbox" <<'PY'
import sys
mbox = open("samples/mail/inbox.mbox", "rb").read()
with open(sys.argv[1], "wb") as f:
    n = 0
    while f.tell() < 240 << 20:
        f.write(mbox.replace(b"Message-ID: <", b"Message-ID: <%d." % n))
        n += 1
PY
big="$out/big.mbox"
sock="urlsift-report-$$"
t() { tmux -L "$sock" "$@"; }
t new-session -d -x 120 -y 12 "$bin -j1 --report $out/big $big $big $big $big; echo rc=\$?; sleep 60"
trap 't kill-server 2>/dev/null || true' EXIT
sleep 1.5
during=$(t capture-pane -p)
for _ in $(seq 1 120); do
    t capture-pane -p | grep -q "rc=" && break
    sleep 0.5
done
after=$(t capture-pane -p)
t kill-server
echo "$during" | grep -E "MiB/s|GiB/s|KiB/s" | grep -qE "files?, .* left" || {
    echo "report.sh: no progress bar while --report read:" >&2
    echo "$during" >&2
    exit 1
}
echo "$after" | grep -q "rc=0" || { echo "report.sh: --report failed:" >&2; echo "$after" >&2; exit 1; }
if echo "$after" | grep -q " left"; then
    echo "report.sh: the bar was left on the screen:" >&2
    echo "$after" >&2
    exit 1
fi
# Not a terminal: no bar at all.
"$bin" -j1 --report "$out/small" samples/ 2>"$out/stderr.txt"
[ ! -s "$out/stderr.txt" ] || { echo "report.sh: --report wrote to a stderr that is no terminal" >&2; exit 1; }
echo "$during" | grep -E " left" | head -1
echo "report.sh: the progress bar shows while --report reads, and is gone after"
