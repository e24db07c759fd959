#!/usr/bin/env bash
# A LAMMPS user's workflow end to end (docs/workflow-lammps.md) against LAMMPS' own run of it
# (tests/reference/workflow/): start.data (LAMMPS' write_data) minimised by CG and run 10000
# steps at NPT (npt.yaml), then 5000 steps at NVT from NPT's last H5MD frame with compute rdf
# and compute msd (nvt.yaml). Compared with reference.yaml (make_reference.py, Debian's lmp):
# * the minimised energy per atom to 1e-6 relative and the CG iterations to 5% (same start,
#   same minimiser: the paths agree to rounding);
# * the NPT mean density (production, steps 2001..10000), the RDF's first peak (height and
#   position) and the MSD at the last step, each against the mean of LAMMPS' runs (start.data's
#   velocities and 11 velocity seeds: 12 runs) within 4 x their run-to-run standard deviation
#   x sqrt(1 + 1/12): one mdremap run against the runs' mean (one run's own block standard
#   error underestimates the density's scatter between runs, so it is printed, not used).
# usage: test_workflow_lammps.sh MDREMAP SOURCE_DIR
set -u
bin=$1
ref=$2/tests/reference/workflow
py=/usr/bin/python3
if ! $py -c 'import yaml' 2>/dev/null; then
  echo "SKIP: no PyYAML for $py (apt-get install python3-yaml)"
  [[ ${CI:-} == true ]] && exit 1
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$ref/npt.yaml" "$ref/nvt.yaml" "$ref/start.data" "$work/"
cd "$work" || exit 1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
# The user's two commands (the decks' relative paths: run where they lie).
"$bin" md npt.yaml --summary npt.json --log npt.log >npt.out 2>&1 || { cat npt.out; exit 1; }
"$bin" md nvt.yaml --summary nvt.json --log nvt.log >nvt.out 2>&1 || { cat nvt.out; exit 1; }
exec $py - "$ref/reference.yaml" <<'PY'
import csv, json, math, sys
import yaml

ref = yaml.safe_load(open(sys.argv[1]))
lmp, sd = ref["lammps"], ref["scatter"]
EQUIL, BLOCKS, K = ref["equilibrate"], ref["blocks"], 4.0
fails = []


def check(name, value, want, tol):
    ok = abs(value - want) <= tol
    print(f"{'ok' if ok else 'FAIL'} {name}: mdremap {value:.10g}  LAMMPS {want:.10g}  "
          f"|diff| {abs(value - want):.3g} <= {tol:.3g}")
    if not ok:
        fails.append(name)


def first_peak(r, g):  # as make_reference.py: the highest bin and a parabola through three
    k = max(range(len(g)), key=lambda i: g[i])
    a, b, c = g[k - 1], g[k], g[k + 1]
    d = 0.5 * (a - c) / (a - 2 * b + c)
    return b - 0.25 * (a - c) * d, r[k] + d * (r[1] - r[0])


def block_mean_se(x):
    n = len(x) // BLOCKS
    means = [sum(x[b * n:(b + 1) * n]) / n for b in range(BLOCKS)]
    m = sum(means) / BLOCKS
    return m, math.sqrt(sum((v - m) ** 2 for v in means) / (BLOCKS - 1) / BLOCKS)


mini = json.load(open("npt.json"))["minimize"]
check("minimised energy per atom", mini["e_final"], lmp["e_min"], 1e-6 * abs(lmp["e_min"]))
check("CG iterations", mini["iterations"], lmp["iterations"], 0.05 * lmp["iterations"])


def check_scatter(name, key, value):
    m, s = sd[key]["mean"], sd[key]["sd"]
    check(name, value, m, K * s * math.sqrt(1 + 1 / ref["runs"]))
    print(f"   (LAMMPS' run on start.data's velocities: {lmp[key]:.6g}; run-to-run sd {s:.3g})")


rows = list(csv.DictReader(open("npt.csv")))
assert int(rows[-1]["step"]) == 10000 and int(rows[1]["step"]) == 10, "npt.csv's steps"
rho, rho_se = block_mean_se([float(r["density"]) for r in rows if int(r["step"]) > EQUIL])
print(f"   NPT density block standard error: mdremap {rho_se:.2g}, LAMMPS {lmp['density_se']:.2g}")
check_scatter("NPT mean density", "density", rho)

# The NVT run starts from NPT's last frame: its first step is NPT's last.
msd = list(csv.DictReader(open("msd.csv")))
assert int(msd[0]["step"]) == 10000 and float(msd[0]["msd"]) == 0.0, "nvt starts at step 10000"
assert int(msd[-1]["step"]) == 15000, "msd.csv's last step"
rdf = list(csv.DictReader(open("rdf.csv")))
assert len(rdf) == 100, "rdf.csv's bins"
h, pos = first_peak([float(r["r"]) for r in rdf], [float(r["g"]) for r in rdf])
check_scatter("RDF first peak height", "rdf_peak", h)
check_scatter("RDF first peak position", "rdf_peak_r", pos)
check_scatter("MSD at step 15000", "msd_end", float(msd[-1]["msd"]))
print("FAILED: " + ", ".join(fails) if fails else "OK: the workflow agrees with LAMMPS")
sys.exit(1 if fails else 0)
PY
