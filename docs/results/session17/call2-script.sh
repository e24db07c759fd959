# Session 17, call 2 (nvidia-h100-x1): the gather's 16-bit neighbour index (remap.index_bits=16):
# its tests on the GPU, the bench deck at 32k, 2.048M, 4M and 16.4M atoms, full list through the
# 32-bit and the 16-bit index, double and single, 3 interleaved rounds; Nsight Compute on the
# 4M-atom force kernel of each.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,temperature.gpu,clocks.sm --format=csv,noheader
timeout 120 $B/test_remap_strategies --gtest_filter='DeltaIndex*' > $OUT/test_delta.log 2>&1; echo "test_remap_strategies DeltaIndex rc=$?"; tail -2 $OUT/test_delta.log
timeout 300 $B/test_remap_md > $OUT/test_remap_md.log 2>&1; echo "test_remap_md rc=$?"; grep -E "FAILED|PASSED|Failure" $OUT/test_remap_md.log | head; grep -A3 "SixteenBit" $OUT/test_remap_md.log | head -8
LISTS="full full16" SIZES="20 80 100 160" ROUNDS=3 timeout 420 bash tools/md-peers.sh $OUT/peers $B/mdremap > $OUT/peers.log 2>&1; echo "md-peers rc=$?"
cat $OUT/peers/md-peers.txt
cd $OUT/peers && mkdir -p s && tar xzf md-peers-summaries.tgz -C s && python3 -c "
import json,glob
for f in sorted(glob.glob('s/*full16*.1.json')):
    d=json.load(open(f)); print(f, 'escapes/ref %.4f' % d['remap']['index_escapes_per_reference'], 'extra MB %.0f' % (d['remap']['extra_bytes']/1e6), 'neigh mean', d['neighbors']['mean'])
"; rm -rf s; cd - > /dev/null
for prec in double single; do for b in 32 16; do
  timeout 150 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats --section WarpStateStats --kernel-name-base demangled -k 'regex:FullBody' --launch-skip 2 --launch-count 1 \
    $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 4 --set remap.index_bits=$b --quiet > $OUT/ncu-$prec-$b.txt 2>&1
  echo "== ncu $prec index_bits=$b"; grep -E "^    Duration|DRAM Throughput|L1/TEX Cache Throughput|L2 Cache Throughput|Memory Throughput|L1/TEX Hit Rate|L2 Hit Rate|Registers Per|Achieved Occupancy|Issue Slots Busy|Avg. Active Threads|Warp Cycles Per Issued" $OUT/ncu-$prec-$b.txt | head -14
done; done
nvidia-smi --query-gpu=index,temperature.gpu,clocks.sm --format=csv,noheader
