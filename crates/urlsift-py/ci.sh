#!/usr/bin/env bash
# CI of the Python package, called by .ci/run after the cargo
# tests and the release build: a fresh venv with maturin, pytest and pyspark
# from the package registry, the package installed from this checkout as a
# user installs it (pip install crates/urlsift-py), then pytest, whose tests
# compare the package and the Spark job (local mode, Java 17) with
# target/release/urlsift --json. URLSIFT_PY_VENV sets where the venv goes.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
start=$SECONDS
venv=${URLSIFT_PY_VENV:-$root/target/py-venv}

if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
    (apt-get update && apt-get install -y python3-venv) >/dev/null
fi
command -v java >/dev/null || echo "warning: no java on PATH: the Spark tests will fail" >&2
[ -x target/release/urlsift ] || cargo build --release
# The crate is outside the workspace's default members: its own lints and
# Rust tests here.
cargo clippy -p urlsift-py --all-targets -- -D warnings
cargo test -p urlsift-py

python3 -m venv --clear "$venv"
py="$venv/bin/python"
# maturin, the build backend, runs the `maturin` of the venv.
export PATH="$venv/bin:$PATH"
"$py" -m pip install -q --disable-pip-version-check maturin pytest pyspark
echo "venv and packages: $((SECONDS - start)) s"
"$py" -m pip install -q --disable-pip-version-check --no-build-isolation crates/urlsift-py
echo "package built and installed: $((SECONDS - start)) s"

# pytest's exit codes: 0 all passed, 1 some failed, 5 no test collected
# (a failure here too: the tests must run), others an error of pytest.
set +e
URLSIFT_BIN="$root/target/release/urlsift" "$py" -m pytest crates/urlsift-py/tests -q -p no:cacheprovider
rc=$?
set -e
case $rc in
    0) ;;
    5) echo "pytest collected no tests" >&2; exit 1 ;;
    *) echo "pytest failed (exit $rc)" >&2; exit "$rc" ;;
esac
echo "python CI passed in $((SECONDS - start)) s"
