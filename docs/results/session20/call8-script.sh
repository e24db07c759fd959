# Session 20, call 8 (nvidia-h100-x1): the large case natural, auto (which keeps the order:
# 28.6% scattered) and sell, one run each, whole solves (call 5 timed only iterations).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
for v in auto sell; do
  extra=(--remap auto); [[ $v == sell ]] && extra=(--spmv sell)
  echo "== large natural $v"
  $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=false --set spmv.timing_repeats=0 --set spmv.transactions=false --summary $w/large.natural.$v.json "${extra[@]}" 2>&1 | grep -E "^# reorder|^Conv|^Time" | cut -c1-600
  python3 -c "import json;d=json.load(open('$w/large.natural.$v.json'));s=d['setup'];print('whole (set-up + first solve) ms:', round(1e3*(s['spmv_setup_seconds']+s['reorder_seconds']+d['first_solve_total_seconds']),1))"
done
tar czf $OUT/call8.tgz -C $w .
