#!/usr/bin/env bash
# pick.sh - `urlsift --pick` end to end in a real terminal: tmux runs it,
# send-keys types, capture-pane reads the screen. Installs tmux if missing.
#
#   bash .ci/pick.sh [path/to/urlsift]     (default: builds target/debug/urlsift)
set -euo pipefail
cd "$(dirname "$0")/.."

# tmux, and procps for ps and pgrep (a minimal Debian has neither).
if ! command -v tmux >/dev/null 2>&1 || ! command -v pgrep >/dev/null 2>&1; then
    (apt-get update && apt-get install -y tmux procps) >/dev/null
fi
bin="${1:-}"
if [ -z "$bin" ]; then
    cargo build -q -p urlsift-cli
    bin="$(pwd)/target/debug/urlsift"
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

t="$(mktemp -d /tmp/urlsift-pick.XXXXXX)"
sock="$t/tmux.sock"
tm() { tmux -S "$sock" "$@"; }
trap 'tm kill-server 2>/dev/null || true; rm -rf "$t"' EXIT
fails=0
fail() { echo "FAIL: $*" >&2; tm capture-pane -p -t p >&2 2>/dev/null || true; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# A message: a URL twice, a naked one, one with shell metacharacters.
cat >"$t/msg.eml" <<'MSG'
From: a@example.org
To: b@example.org
Subject: links
Content-Type: text/plain

See <URL:http://one.example/page> and <http://two.example/>.
Again <URL:http://one.example/page>
Naked: https://three.example/path?x=1 end.
Evil <URL:http://a.example/x;touch$IFS/tmp/f>
MSG
# The same URL with the picker's scratch folder instead of /tmp, so that
# a run that went through a shell would leave a file where we look.
sed "s|touch\$IFS/tmp/f|touch\$IFS$t/f|" "$t/msg.eml" >"$t/evil.eml"
evil="http://a.example/x;touch\$IFS$t/f"

# start CMD...: a fresh 80x12 window running CMD in sh, its status in
# $t/rc when it ends (the window stays open).
start() {
    tm kill-session -t p 2>/dev/null || true
    rm -f "$t/rc"
    tm new-session -d -s p -x 80 -y 12 "cd '$t' && $*; echo \$? > '$t/rc'; sleep 600"
    # Esc reaches the program at once, not after tmux's wait for a sequence.
    tm set-option -s escape-time 0
}
screen() { tm capture-pane -p -t p; }
# wait_for TEXT [SECONDS]: until the screen shows TEXT.
wait_for() {
    local end=$((SECONDS + ${2:-10}))
    while [ $SECONDS -lt $end ]; do
        if screen | grep -qF -- "$1"; then return 0; fi
        sleep 0.05
    done
    return 1
}
# wait_rc [SECONDS]: until the command has ended; prints its status.
wait_rc() {
    local end=$((SECONDS + ${1:-10}))
    while [ $SECONDS -lt $end ]; do
        if [ -s "$t/rc" ]; then cat "$t/rc"; return 0; fi
        sleep 0.05
    done
    echo timeout
}
keys() { tm send-keys -t p "$@"; sleep 0.15; }
# The picker's pid: the child of the window's shell.
picker() { pgrep -n -P "$(tm display-message -p -t p '#{pane_pid}')"; }
# The status line (second to last): the selected URL, whole.
status() { screen | tail -n 2 | head -n 1 | sed 's/ *$//'; }
# gone TEXT: until the screen does not show TEXT (5 s at most).
gone() {
    local end=$((SECONDS + 5))
    while [ $SECONDS -lt $end ]; do
        if ! screen | grep -qF -- "$1"; then return 0; fi
        sleep 0.05
    done
    return 1
}
# st_is URL: until the status line shows URL (5 s at most).
st_is() {
    local end=$((SECONDS + 5))
    while [ $SECONDS -lt $end ]; do
        if [ "$(status)" = "$1" ]; then return 0; fi
        sleep 0.05
    done
    return 1
}

echo "== keys"
start "'$bin' --pick msg.eml"
if wait_for "done · ? help"; then
    s="$(screen)"
    grep -qF "2× http://one.example/page" <<<"$s" || fail "count of a URL found twice"
    [ "$(grep -c 'http://one.example/page  ' <<<"$s")" = 1 ] || fail "a URL shown once"
    grep -q "https://three.example/path?x=1 *naked" <<<"$s" || fail "naked URL read by default"
    grep -qF "Naked: https://three.example/path?x=1 end." <<<"$s" || fail "context line"
    st_is "http://one.example/page" || fail "first selected"
    keys j; st_is "http://two.example/" || fail "j"
    keys Down; st_is "https://three.example/path?x=1" || fail "Down"
    keys k; st_is "http://two.example/" || fail "k"
    keys Up; st_is "http://one.example/page" || fail "Up"
    keys G; st_is 'http://a.example/x;touch$IFS/tmp/f' || fail "G"
    keys g; st_is "http://one.example/page" || fail "g"
    keys End; st_is 'http://a.example/x;touch$IFS/tmp/f' || fail "End"
    keys Home; st_is "http://one.example/page" || fail "Home"
    keys Space; screen | grep -q "^\* *2× http://one.example/page" || fail "Space marks"
    wait_for "1 marked" 5 || fail "marks counted"
    keys Space; gone "marked" || fail "Space unmarks"
    keys c; gone "See <URL:" || fail "c hides context"
    keys c; wait_for "See <URL:" 5 || fail "c shows context"
    keys / t h r e; wait_for "/thre" 5 || fail "/ opens the filter"
    wait_for "1/1 of 4" 5 || fail "filter as you type"
    st_is "https://three.example/path?x=1" || fail "filter selects what it keeps"
    keys Escape; wait_for "3/4 · done" 5 || fail "Esc clears the filter (the selection kept)"
    keys / t w o Enter; wait_for "filter: two" 5 || fail "Enter keeps the filter"
    # (The filter reads context too: "two" is in the first URL's line.)
    keys j; wait_for "2/2 of 4" 5 || fail "keys move within the kept filter"
    keys '?'; wait_for "urlsift --pick: keys" 5 || fail "? shows the help"
    keys '?'; wait_for "filter: two" 5 || fail "? closes the help"
    keys q
    [ "$(wait_rc)" = 1 ] || fail "q without acting exits 1"
    ok "keys, help, filter, marks, context"
else
    fail "the list did not come up"
fi

echo "== --print"
start "'$bin' --pick --print msg.eml > out"
wait_for "done · ? help" || fail "--print: no list"
keys j Enter
[ "$(wait_rc)" = 0 ] || fail "--print: Enter exits 0"
[ "$(cat "$t/out")" = "http://two.example/" ] || fail "--print: the selected URL"
start "cat msg.eml | '$bin' --pick --print > out"
wait_for "done · ? help" || fail "--print from a pipe: no list"
keys G Space g Space Enter
[ "$(wait_rc)" = 0 ] || fail "--print: marked"
printf 'http://one.example/page\nhttp://a.example/x;touch$IFS/tmp/f\n' | cmp -s - "$t/out" \
    || fail "--print: the marked URLs in list order: $(cat "$t/out")"
start "'$bin' --pick --print msg.eml > out"
wait_for "done · ? help" || fail "--print: no list"
keys q
[ "$(wait_rc)" = 1 ] || fail "--print: q exits 1"
[ ! -s "$t/out" ] || fail "--print: q prints nothing"
start "'$bin' --pick --print --no-naked msg.eml > out"
wait_for "done · ? help" || fail "--no-naked: no list"
gone "three.example" || fail "--no-naked leaves naked URLs out"
keys q
ok "--print, marks, q, --no-naked"

echo "== --run: one argument, no shell"
cat >"$t/rec" <<'REC'
#!/bin/sh
# Writes each argument on a line of its own, then a line "argc=N".
for a in "$@"; do printf '%s\n' "$a"; done > "$(dirname "$0")/args"
echo "argc=$#" >> "$(dirname "$0")/args"
REC
chmod +x "$t/rec"
start "'$bin' --pick --run '$t/rec --url {}' evil.eml"
wait_for "done · ? help" || fail "--run: no list"
keys G Enter
sleep 0.5
printf -- '--url\n%s\nargc=2\n' "$evil" | cmp -s - "$t/args" || fail "--run: argv was $(cat "$t/args")"
[ ! -e "$t/f" ] || fail "--run: the URL's ';touch' ran"
wait_for "opened with" 5 || fail "--run: note"
keys q
[ "$(wait_rc)" = 0 ] || fail "--run: q after opening exits 0"
rm -f "$t/args"
start "'$bin' --pick --run-shell --run 'printf %s {} > $t/args' evil.eml"
wait_for "done · ? help" || fail "--run-shell: no list"
keys G Enter
sleep 0.5
[ "$(cat "$t/args")" = "$evil" ] || fail "--run-shell: the URL quoted: $(cat "$t/args")"
[ ! -e "$t/f" ] || fail "--run-shell: the URL's ';touch' ran"
keys q
ok "--run and --run-shell, shell metacharacters inert"

echo "== the opener is detached: a browser that sleeps blocks nothing"
cat >"$t/browser" <<'BR'
#!/bin/sh
d="$(dirname "$0")"
echo "$1" >> "$d/opened"
cut -d' ' -f6 /proc/$$/stat > "$d/sid.$$"
exec sleep 30
BR
chmod +x "$t/browser"
start "BROWSER='$t/browser' '$bin' --pick msg.eml"
wait_for "done · ? help" || fail "browser: no list"
keys Enter
keys j
st_is "http://two.example/" || fail "the list is live while the browser runs"
keys Enter
sleep 0.5
printf 'http://one.example/page\nhttp://two.example/\n' | cmp -s - "$t/opened" || fail "browser: opened $(cat "$t/opened")"
upid="$(picker || true)"
psid="$(cut -d' ' -f6 "/proc/$upid/stat")"
for f in "$t"/sid.*; do
    [ "$(cat "$f")" = "${f##*.}" ] || fail "the browser leads its own session"
    [ "$(cat "$f")" != "$psid" ] || fail "the browser is not in the picker's session"
done
keys q
[ "$(wait_rc)" = 0 ] || fail "browser: q exits 0"
# (The browser's pid is in its file's name: it exec'ed sleep.)
for f in "$t"/sid.*; do
    kill -0 "${f##*.}" 2>/dev/null || fail "the browser outlives the picker"
    kill "${f##*.}" 2>/dev/null || true
done
ok "detached opener, list live, own session"

echo "== openers that end are reaped (no zombies)"
printf '#!/bin/sh\nexit 0\n' >"$t/quick"
chmod +x "$t/quick"
start "'$bin' --pick --run '$t/quick {}' msg.eml"
wait_for "done · ? help" || fail "reap: no list"
keys Enter j Enter j Enter
sleep 0.5
upid="$(picker || true)"
if [ -n "$upid" ]; then
    zombies="$(ps -o stat= --ppid "$upid" | grep -c Z || true)"
    [ "$zombies" = 0 ] || fail "$zombies zombie openers"
else
    fail "reap: picker not found"
fi
keys q
ok "no zombies"

echo "== --wait: the terminal handed over and back"
start "'$bin' --pick --wait --run \"sh -c 'echo IN-OPENER \\\$0; read x'\" msg.eml"
wait_for "done · ? help" || fail "--wait: no list"
keys Enter
wait_for "IN-OPENER http://one.example/page" 5 || fail "--wait: the opener has the terminal"
gone "? help" || fail "--wait: the list is away"
keys x Enter
wait_for "done · ? help" 5 || fail "--wait: the list comes back"
keys j
st_is "http://two.example/" || fail "--wait: keys work after"
keys q
ok "--wait"

echo "== the terminal restored: quit, SIGTERM, SIGINT"
start "stty -a > before; '$bin' --pick msg.eml; stty -a > after"
wait_for "done · ? help" || fail "stty: no list"
keys q
[ "$(wait_rc)" = 0 ] || fail "stty run"
cmp -s "$t/before" "$t/after" || fail "stty -a differs after q: $(diff "$t/before" "$t/after")"
for sig in TERM INT HUP; do
    start "stty -a > before; '$bin' --pick msg.eml; echo \$? > sigrc; stty -a > after"
    wait_for "done · ? help" || fail "$sig: no list"
    upid="$(picker)"
    kill -"$sig" "$upid"
    wait_rc >/dev/null
    cmp -s "$t/before" "$t/after" || fail "stty -a differs after SIG$sig"
    want=$((128 + $(kill -l "$sig")))
    [ "$(cat "$t/sigrc")" = "$want" ] || fail "SIG$sig: status $(cat "$t/sigrc"), not $want"
    gone "? help" || fail "SIG$sig: the list is still on the screen"
done
ok "terminal restored"

echo "== resize redraws; NO_COLOR"
start "'$bin' --pick msg.eml"
wait_for "done · ? help" || fail "resize: no list"
tm resize-window -t p -x 60 -y 10
sleep 0.3
[ "$(screen | tail -n 1 | sed 's/ *$//' | wc -L)" -le 60 ] || fail "resize"
screen | tail -n 1 | grep -qF "1/4 · done · ? help" || fail "resize: bar redrawn"
tm capture-pane -e -p -t p | grep -q $'\e\\[38;5;' || fail "colours by default"
keys q
start "NO_COLOR=1 '$bin' --pick msg.eml"
wait_for "done · ? help" || fail "NO_COLOR: no list"
tm capture-pane -e -p -t p | grep -q $'\e\\[38;5;' && fail "NO_COLOR: colours used"
tm capture-pane -e -p -t p | grep -Eq $'\e\\[([0-9]+;)*7m' || fail "NO_COLOR: the selection in reverse video"
keys q
ok "resize, NO_COLOR"

echo "== the list fills while the input is still being read"
printf 'Subject: late\n\n<http://late.example/>\n' >"$t/late.txt"
start "{ cat msg.eml; sleep 2; cat late.txt; } | '$bin' --pick"
wait_for "http://one.example/page" 5 || fail "fill: the first URLs before the input ends"
wait_for "reading…" 5 || fail "fill: still reading"
gone "late.example" || fail "fill: the late URL too early"
wait_for "late.example" 5 || fail "fill: the late URL"
wait_for "done · ? help" 5 || fail "fill: done"
keys q
ok "fills while reading"

echo "== no terminal"
set +e
msg="$(setsid -w "$bin" --pick "$t/msg.eml" </dev/null 2>&1 >/dev/null)"
rc=$?
set -e
[ "$rc" = 2 ] || fail "no terminal: status $rc"
[ "$msg" = "urlsift: --pick needs a terminal" ] || fail "no terminal: message $msg"
ok "no terminal: exit 2"

echo "== an unreadable path: reported after the list, not over it"
start "'$bin' --pick msg.eml no-such-file 2> err"
wait_for "done · ? help" || fail "err: no list"
wait_for "standard error" 5 || fail "err: noted"
gone "no-such-file" || fail "err: written over the list"
keys q
wait_rc >/dev/null
grep -qF "no-such-file" "$t/err" || fail "err: shown after"
ok "errors after the list"

if [ "$fails" -gt 0 ]; then
    echo "pick: $fails failures" >&2
    exit 1
fi
echo "pick: all passed"
