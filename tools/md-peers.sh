#!/usr/bin/env bash
# The bench deck at several sizes, plain and cluster-pair lists, double and single, against
# ExaMiniMD in the same rounds. On the GPU machine, after tools/unbundle.sh:
#
#   tools/md-peers.sh OUTDIR MDREMAP [NAME=BINARY ...]
#
# Each round runs, size by size, every (precision, list) of MDREMAP, then each extra NAME=BINARY
# (an earlier build of this repository, the A/B of a change: the lists in EXTRA_LISTS, default
# cluster), then
# ExaMiniMD (double, full list, the README's command line in ../shared/peers/examinimd) when
# EXAMINIMD names its binary. ROUNDS rounds (default 2); the order inside a round is the same,
# so every configuration sees the same machine state across rounds. Medians per configuration and
# the ratios (cluster / full, mdremap / ExaMiniMD) go to OUTDIR/md-peers.txt, every run's
# atom-steps/s to md-peers.csv, mdremap's summaries to md-peers-summaries.tgz.
#
# SIZES: fcc cells per edge (20 = 32,000 atoms, 40 = 256,000, 80 = 2,048,000, 100 = 4,000,000,
# 160 = 16,384,000); steps per size are chosen so each run's loop lasts about a second or less.
# LISTS (default "full cluster"; cluster-newton: the cluster list with each pair once; full16: the
# full list read through the gather's 16-bit index, remap.index_bits=16; full-lN: the full list
# with each atom on N lanes, remap.lanes=N, where "full" takes remap.lanes' default; full-ro,
# full-tex, full-split: the full list read through the gather path readonly, texture or split,
# where "full" takes remap.gather_path's default; full-hilbert, full-morton: the atoms in that
# curve's order, neighbor.sort, where "full" takes the default, list-cell order on a GPU),
# PRECISIONS (default "double single"), CLUSTER_SIZE (0: the device's default). CUTOFF: the pair
# cut-off in sigma instead of the deck's 2.5 (mdremap only: ExaMiniMD's runs keep the bench
# deck); STEPS: steps of every run instead of the per-size choice.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: md-peers.sh OUTDIR MDREMAP [NAME=BINARY ...]}
ours=${2:?usage: md-peers.sh OUTDIR MDREMAP [NAME=BINARY ...]}
shift 2
[[ -x $ours ]] || { echo "md-peers: $ours is not an executable" >&2; exit 2; }
extra_names=() extra_bins=()
for nb in "$@"; do
  [[ -x ${nb#*=} ]] || { echo "md-peers: ${nb#*=} is not an executable" >&2; exit 2; }
  extra_names+=("${nb%%=*}")
  extra_bins+=("${nb#*=}")
done
exa=${EXAMINIMD:-}
[[ -z $exa || -x $exa ]] || { echo "md-peers: EXAMINIMD=$exa is not an executable" >&2; exit 2; }
[[ -n $exa && -n ${CUTOFF:-} ]] && { echo "md-peers: CUTOFF changes mdremap's deck only; run ExaMiniMD without it" >&2; exit 2; }
rounds=${ROUNDS:-2}
read -r -a sizes <<<"${SIZES:-20 40 80 100 160}"
read -r -a lists <<<"${LISTS:-full cluster}"
read -r -a precs <<<"${PRECISIONS:-double single}"
read -r -a extra_lists <<<"${EXTRA_LISTS:-cluster}"
source "$repo/tools/lj-deck.sh"
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
csv=$out/md-peers.csv
echo "round,cells,atoms,binary,precision,list,atom_steps_per_s,force_ms,neighbor_ms,integrate_ms" >"$csv"

steps_for() {  # cells -> steps
  [[ -n ${STEPS:-} ]] && { echo "$STEPS"; return; }
  case $1 in
    20 | 25 | 32) echo 2000 ;;
    40) echo 1000 ;;
    80) echo 300 ;;
    100) echo 200 ;;
    *) echo 100 ;;
  esac
}

# mdremap: binary name precision list cells round
run_ours() {
  local bin=$1 name=$2 prec=$3 list=$4 cells=$5 r=$6 steps
  steps=$(steps_for "$cells")
  local f=$work/$name-$prec-$list-$cells.$r.json
  # A tag is a list kind (its first word; full16: full) and at most one option (LISTS above).
  local kind=${list%%-*} opt=""
  case $list in
    cluster-newton) opt=neighbor.cluster_newton=true ;;
    full16) kind=full opt=remap.index_bits=16 ;;
    full-l*) opt=remap.lanes=${list#full-l} ;;
    full-tex) opt=remap.gather_path=texture ;;
    full-ro) opt=remap.gather_path=readonly ;;
    full-split) opt=remap.gather_path=split ;;
    *-hilbert) opt=neighbor.sort=hilbert ;;
    *-morton) opt=neighbor.sort=morton ;;
    *) kind=$list ;;  # a plain kind; an unknown tag reaches mdremap, which refuses it
  esac
  local args=(--set "system.lattice.cells=[$cells,$cells,$cells]" --set "neighbor.list=$kind")
  [[ -n $opt ]] && args+=(--set "$opt")
  [[ $list == cluster* && ${CLUSTER_SIZE:-0} != 0 ]] && args+=(--set "neighbor.cluster_size=$CLUSTER_SIZE")
  [[ -n ${CUTOFF:-} ]] && args+=(--set "potential.cutoff=$CUTOFF")
  if ! "$bin" md "$repo/inputs/lj_bench.yaml" --steps "$steps" --precision "$prec" "${args[@]}" \
    --quiet --summary "$f" >"$work/log" 2>&1; then
    echo "md-peers: $name $prec $list $cells failed:" >&2
    tail -3 "$work/log" >&2
    echo "$r,$cells,,$name,$prec,$list,nan,,," >>"$csv"
    return
  fi
  python3 - "$f" "$r" "$cells" "$name" "$prec" "$list" >>"$csv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
s = d["time_split_ms_per_step"]
r, cells, name, prec, lst = sys.argv[2:]
print(f"{r},{cells},{d['atoms']},{name},{prec},{lst},{d['atom_steps_per_s']:.6g},"
      f"{s['force']:.4f},{s['neighbor']:.4f},{s['integrate']:.4f}")
PY
}

run_exa() {  # cells round
  local cells=$1 r=$2 steps
  steps=$(steps_for "$cells")
  {
    lj_deck "$cells"
    printf '%s\n' "newton off" "fix 1 all nve" "thermo 100" "run $steps"
  } >"$work/in.lj"
  local line
  line=$(cd "$work" && "$exa" -il in.lj --comm-type SERIAL --neigh-type 2D \
    --force-iteration NEIGH_FULL 2>&1 | grep 'PERFORMANCE$' || true)
  if [[ -z $line ]]; then
    echo "md-peers: ExaMiniMD at $cells cells gave no PERFORMANCE line" >&2
    echo "$r,$cells,,examinimd,double,full,nan,,," >>"$csv"
    return
  fi
  # ranks atoms | time force neigh comm [int] other | steps/s atom-steps/s per-rank PERFORMANCE
  awk -v r="$r" -v c="$cells" -v s="$steps" '{
      n = split($0, f, " "); bar = 0
      for (k = 1; k <= n; ++k) if (f[k] == "|") { bar = k; break }
      printf "%s,%s,%s,examinimd,double,full,%s,%.4f,%.4f,\n", r, c, f[2], f[n - 2],
        1e3 * f[bar + 2] / s, 1e3 * f[bar + 3] / s }' <<<"$line" >>"$csv"
}

for r in $(seq 1 "$rounds"); do
  for cells in "${sizes[@]}"; do
    for prec in "${precs[@]}"; do
      for list in "${lists[@]}"; do
        run_ours "$ours" mdremap "$prec" "$list" "$cells" "$r"
      done
      for k in "${!extra_bins[@]}"; do
        for list in "${extra_lists[@]}"; do
          run_ours "${extra_bins[$k]}" "${extra_names[$k]}" "$prec" "$list" "$cells" "$r"
        done
      done
    done
    [[ -n $exa ]] && run_exa "$cells" "$r"
    echo "md-peers: round $r, $cells cells done ($(date +%T))" >&2
  done
done

python3 - "$csv" <<'PY' | tee "$out/md-peers.txt"
import csv, statistics, sys
from collections import defaultdict
runs = defaultdict(list)
split = defaultdict(list)
atoms = {}
for row in csv.DictReader(open(sys.argv[1])):
    key = (int(row["cells"]), row["binary"], row["precision"], row["list"])
    runs[key].append(float(row["atom_steps_per_s"]))
    if row["force_ms"]:
        split[key].append((float(row["force_ms"]), float(row["neighbor_ms"])))
    if row["atoms"]:
        atoms[int(row["cells"])] = int(row["atoms"])
med = {k: statistics.median(v) for k, v in runs.items()}
print("cells atoms binary precision list | median atom-steps/s (rounds) | force, neighbour ms/step "
      "| vs full list | vs ExaMiniMD double")
for k in sorted(med, key=lambda k: (k[0], k[1] != "mdremap", k[1], k[2], k[3])):
    cells, name, prec, lst = k
    f = statistics.median(s[0] for s in split[k]) if split[k] else float("nan")
    n = statistics.median(s[1] for s in split[k]) if split[k] else float("nan")
    full = med.get((cells, "mdremap", prec, "full"))
    exa = med.get((cells, "examinimd", "double", "full"))
    vs_full = f"{med[k] / full:.3f}" if full and name != "examinimd" else "-"
    vs_exa = f"{med[k] / exa:.3f}" if exa and name != "examinimd" else "-"
    rounds = " ".join(f"{v:.4g}" for v in runs[k])
    print(f"{cells} {atoms.get(cells, '?')} {name} {prec} {lst} | {med[k]:.4g} ({rounds}) | "
          f"{f:.3f}, {n:.3f} | {vs_full} | {vs_exa}")
PY
(cd "$work" && tar czf "$out/md-peers-summaries.tgz" ./*.json 2>/dev/null) || true
