# Session 21, call 8 (nvidia-h100-x1): as call 7, the warm-up grid scattered by a pseudo-random order
# made on the device (no host shuffle), the warm-up's steps checked one at a time. GPU
# tests; the stand-ins natural and permuted with sell, cusparse, sell+labelprop and auto, 5
# interleaved rounds; the large case permuted and natural, sell+labelprop / sell and auto.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for c in parabolic_fem; do
  echo "== $c natural auto"
  $B/mdremap cg inputs/cg_$c.yaml --remap auto --set spmv.timing_repeats=0 --set spmv.transactions=false 2>&1 | grep -E "^# warm-up|^Time" | cut -c1-600
done
for c in offshore apache2 parabolic_fem ecology2; do
  echo "== $c permuted auto"
  $B/mdremap cg inputs/cg_$c.yaml --set matrix.permute=true --remap auto --set spmv.timing_repeats=0 --set spmv.transactions=false --summary $w/$c.true.auto.json 2>&1 | grep -E "^# warm-up|^# reorder|^    auto: |^# auto|^Time" | cut -c1-900
done
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse sell+labelprop auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto) " $w/stand/cg.txt
tar czf $OUT/call8-stand.tgz -C $w .
for run in "permuted auto:--remap auto" "permuted sell+labelprop:--spmv sell --reorder labelprop" "natural auto:--remap auto" "natural sell:--spmv sell"; do
  name=${run%%:*}; args=${run#*:}; o=${name%% *}; tag=$(echo $name | tr ' +' '__')
  echo "== large $name"
  timeout 150 $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=$([[ $o == permuted ]] && echo true || echo false) $args --set spmv.timing_repeats=0 --set spmv.transactions=false --summary $w/large.$tag.json 2>&1 | grep -E "^# reorder|^    auto: |^Time|^Converged" | cut -c1-900
  python3 -c "import json;d=json.load(open('$w/large.$tag.json'));s=d['setup'];print('whole (set-up + reorder + first solve) ms:', round(1e3*(s['spmv_setup_seconds']+s['reorder_seconds']+d['first_solve_total_seconds']),1), 'iterations', d['iterations'], 'ms/it', round(d['time_per_iteration_ms'],4))"
done
tar czf $OUT/call8-large.tgz -C $w $(cd $w && ls large.*.json)
