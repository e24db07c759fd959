# Session 23, call 7 (nvidia-h100-x1): why sell's fused SpMV + dots kernel (slot_reduce, one
# resident grid) takes about 0.61 ms on the large natural case where sell's plain SpMV (SellApply)
# takes 0.51 with the same DRAM bytes (call 5): Nsight Compute's throughput, memory, warp-state and
# scheduler sections for one launch of each, then the GPU tests of this build.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for v in fused after; do
  timeout 250 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
    --kernel-name-base demangled -k 'regex:slot_reduce|SellApply' --launch-skip 20 --launch-count 1 \
    $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=false --spmv sell --set spmv.sell_fused_dots=$([[ $v == fused ]] && echo true || echo false) \
    --set solver.max_iterations=30 --set spmv.timing_repeats=3 --set spmv.transactions=false --set spmv.warm_up=false --quiet > $OUT/ncu-$v.txt 2>&1
  echo "== $v rc=$?"
  grep -E "^    (Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit Rate|L2 Hit Rate|L1/TEX Cache Throughput|L2 Cache Throughput|Registers Per|Achieved Occupancy|Issued Warp Per Scheduler|No Eligible|Active Warps Per Scheduler|Eligible Warps Per Scheduler|Warp Cycles Per Issued|Avg. Active Threads|Block Size|Grid Size|Mem Busy|Max Bandwidth|Mem Pipes Busy)" $OUT/ncu-$v.txt | head -30
  grep -E "stall|Stall" $OUT/ncu-$v.txt | head -6 | cut -c1-300
done
for t in test_cg_solver test_cg_spmv; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
