# Session 26, call 8 (nvidia-h100-x1): the final build (the plan's candidates found by binary search; before it, call 7: sell's set-up in one scan, the plan's
# counts in one reduction). GPU tests of the CG binaries; the kernel timer on sell's build
# (call 6 again); the large case natural (sell, sell-offsets, cuSPARSE, auto; 2 rounds) and the
# four stand-ins natural and permuted (sell, sell-offsets, cuSPARSE, csr-warp, auto,
# sell+labelprop; 3 rounds), CuPy in the same run.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
for c in offshore parabolic_fem large; do
  for dg in true false; do
    KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_TIMER_OUT=$w/kt-$c-$dg.txt \
      timeout 100 $B/mdremap cg inputs/cg_$c.yaml --quiet --spmv sell --set matrix.permute=false \
      --set spmv.sell_diagonals=$dg --set spmv.timing_repeats=5 --set spmv.transactions=false > /dev/null 2>&1
    echo "== $c diagonals=$dg"
    grep -h -iE "sell_(diag|slices|fill|widths|starts|counts|sort|diagonal)" $w/kt-$c-$dg.txt | head -9
  done
done
mkdir -p $w/large $w/stand
CG_CASES="large" CG_LARGE_ORDERS="natural" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 200 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "best|whole solve|auto \(" $w/large/cg.txt | head -10
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="sell sell-offsets cusparse csr-warp auto sell+labelprop" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 280 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand-ins rc=$?"
grep -E "best own SpMV|: (whole solve|auto) |best CG iteration" $w/stand/cg.txt
grep -iE "abort|illegal" $w/stand/cg-bench.log $w/large/cg-bench.log | head -3
tar czf $OUT/call8.tgz -C $w .
