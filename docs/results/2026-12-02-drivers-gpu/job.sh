#!/usr/bin/env bash
# One GPU call: --device on the GPU, and the drivers move's behaviour against the base binary.
set -u
source tools/unbundle.sh && unbundle "$PWD"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv | tee "$OUT/gpu.txt"
bin=$PWD/.bundle/bin/mdremap; old=$PWD/.bundle/bin/mdremap-before
"$bin" info | tee "$OUT/info.txt"
"$bin" info --device 0 --summary "$OUT/info.json" > "$OUT/info-device0.txt" 2>&1; echo "info --device 0 rc=$?" | tee -a "$OUT/info-device0.txt"
bash tests/cli/test_device.sh "$bin" "$PWD" > "$OUT/test_device.log" 2>&1; echo "test_device rc=$?" | tee -a "$OUT/test_device.log"
cat "$OUT/test_device.log"
time tools/same-behaviour.sh "$old" "$bin" "$OUT/same" tools/same-behaviour-gpu.txt > "$OUT/same.log" 2>&1; echo "same-behaviour rc=$?" | tee -a "$OUT/same.log"
tail -n 40 "$OUT/same.log"
cd "$OUT" && tar czf same.tgz same && rm -rf same
