# Session 34, call 6 (nvidia-h200): after the re-read (the texture width queried once per process,
# not on every force launch). GPU tests of the remap layer and MD
# variants; split against readonly at 2.048M and 4M atoms, 3 interleaved rounds, to see the
# change kept call 5's figures.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_remap_md test_remap_strategies; do
  timeout 300 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -4
done
grep -E "Split|AllStrategies" $w/test_remap_md.log $w/test_remap_strategies.log | grep -E "OK|FAIL"
LISTS="full full-ro" SIZES="80 100" ROUNDS=3 timeout 300 bash tools/md-peers.sh $w/ab $B/mdremap > $w/ab.log 2>&1
echo "md-peers rc=$?"; cat $w/ab/md-peers.txt
tar czf $OUT/call6.tgz -C $w .
