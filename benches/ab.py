#!/usr/bin/env python3
"""Two builds (or two commands) side by side: wall, user and system time
of each, alternating, medians and the median of the paired ratios.

    benches/ab.py RUNS DIR -- CMD_A... -- CMD_B...

Used to measure one change at a time (a build before and after it) on the
machine at hand; the CPU is printed with the figures."""
import os, statistics, subprocess, sys, time

def main():
    runs, cwd = int(sys.argv[1]), sys.argv[2]
    rest = sys.argv[3:]
    assert rest[0] == "--"
    k = rest.index("--", 1)
    a, b = rest[1:k], rest[k + 1:]
    model = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    devnull = os.open(os.devnull, os.O_WRONLY)
    def run(cmd):
        t0 = time.perf_counter()
        pid = os.posix_spawnp(cmd[0], cmd, os.environ,
                              file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1), (os.POSIX_SPAWN_DUP2, devnull, 2)])
        _, _, ru = os.wait4(pid, 0)
        return time.perf_counter() - t0, ru.ru_utime, ru.ru_stime
    os.chdir(cwd)
    run(a); run(b)
    ta, tb = [], []
    for _ in range(runs):
        ta.append(run(a)); tb.append(run(b))
    med = lambda t, i: statistics.median(x[i] for x in t)
    rat = lambda i: statistics.median(x[i] / y[i] for x, y in zip(ta, tb) if y[i] > 0)
    print(f"cpu: {model}; {runs} alternating runs, medians")
    for i, what in enumerate(["wall", "user", "system"]):
        print(f"{what:6} A {med(ta, i)*1e3:8.1f} ms  B {med(tb, i)*1e3:8.1f} ms  A/B {rat(i):.2f}")

main()
