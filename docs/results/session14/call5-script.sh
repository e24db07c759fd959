# issue 17: the scaling tables after the two-kernel peer exchange (tools/multigpu.sh, tests on)
ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 bash tools/multigpu.sh > $OUT/multigpu-stdout.txt 2>&1; echo "multigpu rc $?"
grep -E "FAIL|PASS" $OUT/multigpu-stdout.txt | head
source tools/unbundle.sh && unbundle $PWD; .bundle/bin/test_phase_clock 2>&1 | grep -E "PASSED|FAILED" | tail -1
