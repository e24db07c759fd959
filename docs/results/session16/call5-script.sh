# Session 16, call 5 (nvidia-h100-x4): the final build (windows mapped at every build, the test
# knob for small migration windows): the MPI test cases on the GPUs, and the weak 4M double case
# on 1 and 4 GPUs once (a check that nothing moved, not a figure).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,temperature.gpu,clocks.sm --format=csv,noheader
for c in "migration 4" "thermo 4" "exchange1" "migration 2"; do
  timeout 200 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/test_${c// /_}.log 2>&1 && echo "PASS $c" || echo "FAIL $c"
  grep -h "atoms at the end" $OUT/test_${c// /_}.log
done
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
$M -np 1 $B/mdremap md inputs/lj_large.yaml --steps 600 --quiet --summary $OUT/n1.json > /dev/null 2>&1
$M -np 4 $B/mdremap md inputs/lj_large.yaml --steps 600 --quiet --set "system.lattice.cells=[200,200,100]" --summary $OUT/n4.json > /dev/null 2>&1
python3 -c "
import json; a=json.load(open('$OUT/n1.json')); b=json.load(open('$OUT/n4.json'))
print('1 GPU %.4g, 4 GPUs %.4g per GPU, efficiency %.1f%%, migrations %d through MPI %d' % (a['atom_steps_per_s'], b['atom_steps_per_s']/4, 100*b['atom_steps_per_s']/4/a['atom_steps_per_s'], b['mpi']['migrations'], b['mpi']['migrations_through_mpi']))"
cd $OUT && tar czf call5.tgz *.log *.json && rm -f *.log *.json
