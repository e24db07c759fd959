# Session 35, call 8 (nvidia-h200): issue 16. Call 6: the force kernel runs with a 32 KB shared-
# memory configuration (224 KB of L1) though it uses none, and a device-wide L1 preference did not
# change that. Prototype (carveout-prototype.diff, lj_force.cpp only, env MDREMAP_CARVEOUT0=1): the
# one-lane force range kernel launched with Kokkos' DesiredOccupancy{100}, which sets the kernel's
# preferred carveout to the shared memory it needs (none: the largest L1).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
EXTRA_LISTS=full LISTS=full SIZES="80 100" ROUNDS=3 timeout 200 bash tools/md-peers.sh $w/ab $B/mdremap \
  carve=$B/carve-on > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
for v in mdremap carve-on; do
  timeout 45 ncu --clock-control none --section SpeedOfLight --section LaunchStats \
    --metrics l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct \
    --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
    $B/$v md inputs/lj_large.yaml --precision double --steps 25 --quiet > $w/ncu-4m-double-$v.txt 2>&1
  echo "== ncu 4M double $v"; grep -E "^    Duration|hit_rate|Shared Memory Configuration Size|L2 Cache Through" $w/ncu-4m-double-$v.txt | head -8
done
tar czf $OUT/call8.tgz -C $w .
