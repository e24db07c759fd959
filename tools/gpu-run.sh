#!/usr/bin/env bash
# GPU runs in two halves, one script:
#
#   tools/gpu-run.sh bundle          # here: build the cuda preset, bundle it into .bundle/
#   tools/gpu-run.sh device [what]   # on the lent GPU machine (one `device` call, carrying
#                                    # .bundle): gpu tests + benchmarks, results under $OUT
#
# `what` is a comma list of: tests, bench, large, before-after, probe, ncu, ncu-build, ncu-force,
# remap, remap-short, sharing-plan, remap-ncu, output, cg, sass (default: tests,bench,large);
# TEST_BINS=test_md narrows the tests.
# remap: `mdremap compare` at 1M and 4M atoms, sorted and shuffled, whole runs of REMAP_STEPS
# (default 100) steps in REMAP_ROUNDS (3) interleaved rounds (CSV); remap-short: the same cells in
# one round of 100 steps (what auto picks when the run is short).
# before-after: the 4M-atom deck with the binary of BEFORE_COMMIT (bundled as mdremap-before by
# `gpu-run.sh bundle` when build/cuda-before holds it) and this one, interleaved rounds.
# sharing-plan: sharing's plan time per rebuild at 1M and 4M atoms (before and after).
# output: lj_1m (1M atoms) for 1000 steps without and with one H5MD frame per 100 steps.
# cg: tools/cg-bench.sh (every CG SpMV variant, cuSPARSE and CuPy on the Table 7 stand-ins and
# the large case; cg.txt, cg.csv, cg-summaries.tgz).
# The device machine (Ubuntu, CUDA driver) has no yaml-cpp, fmt, VTK or Debian's HDF5 names, so
# the bundle carries every shared library that is not part of the C runtime or the driver.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"
mode=${1:?usage: gpu-run.sh bundle|device [what]}

bundle() {
  "$here/build-kokkos.sh" cuda
  # BUNDLE_MPI=1: the MPI build (MDREMAP_MPI=ON, linked against Debian's Open MPI 4.1, whose
  # libmpi.so.40 the device's Open MPI 4.1 provides at run time: not bundled), and beside it the
  # same source built without MPI as mdremap-nompi (only comm/runtime.cpp differs).
  # BUNDLE_MPI=only: the MPI build alone (it runs single-process jobs as well).
  local mpi=OFF
  rm -f build/cuda/mdremap-nompi
  [[ ${BUNDLE_MPI:-0} == only ]] && mpi=ON
  if [[ ${BUNDLE_MPI:-0} == 1 ]]; then
    cmake --preset cuda -DMDREMAP_MPI=OFF >/dev/null
    cmake --build --preset cuda -j "${JOBS:-$(nproc)}" --target mdremap
    cp build/cuda/src/mdremap build/cuda/mdremap-nompi
    mpi=ON
  fi
  cmake --preset cuda -DMDREMAP_MPI=$mpi >/dev/null
  # BUNDLE_TARGETS="mdremap test_cg_solver ...": build (and bundle) only those targets.
  local targets=()
  [[ -n ${BUNDLE_TARGETS:-} ]] && read -r -a targets <<<"--target $BUNDLE_TARGETS"
  cmake --build --preset cuda -j "${JOBS:-$(nproc)}" "${targets[@]}"
  rm -rf .bundle
  mkdir -p .bundle/lib .bundle/bin
  local bins=(build/cuda/src/mdremap)
  [[ -x build/cuda/mdremap-nompi ]] && bins+=(build/cuda/mdremap-nompi)
  # The binary of BEFORE_COMMIT, built separately (see before-after).
  [[ -x build/cuda-before/src/mdremap ]] && cp build/cuda-before/src/mdremap build/cuda/mdremap-before &&
    bins+=(build/cuda/mdremap-before)
  # Earlier builds to compare with (tools/ab-bench.sh), copied there by hand: build/cuda-ab/mdremap-*.
  for b in build/cuda-ab/mdremap-*; do [[ -x $b ]] && bins+=("$b"); done
  for t in build/cuda/tests/test_*; do [[ -x $t && -f $t ]] && bins+=("$t"); done
  cp "${bins[@]}" .bundle/bin/
  # Every resolved dependency except the C runtime, libstdc++/libgcc, the CUDA driver and Open
  # MPI's own libraries (the device's mpirun must find its own).
  ldd "${bins[@]}" | awk '/=> \// {print $3}' | sort -u |
    grep -Ev '/(libc|libm|libdl|librt|libpthread|libresolv|ld-linux[^/]*|libstdc\+\+|libgcc_s|libcuda|libnvidia[^/]*|libcusparse|libnvJitLink|libmpi[^/]*|libopen-(rte|pal)|libhwloc|libevent[^/]*)\.so' |
    while read -r lib; do cp -L "$lib" .bundle/lib/; done
  # The kernel timer (a Kokkos Tools library, tools/kp-kernel-timer.cpp): which kernel differs.
  local cuda_home
  cuda_home=$(dirname "$(dirname "$(command -v nvcc)")")
  g++ -O2 -shared -fPIC -I"$cuda_home/include" tools/kp-kernel-timer.cpp -o .bundle/lib/libkp-kernel-timer.so \
    -L"$cuda_home/lib64" -lcudart_static -ldl -lrt -lpthread
  strip --strip-unneeded .bundle/bin/* 2>/dev/null || true
  # The device call carries at most 64 MiB: travel compressed (about 5x smaller).
  mkdir -p .carry
  tar -C .bundle -cf - bin lib | xz -T"${JOBS:-2}" -6 >.carry/bundle.tar.xz
  du -sh .bundle .carry/bundle.tar.xz
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
  source "$here/unbundle.sh" && unbundle "$repo"
  export MDREMAP_SOURCE_DIR=$repo
  export OUT=${OUT:-$repo/out}
  mkdir -p "$OUT"
  local bin=$repo/.bundle/bin/mdremap
  local old=$repo/.bundle/bin/mdremap-before
  [[ -x $old ]] || old=""
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv | tee "$OUT/gpu.txt"
  "$bin" info --summary "$OUT/info.json"
  if [[ ,$what, == *,tests,* ]]; then
    : >"$OUT/tests.log"
    # Each binary whole (one Kokkos start each); a binary that crashes or fails is run again one
    # process per test, so the failure names its test and the others still run.
    for t in "$repo"/.bundle/bin/${TEST_BINS:-test_*}; do
      local tb
      tb=$(basename "$t")
      if (cd "$repo" && "$t" >"$OUT/one.log" 2>&1); then
        local np ns
        np=$(grep -c '^\[       OK \]' "$OUT/one.log" || true)
        ns=$(grep -c '^\[  SKIPPED \] [[:alnum:]_/]*\.[[:alnum:]_/]* (' "$OUT/one.log" || true)
        echo "PASS $tb: $np passed, $ns skipped" | tee -a "$OUT/tests.log"
        grep '^\[  SKIPPED \] [[:alnum:]_/]*\.[[:alnum:]_/]* (' "$OUT/one.log" | sed "s/^/SKIP $tb /" |
          tee -a "$OUT/tests.log" || true
        continue
      fi
      for name in $("$t" --gtest_list_tests | awk '/^[^ ]/ {suite=$1} /^  / {print suite $1}'); do
        if (cd "$repo" && timeout 600 "$t" --gtest_filter="$name" >"$OUT/one.log" 2>&1); then
          if grep -q '^\[  SKIPPED \]' "$OUT/one.log"; then  # a skip is not a pass
            echo "SKIP $tb $name" | tee -a "$OUT/tests.log"
          else
            echo "PASS $tb $name" | tee -a "$OUT/tests.log"
          fi
        else
          echo "FAIL $tb $name" | tee -a "$OUT/tests.log"
          tail -n 20 "$OUT/one.log" | tee -a "$OUT/tests.log"
        fi
      done
    done
    # The GPU's shell tests (the mdremap binary itself on the device).
    for s in tests/cli/test_device.sh; do
      if bash "$repo/$s" "$bin" "$repo" >"$OUT/one.log" 2>&1; then
        echo "PASS $(basename "$s"): $(grep -c '^ok' "$OUT/one.log") checks" | tee -a "$OUT/tests.log"
      else
        echo "FAIL $(basename "$s")" | tee -a "$OUT/tests.log"
        cat "$OUT/one.log" | tee -a "$OUT/tests.log"
      fi
    done
    rm -f "$OUT/one.log"
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
    printf '%-28s atoms %-8s step %.4g atom-steps/s | force-only %.4g | ms/step force %.3f neigh %.3f integ %.3f other %.3f | rebuild %.3f ms\n' "$name" \
      "$(median atoms "${files[@]}")" "$(median atom_steps_per_s "${files[@]}")" \
      "$(median force_atom_steps_per_s "${files[@]}")" \
      "$(median time_split_ms_per_step.force "${files[@]}")" "$(median time_split_ms_per_step.neighbor "${files[@]}")" \
      "$(median time_split_ms_per_step.integrate "${files[@]}")" "$(median time_split_ms_per_step.other "${files[@]}")" \
      "$(median rebuild_ms_each "${files[@]}")" |
      tee -a "$OUT/bench.txt"
  }
  if [[ ,$what, == *,bench,* ]]; then
    for prec in double mixed single; do run_case "bench-$prec" inputs/lj_bench.yaml --precision "$prec" --steps 1000; done
  fi
  if [[ ,$what, == *,probe,* ]]; then  # neighbour-build cost: cell size, atom order, no rebuilds
    for b in 2.8 1.4; do run_case "probe-single-bin$b" inputs/lj_large.yaml --precision single --set neighbor.bin_size=$b; done
    for prec in double single; do run_case "probe-$prec-sortcells" inputs/lj_large.yaml --precision $prec --set neighbor.sort=cells; done
    run_case "probe-single-norebuild" inputs/lj_large.yaml --precision single --set neighbor.every=100000
    for f in "$OUT"/probe-*.1.json; do echo "$(basename "$f") rebuild_ms_each $(median rebuild_ms_each "$f")"; done | tee -a "$OUT/bench.txt"
  fi
  if [[ ,$what, == *,ncu,* ]] && command -v ncu >/dev/null; then
    # Kernel durations of setup + one rebuild (20 steps) at 4M atoms, single precision.
    ncu --clock-control none --metrics gpu__time_duration.sum --csv --kernel-name-base demangled \
      --print-kernel-base demangled --launch-count 400 \
      "$bin" md "$repo/inputs/lj_large.yaml" --precision single --steps 20 --quiet >"$OUT/ncu_kernels.csv" 2>"$OUT/ncu.err" || true
    python3 - "$OUT/ncu_kernels.csv" <<'PY' | tee -a "$OUT/bench.txt"
import csv, re, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    print("ncu: no rows"); sys.exit()
h = rows[0]; ki = h.index("Kernel Name"); vi = h.index("Metric Value"); ui = h.index("Metric Unit")
scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0}
tot = collections.defaultdict(float); cnt = collections.Counter()
for r in rows[1:]:
    k = r[ki]
    # Kokkos wraps functors (constant/local-memory launches): name the innermost mdremap class,
    # function or lambda it carries.
    m = re.findall(r"(?:neighbor|md|integrators|remap)::(?:\(anonymous namespace\)::)?((?:\w+(?:<[\w ]+>)?::)*\w+)", k)
    lam = re.findall(r"lambda[^#]*#(\d+)", k)
    name = (m[0] if m else k[:50]) + ("#" + lam[-1] if lam else "")
    tot[name] += float(r[vi].replace(",", "")) * scale.get(r[ui], 1e-6); cnt[name] += 1
for k, v in sorted(tot.items(), key=lambda kv: -kv[1])[:25]:
    print(f"ncu {k:42s} calls {cnt[k]:4d} total {v:9.3f} ms  mean {v/cnt[k]:8.4f} ms")
PY
  fi
  # One kernel in detail (Nsight's full set) on the 4M-atom deck in single precision:
  # ncu_detail NAME KERNEL-REGEX SKIP STEPS; the summary lines go to bench.txt.
  ncu_detail() {
    ncu --clock-control none --set full --kernel-name-base demangled -k "regex:$2" --launch-skip "$3" \
      --launch-count 1 "$bin" md "$repo/inputs/lj_large.yaml" --precision single --steps "$4" --quiet \
      >"$OUT/ncu-$1.txt" 2>&1 || true
    grep -E "Duration|Throughput|Ipc|Active Threads|Registers|Occupancy|Block Limit|Warp Cycles|Hit Rate|Block Size|Grid Size|Shared Memory Configuration|Dynamic Shared" \
      "$OUT/ncu-$1.txt" | head -60 | tee -a "$OUT/bench.txt" || true
  }
  if [[ ,$what, == *,ncu-build,* ]] && command -v ncu >/dev/null; then
    ncu_detail build 'CandidateLaneBuild|build_cells' 0 0  # the setup's list build
  fi
  if [[ ,$what, == *,ncu-force,* ]] && command -v ncu >/dev/null; then
    ncu_detail force LJFullKernel 1 2  # the first step's force kernel
  fi
  if [[ ,$what, == *,large,* ]]; then
    for prec in double mixed single; do run_case "large-$prec" inputs/lj_large.yaml --precision "$prec"; done
    run_case "large-double-half" inputs/lj_large.yaml --precision double --set neighbor.list=half
    run_case "large-single-half" inputs/lj_large.yaml --precision single --set neighbor.list=half
  fi
  if [[ ,$what, == *,before-after,* && -n $old ]]; then
    # The gather through the strategy must lose no speed. Interleaved: before, after, ...
    for prec in double mixed single; do
      local fb=() fa=()
      for r in $(seq 1 "$runs"); do
        "$old" md "$repo/inputs/lj_large.yaml" --precision "$prec" --quiet --summary "$OUT/ba-before-$prec.$r.json" >/dev/null
        "$bin" md "$repo/inputs/lj_large.yaml" --precision "$prec" --quiet --summary "$OUT/ba-after-$prec.$r.json" >/dev/null
        fb+=("$OUT/ba-before-$prec.$r.json"); fa+=("$OUT/ba-after-$prec.$r.json")
      done
      printf 'before-after 4M %-7s before %.4g after %.4g atom-steps/s (ratio %.3f) | force-only %.4g -> %.4g\n' "$prec" \
        "$(median atom_steps_per_s "${fb[@]}")" "$(median atom_steps_per_s "${fa[@]}")" \
        "$(python3 -c "print($(median atom_steps_per_s "${fa[@]}")/$(median atom_steps_per_s "${fb[@]}"))")" \
        "$(median force_atom_steps_per_s "${fb[@]}")" "$(median force_atom_steps_per_s "${fa[@]}")" | tee -a "$OUT/bench.txt"
    done
  fi
  if [[ ,$what, == *,sharing-plan,* ]]; then
    # Sharing's plan per rebuild = its rebuild time minus the gather's (the plan runs inside the
    # timed rebuild), 100 steps = 6 list builds; before and after where bundled.
    local b
    for deck in lj_1m lj_large; do
      for b in "$bin" ${old:+"$old"}; do
        local tag=after; [[ $b == "$old" ]] && tag=before
        for m in gather sharing; do
          "$b" md "$repo/inputs/$deck.yaml" --precision single --steps 100 --remap "$m" --quiet --summary "$OUT/sp-$tag-$deck-$m.json" >/dev/null || echo "failed: $tag $deck $m"
        done
        python3 - "$OUT/sp-$tag-$deck-gather.json" "$OUT/sp-$tag-$deck-sharing.json" "$tag" "$deck" <<'PY' | tee -a "$OUT/bench.txt"
import json, sys
g, s = (json.load(open(f)) for f in sys.argv[1:3])
plan = s["rebuild_ms_each"] - g["rebuild_ms_each"]
own = s.get("remap", {}).get("plan_ms")
print(f"sharing-plan {sys.argv[4]} {sys.argv[3]:6s}: plan per rebuild {plan:.1f} ms (rebuild {s['rebuild_ms_each']:.1f} vs gather {g['rebuild_ms_each']:.1f})"
      + (f", strategy plan_ms total {own:.1f}" if own is not None else "")
      + f"; step {1e3 * s['loop_seconds'] / s['steps']:.3f} ms vs gather {1e3 * g['loop_seconds'] / g['steps']:.3f} ms")
PY
      done
    done
  fi
  if [[ ,$what, == *,sass,* ]] && command -v cuobjdump >/dev/null; then
    # Does the readonly path emit read-only loads (LDG.E...CONSTANT) in the force kernels, double
    # (32-byte records) and single? Counts per kernel, raw SASS of the two kept.
    cuobjdump -sass "$bin" >"$OUT/sass-all.txt" 2>&1 || true
    python3 - "$OUT/sass-all.txt" "$OUT/sass-readonly.txt" <<'PY' | tee -a "$OUT/bench.txt"
import re, subprocess, sys
text = open(sys.argv[1]).read()
funcs = re.split(r"\n\s*Function : ", text)
out = open(sys.argv[2], "w")
for f in funcs[1:]:
    name = f.split("\n", 1)[0].strip()
    dem = subprocess.run(["cu++filt", name], capture_output=True, text=True).stdout.strip() if name else name
    if "LJFullBody" not in dem or "RangeCompute" not in dem or "GatherAccess" not in dem or "DupDataAccess" in dem:
        continue
    path = "readonly" if "GatherPath)1" in dem else "global" if "GatherPath)0" in dem else "other"
    prec = "double" if "LJFullBody<double" in dem else "single" if "LJFullBody<float, float" in dem else "mixed"
    ldg = re.findall(r"\bLDG\.E[.\w]*", f)
    const = [l for l in ldg if "CONSTANT" in l]
    print(f"sass {prec:6s} path {path:8s}: {len(ldg)} global loads, {len(const)} read-only ({sorted(set(const))}); others {sorted(set(l for l in ldg if 'CONSTANT' not in l))}")
    if path == "readonly" and prec in ("double", "single"):
        out.write(f"==== {dem}\n{f[:60000]}\n")
PY
    rm -f "$OUT/sass-all.txt"
  fi
  if [[ ,$what, == *,remap,* ]]; then  # the remap strategies side by side, float
    local cmp=("$bin" compare --precision single --steps "${REMAP_STEPS:-100}" --rounds "${REMAP_ROUNDS:-3}" --repeats 5 --quiet)
    local all=gather,dup,sharing,auto
    : >"$OUT/remap.txt"
    "${cmp[@]}" "$repo/inputs/lj_1m.yaml" --modes $all,padding --csv "$OUT/remap-1m-sorted.csv" | tee -a "$OUT/remap.txt"
    "${cmp[@]}" "$repo/inputs/lj_1m.yaml" --modes $all --shuffle --csv "$OUT/remap-1m-shuffled.csv" | tee -a "$OUT/remap.txt"
    "${cmp[@]}" "$repo/inputs/lj_large.yaml" --modes $all --csv "$OUT/remap-4m-sorted.csv" | tee -a "$OUT/remap.txt"
    "${cmp[@]}" "$repo/inputs/lj_large.yaml" --modes $all --shuffle --csv "$OUT/remap-4m-shuffled.csv" | tee -a "$OUT/remap.txt"
    (cd "$OUT" && tar czf remap.tgz remap-*.csv && rm -f remap-*.csv)
  fi
  if [[ ,$what, == *,remap-short,* ]]; then  # what auto picks for a 100-step run
    : >"$OUT/remap-short.txt"
    for deck in lj_1m lj_large; do
      for order in sorted shuffled; do
        local extra=()
        [[ $order == shuffled ]] && extra=(--shuffle)
        echo "== $deck $order, 100 steps" | tee -a "$OUT/remap-short.txt"
        "$bin" compare "$repo/inputs/$deck.yaml" --precision single --steps 100 --rounds 1 --repeats 3 \
          --quiet --modes gather,dup,sharing,auto "${extra[@]}" | tee -a "$OUT/remap-short.txt"
      done
    done
  fi
  if [[ ,$what, == *,remap-ncu,* ]]; then  # L1 sectors / requests of the force kernels, 1M atoms
    for m in gather dup sharing; do
      for order in sorted shuffled; do
        local extra=()
        [[ $order == shuffled ]] && extra=(--shuffle)
        ncu --clock-control none --launch-skip 2 --launch-count 6 --kernel-name-base demangled --print-kernel-base demangled -k 'regex:LJFullBody|LJFullKernel|DupRemapKernel|SharingTeamKernel' \
          --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum \
          --csv "$bin" md "$repo/inputs/lj_1m.yaml" --precision single --steps 8 --quiet --remap "$m" "${extra[@]}" \
          >"$OUT/ncu-$m-$order.csv" 2>&1 || echo "ncu failed for $m $order" | tee -a "$OUT/bench.txt"
      done
    done
    (cd "$OUT" && tar czf ncu.tgz ncu-*.csv && rm -f ncu-*.csv)
  fi
  if [[ ,$what, == *,output,* ]]; then
    # One H5MD frame per 100 steps must slow a 1M-atom run by less than 10%. The trajectory (about
    # 35 MB a frame) goes to /tmp: files over 16 MiB do not come back from the device, and only the
    # timings matter here.
    local traj=/tmp/mdremap-output-bench.h5md
    run_case output-none inputs/lj_1m.yaml --steps 1000
    run_case output-h5md inputs/lj_1m.yaml --steps 1000 --set output.h5md.file="$traj" \
      --set output.h5md.every=100
    ls -l "$traj" | tee -a "$OUT/bench.txt"
    rm -f "$traj"
    local none=("$OUT"/output-none.*.json) h5md=("$OUT"/output-h5md.*.json)
    python3 - "$(median atom_steps_per_s "${none[@]}")" "$(median atom_steps_per_s "${h5md[@]}")" \
      "$(median wall_seconds "${none[@]}")" "$(median wall_seconds "${h5md[@]}")" <<'PY' | tee -a "$OUT/bench.txt"
import sys
rate0, rate1, wall0, wall1 = map(float, sys.argv[1:])
print(f"output overhead (1M atoms, 1000 steps, H5MD every 100): loop {rate0:.4g} -> {rate1:.4g} "
      f"atom-steps/s, ratio {rate1 / rate0:.3f} (slowdown {100 * (rate0 / rate1 - 1):.1f}%); "
      f"wall incl. setup and last write {wall0:.3f} -> {wall1:.3f} s "
      f"(+{100 * (wall1 / wall0 - 1):.1f}%); limit 10%")
PY
  fi
  if [[ ,$what, == *,cg,* ]]; then
    "$here/cg-bench.sh" "$bin" "$OUT" | tee -a "$OUT/bench.txt"
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
