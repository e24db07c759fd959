#!/usr/bin/env bash
# The integrators' fused passes and the RDF's team histogram, against the binary before them
# (mdremap-before, bundled from build/cuda-ab): interleaved rounds, the thermo of each pair of
# runs compared byte for byte (the fusions keep the arithmetic); then the GPU builds of
# test_integrators and test_computes, and the command-line suite. Run from the repository root
# with the bundle carried (.carry/bundle.tar.xz).
set -u
source tools/unbundle.sh && unbundle "$PWD"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/gpu.txt"
new=$PWD/.bundle/bin/mdremap
old=$PWD/.bundle/bin/mdremap-before
big=inputs/lj_large.yaml
mkdir -p "$OUT/s"
run() {  # NAME BIN ARGS...
  local name=$1 bin=$2
  shift 2
  "$bin" md "$@" -q --log none --summary "$OUT/s/$name.json" --thermo-csv "$OUT/s/$name.csv" > "$OUT/s/$name.out" 2>&1
  echo "$name rc=$? $(tail -1 "$OUT/s/$name.out")"
}
base=(--steps 400 --set run.thermo=100)
nvt=(--set integrator.style=nose-hoover --set integrator.temperature=1.44)
npt=(--set integrator.style=npt --set integrator.temperature=1.44 --set integrator.pressure=1.0)
crs=(--set integrator.style=c-rescale --set integrator.temperature=1.44 --set integrator.pressure=1.0)
rdf=(--set compute.rdf.bins=100 --set compute.rdf.r_max=2.5 --set compute.rdf.every=100 --set compute.rdf.file=/tmp/rdf.csv)
for round in 1 2 3; do
  for v in old new; do
    b=$old; [[ $v == new ]] && b=$new
    run "nvt_${v}_$round" "$b" $big "${base[@]}" "${nvt[@]}"
    run "npt_${v}_$round" "$b" $big "${base[@]}" "${npt[@]}"
    run "npt_aniso_${v}_$round" "$b" $big "${base[@]}" "${npt[@]}" --set integrator.coupling=aniso
    run "crescale_${v}_$round" "$b" $big "${base[@]}" "${crs[@]}"
    run "nve_${v}_$round" "$b" $big "${base[@]}"
    run "nve_rdf_${v}_$round" "$b" $big "${base[@]}" "${rdf[@]}"
    cp /tmp/rdf.csv "$OUT/s/rdf_${v}_$round.csv"
  done
done
# mixed precision NPT too (float positions: the fused dilation's rounding)
for v in old new; do
  b=$old; [[ $v == new ]] && b=$new
  run "npt_mixed_${v}" "$b" inputs/lj_bench.yaml --steps 400 --set run.thermo=20 "${npt[@]}" --precision mixed
  run "npt_aniso_mixed_${v}" "$b" inputs/lj_bench.yaml --steps 400 --set run.thermo=20 "${npt[@]}" --set integrator.coupling=aniso --precision mixed
  run "crescale_mixed_${v}" "$b" inputs/lj_bench.yaml --steps 400 --set run.thermo=20 "${crs[@]}" --precision mixed
done
python3 - "$OUT/s" <<'PY' | tee "$OUT/costs.txt"
import json, statistics, sys, glob, filecmp
d = sys.argv[1]
def med(name):
    v = [json.load(open(f))["loop_seconds"] for f in sorted(glob.glob(f"{d}/{name}_[0-9].json"))]
    return statistics.median(v), v
def split(name):
    j = json.load(open(f"{d}/{name}_1.json"))
    return {k: round(x, 4) for k, x in j["time_split_ms_per_step"].items() if x}
for v in ("old", "new"):
    b, bv = med(f"nvt_{v}")
    print(f"[{v}] nvt: median loop {b:.4f} s {bv} split {split(f'nvt_{v}')}")
    for o in ("npt", "npt_aniso", "crescale"):
        m, mv = med(f"{o}_{v}")
        print(f"[{v}]   {o}: {m:.4f} s {mv}: {m / b:.3f}x nvt; split {split(f'{o}_{v}')}")
    n, nv = med(f"nve_{v}")
    r, rv = med(f"nve_rdf_{v}")
    print(f"[{v}] nve {n:.4f} s {nv}; nve + rdf every 100: {r:.4f} s {rv}: {r / n:.3f}x nve; split {split(f'nve_rdf_{v}')}")
for o in ("nvt", "npt", "npt_aniso", "crescale", "nve", "nve_rdf"):
    same = all(filecmp.cmp(f"{d}/{o}_old_{r}.csv", f"{d}/{o}_new_{r}.csv", shallow=False) for r in (1, 2, 3))
    print(f"thermo {o}: old and new byte-identical: {same}")
for o in ("npt_mixed", "npt_aniso_mixed", "crescale_mixed"):
    print(f"thermo {o}: byte-identical: {filecmp.cmp(f'{d}/{o}_old.csv', f'{d}/{o}_new.csv', shallow=False)}")
print("rdf files old vs new byte-identical:", all(filecmp.cmp(f"{d}/rdf_old_{r}.csv", f"{d}/rdf_new_{r}.csv", shallow=False) for r in (1, 2, 3)))
PY
for t in test_integrators test_computes; do
  timeout 300 .bundle/bin/$t > "$OUT/$t.log" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$OUT/$t.log" | tr '\n' ' ')"
done
timeout 300 bash tests/cli/test_cli.sh "$new" "$PWD" > "$OUT/test_cli.log" 2>&1; echo "test_cli rc=$? $(tail -1 "$OUT/test_cli.log")"
cd "$OUT" && tar czf s-after.tgz s && rm -rf s
