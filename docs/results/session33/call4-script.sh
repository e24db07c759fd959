# Session 33, call 4 (nvidia-h200): the final build (08e3225: bin_order's rank count in one
# helper) on the GPU: test_neighbor, test_restart; the bench deck at 32,000 and 4M atoms once each.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
for t in test_neighbor test_restart; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -4
done
$B/mdremap md inputs/lj_bench.yaml --steps 2000 --quiet --summary $w/bench-32k.json 2>&1 | tail -2
$B/mdremap md inputs/lj_large.yaml --steps 200 --quiet --summary $w/bench-4m.json 2>&1 | tail -2
tar czf $OUT/call4.tgz -C $w .
