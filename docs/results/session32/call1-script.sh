# Session 32, call 1 (nvidia-h200): the double-precision force kernel's neighbour records read
# in paired halves (two lanes each load one 16-byte half of both atoms' neighbours and swap),
# new build against the session-31 build (base, 86c01a4). GPU tests of the new build
# (test_remap_md, test_md_physics); A/B of the bench deck at 32k, 256k, 2.048M, 4M atoms, double
# (lanes auto and 1) and single at 4M as a control, 3 interleaved rounds; Nsight Compute on the
# 4M-atom double force kernel of both builds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv -l 1 > $w/clocks.csv 2>&1 &
smi=$!
for t in test_remap_md test_md_physics; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -8
done
LISTS="full full-l1" EXTRA_LISTS="full full-l1" PRECISIONS="double" SIZES="20 40 80 100" ROUNDS=3 \
  timeout 300 bash tools/md-peers.sh $w/ab $B/mdremap base=$B/mdremap-base > $w/ab.log 2>&1
echo "ab rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
LISTS="full" EXTRA_LISTS="full" PRECISIONS="single" SIZES="100" ROUNDS=2 \
  timeout 60 bash tools/md-peers.sh $w/abs $B/mdremap base=$B/mdremap-base > $w/abs.log 2>&1
echo "ab single rc=$?"; cat $w/abs/md-peers.txt
for v in new base; do
  bin=$B/mdremap; [[ $v == base ]] && bin=$B/mdremap-base
  timeout 60 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section Occupancy --section WarpStateStats --section InstructionStats --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
    $bin md inputs/lj_large.yaml --precision double --steps 8 --quiet > $w/ncu-4m-double-$v.txt 2>&1
  echo "== ncu 4M double $v"; grep -E "^    Duration|DRAM Throughput|L1/TEX Cache Throughput|L1/TEX Hit Rate|L2 Hit Rate|Achieved Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Executed Instructions  " $w/ncu-4m-double-$v.txt | head -10
done
kill $smi
awk -F', ' 'NR>1 {print $2, $3}' $w/clocks.csv | sort | uniq -c | sort -rn | head -4
tar czf $OUT/call1.tgz -C $w .
