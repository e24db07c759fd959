# Session 17, call 8 (nvidia-h100-x1): the large case reordered by label propagation with the
# other kernels on the reordered matrix (cuSPARSE, csr-warp), so call 7's ratio against cuSPARSE
# on the permuted matrix can be read against cuSPARSE on the same reordered one.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,temperature.gpu --format=csv,noheader
for k in cusparse csr-warp csr-thread; do
  timeout 150 $B/mdremap cg inputs/cg_large.yaml --set solver.repeats=1 --set spmv.timing_repeats=50 \
    --set spmv.transactions=false --spmv $k --reorder labelprop 2>&1 | grep -v "^#" | grep -E "^Time|^SpMV"
  echo "$k+labelprop rc=${PIPESTATUS[0]}"
done
