# Session 36, call 1 (nvidia-h200): issue 16, what bounds the 4M-atom force kernel. Variants of
# lj_force.cpp only (docs/results/session36/force-bound-variants.diff; not in the tree), each
# walking the same list in the same order as HEAD's CudaPipelinedRows:
#   mdremap          HEAD: index stream, position gather (split path in double), LJ arithmetic
#   mdremap-compute  index stream + LJ arithmetic against a fixed partner at 1.09 sigma (no gather)
#   mdremap-gather   index stream + position gather, positions summed (no LJ arithmetic)
#   mdremap-list     index stream only (the indices summed)
# Each variant scales its sums by 1e-30 before they are written (live, but the atoms coast), so
# the runs stay sane. Whole-step A/B in 3 interleaved rounds, then Nsight Compute on the sixth
# force launch of each, double and single.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
EXTRA_LISTS=full LISTS=full SIZES="100" ROUNDS=3 timeout 260 bash tools/md-peers.sh $w/ab $B/mdremap \
  compute=$B/mdremap-compute gather=$B/mdremap-gather list=$B/mdremap-list > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
for v in mdremap mdremap-compute mdremap-gather mdremap-list; do
  for prec in double single; do
    timeout 50 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis \
      --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active \
      --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
      $B/$v md inputs/lj_large.yaml --precision $prec --steps 25 --quiet > $w/ncu-4m-$prec-$v.txt 2>&1
    echo "== ncu 4M $prec $v rc=$?"
    grep -E "^    Duration|DRAM Through|L1/TEX Cache Through|L2 Cache Through|L1/TEX Hit|L2 Hit|data_pipe_(lsu|tex)|dram__bytes|pipe_fp64|Issue Slots Busy|Achieved Occ|Warp Cycles Per Issued" $w/ncu-4m-$prec-$v.txt | head -16
  done
done
tar czf $OUT/call1.tgz -C $w .
