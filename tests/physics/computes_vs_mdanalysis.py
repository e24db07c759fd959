#!/usr/bin/env python3
"""compute.rdf and compute.msd against MDAnalysis on the same trajectory.

mdremap runs an LJ liquid with both computes and writes the trajectory as GSD every
compute.rdf.every steps (the RDF's samples). MDAnalysis 2.4 reads the GSD file:
InterRDF over all pairs (self pairs excluded: exclusion_block (1, 1)) with the same bins and
range over every frame, and EinsteinMSD (msd_type xyz, x, y, z) on the frames' unwrapped
positions (position + image x box, the GSD's image counts) of the start and of each row's step
(a two-frame trajectory: lag 1 is |x_u(t) - x_u(0)|^2, the MSD from the start that mdremap and
LAMMPS' compute msd give). The H5MD observables (rdf, msd) are read back through MDAnalysis too.

Tolerances, from what the GSD file rounds (positions and box in single precision):
* RDF: the box volume in float32 changes g by at most 1e-6 relative; a pair whose distance lies
  within the positions' rounding (DELTA, 1.5e-6) of a bin edge may fall into the next bin, which
  moves its two ordered counts between neighbouring bins. A bin may differ by the pairs expected
  within DELTA of its two edges (from MDAnalysis' counts) plus 5 standard deviations plus 2. The
  pairs in all bins must agree to 1e-5 relative: a density N/V instead of (N - 1)/V is
  1/N = 1.2e-3 off, and the script checks that this would fail.
* MSD: float32 positions (|x| <= L/2) and box: each unwrapped coordinate within 2e-6, so the MSD
  (about 0.3 here) within 2 sqrt(3 msd) 2e-6 + (2e-6)^2 < 1e-5 (absolute); the MSD of the wrapped
  positions, which ignores the image counts, is far outside it.

usage: computes_vs_mdanalysis.py MDREMAP WORKDIR
"""
import os
import subprocess
import sys
import warnings
from pathlib import Path


def skip(why):
    # A missing outside tool skips (exit 77), except under CI=true, where tools/setup.sh
    # installed them all.
    print(f"SKIP: {why}")
    sys.exit(1 if os.environ.get("CI") == "true" else 77)


warnings.filterwarnings("ignore")
try:
    import numpy as np
    import gsd.hoomd
    import MDAnalysis as mda
    from MDAnalysis.analysis.msd import EinsteinMSD
    from MDAnalysis.analysis.rdf import InterRDF
    from MDAnalysis.coordinates.memory import MemoryReader
except ImportError as e:
    skip(f"{e} (apt-get install python3-mdanalysis python3-gsd python3-numpy)")

mdremap, work = sys.argv[1], Path(sys.argv[2])
work.mkdir(parents=True, exist_ok=True)
STEPS, EVERY, MSD_EVERY, BINS, RMAX = 400, 10, 40, 60, 3.0
# How far a distance from the GSD's float32 positions and box may be from mdremap's: a rounding
# of half a float32 ulp of |x| <= L/2 < 8 (2.4e-7) on each of six coordinates, and of the box.
DELTA = 1.5e-6

deck = work / "liquid.yaml"
deck.write_text(f"""system:
  lattice: {{style: fcc, density: 0.8442, cells: [6, 6, 6]}}
potential: {{cutoff: 2.5}}
velocity: {{temperature: 2.0, seed: 4928}}
integrator: {{style: nve, dt: 0.005}}
neighbor: {{skin: 0.3, every: 1, check: true}}
run: {{steps: {STEPS}, thermo: 100, thermo_columns: [msd]}}
compute:
  rdf: {{bins: {BINS}, r_max: {RMAX}, every: {EVERY}, file: rdf.csv}}
  msd: {{every: {MSD_EVERY}, file: msd.csv}}
output:
  gsd: {{file: traj.gsd, every: {EVERY}, fields: [position, image]}}
  h5md: {{file: traj.h5md, every: {EVERY}, fields: [position, image, id]}}
""")
subprocess.run([mdremap, "md", str(deck), "--log", "none", "-q"], cwd=work, check=True)

failures = []


def check(name, ok, detail):
    print(f"{'ok' if ok else 'FAIL'} {name}: {detail}")
    if not ok:
        failures.append(name)


# --- RDF --------------------------------------------------------------------------------------
u = mda.Universe(str(work / "traj.gsd"))
n = len(u.atoms)
frames = u.trajectory.n_frames
assert frames == STEPS // EVERY + 1, frames
ref = InterRDF(u.atoms, u.atoms, nbins=BINS, range=(0.0, RMAX), exclusion_block=(1, 1)).run()
table = np.loadtxt(work / "rdf.csv", delimiter=",", skiprows=1)
r, g = table[:, 0], table[:, 1]
check("rdf bins", np.allclose(r, ref.results.bins, rtol=0, atol=1e-12),
      f"max |r - r_MDAnalysis| {np.max(np.abs(r - ref.results.bins)):.3g}")
volume = np.prod(u.dimensions[:3].astype(float))
edges = np.linspace(0.0, RMAX, BINS + 1)
shell = 4.0 / 3.0 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
norm = frames * n * (n - 1) * shell / volume  # ordered pairs of g = 1 in each bin
dg = np.abs(g - ref.results.rdf)
# The pairs that may cross each bin edge: those within DELTA of it (Poisson, 5 sigma, + 2).
pairs_per_r = ref.results.count / 2.0 / (RMAX / BINS)  # over all frames
near = DELTA * np.concatenate(([0.0], 0.5 * (pairs_per_r[:-1] + pairs_per_r[1:]), [pairs_per_r[-1]]))
expect = near[:-1] + near[1:]  # a bin's two edges
may_move = expect + 5.0 * np.sqrt(expect) + 2.0
moved = dg * norm / 2.0  # unordered pairs
allowed = 1e-6 * np.abs(ref.results.rdf) + 2.0 * may_move / norm
check("rdf per bin", np.all(dg <= allowed),
      f"max |g - g_MDAnalysis| {dg.max():.3g}; pairs in another bin: {np.sum(moved):.0f} in all, "
      f"at most {moved.max():.0f} in a bin where {may_move[np.argmax(moved)]:.1f} may "
      f"({expect.sum():.1f} expected in all)")
total, total_ref = np.sum(g * norm), np.sum(ref.results.rdf * norm)
check("rdf pairs", abs(total - total_ref) <= 1e-5 * total_ref,
      f"relative difference of the pair counts {abs(total - total_ref) / total_ref:.3g}")
wrong = g * (n - 1) / n  # density N/V
check("rdf tolerance sees a wrong density",
      abs(np.sum(wrong * norm) - total_ref) > 1e-5 * total_ref and np.any(np.abs(wrong - ref.results.rdf) > allowed),
      "N/V instead of (N - 1)/V fails both tests")
peak = r[np.argmax(g)]
check("rdf first peak of the liquid", 1.0 < peak < 1.2, f"at r = {peak:.3f}")

# --- MSD --------------------------------------------------------------------------------------
with gsd.hoomd.open(str(work / "traj.gsd")) as t:
    steps = [int(f.configuration.step) for f in t]
    images = np.array([f.particles.image for f in t], dtype=float)
boxes = []
unwrapped = np.empty((frames, n, 3))
for k, ts in enumerate(u.trajectory):
    unwrapped[k] = ts.positions.astype(float) + images[k] * ts.dimensions[:3].astype(float)
    boxes.append(ts.dimensions.copy())
wrapped = np.array([ts.positions.astype(float) for ts in u.trajectory])

rows = np.loadtxt(work / "msd.csv", delimiter=",", skiprows=1)
assert list(rows[:, 0].astype(int)) == list(range(0, STEPS + 1, MSD_EVERY)), rows[:, 0]


def einstein(coords, kind):
    v = mda.Universe.empty(n, trajectory=True)
    v.load_new(coords, format=MemoryReader, dimensions=boxes[0])
    return EinsteinMSD(v, select="all", msd_type=kind, fft=False).run().results.timeseries[1]


worst, worst_wrapped = 0.0, 0.0
for row in rows[1:]:
    k = steps.index(int(row[0]))
    pair = np.stack([unwrapped[0], unwrapped[k]])
    for column, kind in ((2, "xyz"), (3, "x"), (4, "y"), (5, "z")):
        worst = max(worst, abs(row[column] - einstein(pair, kind)))
    worst_wrapped = max(worst_wrapped,
                        abs(row[2] - einstein(np.stack([wrapped[0], wrapped[k]]), "xyz")))
check("msd", worst <= 1e-5, f"max |msd - EinsteinMSD| {worst:.3g} over {len(rows) - 1} rows "
      f"(msd at the end {rows[-1, 2]:.4f})")
check("msd tolerance sees wrapped positions", worst_wrapped > 1e-2,
      f"the wrapped positions' MSD is {worst_wrapped:.3g} off")
check("msd image counts moved", np.any(images[-1] != images[0]), "atoms crossed the box")

# --- the H5MD observables through MDAnalysis -------------------------------------------------
h = mda.Universe(str(work / "traj.gsd"), str(work / "traj.h5md"), convert_units=False)
for ts in h.trajectory:  # every frame has its observables
    assert ts.data["rdf"].shape == (BINS,) and np.isfinite(ts.data["msd"])
last = h.trajectory[-1].data
check("h5md rdf (last frame: the run's average)", np.array_equal(last["rdf"], g),
      f"{len(last['rdf'])} bins, max |diff| {np.max(np.abs(last['rdf'] - g)):.3g}")
check("h5md msd", abs(last["msd"] - rows[-1, 2]) == 0.0, f"{last['msd']:.6g}")

sys.exit(1 if failures else 0)
