# Session 31, call 1 (nvidia-h100-x1): remap.lanes (an atom's neighbours split over a warp's
# lanes). GPU tests (test_remap_md, test_md_physics); the bench deck at 32k, 256k, 2.048M and 4M
# atoms with 1, 2, 4, 8, 16 lanes and auto ("full"), double and single, 2 interleaved rounds; per
# kernel times at 32,000 atoms with 1 and 8 lanes (the kernel timer, no synchronisation).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv -l 1 > $w/clocks.csv 2>&1 &
smi=$!
for t in test_remap_md test_md_physics; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -8
done
grep -E "Lanes" $w/test_remap_md.log | head
LISTS="full full-l1 full-l2 full-l4 full-l8 full-l16" SIZES="20 40 80 100" ROUNDS=2 \
  timeout 330 bash tools/md-peers.sh $w/peers $B/mdremap > $w/peers.log 2>&1
echo "md-peers rc=$?"; tail -3 $w/peers.log
cat $w/peers/md-peers.txt
for l in 1 8; do
  KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_SYNC=0 KP_TIMER_OUT=$w/kt-32k-l$l.txt \
    $B/mdremap md inputs/lj_bench.yaml --steps 2000 --quiet --set remap.lanes=$l --summary $w/kt-32k-l$l.json > /dev/null 2>&1
  echo "kernel timer, 32k, lanes $l:"; head -14 $w/kt-32k-l$l.txt
done
kill $smi
awk -F', ' 'NR>1 {print $2, $3}' $w/clocks.csv | sort | uniq -c | sort -rn | head -4
tar czf $OUT/call1.tgz -C $w .
