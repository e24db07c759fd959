#!/usr/bin/env bash
# Runs a GoogleTest binary for ctest (tests/CMakeLists.txt, mdremap_test) and maps its result to
# ctest's, so that a skip is never counted as a pass:
#   a failed case (or a crash)                 -> the binary's non-zero status (ctest: Failed)
#   every case that ran passed, one or more skipped, or no case matched the filter
#                                              -> 77, the SKIP_RETURN_CODE (ctest: Skipped)
#   every case ran and passed                  -> 0 (ctest: Passed)
#   gtest_ctest.sh BINARY [gtest args...]
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
((rc == 0)) || exit "$rc"
if grep -q '^\[==========\] 0 tests from' "$log"; then
  echo "gtest_ctest: no case ran ($*): compiled out in this build?"
  exit 77
fi
if grep -q '^\[  SKIPPED \]' "$log"; then
  echo "gtest_ctest: every case that ran passed, but some were skipped (above): reported as skipped"
  exit 77
fi
exit 0
