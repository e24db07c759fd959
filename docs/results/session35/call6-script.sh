# Session 35, call 6 (nvidia-h200): issue 16. (1) GPU tests of this build (b31f6de: the double
# lanes kernels' register cap): test_md_physics, test_remap_strategies. (2) The L1's share of the
# unified L1/shared memory: Nsight shows the force kernel launched with a 32 KB shared-memory
# configuration (224 KB of L1) although it uses none. Prototype (main.cpp only, env
# MDREMAP_PREFER_L1=1): cudaDeviceSetCacheConfig(cudaFuncCachePreferL1) at start, so kernels
# without a preference of their own may take the largest L1. A/B in 3 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for t in test_md_physics test_remap_strategies; do
  timeout 240 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -4
done
EXTRA_LISTS=full LISTS=full SIZES="40 80 100" ROUNDS=3 timeout 240 bash tools/md-peers.sh $w/ab $B/mdremap \
  l1=$B/l1-on > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
for v in mdremap l1-on; do
  timeout 45 ncu --clock-control none --section SpeedOfLight --section LaunchStats \
    --metrics l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct \
    --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
    $B/$v md inputs/lj_large.yaml --precision double --steps 25 --quiet > $w/ncu-4m-double-$v.txt 2>&1
  echo "== ncu 4M double $v"; grep -E "^    Duration|hit_rate|Shared Memory Configuration Size|L2 Cache Through|DRAM Through" $w/ncu-4m-double-$v.txt | head -8
done
tar czf $OUT/call6.tgz -C $w .
