# Session 23, call 5 (nvidia-h100-x1): where the large natural case's CG iteration goes (0.99 ms
# against CuPy's 1.78; 2x needs 0.89): Nsight Compute durations, DRAM bytes and throughput of
# every kernel of a few lagged iterations, sell with its dots fused (slot_reduce) and sell with
# the dots after (SellApply + the dots' reduction); the vector update and the scalar kernel.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
for v in fused after; do
  timeout 280 ncu --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread,launch__grid_size,launch__block_size,sm__warps_active.avg.pct_of_peak_sustained_active \
    --kernel-name-base demangled -k 'regex:slot_reduce|SellApply|UpdatePlain|scalars|CG::|cg_dots|Dots' --launch-skip 60 --launch-count 12 \
    $B/mdremap cg inputs/cg_large.yaml --set matrix.permute=false --spmv sell --set spmv.sell_fused_dots=$([[ $v == fused ]] && echo true || echo false) \
    --set solver.max_iterations=40 --set spmv.timing_repeats=3 --set spmv.transactions=false --set spmv.warm_up=false --quiet > $OUT/ncu-$v.txt 2>&1
  echo "== $v rc=$?"
  python3 - $OUT/ncu-$v.txt <<'PY'
import sys,re
name=None
for line in open(sys.argv[1]):
    m=re.match(r'^  (\S.*?) \(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)', line)
    if m:
        n=m.group(1); n=re.sub(r'Kokkos::Impl::|mdremap::|cg::|\(anonymous namespace\)::','',n); name=n[:110]; print('--',name); continue
    l=line.strip()
    if re.match(r'^(gpu__time_duration|dram__|launch__|sm__warps)',l): print('   ',re.sub(r'\s+',' ',l))
PY
done
