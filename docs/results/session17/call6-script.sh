# Session 17, call 6 (nvidia-h100-x1): the final build's remap and MD-remap tests on the GPU
# (after the review's changes: the 16-bit test's sorted case, throttle in place with weights).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,temperature.gpu --format=csv,noheader
for t in test_remap_strategies test_remap_md; do
  timeout 300 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "FAILED|PASSED|Failure" $OUT/$t.log | head -5; done
timeout 60 $B/mdremap md inputs/lj_bench.yaml --steps 100 --set remap.index_bits=16 --quiet --summary $OUT/s.json > /dev/null 2>&1; echo "md index16 rc=$?"
cd $OUT && tar czf call6-tests.tgz *.log s.json && rm -f *.log s.json
