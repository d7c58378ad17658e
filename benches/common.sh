# Sourced by the CI scripts under benches/: finds the repository root and
# ../shared beside it, and the release binary to test (URLSIFT=path
# overrides it; otherwise it is built when missing). Sets: root, shared, bin.
root="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)"
shared="$root/../shared"
bin="${URLSIFT:-$root/target/release/urlsift}"
if [ -z "${URLSIFT:-}" ] && [ ! -x "$bin" ]; then
    cargo build --release --manifest-path "$root/Cargo.toml"
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
