# Session 23, call 17 (nvidia-h100-x1), an experiment (MDREMAP_EXP, not kept): what holds sell's
# fused SpMV + dots kernel at 70-75% of DRAM bandwidth on the large natural case where the plain
# SpMV reaches 85%. Nsight Compute, one launch each, the solve's first SpMV (launch 0: the
# variants 2-3 give wrong dot products, so the solve stops early) and, for the kept kernel, an
# iteration's (launch 20): 0 the kernel as kept; 1 u's own entry taken from the row's gather
# (its diagonal) instead of a load; 2 no load of u's own entry (a constant; timing only); 3 no
# dot products at all (timing only); "after": the plain SpMV (SellApply).
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
prof() {  # name env skip regex fused
  MDREMAP_EXP=$2 timeout 150 ncu --clock-control none --section SpeedOfLight --section Occupancy --section LaunchStats \
    --kernel-name-base demangled -k "regex:$4" --launch-skip $3 --launch-count 1 \
    $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=false --spmv sell --set spmv.sell_fused_dots=$5 \
    --set solver.max_iterations=30 --set spmv.timing_repeats=3 --set spmv.transactions=false --set spmv.warm_up=false --quiet > $OUT/ncu-$1.txt 2>&1
  echo "== $1: $(grep -E '^    (Duration|DRAM Throughput|Registers Per|Achieved Occupancy)' $OUT/ncu-$1.txt | sed -E 's/ +/ /g' | tr '\n' ';')"
}
prof exp0-launch0 0 0 slot_reduce true
prof exp1-launch0 1 0 slot_reduce true
prof exp2-launch0 2 0 slot_reduce true
prof exp3-launch0 3 0 slot_reduce true
prof after-launch0 0 0 SellApply false
prof exp0-launch20 0 20 slot_reduce true
prof exp1-launch20 1 20 slot_reduce true
