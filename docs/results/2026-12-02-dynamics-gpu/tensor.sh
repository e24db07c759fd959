#!/usr/bin/env bash
# npt aniso (the virial tensor every step) with the tensor pass reading one type's inline
# coefficients, against the binary before (mdremap-before): 3 interleaved rounds, thermo
# compared byte for byte; then the command-line suite with the CUDA binary.
set -u
source tools/unbundle.sh && unbundle "$PWD"
new=$PWD/.bundle/bin/mdremap
old=$PWD/.bundle/bin/mdremap-before
mkdir -p "$OUT/s"
npt=(--set integrator.style=npt --set integrator.temperature=1.44 --set integrator.pressure=1.0)
for round in 1 2 3; do
  for v in old new; do
    b=$old; [[ $v == new ]] && b=$new
    "$b" md inputs/lj_large.yaml --steps 400 --set run.thermo=100 "${npt[@]}" --set integrator.coupling=aniso -q --log none --summary "$OUT/s/aniso_${v}_$round.json" --thermo-csv "$OUT/s/aniso_${v}_$round.csv" > /dev/null 2>&1
    "$b" md inputs/lj_large.yaml --steps 400 --set run.thermo=100 --set integrator.style=nose-hoover --set integrator.temperature=1.44 -q --log none --summary "$OUT/s/nvt_${v}_$round.json" > /dev/null 2>&1
  done
done
python3 - "$OUT/s" <<'PY' | tee "$OUT/tensor.txt"
import json, statistics, sys, filecmp
d = sys.argv[1]
for v in ("old", "new"):
    a = [json.load(open(f"{d}/aniso_{v}_{r}.json")) for r in (1, 2, 3)]
    n = [json.load(open(f"{d}/nvt_{v}_{r}.json"))["loop_seconds"] for r in (1, 2, 3)]
    la = [j["loop_seconds"] for j in a]
    print(f"[{v}] aniso {statistics.median(la):.4f} s {la}, nvt {statistics.median(n):.4f} s {n}: {statistics.median(la) / statistics.median(n):.3f}x; split {dict((k, round(x, 4)) for k, x in a[0]['time_split_ms_per_step'].items() if x)}")
print("aniso thermo old == new:", all(filecmp.cmp(f"{d}/aniso_old_{r}.csv", f"{d}/aniso_new_{r}.csv", shallow=False) for r in (1, 2, 3)))
PY
timeout 300 bash tests/cli/test_cli.sh "$new" "$PWD" > "$OUT/test_cli.log" 2>&1; echo "test_cli rc=$? $(tail -1 "$OUT/test_cli.log")"
