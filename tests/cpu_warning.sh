#!/usr/bin/env bash
# cpu_warning.sh MPIEXEC SPELLCHECK: a rank with fewer CPUs than OpenMP
# threads gets one warning line on stderr (rank 0 says it for all), and the
# output is the same; a rank with enough CPUs, or --quiet, gets none.
#   1. mpirun --bind-to core, one rank, --threads 2: one bound core, warned;
#   2. mpirun --bind-to none, --threads 1: not warned;
#   3. taskset to CPU 0 without mpirun, --threads 2: warned;
#   4. the same with -q: not warned.
set -u
mpiexec=$1 sc=$2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_orte_execute_quiet=1
unset OMPI_MCA_hwloc_base_binding_policy OMP_NUM_THREADS
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf 'cat\ncot\nthe\n' >"$tmp/dict.txt"
printf 'the cxt sat\n' >"$tmp/doc.txt"
fails=0
check() {  # check NAME WANT(0|1) CMD...: WANT warning lines, output as expected
  local name=$1 want=$2
  shift 2
  rm -f "$tmp/out"
  "$@" -o "$tmp/out" "$tmp/dict.txt" "$tmp/doc.txt" 2>"$tmp/err"
  local rc=$? n
  n=$(grep -c 'warning: .*fewer CPUs than threads' "$tmp/err")
  if [ $rc -eq 0 ] && [ "$n" = "$want" ] && grep -q '^cxt:' "$tmp/out"; then
    echo "ok: $name ($n warning lines)"
  else
    echo "FAIL: $name: exit $rc, $n warning lines (want $want); stderr:"
    cat "$tmp/err"
    fails=$((fails + 1))
  fi
}
check "mpirun --bind-to core, 1 rank, --threads 2" 1 "$mpiexec" -n 1 --bind-to core "$sc" --threads 2
check "mpirun --bind-to none, --threads 1" 0 "$mpiexec" -n 1 --bind-to none "$sc" --threads 1
if command -v taskset >/dev/null; then
  check "taskset -c 0, --threads 2" 1 taskset -c 0 "$sc" --threads 2
  check "taskset -c 0, --threads 2, -q" 0 taskset -c 0 "$sc" -q --threads 2
fi
exit $((fails > 0))
