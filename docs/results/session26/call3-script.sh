# Session 26, call 3 (nvidia-h100-x1), an experiment (MDREMAP_EXP_SHAPE, not kept): the shape of
# sell's loop with diagonal columns. Shape 0: one loop, each column's offset the slot's row
# (k < ndiag) or the stored one (40 registers); shape 1: the diagonal columns' loop, then the
# offset columns' (48 registers in the fused kernel); base: the build before diagonal columns
# (48f665a, .carry/mdremap-base.xz). sell's CG iteration (ms) and SpMV (ms, 50 back-to-back) on
# the large case natural and the stand-ins natural and permuted, 3 interleaved rounds; shape 0
# and 1 also with spmv.sell_diagonals=false (offsets only).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
xz -dc .carry/mdremap-base.xz > $B/mdremap-base && chmod +x $B/mdremap-base
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
run() {  # tag case perm bin shape extra...
  local tag=$1 c=$2 p=$3 bin=$4 sh=$5; shift 5
  MDREMAP_EXP_SHAPE=$sh timeout 60 $B/$bin cg inputs/cg_$c.yaml --quiet --spmv sell --set matrix.permute=$p \
    --set spmv.transactions=false --set spmv.timing_repeats=50 --summary $w/$c.$p.$tag.r$r.json "$@" > /dev/null 2>&1 || echo "$tag $c $p rc=$?"
}
for r in 1 2 3; do
  for cp in "large false" "offshore false" "offshore true" "parabolic_fem false" "parabolic_fem true" "apache2 false" "apache2 true" "ecology2 false" "ecology2 true"; do
    set -- $cp
    run base $1 $2 mdremap-base 0
    run shape0 $1 $2 mdremap 0
    run shape1 $1 $2 mdremap 1
    run shape0-off $1 $2 mdremap 0 --set spmv.sell_diagonals=false
    run shape1-off $1 $2 mdremap 1 --set spmv.sell_diagonals=false
  done
done
python3 - $w <<'PY'
import glob, json, os, statistics, sys
w = sys.argv[1]
rows = {}
for f in glob.glob(os.path.join(w, "*.json")):
    c, p, tag, r, _ = os.path.basename(f).split(".")
    d = json.load(open(f))
    rows.setdefault((c, p), {}).setdefault(tag, []).append((d["time_per_iteration_ms"], d["spmv"]["time_ms"]))
tags = ["base", "shape0", "shape1", "shape0-off", "shape1-off"]
print("case order: CG iteration ms / SpMV ms, medians of 3 rounds:", " | ".join(tags))
for (c, p), v in sorted(rows.items()):
    cells = []
    for t in tags:
        if t in v:
            cells.append("%.4f / %.4f" % (statistics.median(x[0] for x in v[t]), statistics.median(x[1] for x in v[t])))
        else:
            cells.append("-")
    print("%-14s %-5s" % (c, "perm" if p == "true" else "nat"), " | ".join(cells))
PY
tar czf $OUT/call3.tgz -C $w .
