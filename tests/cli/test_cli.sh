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
    grep -q '"atom_steps_per_s"' "$work/s.json" && grep -q '"atoms": 864' "$work/s.json" &&
    grep -q '"candidate_rebuilds": 0' "$work/s.json"; then
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

# A build without VTK (MDREMAP_WITH_VTK=OFF, as the GPU bundle) refuses output.vtk by name; the
# VTK cases then assert that refusal instead.
has_vtk=0
"$bin" info | grep -Eq 'VTK output +yes' && has_vtk=1
no_vtk="output\.vtk\.dir: this mdremap was built without VTK"

# Output paths: checked before any step.
expect_input_error unwritable-h5md "output\.h5md\.file: cannot write output '/nonexistent-dir/t\.h5': directory '/nonexistent-dir' does not exist" -- md "$work/ok.yaml" --set output.h5md.file=/nonexistent-dir/t.h5
if ((has_vtk)); then
  expect_input_error unwritable-vtk "output\.vtk\.dir: .*does not exist" -- md "$work/ok.yaml" --set output.vtk.dir="$work/no-such-dir"
else
  expect_input_error unwritable-vtk "$no_vtk" -- md "$work/ok.yaml" --set output.vtk.dir="$work/no-such-dir"
fi
expect_input_error unwritable-restart "restart\.file: .*does not exist" -- md "$work/ok.yaml" --set restart.file=/nonexistent-dir/r.h5
expect_input_error unwritable-csv "output\.thermo_csv: .*does not exist" -- md "$work/ok.yaml" --thermo-csv /nonexistent-dir/t.csv
expect_input_error h5md-field "output\.h5md\.fields: unknown trajectory field 'charge'" -- md "$work/ok.yaml" --set 'output.h5md.fields=[position, charge]'

# Trajectory, VTK frames and checkpoint from one run; --quiet prints one line.
mkdir -p "$work/vtk"
traj_args=(--set output.h5md.file="$work/t.h5md" --set output.h5md.every=10
  --set restart.file="$work/ck.h5" --set restart.every=10)
((has_vtk)) && traj_args+=(--set output.vtk.dir="$work/vtk" --set output.vtk.every=10)
"$bin" md "$work/ok.yaml" --quiet "${traj_args[@]}" >"$work/out" 2>"$work/err"
rc=$?
if ((has_vtk)); then
  check outputs-written test $rc -eq 0 -a -s "$work/t.h5md" -a -s "$work/ck.h5" -a -f "$work/vtk/traj.pvd" -a -f "$work/vtk/traj_20.vtp"
else
  check outputs-written test $rc -eq 0 -a -s "$work/t.h5md" -a -s "$work/ck.h5"
fi
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

# ---- No lost data, no NaN runs that exit 0, every input checked ----------------------------
py=/usr/bin/python3
[[ -x $py ]] || py=python3
have_h5py=0
"$py" -c 'import h5py' 2>/dev/null && have_h5py=1
# h5_attr FILE GROUP ATTR: prints the attribute (needs h5py); "unreadable" if the file is not HDF5.
h5_attr() {
  "$py" - "$@" <<'PY' 2>/dev/null || echo unreadable
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    print(int(f[sys.argv[2]].attrs[sys.argv[3]][()]), f["particles/all/position/value"].shape[0])
PY
}
is_hdf5() { [[ "$(head -c 8 "$1" | od -An -c | tr -d ' ')" == '211HDF\r\n032\n' ]]; }
# expect_run_error NAME REGEX -- ARGS...: exit code 1 (the run failed), first stderr line matches.
expect_run_error() {
  local name=$1 regex=$2
  shift 3
  "$bin" "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  if [[ $rc -eq 1 ]] && head -1 "$work/err" | grep -Eq -- "$regex"; then
    pass=$((pass + 1))
  else
    echo "FAIL $name: rc=$rc, stderr:"
    cat "$work/err"
    fail=$((fail + 1))
  fi
}

# A second run given the same H5MD path is refused (exit 2) and the first run's file stays whole; it
# appears under its name only when complete. The first run must still be running when the second
# starts: 20,000 steps (seconds, not the tenths a short run takes on a fast host, where the check
# raced and failed) with 41 frames.
long=(--steps 20000 --set run.thermo=0 --set output.h5md.every=500)
"$bin" md "$work/ok.yaml" -q "${long[@]}" --set output.h5md.file="$work/shared.h5" >"$work/run1.out" 2>&1 &
run1=$!
for _ in $(seq 1 600); do [[ -s $work/shared.h5.partial ]] && break; sleep 0.1; done
expect_input_error f1-second-run-refused "output\.h5md\.file: .*shared\.h5: is being written by another running mdremap" -- md "$work/ok.yaml" --set output.h5md.file="$work/shared.h5"
check f1-not-in-place-while-running test ! -e "$work/shared.h5"
wait $run1
check f1-first-run-ok test $? -eq 0
check f1-file-is-hdf5 is_hdf5 "$work/shared.h5"
check f1-no-partial-left test ! -e "$work/shared.h5.partial"
if ((have_h5py)); then
  check f1-file-complete test "$(h5_attr "$work/shared.h5" parameters mdremap_complete)" = "1 41"
fi
# An existing complete trajectory survives a later run that fails: it is replaced only whole.
cp "$work/shared.h5" "$work/keep.h5"
"$bin" md "$work/ok.yaml" -q --set output.h5md.file="$work/shared.h5" --set integrator.dt=0.05 --steps 200 >/dev/null 2>&1
check f1-failed-run-keeps-old-file cmp -s "$work/shared.h5" "$work/keep.h5"

# Pipes and devices are written in place (nothing to stage; never replaced by a rename). Named
# pipes in the scratch directory stand in for /dev/stdout: a broken build must not replace
# anything outside it.
mkfifo "$work/csv.fifo" "$work/summary.fifo"
timeout 120 cat "$work/csv.fifo" >"$work/csv.got" &
timeout 120 cat "$work/summary.fifo" >"$work/summary.got" &
"$bin" md "$work/ok.yaml" -q --thermo-csv "$work/csv.fifo" --summary "$work/summary.fifo" >"$work/out" 2>"$work/err"
check f1-pipe-outputs test $? -eq 0 -a -p "$work/csv.fifo" -a -p "$work/summary.fifo" -a ! -e "$work/csv.fifo.partial"
wait
check f1-pipe-summary grep -q '"atoms": 864' "$work/summary.got"
check f1-pipe-csv test "$(wc -l <"$work/csv.got")" -eq 4

# Outputs never overwrite inputs or each other (resolved paths, links), exit 2.
cp "$work/ok.yaml" "$work/deck-copy.yaml"
cp "$work/ok.yaml" "$work/deck-orig.yaml"
expect_input_error f2-csv-over-deck "output\.thermo_csv: .*deck-copy\.yaml' is the same file as the deck" -- md "$work/deck-copy.yaml" --thermo-csv "$work/deck-copy.yaml"
check f2-deck-untouched cmp -s "$work/deck-copy.yaml" "$work/deck-orig.yaml"
expect_input_error f2-csv-over-deck-dotdot "output\.thermo_csv: .* is the same file as the deck" -- md "$work/deck-copy.yaml" --thermo-csv "$work/vtk/../deck-copy.yaml"
ln -sf "$work/deck-copy.yaml" "$work/link.yaml"
expect_input_error f2-summary-via-symlink "--summary: .*link\.yaml' is the same file as the deck" -- md "$work/deck-copy.yaml" --summary "$work/link.yaml"
ln -f "$work/deck-copy.yaml" "$work/hard.yaml"
expect_input_error f2-h5md-via-hardlink "output\.h5md\.file: .*hard\.yaml' is the same file as the deck" -- md "$work/deck-copy.yaml" --set output.h5md.file="$work/hard.yaml"
check f2-deck-untouched-2 cmp -s "$work/deck-copy.yaml" "$work/deck-orig.yaml"
expect_input_error f2-two-outputs "restart\.file: .*x\.h5' is the same file as output\.h5md\.file" -- md "$work/ok.yaml" --set output.h5md.file="$work/x.h5" --set restart.file="$work/x.h5"
# A chain of jobs writes the checkpoint back over the one it continued from (replaced whole).
"$bin" md "$work/ok.yaml" -q --steps 5 --restart "$work/ck.h5" --set restart.file="$work/ck.h5" >"$work/out" 2>"$work/err"
check f2-checkpoint-back-over-restart-input test $? -eq 0 -a -s "$work/ck.h5" -a ! -e "$work/ck.h5.partial"
expect_input_error f2-h5md-over-restart-input "output\.h5md\.file: .*ck\.h5' is the same file as --restart" -- md "$work/ok.yaml" --restart "$work/ck.h5" --set output.h5md.file="$work/ck.h5"
if ((has_vtk)); then
  expect_input_error f2-csv-in-vtk-set "output\.thermo_csv: .*traj_10\.vtp' is one of the files of output\.vtk\.dir" -- md "$work/ok.yaml" --set output.vtk.dir="$work/vtk" --thermo-csv "$work/vtk/traj_10.vtp"
else
  expect_input_error f2-csv-in-vtk-set "$no_vtk" -- md "$work/ok.yaml" --set output.vtk.dir="$work/vtk" --thermo-csv "$work/vtk/traj_10.vtp"
fi
expect_input_error f2-summary-is-partial-of-h5md "--summary: .*t2\.h5\.partial' is the same file as the temporary file of output\.h5md\.file" -- md "$work/ok.yaml" --set output.h5md.file="$work/t2.h5" --summary "$work/t2.h5.partial"
expect_input_error f2-compare-csv-over-deck "--csv: .*deck-copy\.yaml' is the same file as the deck" -- compare "$work/deck-copy.yaml" --csv "$work/deck-copy.yaml"
check f2-deck-untouched-3 cmp -s "$work/deck-copy.yaml" "$work/deck-orig.yaml"

# A blow-up stops with the step named and exit 1; the H5MD file is not completed; the last good
# checkpoint is kept and is readable; a checkpoint is never written from a NaN state. (dt 0.03: this
# deck heats up and loses atoms near step 200; checkpoints every 50 steps.)
blow=(--steps 400 --set run.thermo=20 --set integrator.dt=0.03 --set restart.file="$work/blow.h5"
  --set restart.every=50 --set output.h5md.file="$work/blow.h5md" --thermo-csv "$work/blow.csv")
expect_run_error f3-blowup-stops "^mdremap: error: step [0-9]+: .*(non-finite|lost atoms).*blew up" -- md "$work/ok.yaml" "${blow[@]}"
check f3-blowup-before-the-end test "$(tail -1 "$work/blow.csv.partial" | cut -d, -f1)" -lt 400
check f3-h5md-not-completed test ! -e "$work/blow.h5md" -a -s "$work/blow.h5md.partial"
if ((have_h5py)); then
  check f3-h5md-partial-marked-incomplete grep -q '^0 ' <(h5_attr "$work/blow.h5md.partial" parameters mdremap_complete)
fi
check f3-no-nan-in-csv-partial test "$(grep -ci nan "$work/blow.csv.partial")" -eq 0
expect_input_error f3-last-checkpoint-readable "blow\.h5: checkpoint was written in precision double, the run asks for single" -- md "$work/ok.yaml" --restart "$work/blow.h5" --precision single
expect_run_error f3-absurd-temperature "^mdremap: error: step [0-9]+: .*blew up" -- md "$work/ok.yaml" -q --set velocity.temperature=1e9

# Non-finite and out-of-range numbers in any key, deck or --set, are refused (exit 2).
for kv in neighbor.bin_size=.nan velocity.temperature=.nan neighbor.skin=.nan potential.cutoff=.inf \
  integrator.dt=-.inf 'system.types=[{name: A, fraction: .nan}]' \
  'system.types=[{name: A, epsilon: .inf}]' 'system.lattice.density=1e999' remap.dup_fraction=.NaN; do
  key=${kv%%=*}
  expect_input_error "f4-$kv" "^mdremap: error: --set ${key//./\\.}: .*(not a finite number|out of range|overflows)" -- md "$work/ok.yaml" --set "$kv"
done
printf 'system:\n  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}\nneighbor:\n  skin: .nan\n' >"$work/nan.yaml"
expect_input_error f4-deck-file-line "nan\.yaml:4: 'neighbor\.skin': '\.nan' is not a finite number" -- md "$work/nan.yaml"
expect_input_error f4-int-overflow "--set run\.steps: '99999999999999999999' is out of range" -- md "$work/ok.yaml" --set run.steps=99999999999999999999
expect_input_error f4-negative-seed "--set velocity\.seed: must not be negative" -- md "$work/ok.yaml" --set velocity.seed=-1
expect_input_error f4-too-many-atoms "--set system\.lattice\.cells: .*at most 2147483647 atoms" -- md "$work/ok.yaml" --set 'system.lattice.cells=[1000,1000,1000]'
expect_input_error f4-more-atoms-than-memory "atoms need at least .* GB of host memory" -- md "$work/ok.yaml" --set 'system.lattice.cells=[1290,1290,320]'
expect_input_error f4-dilute-box "too dilute" -- md "$work/ok.yaml" --set system.lattice.density=1e-9
printf 'system:\n  random: {atoms: 1000, density: 0.8, min_distance: 1.2}\n' >"$work/jam.yaml"
expect_input_error f4-random-min-distance-nan "^mdremap: error: --set system\.random\.min_distance: '\.nan' is not a finite number" -- md "$work/jam.yaml" --set system.random.min_distance=.nan
expect_input_error f4-jammed-random-gas "jam\.yaml:2: 'system\.random\.min_distance': 1\.2 is too large" -- md "$work/jam.yaml"

# YAML edge cases.
: >"$work/empty.yaml"
printf '# only a comment\n' >"$work/comment.yaml"
printf 'run:\n  steps: 5\nrun:\n  steps: 7\n' >"$work/dupsec.yaml"
printf 'run:\n  steps: 5\n  steps: 7\n' >"$work/dupkey.yaml"
printf 'run:\n  steps: 5\n---\nrun:\n  steps: 7\n' >"$work/multidoc.yaml"
printf 'run:\n  steps:\n' >"$work/novalue.yaml"
expect_input_error f5-empty-deck "empty\.yaml: the deck is empty" -- md "$work/empty.yaml"
expect_input_error f5-comment-only-deck "comment\.yaml: the deck is empty" -- md "$work/comment.yaml"
expect_input_error f5-directory-deck "vtk: is a directory, not a deck" -- md "$work/vtk"
expect_input_error f5-duplicate-section "dupsec\.yaml:3: 'run' is given twice \(first on line 1\)" -- md "$work/dupsec.yaml"
expect_input_error f5-duplicate-key "dupkey\.yaml:3: 'run\.steps' is given twice \(first on line 2\)" -- md "$work/dupkey.yaml"
expect_input_error f5-second-document "multidoc\.yaml:[34]: a second YAML document" -- md "$work/multidoc.yaml"
expect_input_error f5-empty-set "--set run\.steps: empty value" -- md "$work/ok.yaml" --set run.steps=
expect_input_error f5-key-without-value "novalue\.yaml:2: 'run\.steps': has no value" -- md "$work/novalue.yaml"
expect_input_error f5-duplicate-key-in-set "--set system: 'system\.a' is given twice" -- md "$work/ok.yaml" --set 'system={a: 1, a: 2}'

# Every command-line problem exits 2 with the prefix and the flag named.
expect_input_error f6-negative-steps "^mdremap: error: --steps: must be at least 0, got -5$" -- md "$work/ok.yaml" --steps -5
expect_input_error f6-huge-steps "^mdremap: error: --steps: '99999999999999999999999' is out of range" -- md "$work/ok.yaml" --steps 99999999999999999999999
expect_input_error f6-steps-not-a-number "^mdremap: error: --steps: expected an integer, got 'abc'$" -- md "$work/ok.yaml" --steps abc
expect_input_error f6-missing-deck "^mdremap: error: deck is required" -- md
expect_input_error f6-bad-precision "^mdremap: error: --precision: quad not in" -- md "$work/ok.yaml" --precision quad
expect_input_error f6-missing-value "^mdremap: error: --restart: 1 required" -- md "$work/ok.yaml" --restart
expect_input_error f6-extra-argument "^mdremap: error: The following argument" -- md "$work/ok.yaml" extra.yaml
expect_input_error f6-compare-steps-not-integer "^mdremap: error: --steps: expected an integer, got '1e99'$" -- compare "$work/ok.yaml" --steps 1e99
expect_input_error f6-compare-huge-steps "^mdremap: error: --steps: '99999999999' is out of range .{0,40}$" -- compare "$work/ok.yaml" --steps 99999999999
expect_input_error f6-compare-zero-rounds "^mdremap: error: --rounds: must be at least 1, got 0$" -- compare "$work/ok.yaml" --rounds 0
expect_input_error f6-chunks-zero "^mdremap: error: --chunks: must be at least 1, got 0$" -- md "$work/ok.yaml" --chunks 0
expect_input_error f6-compare-bad-csv "^mdremap: error: --csv: cannot write output '/nonexistent-dir/x\.csv'" -- compare "$work/ok.yaml" --csv /nonexistent-dir/x.csv
expect_input_error f6-compare-bad-plot "^mdremap: error: --plot: cannot write output" -- compare "$work/ok.yaml" --plot /nonexistent-dir/x.png
expect_input_error f6-info-bad-summary "^mdremap: error: --summary: cannot write output '/nonexistent-dir/i\.json'" -- info --summary /nonexistent-dir/i.json
mkdir -p "$work/ckdir"
expect_input_error f6-restart-from-directory "ckdir: checkpoint path is not a regular file" -- md "$work/ok.yaml" --restart "$work/ckdir"
"$bin" --help >"$work/out" 2>&1
check f6-help-exits-0 test $? -eq 0

# A partial file left by a killed write is cleaned up at the next start, with a note.
"$bin" md "$work/ok.yaml" -q --steps 10 --set restart.file="$work/k.h5" >/dev/null 2>&1
head -c 1000 "$work/k.h5" >"$work/k.h5.partial"
"$bin" md "$work/ok.yaml" -q --steps 10 --restart "$work/k.h5" >"$work/out" 2>"$work/err"
check f7-restart-cleans-partial test $? -eq 0 -a ! -e "$work/k.h5.partial"
check f7-restart-says-so grep -q "note: removed '.*k\.h5\.partial', left by a run that stopped while writing" "$work/err"
head -c 1000 "$work/k.h5" >"$work/k.h5.partial"
"$bin" md "$work/ok.yaml" -q --steps 10 --set restart.file="$work/k.h5" >"$work/out" 2>"$work/err"
check f7-writer-replaces-partial test $? -eq 0 -a ! -e "$work/k.h5.partial"
check f7-writer-says-so grep -q "note: replacing '.*k\.h5\.partial', left by an earlier run" "$work/err"

# A restart is bit-identical to the uninterrupted run whatever thermo and trajectory intervals
# either uses (they change which steps compute energies and fuse kicks).
nve=(--set restart.every=20 --precision single)
"$bin" md "$work/ok.yaml" -q "${nve[@]}" --steps 40 --set run.thermo=10 --set restart.file="$work/w8.h5" --thermo-csv "$work/w8.csv" >/dev/null 2>&1
"$bin" md "$work/ok.yaml" -q "${nve[@]}" --steps 20 --set run.thermo=0 --set restart.file="$work/h8.h5" >/dev/null 2>&1
"$bin" md "$work/ok.yaml" -q --steps 20 --precision single --restart "$work/h8.h5" --set run.thermo=7 --set output.h5md.file="$work/h8.h5md" --set output.h5md.every=3 --thermo-csv "$work/r8.csv" >/dev/null 2>&1
check f8-restart-independent-of-intervals test "$(tail -1 "$work/w8.csv")" = "$(tail -1 "$work/r8.csv")"
check f8-at-step-40 test "$(tail -1 "$work/r8.csv" | cut -d, -f1)" = 40

# The run in one go writes no checkpoint at step 20, the list rebuilt on displacement (the
# defaults): the checkpoint keeps the list's build, the restart builds that list again.
"$bin" md "$work/ok.yaml" -q --steps 40 --set run.thermo=10 --thermo-csv "$work/w9.csv" >/dev/null 2>&1
"$bin" md "$work/ok.yaml" -q --steps 20 --set restart.file="$work/h9.h5" >/dev/null 2>&1
"$bin" md "$work/ok.yaml" -q --steps 20 --restart "$work/h9.h5" --thermo-csv "$work/r9.csv" >"$work/out" 2>"$work/err"
check f9-restart-equals-one-go test "$(tail -1 "$work/w9.csv")" = "$(tail -1 "$work/r9.csv")"
check f9-no-old-checkpoint-note test ! -s "$work/err"
# A checkpoint written before the list's build was kept restarts, with a note.
legacy=(--set integrator.style=nose-hoover --set integrator.temperature=1.0 --set integrator.chain=2)
"$bin" md "$src/tests/md/data/legacy_restart.yaml" -q --steps 2 "${legacy[@]}" \
  --restart "$src/tests/md/data/legacy_nose_hoover.h5" >"$work/out" 2>"$work/err"
check f9-old-checkpoint-restarts test $? -eq 0
check f9-old-checkpoint-note grep -q "note: .*legacy_nose_hoover\.h5 holds no neighbor-list build" "$work/err"
# compute: bad keys and values are deck errors with the line (exit 2, before any step); its files
# are outputs like the others; a run writes them.
cat >"$work/compute.yaml" <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
run: {steps: 20, thermo: 10, thermo_columns: [msd]}
compute:
  rdf: {bins: 40, r_max: 2.8, every: 5, file: rdf.csv}
  msd: {every: 10, file: msd.csv}
YAML
cp "$work/compute.yaml" "$work/compute-bad.yaml"
sed -i 's/bins: 40/bins: 0/' "$work/compute-bad.yaml"
expect_input_error c1-bins "compute-bad\.yaml:5: 'compute\.rdf\.bins': must be at least 1, got 0" -- md "$work/compute-bad.yaml"
cp "$work/compute.yaml" "$work/compute-bad.yaml"
sed -i 's/every: 10/every: 0/' "$work/compute-bad.yaml"
expect_input_error c1-every "compute-bad\.yaml:6: 'compute\.msd\.every': must be at least 1, got 0" -- md "$work/compute-bad.yaml"
cp "$work/compute.yaml" "$work/compute-bad.yaml"
sed -i 's/r_max: 2.8/r_mx: 2.8/' "$work/compute-bad.yaml"
expect_input_error c1-unknown "compute-bad\.yaml:5: unknown key 'compute\.rdf\.r_mx' \(did you mean 'compute\.rdf\.r_max'\?\)" -- md "$work/compute-bad.yaml"
expect_input_error c1-r-max-half-box "--set compute\.rdf\.r_max: 6 is more than half the shortest box edge" -- md "$work/compute.yaml" --set compute.rdf.r_max=6
expect_input_error c1-file-over-csv "compute\.rdf\.file: .* is the same file as output\.thermo_csv" -- md "$work/compute.yaml" --thermo-csv "$work/t.csv" --set compute.rdf.file="$work/t.csv"
expect_input_error c1-file-over-deck "compute\.msd\.file: .*compute\.yaml' is the same file as the deck" -- md "$work/compute.yaml" --set compute.msd.file="$work/compute.yaml"
(cd "$work" && "$bin" md compute.yaml -q --log none >out 2>err)
check c2-run-writes-files test $? -eq 0 -a "$(wc -l <"$work/rdf.csv")" -eq 41 -a "$(wc -l <"$work/msd.csv")" -eq 4
check c2-files-complete test ! -e "$work/rdf.csv.partial" -a ! -e "$work/msd.csv.partial"
check c2-headers test "$(head -1 "$work/rdf.csv")" = "r,g,coord" -a "$(head -1 "$work/msd.csv")" = "step,time,msd,msd_x,msd_y,msd_z"

if "$bin" info --summary "$work/info.json" >/dev/null && grep -q '"backend"' "$work/info.json"; then
  pass=$((pass + 1))
else
  echo "FAIL info"
  fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
