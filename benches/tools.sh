# Sourced by the timing scripts under benches/: installs what they compare
# with and measure by, when missing (ripgrep, GNU time for peak RSS).
bench_tools() {
    if ! command -v rg >/dev/null 2>&1; then
        (apt-get update -qq && apt-get install -y -qq ripgrep) >/dev/null 2>&1 || cargo install -q ripgrep
    fi
    if [ ! -x /usr/bin/time ]; then
        (apt-get update -qq && apt-get install -y -qq time) >/dev/null 2>&1
    fi
}
