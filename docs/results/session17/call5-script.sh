# Session 17, call 5 (nvidia-h100-x4): the MPI test cases on four GPUs with this session's build
# (the comm code of session 16's last commits, 31d7750 onwards, had not run on GPUs).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,temperature.gpu,clocks.sm --format=csv,noheader
for c in "migration 4" "thermo 4" "migration 2" "exchange1" "refused"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || echo "FAIL $c"
  grep -h "atoms at the end\|through MPI\|windows" $OUT/test_${c// /_}.log | head -4
done
cd $OUT && tar czf call5-tests-4gpu.tgz *.log && rm -f *.log
