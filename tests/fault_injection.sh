#!/usr/bin/env bash
# fault_injection.sh -- one rank fails in one phase; every rank must stop.
#
#   fault_injection.sh [--mpiexec M] [--ranks P] [--only throw|kill] SPELLCHECK DICT WORDS DOCS
#
# Uses the test hook SPELLCHECK_FAULT=PHASE:RANK[:kill] (src/common/fault.cpp).
# For each phase of both modes, rank 1 of P (rank 0 for the gather at rank
# 0) throws at the phase's fault point; the run must end, within the
# timeout, with exit status 2, exactly one stderr line
# "spellcheck: error: ...injected fault in PHASE on rank R" and nothing in
# the output folder (no -o file, no --stats file, no temporary file).
# With :kill the rank kills itself with SIGKILL mid-run: the job must end
# within seconds with a non-zero status and leave nothing behind.
# A run that outlives its timeout is a hang and fails.
# Exit status: 0 all passed, 1 a check failed.
set -u

mpiexec=mpirun
ranks=3
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --mpiexec) mpiexec=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    -*) echo "usage: fault_injection.sh [--mpiexec M] [--ranks P] [--only throw|kill] SPELLCHECK DICT WORDS DOCS" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 4 ]; then
  echo "usage: fault_injection.sh [--mpiexec M] [--ranks P] [--only throw|kill] SPELLCHECK DICT WORDS DOCS" >&2
  exit 2
fi
spellcheck=$1 dict=$2 words=$3 docs=$4

export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_orte_execute_quiet=1 OMPI_MCA_hwloc_base_binding_policy=none
export OMP_NUM_THREADS=2

work=$(mktemp -d "${TMPDIR:-/tmp}/fault_injection.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

failed=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; failed=1; }

# run FAULT ARGS... : one run with the fault planted, results in rc, secs,
# $work/err; the output folder $work/out starts empty.
run() {
  local fault=$1
  shift
  rm -rf "$work/out" && mkdir "$work/out"
  local t0 t1
  t0=$(date +%s.%N)
  SPELLCHECK_FAULT=$fault timeout -k 5 60 "$mpiexec" -n "$ranks" "$spellcheck" \
    -o "$work/out/result.txt" --stats "$work/out/stats.json" "$@" >"$work/stdout" 2>"$work/err" </dev/null
  rc=$?
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
}

# What a run left in the output folder: nothing, neither the targets nor a
# temporary file (on several ranks the output is a named temporary that
# every rank writes; whoever survives removes it, removal_on_signal.hpp).
left_behind() {
  ls -A "$work/out"
}

# expect_throw MODE PHASE RANK ARGS...
expect_throw() {
  local mode=$1 phase=$2 rank=$3
  shift 3
  run "$phase:$rank" "$@"
  local lines
  lines=$(wc -l <"$work/err")
  local what="$mode: throw in $phase on rank $rank of $ranks"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    fail "$what: hang (killed by the timeout after ${secs} s)"
  elif [ "$rc" != 2 ]; then
    fail "$what: exit $rc, want 2"; head -40 "$work/err"  # with a crash: Open MPI's backtrace
  elif [ "$lines" != 1 ] || ! grep -q "^spellcheck: error: .*injected fault in $phase on rank $rank\$" "$work/err"; then
    fail "$what: want one line 'spellcheck: error: ...injected fault in $phase on rank $rank', got $lines:"
    head -5 "$work/err"
  elif [ -n "$(left_behind)" ]; then
    fail "$what: left behind in the output folder: $(left_behind)"
  else
    pass "$what: exit 2, one error line, nothing written (${secs} s)"
  fi
}

# expect_killed MODE PHASE RANK ARGS...: rank RANK kills itself in PHASE.
expect_killed() {
  local mode=$1 phase=$2 rank=$3
  shift 3
  run "$phase:$rank:kill" "$@"
  local what="$mode: rank $rank of $ranks killed (SIGKILL) in $phase"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ] && awk -v s="$secs" 'BEGIN { exit !(s >= 60) }'; then
    fail "$what: hang (killed by the timeout after ${secs} s)"
  elif [ "$rc" = 0 ]; then
    fail "$what: exit 0"
  elif awk -v s="$secs" 'BEGIN { exit !(s > 20) }'; then
    fail "$what: the job took ${secs} s to end"
  elif [ -n "$(left_behind | grep -vxF "${allowed:-}")" ]; then
    fail "$what: left behind in the output folder: $(left_behind)"
  else
    pass "$what: exit $rc after ${secs} s, nothing written${allowed:+ but $allowed (whole: rank 0 renamed it first)}"
  fi
}

if [ "$only" != kill ]; then
  for phase in read shuffle index filter ingest route judge candidates lookups report; do
    expect_throw documents "$phase" 1 "$dict" "$docs"
  done
  expect_throw documents gather 0 "$dict" "$docs"
  for phase in read route; do
    expect_throw words "$phase" 1 --words "$dict" "$words"
  done
fi
if [ "$only" != throw ]; then
  expect_killed documents candidates 1 "$dict" "$docs"
  expect_killed documents ingest 1 "$dict" "$docs"
  expect_killed words judge 1 --words "$dict" "$words"
  # After every rank wrote its slice into the named temporary file and
  # closed it (collectively): killed rank 0 cannot rename it, and the other
  # ranks remove it when the job ends them. Killed rank 1 races with rank 0's
  # rename: the output is then whole, or nothing is there.
  expect_killed documents gather 0 "$dict" "$docs"
  allowed=result.txt expect_killed documents gather 1 "$dict" "$docs"
fi
exit "$failed"
