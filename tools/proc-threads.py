#!/usr/bin/env python3
"""Per-thread CPU use of a command while it runs, from /proc (no profiler needed: the GPU
machines have no perf, gdb or nsys).

    tools/proc-threads.py START STOP -- COMMAND...

Samples every thread's user+system ticks at START and STOP seconds after the launch and prints,
per thread, its name, state and CPU share over that window; the command's own output goes to
/dev/null. Which thread burns the host while the GPU waits, for example.
"""
import os
import subprocess
import sys
import time


def sample(pid):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                s = f.read()
            with open(f"/proc/{pid}/task/{tid}/wchan") as f:
                wchan = f.read().strip()
        except OSError:
            continue
        name = s[s.index("(") + 1:s.rindex(")")]
        rest = s[s.rindex(")") + 2:].split()
        out[tid] = (name, rest[0], int(rest[11]) + int(rest[12]), wchan)
    return out


def main():
    start, stop = float(sys.argv[1]), float(sys.argv[2])
    cmd = sys.argv[sys.argv.index("--") + 1:]
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    t0 = time.time()
    time.sleep(start)
    a = sample(p.pid)
    time.sleep(stop - start)
    b = sample(p.pid)
    hz = os.sysconf("SC_CLK_TCK")
    print(f"window {start}-{stop} s: {len(b)} threads")
    for tid, (name, state, ticks, wchan) in sorted(b.items(), key=lambda kv: int(kv[0])):
        before = a.get(tid, (name, state, ticks, wchan))[2]
        share = (ticks - before) / hz / (stop - start)
        if share > 0.01 or tid == str(p.pid):
            print(f"  tid {tid:>7} {name:<16} {state} cpu {100 * share:5.1f}%  {wchan}")
    p.wait()
    print(f"exit {p.returncode} after {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
