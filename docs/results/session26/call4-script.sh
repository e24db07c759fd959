# Session 26, call 4 (nvidia-h100-x1): the final build (sell's diagonal columns in their own loop
# before the offset columns). GPU tests of the CG binaries; the large case natural (sell, sell
# without diagonal columns, cuSPARSE, auto; 2 interleaved rounds) with CuPy in the same run;
# Nsight Compute of the fused SpMV + dots kernel (launch 20) with diagonal columns.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
timeout 120 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
  --kernel-name-base demangled -k "regex:slot_reduce" --launch-skip 20 --launch-count 1 \
  $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=false --spmv sell \
  --set solver.max_iterations=30 --set spmv.timing_repeats=3 --set spmv.transactions=false --set spmv.warm_up=false --quiet > $OUT/ncu-diagonals.txt 2>&1
echo "== ncu: $(grep -E '^    (Duration|DRAM Throughput|Registers Per|Achieved Occupancy)' $OUT/ncu-diagonals.txt | sed -E 's/ +/ /g' | tr '\n' ';')"
mkdir -p $w/large
CG_CASES="large" CG_LARGE_ORDERS="natural" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 240 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "^(large|  )|best|CuPy|cupy" $w/large/cg.txt | head -40
tar czf $OUT/call4.tgz -C $w large test_cg_spmv.log test_cg_solver.log test_cg_cli.log
