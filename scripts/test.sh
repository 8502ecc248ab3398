#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build, run every
# test (unit, MPI on 1-4 ranks, end-to-end against the serial reference, bad
# input, Slurm, the collector's pytest cases, packaging), clang-tidy over src/
# when it is installed, then the unit and small MPI tests again under
# AddressSanitizer + UBSan.
#   SPELLCHECK_SKIP_SANITIZE=1   skip the sanitizer pass
#   SPELLCHECK_SKIP_TIDY=1       skip clang-tidy
#   SPELLCHECK_CTEST_ARGS=...    extra ctest arguments (e.g. -L unit)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
"$here/scripts/install-deps.sh"

cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$here/build" -j"$jobs"
status=0
(cd "$here/build" && ctest --output-on-failure -j"$jobs" ${SPELLCHECK_CTEST_ARGS:-}) || status=$?

if [ "${SPELLCHECK_SKIP_TIDY:-0}" != 1 ]; then
  echo "== clang-tidy: src/ with the checks of .clang-tidy"
  "$here/scripts/clang-tidy.sh" "$here/build" || status=$?
fi

if [ "${SPELLCHECK_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== AddressSanitizer + UBSan: unit, MPI unit, hand-made end-to-end and bad-input tests"
  cmake -S "$here" -B "$here/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPELLCHECK_SANITIZE=ON \
    -DSPELLCHECK_DATA_DIR="$here/build/data" >/dev/null
  cmake --build "$here/build-asan" -j"$jobs"
  # Open MPI leaks at exit by design: leak checking off, everything else on.
  (cd "$here/build-asan" && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j"$jobs" \
    -L 'unit|cases|bad_input' -LE 'slurm|data') || status=$?
fi
exit $status
