# Session 25, call 5 (nvidia-h100-x1): the MPI cases that read or write a decomposed run's
# velocities and forces on the host (checkpoint, H5MD frames with velocity and force, restart on
# 2 ranks and 1 process: the padded migrated arrays through vectors_to_host / vectors_from_host)
# with the final build, ranks sharing one H100; test_md_physics, test_remap_md on the GPU.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name --format=csv,noheader
export MDREMAP_MPIRUN=mpirun
for c in restart "migration 2" exchange1; do
  timeout 240 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS test_mpi $c" || { echo "FAIL test_mpi $c"; tail -15 $OUT/test_${c// /_}.log; }
done
for t in test_md_physics test_remap_md; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1 && echo "PASS $t $(grep -c '^\[       OK' $OUT/$t.log) ok" || { echo "FAIL $t"; grep -E "FAILED|Failure" $OUT/$t.log | head; }
done
cd $OUT && tar czf call5.tgz test_*.log && rm -f test_*.log
