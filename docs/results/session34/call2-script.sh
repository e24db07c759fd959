# Session 34, call 2 (nvidia-h200): issue 16, the double force kernel is bound by the L1's
# load/store data pipe (call 1: l1tex__data_pipe_lsu_wavefronts 85.8%, the texture pipe's 0%).
# Experiment: the texture gather path walked like the plain gather (pipelined), a 32-byte record's
# first half through __ldg (load/store pipe) and its second through tex1Dfetch (texture pipe); a
# 16-byte record (single) alternately through the two. Thermo of the two paths compared (the same
# values are loaded, so the sums should be bit-identical); A/B readonly (default) against this
# texture path in 3 interleaved rounds at 32k, 256k, 2.048M, 4M atoms; Nsight's L1 breakdown.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total --format=csv,noheader
for prec in double single; do
  for path in readonly texture; do
    $B/mdremap md inputs/lj_bench.yaml --precision $prec --steps 200 --set run.thermo=20 --set remap.gather_path=$path \
      --quiet --thermo-csv $w/thermo-$prec-$path.csv --summary $w/thermo-$prec-$path.json > $w/thermo-$prec-$path.log 2>&1
    echo "$prec $path rc=$? $(grep -o '"strategy": "[^"]*"' $w/thermo-$prec-$path.json | head -1)"
  done
  cmp $w/thermo-$prec-readonly.csv $w/thermo-$prec-texture.csv && echo "$prec: thermo identical"; tail -1 $w/thermo-$prec-texture.csv
done
LISTS="full full-tex" SIZES="20 40 80 100" ROUNDS=3 timeout 300 bash tools/md-peers.sh $w/ab $B/mdremap > $w/ab.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/ab.log; cat $w/ab/md-peers.txt
for prec in double single; do
  timeout 100 ncu --clock-control none --section SpeedOfLight --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed \
    --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
    $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 25 --set remap.gather_path=texture --quiet > $w/ncu-l1-4m-$prec-tex.txt 2>&1
  echo "== ncu L1 breakdown, 4M $prec, texture split"; grep -E "Duration|data_pipe|lsuin|L1/TEX|DRAM Through" $w/ncu-l1-4m-$prec-tex.txt | head -12
done
tar czf $OUT/call2.tgz -C $w .
