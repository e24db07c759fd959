#!/usr/bin/env bash
# Hardening of every command's outputs and inputs, one case per ctest entry:
#
#   test_hardening.sh MDREMAP SOURCE_DIR CASE
#
# full-disk-checkpoint  a checkpoint whose writes fail (MDREMAP_FAIL_WRITE_AFTER; and a full
#                       tmpfs where the test may mount one) exits 1 and keeps the previous one
# full-disk-h5md        a trajectory on a full tmpfs: exit 1 with one error line, no crash
# continued-run         --restart with the same output names continues the H5MD trajectory and
#                       the thermo CSV, and writes the checkpoint back over the one it read
# staging-name          an output that is another run's (or an interrupted run's) PATH.partial
# cg-sp-outputs         cg and sp outputs never overwrite their inputs or each other
# special-files         devices, pipes and symbolic links are written through, never replaced
# paths-are-strings     cg --matrix/--rhs paths are not parsed as YAML
# cg-true-residual      an unreachable tolerance is refused, a barely reachable one reported
# declared-sizes        huge declared sizes are refused before any allocation
# compare-plot          --plot with a quote in its name; the header line is not data
# messages              flags named as themselves, a directory given as a matrix
# md-messages           md's refusals name the key and the real cause (padding, empty H5MD fields,
#                       a small box, under/overflow, a device, overlapping atoms, a duplicate
#                       pair, huge or control-byte values, deck keys a restart ignores)
# A case that needs what this machine lacks (gnuplot, a tmpfs mount) exits 77 (skipped).
set -u
bin=$1
src=$2
case=$3
work=$(mktemp -d)
mnt=""
cleanup() {
  [[ -n $mnt ]] && umount "$mnt" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work" || exit 1
fail=0
pass=0
# Debian's interpreter: a pyenv shim on PATH may lack the Debian modules (h5py).
py=/usr/bin/python3
[[ -x $py ]] || py=python3
ok() {
  pass=$((pass + 1))
}
bad() {
  echo "FAIL $*"
  fail=$((fail + 1))
}
# check NAME COMMAND...: passes when COMMAND succeeds.
check() {
  local name=$1
  shift
  if "$@"; then ok; else bad "$name"; fi
}
# expect NAME RC REGEX -- ARGS...: exit RC, exactly one stderr line, matching REGEX.
expect() {
  local name=$1 want=$2 regex=$3
  shift 4
  "$bin" "$@" >out.txt 2>err.txt
  local rc=$?
  if [[ $rc -eq $want && $(wc -l <err.txt) -eq 1 ]] && grep -Eq -- "$regex" err.txt; then
    ok
  else
    bad "$name: exit $rc (want $want), stderr:"
    head -c 2000 err.txt
  fi
}
# tmpfs KIB: a small tmpfs at ./disk (root only); returns 1 where none can be mounted.
tmpfs() {
  mkdir -p disk
  mount -t tmpfs -o "size=${1}k" tmpfs disk 2>/dev/null || return 1
  mnt=$PWD/disk
}
# fill DIR KIB: leaves about KIB KiB free on DIR's file system.
fill() {
  local free
  free=$(df -k --output=avail "$1" | tail -1)
  if ((free > $2)); then
    dd if=/dev/zero of="$1/filler" bs=1k count=$((free - $2)) status=none 2>/dev/null
  fi
}

cat >ok.yaml <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
run: {steps: 20, thermo: 10}
YAML

case $case in
full-disk-checkpoint)
  "$bin" md ok.yaml -q --set restart.file=ck.h5 >/dev/null 2>&1
  cp ck.h5 ck-before.h5
  # Every write fails (the first N succeed; N = 0): exit 1, the old checkpoint kept, no .partial.
  MDREMAP_FAIL_WRITE_AFTER=0 "$bin" md ok.yaml -q --steps 10 --set restart.file=ck.h5 >out.txt 2>err.txt
  rc=$?
  check "injected: exit 1 (got $rc: $(head -1 err.txt))" test $rc -eq 1
  check "injected: message names the checkpoint and the disk" grep -q "checkpoint 'ck.h5'.*disk is full" err.txt
  check "injected: old checkpoint kept" cmp -s ck.h5 ck-before.h5
  check "injected: no partial file left" test ! -e ck.h5.partial
  "$bin" md ok.yaml -q --steps 5 --restart ck.h5 >/dev/null 2>err.txt
  check "injected: kept checkpoint restarts ($(head -1 err.txt))" test $? -eq 0
  if tmpfs 1024; then
    "$bin" md ok.yaml -q --set restart.file=disk/ck.h5 >/dev/null 2>&1
    cp disk/ck.h5 ck-good.h5
    fill disk 40
    "$bin" md ok.yaml -q --steps 10 --set restart.file=disk/ck.h5 >out.txt 2>err.txt
    rc=$?
    check "tmpfs: exit 1 (got $rc: $(head -1 err.txt))" test $rc -eq 1
    check "tmpfs: one error line" test "$(wc -l <err.txt)" -eq 1
    check "tmpfs: old checkpoint kept" cmp -s disk/ck.h5 ck-good.h5
    rm -f disk/filler
    "$bin" md ok.yaml -q --steps 5 --restart disk/ck.h5 >/dev/null 2>err.txt
    check "tmpfs: kept checkpoint restarts ($(head -1 err.txt))" test $? -eq 0
  else
    echo "note: no tmpfs mount here (not root?): the full-disk case ran with fault injection only"
  fi
  ;;
full-disk-h5md)
  tmpfs 1024 || {
    echo "skipped: needs a tmpfs mount (root)"
    exit 77
  }
  # 60 KiB free: the first flush fails (HDF5's exit handler crashed on that file, SIGSEGV);
  # 200 KiB: a later one.
  for free in 60 200; do
    rm -f disk/*
    fill disk $free
    "$bin" md ok.yaml -q --steps 200 --set output.h5md.file=disk/t.h5 --set output.h5md.every=1 \
      --set 'output.h5md.fields=[position, velocity, force]' >out.txt 2>err.txt
    rc=$?
    check "$free KiB free: exit 1, no crash (got $rc: $(head -1 err.txt))" test $rc -eq 1
    check "$free KiB free: one error line" test "$(wc -l <err.txt)" -eq 1
    check "$free KiB free: the error names the file" grep -q "disk/t.h5" err.txt
    check "$free KiB free: no complete file" test ! -e disk/t.h5
  done
  ;;
continued-run)
  # Checkpoints every 10 steps in every run (a checkpoint step rebuilds the lists, so the runs
  # compared must share them).
  lang=(--set integrator.style=langevin --set integrator.temperature=1.0 --set run.thermo=5
    --set restart.every=10)
  out=(--set output.h5md.file=t.h5 --set output.h5md.every=5 --thermo-csv t.csv --set restart.file=ck.h5)
  # The whole run in one go: the reference.
  "$bin" md ok.yaml -q "${lang[@]}" --steps 40 --set output.h5md.file=whole.h5 \
    --set output.h5md.every=5 --thermo-csv whole.csv --set restart.file=whole-ck.h5 >/dev/null 2>&1
  # Interrupted: 20 steps with checkpoints at 10 and 20.
  "$bin" md ok.yaml -q "${lang[@]}" --steps 20 "${out[@]}" >/dev/null 2>&1
  # What a run killed after step 20 leaves: its files still staged, the checkpoint at step 20.
  mv t.h5 t.h5.partial
  mv t.csv t.csv.partial
  # Continued from step 20: the file's frame and the CSV's row at step 20 are written again.
  "$bin" md ok.yaml -q "${lang[@]}" --steps 20 --restart ck.h5 "${out[@]}" >out.txt 2>err.txt
  rc=$?
  check "continued run exits 0 (got $rc: $(head -3 err.txt))" test $rc -eq 0
  check "note: continuing the interrupted file" grep -q "continuing 't.h5.partial'" err.txt
  check "no partial left" test ! -e t.h5.partial -a ! -e t.csv.partial -a ! -e ck.h5.partial
  check "CSV: the same rows as the run in one go" cmp -s t.csv whole.csv
  check "checkpoint written back at step 40" "$bin" md ok.yaml -q --steps 0 --restart ck.h5 --thermo-csv at40.csv
  check "checkpoint step" test "$(sed -n 2p at40.csv | cut -d, -f1)" = 40
  if $py -c 'import h5py' 2>/dev/null; then
    $py - t.h5 whole.h5 >py.txt 2>&1 <<'PY'
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
for k in ["particles/all/position/value", "particles/all/box/edges/step",
          "observables/total_energy/value", "observables/total_energy/step"]:
    assert a[k].shape == b[k].shape, (k, a[k].shape, b[k].shape)
    assert np.array_equal(a[k][()], b[k][()]), k
assert int(a["parameters"].attrs["mdremap_complete"]) == 1
print("same", a["particles/all/box/edges/step"][()].tolist())
PY
    check "H5MD: the same frames as the run in one go ($(tail -1 py.txt))" grep -q "^same" py.txt
  else
    [[ ${CI:-} == true ]] && bad "h5py missing (apt-get install python3-h5py)"
    echo "note: h5py missing: the trajectory's frames were not compared"
  fi
  # A complete trajectory is continued too (a chain of jobs); frames after the checkpoint go.
  "$bin" md ok.yaml -q "${lang[@]}" --steps 20 --restart ck.h5 "${out[@]}" >/dev/null 2>err.txt
  check "second continuation exits 0 ($(head -1 err.txt))" test $? -eq 0
  check "CSV ends at 60" test "$(tail -1 t.csv | cut -d, -f1)" = 60
  check "CSV rows unique" test "$(cut -d, -f1 t.csv | sort | uniq -d | wc -l)" -eq 0
  # Other fields than the file holds: refused, the file kept.
  cp t.h5 t-keep.h5
  expect "continue with other fields" 2 "output\.h5md\.file.*cannot continue this trajectory.*velocity" -- \
    md ok.yaml -q --steps 5 --restart ck.h5 --set output.h5md.file=t.h5 --set 'output.h5md.fields=[position, velocity]'
  check "refused continuation keeps the file" cmp -s t.h5 t-keep.h5
  ;;
staging-name)
  "$bin" md ok.yaml -q --steps 20000 --set run.thermo=0 --set output.h5md.file=t.h5 --set output.h5md.every=500 >/dev/null 2>&1 &
  run1=$!
  for _ in $(seq 1 600); do [[ -s t.h5.partial ]] && break; sleep 0.1; done
  expect "csv into a running run's partial" 2 "output\.thermo_csv: 't\.h5\.partial' is being written by another run" -- \
    md ok.yaml -q --steps 5 --thermo-csv t.h5.partial
  expect "summary into a running run's partial" 2 "--summary: 't\.h5\.partial' is being written by another run" -- \
    md ok.yaml -q --steps 5 --summary t.h5.partial
  expect "cg summary into a running run's partial" 2 "--summary: 't\.h5\.partial' is being written by another run" -- \
    cg "$src/inputs/cg_laplace3d.yaml" -q --summary t.h5.partial
  wait $run1
  check "the first run's trajectory is HDF5" test "$(head -c 4 t.h5 | od -An -c | tr -d ' ')" = '211HDF'
  echo "left by a stopped run" >u.h5.partial
  expect "an interrupted run's partial" 2 "output\.thermo_csv: 'u\.h5\.partial' ends in '\.partial'" -- \
    md ok.yaml -q --steps 5 --thermo-csv u.h5.partial
  check "the interrupted run's file kept" grep -q "left by a stopped run" u.h5.partial
  ;;
cg-sp-outputs)
  cp "$src/inputs/cg_laplace3d.yaml" cg.yaml
  cp "$src/inputs/sp_random3sat.yaml" sp.yaml
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 4\n2 1 1\n2 2 3\n' >A.mtx
  printf '%%%%MatrixMarket matrix array real general\n2 1\n1\n2\n' >b.mtx
  printf 'p cnf 3 2\n1 -2 0\n2 3 0\n' >f.cnf
  for f in cg.yaml sp.yaml A.mtx b.mtx f.cnf; do cp "$f" "$f.orig"; done
  expect "cg --summary DECK" 2 "--summary: 'cg\.yaml' is the same file as the deck" -- cg cg.yaml --summary cg.yaml
  expect "cg --write-matrix DECK" 2 "--write-matrix: 'cg\.yaml' is the same file as the deck" -- cg cg.yaml --write-matrix cg.yaml
  expect "cg --summary A.mtx" 2 "--summary: 'A\.mtx' is the same file as --matrix" -- cg cg.yaml --matrix A.mtx --summary A.mtx
  expect "cg --write-matrix A.mtx" 2 "--write-matrix: 'A\.mtx' is the same file as --matrix" -- cg cg.yaml --matrix A.mtx --write-matrix A.mtx
  expect "cg --write-matrix b.mtx" 2 "--write-matrix: 'b\.mtx' is the same file as --rhs" -- cg cg.yaml --matrix A.mtx --rhs b.mtx --write-matrix b.mtx
  expect "cg two outputs" 2 "--write-matrix: 'x\.out' is the same file as --summary" -- cg cg.yaml --summary x.out --write-matrix x.out
  expect "sp --assignment-out CNF" 2 "--assignment-out: 'f\.cnf' is the same file as --cnf" -- sp sp.yaml --cnf f.cnf --assignment-out f.cnf
  expect "sp --summary DECK" 2 "--summary: 'sp\.yaml' is the same file as the deck" -- sp sp.yaml --summary sp.yaml
  expect "sp --write-cnf CNF" 2 "--write-cnf: 'f\.cnf' is the same file as --cnf" -- sp sp.yaml --cnf f.cnf --write-cnf f.cnf
  for f in cg.yaml sp.yaml A.mtx b.mtx f.cnf; do check "$f untouched" cmp -s "$f" "$f.orig"; done
  ;;
special-files)
  printf 'p cnf 3 2\n1 -2 0\n2 3 0\n' >f.cnf
  echo "not ours" >keep.mtx.tmp
  "$bin" cg "$src/inputs/cg_laplace3d.yaml" -q --write-matrix keep.mtx >/dev/null 2>&1
  check "cg: an unrelated keep.mtx.tmp survives" grep -q "not ours" keep.mtx.tmp
  check "cg: keep.mtx written" grep -q "MatrixMarket" keep.mtx
  mkfifo out.fifo
  timeout 60 cat out.fifo >fifo.got &
  reader=$!
  timeout 60 "$bin" sp "$src/inputs/sp_random3sat.yaml" --cnf f.cnf -q --assignment-out out.fifo >/dev/null 2>err.txt
  rc=$?
  wait $reader
  check "sp: a FIFO output is written through (exit $rc: $(head -1 err.txt))" test $rc -eq 10 -a -p out.fifo
  check "sp: the FIFO's reader got the assignment" grep -q "^s SATISFIABLE" fifo.got
  "$bin" sp "$src/inputs/sp_random3sat.yaml" --cnf f.cnf -q --assignment-out /dev/stdout >stdout.got 2>err.txt
  check "sp: /dev/stdout reaches stdout" grep -q "^s SATISFIABLE" stdout.got
  check "sp: /dev/stdout still a link" test -L /dev/stdout
  echo old >target.txt
  ln -s target.txt link.txt
  "$bin" sp "$src/inputs/sp_random3sat.yaml" --cnf f.cnf -q --assignment-out link.txt >/dev/null 2>&1
  check "sp: a symlinked output stays a link" test -L link.txt
  check "sp: its target holds the assignment" grep -q "^s SATISFIABLE" target.txt
  ln -s made.csv dangling.csv
  "$bin" md ok.yaml -q --steps 5 --thermo-csv dangling.csv >/dev/null 2>&1
  check "md: a dangling link creates its target" test -L dangling.csv -a -s made.csv
  ;;
paths-are-strings)
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n1 1 4\n2 1 1\n2 2 3\n' >'good #x.mtx'
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n1 1 1\n1 1 4\n' >good
  "$bin" cg "$src/inputs/cg_laplace3d.yaml" -q --matrix 'good #x.mtx' >out.txt 2>err.txt
  check "a '#' in the path names that file ($(head -1 out.txt))" grep -q "^cg: 2 rows" out.txt
  cp 'good #x.mtx' 'a: b.mtx'
  cp 'good #x.mtx' '[x].mtx'
  "$bin" cg "$src/inputs/cg_laplace3d.yaml" -q --matrix 'a: b.mtx' >out.txt 2>err.txt
  check "'a: b.mtx' is a path ($(head -1 err.txt))" grep -q "^cg: 2 rows" out.txt
  "$bin" cg "$src/inputs/cg_laplace3d.yaml" -q --matrix '[x].mtx' >out.txt 2>err.txt
  check "'[x].mtx' is a path ($(head -1 err.txt))" grep -q "^cg: 2 rows" out.txt
  expect "a missing path names the flag" 2 "nope #1\.mtx" -- cg "$src/inputs/cg_laplace3d.yaml" --matrix 'nope #1.mtx'
  ;;
cg-true-residual)
  expect "unreachable tolerance refused" 2 "--set solver\.tolerance: .*below double precision" -- \
    cg "$src/inputs/cg_laplace3d.yaml" -q --set solver.tolerance=1e-300
  "$bin" cg "$src/inputs/cg_laplace3d.yaml" -q --set solver.tolerance=2.3e-16 >out.txt 2>err.txt
  rc=$?
  check "a tolerance the true residual does not reach: exit 3 (got $rc)" test $rc -eq 3
  check "reported not converged ($(head -1 err.txt))" grep -q "did not converge: the true residual" err.txt
  "$bin" cg "$src/inputs/cg_laplace3d.yaml" -q >out.txt 2>err.txt
  check "the default tolerance converges (exit $?)" grep -q " converged," out.txt
  ;;
declared-sizes)
  printf '%%%%MatrixMarket matrix coordinate real symmetric\n2000000000 2000000000 3\n1 1 4\n2 1 1\n2 2 3\n' >huge.mtx
  ( ulimit -v 4000000; "$bin" cg "$src/inputs/cg_laplace3d.yaml" -q --matrix huge.mtx >out.txt 2>err.txt; echo $? >rc.txt )
  check "matrix: exit 2 (got $(cat rc.txt): $(head -1 err.txt))" test "$(cat rc.txt)" -eq 2
  check "matrix: the size line named" grep -q "huge\.mtx:2: row 3 has no diagonal entry: the matrix declares 2000000000 rows" err.txt
  printf 'p cnf 2000000000 1\n1 -2 0\n' >huge.cnf
  ( ulimit -v 4000000; "$bin" sp "$src/inputs/sp_random3sat.yaml" -q --cnf huge.cnf >out.txt 2>err.txt; echo $? >rc.txt )
  check "cnf: exit 2 (got $(cat rc.txt): $(head -1 err.txt))" test "$(cat rc.txt)" -eq 2
  check "cnf: the header line named" grep -q "huge\.cnf:1: the header declares 2000000000 variables" err.txt
  ;;
compare-plot)
  command -v gnuplot >/dev/null || {
    echo "skipped: gnuplot missing (apt-get install gnuplot-nox)"
    exit 77
  }
  "$bin" compare ok.yaml -q --steps 5 --rounds 1 --repeats 1 --modes gather --plot "it's.png" >out.txt 2>err.txt
  rc=$?
  check "a quote in the name: exit 0 (got $rc: $(head -1 err.txt))" test $rc -eq 0
  check "the PNG is written" test "$(head -c 4 "it's.png" | od -An -c | tr -d ' ')" = '211PNG'
  check "no stray files" test "$(ls | grep -cv -e '^ok.yaml$' -e "^it's.png$" -e '^out.txt$' -e '^err.txt$' -e '^log.mdremap$')" -eq 0
  check "no warning about the header line" test ! -s err.txt
  "$bin" compare ok.yaml -q --steps 5 --rounds 1 --repeats 1 --modes gather --plot 'x$(touch pwned).png' >/dev/null 2>&1
  check "no shell: nothing run from the name" test ! -e pwned
  ;;
messages)
  expect "cg --spmv named as the flag" 2 "^mdremap: error: --spmv: " -- cg "$src/inputs/cg_laplace3d.yaml" --spmv bogus
  expect "cg --matrix . is a directory" 2 "is a directory" -- cg "$src/inputs/cg_laplace3d.yaml" --matrix .
  ;;
md-messages)
  # Refused before the first step: bad input, exit 2, the key named.
  expect "padding refused up front" 2 "--remap: 'padding' does not apply: .*reference patterns" -- \
    md ok.yaml --remap padding -q
  expect "no H5MD fields" 2 "output\.h5md\.fields: selects no trajectory field" -- \
    md ok.yaml --set 'output.h5md.fields=[]' --set output.h5md.file=t.h5 -q
  expect "box shorter than cutoff+skin" 2 "box length 1\.6796 along x .* the box is too small for cutoff\+skin" -- \
    md ok.yaml --set 'system.lattice.cells=[1,1,1]' -q
  expect "thin box" 2 "along z .* the box is too small for cutoff\+skin" -- \
    md ok.yaml --set 'system.lattice.cells=[6,6,1]' -q
  expect "underflow" 2 "'-1e-330' underflows to 0" -- md ok.yaml --set system.lattice.density=-1e-330 -q
  expect "overflow" 2 "'1e400' overflows" -- md ok.yaml --set system.lattice.density=1e400 -q
  # An H5MD file on a character device: what is wrong with it, not its directory.
  expect "H5MD on a device" 1 "'/dev/full': cannot create the file: it is a character device" -- \
    md ok.yaml --set output.h5md.file=/dev/full -q
  # A random gas without a minimum distance blows up: the message names min_distance.
  cat >gas.yaml <<'YAML'
system:
  random: {atoms: 4000, density: 0.8442, min_distance: 0, seed: 1}
run: {steps: 100, thermo: 10}
YAML
  expect "overlapping random gas" 1 "placed with system\.random\.min_distance 0; set min_distance: 0\.8 or minimise" -- \
    md gas.yaml -q
  # Each type pair once.
  cat >pairs.yaml <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
  types:
    - {name: A, fraction: 0.5}
    - {name: B, fraction: 0.5}
potential:
  pairs:
    - {types: [A, B], epsilon: 1.5}
    - {types: [B, A], epsilon: 0.5}
run: {steps: 10}
YAML
  expect "duplicate pair" 2 "pairs\.yaml:9: 'potential\.pairs\[1\]\.types': the pair B A is given twice: potential\.pairs\[0\] \(line 8\)" -- \
    md pairs.yaml -q
  # A 10 MB value is cut, control bytes escaped: one short line.
  $py -c "
open('big.yaml', 'w').write('system:\\n  lattice: {style: ' + 'x' * 10_000_000 + ', density: 0.8442}\\n')
open('ctl.yaml', 'w').write('system:\\n  lattice: {style: \"fc\\\\x1b[31mc\\\\x07\", density: 0.8442}\\n')"
  expect "10 MB value" 2 "unknown value 'x{80}\.\.\.' \(one of: fcc bcc sc\)" -- md big.yaml -q
  check "10 MB value: a short line" test "$(wc -c <err.txt)" -lt 400
  expect "control bytes" 2 "unknown value 'fc\\\\x1b\[31mc\\\\x07'" -- md ctl.yaml -q
  check "control bytes: none printed" $py -c "import sys; sys.exit(any(b < 32 and b != 10 for b in open('err.txt', 'rb').read()))"
  # A restart names the deck values its checkpoint replaces, and the log's resolved deck says so.
  "$bin" md ok.yaml --set restart.file=ck.h5 -q >/dev/null 2>&1 || bad "restart: first run"
  "$bin" md ok.yaml --restart ck.h5 --set system.lattice.density=0.9 --set velocity.temperature=2 \
    -q --log run.log >out.txt 2>err.txt || bad "restart: exit $?"
  check "restart: the ignored density named" grep -q "note: ck.h5 sets the atoms, box and velocities: these deck values are not used on this restart: system.lattice.density 0.9 (the checkpoint's run: 0.8442); velocity.temperature 2 (the checkpoint's run: " err.txt
  check "restart: the log's deck says so" grep -q "# on this restart system.lattice, .* and velocity come from ck.h5, not from the deck above" run.log
  "$bin" md ok.yaml --restart ck.h5 -q >out.txt 2>err.txt || bad "restart with the same deck"
  if grep -q "not used on this restart" err.txt; then bad "restart with the same deck: a note"; fi
  ;;
*)
  echo "unknown case '$case'"
  exit 2
  ;;
esac
echo "$case: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
