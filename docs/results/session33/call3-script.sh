# Session 33, call 3 (nvidia-h200): what limits the 4M-atom list build (issue 16: the build is
# about 17% of a single-precision step there). Nsight Compute on the second build's
# CandidateLaneBuild kernel, single and double; the kernel timer over 200 steps at 4M atoms
# (single), this session's build.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
for prec in single double; do
  timeout 100 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section InstructionStats --section SchedulerStats --section LaunchStats --kernel-name-base demangled -k "regex:CandidateLaneBuild" --launch-skip 1 --launch-count 1 \
    $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 25 --quiet > $w/ncu-build-4m-$prec.txt 2>&1
  echo "== ncu build 4M $prec"; grep -E "^    Duration|DRAM Throughput|L1/TEX Cache Throughput|L1/TEX Hit Rate|L2 Hit Rate|Achieved Occupancy|Theoretical Occupancy|Issue Slots Busy|Warp Cycles Per Issued|Executed Instructions  |Registers Per|Shared Memory Configuration Size|Dynamic Shared|Block Limit" $w/ncu-build-4m-$prec.txt | head -20
  grep -A3 -E "Stall|stall" $w/ncu-build-4m-$prec.txt | grep -E "^    (WRN|OPT|INF)" | head -6
done
KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_SYNC=0 KP_TIMER_OUT=$w/kt-4m-single.txt \
  $B/mdremap md inputs/lj_large.yaml --precision single --steps 200 --quiet --summary $w/kt-4m-single.json > /dev/null 2>&1
echo "kernel timer, 4M single:"; head -30 $w/kt-4m-single.txt
tar czf $OUT/call3.tgz -C $w .
