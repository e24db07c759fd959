# Session 30, call 5 (nvidia-h100-x1, the code of call 4): every variant on the four stand-ins,
# natural and permuted, one round (CuPy's cg and cuSPARSE in the same run): time per CG iteration,
# SpMV GB/s, transactions, the paper's claims. One case per invocation, written as it completes.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for m in offshore apache2 parabolic_fem ecology2; do
  mkdir -p $OUT/$m
  CG_CASES="$m" CG_VARIANTS="gather csr-warp cusparse sell dup sharing throttle-cf throttle-cfq throttle-sj throttle-sjq auto" \
    CG_ROUNDS=1 CG_SOLVES=1 CG_SPMV_REPS=20 \
    timeout 150 bash tools/cg-bench.sh $B/mdremap $OUT/$m > $OUT/$m/cg-bench.log 2>&1
  echo "$m rc=$?"
  grep -E "^$m " $OUT/$m/cg.txt | head -30
  grep -E "Table|transactions|best own SpMV|best CG" $OUT/$m/cg.txt | head -12
done
# The call's files for offshore and parabolic_fem did not come back (too many files under $OUT);
# parabolic_fem's table is in the call's printed output (docs/benchmarks.md); offshore was run
# again at once on the same warm machine, its files packed into one:
#   CG_CASES="offshore" CG_VARIANTS="<the same>" CG_ROUNDS=1 CG_SOLVES=1 CG_SPMV_REPS=20 \
#     bash tools/cg-bench.sh $B/mdremap $w; tar czf $OUT/offshore.tgz cg.txt cg.csv cg-summaries.tgz cg-bench.log
# Call 6 (after the re-read: a lane's own candidate loaded directly), run inline:
#   test_cg_spmv; test_cg_solver; mdremap cg inputs/cg_offshore.yaml --spmv sell on each order
# -> 11/11 and 18/18 passed; diagonal slices as in call 4 (8119 natural, 84.2% of the entries;
#    8118 permuted); sell built in 0.651 / 0.674 ms.
