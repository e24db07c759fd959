# Session 35, call 1 (nvidia-h200): issue 16, the force kernel's occupancy. Nsight (session 34):
# the double split kernel runs 36% occupancy (76 registers, 3 blocks of 256 per SM) at 14.4
# cycles between a warp's instructions with neither L1 data pipe past 67%: bound by latency.
# Variants of lj_force.cpp only (ptxas -v here: registers/spills of the non-EV range kernel):
#   mdremap       HEAD: double uncapped (76, kBatch 4), single <256,5> (45, kBatch 4)
#   mdremap-occ   double <256,4> (64, 68/124 B spilled), single <256,6> (40, 32/72 B spilled), kBatch 4
#   mdremap-occb2 double <256,4> (60, no spill), single <256,6> (40, none), kBatch 2
#   mdremap-occb3 double <256,4> (64, none), single <256,6> (40, 12 B), kBatch 3
# The batch changes only how far the index loads run ahead, not the order of the sums: thermo
# must be byte-identical. Then A/B in 3 interleaved rounds, and Nsight on the 4M kernels.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for prec in double single; do
  for v in mdremap mdremap-occ mdremap-occb2 mdremap-occb3; do
    $B/$v md inputs/lj_bench.yaml --precision $prec --steps 200 --set run.thermo=20 \
      --quiet --thermo-csv $w/thermo-$prec-$v.csv --summary $w/thermo-$prec-$v.json > $w/thermo-$prec-$v.log 2>&1
    echo "$prec $v rc=$?"
    [[ $v == mdremap ]] || { cmp $w/thermo-$prec-mdremap.csv $w/thermo-$prec-$v.csv && echo "  thermo identical to HEAD"; }
  done
  tail -1 $w/thermo-$prec-mdremap.csv
done
EXTRA_LISTS=full LISTS=full SIZES="20 40 80 100" ROUNDS=3 timeout 330 bash tools/md-peers.sh $w/ab $B/mdremap \
  occ=$B/mdremap-occ occb2=$B/mdremap-occb2 occb3=$B/mdremap-occb3 > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
for v in mdremap mdremap-occb2 mdremap-occb3; do
  for prec in double single; do
    timeout 45 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --section LaunchStats \
      --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed \
      --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
      $B/$v md inputs/lj_large.yaml --precision $prec --steps 25 --quiet > $w/ncu-4m-$prec-$v.txt 2>&1
    echo "== ncu 4M $prec $v"; grep -E "^    Duration|data_pipe_(lsu|tex)|DRAM Through|Achieved Occ|Warp Cycles Per Issued|Registers Per" $w/ncu-4m-$prec-$v.txt | head -8
  done
done
tar czf $OUT/call1.tgz -C $w .
