# issue 16: would dynamic pruning pay? The force phase with lists of rc+0.3 (the deck) against
# rc+0.1 (what a pruned inner list keeps), cluster and plain lists, 4M atoms, one H100.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/p
for r in 1 2; do for prec in double single; do for list in cluster full; do for skin in 0.3 0.1; do
  $B/mdremap md inputs/lj_large.yaml --steps 200 --quiet --precision $prec --set neighbor.list=$list --set neighbor.skin=$skin --set neighbor.every=1 --set neighbor.check=true --summary $OUT/p/${list}_${prec}_${skin}_r$r.json > /dev/null 2>&1 || echo "FAIL $list $prec $skin"
done; done; done; done
python3 - $OUT/p <<'PY'
import json,glob,statistics,sys
for prec in ('double','single'):
  for list_ in ('cluster','full'):
    for skin in ('0.3','0.1'):
      js=[json.load(open(f)) for f in glob.glob(f"{sys.argv[1]}/{list_}_{prec}_{skin}_r*.json")]
      f=statistics.median(j['time_split_ms_per_step']['force'] for j in js)
      nb=statistics.median(j['time_split_ms_per_step']['neighbor'] for j in js)
      print(prec, list_, 'skin', skin, 'force ms/step %.3f'%f, 'neighbor ms/step %.3f'%nb, 'builds', js[0]['neighbors']['builds'], 'mean pairs/atom %.1f'%js[0]['neighbors']['mean'], 'rows/atom', js[0].get('cluster',{}).get('rows_per_atom','-'))
PY
cd $OUT && tar czf prune.tgz p && rm -rf p
