#!/usr/bin/python3
"""Regenerates the LAMMPS side of the workflow (docs/workflow-lammps.md) and reference.yaml.

Runs workflow.lmp here on start.data's velocities (keeps log.lammps, rdf.out, msd.out), then
again with SEEDS' velocities drawn after the minimisation (in a scratch directory) for LAMMPS'
own run-to-run scatter of each observable, and prints reference.yaml's numbers:
  e_min       minimised pair energy per atom (LAMMPS' "Energy ... final"), iterations
  density     mean over the NPT production (steps EQUIL..10000, thermo every 10) and its
              standard error from BLOCKS blocks
  rdf_peak    height and position of g(r)'s first peak (the highest bin and a parabola
              through it and its two neighbours)
  msd_end     c_msd[4] at the last step
  mean, sd    the mean and standard deviation of each over all runs (start.data's and SEEDS')
usage: /usr/bin/python3 make_reference.py [LMP]   (Debian 12's lmp, 29 Sep 2021)
"""
import math
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SEEDS = [87287, 1234567, 7654321, 24680, 13579, 111, 222, 333, 444, 555, 666]
EQUIL, BLOCKS = 2000, 8


def thermo_blocks(log):
    """The thermo tables of a LAMMPS log: a list of lists of dicts."""
    tables, cur, cols = [], None, None
    for line in log.splitlines():
        f = line.split()
        if f[:2] == ["Step", "Temp"]:
            cols, cur = [c.lower() for c in f], []
            tables.append(cur)
        elif cur is not None and f and f[0].isdigit() and len(f) == len(cols):
            cur.append(dict(zip(cols, map(float, f))))
        elif cur is not None and f[:1] == ["Loop"]:
            cur = None
    return tables


def block_mean_se(x, blocks=BLOCKS):
    n = len(x) // blocks
    means = [sum(x[b * n:(b + 1) * n]) / n for b in range(blocks)]
    m = sum(means) / blocks
    return m, math.sqrt(sum((v - m) ** 2 for v in means) / (blocks - 1) / blocks)


def first_peak(r, g):
    k = max(range(len(g)), key=lambda i: g[i])
    a, b, c = g[k - 1], g[k], g[k + 1]
    d = 0.5 * (a - c) / (a - 2 * b + c)  # the parabola's vertex, in bins from k
    return b - 0.25 * (a - c) * d, r[k] + d * (r[1] - r[0])


def read_rdf(path):
    rows = [l.split() for l in Path(path).read_text().splitlines() if not l.startswith("#")]
    rows = [f for f in rows if len(f) == 4]
    return [float(f[1]) for f in rows], [float(f[2]) for f in rows]


def observe(d):
    log = (d / "log.lammps").read_text()
    lines = log.splitlines()
    i = next(k for k, l in enumerate(lines) if "Energy initial, next-to-last, final" in l)
    e_init, _, e_min = map(float, lines[i + 1].split())
    iters = next(l for l in lines if "Iterations, force evaluations" in l).split()[-2:]
    npt = thermo_blocks(log)[1]
    dens = [row["density"] for row in npt if row["step"] > EQUIL]
    rho, rho_se = block_mean_se(dens)
    h, pos = first_peak(*read_rdf(d / "rdf.out"))
    msd = [l.split() for l in (d / "msd.out").read_text().splitlines() if not l.startswith("#")]
    return dict(e_initial=e_init, e_min=e_min, iterations=int(iters[0]),
                evaluations=int(iters[1]), density=rho, density_se=rho_se, rdf_peak=h,
                rdf_peak_r=pos, msd_end=float(msd[-1][4]), msd_step=int(msd[-1][0]))


def run(lmp, d, seed):
    subprocess.run(["nice", lmp, "-in", "workflow.lmp", "-var", "seed", str(seed), "-log",
                    "log.lammps", "-screen", "none"], cwd=d, check=True)


lmp = sys.argv[1] if len(sys.argv) > 1 else "lmp"
run(lmp, HERE, 0)
runs = [observe(HERE)]
for s in SEEDS:
    with tempfile.TemporaryDirectory() as t:
        for f in ("workflow.lmp", "start.data"):
            shutil.copy(HERE / f, t)
        run(lmp, Path(t), s)
        runs.append(observe(Path(t)))
ref = runs[0]
print("# start.data's velocities (log.lammps, rdf.out, msd.out):")
for k, v in ref.items():
    print(f"{k}: {v:.15g}" if isinstance(v, float) else f"{k}: {v}")
print(f"# scatter over {len(runs)} runs (start.data's velocities and seeds "
      + " ".join(map(str, SEEDS)) + "):")
for k in ("e_min", "density", "rdf_peak", "rdf_peak_r", "msd_end"):
    x = [r[k] for r in runs]
    m = sum(x) / len(x)
    sd = math.sqrt(sum((v - m) ** 2 for v in x) / (len(x) - 1))
    print(f"{k}: {{mean: {m:.8g}, sd: {sd:.3g}}}  # runs: " + ", ".join(f"{v:.6g}" for v in x))
