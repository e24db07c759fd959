# Session 33, call 1 (nvidia-h200-x4): issue 17 on four H200s with the current build (HEAD
# 7b8d4b4's sources, MPI on): tools/multigpu.sh on 1, 2 and 4 GPUs (weak 4M and 2.048M atoms per
# GPU, strong 16.4M, double and single, CUDA IPC and host staging, 2 interleaved rounds; thermo of
# 1 vs 2 and 4 GPUs; the test_mpi cases).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total --format=csv,noheader
SKIP_TESTS=0 ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 timeout 570 bash tools/multigpu.sh > $OUT/call1-multigpu-stdout.txt 2>&1
echo "multigpu rc=$?"; tail -5 $OUT/call1-multigpu-stdout.txt; cat $OUT/multigpu.md
