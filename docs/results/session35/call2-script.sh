# Session 35, call 2 (nvidia-h200): issue 16, the force kernel's L1 locality. Call 1: more
# resident warps (50% occupancy) made the 4M-atom double kernel slower (L2 throughput 67 -> 89%:
# the L1 holds less of each warp's neighbours). The GPU's atom order is the list cells' (x
# fastest): a block of 128 atoms is a row of ~7 cells, whose neighbours span 9 x 3 x 3 cells.
# A space-filling curve makes a block's atoms a compact blob with fewer distinct neighbours.
# Runtime option only (neighbor.sort = cells | hilbert | morton), this build (HEAD fdb2a73).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
LISTS="full full-hilbert full-morton" SIZES="40 80 100 160" ROUNDS=2 timeout 300 bash tools/md-peers.sh $w/sort $B/mdremap > $w/sort.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/sort.log; cat $w/sort/md-peers.txt
for sort in cells hilbert; do
  for prec in double single; do
    timeout 45 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats \
      --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum \
      --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
      $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 25 --set neighbor.sort=$sort --quiet > $w/ncu-4m-$prec-$sort.txt 2>&1
    echo "== ncu 4M $prec $sort"; grep -E "^    Duration|data_pipe_(lsu|tex)|DRAM Through|L2 Cache Through|hit_rate|sectors_|Warp Cycles Per Issued" $w/ncu-4m-$prec-$sort.txt | head -12
  done
done
tar czf $OUT/call2.tgz -C $w .
