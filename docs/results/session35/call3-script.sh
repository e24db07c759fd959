# Session 35, call 3 (nvidia-h200): issue 16, the force kernel's L1 reuse. Calls 1-2: the
# 4M-atom kernels hit the L1 for 74% (double) / 69% (single) of their sectors, and more resident
# warps or a Hilbert atom order did not raise it. The hardware hands blocks to multiprocessors
# round-robin: block b and b + 1 (neighbouring atoms, shared neighbours) run on different SMs,
# and an SM's resident blocks are ~132 blocks apart in the atom order. Prototype (lj_force.cpp
# only, env MDREMAP_SM_ORDER=1): the force range kernel as blocks of 128 that take chunks of 128
# atoms from a queue of their own SM (%smid; the atoms cut into one contiguous part per SM,
# an atomic counter each; a block whose part is done takes from the next part): an SM's resident
# blocks work on neighbouring atoms (seed 002's CF-Q, §3.2, with the SM's L1 as the cache).
# A cache model of one SM (LRU of 224 KB / 64 KB) gave 0.099 -> 0.048 / 0.33 -> 0.26 misses a pair.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for prec in double single; do
  for v in mdremap smo-on; do
    $B/$v md inputs/lj_bench.yaml --precision $prec --steps 200 --set run.thermo=20 \
      --quiet --thermo-csv $w/thermo-$prec-$v.csv --summary $w/thermo-$prec-$v.json > $w/thermo-$prec-$v.log 2>&1
    echo "$prec $v rc=$?"
  done
  cmp $w/thermo-$prec-mdremap.csv $w/thermo-$prec-smo-on.csv && echo "  $prec thermo identical"
done
EXTRA_LISTS=full LISTS=full SIZES="20 40 80 100 160" ROUNDS=3 timeout 300 bash tools/md-peers.sh $w/ab $B/mdremap \
  smo-off=$B/mdremap-smo smo-on=$B/smo-on > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
for v in mdremap smo-on; do
  for prec in double single; do
    timeout 45 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
      --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum \
      --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
      $B/$v md inputs/lj_large.yaml --precision $prec --steps 25 --quiet > $w/ncu-4m-$prec-$v.txt 2>&1
    echo "== ncu 4M $prec $v"; grep -E "^    Duration|data_pipe_(lsu|tex)|DRAM Through|L2 Cache Through|hit_rate|sectors_|Warp Cycles Per Issued|Achieved Occ" $w/ncu-4m-$prec-$v.txt | head -12
  done
done
tar czf $OUT/call3.tgz -C $w .
