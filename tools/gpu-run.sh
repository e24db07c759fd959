#!/usr/bin/env bash
# GPU runs in two halves, one script:
#
#   tools/gpu-run.sh bundle          # here: build the cuda preset, bundle it into .bundle/
#   tools/gpu-run.sh device [what]   # on the lent GPU machine (one `device` call, carrying
#                                    # .bundle): gpu tests + benchmarks, results under $OUT
#
# `what` is a comma list of: tests, bench, large, remap (default: tests,bench,large).
# The device machine (Ubuntu, CUDA driver) has no yaml-cpp, fmt, VTK or Debian's HDF5 names, so
# the bundle carries every shared library that is not part of the C runtime or the driver.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"
mode=${1:?usage: gpu-run.sh bundle|device [what]}

bundle() {
  "$here/build-kokkos.sh" cuda
  cmake --preset cuda >/dev/null
  cmake --build --preset cuda -j "${JOBS:-$(nproc)}"
  rm -rf .bundle
  mkdir -p .bundle/lib .bundle/bin
  local bins=(build/cuda/src/mdremap)
  for t in build/cuda/tests/test_*; do [[ -x $t && -f $t ]] && bins+=("$t"); done
  cp "${bins[@]}" .bundle/bin/
  # Every resolved dependency except the C runtime, libstdc++/libgcc and the CUDA driver.
  ldd "${bins[@]}" | awk '/=> \// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libnvidia[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" .bundle/lib/; done
  strip --strip-unneeded .bundle/bin/* 2>/dev/null || true
  du -sh .bundle
}

# Median of a JSON field over summary files: median FIELD FILES...
median() {
  python3 - "$@" <<'PY'
import json, statistics, sys
field, files = sys.argv[1], sys.argv[2:]
vals = []
for f in files:
    d = json.load(open(f))
    for k in field.split('.'):
        d = d[k]
    vals.append(d)
print(statistics.median(vals))
PY
}

device() {
  local what=${1:-tests,bench,large}
  export LD_LIBRARY_PATH=$repo/.bundle/lib:${LD_LIBRARY_PATH:-}
  export MDREMAP_SOURCE_DIR=$repo
  export OUT=${OUT:-$repo/out}
  mkdir -p "$OUT"
  local bin=$repo/.bundle/bin/mdremap
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv | tee "$OUT/gpu.txt"
  "$bin" info --summary "$OUT/info.json"
  if [[ ,$what, == *,tests,* ]]; then
    : >"$OUT/tests.log"
    for t in "$repo"/.bundle/bin/test_*; do
      echo "== $(basename "$t")" | tee -a "$OUT/tests.log"
      (cd "$repo" && "$t" --gtest_brief=1 2>&1 | tail -n 30 | tee -a "$OUT/tests.log") || echo "FAILED $(basename "$t")" | tee -a "$OUT/tests.log"
    done
  fi
  local runs=${RUNS:-3}
  run_case() {  # name deck args...: $runs repeats, summaries kept, medians printed
    local name=$1 deck=$2
    shift 2
    local files=()
    for r in $(seq 1 "$runs"); do
      "$bin" md "$repo/$deck" --quiet --summary "$OUT/$name.$r.json" "$@" >/dev/null
      files+=("$OUT/$name.$r.json")
    done
    printf '%-28s atoms %-8s step %.4g atom-steps/s | force-only %.4g | ms/step force %.3f neigh %.3f integ %.3f other %.3f\n' "$name" \
      "$(median atoms "${files[@]}")" "$(median atom_steps_per_s "${files[@]}")" \
      "$(median force_atom_steps_per_s "${files[@]}")" \
      "$(median time_split_ms_per_step.force "${files[@]}")" "$(median time_split_ms_per_step.neighbor "${files[@]}")" \
      "$(median time_split_ms_per_step.integrate "${files[@]}")" "$(median time_split_ms_per_step.other "${files[@]}")" |
      tee -a "$OUT/bench.txt"
  }
  if [[ ,$what, == *,bench,* ]]; then
    for prec in double mixed single; do run_case "bench-$prec" inputs/lj_bench.yaml --precision "$prec" --steps 1000; done
  fi
  if [[ ,$what, == *,large,* ]]; then
    for prec in double mixed single; do run_case "large-$prec" inputs/lj_large.yaml --precision "$prec"; done
    run_case "large-double-half" inputs/lj_large.yaml --precision double --set neighbor.list=half
    run_case "large-single-half" inputs/lj_large.yaml --precision single --set neighbor.list=half
  fi
  # Keep the transfer within 8 files: pack the per-run summaries.
  (cd "$OUT" && tar czf summaries.tgz ./*.json && rm -f ./*.json)
  cat "$OUT/bench.txt" 2>/dev/null || true
}

case $mode in
  bundle) bundle ;;
  device) device "${2:-}" ;;
  *) echo "usage: gpu-run.sh bundle|device [what]" >&2; exit 2 ;;
esac
