# Session 26, call 6 (nvidia-h100-x1): where sell's set-up time goes with diagonal columns: the
# Kokkos kernel timer on sell's build (offshore and parabolic_fem natural, the large case natural),
# with and without diagonal columns.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for c in offshore parabolic_fem large; do
  for dg in true false; do
    KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_TIMER_OUT=$OUT/kt-$c-$dg.txt \
      timeout 100 $B/mdremap cg inputs/cg_$c.yaml --quiet --spmv sell --set matrix.permute=false \
      --set spmv.sell_diagonals=$dg --set spmv.timing_repeats=5 --set spmv.transactions=false > /dev/null 2>&1
    echo "== $c diagonals=$dg"; ls $OUT | grep "kt-$c-$dg" | head -2
    grep -h -iE "sell_(diag|slices|fill|widths|starts|counts|wide|sort|diagonal)" $OUT/kt-$c-$dg.txt* 2>/dev/null | head -12
  done
done
