# Session 31, call 5 (nvidia-h100-x1): one full-list walk for one and several lanes (full_atom is
# full_atom_lanes with L = 1) against call 4's build (mdremap-call4): the bench deck at 32,000 and
# 4,000,000 atoms, double and single, 3 interleaved rounds; test_remap_md on this build.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_remap_md > $w/test_remap_md.log 2>&1; echo "test_remap_md rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/test_remap_md.log | head -8
LISTS="full full-l1" EXTRA_LISTS="full full-l1" SIZES="20 100" ROUNDS=3 \
  timeout 300 bash tools/md-peers.sh $w/ab $B/mdremap call4=$B/mdremap-call4 > $w/ab.log 2>&1
echo "ab rc=$?"; cat $w/ab/md-peers.txt
tar czf $OUT/call5.tgz -C $w .
