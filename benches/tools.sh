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

# The CPU the figures were measured on: lscpu's model name and the flags
# that move them (vector widths for the searches; fsrm and erms for the
# kernel's copy into read buffers). Figures from one CPU do not hold on
# another, so every timing script prints this with its figures.
cpu_line() {
    local model flags f have=""
    model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
    flags=$(lscpu | sed -n 's/^Flags: *//p')
    for f in avx2 avx512bw fsrm erms; do
        case " $flags " in
            *" $f "*) have="$have $f" ;;
            *) have="$have no-$f" ;;
        esac
    done
    echo "cpu: $model ($(nproc) cores;$have)"
}

# A plain read loop in C: each file read whole into one page-aligned
# 1 MiB buffer, nothing else done. The kernel's copy and the opens are the
# floor any reader pays; its system time is what urlsift's is held to.
# Prints the path of the built program.
read_loop() {
    local out="${TMPDIR:-/tmp}/urlsift-read-loop"
    if [ ! -x "$out" ]; then
        cat >"$out.c" <<'C'
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
static char *buf;
static void one(const char *p) {
    struct stat st;
    if (stat(p, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(p); struct dirent *e; char q[4096];
        if (!d) return;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            snprintf(q, sizeof q, "%s/%s", p, e->d_name);
            one(q);
        }
        closedir(d);
        return;
    }
    int fd = open(p, O_RDONLY);
    if (fd < 0) return;
    while (read(fd, buf, 1 << 20) > 0) {}
    close(fd);
}
int main(int argc, char **argv) {
    if (posix_memalign((void **)&buf, 4096, 1 << 20)) return 1;
    for (int i = 1; i < argc; i++) one(argv[i]);
    return 0;
}
C
        cc -O2 -o "$out" "$out.c"
    fi
    echo "$out"
}
