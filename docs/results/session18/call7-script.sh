# Session 18, call 7 (nvidia-h100-x1): the new sliced-ELL kernel with 16-bit column differences
# (--spmv sell) against the gather and cuSPARSE: SpMV ms (200 back-to-back SpMVs, interleaved
# kernels, 2 rounds) on the four stand-ins and the large case, natural and permuted; its format
# line (bytes, 32-bit slices, padding); the CG tests on the GPU.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
for m in offshore parabolic_fem apache2 ecology2 large; do for perm in false true; do
  reps=200; [[ $m == large ]] && reps=50
  for round in 1 2; do
    line="$m permuted=$perm r$round:"
    for k in sell csr-thread cusparse; do
      o=$($B/mdremap cg inputs/cg_$m.yaml --spmv $k --set matrix.permute=$perm --set spmv.transactions=false --set spmv.timing_repeats=$reps --set solver.max_iterations=20 2>&1)
      t=$(echo "$o" | grep -E '^SpMV' | awk '{print $3}')
      line="$line $k $t"
      [[ $k == sell && $round == 1 ]] && echo "$o" | grep -E "^# spmv" | cut -c1-250
    done
    echo "$line"
  done
done; done
