#!/usr/bin/env python3
"""Compares two thermo CSVs (mdremap md --thermo-csv) row by row: the same steps, and every value
within a relative tolerance of the reference, step 0 within its own (usually tighter) one.
Prints the largest relative difference per column; exits 1 when a tolerance is exceeded.

  compare_thermo.py REFERENCE CANDIDATE --step0 1e-12 --rest 1e-9
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
    a = ap.parse_args()
    ref, cand = rows(a.reference), rows(a.candidate)
    if not ref:
        sys.exit(f"{a.reference}: no thermo rows")
    if [r["step"] for r in ref] != [r["step"] for r in cand]:
        sys.exit(f"steps differ: {[r['step'] for r in ref]} vs {[r['step'] for r in cand]}")
    columns = [c for c in ref[0] if c != "step"]
    worst0 = {c: rel(float(ref[0][c]), float(cand[0][c])) for c in columns}
    worst = {c: max(rel(float(r[c]), float(q[c])) for r, q in zip(ref, cand)) for c in columns}
    print(f"{a.label} step 0 max rel diff: " + ", ".join(f"{c} {v:.3g}" for c, v in worst0.items()))
    print(f"{a.label} steps 0..{ref[-1]['step']} max rel diff: "
          + ", ".join(f"{c} {v:.3g}" for c, v in worst.items()))
    bad = [c for c, v in worst0.items() if v > a.step0] + [c for c, v in worst.items() if v > a.rest]
    if bad:
        print(f"FAIL: beyond tolerance (step 0: {a.step0}, all steps: {a.rest}) in {sorted(set(bad))}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
