# Session 31, call 4 (nvidia-h100-x1): the list build's cell counters zeroed on the stream
# (neighbor/binning.cpp: deep_copy on the execution space, no device-wide fences before and
# after) against the build of call 3 (mdremap-lanes), the bench deck at 32,000 and 256,000 atoms,
# 6 interleaved rounds; GPU tests of the neighbour lists, restarts and the remap layer on MD.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_neighbor test_restart test_remap_md; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -8
done
LISTS="full" EXTRA_LISTS="full" SIZES="20 40" ROUNDS=6 \
  timeout 240 bash tools/md-peers.sh $w/ab $B/mdremap lanes=$B/mdremap-lanes > $w/ab.log 2>&1
echo "ab rc=$?"; cat $w/ab/md-peers.txt
tar czf $OUT/call4.tgz -C $w .
