# Session 20, call 7 (nvidia-h100-x1): the large case permuted, auto (which reorders on its own
# now) and sell+labelprop, one run each (call 5 ran out of time before them), summaries kept.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for v in auto sell+labelprop; do
  extra=(--remap auto); [[ $v == sell+labelprop ]] && extra=(--spmv sell --reorder labelprop)
  echo "== large permuted $v"
  $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=true --set spmv.timing_repeats=20 --set spmv.transactions=false --summary $w/large.permuted.$v.json "${extra[@]}" 2>&1 | grep -E "^# reorder|^# auto|^Conv|^Time|^SpMV" | cut -c1-600
  python3 -c "import json;d=json.load(open('$w/large.permuted.$v.json'));s=d['setup'];print('whole (set-up + first solve) ms:', round(1e3*(s['spmv_setup_seconds']+s['reorder_seconds']+d['first_solve_total_seconds']),1))"
done
tar czf $OUT/call7.tgz -C $w .
