#!/usr/bin/env bash
# `mdremap sp` on the command line: malformed CNF files are refused with one `FILE:LINE:` line and
# exit 2; outcomes have their exit codes (10 SAT, 20 UNSAT, 30 UNKNOWN); the solution file, the
# summary and --write-cnf hold what they promise.
set -u
bin=$1
src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
pass=0

ok() { pass=$((pass + 1)); }
bad() {
  echo "FAIL $1"
  [[ -f $work/err ]] && sed 's/^/  stderr: /' "$work/err" | head -5
  fail=$((fail + 1))
}

cat >"$work/deck.yaml" <<'YAML'
formula:
  source: random-100-30-3
sp: {max_iterations: 50}
walksat: {max_flips: 100000}
YAML

# expect_error NAME REGEX -- ARGS...: exit 2, one stderr line matching REGEX, no outputs left.
expect_error() {
  local name=$1 regex=$2
  shift 3
  rm -f "$work/sol.txt" "$work/sum.json"
  "$bin" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$work/err")
  if [[ $rc -eq 2 && $lines -eq 1 && ! -e $work/sol.txt && ! -e $work/sum.json ]] &&
    grep -Eq -- "$regex" "$work/err"; then
    ok
  else
    bad "$name: rc=$rc, $lines stderr lines"
  fi
}

# cnf NAME TEXT: writes $work/NAME.cnf
cnf() { printf "$2" >"$work/$1.cnf"; }

cnf range 'c x\np cnf 3 2\n1 2 0\n-4 1 0\n'
cnf before 'c x\n1 2 0\np cnf 2 1\n'
cnf noheader 'c nothing here\n'
cnf twoheaders 'p cnf 3 1\np cnf 3 1\n1 0\n'
cnf format 'p sat 3 1\n1 0\n'
cnf token 'p cnf 3 1\n1 2x 0\n'
cnf char 'p cnf 3 1\n1 2 0\n# not a comment\n'
cnf header 'p cnf 3\n1 0\n'
cnf big 'p cnf 3 1\n1 99999999999999999999999999 0\n'
for args in "range:4:literal -4 is outside \[-3, 3\]" \
  "before:2:clause before the 'p cnf VARIABLES CLAUSES' header" \
  "noheader:2:no 'p cnf VARIABLES CLAUSES' header" \
  "twoheaders:2:second 'p' header \(the first is on line 1\)" \
  "format:1:unsupported format 'p sat'" \
  "token:2:malformed literal '2x'" \
  "char:3:unexpected '#'" \
  "header:1:malformed header" \
  "big:2:literal '9+\.\.\.' is too large"; do
  name=${args%%:*}
  rest=${args#*:}
  line=${rest%%:*}
  msg=${rest#*:}
  expect_error "cnf-$name" "^mdremap: error: .*/$name\.cnf:$line: $msg" -- sp "$work/deck.yaml" \
    --cnf "$work/$name.cnf" --assignment-out "$work/sol.txt" --summary "$work/sum.json"
done
expect_error missing-cnf "nope\.cnf: cannot open CNF file" -- sp "$work/deck.yaml" --cnf "$work/nope.cnf"
expect_error bad-generator "--cnf: generator 'random-10-5-9' .*K distinct variables" -- \
  sp "$work/deck.yaml" --cnf random-10-5-9
expect_error unknown-key "unknown key 'sp\.epsilonn' \(did you mean 'sp\.epsilon'\?\)" -- \
  sp "$work/deck.yaml" --set sp.epsilonn=0.01
expect_error bad-fraction "sp\.fraction: must be in \(0, 1\], got 0" -- \
  sp "$work/deck.yaml" --set sp.fraction=0
expect_error remap-mode "remap\.mode: unknown value 'dupp' \(did you mean 'dup'\?\)" -- \
  sp "$work/deck.yaml" --remap dupp
expect_error remap-padding "remap\.mode: 'padding' does not apply: .*regroups threads" -- \
  sp "$work/deck.yaml" --remap padding
expect_error reorder "remap\.reorder: unknown value 'spatial'" -- sp "$work/deck.yaml" --reorder spatial
expect_error unwritable "--assignment-out" -- sp "$work/deck.yaml" --assignment-out /nonexistent-dir/s.txt
expect_error unknown-flag "unknown option '--cfn' for 'sp' \(did you mean '--cnf'\?\)" -- \
  sp "$work/deck.yaml" --cfn x.cnf

# Warnings go to stderr with their line; the formula is still solved.
cnf warn 'p cnf 3 3\n1 2 0\n-1 3 0\n-2 -3'
"$bin" sp "$work/deck.yaml" --cnf "$work/warn.cnf" -q >"$work/out" 2>"$work/err"
rc=$?
if [[ $rc -eq 10 && $(wc -l <"$work/err") -eq 1 ]] &&
  grep -q "warn\.cnf:4: warning: the last clause has no terminating 0 (accepted)" "$work/err"; then
  ok
else
  bad "warn: rc=$rc"
fi

# SAT: exit 10, DIMACS solution whose v lines satisfy every clause.
cnf sat 'c hand made\np cnf 5 6\n1 2 -3 0\n-1 3 4 0\n2 -4 5 0\n-2 -5 3 0\n1 -3 -5 0\n-1 4 -2 0\n'
"$bin" sp "$work/deck.yaml" --cnf "$work/sat.cnf" --assignment-out "$work/sol.txt" \
  --summary "$work/sum.json" >"$work/out" 2>"$work/err"
rc=$?
if [[ $rc -eq 10 ]] && python3 - "$work/sat.cnf" "$work/sol.txt" "$work/sum.json" <<'PY'; then ok; else bad "sat: rc=$rc"; fi
import json, sys
clauses = [[int(x) for x in l.split()[:-1]] for l in open(sys.argv[1]) if l[0] not in "cp"]
lines = open(sys.argv[2]).read().splitlines()
assert lines[0] == "s SATISFIABLE", lines[0]
vals = [int(x) for l in lines[1:] for x in l.split()[1:]]
assert all(l.startswith("v ") for l in lines[1:]) and vals[-1] == 0
true = set(v for v in vals if v != 0)
assert sorted(abs(v) for v in true) == [1, 2, 3, 4, 5]
assert all(any(l in true for l in c) for c in clauses)
j = json.load(open(sys.argv[3]))
assert j["outcome"] == "SATISFIABLE" and j["exit_code"] == 10, j["outcome"]
assert j["formula"]["variables"] == 5 and j["formula"]["clauses"] == 6
for k in ("iterations", "decimation_rounds", "ms_per_iteration", "calc_pi_ms_per_iteration"):
    assert k in j["sp"], k
for k in ("sp", "unit", "pure", "walksat", "unconstrained"):
    assert k in j["fixed"], k
t = j["transactions"]
assert t["computed"] and t["gather"]["data"]["seg32"] > 0
assert t["gather"]["total"]["seg32"] > t["gather"]["data"]["seg32"]
assert j["remap"]["strategy"] == "gather" and j["remap"]["plans"] >= 1
PY

# UNSAT by propagation: exit 20, solution file says so.
cnf unsat 'p cnf 3 4\n1 0\n-1 2 0\n-2 3 0\n-3 -1 0\n'
"$bin" sp "$work/deck.yaml" --cnf "$work/unsat.cnf" --assignment-out "$work/sol.txt" -q \
  >"$work/out" 2>"$work/err"
rc=$?
if [[ $rc -eq 20 && "$(cat "$work/sol.txt")" == "s UNSATISFIABLE" ]] &&
  grep -q "^s UNSATISFIABLE (unit propagation" "$work/out"; then ok; else bad "unsat: rc=$rc"; fi

# UNKNOWN: all eight 3-clauses over three variables, which propagation cannot refute.
printf 'p cnf 3 8\n' >"$work/all8.cnf"
for m in 0 1 2 3 4 5 6 7; do
  echo "$(((m & 1) ? -1 : 1)) $(((m & 2) ? -2 : 2)) $(((m & 4) ? -3 : 3)) 0" >>"$work/all8.cnf"
done
"$bin" sp "$work/deck.yaml" --cnf "$work/all8.cnf" --set walksat.max_flips=1000 -q \
  --assignment-out "$work/sol.txt" >"$work/out" 2>"$work/err"
rc=$?
if [[ $rc -eq 30 && "$(cat "$work/sol.txt")" == "s UNKNOWN" ]]; then ok; else bad "unknown: rc=$rc"; fi

# --write-cnf: the generated formula as DIMACS, readable again (same size), then exit 0.
"$bin" sp "$work/deck.yaml" --write-cnf "$work/gen.cnf" -q >"$work/out" 2>"$work/err"
rc=$?
if [[ $rc -eq 0 ]] && grep -q "^p cnf 30 100$" "$work/gen.cnf" &&
  [[ $(grep -c " 0$" "$work/gen.cnf") -eq 100 ]]; then ok; else bad "write-cnf: rc=$rc"; fi
"$bin" sp "$work/deck.yaml" --cnf "$work/gen.cnf" -q >"$work/out" 2>"$work/err"
rc=$?
if [[ $rc -eq 10 && ! -s $work/err ]]; then ok; else bad "write-cnf read back: rc=$rc"; fi

# calc_pi_values through dup: the references are copied once and served from the remap cache.
"$bin" sp "$work/deck.yaml" --cnf random-420-100-3 --remap dup --reorder variable -q \
  --summary "$work/sum.json" >"$work/out" 2>"$work/err"
rc=$?
if [[ $rc -eq 10 || $rc -eq 30 ]] && python3 - "$work/sum.json" <<'PY'; then ok; else bad "dup: rc=$rc"; fi
import json, sys
j = json.load(open(sys.argv[1]))
r = j["remap"]
assert r["strategy"] == "dup" and r["reorder"] == "variable", r
assert r["dup_target"] == "references" and r["cache_hits"] > 0, r
assert r["plans"] == r["compactions"] + 1, r
assert j["transactions"]["dup"]["total"]["seg32"] < j["transactions"]["gather"]["total"]["seg32"]
PY

# The shipped decks parse (resolved deck printed) with a tiny formula in place of theirs.
for d in "$src"/inputs/sp_*.yaml; do
  "$bin" sp "$d" --cnf "$work/sat.cnf" -q >"$work/out" 2>"$work/err"
  rc=$?
  if [[ $rc -eq 10 ]]; then ok; else bad "deck $(basename "$d"): rc=$rc"; fi
done

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
