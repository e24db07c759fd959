#!/usr/bin/env bash
# MPI domain decomposition, checked against the one-process run: `mdremap md` started
# without mpirun never initialises MPI and takes the periodic-image path, the reference here.
#
#   test_mpi.sh MDREMAP SOURCE_DIR CASE [NP]
#
# thermo NP     step 0 within 1e-12 relative (list rows as built), 1,000 NVE steps within 1e-9
#               (neighbor.row_order=id: forces summed in the same order at any rank count), with
#               the ghost update beside the forces (parallel.overlap=on) and after them (off)
# migration NP  a hot fluid whose atoms cross several sub-boxes (NP x 1 x 1, and 2 x 2 x 1 with
#               4 ranks): atoms conserved (the engine counts them and sums their ids over the
#               ranks), more than NP / 2 migrations per atom, thermo within 1e-9 of the one-process
#               run, every atom through peer windows where the ghosts go that way
# restart       a checkpoint written on 4 ranks restarted on 2 and on 1 (row_order=id): thermo
#               within 1e-9 of the uninterrupted one-process run; the 4 ranks' H5MD frames (gathered
#               onto rank 0 in id order) equal the one-process run's; VTK from 2 ranks (.pvtp
#               frames of a piece per rank)
# refused       rank grids that do not fit, a run that blows up: exit codes, and the error
#               printed once whatever the rank count
# exchange1     (no mpirun) the ranks' ghost exchange on one rank (parallel.ghosts=exchange)
#               against the periodic images: 1,000 steps within 1e-12
# deck          (no mpirun) parallel.* keys validated like every key: exit 2, file:line
# one-rank-deck, one-rank-nan, one-rank-output, one-rank-steps
#               bad input on one rank of two (a deck missing from its working directory, a NaN
#               --set, an output directory it lacks, other --steps): that rank names itself,
#               the job ends with exit 2 within two minutes
set -u
bin=$1
src=$2
case=$3
np=${4:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
compare="python3 $src/tests/mpi/compare_thermo.py"
melt="$src/inputs/lj_melt.yaml"
# Decomposed runs and exchanged ghosts use full neighbour lists (a half list would need the
# ghosts' forces sent back): the single-domain runs they are compared with take the full list
# too, so that each force is summed in the same order. A CPU without AVX-512 defaults to the half
# list (Newton's third law): there e_pair differed by 1e-14 at step 0 and 1e-6 after 1,000 steps.
full=(--set neighbor.list=full)
fail=0
# More processes than cores (CI has two): one OpenMP thread each, ranks may share a core.
mpi() {
  OMP_NUM_THREADS=1 "${MDREMAP_MPIRUN:-mpirun}" --allow-run-as-root --oversubscribe -np "$@"
}
note() { echo "$*"; }
bad() {
  echo "FAIL: $*"
  fail=1
}

# expect_refusal NAME RC REGEX NP ARGS...: exit RC, exactly one error line matching REGEX.
expect_refusal() {
  local name=$1 want=$2 regex=$3 n=$4
  shift 4
  mpi "$n" "$bin" "$@" >out.txt 2>err.txt
  local rc=$?
  local lines
  lines=$(grep -c "mdremap: error" err.txt)
  if [[ $rc -eq $want && $lines -eq 1 ]] && grep -Eq -- "$regex" err.txt; then
    note "ok $name (-np $n): exit $rc, $(grep "mdremap: error" err.txt)"
  else
    bad "$name (-np $n): exit $rc (want $want), $lines error lines:"
    cat err.txt
  fi
}

case $case in
thermo)
  "$bin" md "$melt" "${full[@]}" --steps 0 -q --thermo-csv ref0.csv >/dev/null ||
    bad "reference step 0"
  mpi "$np" "$bin" md "$melt" --steps 0 -q --thermo-csv np0.csv >/dev/null || bad "-np $np step 0"
  $compare ref0.csv np0.csv --step0 1e-12 --rest 1e-12 --label "-np $np, step 0:" || fail=1
  ordered=(--steps 1000 --set run.thermo=100 --set neighbor.row_order=id -q "${full[@]}")
  "$bin" md "$melt" "${ordered[@]}" --thermo-csv ref.csv >/dev/null || bad "reference run"
  mpi "$np" "$bin" md "$melt" "${ordered[@]}" --thermo-csv np.csv --summary s.json >/dev/null ||
    bad "-np $np run"
  grep -q "\"ranks\": $np" s.json || bad "summary does not say $np ranks"
  # The forces of the atoms away from the faces while the ghosts travel, then the rest: each
  # atom's force summed as before, so the same trajectory; and the update after them.
  # (one rank: through the ranks' exchange, which overlap needs)
  one=()
  [[ $np == 1 ]] && one=(--set parallel.ghosts=exchange)
  for ov in on off; do
    mpi "$np" "$bin" md "$melt" "${ordered[@]}" "${one[@]}" --set parallel.overlap=$ov \
      --thermo-csv ov_$ov.csv \
      --summary ov_$ov.json >/dev/null || bad "-np $np run, overlap $ov"
    $compare ref.csv ov_$ov.csv --step0 1e-12 --rest 1e-9 --label "-np $np, overlap $ov:" || fail=1
  done
  grep -q "beside the forces of the atoms away from the faces" ov_on.json ||
    bad "overlap on: the engine line does not say so"
  # Near a face between ranks: some atoms on several ranks, none on one.
  python3 -c "
import json, sys
m, np_ = json.load(open('ov_on.json'))['mpi'], $np
print(f'overlap on: {m[\"near_face_atoms\"]} of 4000 atoms near a face between ranks')
ok = 0 < m['near_face_atoms'] <= 4000 if np_ > 1 else m['near_face_atoms'] == 0
sys.exit(0 if m['overlap'] and ok else 1)" || bad "overlap on: near-face atoms"
  if grep -q "beside the forces" ov_off.json; then bad "overlap off: the engine line says on"; fi
  # The exchange's share of the time split: inside the neighbour phase, its parts inside it.
  python3 - s.json "$np" <<'PY' || bad "summary's time split of the exchange"
import json, sys
j = json.load(open(sys.argv[1]))
t, np_ = j["time_split_ms_per_step"], int(sys.argv[2])
ok = 0 <= t["exchange_migrate"] <= t["exchange_rebuild"] <= t["exchange"] <= t["neighbor"] and 0 <= t["exchange_mpi"] <= t["exchange"]
ok = ok and (np_ == 1 or (t["exchange"] > 0 and j["mpi"]["transfer"] != ""))
print(f"time split {t}, transfer {j['mpi']['transfer']!r}")
sys.exit(0 if ok else 1)
PY
  $compare ref.csv np.csv --step0 1e-12 --rest 1e-9 --label "-np $np, 1000 NVE steps:" || fail=1
  ;;
migration)
  deck="$src/tests/mpi/hot_fluid.yaml"
  "$bin" md "$deck" -q "${full[@]}" --thermo-csv ref.csv >/dev/null || bad "reference run"
  # A slab grid, and (4 ranks) a 2x2x1 grid: atoms crossing an edge are forwarded by the second
  # axis, and the ghost update runs beside the forces (overlap on even on one GPU per rank); then
  # the slab grid again with migration windows of 4 atoms at first (MDREMAP_MOVE_WINDOW_ATOMS):
  # with peer windows some atoms overflow them and go through MPI, the windows grow.
  runs=("[$np,1,1] all")
  ((np == 4)) && runs+=("[2,2,1] all")
  runs+=("[$np,1,1] small")
  for spec in "${runs[@]}"; do
    read -r grid window <<<"$spec"
    extra=()
    [[ $grid == "[2,2,1]" ]] && extra=(--set parallel.overlap=on)
    floor=""
    [[ $window == small ]] && floor=4
    MDREMAP_MOVE_WINDOW_ATOMS=$floor mpi "$np" "$bin" md "$deck" -q \
      --set "parallel.processors=$grid" "${extra[@]}" --thermo-csv np.csv --summary s.json \
      >/dev/null || bad "-np $np run, grid $grid, windows $window"
    python3 - s.json "$window" "$np" <<'PY' || fail=1
import json, sys
j = json.load(open(sys.argv[1]))
atoms, moved = j["atoms"], j["mpi"]["migrations"]
via_mpi, transfer = j["mpi"]["migrations_through_mpi"], j["mpi"]["transfer"]
print(f"atoms at the end {atoms} (of 2048), migrations {moved} ({moved / 2048:.2f} per atom), "
      f"of them through MPI {via_mpi}, grid {j['mpi']['grid']}, transfer {transfer!r}, "
      f"windows {sys.argv[2]}")
# Peer windows take every migrating atom where their room (4,096 atoms at first) holds them, and
# some where it starts at 4 atoms; otherwise MPI takes them all.
if not transfer.startswith("CUDA IPC"):
    paths_ok = via_mpi == moved
elif sys.argv[2] == "small":
    paths_ok = 0 < via_mpi < moved
else:
    paths_ok = via_mpi == 0
# More than np / 2 migrations per atom (3 per atom on 4 ranks, 1.5 on 2).
sys.exit(0 if atoms == 2048 and moved > int(sys.argv[3]) / 2 * 2048 and paths_ok else 1)
PY
    $compare ref.csv np.csv --step0 1e-12 --rest 1e-9 \
      --label "-np $np, grid $grid, windows $window, hot fluid:" || fail=1
  done
  ;;
refused)
  expect_refusal thin-sub-box 2 "parallel\.processors: grid 4x1x1 .* thinner than cutoff\+skin" 4 \
    md "$melt" --steps 10 --set "parallel.processors=[4,1,1]" --set "system.lattice.cells=[6,10,10]"
  expect_refusal grid-count 2 "parallel\.processors: grid 2x2x2 has 8 ranks, the run has 4" 4 \
    md "$melt" --steps 10 --set "parallel.processors=[2,2,2]"
  cat >small.yaml <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [4, 4, 4]}
run: {steps: 10}
YAML
  # 3 ranks: 3x1x1, 1x3x1 or 1x1x3, each cutting the 6.7 box into slabs 2.24 thick
  expect_refusal no-grid-fits 2 "small\.yaml: 'parallel\.processors': 3 ranks cannot split the box" \
    3 md small.yaml
  expect_refusal half-list 2 "neighbor\.list: a half list needs the ghosts' forces" 2 \
    md "$melt" --steps 10 --set neighbor.list=half
  expect_refusal other-command 2 "only \`mdremap md\` runs on several MPI ranks" 2 \
    cg "$src/inputs/cg_laplace2d.yaml"
  expect_refusal blow-up 1 "lost atoms|non-finite" 2 md "$melt" --steps 100 --set integrator.dt=0.5
  ;;
one-rank-deck | one-rank-nan | one-rank-output | one-rank-steps)
  # Bad input on one rank of two: that rank prints its error naming itself and the job ends
  # (MPI_Abort, exit 2) within the timeout instead of the other rank waiting forever.
  mkdir -p A B A/out
  cat >A/d.yaml <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
run: {steps: 10, thermo: 5}
YAML
  cp A/d.yaml ok.yaml
  both=(--allow-run-as-root --oversubscribe)
  run_two() {
    OMP_NUM_THREADS=1 timeout "${MDREMAP_MPI_TIMEOUT:-120}" "${MDREMAP_MPIRUN:-mpirun}" "${both[@]}" "$@" >out.txt 2>err.txt
  }
  expect_rank() {
    local name=$1 want=$2 regex=$3 rc=$4
    if [[ $rc -eq 124 ]]; then
      bad "$name: hung (killed after ${MDREMAP_MPI_TIMEOUT:-120} s)"
      cat err.txt
    elif [[ $rc -eq $want ]] && grep -Eq -- "^mdremap: error \(MPI $regex" err.txt; then
      note "ok $name: exit $rc, $(grep "mdremap: error" err.txt)"
    else
      bad "$name: exit $rc (want $want):"
      cat err.txt
    fi
  }
  case $case in
  one-rank-deck)
    # d.yaml only in rank 1's working directory: rank 0 cannot read it
    mv A/d.yaml B/d.yaml
    run_two -np 1 -wdir A "$bin" md d.yaml -q : -np 1 -wdir B "$bin" md d.yaml -q
    expect_rank "deck missing on rank 0" 2 "rank 0 of 2\): d\.yaml: " $?
    ;;
  one-rank-nan)
    run_two -np 1 "$bin" md ok.yaml -q : -np 1 "$bin" md ok.yaml -q --set velocity.temperature=nan
    expect_rank "NaN on rank 1" 2 "rank 1 of 2\): --set velocity\.temperature: .*not a finite number" $?
    ;;
  one-rank-output)
    # out/ only in rank 0's working directory
    cp ok.yaml B/d.yaml
    run_two -np 1 -wdir A "$bin" md d.yaml -q --thermo-csv out/t.csv : \
      -np 1 -wdir B "$bin" md d.yaml -q --thermo-csv out/t.csv
    expect_rank "output unwritable on rank 1" 2 "rank 1 of 2\): .*out/t\.csv" $?
    ;;
  one-rank-steps)
    run_two -np 1 "$bin" md ok.yaml -q --steps 10 : -np 1 "$bin" md ok.yaml -q --steps 20
    expect_rank "--steps differ" 2 "rank 1 of 2\): command line: this rank's deck and flags resolve to another run than rank 0's: run\.steps is '20' here, '10' on rank 0" $?
    ;;
  esac
  ;;
restart)
  # The first python3 that imports h5py (pyenv shims may hide Debian's).
  py=""
  for p in ${MDREMAP_PYTHON:-} python3 /usr/bin/python3; do
    if "$p" -c "import h5py" 2>/dev/null; then
      py=$p
      break
    fi
  done
  if [[ -z $py ]]; then
    echo "no python3 that imports h5py (apt-get install python3-h5py)"
    [[ ${CI:-} == true ]] && exit 1
    exit 77
  fi
  run=(--set run.thermo=100 --set neighbor.row_order=id -q --set output.h5md.every=500 "${full[@]}"
    --set "output.h5md.fields=[position,velocity,force,species,id,image]")
  "$bin" md "$melt" "${run[@]}" --steps 1000 --thermo-csv ref.csv --set output.h5md.file=ref.h5 \
    >/dev/null 2>&1 || bad "reference run"
  mpi 4 "$bin" md "$melt" "${run[@]}" --steps 500 --thermo-csv np4.csv \
    --set output.h5md.file=np4.h5 --set restart.file=ck4.h5 >/dev/null || bad "-np 4 run"
  mpi 2 "$bin" md "$melt" "${run[@]}" --steps 500 --restart ck4.h5 --thermo-csv np2.csv \
    >/dev/null || bad "-np 2 restart"
  "$bin" md "$melt" "${run[@]}" --steps 500 --restart ck4.h5 --thermo-csv np1.csv >/dev/null ||
    bad "one-process restart"
  $compare ref.csv np4.csv --step0 1e-12 --rest 1e-9 --subset --label "-np 4, steps 0-500:" || fail=1
  $compare ref.csv np2.csv --step0 1e-9 --rest 1e-9 --subset --label "restart on 2 ranks:" || fail=1
  $compare ref.csv np1.csv --step0 1e-9 --rest 1e-9 --subset --label "restart on 1:" || fail=1
  "$py" - ref.h5 np4.h5 <<'PY' || fail=1
import sys
import h5py
import numpy as np
ref, np4 = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
worst = 0.0
for k in ["position", "velocity", "force", "species", "id", "image"]:  # image: summed over ranks
    a = ref[f"particles/all/{k}/value"][:2].astype(float)
    b = np4[f"particles/all/{k}/value"][:]
    if b.shape != a.shape:
        sys.exit(f"{k}: -np 4 file holds {b.shape}, the one-process file {a.shape}")
    worst = max(worst, float(np.abs(a - b.astype(float)).max()))
ids = np4["particles/all/id/value"][-1]
print(f"H5MD from 4 ranks: frames at steps {list(np4['particles/all/position/step'][:])}, "
      f"largest difference from the one-process file {worst:.3g}")
images = int(np.abs(np4["particles/all/image/value"][-1]).sum())
print(f"image counts at the last frame: {images} box crossings in all")
sys.exit(0 if worst <= 1e-12 and images > 0 and (ids == np.arange(1, len(ids) + 1)).all() else 1)
PY
  # A build without VTK (the GPU bundles: the device machines have no VTK) refuses the key: that
  # part is skipped there, and said so. CI builds with VTK.
  if "$bin" info | grep -q "VTK output *no"; then
    echo "VTK from 2 ranks: skipped, $bin was built without VTK"
    [[ ${CI:-} == true ]] && bad "CI build without VTK"
    exit $fail
  fi
  mkdir vtk
  mpi 2 "$bin" md "$melt" --steps 100 -q --set output.vtk.dir=vtk --set output.vtk.every=50 \
    >/dev/null || bad "-np 2 VTK run"
  # One .pvtp per frame naming a piece per rank; the pieces of a frame hold every atom once.
  python3 - vtk/traj.pvd <<'PY' || bad "VTK from 2 ranks"
import os, re, sys
import xml.etree.ElementTree as ET
pvd = sys.argv[1]
d = os.path.dirname(pvd)
files = [e.get("file") for e in ET.parse(pvd).getroot().iter("DataSet")]
counts = []
for f in files:
    assert f.endswith(".pvtp"), f"{pvd} lists {f}, not a .pvtp"
    root = ET.parse(os.path.join(d, f)).getroot()
    assert root.get("type") == "PPolyData", f
    pieces = [p.get("Source") for p in root.iter("Piece")]
    assert len(pieces) == 2, f"{f}: {len(pieces)} pieces"
    n = 0
    for p in pieces:
        head = open(os.path.join(d, p), "rb").read(4096).decode("latin-1")
        n += int(re.search(r'NumberOfPoints="(\d+)"', head).group(1))
    counts.append(n)
leftover = [f for f in os.listdir(d) if f.endswith(".partial")]
print(f"VTK from 2 ranks: {len(files)} .pvtp frames of 2 pieces, atoms per frame {counts}, "
      f"partial files left {leftover}")
sys.exit(0 if len(files) == 3 and counts == [4000] * 3 and not leftover else 1)
PY
  ;;
exchange1)
  ordered=(--steps 1000 --set run.thermo=100 -q "${full[@]}")
  "$bin" md "$melt" "${ordered[@]}" --thermo-csv ref.csv >/dev/null || bad "reference run"
  # overlap off: the atoms keep the images run's order, so the same sums bit for bit
  "$bin" md "$melt" "${ordered[@]}" --set parallel.ghosts=exchange --set parallel.overlap=off \
    --thermo-csv ex.csv --summary s.json >/dev/null || bad "exchange run"
  grep -q '"ghosts_exchanged": true' s.json || bad "summary does not say ghosts were exchanged"
  $compare ref.csv ex.csv --step0 1e-12 --rest 1e-12 --label "exchange on one rank:" || fail=1
  # With overlap the atoms near a face are put last at every build: rows summed in id order
  # keep each atom's force independent of that order.
  "$bin" md "$melt" "${ordered[@]}" --set neighbor.row_order=id --thermo-csv ref_id.csv \
    >/dev/null || bad "reference run, row_order=id"
  "$bin" md "$melt" "${ordered[@]}" --set neighbor.row_order=id --set parallel.ghosts=exchange \
    --set parallel.overlap=on --thermo-csv ov.csv >/dev/null || bad "exchange run, overlap on"
  $compare ref_id.csv ov.csv --step0 1e-12 --rest 1e-12 --label "exchange on one rank, overlap:" ||
    fail=1
  ;;
deck)
  cat >procs.yaml <<'YAML'
system:
  lattice: {style: fcc, density: 0.8442, cells: [6, 6, 6]}
parallel:
  processors: [2, 1, 1]
YAML
  # refused NAME REGEX ARGS...: one process, exit 2 and the error matching REGEX.
  refused() {
    local name=$1 regex=$2
    shift 2
    "$bin" md procs.yaml "$@" 2>err.txt >/dev/null
    local rc=$?
    [[ $rc -eq 2 ]] && grep -q -- "$regex" err.txt || bad "$name: exit $rc, $(cat err.txt)"
  }
  refused "processors [2,1,1] on one rank" \
    "procs\.yaml:4: 'parallel\.processors': grid 2x1x1 has 2 ranks, the run has 1"
  refused "processors [1,-1,1]" "parallel\.processors: rank counts must be at least 1" \
    --set "parallel.processors=[1,-1,1]"
  refused "ghosts=sometimes" "parallel\.ghosts" --set parallel.ghosts=sometimes
  "$bin" md procs.yaml --set "parallel.processors=[1,1,1]" --steps 5 -q >/dev/null 2>err.txt ||
    bad "processors [1,1,1] on one rank: $(cat err.txt)"
  refused "transfer=sometimes" "parallel\.transfer" --set parallel.transfer=sometimes
  refused "overlap=on without an exchange" \
    "parallel\.overlap: on overlaps .* this run of one rank has no exchange" \
    --set "parallel.processors=[1,1,1]" --set parallel.overlap=on
  refused "overlap=on with remap dup" \
    "remap\.mode: parallel\.overlap=on runs part of the forces .*(dup runs" \
    --set "parallel.processors=[1,1,1]" --set parallel.ghosts=exchange --set parallel.overlap=on \
    --set remap.mode=dup
  refused "overlap=sometimes" "parallel\.overlap" --set parallel.overlap=sometimes
  refused "ghosts=exchange with the cluster list" \
    "parallel\.ghosts: exchanged ghosts are read through the plain full list: neighbor\.list=cluster" \
    --set "parallel.processors=[1,1,1]" --set parallel.ghosts=exchange --set neighbor.list=cluster
  refused "ghosts=exchange with a half list" \
    "parallel\.ghosts: exchanged ghosts are read through full lists: neighbor\.list=half" \
    --set "parallel.processors=[1,1,1]" --set parallel.ghosts=exchange --set neighbor.list=half
  # CUDA IPC needs GPU memory: refused by a CPU build, taken by a CUDA one.
  peer=(--set "parallel.processors=[1,1,1]" --set parallel.ghosts=exchange --set parallel.transfer=peer)
  "$bin" md procs.yaml "${peer[@]}" --steps 5 -q >/dev/null 2>err.txt
  rc=$?
  if "$bin" info 2>/dev/null | grep -q "^ *backend *cuda"; then
    [[ $rc -eq 0 ]] || bad "transfer=peer on a CUDA build: exit $rc, $(cat err.txt)"
  else
    [[ $rc -eq 2 ]] && grep -q "parallel\.transfer: peer .*not a CUDA build" err.txt ||
      bad "transfer=peer on a CPU build: exit $rc, $(cat err.txt)"
  fi
  ;;
*)
  echo "unknown case $case"
  exit 2
  ;;
esac
exit $fail
