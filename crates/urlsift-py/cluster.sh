#!/usr/bin/env bash
# The Spark job on a real cluster manager: a standalone master and two
# workers on 127.0.0.1, started with the spark-class launcher of the
# pyspark wheel (ci.sh's venv), and the job submitted with spark-submit
# --master spark://... as a cluster user submits it (docs/python.md, "At
# scale"): the package shipped to the executors in a packed virtual
# environment (the manylinux wheel, pyarrow and pandas in a venv packed by
# venv-pack, given with --archives, PYSPARK_PYTHON pointing into it). The
# rows must be the command's (target/release/urlsift --json) over the same
# inputs: samples/, a piece of generated corpus (../shared/bench/gen-corpus,
# when there), a mailbox of mailing lists (List-Id:, no Newsgroups:) and a
# gzipped mailbox cut in half, whose damage both report (exit 2, one row in
# OUT/_errors); the job's --report files must be the command's, byte for
# byte. The cluster is stopped whatever happens.
# .ci/run calls it after wheel.sh (whose wheel it ships; without one it
# builds a plain wheel with maturin). URLSIFT_PY_VENV and URLSIFT_BIN as
# for ci.sh; URLSIFT_WHEEL names the wheel to ship.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
start=$SECONDS
venv=${URLSIFT_PY_VENV:-$root/target/py-venv}
py="$venv/bin/python"
[ -x "$py" ] || { echo "no venv at $venv: run crates/urlsift-py/ci.sh first" >&2; exit 1; }
command -v java >/dev/null || { echo "cluster.sh needs java (17) on PATH" >&2; exit 1; }
bin=${URLSIFT_BIN:-$root/target/release/urlsift}
[ -n "${URLSIFT_BIN:-}" ] || [ -x "$bin" ] || cargo build --release

work=$root/target/cluster
rm -rf "$work"
mkdir -p "$work"
pids=()
stop() {
    # The master and the workers (spark-class execs java: these are the JVMs).
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
    done
    for pid in "${pids[@]}"; do
        wait "$pid" 2>/dev/null || true
    done
}
trap stop EXIT

# The wheel a cluster installs, and the packed environment around it.
wheel=${URLSIFT_WHEEL:-$(ls target/wheels/urlsift-*manylinux*.whl 2>/dev/null | head -n1 || true)}
if [ -z "$wheel" ]; then
    "$py" -m pip install -q --disable-pip-version-check maturin
    (cd crates/urlsift-py && PATH="$venv/bin:$PATH" maturin build -q --profile python --out "$work/dist")
    wheel=$(ls "$work"/dist/urlsift-*.whl | head -n1)
fi
echo "shipping $wheel"
python3 -m venv "$work/env"
"$work/env/bin/pip" install -q --disable-pip-version-check venv-pack "$wheel" pyarrow 'pandas<3'
(cd "$work" && env/bin/venv-pack -q -p env --compress-level 1 -o urlsift-env.tar.gz)
echo "environment packed: $(du -h "$work/urlsift-env.tar.gz" | cut -f1), $((SECONDS - start)) s"

# The inputs, by absolute path: executors run in their own directories.
mkdir -p "$work/in"
cp -r samples "$work/in/samples"
gen="$root/../shared/bench/gen-corpus"
if [ -x "$gen" ] || [ -f "$gen" ]; then
    python3 "$gen" --size 4M --seed 11 --out "$work/in/gen" >/dev/null
else
    echo "../shared/bench/gen-corpus not found: samples/ and the cut mailbox only"
fi
python3 - "$work/in" <<'EOF'
import gzip, pathlib, sys
d = pathlib.Path(sys.argv[1])
inbox = (d / "samples/mail/inbox.mbox").read_bytes()
data = gzip.compress(b"".join(inbox.replace(b"Message-ID: <", b"Message-ID: <%d." % i)
                              for i in range(30)))
(d / "cut.mbox.gz").write_bytes(data[: len(data) // 2])
# Mail of two lists, which the report groups by their List-Id.
(d / "lists.mbox").write_bytes(b"".join(
    b"From a@b Tue Jan %d 14:02:11 199%d\nMessage-ID: <%d@lists>\nList-Id: L <%s>\n\n"
    b"<http://www%d.example.org/> <ftp://ftp.example.co.uk/%d>\n\n"
    % (10 + i, i % 3, i, [b"one.example.org", b"two.example.net"][i % 2], i % 4, i)
    for i in range(12)))
EOF

# The cluster: a master and two workers of one core each.
spark_home=$("$py" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
ui=$(free_port)
export SPARK_HOME=$spark_home SPARK_LOCAL_IP=127.0.0.1 SPARK_LOCAL_HOSTNAME=localhost
"$spark_home/bin/spark-class" org.apache.spark.deploy.master.Master \
    --host 127.0.0.1 --port "$port" --webui-port "$ui" >"$work/master.log" 2>&1 &
pids+=($!)
for w in 1 2; do
    mkdir -p "$work/worker$w"
    "$spark_home/bin/spark-class" org.apache.spark.deploy.worker.Worker \
        --host 127.0.0.1 --cores 1 --memory 1g --webui-port "$(free_port)" \
        --work-dir "$work/worker$w" "spark://127.0.0.1:$port" >"$work/worker$w.log" 2>&1 &
    pids+=($!)
done
# Up when the master's status page counts two live workers.
python3 - "$ui" <<'EOF'
import json, sys, time, urllib.request
for _ in range(240):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/json/", timeout=2) as r:
            if json.load(r).get("aliveworkers", 0) >= 2:
                sys.exit(0)
    except (OSError, ValueError):
        # Not listening yet, or listening before its status page has a
        # body (an empty answer is no JSON): asked again.
        pass
    time.sleep(0.5)
sys.exit("the master and two workers did not come up")
EOF
echo "master spark://127.0.0.1:$port and 2 workers up: $((SECONDS - start)) s"

# The job as a cluster user submits it: the driver in the environment too
# (client mode), the executors in its unpacked copy.
job=$("$work/env/bin/python" -c 'import urlsift.spark as s; print(s.__file__)')
set +e
(cd "$work" && PYSPARK_DRIVER_PYTHON=env/bin/python PYSPARK_PYTHON=./env/bin/python \
    "$spark_home/bin/spark-submit" --master "spark://127.0.0.1:$port" \
    --archives urlsift-env.tar.gz#env \
    --conf spark.driver.host=127.0.0.1 --conf spark.executor.memory=768m \
    --conf spark.ui.enabled=false --conf spark.task.maxFailures=1 \
    "$job" --out "$work/out" --report "$work/report" "$work/in/samples" "$work/in/lists.mbox" \
    "$work/in/cut.mbox.gz" $( [ -d "$work/in/gen" ] && echo "$work/in/gen" ) \
    >"$work/submit.log" 2>&1)
rc=$?
set -e
echo "job done (exit $rc): $((SECONDS - start)) s"
fail() { echo "cluster check failed: $*" >&2; tail -n 40 "$work/submit.log" >&2; exit 1; }
[ "$rc" = 2 ] || fail "the job exited $rc, not 2 (one damaged input)"

# Every executor ran in the shipped environment, on both workers.
for w in 1 2; do
    ls -d "$work"/worker$w/app-*/*/env/bin/python >/dev/null 2>&1 ||
        fail "worker $w ran no executor with the packed environment"
done

set +e
inputs=("$work/in/samples" "$work/in/lists.mbox" "$work/in/cut.mbox.gz")
[ -d "$work/in/gen" ] && inputs+=("$work/in/gen")
"$bin" --json -j1 "${inputs[@]}" >"$work/command.jsonl" 2>"$work/command.err"
crc=$?
"$bin" --report "$work/command-report" "${inputs[@]}" 2>/dev/null
rrc=$?
set -e
[ "$crc" = 2 ] || fail "the command exited $crc, not 2"
[ "$rrc" = 2 ] || fail "the command's --report exited $rrc, not 2"
for f in timeline.csv domains.csv domains-by-year.csv groups.csv graph.gexf graph.graphml index.html; do
    cmp -s "$work/report/$f" "$work/command-report/$f" || fail "the job's $f differs from the command's"
done
grep -q '^one.example.org,' "$work/report/groups.csv" || fail "no list in the job's groups.csv"
python3 - "$work" "$root/crates/urlsift-py/tests" <<'EOF'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
sys.path.insert(0, sys.argv[2])
from rows import tabular  # the tests' reading of the command's objects as rows

want = tabular(json.loads(l) for l in (work / "command.jsonl").read_text().splitlines())
got = [json.loads(l) for p in sorted((work / "out").glob("part-*"))
       for l in p.read_text().splitlines()]
if got != want:
    bad = next(i for i, (a, b) in enumerate(zip(got + [None] * len(want), want + [None] * len(got))) if a != b)
    a, b = (got + [{}] * len(want))[bad], (want + [{}] * len(got))[bad]
    keys = sorted(k for k in set(a) | set(b) if a.get(k, ...) != b.get(k, ...))
    sys.exit(f"the job's rows differ from the command's: {len(got)} vs {len(want)}, first at {bad} in {keys}")
errors = [json.loads(l) for p in sorted((work / "out/_errors").glob("part-*"))
          for l in p.read_text().splitlines()]
said = (work / "command.err").read_text().strip()
cut = str(work / "in/cut.mbox.gz")
if [(e["path"], e["member"]) for e in errors] != [(cut, None)] or said != f"urlsift: {cut}: {errors[0]['error']}":
    sys.exit(f"the failures differ: job {errors}, command {said!r}")
print(f"{len(got)} rows, the command's; the damaged input listed as the command says it")
EOF
echo "cluster check passed in $((SECONDS - start)) s"
