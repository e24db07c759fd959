# Session 31, call 7 (nvidia-h100-x1): the final build (lanes only on a CUDA default space):
# test_remap_md, and auto's choice at 32,000, 256,000 and 4,000,000 atoms.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_remap_md > $w/test_remap_md.log 2>&1; echo "test_remap_md rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/test_remap_md.log | head -8
for c in 20 40 100; do
  $B/mdremap md inputs/lj_bench.yaml --steps 100 --quiet --set "system.lattice.cells=[$c,$c,$c]" --summary $w/auto-$c.json > /dev/null 2>&1
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['atoms'], 'atoms:', d['remap']['strategy'], '%.3e atom-steps/s' % d['atom_steps_per_s'])" $w/auto-$c.json
done
tar czf $OUT/call7.tgz -C $w .
