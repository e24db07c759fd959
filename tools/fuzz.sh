#!/usr/bin/env bash
# Fuzzes every reader registered in tests/fuzz/CMakeLists.txt for SECONDS each: builds the `fuzz`
# preset (clang-14: libFuzzer + AddressSanitizer + UndefinedBehaviorSanitizer), runs each harness
# over its corpus kept in the repository (tests/fuzz/corpus/NAME) and its seed inputs, and reports
# executions and findings (crashes, sanitizer reports, timeouts, OOMs). Exit 1 if any harness found
# something; the reproducers are under build/fuzz/findings/NAME/.
#
#   tools/fuzz.sh [--merge] [SECONDS] [NAME ...]    # defaults: 60 s, every harness
#
# --merge adds the inputs a run found that cover new code to tests/fuzz/corpus/NAME (commit them).
set -euo pipefail
cd "$(dirname "$0")/.."
merge=0
if [[ ${1:-} == --merge ]]; then
  merge=1
  shift
fi
seconds=${1:-60}
shift || true
only=("$@")

cmake --preset fuzz >/dev/null
manifest=build/fuzz/fuzzers.txt
names=()
while read -r name _; do
  if ((${#only[@]} == 0)) || [[ " ${only[*]} " == *" $name "* ]]; then names+=("$name"); fi
done <"$manifest"
((${#names[@]})) || { echo "fuzz: no harness matches '${only[*]}'" >&2; exit 2; }
targets=()
for n in "${names[@]}"; do targets+=("fuzz_$n"); done
cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]}"

total_execs=0
total_findings=0
report=()
for n in "${names[@]}"; do
  read -r _ bin corpus seeds < <(grep "^$n " "$manifest")
  work=build/fuzz/work/$n
  findings=build/fuzz/findings/$n
  rm -rf "$work" "$findings"
  mkdir -p "$work/new" "$work/seeds" "$findings" "$corpus"
  # Seed files are copied into one directory; seed directories are read as they are.
  dirs=("$corpus" "$work/seeds")
  if [[ $seeds != - ]]; then
    IFS=, read -ra seed_list <<<"$seeds"
    for s in "${seed_list[@]}"; do
      if [[ -d $s ]]; then dirs+=("$s"); elif [[ -f $s ]]; then cp "$s" "$work/seeds/"; fi
    done
  fi
  log=$work/fuzz.log
  set +e
  # New inputs go to work/new (the first directory); the others are read-only seeds.
  "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$work/new" "${dirs[@]}" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
  execs=${execs:-0}
  found=$(find "$findings" -type f | wc -l)
  if ((rc != 0 && found == 0)); then found=1; fi  # died without an artifact: still a finding
  total_execs=$((total_execs + execs))
  total_findings=$((total_findings + found))
  report+=("fuzz $n: $execs executions in ${seconds} s, $found finding(s), corpus $(find "$corpus" -type f | wc -l) kept + $(find "$work/new" -type f | wc -l) new")
  if ((found > 0)); then
    echo "fuzz $n: FOUND (exit $rc); reproducers in $findings; log tail:" >&2
    tail -40 "$log" >&2
  fi
  if ((merge)); then
    "$bin" -merge=1 "$corpus" "$work/new" >"$work/merge.log" 2>&1 || true
  fi
  rm -f /tmp/mdremap-fuzz-checkpoint-*.h5
done
printf '%s\n' "${report[@]}"
echo "fuzz total: $total_execs executions, $total_findings finding(s)"
((total_findings == 0))
