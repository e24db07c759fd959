# Session 24, call 5 (nvidia-h100-x1): is the decomposed force kernel's 4.6% (call 3) the
# decomposed layout itself? One GPU, 4M atoms, single and double, 600 steps, 3 interleaved
# rounds: periodic images (default) against parallel.ghosts=exchange (one rank through the
# decomposed path: its own images by the exchange's swaps, the list built with images=false).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name,temperature.gpu,clocks.sm --format=csv,noheader
for r in 1 2 3; do
  for prec in single double; do
    $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 600 --quiet --summary $OUT/img_${prec}_r$r.json > $OUT/img_${prec}_r$r.log 2>&1 || echo "FAIL img $prec $r"
    $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 600 --quiet --set parallel.ghosts=exchange --summary $OUT/exch_${prec}_r$r.json > $OUT/exch_${prec}_r$r.log 2>&1 || { echo "FAIL exch $prec $r"; tail -3 $OUT/exch_${prec}_r$r.log; }
  done
done
python3 - $OUT <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
for prec in ("single", "double"):
    for tag in ("img", "exch"):
        js = [json.load(open(f)) for f in sorted(glob.glob(f"{out}/{tag}_{prec}_r*.json"))]
        if not js: continue
        t = {k: statistics.median([j["time_split_ms_per_step"].get(k, 0) for j in js]) for k in js[0]["time_split_ms_per_step"]}
        print(prec, tag, "%.4g" % statistics.median([j["atom_steps_per_s"] for j in js]), [round(j["atom_steps_per_s"] / 1e9, 4) for j in js],
              "rebuild %.3f" % statistics.median([j["rebuild_ms_each"] for j in js]), {k: round(v, 4) for k, v in t.items() if v}, js[0]["engine"][-160:])
PY
cd $OUT && tar czf call5.tgz *.json *.log && rm -f *.json *.log
