# Session 36, call 4 (nvidia-h200): the cut-off as a select in LJ::eval (src/md/pair/lj.hpp), the
# build to commit. GPU tests of the suites whose forces go through it, then the thermo of this
# build against HEAD's (mdremap-head: the build of call 3's HEAD) on the bench deck (one type:
# the loop's constant coefficients) and the binary mixture (two types: the table), double and
# single: byte-identical expected.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for t in test_pair test_cluster_pair test_md_physics test_remap_md; do
  timeout 200 $B/$t --gtest_brief=1 > $w/$t.log 2>&1
  echo "$t rc=$? $(grep -E '^\[  PASSED  \]|^\[  FAILED  \]|tests? ran' $w/$t.log | tr '\n' ' ')"
done
for deck in lj_bench lj_binary_nvt; do
  for prec in double single; do
    for v in mdremap-head mdremap; do
      $B/$v md inputs/$deck.yaml --precision $prec --steps 200 --set run.thermo=20 --quiet \
        --thermo-csv $w/thermo-$deck-$prec-$v.csv > $w/thermo-$deck-$prec-$v.log 2>&1
      echo "$deck $prec $v rc=$?"
    done
    cmp $w/thermo-$deck-$prec-mdremap-head.csv $w/thermo-$deck-$prec-mdremap.csv && echo "  $deck $prec: thermo identical to HEAD"
    tail -1 $w/thermo-$deck-$prec-mdremap.csv
  done
done
tar czf $OUT/call4.tgz -C $w .
