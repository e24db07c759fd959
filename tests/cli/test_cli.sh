#!/usr/bin/env bash
# Command-line behaviour of `mdremap`: bad input gives exactly one clear error line on stderr
# (naming file/line or flag) and a non-zero exit; good input writes what it promises.
set -u
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
pass=0

# expect_error NAME REGEX -- ARGS...: non-zero exit, one stderr line matching REGEX.
expect_error() {
  local name=$1 regex=$2
  shift 3
  "$bin" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$work/err")
  if [[ $rc -ne 0 && $lines -eq 1 ]] && grep -Eq -- "$regex" "$work/err"; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: rc=$rc, $lines stderr lines:"
    cat "$work/err"
    fail=$((fail + 1))
  fi
}

cat >"$work/typo.yaml" <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
neighbor:
  skni: 0.3
YAML
cat >"$work/negative.yaml" <<'YAML'
system:
  lattice: {style: fcc, density: -0.8442, cells: [6, 6, 6]}
YAML
cat >"$work/small.yaml" <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [3, 3, 3]}
YAML
printf 'run:\n  steps: [1, 2\n' >"$work/syntax.yaml"
cat >"$work/ok.yaml" <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
run: {steps: 20, thermo: 10}
YAML

expect_error missing-file "nope\.yaml: cannot open deck" -- md "$work/nope.yaml"
expect_error unknown-key "typo\.yaml:4: unknown key 'neighbor\.skni' \(did you mean 'neighbor\.skin'\?\)" -- md "$work/typo.yaml"
expect_error negative-density "negative\.yaml:2: 'system\.lattice\.density': must be positive" -- md "$work/negative.yaml"
expect_error small-box "small\.yaml: box length .* cutoff larger than half the box" -- md "$work/small.yaml"
expect_error yaml-syntax "syntax\.yaml:[0-9]+: YAML syntax error" -- md "$work/syntax.yaml"
expect_error bad-set "--set neighbor\.skni: unknown key .*did you mean 'neighbor\.skin'" -- md "$work/ok.yaml" --set neighbor.skni=0.4
expect_error bad-set-value "--set run\.steps: expected an integer" -- md "$work/ok.yaml" --set run.steps=lots
expect_error unknown-flag "unknown option '--stpes' for 'md' \(did you mean '--steps'\?\)" -- md "$work/ok.yaml" --stpes 10
expect_error unknown-subcommand "unknown subcommand 'mdd' \(did you mean 'md'\?\)" -- mdd "$work/ok.yaml"
expect_error unwritable-output "cannot|not a directory|does not exist" -- md "$work/ok.yaml" --thermo-csv /nonexistent-dir/t.csv
expect_error wrong-backend "backend 'hip' is not what this binary runs on" -- md "$work/ok.yaml" --backend hip

# A good run writes the thermo CSV and the JSON summary.
if "$bin" md "$work/ok.yaml" --quiet --thermo-csv "$work/t.csv" --summary "$work/s.json" >"$work/out" 2>&1; then
  if [[ "$(head -1 "$work/t.csv")" == "step,temp,e_pair,ke,etotal,press" && $(wc -l <"$work/t.csv") -eq 4 ]] &&
    grep -q '"atom_steps_per_s"' "$work/s.json" && grep -q '"atoms": 864' "$work/s.json"; then
    pass=$((pass + 1))
  else
    echo "FAIL good-run outputs"
    cat "$work/t.csv" "$work/s.json"
    fail=$((fail + 1))
  fi
else
  echo "FAIL good-run exit"
  cat "$work/out"
  fail=$((fail + 1))
fi
# check NAME CONDITION...: one named pass/fail.
check() {
  local name=$1
  shift
  if "$@"; then
    pass=$((pass + 1))
  else
    echo "FAIL $name"
    cat "$work/out" "$work/err" 2>/dev/null
    fail=$((fail + 1))
  fi
}

# expect_input_error NAME REGEX -- ARGS...: exit code 2 (bad input), one stderr line matching
# REGEX, and nothing on stdout: the problem is found before the run starts (no thermo lines).
expect_input_error() {
  local name=$1 regex=$2
  shift 3
  "$bin" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [[ $rc -eq 2 && $(wc -l <"$work/err") -eq 1 && ! -s "$work/out" ]] && grep -Eq -- "$regex" "$work/err"; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: rc=$rc, stderr:"
    cat "$work/err"
    echo "stdout:"
    head -5 "$work/out"
    fail=$((fail + 1))
  fi
}

# Output paths: checked before any step.
expect_input_error unwritable-h5md "output\.h5md\.file: cannot write output '/nonexistent-dir/t\.h5': directory '/nonexistent-dir' does not exist" -- md "$work/ok.yaml" --set output.h5md.file=/nonexistent-dir/t.h5
expect_input_error unwritable-vtk "output\.vtk\.dir: .*does not exist" -- md "$work/ok.yaml" --set output.vtk.dir="$work/no-such-dir"
expect_input_error unwritable-restart "restart\.file: .*does not exist" -- md "$work/ok.yaml" --set restart.file=/nonexistent-dir/r.h5
expect_input_error unwritable-csv "output\.thermo_csv: .*does not exist" -- md "$work/ok.yaml" --thermo-csv /nonexistent-dir/t.csv
expect_input_error h5md-field "output\.h5md\.fields: unknown trajectory field 'charge'" -- md "$work/ok.yaml" --set 'output.h5md.fields=[position, charge]'

# Trajectory, VTK frames and checkpoint from one run; --quiet prints one line.
mkdir -p "$work/vtk"
traj_args=(--set output.h5md.file="$work/t.h5md" --set output.h5md.every=10 --set output.vtk.dir="$work/vtk"
  --set output.vtk.every=10 --set restart.file="$work/ck.h5" --set restart.every=10)
"$bin" md "$work/ok.yaml" --quiet "${traj_args[@]}" >"$work/out" 2>"$work/err"
check outputs-written test $? -eq 0 -a -s "$work/t.h5md" -a -s "$work/ck.h5" -a -f "$work/vtk/traj.pvd" -a -f "$work/vtk/traj_20.vtp"
check quiet-one-line test "$(wc -l <"$work/out")" -eq 1
check quiet-final-line grep -Eq '^864 atoms, 20 steps, .* final etotal' "$work/out"

# Restart: 20 steps + 20 more from the checkpoint end exactly where 40 steps in one go end
# (Langevin: noise and forces must resume too); the CSV starts at the restart step.
lang=(--set integrator.style=langevin --set integrator.temperature=1.0 --set restart.every=20)
"$bin" md "$work/ok.yaml" -q "${lang[@]}" --steps 40 --set restart.file="$work/whole.h5" --thermo-csv "$work/whole.csv" >/dev/null 2>&1
"$bin" md "$work/ok.yaml" -q "${lang[@]}" --steps 20 --set restart.file="$work/half.h5" >/dev/null 2>&1
"$bin" md "$work/ok.yaml" -q "${lang[@]}" --steps 20 --restart "$work/half.h5" --thermo-csv "$work/resumed.csv" >"$work/out" 2>"$work/err"
check restart-runs test $? -eq 0
check restart-csv-starts-at-20 test "$(sed -n 2p "$work/resumed.csv" | cut -d, -f1)" = 20
check restart-bit-identical test "$(tail -1 "$work/whole.csv")" = "$(tail -1 "$work/resumed.csv")"
check restart-is-at-40 test "$(tail -1 "$work/resumed.csv" | cut -d, -f1)" = 40

# Bad checkpoints: refused with one line naming the file, exit 2, before any step.
head -c 3000 "$work/ck.h5" >"$work/truncated.h5"
cp "$work/ck.h5" "$work/corrupt.h5"
size=$(stat -c %s "$work/ck.h5")
printf 'garbage!garbage!' | dd of="$work/corrupt.h5" bs=1 seek=$((size - 2000)) conv=notrunc status=none
echo "not a checkpoint" >"$work/text.h5"
expect_input_error restart-truncated "truncated\.h5: .*(truncated|corrupt|damaged)" -- md "$work/ok.yaml" --restart "$work/truncated.h5"
expect_input_error restart-corrupt "corrupt\.h5: .*corrupt" -- md "$work/ok.yaml" --restart "$work/corrupt.h5"
expect_input_error restart-not-hdf5 "text\.h5: not an mdremap checkpoint" -- md "$work/ok.yaml" --restart "$work/text.h5"
expect_input_error restart-missing "nope\.h5: checkpoint file not found" -- md "$work/ok.yaml" --restart "$work/nope.h5"
expect_input_error restart-atoms "ck\.h5: checkpoint holds 864 atoms, the deck describes 1372" -- md "$work/ok.yaml" --restart "$work/ck.h5" --set system.lattice.cells=[7,7,7]
expect_input_error restart-precision "ck\.h5: checkpoint was written in precision double, the run asks for single" -- md "$work/ok.yaml" --restart "$work/ck.h5" --precision single

if "$bin" info --summary "$work/info.json" >/dev/null && grep -q '"backend"' "$work/info.json"; then
  pass=$((pass + 1))
else
  echo "FAIL info"
  fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
