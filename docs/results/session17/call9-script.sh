# Session 17, call 9 (nvidia-h100-x1): where the csr-thread CG iteration's time goes on the
# labelprop-reordered large case (3.06 ms an iteration against a 1.14 ms SpMV, call 8): Nsight
# Compute durations of the fused SpMV+dots kernel (SpmvBody<CgRow>, a reduction), the plain SpMV
# (SpmvBody<StoreRow>) and the vector update.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
timeout 300 ncu --clock-control none --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__block_size,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active \
  --kernel-name-base demangled -k 'regex:CgRow|StoreRow|UpdatePlain' --launch-skip 8 --launch-count 6 \
  $B/mdremap cg inputs/cg_large.yaml --set solver.max_iterations=30 --set spmv.timing_repeats=3 \
  --set spmv.transactions=false --reorder labelprop --quiet > $OUT/ncu.txt 2>&1
echo "rc=$?"
grep -E "SpmvBody|UpdatePlain|Duration|duration|DRAM|dram|registers|block_size|grid_size|warps_active" $OUT/ncu.txt | sed 's/Kokkos::Impl:://g; s/mdremap:://g' | cut -c1-200 | head -60
