# Session 31, call 2 (nvidia-h100-x1): (a) remap.lanes at small sizes, 4 interleaved rounds at
# 32,000, 62,500 and 131,072 atoms (cells 20, 25, 32); (b) Nsight Compute on the 4M-atom force kernels (plain and cluster, double
# and single) and on the 32,000-atom plain force kernel with 1 and 8 lanes.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$(mktemp -d)
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw --format=csv -l 1 > $w/clocks.csv 2>&1 &
smi=$!
LISTS="full-l1 full-l2 full-l4 full-l8 full-l16" SIZES="20 25 32" ROUNDS=4 \
  timeout 200 bash tools/md-peers.sh $w/lanes $B/mdremap > $w/lanes.log 2>&1
echo "lanes rc=$?"; cat $w/lanes/md-peers.txt
for prec in double single; do
  for list in full cluster; do
    k=FullBody; [[ $list == cluster ]] && k=Cluster
    timeout 60 ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section WarpStateStats --kernel-name-base demangled -k "regex:$k" --launch-skip 5 --launch-count 1 \
      $B/mdremap md inputs/lj_large.yaml --precision $prec --steps 8 --set neighbor.list=$list --quiet > $w/ncu-4m-$prec-$list.txt 2>&1
    echo "== ncu 4M $prec $list"; grep -E "^    Duration|DRAM Throughput|L1/TEX Cache Throughput|L1/TEX Hit Rate|L2 Hit Rate|Achieved Occupancy|Issue Slots Busy|Avg. Active Threads" $w/ncu-4m-$prec-$list.txt | head -9
  done
done
for l in 1 8; do
  timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats --kernel-name-base demangled -k "regex:FullBody" --launch-skip 5 --launch-count 1 \
    $B/mdremap md inputs/lj_bench.yaml --steps 8 --set remap.lanes=$l --quiet > $w/ncu-32k-l$l.txt 2>&1
  echo "== ncu 32k double lanes $l"; grep -E "^    Duration|DRAM Throughput|L1/TEX Cache Throughput|Achieved Occupancy|Issue Slots Busy|Avg. Active Threads|Warp Cycles Per Issued" $w/ncu-32k-l$l.txt | head -8
done
kill $smi
awk -F', ' 'NR>1 {print $2, $3}' $w/clocks.csv | sort | uniq -c | sort -rn | head -4
tar czf $OUT/call2.tgz -C $w .
