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
if "$bin" info --summary "$work/info.json" >/dev/null && grep -q '"backend"' "$work/info.json"; then
  pass=$((pass + 1))
else
  echo "FAIL info"
  fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
