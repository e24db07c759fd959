# Session 29, call 3 (nvidia-h100-x1): one exploration budget for auto's kernels and the layer's
# strategies (the layer no longer profiles the gather the kernels' measuring skipped). GPU tests
# of the SpMV, solver and CLI; the four stand-ins natural and permuted, every variant, 5
# interleaved rounds, with offshore's timelines.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED)" $w/$t.log | head -5
done
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/stand $w/s
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 300 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand rc=$?"
grep -E "auto \(|auto least" $w/stand/cg.txt | head -20
tar xzf $w/stand/cg-summaries.tgz -C $w/s
python3 tools/cg-timeline.py $w/s offshore.natural sell sell-offsets cusparse auto
python3 tools/cg-timeline.py $w/s offshore.permuted sell-offsets sell cusparse auto
grep -h "layer's decision" $w/s/offshore.*.auto.json* | head -0
python3 - $w/s <<'PY'
import json, glob, re, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.auto.json*")):
    d = json.load(open(f))["remap"].get("decision", "")
    m = re.search(r"layer's decision \(its screening, probes and any profiling\) took ([0-9.]+)", d)
    k = re.search(r"own iterations: (.*?); ([0-9.]+) ms beyond", d)
    print(f.split("/")[-1], "decision", m.group(1) if m else "-", "| kernels", re.sub(r" \(first[^)]*\)", "", k.group(1)) if k else "-", "| excess", k.group(2) if k else "-")
PY
tar czf $OUT/call3.tgz -C $w .
