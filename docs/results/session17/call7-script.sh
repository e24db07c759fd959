# Session 17, call 7 (nvidia-h100-x1): the large case (16.8M rows, permuted) reordered once before
# the solve, by label propagation (seed 001 §3.4) and by seed 002's cache-fit parts as a symmetric
# permutation (--reorder partition), then solved through the plain gather: what renumbering the
# rows gives where the in-place throttle lost (call 4).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,temperature.gpu --format=csv,noheader
for r in "labelprop 220" "partition 330"; do set -- $r
  s=$(date +%s)
  timeout $2 $B/mdremap cg inputs/cg_large.yaml --set solver.repeats=1 --set spmv.timing_repeats=50 \
    --set spmv.transactions=false --summary $OUT/large-gather+$1.json --remap gather --reorder $1 2>&1 | grep -v "^#" | tail -6
  echo "gather+$1 rc=${PIPESTATUS[0]} $(( $(date +%s) - s )) s"
done
