# Session 31, call 6 (nvidia-h100-x1): Nsight Compute on the 4M-atom cluster-list force kernel
# (CudaClusterLanes; call 2's pattern matched another kernel), double and single.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for prec in double single; do
  timeout 90 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --section SchedulerStats --kernel-name-base demangled -k "regex:CudaClusterLanes" --launch-skip 5 --launch-count 1 \
    $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 8 --set neighbor.list=cluster --quiet > $w/ncu-4m-$prec-cluster.txt 2>&1
  echo "== ncu 4M $prec cluster"; grep -E "^    Duration|DRAM Throughput|L1/TEX Cache Throughput|L1/TEX Hit Rate|L2 Hit Rate|Achieved Occupancy|Issue Slots Busy|Avg. Active Threads|Warp Cycles Per Issued" $w/ncu-4m-$prec-cluster.txt | head -10
done
tar czf $OUT/call6.tgz -C $w .
