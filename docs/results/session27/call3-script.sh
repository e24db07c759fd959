# Session 27, call 3 (nvidia-h100-x1): auto's reorder over the log-uniform mean of the bracket
# from 16 residuals on, the iteration's non-SpMV part timed as a copy. GPU tests of the CG solver
# and CLI; offshore natural sell 6 times as the bench runs it, lazy and eager module loading
# alternating (the spikes of calls 2 and 9); the four stand-ins, 5 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 200 $B/test_cg_solver > $w/test_cg_solver.log 2>&1; echo "test_cg_solver rc=$?"; grep -E "PASSED|FAILED" $w/test_cg_solver.log | head -5
timeout 150 bash tests/cg/test_cg_cli.sh $B/mdremap > $w/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $w/test_cg_cli.log
mkdir -p $w/spikes
for i in 1 2 3 4 5 6; do
  for mode in LAZY EAGER; do
    CUDA_MODULE_LOADING=$mode $B/mdremap cg inputs/cg_offshore.yaml --quiet --set matrix.permute=false --set solver.repeats=1 \
      --set spmv.timing_repeats=50 --summary $w/spikes/$mode.$i.json --set spmv.transactions=false --spmv sell
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(sys.argv[2], round(1e3*d['first_solve_total_seconds'],2), round(1e3*d['setup']['spmv_setup_seconds'],2))" $w/spikes/$mode.$i.json $mode
  done
done
mkdir -p $w/stand
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_VARIANTS="sell sell-offsets sell+labelprop cusparse csr-warp auto" \
  CG_ROUNDS=5 CG_SOLVES=1 CG_SPMV_REPS=50 CG_EXTRA="--set spmv.transactions=false" \
  timeout 400 bash tools/cg-bench.sh $B/mdremap $w/stand > $w/stand/cg-bench.log 2>&1
echo "stand rc=$?"
grep -E "auto \(" $w/stand/cg.txt | head -20
tar czf $OUT/call3.tgz -C $w .
