# Session 20, call 4 (nvidia-h100-x1): where the reorder's time goes. Each permuted stand-in
# with sell+labelprop, twice with the default lazy module loading and once with
# CUDA_MODULE_LOADING=EAGER (diagnosis only: the modules load at start-up instead); then auto.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for m in offshore parabolic_fem apache2 ecology2; do
  for mode in lazy lazy eager; do
    echo "== $m permuted sell+labelprop ($mode)"
    env $([[ $mode == eager ]] && echo CUDA_MODULE_LOADING=EAGER) $B/mdremap cg inputs/cg_$m.yaml --set matrix.permute=true --reorder labelprop --spmv sell --set spmv.timing_repeats=0 2>&1 | grep -E "^# reorder|^# warm-up|^Time" | cut -c1-520
  done
  echo "== $m permuted auto"
  $B/mdremap cg inputs/cg_$m.yaml --set matrix.permute=true --remap auto --set spmv.timing_repeats=0 2>&1 | grep -E "^# reorder|^Time" | cut -c1-520
done 2>&1 | tee $w/reorder-lines.txt
tar czf $OUT/call4.tgz -C $w .
