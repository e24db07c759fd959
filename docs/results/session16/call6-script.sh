# Session 16, call 6 (nvidia-h100-x4): the final commit (8f075bd): the MPI test cases on the GPUs.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,temperature.gpu --format=csv,noheader
for c in "migration 4" "thermo 4" "migration 2" "exchange1"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || echo "FAIL $c"
  grep -h "atoms at the end" $OUT/test_${c// /_}.log
done
