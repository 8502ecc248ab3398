#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build, run every
# test (unit, MPI on 1-4 ranks, end-to-end against the serial reference, bad
# input, Slurm, the collector's pytest cases, packaging), clang-tidy over src/
# when it is installed, then the unit and small MPI tests again under
# AddressSanitizer + UBSan.
#   SPELLCHECK_SKIP_SANITIZE=1   skip the sanitizer passes (ASan + UBSan, TSan)
#   SPELLCHECK_SKIP_TIDY=1       skip clang-tidy
#   SPELLCHECK_SKIP_FUZZ=1       skip the short fuzzing run
#   SPELLCHECK_CTEST_ARGS=...    extra ctest arguments (e.g. -L unit)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
# Each pass is announced with the minutes since the start, so a slow pass
# shows in the CI log.
phase() { printf '== %s (at %dm%02ds)\n' "$1" $((SECONDS / 60)) $((SECONDS % 60)); }
"$here/scripts/install-deps.sh"

phase "Release build"
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$here/build" -j"$jobs"
status=0
# The sanitizer builds use -O1 -g1: half the compile time of -O2 -g (the
# ASan build went from 6.4 to 3.9 min) with line numbers kept in reports,
# and no slower tests.
sanitize_flags="-O1 -g1 -DNDEBUG"
log=$(mktemp "${TMPDIR:-/tmp}/spellcheck-ctest.XXXXXX")
trap 'rm -f "$log"' EXIT
# run_ctest DIR ARGS...: ctest in DIR; fewer tests than expected is a
# failure too: every test must run (the data tests make their own data).
# Only the Slurm tests may skip, and only where no local Slurm can be set up
# (scripts/slurm-local: not root, or Slurm/munge not installable).
run_ctest() {
  local dir=$1
  shift
  # Twice as many tests as cores: an MPI test claims a slot per rank up to
  # two (PROCESSORS, tests/cmake/MpiTest.cmake), so at one per core every
  # MPI test ran alone and the one-process scripts left a core idle (751 of
  # the Release pass's 936 s with one test running, 2026-12-07).
  (cd "$dir" && ctest --output-on-failure -j$((jobs * 2)) "$@") 2>&1 | tee "$log" || status=1
  local skipped unexpected
  skipped=$(sed -nE 's/^[[:space:]]*[0-9]+ - ([^ ]+) \((Skipped|Not Run)\)$/\1/p' "$log")
  unexpected=$(printf '%s\n' "$skipped" | grep -v '^slurm\.' | grep -v '^$' || true)
  if [ -n "$unexpected" ]; then
    echo "== FAIL: tests that did not run (each must run here):"
    printf '  %s\n' $unexpected
    status=1
  fi
  if printf '%s\n' "$skipped" | grep -q '^slurm\.'; then
    if [ "$(id -u)" = 0 ] && "$here/scripts/slurm-local" installed; then
      echo "== FAIL: the Slurm tests skipped although Slurm is installed and this is root"
      status=1
    else
      echo "== NOTE: the Slurm tests skipped: no local Slurm here (needs root and slurm-wlm + munge, which install-deps.sh could not install)"
    fi
  fi
}
phase "ctest: every test of the Release build"
# shellcheck disable=SC2086  # extra arguments split on purpose
run_ctest "$here/build" ${SPELLCHECK_CTEST_ARGS:-}

if [ "${SPELLCHECK_SKIP_TIDY:-0}" != 1 ] && command -v clang-format >/dev/null; then
  phase "clang-format: every C++ file as .clang-format says (fix: git ls-files '*.cpp' '*.hpp' | xargs clang-format -i)"
  (cd "$here" && git ls-files '*.cpp' '*.hpp' | xargs clang-format --dry-run --Werror) || status=1
fi

if [ "${SPELLCHECK_SKIP_TIDY:-0}" != 1 ]; then
  phase "clang-tidy: src/ with the checks of .clang-tidy"
  "$here/scripts/clang-tidy.sh" "$here/build" || status=$?
fi

# The ASan + UBSan build is clang's and carries the libFuzzer targets too
# (SPELLCHECK_FUZZ: coverage instrumentation throughout), so that the core
# compiles once for both passes; without clang, GCC's, and no fuzzing.
asan_fuzz=0
if [ "${SPELLCHECK_SKIP_FUZZ:-0}" != 1 ] && command -v clang++ >/dev/null; then
  asan_fuzz=1
fi
if [ "${SPELLCHECK_SKIP_SANITIZE:-0}" != 1 ]; then
  phase "AddressSanitizer + UBSan: unit, MPI unit, hand-made end-to-end and bad-input tests"
  asan_config=(-DSPELLCHECK_SANITIZE=ON)
  if [ "$asan_fuzz" = 1 ]; then
    asan_config+=(-DSPELLCHECK_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++)
  fi
  # No bench programs in the sanitizer builds: no test runs them under ASan.
  cmake -S "$here" -B "$here/build-asan" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${asan_config[@]}" \
    -DSPELLCHECK_BENCH=OFF \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$sanitize_flags" \
    -DSPELLCHECK_TEST_DATA_DIR="$here/build/test-data" >/dev/null
  cmake --build "$here/build-asan" -j"$jobs"
  # Open MPI leaks at exit by design: leak checking off, everything else on.
  export ASAN_OPTIONS=detect_leaks=0
  # bad_input.p1 is left to the main pass: bad_input.p3 goes through the
  # same error paths and the multi-rank ones besides. Likewise the hand-made
  # cases run on 1 and 4 ranks here (2 and 3 in the main pass): the same
  # code, the sanitizers' minutes kept for the other tests. The hardening
  # variants of the unit tests (OpenMP settings) only rerun their code.
  run_ctest "$here/build-asan" -L 'unit|cases|bad_input' -LE 'slurm|data' \
    -E '^bad_input\.p1$|^e2e\.case\..*\.p[23]\.t[12]$|^hardening\.unit\.'
fi

# ThreadSanitizer (clang, libomp + Archer so that OpenMP's own
# synchronisation is seen): the lookup service and the candidate phase,
# the code where threads meet, on 2 and 3 ranks (CI time: 4 took as long
# as 2 and 3 together; the Release pass runs 1-4). About a minute.
# Suppressions (libraries only): tests/tsan.supp.
archer=""
if command -v clang++ >/dev/null; then
  archer=$(dirname "$(readlink -f "$(command -v clang++)")")/../lib/libarcher.so
fi
if [ "${SPELLCHECK_SKIP_SANITIZE:-0}" != 1 ] && command -v clang++ >/dev/null && [ -f "$archer" ]; then
  phase "ThreadSanitizer: lookup service and candidate tests"
  CC=clang CXX=clang++ cmake -S "$here" -B "$here/build-tsan" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$sanitize_flags" -DSPELLCHECK_BENCH=OFF \
    -DSPELLCHECK_SANITIZE=thread >/dev/null
  cmake --build "$here/build-tsan" -j"$jobs" --target lookup_service_mpi_test candidates_test
  export OMP_TOOL_LIBRARIES=$archer TSAN_OPTIONS="suppressions=$here/tests/tsan.supp"
  run_ctest "$here/build-tsan" -R '^unit\.(lookup_service_mpi_test\.p[23]|candidates_test)' -E 'hardening'
  unset OMP_TOOL_LIBRARIES TSAN_OPTIONS
elif [ "${SPELLCHECK_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== FAIL: no clang++ with libarcher.so for the ThreadSanitizer pass (scripts/install-deps.sh installs them)"
  status=1
fi

# libFuzzer: 3 s per target, built in the ASan build above when there was
# one; as many targets at once as there are cores.
if [ "${SPELLCHECK_SKIP_FUZZ:-0}" != 1 ] && command -v clang++ >/dev/null; then
  phase "libFuzzer: 3 s per target"
  if [ "$asan_fuzz" = 1 ] && [ "${SPELLCHECK_SKIP_SANITIZE:-0}" != 1 ]; then
    FUZZ_JOBS=$jobs FUZZ_BUILD=$here/build-asan "$here/bench/fuzz.sh" 3 || status=1
  else
    FUZZ_JOBS=$jobs FUZZ_CXX_FLAGS=$sanitize_flags "$here/bench/fuzz.sh" 3 || status=1
  fi
fi
phase "done, status $status"
exit $status
