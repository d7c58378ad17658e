# Sourced by the timing scripts under benches/: the corpora they share
# (bench_corpus), one way to time a pair of commands (bench_pair), the CPU
# line every figure goes with (cpu_line), and what they compare with and
# measure by, installed when missing (bench_tools: ripgrep, GNU time).
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

# bench_corpus SIZE [GEN-CORPUS FLAGS...]: the directory of `gen-corpus
# --size SIZE --seed 1 FLAGS` under $dir, generated once and reused by every
# script (named for its flags: `256M`, `256M-mime0.4-html0.5`). Needs
# $shared (common.sh or the script sets it).
bench_corpus() {
    local size="$1" name="$1" d
    shift
    local args=("$@")
    while [ $# -gt 1 ]; do
        name="$name-${1#--}$2"
        shift 2
    done
    d="$dir/$name"
    if [ ! -f "$d/expected.tsv" ]; then
        rm -rf "$d"
        mkdir -p "$d"
        "$shared/bench/gen-corpus" --size "$size" --seed 1 "${args[@]}" --out "$d" >/dev/null
    fi
    echo "$d"
}

# bench_secs CMD...: seconds of one run of CMD over mail.mbox and news (the
# corpus being the working directory): CPU time (perf's task-clock) where
# perf runs, steadier than wall time on a shared machine; wall time else.
bench_secs() {
    local t0 t1
    if command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock true >/dev/null 2>&1; then
        perf stat -x, -e task-clock "$@" mail.mbox news 2>&1 >/dev/null |
            awk -F, '/task-clock/ {printf "%.4f\n", $1 / 1000}'
        return
    fi
    t0=$(date +%s%N)
    "$@" mail.mbox news >/dev/null
    t1=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.4f\n", (b - a) / 1e9}'
}

# bench_instr CMD...: instructions of one run of CMD over mail.mbox and
# news (valgrind's cachegrind, no cache simulation): the same count for
# the same binary and input whatever the host's load, where a noisy host
# moves times by several percent from run to run. Valgrind runs the AVX2
# paths (it does not emulate AVX-512).
bench_instr() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$@" mail.mbox news 2>&1 >/dev/null | sed -n 's/.*I *refs: *//p' | tr -d ,
}

# instr_pair LABEL "A command" "B command": the instructions of one run of
# each (bench_instr) and their ratio, printed and set as $iratio: the
# steady figure beside bench_pair's times.
instr_pair() {
    local label="$1" a="$2" b="$3" ia ib
    # shellcheck disable=SC2086
    ia=$(bench_instr $a)
    # shellcheck disable=SC2086
    ib=$(bench_instr $b)
    iratio=$(awk -v a="$ia" -v b="$ib" 'BEGIN{printf "%.4f", a / b}')
    printf '%-40s A %s  B %s instructions  A/B %s\n' "$label" "$ia" "$ib" "$iratio"
}

# The median of the numbers on stdin.
bench_median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# bench_pair LABEL "A command" "B command": $runs rounds, each running A,
# B, B, A (bench_secs); prints the medians of each command's times, the
# median of the rounds' ratios (A's two times over B's two) and their
# range, and sets $ratio to that median. The mirrored order cancels what
# running second is worth: on a shared KVM host (AMD EPYC) the second run
# of a pair came out 1-3% faster whichever command it was, so with A
# always first the ratio was that much too high.
bench_pair() {
    local label="$1" a="$2" b="$3" a1 a2 b1 b2 i s
    s="$(mktemp -d)"
    # shellcheck disable=SC2086
    for ((i = 0; i < runs; i++)); do
        a1=$(bench_secs $a)
        b1=$(bench_secs $b)
        b2=$(bench_secs $b)
        a2=$(bench_secs $a)
        printf '%s\n%s\n' "$a1" "$a2" >>"$s/a"
        printf '%s\n%s\n' "$b1" "$b2" >>"$s/b"
        awk -v a="$a1" -v c="$a2" -v b="$b1" -v d="$b2" 'BEGIN{printf "%.4f\n", (a + c) / (b + d)}' >>"$s/r"
    done
    ratio=$(bench_median <"$s/r")
    printf '%-40s A %6.3f s  B %6.3f s  A/B median %s (range %s-%s)\n' "$label" \
        "$(bench_median <"$s/a")" "$(bench_median <"$s/b")" "$ratio" \
        "$(sort -g "$s/r" | head -1)" "$(sort -g "$s/r" | tail -1)"
    rm -rf "$s"
}
