#!/usr/bin/env bash
# The largest source files and the longest functions (lambdas excluded), with line counts.
# Usage: tools/size-report.sh [N]   (N rows each, default 10)
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-10}
files=$(git ls-files -- src include remap neighbor integrators comm | grep -E '\.(cpp|hpp|h|cu)$')
echo "largest files (lines):"
# shellcheck disable=SC2086
wc -l $files | grep -v ' total$' | sort -rn | head -n "$n"
echo "longest functions (lines):"
# shellcheck disable=SC2086
ctags --fields=+ne --c++-kinds=f --language-force=C++ -o - $files |
  awk -F'\t' '$1 !~ /^__anon/ {
    line = end = 0
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^line:/) line = substr($i, 6)
      if ($i ~ /^end:/) end = substr($i, 5)
    }
    if (end > 0) printf "%7d %s:%d %s\n", end - line + 1, $2, line, $1
  }' | sort -rn | head -n "$n"
