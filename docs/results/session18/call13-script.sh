# Session 18, call 13 (nvidia-h100-x1): sell's sorted windows on offshore (13.4% / 14.7% padding
# in the rows' own order), same run, interleaved: spmv.sell_sigma 1 (own order) against 0 (sorted
# within windows of 256 where the padding exceeds 5%) and 64; SpMV ms of 200 back-to-back SpMVs,
# 3 rounds; cuSPARSE beside.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for perm in false true; do for round in 1 2 3; do
  line="offshore permuted=$perm r$round:"
  for sg in 1 0 64; do
    t=$($B/mdremap cg inputs/cg_offshore.yaml --spmv sell --set spmv.sell_sigma=$sg --set matrix.permute=$perm --set spmv.transactions=false --set spmv.timing_repeats=200 --set solver.max_iterations=20 2>&1 | grep -E '^SpMV' | awk '{print $3}')
    line="$line sigma$sg $t"
  done
  t=$($B/mdremap cg inputs/cg_offshore.yaml --spmv cusparse --set matrix.permute=$perm --set spmv.transactions=false --set spmv.timing_repeats=200 --set solver.max_iterations=20 2>&1 | grep -E '^SpMV' | awk '{print $3}')
  echo "$line cusparse $t"
done; done
