# Session 19, call 10 (nvidia-h100-x1): call 9 again after the re-read (one scalar step for both loops; the dots as one functor; one update kernel per form over host or
# device scalars): the CG GPU tests and the CLI test; sell lagged and waiting, plain and Jacobi,
# on parabolic_fem natural, 2 interleaved rounds, as a check that nothing moved.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for t in test_cg_spmv test_cg_solver; do
  timeout 200 $B/$t > $OUT/$t.log 2>&1; echo "$t rc=$?"; grep -E "PASSED|FAILED" $OUT/$t.log | head -5
done
timeout 120 bash tests/cg/test_cg_cli.sh $B/mdremap > $OUT/test_cg_cli.log 2>&1; echo "test_cg_cli rc=$?"; tail -1 $OUT/test_cg_cli.log
for pc in none jacobi; do for r in 1 2; do for v in sell sell-wait; do
  extra=(); [[ $v == sell-wait ]] && extra=(--set solver.wait_each_iteration=true)
  $B/mdremap cg inputs/cg_parabolic_fem.yaml --quiet --spmv sell --set solver.preconditioner=$pc --set spmv.timing_repeats=0 --set spmv.transactions=false "${extra[@]}" --summary $OUT/pf.$pc.$v.$r.json > /dev/null
  python3 -c "import json;d=json.load(open('$OUT/pf.$pc.$v.$r.json'));print('$pc $v $r', d['iterations'], round(d['time_per_iteration_ms'],4), d['solver']['lagged_from'], d['stop'], '%.2e' % d['relative_error'])"
done; done; done
tar czf $OUT/call10.tgz -C $OUT $(cd $OUT && ls *.json *.log) && rm -f $OUT/*.json $OUT/test_*.log
