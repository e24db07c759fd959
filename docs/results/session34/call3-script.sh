# Session 34, call 3 (nvidia-h200): the first build of the split gather path (a test of the
# element index before each texture fetch; kept a third of the gain, see call 4) (remap.gather_path
# split, the CUDA default). GPU tests (test_remap_md with the new bit-identity test, the remap
# strategies, physics, restarts, cluster pairs); issue 16's matrix on this device: the default
# (split) against readonly (the previous default) in 3 interleaved rounds at 32k, 256k, 2.048M,
# 4M and 16.4M atoms, double and single, with ExaMiniMD (double) in the same rounds; Nsight
# Compute on the 4M-atom force kernels with the default path.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for t in test_remap_md test_remap_strategies test_md_physics test_restart test_cluster_pair; do
  timeout 300 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -4
done
grep -E "Split|AllStrategies|LanesAuto|LanesMatch" $w/test_remap_md.log $w/test_remap_strategies.log | grep -E "OK|FAIL"
EXAMINIMD=$PWD/.carry/examinimd LISTS="full full-ro" SIZES="20 40 80 100 160" ROUNDS=3 \
  timeout 420 bash tools/md-peers.sh $w/matrix $B/mdremap > $w/matrix.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/matrix.log; cat $w/matrix/md-peers.txt
for prec in double single; do
  timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed \
    --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
    $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 25 --quiet > $w/ncu-4m-$prec-split.txt 2>&1
  echo "== ncu 4M $prec, split (default)"; grep -E "^    Duration|data_pipe_(lsu|tex)|L1/TEX Cache|DRAM Through|Achieved Occ|Warp Cycles Per Issued|Registers" $w/ncu-4m-$prec-split.txt | head -10
done
tar czf $OUT/call3.tgz -C $w .
