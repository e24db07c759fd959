#!/usr/bin/env bash
# The run log and the verbosity levels: the default log.mdremap is appended to (an earlier run's
# log kept), --log FILE replaced, --log none writes none; the log holds the command line, the
# build, the resolved deck and everything printed; -v prints the deck, the default does not,
# --quiet prints the final line only; a --log over the deck or another output is refused.
set -u
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
pass=0
check() {
  local name=$1
  shift
  if "$@"; then
    pass=$((pass + 1))
  else
    echo "FAIL $name"
    fail=$((fail + 1))
  fi
}

cat >"$work/small.yaml" <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [4, 4, 4]}
run:
  steps: 20
  thermo: 10
YAML
cd "$work" || exit 1

"$bin" md small.yaml >out1 2>err1
check default-exit test $? -eq 0
check default-log-written test -s log.mdremap
check default-no-deck-printed bash -c '! grep -q "^# resolved deck" out1'
check default-says-deck grep -q '^# deck: small.yaml' out1
check default-thermo grep -Eq '^ +20 ' out1
check log-command grep -q '^# command: .*md small.yaml' log.mdremap
check log-build grep -q '^# build: {.*"version"' log.mdremap
check log-has-deck grep -q '^# resolved deck (small.yaml):' log.mdremap
check log-has-engine grep -q '^# .* neighbor list, atom order' log.mdremap
check log-has-thermo grep -Eq '^ +20 ' log.mdremap
check log-has-stats grep -q '^Loop time' log.mdremap
check log-no-control-bytes bash -c '! grep -q $'"'"'[\x01\r]'"'"' log.mdremap'

"$bin" md small.yaml --steps 10 >out2 2>err2
check appended test "$(grep -c '^# mdremap log' log.mdremap)" -eq 2
check appended-first-kept grep -q 'md small.yaml$' log.mdremap

"$bin" md small.yaml -v >out3 2>err3
check verbose-deck grep -q '^# resolved deck (small.yaml):' out3
check verbose-engine grep -q '^# .* neighbor list, atom order' out3

"$bin" md small.yaml --quiet --log none >out4 2>err4
check quiet-one-line test "$(wc -l <out4)" -eq 1
check log-none-appends-nothing test "$(grep -c '^# mdremap log' log.mdremap)" -eq 3

echo old >named.log
"$bin" md small.yaml --log named.log >out5 2>err5
check named-replaced bash -c '! grep -q "^old" named.log'
check named-holds-run grep -q '^Loop time' named.log
check named-default-untouched test "$(grep -c '^# mdremap log' log.mdremap)" -eq 3

# An error is in the log too (stderr is copied).
"$bin" md small.yaml --set run.steps=-1 --log err.log >out6 2>err6
check error-exit test $? -eq 2
"$bin" md small.yaml --log small.yaml >out7 2>err7
check log-over-deck-refused test $? -eq 2
check log-over-deck-one-line test "$(wc -l <err7)" -eq 1
check deck-intact grep -q 'steps: 20' small.yaml
"$bin" md small.yaml --summary s.json --log s.json >out8 2>err8
check log-over-summary-refused test $? -eq 2
"$bin" md small.yaml -q -v >out9 2>err9
check quiet-verbose-refused test $? -eq 2
"$bin" cg "$src/inputs/cg_laplace2d.yaml" --set "matrix.dims=[16, 16]" --log cg.log >out10 2>err10
check cg-log grep -q '^# command: .* cg ' cg.log

# A log that cannot be written is refused before the run (a full disk).
if [[ -w /dev/full ]]; then
  "$bin" md small.yaml --log /dev/full >out11 2>err11
  check full-log-exit-2 test $? -eq 2
  check full-log-one-line test "$(wc -l <err11)" -eq 1
  check full-log-says-so grep -q "^mdremap: error: --log: cannot write the log file /dev/full" err11
fi

echo "test_log: $pass passed, $fail failed"
((fail == 0))
