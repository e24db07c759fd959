#!/usr/bin/env bash
# Sharing's plan time per neighbour-list rebuild, for a before/after on a GPU:
#
#   tools/sharing-plan-bench.sh MDREMAP_BINARY [OUTDIR]     # e.g. .bundle/bin/mdremap
#   DECKS="inputs/lj_1m.yaml" STEPS=40 tools/sharing-plan-bench.sh build/openmp/src/mdremap
#
# Runs `mdremap md` with --remap sharing and with --remap gather on each deck (default: lj_1m and
# lj_large, 1M and 4M atoms), sorted and shuffled atom order, single precision, STEPS steps
# (default 100; a list build every 20), and prints one line per case:
#   plan/rebuild  RemapReport::plan_ms / plans (the strategy's own plan; plans = the run's list
#                 builds + the setup's one). Before the device planner this did not include the
#                 host copy of the list, made by the force before calling plan().
#   rebuild+      sharing's rebuild_ms_each minus the gather's: all the plan costs at a rebuild,
#                 the host copy of the list included (the gather plans nothing). Compare this
#                 number between binaries.
#   step, run     ms per MD step over the loop, and the run's wall time, for both modes.
# The summaries (JSON) stay in OUTDIR (default: a temporary directory, printed).
set -euo pipefail
bin=${1:?usage: sharing-plan-bench.sh MDREMAP_BINARY [OUTDIR]}
out=${2:-$(mktemp -d /tmp/sharing-plan-bench.XXXXXX)}
repo=$(cd "$(dirname "$0")/.." && pwd)
steps=${STEPS:-100}
decks=${DECKS:-"inputs/lj_1m.yaml inputs/lj_large.yaml"}
mkdir -p "$out"
[[ -x $bin ]] || { echo "sharing-plan-bench: $bin is not an executable" >&2; exit 2; }

run() {  # name deck mode order
  local args=(md "$repo/$2" --quiet --precision single --steps "$steps" --remap "$3"
    --set neighbor.list=full --set neighbor.layout=column --summary "$out/$1.$3.json")
  [[ $4 == shuffled ]] && args+=(--set system.shuffle=true --set neighbor.sort=none)
  "$bin" "${args[@]}" >/dev/null
}

echo "sharing plan per rebuild: $bin, $steps steps, single precision (summaries in $out)"
for deck in $decks; do
  for order in sorted shuffled; do
    name=$(basename "$deck" .yaml)-$order
    run "$name" "$deck" gather "$order"
    run "$name" "$deck" sharing "$order"
    python3 - "$name" "$out/$name.sharing.json" "$out/$name.gather.json" <<'PY'
import json, sys
name, s, g = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
plans = s["neighbors"]["builds"] + 1  # the run's builds + the setup's
step = lambda d: 1e3 * d["loop_seconds"] / max(1, d["steps"])
print(f"{name:22s} atoms {s['atoms']:8d} plans {plans:3d} splits {s['remap']['splits']:6d} | "
      f"plan/rebuild {s['remap']['plan_ms'] / plans:9.3f} ms | "
      f"rebuild+ {s['rebuild_ms_each'] - g['rebuild_ms_each']:9.3f} ms "
      f"(sharing {s['rebuild_ms_each']:8.3f}, gather {g['rebuild_ms_each']:8.3f}) | "
      f"step {step(s):7.3f} / {step(g):7.3f} ms | run {s['wall_seconds']:7.3f} / "
      f"{g['wall_seconds']:7.3f} s")
PY
  done
done
