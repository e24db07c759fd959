# Session 26, call 2 (nvidia-h100-x1): call 1 again on the build whose diagonal columns share the offset columns' loop (40 registers, not 48): sell with diagonal columns (a slice's shared offsets
# column - row kept once, no index an entry). GPU tests of the CG binaries; Nsight Compute of the
# fused SpMV + dots kernel on the large case in its natural order with diagonal columns and
# without (launch 20, one each); the large case natural: sell, sell without diagonal columns
# (sell-offsets), cuSPARSE, auto, 2 interleaved rounds, CuPy in the same run.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $w/$t.log | head -5
done

prof() {  # name diagonals
  timeout 120 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
    --kernel-name-base demangled -k "regex:slot_reduce" --launch-skip 20 --launch-count 1 \
    $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=false --spmv sell --set spmv.sell_diagonals=$2 \
    --set solver.max_iterations=30 --set spmv.timing_repeats=3 --set spmv.transactions=false --set spmv.warm_up=false --quiet > $OUT/ncu-$1.txt 2>&1
  echo "== $1: $(grep -E '^    (Duration|DRAM Throughput|Registers Per|Achieved Occupancy)' $OUT/ncu-$1.txt | sed -E 's/ +/ /g' | tr '\n' ';')"
}
prof diagonals true
prof offsets false
mkdir -p $w/large
CG_CASES="large" CG_LARGE_ORDERS="natural" CG_VARIANTS="sell sell-offsets cusparse auto" \
  CG_ROUNDS=2 CG_SOLVES=1 CG_SPMV_REPS=20 CG_EXTRA="--set spmv.transactions=false" CG_LARGE_EXTRA="" \
  timeout 240 bash tools/cg-bench.sh $B/mdremap $w/large > $w/large/cg-bench.log 2>&1
echo "large rc=$?"
grep -E "^(large|  )|best|CuPy|cupy" $w/large/cg.txt | head -40
grep -h "spmv\":" -A0 $w/large/*.json 2>/dev/null | head -0
tar czf $OUT/call2.tgz -C $w large test_cg_spmv.log 
