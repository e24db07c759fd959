#!/usr/bin/env bash
# One-time setup on a fresh Debian machine (run as root): system packages, Kokkos into a prefix
# outside the repository (reused when present), then the `openmp` (CPU) build of mdremap.
#
#   tools/setup.sh            # CPU build in build/openmp
#   tools/setup.sh cuda       # also the CUDA build in build/cuda (needs nvcc; runs on a GPU)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
cd "$repo"
export MDREMAP_DEPS=${MDREMAP_DEPS:-/opt/mdremap-deps}
jobs=${JOBS:-$(nproc)}

packages=(cmake g++ make patch curl ca-certificates libhdf5-dev libyaml-cpp-dev libvtk9-dev libgtest-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev gnuplot-nox python3-h5py python3-mdanalysis
  python3-numpy python3-vtk9 xvfb xauth
  python3-gsd python3-ase lammps  # system.file readers' tool-written files, the GSD output read back
  libopenmpi-dev openmpi-bin libhdf5-openmpi-dev  # MPI domain decomposition (MDREMAP_MPI)
  clang-14 libclang-rt-14-dev libomp-14-dev)  # clang: the libFuzzer harnesses (tools/fuzz.sh)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

"$here/build-kokkos.sh" openmp
cmake --preset openmp >/dev/null
cmake --build --preset openmp -j "$jobs"

if [[ ${1:-} == cuda ]]; then
  "$here/build-kokkos.sh" cuda
  cmake --preset cuda >/dev/null
  cmake --build --preset cuda -j "$jobs"
fi
echo "setup: done (binary: build/openmp/src/mdremap)"
