#!/usr/bin/env bash
# Build Kokkos 4.6.01 once into a prefix outside the repository and reuse it.
#
#   tools/build-kokkos.sh openmp|cuda
#
# Prefix: ${MDREMAP_DEPS:-/opt/mdremap-deps}/kokkos-4.6.01-<backend>. A stamp file
# records the patch checksum, so the build is redone only when the patch changes.
# Source: ../shared/deps/kokkos-4.6.01.tar.gz next to the checkout, or a download of
# the 4.6.01 release where no local copy exists.
set -euo pipefail

backend=${1:?usage: build-kokkos.sh openmp|cuda}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
deps=${MDREMAP_DEPS:-/opt/mdremap-deps}
version=4.6.01
prefix=$deps/kokkos-$version-$backend
patch=$here/kokkos-$version-cuda13.patch
stamp=$prefix/.mdremap-stamp
want="$version $backend $(sha256sum "$patch" | cut -c1-16)"

if [[ -f $stamp && "$(cat "$stamp")" == "$want" ]]; then
  echo "kokkos: reusing $prefix"
  exit 0
fi

jobs=${JOBS:-$(nproc)}
work=$deps/build/kokkos-$version-$backend
rm -rf "$work"
mkdir -p "$work"

tarball=""
for cand in "$repo/../shared/deps/kokkos-$version.tar.gz" "$repo/shared/deps/kokkos-$version.tar.gz" \
  "$deps/kokkos-$version.tar.gz"; do
  [[ -f $cand ]] && tarball=$cand && break
done
if [[ -z $tarball ]]; then
  tarball=$deps/kokkos-$version.tar.gz
  echo "kokkos: no local source, downloading release $version"
  curl -fsSL -o "$tarball" \
    "https://github.com/kokkos/kokkos/releases/download/$version/kokkos-$version.tar.gz"
fi

tar -xzf "$tarball" -C "$work"
src=$work/kokkos-$version
# CUDA 13 API changes (BRIEF section 10); harmless for older CUDA and for OpenMP.
patch -d "$src" -p1 --forward <"$patch"

common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=17
  -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF -DKokkos_ENABLE_BENCHMARKS=OFF)
case $backend in
  openmp)
    cmake -S "$src" -B "$work/build" "${common[@]}" -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_SERIAL=ON
    ;;
  cuda)
    # nvcc_wrapper defaults to sm_70, which CUDA 13 dropped: compile as the CUDA language.
    cmake -S "$src" -B "$work/build" "${common[@]}" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON \
      -DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON -DKokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE=ON \
      -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_COMPILER="${CUDACXX:-/usr/local/cuda/bin/nvcc}"
    ;;
  *)
    echo "unknown backend '$backend' (openmp or cuda)" >&2
    exit 2
    ;;
esac
cmake --build "$work/build" -j "$jobs"
cmake --install "$work/build"
echo "$want" >"$stamp"
rm -rf "$work"
echo "kokkos: installed $prefix"
