# Session 36, call 3 (nvidia-h200): issue 16, fewer instructions a pair (call 2's SASS: the
# single-precision kernel's one-type loop issues 57 instructions a pair, 17 of them arithmetic;
# the compute-only variant of call 1 is issue-bound at 85%). Variants of lj_force.cpp only
# (docs/results/session36/lj-eval-variants.diff):
#   mdremap      HEAD: `if (!(rsq < cutsq)) return 0;` then the LJ force (IEEE 1 / rsq)
#   mdremap-sel  the cut-off as a select: the force evaluated for every pair, 0 past the cut-off
#   mdremap-rcp  sel, and 1 / rsq as the correctly rounded reciprocal (__frcp_rn / __drcp_rn)
# Both give the same values as HEAD (a pair past the cut-off adds 0; the reciprocal is the same
# correctly rounded number): the thermo must be byte-identical.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for prec in double single; do
  for v in mdremap mdremap-sel mdremap-rcp; do
    $B/$v md inputs/lj_bench.yaml --precision $prec --steps 200 --set run.thermo=20 \
      --quiet --thermo-csv $w/thermo-$prec-$v.csv --summary $w/thermo-$prec-$v.json > $w/thermo-$prec-$v.log 2>&1
    echo "$prec $v rc=$?"
    [[ $v == mdremap ]] || { cmp $w/thermo-$prec-mdremap.csv $w/thermo-$prec-$v.csv && echo "  thermo identical to HEAD"; }
  done
  tail -1 $w/thermo-$prec-mdremap.csv
done
EXTRA_LISTS=full LISTS=full SIZES="20 40 80 100" ROUNDS=3 timeout 300 bash tools/md-peers.sh $w/ab $B/mdremap \
  sel=$B/mdremap-sel rcp=$B/mdremap-rcp > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
for v in mdremap mdremap-sel mdremap-rcp; do
  for prec in double single; do
    timeout 45 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section Occupancy \
      --metrics smsp__inst_executed.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__instruction_throughput.avg.pct_of_peak_sustained_active \
      --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
      $B/$v md inputs/lj_large.yaml --precision $prec --steps 25 --quiet > $w/ncu-4m-$prec-$v.txt 2>&1
    echo "== ncu 4M $prec $v rc=$?"
    grep -E "^    Duration|inst_executed.sum|pipe_fp64|instruction_throughput|Registers Per|Achieved Occ|Warp Cycles Per Issued" $w/ncu-4m-$prec-$v.txt | head -8
  done
done
tar czf $OUT/call3.tgz -C $w .
