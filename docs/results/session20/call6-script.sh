# Session 20, call 6 (nvidia-h100-x1): the reorder after the seeds' numbering and the register
# sort. Tests; the kernel timer on offshore permuted (eager module loading, no warm-up:
# diagnosis); the reorder's lines on each permuted stand-in; then every stand-in natural and
# permuted with sell, cusparse, sell+labelprop and auto, 3 interleaved rounds, CuPy beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for t in test_remap_strategies test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
CUDA_MODULE_LOADING=EAGER KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_TIMER_OUT=$w/kerneltimer-offshore.txt $B/mdremap cg inputs/cg_offshore.yaml --set matrix.permute=true --reorder labelprop --spmv sell --set spmv.timing_repeats=0 --set solver.max_iterations=3 --set spmv.warm_up=false 2>&1 | grep -E "^# reorder"
grep -E "graph_order|CG::reorder" $w/kerneltimer-offshore.txt | grep -v alloc | head -12
for m in offshore parabolic_fem apache2 ecology2; do
  echo "== $m permuted sell+labelprop, twice"
  for k in 1 2; do $B/mdremap cg inputs/cg_$m.yaml --set matrix.permute=true --reorder labelprop --spmv sell --set spmv.timing_repeats=0 2>&1 | grep -E "^# reorder|^Time" | cut -c1-520; done
done 2>&1 | tee $w/reorder-lines.txt
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell cusparse sell+labelprop auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 330 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E ": (whole solve|auto|best CG|best own) " $w/stand/cg.txt
tar czf $OUT/call6.tgz -C $w .
