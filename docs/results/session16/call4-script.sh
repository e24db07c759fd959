# Session 16, call 4 (nvidia-h100-x4, a fresh machine): call 3 again (its GPU 0 ran hot: 64 C
# idle against 30 C for the others, and halved its speed in round 2). The final build (1b36eec),
# the scaling table; GPU temperatures and clocks before and after.
q() { nvidia-smi --query-gpu=index,temperature.gpu,power.draw,clocks.sm,clocks_throttle_reasons.active --format=csv,noheader; }
echo "--- before"; q
ROUNDS=2 WEAK_STEPS=600 STRONG_STEPS=300 bash tools/multigpu.sh > $OUT/multigpu-stdout.txt 2>&1
echo "--- after"; q
tail -n 60 $OUT/multigpu.md
