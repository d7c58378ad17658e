#!/usr/bin/env bash
# msrv.sh - builds the library with its declared minimum Rust version.
#
# The library's MSRV is the `rust-version` of crates/urlsift/Cargo.toml. The
# crate is built alone (a copy with a one-member workspace, the root's lock
# file for its versions), so the command's and the Python package's
# dependencies, which may need a newer Rust, do not enter.
set -euo pipefail
cd "$(dirname "$0")/.."
msrv="$(sed -n 's/^rust-version = "\(.*\)"/\1/p' crates/urlsift/Cargo.toml)"
[ -n "$msrv" ] || { echo "msrv: no rust-version in crates/urlsift/Cargo.toml" >&2; exit 2; }
rustup toolchain install "$msrv" --profile minimal >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp -r crates/urlsift "$tmp/"
cp Cargo.lock "$tmp/"
# The workspace fields the crate inherits, and only its own dependencies.
{
    echo '[workspace]'
    echo 'members = ["urlsift"]'
    sed -n '/^\[workspace.package\]/,/^$/p' Cargo.toml
    echo '[workspace.dependencies]'
    grep -E '^(memchr|bytecount|encoding_rs) = ' Cargo.toml
} >"$tmp/Cargo.toml"
# Dev-dependencies (criterion, proptest, ...) are the tests' affair.
sed -i '/^\[dev-dependencies\]/,$d' "$tmp/urlsift/Cargo.toml"
(cd "$tmp" && CARGO_REGISTRIES_CRATES_IO_PROTOCOL=sparse cargo +"$msrv" build -q -p urlsift)
echo "msrv: the library builds with Rust $msrv"
