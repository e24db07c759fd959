# Session 34, call 1 (nvidia-h200): issue 16, point 1 ("chosen by auto where it wins"): does the
# cluster-pair list win at longer cut-offs (3.5 and 5.0 sigma, skin 0.3) than the bench deck's
# 2.5? Plain full list against the cluster list, double and single, 256,000 and 2,048,000 atoms,
# 2 interleaved rounds each. Then Nsight Compute on the 4M-atom plain and cluster force kernels
# (double): the L1/TEX throughput's breakdown and its global-load requests and sectors, to say
# which part of the L1 limits them. GPU tests of this build: test_cluster_pair, test_neighbor.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
for t in test_cluster_pair test_neighbor; do
  timeout 200 $B/$t > $w/$t.log 2>&1; echo "$t rc=$?"; grep -E "^\[  (PASSED|FAILED|SKIPPED) " $w/$t.log | head -4
done
for rc in 3.5 5.0; do
  steps=200; [[ $rc == 5.0 ]] && steps=100
  CUTOFF=$rc STEPS=$steps LISTS="full cluster" SIZES="40 80" ROUNDS=2 \
    timeout 240 bash tools/md-peers.sh $w/rc$rc $B/mdremap > $w/rc$rc.log 2>&1
  echo "== cutoff $rc: md-peers rc=$?"; tail -2 $w/rc$rc.log; cat $w/rc$rc/md-peers.txt
done
for k in FullBody CudaClusterLanes; do
  list=full; [[ $k == CudaClusterLanes ]] && list=cluster
  timeout 100 ncu --clock-control none --section SpeedOfLight --metrics breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed \
    --kernel-name-base demangled -k "regex:$k" --launch-skip 5 --launch-count 1 \
    $B/mdremap md inputs/lj_large.yaml --precision double --steps 25 --set neighbor.list=$list --quiet > $w/ncu-l1-4m-double-$list.txt 2>&1
  echo "== ncu L1 breakdown, 4M double, $list"; grep -E "Duration|l1tex__|L1/TEX|DRAM Through" $w/ncu-l1-4m-double-$list.txt | head -40
  timeout 100 ncu --clock-control none --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate_pipe_lsu_mem_global_op_ld.pct,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio \
    --kernel-name-base demangled -k "regex:$k" --launch-skip 5 --launch-count 1 \
    $B/mdremap md inputs/lj_large.yaml --precision double --steps 25 --set neighbor.list=$list --quiet > $w/ncu-ld-4m-double-$list.txt 2>&1
  echo "== ncu loads, 4M double, $list"; grep -E "l1tex__|smsp__|==ERR" $w/ncu-ld-4m-double-$list.txt | head -20
done
tar czf $OUT/call1.tgz -C $w .
