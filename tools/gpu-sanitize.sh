#!/usr/bin/env bash
# compute-sanitizer over the GPU test binaries of the device bundle: memcheck (out of bounds and
# misaligned accesses, leaks of device memory) and racecheck (shared-memory hazards: the sharing
# strategy's team scratch, the list builder's warp-per-cell stores).
#
#   tools/gpu-run.sh bundle                      # here: build and bundle the cuda preset
#   tools/gpu-sanitize.sh                        # on the GPU machine, carrying .carry/bundle.tar.xz
#
# Knobs (environment): TOOLS (default memcheck,racecheck), TEST_BINS (glob, default test_*),
# GTEST_FILTER (default *; racecheck slows kernels 10-100x: narrow it when time is short),
# LIMIT (seconds per binary and tool, default 240), OUT (report folder, default ./out), CLI=0
# (leave out the end-to-end `mdremap md` run, e.g. when the script is called once per binary).
# Writes $OUT/sanitize.txt (one line per binary and tool: errors, hazards, exit status) and the
# tail of each log as $OUT/sanitize-TOOL-BINARY.log; copy sanitize.txt to docs/results/.
# Exit 1 when any run reports an error or fails.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo" || exit 2
export OUT=${OUT:-$repo/out}
mkdir -p "$OUT"

if [[ -f $repo/.carry/bundle.tar.xz ]]; then
  rm -rf "$repo/.bundle" && mkdir -p "$repo/.bundle"
  python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
    "$repo/.carry/bundle.tar.xz" "$repo/.bundle"
fi
[[ -d $repo/.bundle/bin ]] || { echo "gpu-sanitize: no .bundle (run tools/gpu-run.sh bundle)" >&2; exit 2; }
export LD_LIBRARY_PATH=$repo/.bundle/lib:${LD_LIBRARY_PATH:-}
export MDREMAP_SOURCE_DIR=$repo

cs=$(command -v compute-sanitizer || true)
[[ -z $cs && -x /usr/local/cuda/bin/compute-sanitizer ]] && cs=/usr/local/cuda/bin/compute-sanitizer
[[ -n $cs ]] || { echo "gpu-sanitize: compute-sanitizer not found" >&2; exit 2; }

tools=${TOOLS:-memcheck,racecheck}
limit=${LIMIT:-240}
filter=${GTEST_FILTER:-*}
report=$OUT/sanitize.txt
{
  echo "# compute-sanitizer ($("$cs" --version | tail -1)) on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  echo "# tools $tools, gtest filter '$filter', limit ${limit} s per binary and tool"
} >"$report"
status=0
IFS=, read -ra tool_list <<<"$tools"
# shellcheck disable=SC2206  # TEST_BINS is a glob on purpose
bins=("$repo"/.bundle/bin/${TEST_BINS:-test_*})
for tool in "${tool_list[@]}"; do
  args=(--tool "$tool" --error-exitcode 99 --print-limit 20)
  [[ $tool == memcheck ]] && args+=(--leak-check full)
  [[ $tool == racecheck ]] && args+=(--racecheck-report analysis)
  cli=("$repo/.bundle/bin/mdremap")
  [[ ${CLI:-1} == 1 ]] || cli=()
  for t in "${bins[@]}" "${cli[@]}"; do
    [[ -x $t ]] || continue
    name=$(basename "$t")
    log=$OUT/sanitize-$tool-$name.full.log
    start=$(date +%s)
    if [[ $name == mdremap ]]; then  # the CLI end to end: a small deck with every output
      timeout "$limit" "$cs" "${args[@]}" "$t" md "$repo/inputs/lj_melt.yaml" --steps 40 --quiet \
        --set restart.file=/tmp/mdremap-sanitize-ck.h5 --set output.h5md.file=/tmp/mdremap-sanitize.h5 \
        --set output.h5md.every=20 >"$log" 2>&1
    else
      (cd "$repo" && timeout "$limit" "$cs" "${args[@]}" "$t" --gtest_filter="$filter") >"$log" 2>&1
    fi
    rc=$?
    secs=$(($(date +%s) - start))
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY" "$log" | tr '\n' ' ')
    tests=$(grep -Eo '\[  PASSED  \] [0-9]+ tests?' "$log" | tail -1)
    failed=$(grep -Eo '\[  FAILED  \] [0-9]+ tests?' "$log" | tail -1)
    verdict=clean
    if grep -q "terminated before first instrumented API call" "$log" && [[ -z $failed ]]; then
      verdict="host only (the binary makes no CUDA call: nothing for $tool to check)"
    elif ((rc == 124)); then
      verdict="timeout after ${limit} s (partial)"
      status=1
    elif ((rc != 0)); then
      verdict="FAILED (exit $rc)"
      status=1
    fi
    echo "$tool $name: $verdict; ${summary:-no summary line}; ${tests:-} ${failed:-}; ${secs} s" | tee -a "$report"
    tail -n 60 "$log" >"$OUT/sanitize-$tool-$name.log"
    rm -f "$log" /tmp/mdremap-sanitize-ck.h5 /tmp/mdremap-sanitize.h5
  done
done
exit $status
