# Session 15, call 4 (nvidia-h100-x4): the final build's scaling table, the ghost update beside the
# forces (transfer auto) against before them (seq: parallel.overlap=off) in the same rounds; the
# MPI test cases; then the split's cost on one GPU (the exchange path, self swaps only).
SEQUENTIAL=1 ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 bash tools/multigpu.sh 2>&1 | tail -n 60
source tools/unbundle.sh && unbundle $PWD; B=$PWD/.bundle/bin
for v in on off on off; do
  $B/mdremap md inputs/lj_large.yaml --steps 600 --quiet --set parallel.ghosts=exchange \
    --set parallel.overlap=$v --summary $OUT/ex_$v.json > /dev/null 2>&1 || echo "FAIL exchange path $v"
  python3 -c "
import json; j=json.load(open('$OUT/ex_$v.json')); t=j['time_split_ms_per_step']
print('1 GPU exchange path, overlap $v: %.4g atom-steps/s, force %.3f neighbor %.3f exchange %.3f beside %.3f' % (j['atom_steps_per_s'], t['force'], t['neighbor'], t['exchange'], t['exchange_overlapped']))"
done
