#!/usr/bin/env bash
# Builds the wheel that cluster nodes install: manylinux2014 (glibc 2.17),
# linked with zig's cross linker so that the build machine's newer glibc
# does not leak in, and checks its platform tag with auditwheel. .ci/run
# calls it after ci.sh (whose build it reuses but for the C codecs, which
# zig compiles again). The wheel goes to target/wheels/; URLSIFT_PY_VENV
# sets the venv (ci.sh's by default).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
venv=${URLSIFT_PY_VENV:-$root/target/py-venv}
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py="$venv/bin/python"
export PATH="$venv/bin:$PATH"
"$py" -m pip install -q --disable-pip-version-check maturin ziglang auditwheel
rm -f target/wheels/urlsift-*manylinux*.whl
# The python profile: release, but a panic unwinds into a Python exception.
(cd crates/urlsift-py && maturin build --profile python --zig --compatibility manylinux2014 --out "$root/target/wheels")
wheel=$(ls target/wheels/urlsift-*manylinux*.whl | head -n1)
echo "built $wheel"
shown=$(auditwheel show "$wheel")
echo "$shown"
# The tag says manylinux2014 (or its PEP 600 name) and auditwheel agrees
# the symbols allow it.
case "$wheel" in
    *manylinux2014_x86_64*|*manylinux_2_17_x86_64*|*manylinux2014_aarch64*|*manylinux_2_17_aarch64*) ;;
    *) echo "wheel not tagged manylinux2014: $wheel" >&2; exit 1 ;;
esac
echo "$shown" | grep -Eq 'manylinux_2_17|manylinux2014' || {
    echo "auditwheel does not find the wheel manylinux2014-compatible" >&2
    exit 1
}
# It installs and works in a fresh venv.
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT
python3 -m venv "$check/venv"
"$check/venv/bin/pip" install -q --disable-pip-version-check "$wheel"
"$check/venv/bin/python" -c 'import urlsift; assert [m.url for m in urlsift.extract(b"<URL:http://a.b/>")] == ["http://a.b/"]'
echo "wheel OK"
