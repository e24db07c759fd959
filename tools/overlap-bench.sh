#!/usr/bin/env bash
# Sharing's plan off the critical path (remap.plan_overlap, seed 001 §4), measured on a GPU:
#
#   tools/overlap-bench.sh OUTDIR BINARY
#
# For the 1M- and 4M-atom decks (DECKS, single precision, STEPS [1000] steps): gather, sharing with the
# plan in the foreground (plan_overlap=off) and in the background (on), interleaved in RUNS [3]
# rounds; prints per case the median loop time, step ms, list builds, the plan time the run waited
# for per build, the background plan time per build, and the bridged force evaluations; and the
# relative difference of the final total energy between off and on (rounding only).
set -euo pipefail
out=${1:?usage: overlap-bench.sh OUTDIR BINARY}
bin=${2:?usage: overlap-bench.sh OUTDIR BINARY}
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
runs=${RUNS:-3}
steps=${STEPS:-1000}
for deck in ${DECKS:-lj_1m lj_large}; do
  for r in $(seq 1 "$runs"); do
    for c in gather sharing-off sharing-on; do
      mode=${c%%-*}
      ov=off
      [[ $c == sharing-on ]] && ov=on
      "$bin" md "$repo/inputs/$deck.yaml" --precision single --steps "$steps" --remap "$mode" \
        --set remap.plan_overlap=$ov --quiet --summary "$out/ov-$deck-$c.$r.json" >/dev/null
    done
  done
  python3 - "$out" "$deck" "$runs" <<'PY'
import json, statistics, sys
out, deck, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
med = statistics.median
res = {}
for c in ["gather", "sharing-off", "sharing-on"]:
    ds = [json.load(open(f"{out}/ov-{deck}-{c}.{r}.json")) for r in range(1, runs + 1)]
    rm = [d["remap"] for d in ds]
    builds = ds[0]["neighbors"]["builds"]
    plans = max(1, rm[0].get("plans", 1))
    loop = med(d["loop_seconds"] for d in ds)
    res[c] = ds
    print(f"overlap {deck:8s} {c:12s} loop {loop:7.3f} s (rounds {' '.join('%.3f' % d['loop_seconds'] for d in ds)}), "
          f"step {1e3 * loop / ds[0]['steps']:.3f} ms, {builds} builds, "
          f"plan waited {med(x['plan_ms'] for x in rm) / plans:.2f} ms/plan, "
          f"background {med(x.get('overlapped_plan_ms', 0) for x in rm) / plans:.2f} ms/plan, "
          f"bridged {rm[0].get('bridged_executions', 0)} of {rm[0].get('executions', 0)}")
off = med(d["loop_seconds"] for d in res["sharing-off"])
on = med(d["loop_seconds"] for d in res["sharing-on"])
e_off = res["sharing-off"][0]["final_thermo"]["etotal"]
e_on = res["sharing-on"][0]["final_thermo"]["etotal"]
print(f"overlap {deck:8s} sharing loop on/off {on / off:.3f}; etotal off {e_off!r} on {e_on!r} "
      f"(rel. diff {abs(e_on - e_off) / abs(e_off):.2e})")
PY
done | tee -a "$out/overlap.txt"
