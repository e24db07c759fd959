#!/usr/bin/env bash
# The SP benchmark (BRIEF section 7, seed 000 Tables 5 and 8), in two halves:
#
#   tools/sp-bench.sh bundle                       # here: tools/gpu-run.sh bundle + CaDiCaL
#   tools/sp-bench.sh device [INSTANCES] [MODES]   # on the GPU machine (carrying .carry)
#
# INSTANCES: comma list of 4000 (random-16800-4000-3), 10000 (random-42000-10000-3), 1m, 10m
# (ratio 4.2; decks inputs/sp_lonestar_4000.yaml, sp_random3sat.yaml, sp_1m.yaml, sp_10m.yaml);
# default 4000,10000,1m. MODES: comma list of remap modes for calc_pi_values (default
# gather,dup,sharing,auto).
# Each `mdremap sp` run is limited to SP_LIMIT seconds [540]; CaDiCaL (Debian's cadical, carried
# as .carry/cadical: the GPU machine has no apt) runs on the same formula, written with
# --write-cnf, on the host CPU for CDCL_LIMIT seconds [300] (CDCL=0 skips it). A device call runs
# at most 10 minutes: give the 10m instance calls of its own, one mode each (`device 10m gather`,
# with CDCL=0) and CaDiCaL alone (`device 10m none`: MODES none runs no mdremap sp). ROUNDS [1]
# repeats the modes in interleaved rounds; the second table gives medians over them.
# Results: $OUT/sp/*.json, cadical logs, and $OUT/sp/sp_bench.md (one table, the device named).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"
mode=${1:?usage: sp-bench.sh bundle|device [instances] [modes]}

bundle() {
  "$here/gpu-run.sh" bundle
  if ! command -v cadical >/dev/null; then
    apt-get install -y --no-install-recommends cadical  # benchmark only (Debian 12: 1.5.3)
  fi
  # Dynamically linked against libc, libm, libstdc++ and libgcc_s only: the device image has them.
  cp -L "$(command -v cadical)" .carry/cadical
  ls -l .carry
}

deck_of() {
  case $1 in
    4000) echo inputs/sp_lonestar_4000.yaml ;;
    10000) echo inputs/sp_random3sat.yaml ;;
    1m) echo inputs/sp_1m.yaml ;;
    10m) echo inputs/sp_10m.yaml ;;
    *) echo "unknown instance '$1' (4000, 10000, 1m, 10m)" >&2 && exit 2 ;;
  esac
}

# The tables of a results folder (summaries *_rN.json, *_cadical.txt, gpu.txt, cpus.txt).
table() {
  python3 - "$1" <<'PY'
import glob, json, os, statistics, sys
d = sys.argv[1]
gpu = open(os.path.join(d, "gpu.txt")).read().strip()
cpus = open(os.path.join(d, "cpus.txt")).read().strip()
print(f"GPU: {gpu}; CDCL on the host CPU ({cpus} cores, one thread)\n")
print("| instance | solver / mode | round | outcome | sweeps | rounds | ms/sweep | calc_pi ms | solve s | wall s | fixed SP / prop / WalkSAT | plans / cache hits | 32B transactions gather data (all loads) / dup all loads |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
runs = {}  # (instance, mode) -> summaries
for f in sorted(glob.glob(os.path.join(d, "*_r*.json"))):
    inst, mode, rnd = os.path.basename(f)[:-5].rsplit("_", 2)
    j = json.load(open(f))
    runs.setdefault((inst, mode), []).append(j)
    s, fx, t, tr, rm = j["sp"], j["fixed"], j["times_s"], j["transactions"], j["remap"]
    txt = (f'{tr["gather"]["data"]["seg32"]} ({tr["gather"]["total"]["seg32"]}) / '
           f'{tr["dup"]["total"]["seg32"]}' if tr.get("computed") else "not modelled")
    print(f'| {inst} ({j["formula"]["variables"]} vars) | mdremap sp {rm["strategy"]} | {rnd[1:]} | '
          f'{j["outcome"]} | {s["iterations"]} | {s["decimation_rounds"]} | '
          f'{s["ms_per_iteration"]:.3f} | {s["calc_pi_ms_per_iteration"]:.3f} | {t["solve"]:.2f} | '
          f'{t["wall"]:.2f} | {fx["sp"]} / {fx["unit"] + fx["pure"]} / {fx["walksat"]} | '
          f'{rm["plans"]} / {rm["cache_hits"]} | {txt} |')
for f in sorted(glob.glob(os.path.join(d, "*_cadical.txt"))):
    inst = os.path.basename(f)[: -len("_cadical.txt")]
    lines = open(f).read().split("\n")
    words = lines[1].split()
    rc, secs, limit = words[1], words[3], words[5]
    out = {"10": "SATISFIABLE", "20": "UNSATISFIABLE", "124": f"timeout ({limit} s)"}.get(rc, f"exit {rc}")
    print(f"| {inst} | CaDiCaL 1.5.3 (CPU) | 1 | {out} | | | | | {secs} | {secs} | | | |")

# Medians per instance and mode, and the ratios against seed 000 Tables 5 and 8.
def med(js, f):
    return statistics.median(f(j) for j in js)
print("\n| instance | mode | runs | all SAT | median calc_pi ms | median SP s | median solve s | solve / best |")
print("|---|---|---|---|---|---|---|---|")
claims = []
for inst in sorted({i for i, _ in runs}):
    modes = {m: js for (i, m), js in runs.items() if i == inst}
    solve = {m: med(js, lambda j: j["times_s"]["solve"]) for m, js in modes.items()}
    fixed = [m for m in solve if m != "auto"]
    best = min(fixed, key=solve.get) if fixed else None
    for m, js in sorted(modes.items()):
        sat = all(j["outcome"] == "SATISFIABLE" for j in js)
        cp = med(js, lambda j: j["sp"]["calc_pi_ms_per_iteration"])
        sp = med(js, lambda j: j["times_s"]["sp"])
        rel = f"{solve[m] / solve[best]:.3f}" if best else "-"
        print(f"| {inst} | {m} | {len(js)} | {sat} | {cp:.3f} | {sp:.2f} | {solve[m]:.2f} | {rel} |")
    if "gather" in modes and "dup" in modes:
        g, u = modes["gather"], modes["dup"]
        cpr = med(g, lambda j: j["sp"]["calc_pi_ms_per_iteration"]) / med(u, lambda j: j["sp"]["calc_pi_ms_per_iteration"])
        spr = med(g, lambda j: j["times_s"]["sp"]) / med(u, lambda j: j["times_s"]["sp"])
        tr = u[0]["transactions"]
        txr = (f'{tr["gather"]["total"]["seg32"] / tr["dup"]["total"]["seg32"]:.2f}:1'
               if tr.get("computed") else "not modelled")
        claims.append(f"| {inst} | {cpr:.2f}x | {spr:.2f}x | {txr} |")
if claims:
    print("\n| instance | calc_pi gather/dup (paper 1.22x) | SP phase gather/dup (paper 1.09x) | 32B transactions gather:dup, all loads (paper 1.2:1) |")
    print("|---|---|---|---|")
    print("\n".join(claims))
PY
}

device() {
  local instances=${1:-4000,10000,1m} modes=${2:-gather,dup,sharing,auto}
  source "$here/unbundle.sh" && unbundle "$repo"
  export OUT=${OUT:-$repo/out}
  local dir=$OUT/sp bin=$repo/.bundle/bin/mdremap cad=$repo/.carry/cadical
  local scratch=${TMPDIR:-/tmp}/sp-bench.$$
  mkdir -p "$dir" "$scratch"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader >"$dir/gpu.txt"
  nproc >"$dir/cpus.txt"
  local sp_limit=${SP_LIMIT:-540} cdcl_limit=${CDCL_LIMIT:-300}
  for inst in ${instances//,/ }; do
    local deck
    deck=$(deck_of "$inst")
    local r
    for ((r = 1; r <= ${ROUNDS:-1}; ++r)); do  # rounds interleave the modes
      for m in ${modes//,/ }; do
        [[ $m == none ]] && continue
        local tag=${inst}_${m}_r$r
        echo "== $inst $m round $r"
        set +e
        # Not --quiet: the log keeps the run's progress lines, so a run stopped at SP_LIMIT
        # shows how far it got.
        timeout "$sp_limit" "$bin" sp "$repo/$deck" --remap "$m" \
          --summary "$dir/$tag.json" >"$dir/$tag.log" 2>&1
        echo "exit $?" >>"$dir/$tag.log"
        set -e
        tail -n 2 "$dir/$tag.log"
      done
    done
    if [[ ${CDCL:-1} != 0 && -x $cad ]]; then
      echo "== $inst cadical (limit ${cdcl_limit} s)"
      "$bin" sp "$repo/$deck" --write-cnf "$scratch/$inst.cnf" --quiet
      local t0 t1 rc
      t0=$(date +%s.%N)
      set +e
      timeout "$cdcl_limit" "$cad" -q "$scratch/$inst.cnf" >"$scratch/$inst.cad" 2>&1
      rc=$?
      set -e
      t1=$(date +%s.%N)
      grep -m1 '^s ' "$scratch/$inst.cad" >"$dir/${inst}_cadical.txt" || echo "s (none)" >"$dir/${inst}_cadical.txt"
      echo "exit $rc seconds $(python3 -c "print(round($t1 - $t0, 2))") limit $cdcl_limit" >>"$dir/${inst}_cadical.txt"
      cat "$dir/${inst}_cadical.txt"
      rm -f "$scratch/$inst.cnf" "$scratch/$inst.cad"
    fi
  done
  rm -rf "$scratch"
  table "$dir" | tee "$dir/sp_bench.md"
  # A device call returns a few files only: every summary and log in one archive.
  tar -czf "$OUT/sp-$(date +%H%M%S).tgz" -C "$OUT" sp
  find "$dir" -type f ! -name sp_bench.md ! -name gpu.txt -delete
}

# Every mode on a GPU of its own at once (mode k on GPU k; more modes than GPUs share them
# round-robin), CaDiCaL beside them on the host CPU: a machine of several GPUs runs the 10m
# instance's modes in the time of one. The GPUs are independent; the host's cores are shared
# (WalkSAT and CaDiCaL run there, one thread each, on a machine of 32 cores).
gpus() {
  local inst=${1:?instance} modes=${2:-gather,dup,sharing,auto} k=0
  local ngpu
  ngpu=$(nvidia-smi -L | wc -l)
  export OUT=${OUT:-$repo/out}
  source "$here/unbundle.sh" && unbundle "$repo"
  for m in ${modes//,/ }; do
    CUDA_VISIBLE_DEVICES=$((k % ngpu)) OUT=$OUT/gpu$k CDCL=0 bash "$here/sp-bench.sh" device "$inst" "$m" \
      >"$OUT/gpu$k.txt" 2>&1 &
    k=$((k + 1))
  done
  if [[ ${CDCL:-1} != 0 ]]; then
    CUDA_VISIBLE_DEVICES=$(((k - 1) % ngpu)) OUT=$OUT/cdcl bash "$here/sp-bench.sh" device "$inst" none \
      >"$OUT/cdcl.txt" 2>&1 &
  fi
  wait
  local merged=$OUT/merged
  mkdir -p "$merged"
  for t in "$OUT"/gpu*/sp-*.tgz "$OUT"/cdcl/sp-*.tgz; do [[ -f $t ]] && tar -xzf "$t" -C "$merged"; done
  cp "$OUT"/gpu0/sp/gpu.txt "$merged/sp/" 2>/dev/null
  nproc >"$merged/sp/cpus.txt"
  table "$merged/sp" | tee "$OUT/sp_bench.md"
  tar -czf "$OUT/sp-gpus-$(date +%H%M%S).tgz" -C "$merged" sp
  rm -rf "$merged" "$OUT"/cdcl
  for d in "$OUT"/gpu*/; do rm -rf "$d"; done
}

case $mode in
  bundle) bundle ;;
  device) device "${2:-}" "${3:-}" ;;
  gpus) gpus "${2:-}" "${3:-}" ;;
  table) table "${2:?results folder}" ;;
  *) echo "usage: sp-bench.sh bundle|device|gpus [instances] [modes] | table DIR" >&2 && exit 2 ;;
esac
