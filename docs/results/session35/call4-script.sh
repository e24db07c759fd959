# Session 35, call 4 (nvidia-h200): issue 16. Call 3: with each SM on its own contiguous part of
# the atoms the L1 hit rate rose (double 74.3 -> 81.0%, L2->L1 sectors 149M -> 106M) but the
# L2's fell (63 -> 47%) and the 4M-atom kernel slowed (1.11 -> 1.22 ms): in the hardware's order
# the whole GPU sweeps one window of the atoms, whose positions the L2 keeps. Hybrid (env
# MDREMAP_SM_ORDER=K): windows of 132 x K chunks of 128 atoms swept by the whole GPU, each SM
# taking K consecutive chunks of each window (K = 1: the hardware's round robin, through the
# queue: the cost of the queue itself).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
extra=()
for K in 1 2 4 8 16; do
  printf '#!/bin/bash\nMDREMAP_SM_ORDER=%s exec "$(dirname "$0")/mdremap-smk" "$@"\n' $K > $B/k$K; chmod +x $B/k$K
  extra+=(k$K=$B/k$K)
done
for prec in double single; do
  for v in mdremap k4; do
    $B/$v md inputs/lj_bench.yaml --precision $prec --steps 200 --set run.thermo=20 \
      --quiet --thermo-csv $w/thermo-$prec-$v.csv > $w/thermo-$prec-$v.log 2>&1
    echo "$prec $v rc=$?"
  done
  cmp $w/thermo-$prec-mdremap.csv $w/thermo-$prec-k4.csv && echo "  $prec thermo identical"
done
EXTRA_LISTS=full LISTS=full SIZES="80 100" ROUNDS=3 timeout 300 bash tools/md-peers.sh $w/ab $B/mdremap "${extra[@]}" > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
for v in k4; do
  for prec in double single; do
    timeout 45 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
      --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum \
      --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
      $B/$v md inputs/lj_large.yaml --precision $prec --steps 25 --quiet > $w/ncu-4m-$prec-$v.txt 2>&1
    echo "== ncu 4M $prec $v"; grep -E "^    Duration|data_pipe_(lsu|tex)|DRAM Through|L2 Cache Through|hit_rate|sectors_|Warp Cycles Per Issued" $w/ncu-4m-$prec-$v.txt | head -12
  done
done
tar czf $OUT/call4.tgz -C $w .
