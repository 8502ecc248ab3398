#!/usr/bin/env bash
# clang-tidy over src/ with the checks of .clang-tidy and the compile
# commands of a build directory; fails (1) on any warning. Skips (0, with a
# note) when clang-tidy is not installed.
#   scripts/clang-tidy.sh [BUILD_DIR] [FILE...]    (default: build, every src/**/*.cpp)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
shift || true
tidy=$(command -v clang-tidy || true)
if [ -z "$tidy" ]; then
  echo "clang-tidy: not installed, skipped"
  exit 0
fi
[ -f "$build/compile_commands.json" ] || { echo "clang-tidy: no $build/compile_commands.json" >&2; exit 2; }
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$here"/src/*.cpp "$here"/src/*/*.cpp)
log=$(mktemp)
db=$(mktemp -d)
trap 'rm -rf "$log" "$db"' EXIT
# Without the precompiled header (SPELLCHECK_PCH): GCC's .gch is no file
# clang reads, and each source must compile on its own includes anyway.
sed -E 's/ -Winvalid-pch//; s/ -include [^ ]*cmake_pch\.hxx//g' "$build/compile_commands.json" >"$db/compile_commands.json"
# One process per file, as many at once as there are cores.
printf '%s\n' "${files[@]}" |
  xargs -P "$(nproc)" -I{} "$tidy" -p "$db" --quiet {} >"$log" 2>&1 || true
if grep -E "(warning|error):" "$log"; then
  echo "clang-tidy: the findings above (checks in .clang-tidy) fail the build"
  exit 1
fi
echo "clang-tidy: ${#files[@]} files clean"
