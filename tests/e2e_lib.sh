# Shared by the end-to-end scripts (filters.sh, everyday_inputs.sh,
# per_document.sh, compiled.sh): e2e_setup (or e2e_mpi_env and
# e2e_workdir) sets a script up; fail records a failure (the script exits 1
# at its end), run starts $spellcheck under $mpiexec on P ranks and T
# threads, same compares two files.
# shellcheck shell=bash
failed=0

# e2e_setup NAME USAGE N "$@": an optional --mpiexec M ($mpiexec, default
# mpirun), then exactly N paths into args[], made absolute (else USAGE,
# exit 2); Open MPI's settings for tests; $work, a fresh directory made
# current and removed on exit.
e2e_setup() {
  local name=$1 usage=$2 n=$3 a
  shift 3
  mpiexec=mpirun
  if [ "${1:-}" = "--mpiexec" ]; then
    mpiexec=$2
    shift 2
  fi
  [ $# -eq "$n" ] || { echo "usage: $usage" >&2; exit 2; }
  args=()
  for a in "$@"; do args+=("$(cd "$(dirname "$a")" && pwd)/$(basename "$a")"); done
  e2e_mpi_env
  e2e_workdir "$name"
}

# Open MPI for the tests: as root, oversubscribed, quiet, unbound; a refused
# run needs no grace period after a rank exits non-zero.
e2e_mpi_env() {
  export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_orte_execute_quiet=1 OMPI_MCA_hwloc_base_binding_policy=none
  export OMPI_MCA_odls_base_sigkill_timeout=0
}

# e2e_workdir NAME: $work, a fresh directory removed on exit, made current.
e2e_workdir() {
  work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
  trap 'rm -rf "$work"' EXIT
  cd "$work" || exit 1
}

fail() {
  echo "FAIL: $*"
  failed=1
}
run() {  # run P T ARGS...: spellcheck on P ranks, T threads
  local p=$1 t=$2
  shift 2
  OMP_NUM_THREADS=$t "$mpiexec" -n "$p" "$spellcheck" -q "$@"
}
same() {  # same WANT GOT WHAT
  if cmp -s "$1" "$2"; then echo "ok: $3"; else fail "$3"; diff "$1" "$2" | head -5; fi
}
