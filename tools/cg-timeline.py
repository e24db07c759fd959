#!/usr/bin/env python3
"""Where a CG variant's whole solve parts from another's, from cg-bench.sh's summaries.

    tools/cg-timeline.py SUMMARY_DIR CASE.ORDER [REFERENCE [VARIANT ...]]

SUMMARY_DIR holds cg-bench.sh's summaries (CASE.ORDER.VARIANT.json, .json.r2, ...: the rounds).
For each variant, medians over the rounds (ms): its set-up (spmv_setup_seconds + reorder_seconds),
the solve's start to its first residual, then the spans between residuals 1, 16, 31 and the last
(residual_seconds: when each reached the host), and the whole solve (set-up + first solve). With
REFERENCE (default sell), the iterations where the variants' median spans differ from the
reference's typical difference (the median over the iterations) by more than 5 microseconds.
"""
import glob
import json
import statistics as st
import sys


def rounds(d, cell, v):
    out = []
    for f in sorted(glob.glob(f"{d}/{cell}.{v}.json*")):
        s = json.load(open(f))
        setup = s["setup"].get("spmv_setup_seconds", 0) + s["setup"].get("reorder_seconds", 0)
        out.append((1e3 * setup, [1e3 * t for t in s["residual_seconds"]],
                    1e3 * (setup + s["first_solve_total_seconds"])))
    return out


def main():
    d, cell = sys.argv[1], sys.argv[2]
    ref = sys.argv[3] if len(sys.argv) > 3 else "sell"
    names = sys.argv[4:] or sorted({f.split("/")[-1].split(".json")[0].split(".", 2)[2]
                                    for f in glob.glob(f"{d}/{cell}.*.json*")})
    names = [ref] + [v for v in names if v != ref]
    data = {v: rounds(d, cell, v) for v in names}
    marks = [0, 15, 30]
    print(f"{cell}: medians over the rounds, ms")
    print(f"  {'variant':16s} {'set-up':>7s} {'to 1':>7s} {'1-16':>7s} {'16-31':>7s} "
          f"{'31-end':>7s} {'whole':>7s} {'least':>7s} rounds")
    for v in names:
        r = [x for x in data[v] if len(x[1]) > 31]
        if not r:
            continue
        med = lambda f: st.median(f(x) for x in r)  # noqa: E731
        cols = [med(lambda x: x[0]), med(lambda x: x[1][0])]
        cols += [med(lambda x, a=a, b=b: x[1][b] - x[1][a]) for a, b in zip(marks, marks[1:])]
        cols += [med(lambda x: x[1][-1] - x[1][30]), med(lambda x: x[2]), min(x[2] for x in r)]
        print(f"  {v:16s} " + " ".join(f"{c:7.3f}" for c in cols) + f" {len(r)}")
    base = [x[1] for x in data[ref]]
    if not base:
        return
    n = min(len(x) for x in base)
    bm = [st.median(x[i + 1] - x[i] for x in base) for i in range(n - 1)]
    for v in names:
        if v == ref:
            continue
        tl = [x[1] for x in data[v]]
        m = min([n] + [len(x) for x in tl])
        if not tl or m < 2:
            continue
        vm = [st.median(x[i + 1] - x[i] for x in tl) for i in range(m - 1)]
        diff = [1e3 * (a - b) for a, b in zip(vm, bm)]
        typical = st.median(diff)
        big = [(i, x) for i, x in enumerate(diff) if abs(x - typical) > 5]
        shown = sorted(sorted(big, key=lambda e: -abs(e[1] - typical))[:12])
        print(f"  {v} against {ref}, per iteration (us): typically {typical:+.2f}; apart: " +
              (", ".join(f"{i + 1}->{i + 2} {x:+.0f}" for i, x in shown) or "none") +
              (f" (and {len(big) - len(shown)} more)" if len(big) > len(shown) else ""))


if __name__ == "__main__":
    main()
