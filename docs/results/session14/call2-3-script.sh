# Calls 2 and 3 (nvidia-h100-x4, four H100s): correctness, then the build before this session's
# exchange work (.carry/mdremap-before, commit 5192f1a plus profiling regions) against the new one,
# 4M atoms per GPU, 600 steps, 2 interleaved rounds, medians; then a kernel-timer profile at 4 GPUs.
xz -dkf .carry/mdremap-before.xz; chmod +x .carry/mdremap-before
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
M="timeout 150 mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH"
mkdir -p $OUT/ab
cells() { case $1 in 1) echo "[100,100,100]";; 2) echo "[200,100,100]";; 4) echo "[200,200,100]";; esac; }
ordered=(--steps 1000 --set run.thermo=100 --set neighbor.row_order=id --precision double -q)
$M -np 1 $B/mdremap md inputs/lj_large.yaml "${ordered[@]}" --thermo-csv $OUT/ab/ref.csv >/dev/null 2>&1 || echo FAIL ref
for n in 2 4; do for tr in auto host; do
  $M -np $n $B/mdremap md inputs/lj_large.yaml "${ordered[@]}" --set parallel.transfer=$tr --thermo-csv $OUT/ab/np${n}_$tr.csv >/dev/null 2>&1 || echo "FAIL np$n $tr"
  python3 tests/mpi/compare_thermo.py $OUT/ab/ref.csv $OUT/ab/np${n}_$tr.csv --step0 1e-12 --rest 1e-9 --label "np$n $tr:" 2>&1 | tail -1
done; done
for c in "thermo 2" "thermo 4" "migration 4" "refused"; do
  timeout 150 bash tests/mpi/test_mpi.sh $B/mdremap $PWD $c > $OUT/ab/test_${c// /_}.log 2>&1 && echo "PASS $c" || echo "FAIL $c"
done
for t in test_neighbor test_phase_clock; do $B/$t > $OUT/ab/$t.log 2>&1; echo "$t rc $?"; done
for r in 1 2; do for n in 1 2 4; do for prec in double single; do for bin in before after; do
  exe=$B/mdremap; [[ $bin == before ]] && exe=$PWD/.carry/mdremap-before
  $M -np $n $exe md inputs/lj_large.yaml --steps 600 --quiet --precision $prec --set "system.lattice.cells=$(cells $n)" --summary $OUT/ab/w_${bin}_n${n}_${prec}_r$r.json > $OUT/ab/w_${bin}_n${n}_${prec}_r$r.log 2>&1
done; done; done; done
# (a python summary of medians over the JSON files: atom-steps/s, efficiency, rebuild_ms_each, time split)
export KOKKOS_TOOLS_LIBS=$PWD/.bundle/lib/libkp-kernel-timer.so KP_SYNC=1 KP_TIMER_OUT=$OUT/ab/prof_n4_%r.txt
$M -x KOKKOS_TOOLS_LIBS -x KP_SYNC -x KP_TIMER_OUT -np 4 $B/mdremap md inputs/lj_large.yaml --steps 300 --quiet --set "system.lattice.cells=[200,200,100]"
