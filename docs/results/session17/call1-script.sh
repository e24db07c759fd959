# Session 17, call 1 (nvidia-h100-x1): the cluster list with each pair once (issue 16, point 2's
# "measure half against full") on the GPU: its tests, then the bench deck at 32k, 2.048M and 4M
# atoms, full / cluster / cluster-newton, double and single, 3 interleaved rounds.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
nvidia-smi --query-gpu=index,name,temperature.gpu,clocks.sm --format=csv,noheader
timeout 240 $B/test_cluster_pair > $OUT/test_cluster_pair.log 2>&1; echo "test_cluster_pair rc=$?"; tail -3 $OUT/test_cluster_pair.log
timeout 120 $B/test_neighbor > $OUT/test_neighbor.log 2>&1; echo "test_neighbor rc=$?"; tail -2 $OUT/test_neighbor.log
LISTS="full cluster cluster-newton" SIZES="20 80 100" ROUNDS=3 timeout 420 bash tools/md-peers.sh $OUT/peers $B/mdremap > $OUT/peers.log 2>&1; echo "md-peers rc=$?"
cat $OUT/peers/md-peers.txt
nvidia-smi --query-gpu=index,temperature.gpu,clocks.sm --format=csv,noheader
