# Session 33, call 2 (nvidia-h200): issue 16, the list build with fewer waits (the candidate count
# and the largest row read back in one copy after the build kernel, the bin scan without its
# total, the cells' order by rank instead of a sort per cell, fused with the gather). GPU tests
# of the new build (test_neighbor with the kept-builder test, test_remap_md, test_md_physics,
# test_restart); A/B against HEAD 7b8d4b4's build (base) in 4 interleaved rounds at 32k, 256k,
# 2.048M and 4M atoms, double and single; the kernel timer at 32,000 atoms for both builds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_neighbor test_remap_md test_md_physics test_restart; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -4
done
grep -E "Kept|Every" $w/test_neighbor.log | grep -E "OK|FAIL"
LISTS="full" EXTRA_LISTS="full" SIZES="20 40 80 100" ROUNDS=4 \
  timeout 330 bash tools/md-peers.sh $w/ab $B/mdremap base=$B/mdremap-base > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -3 $w/ab.log; cat $w/ab/md-peers.txt
for b in mdremap mdremap-base; do
  KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_SYNC=0 KP_TIMER_OUT=$w/kt-32k-$b.txt \
    $B/$b md inputs/lj_bench.yaml --steps 2000 --quiet --summary $w/kt-32k-$b.json > /dev/null 2>&1
  echo "kernel timer, 32k, $b:"; grep -E "Neighbor|Ghost|list_stats|tile_scan|Scalar" $w/kt-32k-$b.txt | head -24
done
tar czf $OUT/call2.tgz -C $w .
