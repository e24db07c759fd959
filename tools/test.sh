#!/usr/bin/env bash
# The test command (README, .ci/run): set up if needed, then every test that needs no GPU, then
# one summary that counts passed, failed and skipped apart (tools/test-summary.py; ctest's own
# "N% tests passed" line counts a skipped test as passed). Under CI=true a skip fails the run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
"$here/setup.sh"
build=build/openmp
rm -rf "$build/gtest-results" "$build/ctest-junit.xml"
status=0
ctest --preset openmp -LE gpu -j 2 --timeout 1500 --output-junit ctest-junit.xml || status=$?
python3 "$here/test-summary.py" "$build/ctest-junit.xml" "$build/gtest-results" || status=1
exit "$status"
