# Session 32, call 5 (nvidia-h200): the lanes launch with the single-precision force body's
# register cap (LaunchBounds<256, 5>, as the one-lane launch has; 48 registers, 12-24 bytes of
# spills in ptxas) against the uncapped lanes launch (base: this session's final build before it).
# test_remap_md; A/B in single at 32k, 62.5k, 131k, 256k atoms with 2 lanes (and auto), 4
# interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_remap_md > $w/test_remap_md.log 2>&1; echo "test_remap_md rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/test_remap_md.log | head -4
LISTS="full-l2 full-l4" EXTRA_LISTS="full-l2 full-l4" PRECISIONS="single" SIZES="20 25 32 40" ROUNDS=4 \
  timeout 300 bash tools/md-peers.sh $w/ab $B/mdremap base=$B/mdremap-base > $w/ab.log 2>&1
echo "ab rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
tar czf $OUT/call5.tgz -C $w .
