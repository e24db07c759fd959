# Session 16, call 3 (nvidia-h100-x4): the final build (1b36eec: migration through peer windows,
# compacting after each axis), the scaling table: weak 4M and 2.048M per GPU, strong 16.4M, both
# transfers, thermo N GPUs vs 1, the MPI test cases.
ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 bash tools/multigpu.sh
cd $OUT && ls
