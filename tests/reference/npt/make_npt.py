#!/usr/bin/env python3
"""Runs npt.lmp with four velocity seeds and prints the averages npt.yaml records: the mean of
press, density and enthalpy over the production samples of all runs, and the standard error of
each run's mean from 20 blocks, combined over the runs."""
import math
import subprocess
import sys

SEEDS = [87287, 4928459, 1234567, 7654321]
KEYS = ["press", "density", "enthalpy"]
BLOCKS = 20


def run(seed, press):
    out = subprocess.run(["lmp", "-in", "npt.lmp", "-var", "seed", str(seed), "-var", "press",
                          str(press), "-log", "none"], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    head = [i for i, l in enumerate(lines) if l.split()[:2] == ["Step", "Temp"]][-1]
    cols = lines[head].lower().split()
    rows = []
    for l in lines[head + 1:]:
        f = l.split()
        if not f or not f[0].isdigit():
            break
        rows.append(dict(zip(cols, map(float, f))))
    return rows[1:]  # the production samples after its first step


def block_mean_se(x, blocks=BLOCKS):
    n = len(x) // blocks
    means = [sum(x[b * n:(b + 1) * n]) / n for b in range(blocks)]
    m = sum(means) / blocks
    var = sum((v - m) ** 2 for v in means) / (blocks - 1)
    return m, math.sqrt(var / blocks)


press = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
per_run = {k: [] for k in KEYS}
for seed in SEEDS:
    rows = run(seed, press)
    for k in KEYS:
        per_run[k].append(block_mean_se([r[k] for r in rows]))
for k in KEYS:
    m = sum(v[0] for v in per_run[k]) / len(SEEDS)
    se = math.sqrt(sum(v[1] ** 2 for v in per_run[k])) / len(SEEDS)
    # The scatter of one run's mean between seeds: what a single run of this length may miss by.
    run_sd = math.sqrt(sum((v[0] - m) ** 2 for v in per_run[k]) / (len(SEEDS) - 1))
    print(f"{k}: {{mean: {m:.8g}, se: {se:.3g}, run_sd: {run_sd:.3g}}}  # runs: " +
          ", ".join(f"{v[0]:.6g}" for v in per_run[k]))
