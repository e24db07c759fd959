#!/usr/bin/env bash
# GPU selection (`--device`, KOKKOS_DEVICE_ID): a CUDA build runs on the GPU it is given and
# `info` marks it; a bad id is one line and exit 2. A CPU build refuses --device with one line.
set -u
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() {  # NAME CONDITION-RESULT
  if [[ $2 == 0 ]]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
"$bin" info --summary "$work/info.json" >/dev/null || { echo "FAIL info"; exit 1; }
backend=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["backend"])' "$work/info.json")
if [[ $backend != cuda ]]; then
  "$bin" md "$src/inputs/lj_bench.yaml" --steps 1 --device 0 >"$work/out" 2>"$work/err"
  rc=$?
  [[ $rc == 2 && $(wc -l <"$work/err") == 1 ]] && grep -q -- "--device: .*chooses a GPU" "$work/err"
  check "cpu build refuses --device (rc $rc)" $?
  exit $fail
fi
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["devices"]))' "$work/info.json")
((n >= 1)); check "info lists $n GPU(s)" $?
last=$((n - 1))
"$bin" info --device "$last" --summary "$work/last.json" | grep -q "GPU $last .*<- this run"
check "info --device $last marks GPU $last" $?
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["device"]["id"] == int(sys.argv[2])' \
  "$work/last.json" "$last"
check "summary device id is $last" $?
KOKKOS_DEVICE_ID=$last "$bin" info --summary "$work/env.json" >/dev/null
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["device"]["id"] == int(sys.argv[2])' \
  "$work/env.json" "$last"
check "KOKKOS_DEVICE_ID=$last selects GPU $last" $?
"$bin" md "$src/inputs/lj_bench.yaml" --steps 10 --device 0 --quiet --summary "$work/md.json" >/dev/null
check "md --device 0 runs" $?
for bad in "$n" -1 x "0,"; do
  "$bin" md "$src/inputs/lj_bench.yaml" --steps 1 --device "$bad" >"$work/out" 2>"$work/err"
  rc=$?
  [[ $rc == 2 && $(wc -l <"$work/err") == 1 ]] && grep -q -- "--device" "$work/err"
  check "--device $bad refused: $(head -c 120 "$work/err")" $?
done
exit $fail
