# issue 17: the scaling tables with this session's exchange, then the build before it at 4 GPUs
xz -dkf .carry/mdremap-before.xz; chmod +x .carry/mdremap-before
ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 bash tools/multigpu.sh > $OUT/multigpu-stdout.txt 2>&1; echo "multigpu rc $?"
B=$PWD/.bundle/bin
grep -E "FAIL|PASS" $OUT/multigpu-stdout.txt | head; 
$B/test_phase_clock 2>&1 | grep -E "PASSED|FAILED" | tail -1
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
mkdir -p $OUT/ab
for prec in double single; do for bin in before after before after; do
  exe=$B/mdremap; [[ $bin == before ]] && exe=$PWD/.carry/mdremap-before
  $M -np 4 $exe md inputs/lj_large.yaml --steps 600 --quiet --precision $prec --set "system.lattice.cells=[200,200,100]" --summary $OUT/ab/$bin-$prec-$RANDOM.json > /dev/null 2>&1 || echo "FAIL $bin $prec"
done; done
python3 - $OUT/ab <<'PY'
import json,glob,statistics,sys
for prec in ('double','single'):
  for bin in ('before','after'):
    v=[json.load(open(f))['atom_steps_per_s'] for f in glob.glob(f"{sys.argv[1]}/{bin}-{prec}-*.json")]
    print(prec, bin, 'n4 runs', ' '.join(f'{x:.4g}' for x in v), 'median per GPU %.4g' % (statistics.median(v)/4))
PY
cd $OUT && tar czf ab.tgz ab && rm -rf ab
