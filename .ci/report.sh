#!/usr/bin/env bash
# The report page in a real browser: `urlsift --report` of samples/ opened
# in headless Chromium (Debian's chromium, installed here if missing). The
# page must log nothing to the console (it has no script: any message is
# a failure, such as a resource it tried to load), every chart and the heat
# table must have their marks in the rendered DOM, and screenshots (laptop
# and phone widths) are written under target/report-check/.
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
