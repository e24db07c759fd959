#!/usr/bin/env bash
# One GPU call: NPT, the pressure tensor and minimisation at 4M atoms against the NVT step;
# the displacement-checked list (neighbor every 1 check true) against every 20 check false;
# the command-line suites run with the CUDA binary. Run from the repository root with the
# bundle carried (.carry/bundle.tar.xz). Two calls: `job.sh dyn` (the integrators), `job.sh more`
# (list defaults, computes, minimisation, command-line suites).
set -u
part=${1:?usage: job.sh dyn|more}
source tools/unbundle.sh && unbundle "$PWD"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/gpu.txt"
bin=$PWD/.bundle/bin/mdremap
"$bin" info > "$OUT/info.txt" 2>&1
big=inputs/lj_large.yaml
# run NAME ARGS...: one run's summary line and JSON.
run() {
  local name=$1
  shift
  "$bin" md "$@" -q --log none --summary "$OUT/s/$name.json" > "$OUT/s/$name.out" 2>&1
  echo "$name rc=$? $(cat "$OUT/s/$name.out" | tail -1)"
}
mkdir -p "$OUT/s"
nvt=(--set integrator.style=nose-hoover --set integrator.temperature=1.44)
npt=(--set integrator.style=npt --set integrator.temperature=1.44 --set integrator.pressure=1.0)
crs=(--set integrator.style=c-rescale --set integrator.temperature=1.44 --set integrator.pressure=1.0)
pe=(--set output.h5md.every=100 --set 'output.h5md.fields=[position, species, id, potential_energy]')
if [[ $part == dyn ]]; then
  for round in 1 2 3; do
    run "nvt_$round" $big --steps 400 --set run.thermo=100 "${nvt[@]}"
    run "npt_$round" $big --steps 400 --set run.thermo=100 "${npt[@]}"
    run "npt_aniso_$round" $big --steps 400 --set run.thermo=100 "${npt[@]}" --set integrator.coupling=aniso
    run "crescale_$round" $big --steps 400 --set run.thermo=100 "${crs[@]}"
    run "nvt_tensor_$round" $big --steps 400 --set run.thermo=100 "${nvt[@]}" --set 'run.thermo_columns=[pxx, pyy, pzz, pxy, pxz, pyz]'
  done
else
  for round in 1 2 3; do
    run "nve_$round" $big --steps 400 --set run.thermo=100
    run "nve_check_$round" $big --steps 400 --set run.thermo=100 --set neighbor.every=1 --set neighbor.check=true
    run "nve_rdf_$round" $big --steps 400 --set run.thermo=100 --set compute.rdf.bins=100 --set compute.rdf.r_max=2.5 --set compute.rdf.every=100 --set compute.rdf.file=/tmp/rdf.csv
    run "nve_msd_$round" $big --steps 400 --set run.thermo=100 --set compute.msd.every=100 --set compute.msd.file=/tmp/msd.csv
    run "nve_h5md_$round" $big --steps 400 --set run.thermo=100 --set output.h5md.file=/tmp/t.h5 --set output.h5md.every=100
    run "nve_h5md_pe_$round" $big --steps 400 --set run.thermo=100 --set output.h5md.file=/tmp/t.h5 "${pe[@]}"
    rm -f /tmp/t.h5
    run "bench_$round" inputs/lj_bench.yaml --steps 2000 --set run.thermo=1000
    run "bench_check_$round" inputs/lj_bench.yaml --steps 2000 --set run.thermo=1000 --set neighbor.every=1 --set neighbor.check=true
  done
fi
# Minimisation at 4M atoms from a random gas (min_distance 0.7): iterations per second.
if [[ $part == more ]]; then
cat > /tmp/gas4m.yaml <<'YAML'
system:
  random: {atoms: 4000000, density: 0.8442, min_distance: 0.7, seed: 5}
potential: {cutoff: 2.5}
neighbor: {skin: 0.3, every: 1, check: true}
YAML
for style in fire cg; do
  "$bin" minimize /tmp/gas4m.yaml --log none --set minimize.style=$style --set minimize.max_iterations=300 --summary "$OUT/s/min_$style.json" > "$OUT/s/min_$style.out" 2>&1
  echo "min_$style rc=$?"; grep -E "Minimization|Iterations|Energy" "$OUT/s/min_$style.out"
done
fi
python3 - "$OUT/s" <<'PY' | tee "$OUT/costs.txt"
import json, statistics, sys, glob, os
d = sys.argv[1]
def med(name, key="loop_seconds"):
    v = [json.load(open(f))[key] for f in sorted(glob.glob(f"{d}/{name}_[0-9].json"))]
    return statistics.median(v) if v else float("nan"), v
for base, others in (("nvt", ["npt", "npt_aniso", "crescale", "nvt_tensor"]), ("nve", ["nve_check", "nve_rdf", "nve_msd"]), ("nve_h5md", ["nve_h5md_pe"]), ("bench", ["bench_check"])):
    b, bv = med(base)
    if not bv: continue
    print(f"{base}: median loop {b:.4f} s {bv}")
    for o in others:
        m, mv = med(o)
        print(f"  {o}: median loop {m:.4f} s {mv}: {m / b:.3f}x {base}")
for m in ("min_fire", "min_cg"):
    p = f"{d}/{m}.json"
    if os.path.exists(p):
        j = json.load(open(p))
        print(m, {k: j[k] for k in j if "iter" in k or "eval" in k or "second" in k or "per_s" in k})
PY
# The command-line suites with the CUDA binary (host-side behaviour of the GPU build).
[[ $part == more ]] && for t in test_log test_system_file test_cli; do
  if [[ $t == test_hardening ]]; then
    for c in full-disk-checkpoint continued-run staging-name cg-sp-outputs special-files paths-are-strings cg-true-residual declared-sizes messages; do
      timeout 300 bash tests/cli/$t.sh "$bin" "$PWD" $c > "$OUT/$t.$c.log" 2>&1; echo "$t.$c rc=$?"
    done
  else
    timeout 300 bash tests/cli/$t.sh "$bin" "$PWD" > "$OUT/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$OUT/$t.log")"
  fi
done
cd "$OUT" && tar czf "s-$part.tgz" s && rm -rf s && if ls test_*.log >/dev/null 2>&1; then tar czf cli-logs.tgz test_*.log && rm -f test_*.log; fi
