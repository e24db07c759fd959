# Session 32, call 4 (nvidia-h200-x2): the session's final build (86c01a4's sources, the paired
# halves reverted). GPU tests of that build on GPU 0 (test_remap_md, test_md_physics,
# test_neighbor: the lane-walk refactor 86c01a4 had not run on a GPU); issue 17 on two H200s:
# tools/multigpu.sh (weak 4M and 2.048M atoms per GPU, strong 16.4M, double and single, CUDA IPC
# and host staging, 2 interleaved rounds; thermo of 1 vs 2 GPUs; test_mpi cases).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/tests; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_remap_md test_md_physics test_neighbor; do
  CUDA_VISIBLE_DEVICES=0 timeout 150 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -6
done
tar czf $OUT/call4-tests.tgz -C $OUT tests && rm -rf $w
SKIP_TESTS=0 ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 timeout 420 bash tools/multigpu.sh > $OUT/call4-multigpu-stdout.txt 2>&1
echo "multigpu rc=$?"; tail -5 $OUT/call4-multigpu-stdout.txt; cat $OUT/multigpu.md
