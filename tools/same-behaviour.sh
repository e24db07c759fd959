#!/usr/bin/env bash
# Does a change leave behaviour as it was? Runs every case of a case list with two mdremap
# binaries and compares what must not change: exit codes, thermo CSVs byte for byte, JSON
# summaries without their timing and measured-choice keys, the first stderr line.
#
#   tools/same-behaviour.sh OLD_BIN NEW_BIN OUTDIR [CASES]   (default tools/same-behaviour-cases.txt)
#
# A case line is `name|arguments` (OUT in the arguments: the case's output prefix). Cases whose
# choices depend on timing (auto) or whose sums are reduced in a varying order (throttle's
# queue on host threads) are compared by exit code and first error line only; cases named
# *atomic* (forces summed by atomics on a GPU, in an order that varies run to run) have their
# thermo compared to a relative 1e-12. Run from the
# repository root (decks are named relative to it). Exit 0: no difference.
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2") out=$(realpath -m "$3")
cases=${4:-$(dirname "$0")/same-behaviour-cases.txt}
mkdir -p "$out/old" "$out/new"
bad=0
drop='ms|_s$|seconds|per_s|time|wall|build|command|gb|rate|gflops|bandwidth|speed|throughput|host|date|version|elapsed|overlap|profil|candidate|decision|describe|note|payback|cache_misses|invalidations|extra_bytes|choice|chose'
norm() {
  python3 - "$1" "$drop" <<'PY'
import json, re, sys
drop = re.compile(sys.argv[2], re.I)
def clean(x):
    if isinstance(x, dict):
        return {k: clean(v) for k, v in sorted(x.items()) if not drop.search(k)}
    if isinstance(x, list):
        return [clean(v) for v in x]
    return x
print(json.dumps(clean(json.load(open(sys.argv[1]))), indent=1, sort_keys=True))
PY
}
while IFS='|' read -r name args; do
  [[ -z $name || $name == \#* ]] && continue
  for side in old new; do
    bin=$old
    [[ $side == new ]] && bin=$new
    a=${args//OUT/$out/$side/$name}
    # shellcheck disable=SC2086
    timeout 900 "$bin" $a >"$out/$side/$name.stdout" 2>"$out/$side/$name.stderr" </dev/null
    echo $? >"$out/$side/$name.rc"
  done
  o=$out/old/$name n=$out/new/$name
  case $name in *auto* | *throttle*) loose=1 ;; *) loose=0 ;; esac
  msg=""
  cmp -s "$o.rc" "$n.rc" || msg+=" exit $(cat "$o.rc") -> $(cat "$n.rc");"
  [[ "$(head -n1 "$o.stderr")" == "$(head -n1 "$n.stderr")" ]] || msg+=" first stderr line;"
  if [[ $name == *atomic* && -f $o.csv ]]; then
    python3 - "$o.csv" "$n.csv" <<'PY' || msg+=" thermo csv beyond 1e-12;"
import csv, math, sys
a, b = (list(csv.reader(open(f))) for f in sys.argv[1:])
ok = len(a) == len(b) and all(len(x) == len(y) for x, y in zip(a, b))
for x, y in zip(a[1:], b[1:]):
    for u, v in zip(x, y):
        ok = ok and math.isclose(float(u), float(v), rel_tol=1e-12, abs_tol=1e-300)
sys.exit(0 if ok else 1)
PY
  elif ((!loose)); then
    [[ -f $o.csv ]] && { cmp -s "$o.csv" "$n.csv" || msg+=" thermo csv;"; }
    [[ -f $o.json ]] && { diff <(norm "$o.json") <(norm "$n.json" 2>&1) >"$n.jsondiff" || msg+=" summary ($n.jsondiff);"; }
  fi
  if [[ -n $msg ]]; then
    echo "DIFF $name:$msg"
    bad=1
  else
    echo "same $name (exit $(cat "$n.rc"))"
  fi
done <"$cases"
echo "same-behaviour: $( ((bad)) && echo 'DIFFERENCES' || echo 'no difference') (outputs under $out)"
exit $bad
