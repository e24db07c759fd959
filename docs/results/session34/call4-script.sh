# Session 34, call 4 (nvidia-h200): the split gather path without call 3's test of the
# element index before each texture fetch (call 3 kept a third of call 2's gain). GPU tests of
# the remap layer and MD variants; issue 16's matrix on this device: the default (split) against
# readonly in 3 interleaved rounds at 32k, 256k, 2.048M, 4M and 16.4M atoms, double and single,
# with ExaMiniMD (double) in the same rounds; Nsight Compute on the 4M-atom force kernels.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for t in test_remap_md test_remap_strategies; do
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
tar czf $OUT/call4.tgz -C $w .
