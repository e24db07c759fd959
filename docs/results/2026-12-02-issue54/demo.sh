#!/usr/bin/env bash
# Issue 54's "must show", each as a command and its output: run from the repository root,
#   bash docs/results/2026-12-02-issue54/demo.sh [BIN] > docs/results/2026-12-02-issue54/demo.txt 2>&1
# (BIN: the mdremap binary, default build/openmp/src/mdremap). The GPU's --device run is
# docs/results/2026-12-02-drivers-gpu (info-device0.txt, test_device.log). pvpython is Debian
# 12's python3-paraview, which replaces libvtk9-dev and python3-vtk9 (the build's VTK): install
# it for this demo only, then put those two back (apt-get install libvtk9-dev python3-vtk9).
set -u
bin=$(realpath "${1:-build/openmp/src/mdremap}")
py=/usr/bin/python3
w=$(mktemp -d)
show() { echo; echo "\$ $*"; "$@" 2>&1; echo "[exit $?]"; }
echo "# $(date -u +%FT%TZ) on $(hostname), $("$bin" info | sed -n 2p | xargs)"
mkdir -p "$w/vtk"
show "$bin" md inputs/lj_melt.yaml --steps 200 --log "$w/log.mdremap" \
  --set output.h5md.file="$w/traj.h5md" --set output.h5md.every=50 \
  --set 'output.h5md.fields=[position, velocity, image, species, id]' \
  --set output.h5md.topology="$w/top.gsd" --set output.gsd.file="$w/traj.gsd" \
  --set output.gsd.every=50 --set output.vtk.dir="$w/vtk" --set output.vtk.every=50
echo; echo "## 1. H5MD through MDAnalysis (one line, the GSD topology beside it)"
show $py -W ignore -c "import MDAnalysis as mda; u = mda.Universe('$w/top.gsd', '$w/traj.h5md', convert_units=False); print(u.atoms.n_atoms, 'atoms,', len(u.trajectory), 'frames, box', u.dimensions, 'types', sorted(set(u.atoms.types)), 'masses', sorted(set(u.atoms.masses)), 'step of the last frame', u.trajectory[-1].data['step'])"
echo; echo "## 2. GSD through python3-gsd"
show $py -c "import gsd.hoomd; f = gsd.hoomd.open('$w/traj.gsd'); s = f[-1]; print(len(f), 'frames; last: step', s.configuration.step, 'box', list(s.configuration.box), 'N', s.particles.N, 'types', s.particles.types, 'image[0]', list(s.particles.image[0]))"
echo; echo "## 3. VTK through ParaView (pvpython: box and step of each frame)"
if command -v pvpython >/dev/null; then
  cat > "$w/pv.py" <<PY
from paraview.simple import PVDReader, servermanager
r = PVDReader(FileName="$w/vtk/traj.pvd")
for t in r.TimestepValues:
    r.UpdatePipeline(t)
    fd = servermanager.Fetch(r).GetFieldData()
    print("time", t, "step", fd.GetArray("step").GetValue(0), "box_len", [fd.GetArray("box_len").GetValue(k) for k in range(3)])
PY
  show pvpython --force-offscreen-rendering "$w/pv.py"
else
  echo "pvpython not installed (apt-get install paraview)"
fi
echo; echo "## 4. MSD from the H5MD image field against LAMMPS compute msd (the test)"
show ctest --test-dir build/openmp -R "^test_msd_lammps$" --output-on-failure
echo; echo "## 5. The melt deck's energy drift with the new defaults"
echo "docs/results/2026-12-02-neighbor-defaults/README.md (NVE drift section): lj_melt 5000 steps"
sed -n '/^## NVE energy drift/,/^## /p' docs/results/2026-12-02-neighbor-defaults/README.md | head -14
echo; echo "## 6. The log file of the run above"
show head -n 12 "$w/log.mdremap"
echo; echo "## 7. --set on a list item"
echo "\$ $bin md inputs/lj_data.yaml --steps 0 --log none --set 'system.types[1].epsilon=1.5' --set 'system.types.B.sigma=1.1' -v | grep -A10 'types:'"
"$bin" md inputs/lj_data.yaml --steps 0 --log none --set 'system.types[1].epsilon=1.5' --set 'system.types.B.sigma=1.1' -v 2>&1 | grep -A10 '  types:'
show "$bin" md inputs/lj_data.yaml --steps 0 -q --log none --set 'system.types[7].mass=2'
echo; echo "## 8. No shipped deck prints a dangerous-build note (stderr of each md deck, 100 steps)"
for d in inputs/lj_*.yaml; do
  [[ $d == *lj_large* || $d == *lj_1m* ]] && continue
  n=$("$bin" md "$d" --steps 100 --log none 2>&1 >/dev/null | grep -c "skin/2")
  echo "$d: $n"
done
rm -rf "$w"
