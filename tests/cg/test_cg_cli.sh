#!/usr/bin/env bash
# `mdremap cg` from the command line: bad input is one stderr line naming file:line, key or flag,
# exit 2 and nothing on stdout; a solve that does not converge says so and exits 3; good runs
# write what they promise (summary, Matrix Market and .npy copies of the system that solve again).
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
pass=0

# expect_exit NAME CODE REGEX -- ARGS...: exit CODE, one stderr line matching REGEX.
expect_exit() {
  local name=$1 code=$2 regex=$3
  shift 4
  "$bin" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [[ $rc -eq $code && $(wc -l <"$work/err") -eq 1 ]] && grep -Eq -- "$regex" "$work/err" &&
    { [[ $code -ne 2 ]] || [[ ! -s "$work/out" ]]; }; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: rc=$rc (want $code), stderr:"
    cat "$work/err"
    echo "stdout:"
    head -5 "$work/out"
    fail=$((fail + 1))
  fi
}
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
json() {  # json FILE KEY: a top-level number or string of a summary file
  grep -E "^  \"$2\": " "$1" | head -1 | sed -E 's/^[^:]*: "?([^",]*)"?,?$/\1/'
}

cat >"$work/ok.yaml" <<'YAML'
matrix: {generator: laplace2d, dims: [20, 20]}
solver: {tolerance: 1.0e-10, max_iterations: 1000}
YAML
cat >"$work/typo.yaml" <<'YAML'
matrix: {generator: laplace2d, dims: [20, 20]}
solver:
  tolerence: 1.0e-10
YAML
cat >"$work/gen.yaml" <<'YAML'
matrix: {generator: laplace2e, dims: [20, 20]}
YAML
printf '%%%%MatrixMarket matrix coordinate real general\n%% comment\n3 3 3\n1 1 4\n2 2 x\n3 3 4\n' >"$work/bad.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 4\n1 2 1\n2 1 2\n2 2 4\n' >"$work/nonsym.mtx"
# A 3x3 SPD system with x* = (1, 2, 3): b = A x* = (6, 12, 18) - (2, 4+... ) computed below.
printf '%%%%MatrixMarket matrix coordinate real symmetric\n3 3 5\n1 1 4\n2 1 -1\n2 2 4\n3 2 -1\n3 3 4\n' >"$work/a.mtx"
printf '%%%%MatrixMarket matrix array real general\n3 1\n2\n4\n10\n' >"$work/b.mtx"
printf '%%%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n' >"$work/x.mtx"
printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n2\n' >"$work/short.mtx"

expect_exit missing-deck 2 "nope\.yaml: cannot open deck" -- cg "$work/nope.yaml"
expect_exit unknown-key 2 "typo\.yaml:3: unknown key 'solver\.tolerence' \(did you mean 'solver\.tolerance'\?\)" -- cg "$work/typo.yaml"
expect_exit unknown-generator 2 "gen\.yaml:1: 'matrix\.generator': unknown value 'laplace2e' \(did you mean 'laplace2d'\?\)" -- cg "$work/gen.yaml"
expect_exit bad-dims 2 "--set matrix\.dims: grid dimensions must be at least 1" -- cg "$work/ok.yaml" --set 'matrix.dims=[0, 4]'
expect_exit dims-count 2 "--set matrix\.dims: 'laplace2d' takes 2 grid dimensions, got 3" -- cg "$work/ok.yaml" --set 'matrix.dims=[4, 4, 4]'
expect_exit bad-tolerance 2 "--set solver\.tolerance: must be positive" -- cg "$work/ok.yaml" --set solver.tolerance=-1
expect_exit bad-spmv 2 "--spmv: unknown value 'csr-warpp' \(did you mean 'csr-warp'\?\)" -- cg "$work/ok.yaml" --spmv csr-warpp
expect_exit bad-flag 2 "unknown option '--tolerance' for 'cg'" -- cg "$work/ok.yaml" --tolerance 1
expect_exit malformed-matrix 2 "bad\.mtx:5: value 'x' is not a number" -- cg "$work/ok.yaml" --matrix "$work/bad.mtx"
expect_exit missing-matrix 2 "none\.mtx: cannot open" -- cg "$work/ok.yaml" --matrix "$work/none.mtx"
expect_exit nonsymmetric 2 "nonsym\.mtx:4: matrix is not symmetric" -- cg "$work/ok.yaml" --matrix "$work/nonsym.mtx"
expect_exit rhs-length 2 "short\.mtx:2: vector has 2 entries, the matrix has 3 rows" -- cg "$work/ok.yaml" --matrix "$work/a.mtx" --rhs "$work/short.mtx"
expect_exit unwritable-summary 2 "--summary: .*does not exist" -- cg "$work/ok.yaml" --summary /nonexistent-dir/s.json
if "$bin" info | grep -q 'backend *openmp'; then
  expect_exit cusparse-on-host 2 "--spmv: 'cusparse' needs a CUDA build" -- cg "$work/ok.yaml" --spmv cusparse
fi
expect_exit not-converged 3 "CG did not converge: iteration limit reached after 5 iterations" -- cg "$work/ok.yaml" --set solver.max_iterations=5 --summary "$work/nc.json"
check not-converged-summary grep -q '"converged": false' "$work/nc.json"

# A system from files with a known solution: the error is (nearly) zero.
"$bin" cg "$work/ok.yaml" --matrix "$work/a.mtx" --rhs "$work/b.mtx" --solution "$work/x.mtx" --summary "$work/f.json" >"$work/out" 2>"$work/err"
check file-system-runs test $? -eq 0
check file-system-error awk -v e="$(json "$work/f.json" relative_error)" 'BEGIN { exit !(e < 1e-12) }'

# Generated, permuted, written out; the written matrix (Matrix Market) solves in the same number
# of iterations, and the .npy files have the sizes of the system.
"$bin" cg "$work/ok.yaml" --set matrix.permute=true --summary "$work/g.json" --write-matrix "$work/w.mtx" --write-npy "$work/w" >"$work/out" 2>"$work/err"
check generated-runs test $? -eq 0
check progress-and-result grep -q "^Converged after" "$work/out"
its=$(json "$work/g.json" iterations)
# The summary's residual history: one entry an iteration, the last the recurrence's final
# residual, below the first.
check residual-history python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
h = d["residual_history"]
sys.exit(not (len(h) == d["iterations"] and h[-1] == d["recurrence_relative_residual"] and h[-1] < h[0]))
' "$work/g.json"
# ... and when each residual reached the host: one time an iteration, never decreasing, within
# the first solve's whole time.
check residual-timeline python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = d["residual_seconds"]
sys.exit(not (len(t) == d["iterations"] and t[0] > 0 and all(a <= b for a, b in zip(t, t[1:]))
              and t[-1] <= d["first_solve_total_seconds"] + 1e-3))
' "$work/g.json"
"$bin" cg "$work/ok.yaml" --matrix "$work/w.mtx" --rhs <(printf '') --summary "$work/w.json" >/dev/null 2>"$work/err"
check empty-rhs-refused grep -q "empty file" "$work/err"
"$bin" cg "$work/ok.yaml" --matrix "$work/w.mtx" --summary "$work/w.json" >/dev/null 2>&1
check written-matrix-same-iterations test "$(json "$work/w.json" iterations)" = "$its"
check written-matrix-rows grep -q '"rows": 400' "$work/w.json"
for f in rowptr:401:8 col:1920:4 val:1920:8 b:400:8 xstar:400:8; do
  IFS=: read -r name n size <<<"$f"
  file="$work/w_$name.npy"
  header=$((10 + $(head -c 10 "$file" | tail -c 2 | od -An -tu2 | tr -d ' ')))
  check "npy-$name" test "$(stat -c %s "$file")" -eq $((header + n * size))
done
check npy-magic test "$(head -c 6 "$work/w_val.npy" | tail -c 5)" = NUMPY

# Remap strategies: dup serves the ELL copy from the cache; padding refuses CG's body; csr-warp
# takes no strategy; reorderings keep the solution (error as small as without).
"$bin" cg "$work/ok.yaml" --set matrix.permute=true --remap dup --reorder partition --summary "$work/dup.json" >"$work/out" 2>"$work/err"
check dup-runs test $? -eq 0
check dup-hits grep -Eq '"cache_hits": [1-9][0-9]+' "$work/dup.json"
check dup-ell grep -q '"dup_target": "references"' "$work/dup.json"
check dup-payback grep -q '"payback_spmvs"' "$work/dup.json"
check dup-error awk -v e="$(json "$work/dup.json" relative_error)" 'BEGIN { exit !(e < 1e-6) }'
# labelprop runs on the device (one line of its levels, its time in the summary); the written
# matrix is the deck's, before the reorder (the same file as without it); labelprop-host too.
"$bin" cg "$work/ok.yaml" --set matrix.permute=true --reorder labelprop --write-matrix "$work/lp.mtx" --summary "$work/lp.json" >"$work/out" 2>"$work/err"
check labelprop-runs test $? -eq 0
check labelprop-levels grep -Eq "^# reorder: multilevel label propagation on the device .*: [1-9] levels?: 400 -> " "$work/out"
check labelprop-note grep -q '"reorder_note": "multilevel' "$work/lp.json"
check labelprop-timed awk -v t="$(grep -o '"reorder_seconds": [^,]*' "$work/lp.json" | cut -d' ' -f2)" 'BEGIN { exit !(t > 0) }'
check labelprop-same-iterations test "$(json "$work/lp.json" iterations)" -le $((its + 1))
check labelprop-error awk -v e="$(json "$work/lp.json" relative_error)" 'BEGIN { exit !(e < 1e-6) }'
check labelprop-writes-the-deck-matrix cmp -s "$work/lp.mtx" "$work/w.mtx"
# remap.reorder auto (what --remap auto runs): a permuted 160,000-row grid is scattered (most
# entries past 32,767 columns): with kernel auto the reorder is left to auto's decision point.
# On the CPU no warm-up measures its cost, so it runs there; on a GPU it runs where the most it
# can save over the iterations left exceeds the cost the warm-up measured (at the decision or
# later), else the order is kept, and the run says which. Either way the solve ends in the
# matrix's own order. With a named kernel labelprop runs before the solve. The 400-row one keeps
# its order.
"$bin" cg "$work/ok.yaml" --set matrix.dims=[400,400] --set matrix.permute=true --set solver.tolerance=1e-6 --remap auto --summary "$work/ra.json" >"$work/out" 2>"$work/err"
check reorder-auto-runs test $? -eq 0
check reorder-auto-scattered grep -Eq "^# reorder: auto: [5-9][0-9]\.[0-9]% of the entries lie more than 32767 columns from their row \(over 50%\): labelprop left to auto's decision point$" "$work/out"
if "$bin" info | grep -q 'backend *openmp'; then
  check reorder-auto-run-unmeasured grep -Eq "^    auto: .*: labelprop left to auto's decision point; labelprop run: its cost not measured on this device \(no warm-up\); multilevel label propagation on the device" "$work/out"
fi
if grep -q '"variant": "auto:.*+labelprop"' "$work/ra.json"; then
  check reorder-auto-note grep -Eq '"reorder_note": "auto: .*; labelprop (run|at the decision|later)' "$work/ra.json"
else
  check reorder-auto-kept-note grep -q '"reorder_note": "auto: .*; the order kept: at the last estimate (after [0-9]* iterations) it could save ' "$work/ra.json"
fi
check reorder-auto-error awk -v e="$(json "$work/ra.json" relative_error)" 'BEGIN { exit !(e < 1e-2) }'
check reorder-auto-residual awk -v e="$(json "$work/ra.json" relative_residual)" 'BEGIN { exit !(e < 1.01e-6) }'
"$bin" cg "$work/ok.yaml" --set matrix.dims=[400,400] --set matrix.permute=true --set solver.tolerance=1e-3 --spmv sell --reorder auto >"$work/out" 2>"$work/err"
check reorder-auto-named-kernel grep -Eq "^# reorder: auto: [5-9][0-9]\.[0-9]% .*\(over 50%\): labelprop; multilevel" "$work/out"
"$bin" cg "$work/ok.yaml" --set matrix.permute=true --remap auto >"$work/out" 2>"$work/err"
check reorder-auto-small-kept grep -Eq "^# reorder: auto: 0\.0% .*: the order kept$" "$work/out"
"$bin" cg "$work/ok.yaml" --set matrix.permute=true --reorder labelprop-host --summary "$work/lph.json" >"$work/out" 2>"$work/err"
check labelprop-host-runs test $? -eq 0
check labelprop-host-error awk -v e="$(json "$work/lph.json" relative_error)" 'BEGIN { exit !(e < 1e-6) }'
check labelprop-host-no-device-line test "$(grep -c '^# reorder:' "$work/out")" -eq 0
"$bin" cg "$work/ok.yaml" --set matrix.permute=true --reorder labelprop --remap auto --summary "$work/auto.json" >"$work/out" 2>"$work/err"
check auto-runs test $? -eq 0
check auto-decides grep -q '"strategy": "auto:' "$work/auto.json"
# --remap auto with no kernel named chooses the kernel too; kernel auto with a fixed strategy refused.
check auto-chooses-the-kernel grep -q '"kernel": "auto"' "$work/auto.json"
check auto-measured-kernels grep -q "kernels measured on the solve's own iterations" "$work/out"
expect_exit kernel-auto-fixed-mode 2 "remap\.mode:? spmv\.kernel auto chooses the remap strategy too: mode must be auto, not 'dup'" -- cg "$work/ok.yaml" --spmv auto --remap dup
expect_exit padding-refused 2 "remap\\.mode.*padding does not apply: CG's SpMV .* reference patterns" -- cg "$work/ok.yaml" --remap padding
expect_exit warp-no-remap 2 "remap\.mode.*needs spmv\.kernel csr-thread" -- cg "$work/ok.yaml" --remap dup --spmv csr-warp
expect_exit bad-remap 2 "remap\.mode:? unknown value 'dupp' \(did you mean 'dup'\?\)" -- cg "$work/ok.yaml" --remap dupp
expect_exit bad-reorder 2 "remap\.reorder:? unknown value 'spatial'" -- cg "$work/ok.yaml" --reorder spatial
# The persisting-L2 window: for the kernels with a matrix array of their own, on a GPU that has one.
expect_exit l2-persist-kernel 2 "spmv\.l2_persist:? applies to the sell and cusparse kernels .*not to 'csr-warp'" -- cg "$work/ok.yaml" --spmv csr-warp --set spmv.l2_persist=true
if "$bin" info | grep -q "backend *cuda"; then
  "$bin" cg "$work/ok.yaml" --spmv sell --set spmv.l2_persist=true --summary "$work/l2.json" >"$work/out" 2>"$work/err"
  check l2-persist-runs test $? -eq 0
  check l2-persist-described grep -q "persisting-L2 window of" "$work/l2.json"
  # On a GPU sell runs the lagged loop from the first iteration, unless told to wait.
  "$bin" cg "$work/ok.yaml" --spmv sell --summary "$work/lag.json" >"$work/out" 2>"$work/err"
  check lagged-loop grep -qE '"lagged_from": 1,?$' "$work/lag.json"
  "$bin" cg "$work/ok.yaml" --spmv sell --set solver.wait_each_iteration=true --summary "$work/wait.json" >"$work/out" 2>"$work/err"
  check waiting-loop grep -q '"lagged_from": 0' "$work/wait.json"
  check lagged-same-iterations test "$(json "$work/lag.json" iterations)" = "$(json "$work/wait.json" iterations)"
  check lagged-same-history python3 -c '
import json, sys
a, b = (json.load(open(f))["residual_history"] for f in sys.argv[1:3])
sys.exit(not (len(a) == len(b) and max(abs(x - y) / y for x, y in zip(a, b)) < 1e-9))
' "$work/lag.json" "$work/wait.json"
  # auto measures its kernels in the lagged loop: it runs it from the first iteration.
  "$bin" cg "$work/ok.yaml" --remap auto --summary "$work/auto-lag.json" >"$work/out" 2>"$work/err"
  check auto-lagged-from-the-first grep -qE '"lagged_from": 1,?$' "$work/auto-lag.json"
else
  "$bin" cg "$work/ok.yaml" --spmv sell --summary "$work/lag.json" >"$work/out" 2>"$work/err"
  check host-waits grep -q '"lagged_from": 0' "$work/lag.json"
  expect_exit l2-persist-host 2 "spmv\.l2_persist:? .*has no persisting L2" -- cg "$work/ok.yaml" --spmv sell --set spmv.l2_persist=true
fi

# --quiet prints one line.
"$bin" cg "$work/ok.yaml" -q >"$work/out" 2>&1
check quiet-one-line test "$(wc -l <"$work/out")" -eq 1
check quiet-line grep -Eq '^cg: 400 rows, [0-9]+ iterations, converged' "$work/out"

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
