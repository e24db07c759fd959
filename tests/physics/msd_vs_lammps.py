#!/usr/bin/env python3
"""MSD from mdremap's H5MD `image` field against LAMMPS `compute msd` on the same run.

mdremap runs an LJ liquid and writes positions, velocities and image counts every 100 steps.
Its first frame (positions and velocities in double) becomes a LAMMPS data file; Debian's `lmp`
integrates the same start with the same potential, list and time step and prints `compute msd`
at the same steps. The two MSDs agree within 4 standard errors of their difference (the
per-atom spread of |dr|^2 over sqrt(N), for each code); the MSD of the wrapped positions, which
ignores the image counts, does not.

usage: msd_vs_lammps.py MDREMAP LMP WORKDIR
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path


def skip(why):
    # A missing outside tool skips (exit 77), except under CI=true, where tools/setup.sh
    # installed them all.
    print(f"SKIP: {why}")
    sys.exit(1 if os.environ.get("CI") == "true" else 77)


try:
    import h5py
    import numpy as np
except ImportError as e:
    skip(f"{e} (apt-get install python3-h5py python3-numpy)")

mdremap, lmp, work = sys.argv[1], sys.argv[2], Path(sys.argv[3])
if shutil.which(lmp) is None:
    skip(f"no {lmp} (apt-get install lammps)")
work.mkdir(parents=True, exist_ok=True)
STEPS, EVERY = 2000, 100

deck = work / "liquid.yaml"
deck.write_text(f"""system:
  lattice: {{style: fcc, density: 0.8442, cells: [8, 8, 8]}}
potential: {{cutoff: 2.5}}
velocity: {{temperature: 1.5, seed: 4928}}
integrator: {{style: nve, dt: 0.005}}
neighbor: {{skin: 0.3, every: 1, check: true}}
run: {{steps: {STEPS}, thermo: 500}}
output:
  h5md: {{file: traj.h5md, every: {EVERY}, fields: [position, velocity, image, id]}}
""")
subprocess.run([mdremap, "md", str(deck), "--log", "none", "-q"], cwd=work, check=True)

with h5py.File(work / "traj.h5md", "r") as f:
    g = f["particles/all"]
    x = g["position/value"][...]
    img = g["image/value"][...]
    v = g["velocity/value"][...]
    ids = g["id/value"][0]
    steps = g["position/step"][...]
    edges = g["box/edges/value"][0]  # one 3x3 matrix a frame (the box is fixed here)
    L = np.diag(edges).astype(float)
    lo = np.asarray(g["box"].attrs.get("mdremap_origin", np.zeros(3)), dtype=float)
n = x.shape[1]
assert list(steps) == list(range(0, STEPS + 1, EVERY)), steps

# LAMMPS data file of frame 0, same box and image counts.
data = [f"mdremap frame 0\n\n{n} atoms\n1 atom types\n"]
data += [f"{lo[k]:.17g} {lo[k] + L[k]:.17g} {'xyz'[k]}lo {'xyz'[k]}hi\n" for k in range(3)]
data.append("\nMasses\n\n1 1.0\n\nAtoms # atomic\n\n")
data += [f"{ids[i]} 1 {x[0, i, 0]:.17g} {x[0, i, 1]:.17g} {x[0, i, 2]:.17g} "
         f"{img[0, i, 0]} {img[0, i, 1]} {img[0, i, 2]}\n" for i in range(n)]
data.append("\nVelocities\n\n")
data += [f"{ids[i]} {v[0, i, 0]:.17g} {v[0, i, 1]:.17g} {v[0, i, 2]:.17g}\n" for i in range(n)]
(work / "start.data").write_text("".join(data))
(work / "in.msd").write_text(f"""units lj
atom_style atomic
boundary p p p
read_data start.data
pair_style lj/cut 2.5
pair_coeff 1 1 1.0 1.0 2.5
neighbor 0.3 bin
neigh_modify delay 0 every 1 check yes
fix 1 all nve
timestep 0.005
compute msd all msd
thermo_style custom step pe c_msd[4]
thermo_modify format float %.12g
thermo {EVERY}
run {STEPS}
""")
out = subprocess.run([lmp, "-in", "in.msd", "-log", "none", "-screen", "lmp.out"], cwd=work,
                     check=True, capture_output=True, text=True)
rows = {}
for line in (work / "lmp.out").read_text().splitlines():
    parts = line.split()
    if len(parts) == 3 and parts[0].isdigit():
        rows[int(parts[0])] = float(parts[2])
assert sorted(rows) == list(steps), sorted(rows)

# mdremap's MSD from the unwrapped positions, and the naive one from the wrapped positions.
unwrapped = x + img * L
d2 = ((unwrapped - unwrapped[0]) ** 2).sum(axis=2)
wrapped_d2 = ((x - x[0]) ** 2).sum(axis=2)
worst = 0.0
for k, s in enumerate(steps):
    msd, naive, ref = d2[k].mean(), wrapped_d2[k].mean(), rows[s]
    err = d2[k].std() / np.sqrt(n) * np.sqrt(2.0)  # both codes' standard errors alike
    z = abs(msd - ref) / err if err > 0 else 0.0
    worst = max(worst, z)
    print(f"step {s:5d}  mdremap {msd:.6f}  lammps {ref:.6f}  wrapped {naive:.4f}  z {z:.2f}")
    assert z < 4.0, f"step {s}: MSD {msd} against LAMMPS {ref}, {z:.1f} standard errors"
assert d2[-1].mean() > 0.5, "the liquid did not diffuse: the comparison would be empty"
assert wrapped_d2[-1].mean() > 3 * d2[-1].mean(), "the wrapped MSD should be far off"
print(f"OK: {len(steps)} frames, worst {worst:.2f} standard errors")
