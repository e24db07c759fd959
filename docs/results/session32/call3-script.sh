# Session 32, call 3 (nvidia-h200): the paired-halves walk with no branch around the pair arithmetic (a lane past its row evaluates a far record), else as call 2 (no tail inside the batch
# loop; each lane loads half of its own and of its partner's neighbour), against the session-31
# build (base). test_remap_md; A/B at 32k (lanes 1), 2.048M and 4M atoms, double, 3 interleaved
# rounds; Nsight Compute on the 4M-atom double force kernel; the kernel's SASS statistics.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_remap_md > $w/test_remap_md.log 2>&1; echo "test_remap_md rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) |Paired" $w/test_remap_md.log | head -8
LISTS="full-l1" EXTRA_LISTS="full-l1" PRECISIONS="double" SIZES="20 80 100" ROUNDS=3 \
  timeout 200 bash tools/md-peers.sh $w/ab $B/mdremap base=$B/mdremap-base > $w/ab.log 2>&1
echo "ab rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
timeout 60 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section InstructionStats --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
  $B/mdremap md inputs/lj_large.yaml --precision double --steps 8 --quiet > $w/ncu-4m-double-new.txt 2>&1
echo "== ncu 4M double new"; grep -E "^    Duration|DRAM Throughput|L1/TEX Cache Throughput|L1/TEX Hit Rate|Achieved Occupancy|Warp Cycles Per Issued|Executed Instructions  " $w/ncu-4m-double-new.txt | head -8
pat='ParallelFor<mdremap::remap::RangeCompute<mdremap::md::FullBody<mdremap::md::LJ<double>.*GatherAccess<mdremap::Vec4<double>, \(mdremap::remap::GatherPath\)1'
timeout 70 python3 tools/sass-kernel-stats.py "$pat" $B/mdremap > $w/sass.txt 2>&1; echo "sass rc=$?"; head -60 $w/sass.txt
tar czf $OUT/call3.tgz -C $w .
