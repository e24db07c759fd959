#!/usr/bin/env bash
# `system.file` from the command line: the shipped LAMMPS data deck equals LAMMPS' thermo, each
# format starts a run, a file that contradicts the deck is refused with its line (exit 2, one
# line, nothing run), and a run started from its own H5MD frame continues as the original did.
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
    cat "$work/out" "$work/err" 2>/dev/null | head -20
    fail=$((fail + 1))
  fi
}

# expect_input_error NAME REGEX -- ARGS...: exit 2, one stderr line matching REGEX, no stdout.
expect_input_error() {
  local name=$1 regex=$2
  shift 3
  (cd "$work" && "$bin" "$@" >"$work/out" 2>"$work/err")
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

# The shipped deck, from the repository root as its comment says: LAMMPS' thermo at 0, 50, 100.
(cd "$src" && "$bin" md inputs/lj_data.yaml) >"$work/out" 2>"$work/err"
check shipped-deck-runs test $? -eq 0
check shipped-step-0 grep -Eq '^ +0 +1\.44 +-6\.7733681 +2\.15568 +-4\.6176881 +-5\.0221006$' "$work/out"
check shipped-step-50 grep -Eq '^ +50 +0\.708222 +-5\.6850085 +1\.0602083 +-4\.6248002 +0\.53403596$' "$work/out"
check shipped-step-100 grep -Eq '^ +100 +0\.7535846 +-5\.756435 +1\.1281162 +-4\.6283188 +0\.1785402$' "$work/out"
check shipped-says-where grep -q '^# system from inputs/lj_binary.data (LAMMPS data, step 0): 500 atoms of 2 types' "$work/out"

cp "$src/inputs/lj_binary.data" "$src/inputs/lj_fcc.xyz" "$work/"
cat >"$work/base.yaml" <<'YAML'
system:
  file: lj_binary.data
  types: [{name: A}, {name: B}]
run: {steps: 10, thermo: 10}
YAML
cat >"$work/xyz.yaml" <<'YAML'
system: {file: lj_fcc.xyz}
run: {steps: 10, thermo: 10}
YAML

# Each format starts a run: XYZ (its species names become the types), and this program's GSD
# and H5MD outputs read back as systems (the frame's step is the run's first).
(cd "$work" && "$bin" md xyz.yaml --set output.gsd.file=x.gsd --set output.gsd.every=5 \
  --set output.h5md.file=x.h5md --set output.h5md.every=5 \
  --set 'output.h5md.fields=[position, velocity, species, id, image]') >"$work/out" 2>"$work/err"
check xyz-runs test $? -eq 0
check xyz-header grep -q '^# system from lj_fcc.xyz (extended XYZ, step 0): 256 atoms of 1 type' "$work/out"
(cd "$work" && "$bin" md xyz.yaml --set system.file=x.gsd --set system.frame=1 -q) >"$work/out" 2>"$work/err"
check gsd-frame-runs test $? -eq 0
(cd "$work" && "$bin" md xyz.yaml --set system.file=x.gsd) >"$work/out" 2>"$work/err"
check gsd-last-frame grep -q '^# system from x.gsd (GSD, frame 2 of 3, step 10): 256 atoms of 1 type' "$work/out"
(cd "$work" && "$bin" md xyz.yaml --set system.file=x.h5md) >"$work/out" 2>"$work/err"
check h5md-last-frame grep -q '^# system from x.h5md (H5MD, frame 2 of 3, step 10): 256 atoms of 1 type, .* velocities from the file, image counts from the file' "$work/out"
check h5md-continues-at-10 grep -Eq '^ +20 ' "$work/out"

# Refusals: the file's line (or dataset) and the problem, before anything runs.
sed 's/^2 2$/2 3/' "$work/lj_binary.data" >"$work/mass3.data"
expect_input_error deck-mass-differs "mass3\.data:13: mass 3 of type 2 differs from system\.types\[B\]\.mass = 2" -- \
  md base.yaml --set system.file=mass3.data --set 'system.types=[{name: A}, {name: B, mass: 2}]'
expect_input_error type-not-in-deck "lj_binary\.data:[0-9]+: type 2 has no system\.types entry \(the deck defines 1: A" -- \
  md base.yaml --set 'system.types=[{name: A}]'
expect_input_error xyz-name-not-in-deck "lj_fcc\.xyz:3: type 'Ar' is not in system\.types \(A, B\)" -- \
  md xyz.yaml --set 'system.types=[{name: A}, {name: B}]'
awk 'NR==1{print; next} /xlo xhi/{print "0 5.5 xlo xhi"; next} {print}' "$work/lj_binary.data" >"$work/small.data"
expect_input_error box-too-small "small\.data:6: box length 5\.5 along x is smaller than 2\*\(cutoff\+skin\) = 5\.6" -- \
  md base.yaml --set system.file=small.data
awk 'NR==3{print "A nan 0 0 1.0"; next} {print}' "$work/lj_fcc.xyz" >"$work/nan.xyz"
expect_input_error xyz-nan "nan\.xyz:3: x: 'nan' is not a finite number" -- md xyz.yaml --set system.file=nan.xyz
sed '2s/pbc="T T T"/pbc="F T T"/' "$work/lj_fcc.xyz" | awk 'NR==5{print "Ar 7.5 0 0 1.0"; next} {print}' >"$work/wall.xyz"
expect_input_error outside-wall "wall\.xyz:5: position x = 7\.5 lies outside the box \[0, 6\.7[0-9]*\], which is not periodic along x" -- \
  md xyz.yaml --set system.file=wall.xyz
expect_input_error lattice-and-file "'system\.file': give one of 'lattice', 'random' or 'file', not 'lattice' as well" -- \
  md base.yaml --set 'system.lattice={style: fcc}'
expect_input_error fraction-with-file "'system\.types\.fraction'|fraction.*applies to lattices and random gases" -- \
  md base.yaml --set 'system.types=[{name: A, fraction: 0.5}, {name: B, fraction: 0.5}]'
expect_input_error temperature-and-file-velocities "velocity\.temperature.*the velocities come from lj_binary\.data" -- \
  md base.yaml --set velocity.temperature=2
expect_input_error no-velocities-in-file "system\.velocities.*lj_fcc\.xyz \(extended XYZ\) holds no velocities" -- \
  md xyz.yaml --set system.velocities=file
expect_input_error frame-out-of-range "x\.gsd: system\.frame 7 is not a frame of this file: it holds 3 GSD frames" -- \
  md xyz.yaml --set system.file=x.gsd --set system.frame=7
expect_input_error missing-file "nope\.data: system file not found" -- md base.yaml --set system.file=nope.data
expect_input_error file-is-an-output "system\.file" -- md base.yaml --set output.h5md.file=lj_binary.data
printf 'title\n2 atoms\n1 atom types\n0 9 xlo xhi\n0 9 ylo yhi\n0 9 zlo zhi\n\nAtoms\n\n1 1 0 0 0\n2 1 1 1\n' >"$work/short.data"
expect_input_error short-atom-line "short\.data:11: Atoms \(atomic\): expected 'id type x y z'" -- \
  md base.yaml --set system.file=short.data --set 'system.types=[{name: A}]'

# A run started from its own H5MD frame (positions and velocities in double) goes on as the
# original did: with the forces independent of the atom order (row_order id, full list) and
# the atoms in id order (sort none), every thermo value of every later step is the same.
cat >"$work/orig.yaml" <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [5, 5, 5]}
neighbor: {row_order: id, list: full, sort: none}
run: {steps: 60, thermo: 5}
output:
  h5md: {file: orig.h5md, every: 30, fields: [position, velocity, species, id, image]}
YAML
(cd "$work" && "$bin" md orig.yaml -q --thermo-csv orig.csv) >"$work/out" 2>"$work/err"
check original-runs test $? -eq 0
sed -e 's/lattice: {style: fcc, density: 0.8442, cells: \[5, 5, 5\]}/{file: orig.h5md, frame: 1}/' \
  -e 's/^system:$//' -e 's/^  {file/system: {file/' -e 's/orig\.h5md, every/cont.h5md, every/' \
  "$work/orig.yaml" >"$work/cont.yaml"
(cd "$work" && "$bin" md cont.yaml -q --steps 30 --thermo-csv cont.csv) >"$work/out" 2>"$work/err"
check continued-runs test $? -eq 0
check continued-starts-at-30 test "$(sed -n 2p "$work/cont.csv" | cut -d, -f1)" = 30
check continued-bit-identical cmp -s <(awk -F, 'NR > 1 && $1 >= 30' "$work/orig.csv") <(tail -n +2 "$work/cont.csv")

echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
