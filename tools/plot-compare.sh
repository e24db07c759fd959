#!/usr/bin/env bash
# The chart `mdremap compare --plot` draws, from a compare CSV (for runs on machines without
# gnuplot, such as the lent GPU machine): per mode, its whole run stacked into plan + profiling,
# exposed remap, compute, and the rest of the step.
#   tools/plot-compare.sh remap.csv remap.png [title]
set -euo pipefail
csv=${1:?usage: plot-compare.sh CSV PNG [title]}
png=${2:?usage: plot-compare.sh CSV PNG [title]}
title=${3:-$(basename "$csv")}
dat=$(mktemp)
trap 'rm -f "$dat"' EXIT
python3 - "$csv" >"$dat" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("label plan remap compute other")
for r in rows:
    if not r["run_ms"] or "[" in r["mode"]:
        continue
    print(f'"{r["mode"]}/{r["reorder"]}" {r["seg_plan_ms"]} {r["seg_remap_ms"]} {r["seg_compute_ms"]} {r["seg_other_ms"]}')
PY
gnuplot -e "set terminal pngcairo size 1200,600 noenhanced; set output '$png';
set title '$title'; set style data histograms; set style histogram rowstacked;
set boxwidth 0.6; set style fill solid 0.85 border -1; set ylabel 'ms over the run';
set xtics rotate by -30; set key outside right top; set grid ytics; set yrange [0:*];
plot '$dat' using 2:xtic(1) title 'plan + profiling', '' using 3 title 'remap (exposed)',
'' using 4 title 'compute', '' using 5 title 'neighbour + integrate + other'"
