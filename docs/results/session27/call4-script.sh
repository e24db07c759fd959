# Session 27, call 4 (nvidia-h100-x1): where sell's set-up goes on offshore (natural, permuted;
# with and without diagonal columns): the Kokkos kernel timer (each kernel fenced: exclusive
# times, allocations in MB), one run each after one untimed run to warm the machine.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
$B/mdremap cg inputs/cg_offshore.yaml --quiet --spmv sell > /dev/null
for perm in false true; do
  for diag in true false; do
    tag=perm-$perm.diag-$diag
    KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_TIMER_OUT=$w/$tag.txt \
      $B/mdremap cg inputs/cg_offshore.yaml --quiet --spmv sell --set matrix.permute=$perm \
      --set spmv.sell_diagonals=$diag --set spmv.transactions=false --summary $w/$tag.json > /dev/null
    $B/mdremap cg inputs/cg_offshore.yaml --quiet --spmv sell --set matrix.permute=$perm \
      --set spmv.sell_diagonals=$diag --set spmv.transactions=false --summary $w/$tag.plain.json > /dev/null
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], d['spmv']['describe'].split('built in')[1][:80])" $w/$tag.plain.json $tag
    echo "== $tag"; grep -iE "sell|alloc|fence|deep_copy" $w/$tag.txt | head -24
  done
done
tar czf $OUT/call4.tgz -C $w .
