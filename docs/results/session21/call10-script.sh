# Session 21, call 10 (nvidia-h100-x1): where auto's whole solve on parabolic_fem permuted (a
# reorder mid-solve) loses ~5 ms against its own parts: the solve without and with the kernel timer
# (fenced, per-kernel totals), auto against sell+labelprop and sell, 2 rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for round in 1 2; do
  for v in "auto:--remap auto" "lp:--spmv sell --reorder labelprop" "sell:--spmv sell"; do
    name=${v%%:*}; args=${v#*:}
    $B/mdremap cg inputs/cg_parabolic_fem.yaml --set matrix.permute=true $args --set spmv.timing_repeats=0 --set spmv.transactions=false --summary $w/$name.$round.json > $w/$name.$round.out 2>&1
    python3 -c "import json;d=json.load(open('$w/$name.$round.json'));s=d['setup'];print('$name r$round whole', round(1e3*(s['spmv_setup_seconds']+s['reorder_seconds']+d['first_solve_total_seconds']),2), 'loop', round(1e3*d['solve_seconds'],2), 'first', round(1e3*d['first_spmv_seconds_each'][0],2), 'lagged_from', d['solver']['lagged_from'])"
  done
done
for v in "auto:--remap auto" "lp:--spmv sell --reorder labelprop"; do
  name=${v%%:*}; args=${v#*:}
  KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_TIMER_OUT=$w/kt.$name.txt $B/mdremap cg inputs/cg_parabolic_fem.yaml --set matrix.permute=true $args --set spmv.timing_repeats=0 --set spmv.transactions=false > $w/kt.$name.out 2>&1
  echo "== kernel timer $name"; head -14 $w/kt.$name.txt
done
tar czf $OUT/call10.tgz -C $w .
