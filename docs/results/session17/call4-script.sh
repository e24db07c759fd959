# Session 17, call 4 (nvidia-h100-x1): call 3's throttle runs on the large case timed out at 170 s
# with --quiet; one of them again, with its progress lines time-stamped, to see where the time goes.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,temperature.gpu,clocks.sm --format=csv,noheader
s=$(date +%s.%N)
timeout 500 stdbuf -oL -eL $B/mdremap cg inputs/cg_large.yaml --set solver.repeats=1 --set spmv.timing_repeats=50 \
  --set spmv.transactions=false --summary $OUT/large-th-cf-inplace-8M.json --remap throttle --schedule cf \
  --set remap.bisector=coarsened --set remap.pack=false --set remap.partition_bytes=8000000 2>&1 | grep -v "^#" |
  while IFS= read -r line; do printf '%7.1f %s\n' "$(echo "$(date +%s.%N) - $s" | bc)" "$line"; done
echo "rc=${PIPESTATUS[0]}"
