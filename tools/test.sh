#!/usr/bin/env bash
# The test command (README, .ci/run): set up if needed, then every test that needs no GPU.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
"$here/setup.sh"
ctest --preset openmp -LE gpu -j 2 --timeout 1500
