# Session 31, call 3 (nvidia-h100-x1): issue 16's matrix with this build: the bench deck at 32k,
# 256k, 2.048M, 4M and 16.4M atoms, double and single, the plain list (lanes auto, and 1), the
# cluster list, against ExaMiniMD (sm_90, double, full list), 2 interleaved rounds. First the
# GPU tests of the final build (remap.lanes auto at most 2).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv -l 1 > $w/clocks.csv 2>&1 &
smi=$!
for t in test_remap_md test_md_physics; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -8
done
$B/mdremap md inputs/lj_bench.yaml --steps 100 --quiet --summary $w/auto-32k.json > /dev/null 2>&1
python3 -c "import json,sys; print('auto at 32,000 atoms:', json.load(open(sys.argv[1]))['remap']['strategy'])" $w/auto-32k.json
LISTS="full full-l1 cluster" SIZES="20 40 80 100 160" ROUNDS=2 EXAMINIMD=$PWD/.carry/examinimd \
  timeout 420 bash tools/md-peers.sh $w/matrix $B/mdremap > $w/matrix.log 2>&1
echo "matrix rc=$?"; tail -2 $w/matrix.log; cat $w/matrix/md-peers.txt
kill $smi
awk -F', ' 'NR>1 {print $2, $3}' $w/clocks.csv | sort | uniq -c | sort -rn | head -4
tar czf $OUT/call3.tgz -C $w .
