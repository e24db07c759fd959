#!/usr/bin/env python3
"""Compares two thermo CSVs (mdremap md --thermo-csv) row by row: the same steps, and every value
within a relative tolerance of the reference, step 0 within its own (usually tighter) one.
Prints the largest relative difference per column; exits 1 when a tolerance is exceeded.

  compare_thermo.py REFERENCE CANDIDATE --step0 1e-12 --rest 1e-9 [--subset]

--subset: the candidate holds some of the reference's steps (a restarted run's), compared there;
"step 0" is then the candidate's first row.
"""
import argparse
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def rel(a, b):
    scale = max(abs(a), abs(b))
    return 0.0 if scale == 0 else abs(a - b) / scale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("reference")
    ap.add_argument("candidate")
    ap.add_argument("--step0", type=float, required=True)
    ap.add_argument("--rest", type=float, required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--subset", action="store_true")
    a = ap.parse_args()
    ref, cand = rows(a.reference), rows(a.candidate)
    if not ref or not cand:
        sys.exit(f"{a.reference} or {a.candidate}: no thermo rows")
    if a.subset:
        by_step = {r["step"]: r for r in ref}
        missing = [r["step"] for r in cand if r["step"] not in by_step]
        if missing:
            sys.exit(f"steps {missing} of {a.candidate} are not in {a.reference}")
        ref = [by_step[r["step"]] for r in cand]
    if [r["step"] for r in ref] != [r["step"] for r in cand]:
        sys.exit(f"steps differ: {[r['step'] for r in ref]} vs {[r['step'] for r in cand]}")
    columns = [c for c in ref[0] if c != "step"]
    worst0 = {c: rel(float(ref[0][c]), float(cand[0][c])) for c in columns}
    worst = {c: max(rel(float(r[c]), float(q[c])) for r, q in zip(ref, cand)) for c in columns}
    print(f"{a.label} step {ref[0]['step']} max rel diff: " + ", ".join(f"{c} {v:.3g}" for c, v in worst0.items()))
    print(f"{a.label} steps {ref[0]['step']}..{ref[-1]['step']} max rel diff: "
          + ", ".join(f"{c} {v:.3g}" for c, v in worst.items()))
    bad = [c for c, v in worst0.items() if v > a.step0] + [c for c, v in worst.items() if v > a.rest]
    if bad:
        print(f"FAIL: beyond tolerance (step 0: {a.step0}, all steps: {a.rest}) in {sorted(set(bad))}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
