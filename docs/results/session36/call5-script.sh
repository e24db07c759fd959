# Session 36, call 5 (nvidia-h200): issue 16's matrix with this session's build (the cut-off as a
# select): the bench deck at 32k, 256k, 2.048M, 4M and 16.4M atoms, double and single, plain and
# cluster lists, HEAD's build before the change (`head`, plain list) and ExaMiniMD (double, full
# list) in the same 3 interleaved rounds. An H200 (no H100 was lent): not the device.
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
w=$OUT/w; mkdir -p $w
nvidia-smi --query-gpu=index,name,clocks.max.sm,memory.total,driver_version --format=csv,noheader
EXAMINIMD=$PWD/.carry/examinimd EXTRA_LISTS=full LISTS="full cluster" SIZES="20 40 80 100 160" ROUNDS=3 \
  timeout 560 bash tools/md-peers.sh $w/matrix $B/mdremap head=$B/mdremap-head > $w/matrix.log 2>&1
echo "md-peers rc=$?"; tail -2 $w/matrix.log; cat $w/matrix/md-peers.txt
tar czf $OUT/call5.tgz -C $w .
