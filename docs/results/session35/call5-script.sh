# Session 35, call 5 (nvidia-h200): issue 16. Call 1 found the double lanes kernel (remap.lanes
# 2, the default below 270,336 atoms on this GPU) faster with a 4-block register cap and a
# prefetch of 3 (256,000 atoms 1.085x), while the one-lane kernel of larger systems was slower
# capped. This build: the cap and the prefetch of 3 for double-precision lanes kernels only
# (FullBody::kLanesMinBlocksPerSm, CudaPipelinedRows). A/B against HEAD fdb2a73 (mdremap-head) in
# 3 interleaved rounds: double, the lanes sizes and 2.048M (one lane: unchanged code, a control);
# single (unchanged) as a control. GPU tests of the remap/MD variants first.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
timeout 300 $B/test_remap_md > $w/test_remap_md.log 2>&1; echo "test_remap_md rc=$?"
grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/test_remap_md.log | head -4
for prec in double single; do
  for v in mdremap-head mdremap; do
    $B/$v md inputs/lj_bench.yaml --precision $prec --steps 200 --set run.thermo=20 \
      --quiet --thermo-csv $w/thermo-$prec-$v.csv --summary $w/thermo-$prec-$v.json > $w/thermo-$prec-$v.log 2>&1
    echo "$prec $v rc=$? $(grep -o '"strategy": "[^"]*"' $w/thermo-$prec-$v.json | head -1)"
  done
  cmp $w/thermo-$prec-mdremap-head.csv $w/thermo-$prec-mdremap.csv && echo "  $prec thermo identical"
done
EXTRA_LISTS=full LISTS=full SIZES="20 25 32 40 80" ROUNDS=3 timeout 330 bash tools/md-peers.sh $w/ab $B/mdremap \
  head=$B/mdremap-head > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
tar czf $OUT/call5.tgz -C $w .
