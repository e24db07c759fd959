#!/usr/bin/env bash
# The hardening review's findings, replayed: for each numbered finding, the hostile input a user
# tried, the command, what mdremap printed and its exit code, and the state of the files afterwards.
#
#   tools/hardening-demo.sh [BINARY]     # default build/openmp/src/mdremap
#
# Everything happens in a scratch directory (shown as $W). The checks themselves are in
# tests/cli/test_cli.sh (f1-* ... f8-*); this script is the readable record of them.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${1:-$repo/build/openmp/src/mdremap}")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
cd "$W"
cat >ok.yaml <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
run: {steps: 20, thermo: 10}
YAML
# show CMD...: the command as typed, its output (stdout then stderr, first lines) and exit code.
show() {
  echo "\$ mdremap ${*}"
  "$bin" "$@" >out.txt 2>err.txt
  local rc=$?
  head -3 out.txt | sed 's/^/  /'
  head -3 err.txt | sed 's/^/  /'
  echo "  [exit $rc]"
}
state() { echo "  -> $*"; }
sum() { md5sum "$1" | cut -c1-12; }

echo "== Finding 1: a second run given the same H5MD path must not destroy the first run's file"
"$bin" md ok.yaml -q --steps 20000 --set run.thermo=0 --set output.h5md.every=500 \
  --set output.h5md.file=shared.h5 >run1.out 2>&1 &
run1=$!
for _ in $(seq 1 600); do [[ -s shared.h5.partial ]] && break; sleep 0.1; done
show md ok.yaml --set output.h5md.file=shared.h5
wait $run1
state "first run exit $?; shared.h5 $(head -c 4 shared.h5 | tail -c 3) file, $(stat -c %s shared.h5) bytes; shared.h5.partial left: $([[ -e shared.h5.partial ]] && echo yes || echo no)"
cp shared.h5 keep.h5
show md ok.yaml -q --set output.h5md.file=shared.h5 --set integrator.dt=0.05 --steps 200
state "a later run that blew up left shared.h5 unchanged: $(cmp -s shared.h5 keep.h5 && echo yes || echo NO)"

echo
echo "== Finding 2: outputs must not overwrite inputs or each other"
cp ok.yaml deck-copy.yaml
before=$(sum deck-copy.yaml)
show md deck-copy.yaml --thermo-csv deck-copy.yaml
ln -sf deck-copy.yaml link.yaml
show md deck-copy.yaml --summary link.yaml
show md ok.yaml --set output.h5md.file=x.h5 --set restart.file=x.h5
"$bin" md ok.yaml -q --set restart.file=ck.h5 >/dev/null 2>&1
show md ok.yaml --restart ck.h5 --set restart.file=ck.h5
state "deck unchanged: $([[ $(sum deck-copy.yaml) == "$before" ]] && echo yes || echo NO)"

echo
echo "== Finding 3: a blow-up stops, names the step, exits 1, keeps the last good checkpoint"
show md ok.yaml --steps 400 --set run.thermo=20 --set integrator.dt=0.03 --set restart.file=blow.h5 \
  --set restart.every=50 --set output.h5md.file=blow.h5md --thermo-csv blow.csv
state "blow.h5md completed: $([[ -e blow.h5md ]] && echo YES || echo no) (blow.h5md.partial kept: $([[ -e blow.h5md.partial ]] && echo yes || echo no)); NaN lines in the CSV: $(grep -ci nan blow.csv.partial)"
show md ok.yaml --restart blow.h5 --steps 10 -q
show md ok.yaml -q --set velocity.temperature=1e9

echo
echo "== Finding 4: non-finite and out-of-range numbers in decks and --set"
printf 'system:\n  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}\nneighbor:\n  skin: .nan\n' >nan.yaml
show md nan.yaml
show md ok.yaml --set potential.cutoff=.inf
show md ok.yaml --set run.steps=99999999999999999999
show md ok.yaml --set 'system.lattice.cells=[1000,1000,1000]'

echo
echo "== Finding 5: YAML edge cases"
: >empty.yaml
show md empty.yaml
mkdir -p adir
show md adir
printf 'run:\n  steps: 10\n  steps: 20\n' >dupkey.yaml
show md dupkey.yaml
printf 'run: {steps: 10}\n---\nrun: {steps: 20}\n' >multidoc.yaml
show md multidoc.yaml
show md ok.yaml --set run.steps=

echo
echo "== Finding 6: argument errors exit 2 with the flag named"
show md ok.yaml --steps -5
show md ok.yaml --steps 99999999999999999999999
show md ok.yaml --precision quad
show compare ok.yaml --csv /nonexistent-dir/x.csv
show info --summary /nonexistent-dir/i.json

echo
echo "== Finding 7: a killed checkpoint write leaves no silent leftovers"
"$bin" md ok.yaml -q --steps 10 --set restart.file=k.h5 >/dev/null 2>&1
head -c 1000 k.h5 >k.h5.partial
show md ok.yaml -q --steps 10 --restart k.h5
state "k.h5.partial left: $([[ -e k.h5.partial ]] && echo YES || echo no)"

echo
echo "== Finding 8: restarts are bit-identical whatever the thermo and trajectory intervals"
"$bin" md ok.yaml -q --set restart.every=20 --precision single --steps 40 --set run.thermo=10 \
  --set restart.file=w8.h5 --thermo-csv w8.csv >/dev/null 2>&1
"$bin" md ok.yaml -q --set restart.every=20 --precision single --steps 20 --set run.thermo=0 \
  --set restart.file=h8.h5 >/dev/null 2>&1
show md ok.yaml -q --steps 20 --precision single --restart h8.h5 --set run.thermo=7 \
  --set output.h5md.file=h8.h5md --set output.h5md.every=3 --thermo-csv r8.csv
state "step 40 in one go:      $(tail -1 w8.csv)"
state "step 40 after restart:  $(tail -1 r8.csv)"
state "identical: $([[ "$(tail -1 w8.csv)" == "$(tail -1 r8.csv)" ]] && echo yes || echo NO)"
