# Session 25, call 4 (nvidia-h200-x4 asked): the scaling table with this session's final build
# (tools/multigpu.sh, 2 rounds: weak 4M and 2.048M atoms per GPU, strong 16.4M, thermo N GPUs vs
# 1, the MPI tests); test_integrators and test_neighbor on GPU 0 first.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_integrators test_neighbor; do
  timeout 120 $B/$t > $OUT/$t.log 2>&1 && echo "PASS $t $(grep -c '^\[       OK' $OUT/$t.log) ok" || { echo "FAIL $t"; grep -E "FAILED|Failure" $OUT/$t.log | head; }
done
q() { nvidia-smi --query-gpu=index,name,temperature.gpu,power.draw,clocks.sm --format=csv,noheader; }
echo "--- before"; q
ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 bash tools/multigpu.sh > $OUT/multigpu-stdout.txt 2>&1
echo "--- after"; q
cat $OUT/multigpu.md
cd $OUT && tar czf call4-tests.tgz test_*.log && rm -f test_*.log
