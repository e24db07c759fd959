# final code after the review fixes: GPU test binaries on GPU 0, the MPI cases on two GPUs, one weak pair
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for t in test_neighbor test_phase_clock test_md_physics test_restart test_cluster_pair test_remap_md; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc $? $(grep -E '^\[  PASSED  \]|^\[  FAILED  \]' $OUT/$t.log | tr '\n' ' ')"
done
for c in "thermo 2" "thermo 4" "migration 4"; do
  timeout 150 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || { echo "FAIL $c"; tail -5 $OUT/test_${c// /_}.log; }
done
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
for n in 1 2; do c="[100,100,100]"; [[ $n == 2 ]] && c="[200,100,100]"
  $M -np $n $B/mdremap md inputs/lj_large.yaml --steps 600 --quiet --set "system.lattice.cells=$c" --summary $OUT/w$n.json > /dev/null 2>&1
done
python3 -c "
import json; a=json.load(open('$OUT/w1.json'))['atom_steps_per_s']; b=json.load(open('$OUT/w2.json'))['atom_steps_per_s']; print('1 GPU %.4g, 2 GPUs %.4g, efficiency %.1f%%' % (a, b, 100*b/2/a))"
cd $OUT && tar czf final.tgz *.log *.json && rm -f *.log *.json
