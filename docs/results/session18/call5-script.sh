# Session 18, call 5 (nvidia-h100-x1): (1) issue 12's whole-solve table again with auto timing its
# kernels by CUDA events (no fence before a measured SpMV) and the gather made without a zero
# vector; 3 interleaved rounds; (2) why csr-warp runs at 0.42x cuSPARSE on offshore natural:
# vector lengths 2..32, and Nsight Compute's figures for csr-warp's kernel (RowLanes) and
# cuSPARSE's.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
CG_CASES="offshore parabolic_fem apache2 ecology2" CG_ORDERS="natural permuted" CG_VARIANTS="gather csr-warp cusparse auto" \
  CG_ROUNDS=3 CG_SOLVES=1 CG_SPMV_REPS=100 CG_EXTRA="--set spmv.transactions=false" \
  timeout 400 bash tools/cg-bench.sh $B/mdremap $OUT > $OUT/cg-bench.log 2>&1
echo "rc=$?"
grep -E "whole solve" $OUT/cg.txt | head -40
for vl in 2 4 8 16 32; do
  echo "vl $vl: $($B/mdremap cg inputs/cg_offshore.yaml --spmv csr-warp --set spmv.vector_length=$vl --set spmv.transactions=false --set spmv.timing_repeats=200 2>&1 | grep -E '^SpMV')"
done
timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,launch__registers_per_thread,launch__block_size,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__occupancy_limit_registers,launch__occupancy_limit_blocks \
  --kernel-name-base demangled -k 'regex:RowLanes|csrmv|spmv|SpMV' --launch-skip 20 --launch-count 4 \
  $B/mdremap cg inputs/cg_offshore.yaml --spmv csr-warp --set solver.max_iterations=30 --set spmv.timing_repeats=3 --set spmv.transactions=false --quiet > $OUT/ncu-warp.txt 2>&1
timeout 200 ncu --clock-control none --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,launch__registers_per_thread,launch__block_size,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__occupancy_limit_registers,launch__occupancy_limit_blocks \
  --kernel-name-base demangled --launch-skip 40 --launch-count 6 \
  $B/mdremap cg inputs/cg_offshore.yaml --spmv cusparse --set solver.max_iterations=30 --set spmv.timing_repeats=3 --set spmv.transactions=false --quiet > $OUT/ncu-cusparse.txt 2>&1
for f in $OUT/ncu-warp.txt $OUT/ncu-cusparse.txt; do echo "== $f"; grep -vE "^==PROF==|^mdremap|^cg:" $f | sed 's/Kokkos::Impl:://g; s/mdremap:://g' | cut -c1-180 | head -60; done
