# Session 18, call 6 (nvidia-h100-x1): csr-warp's lanes per row on every stand-in, natural and
# permuted: SpMV ms (200 back-to-back SpMVs) for 2..32 lanes, beside the gather (thread per row)
# and cuSPARSE; the rule that picks the lanes from the mean row length is checked against it.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for m in offshore parabolic_fem apache2 ecology2; do for perm in false true; do
  line="$m permuted=$perm:"
  for vl in 2 4 8 16 32; do
    t=$($B/mdremap cg inputs/cg_$m.yaml --spmv csr-warp --set spmv.vector_length=$vl --set matrix.permute=$perm --set spmv.transactions=false --set spmv.timing_repeats=200 --set solver.max_iterations=50 2>&1 | grep -E '^SpMV' | awk '{print $3}')
    line="$line vl$vl $t"
  done
  for k in csr-thread cusparse; do
    t=$($B/mdremap cg inputs/cg_$m.yaml --spmv $k --set matrix.permute=$perm --set spmv.transactions=false --set spmv.timing_repeats=200 --set solver.max_iterations=50 2>&1 | grep -E '^SpMV' | awk '{print $3}')
    line="$line $k $t"
  done
  echo "$line"
done; done
