# Session 25, call 7 (nvidia-h100-x4): the overlapped force split on a multiple of 32 atoms (new)
# against call 6's build (base), weak 4M atoms per GPU on 4 GPUs, single, 600 steps, 3
# interleaved rounds; one 1-GPU run as reference; test_mpi thermo 4.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
xz -dc .carry/mdremap-base.xz > $B/mdremap-base && chmod +x $B/mdremap-base
M="timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
timeout 100 bash tests/mpi/test_mpi.sh $B/mdremap $PWD thermo 4 > $OUT/test_thermo_4.log 2>&1 && echo "PASS test_mpi thermo 4" || { echo "FAIL thermo 4"; tail -5 $OUT/test_thermo_4.log; }
$M -np 1 $B/mdremap md inputs/lj_large.yaml --precision single --steps 600 --quiet \
  --set "system.lattice.cells=[100,100,100]" --summary $OUT/sp_one.json > $OUT/sp_one.log 2>&1 || echo "FAIL one"
for r in 1 2 3; do
  for v in base new; do
    bin=$B/mdremap; [[ $v == base ]] && bin=$B/mdremap-base
    $M -np 4 $bin md inputs/lj_large.yaml --precision single --steps 600 --quiet \
      --set "system.lattice.cells=[200,200,100]" --summary $OUT/sp_${v}_r$r.json > $OUT/sp_${v}_r$r.log 2>&1 || echo "FAIL $v r=$r"
  done
done
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
one = json.load(open(f"{out}/sp_one.json"))
print(f"1 GPU {one['atom_steps_per_s']:.4g} force {one['time_split_ms_per_step']['force']:.4f}")
for v in ("base", "new"):
    js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/sp_{v}_r*.json"))]
    m = statistics.median([j["atom_steps_per_s"] for j in js])
    f = statistics.median([j["time_split_ms_per_step"]["force"] for j in js])
    print(f"{v}: 4 GPUs {m:.4g} {[round(j['atom_steps_per_s']/1e9,4) for j in js]} force {f:.4f} eff {100*m/4/one['atom_steps_per_s']:.1f}%")
PY
cd $OUT && tar czf call7.tgz sp_* test_*.log && rm -f sp_* test_*.log
