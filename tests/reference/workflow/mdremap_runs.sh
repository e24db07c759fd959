#!/usr/bin/env bash
# mdremap's side of docs/workflow-lammps.md's 12-run columns: npt.yaml then nvt.yaml on
# start.data's velocities and with velocities drawn for make_reference.py's 11 seeds, each in a
# scratch directory, and the mean and standard deviation of the observables reference.yaml holds.
# usage: mdremap_runs.sh MDREMAP    (from anywhere; one OpenMP thread unless OMP_NUM_THREADS)
set -eu
bin=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
seeds="0 87287 1234567 7654321 24680 13579 111 222 333 444 555 666"
for s in $seeds; do
  mkdir "$work/$s" && cp "$here"/{npt.yaml,nvt.yaml,start.data} "$work/$s/" && cd "$work/$s"
  draw=()
  [[ $s != 0 ]] && draw=(--set system.velocities=draw --set velocity.temperature=1.0 --set velocity.seed=$s)
  nice "$bin" md npt.yaml --summary npt.json --log none -q "${draw[@]}" >/dev/null
  nice "$bin" md nvt.yaml --log none -q >/dev/null
done
cd "$work" && /usr/bin/python3 - $seeds <<'PY'
import csv, json, math, sys


def first_peak(r, g):  # as make_reference.py
    k = max(range(len(g)), key=lambda i: g[i])
    a, b, c = g[k - 1], g[k], g[k + 1]
    d = 0.5 * (a - c) / (a - 2 * b + c)
    return b - 0.25 * (a - c) * d, r[k] + d * (r[1] - r[0])


runs = []
for s in sys.argv[1:]:
    mini = json.load(open(f"{s}/npt.json"))["minimize"]
    rho = [float(r["density"]) for r in csv.DictReader(open(f"{s}/npt.csv")) if int(r["step"]) > 2000]
    rdf = list(csv.DictReader(open(f"{s}/rdf.csv")))
    h, p = first_peak([float(r["r"]) for r in rdf], [float(r["g"]) for r in rdf])
    msd = float(list(csv.DictReader(open(f"{s}/msd.csv")))[-1]["msd"])
    runs.append(dict(e_min=mini["e_final"], density=sum(rho) / len(rho), rdf_peak=h, rdf_peak_r=p,
                     msd_end=msd))
    print(f"seed {s}: " + "  ".join(f"{k} {v:.10g}" for k, v in runs[-1].items()))
for k in runs[0]:
    x = [r[k] for r in runs]
    m = sum(x) / len(x)
    print(f"{k}: {{mean: {m:.8g}, sd: {math.sqrt(sum((v - m) ** 2 for v in x) / (len(x) - 1)):.3g}}}")
PY
