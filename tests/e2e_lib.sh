# Shared by the end-to-end scripts (filters.sh, everyday_inputs.sh,
# per_document.sh), sourced after they set $mpiexec and $spellcheck:
# fail records a failure (the script exits 1 at its end), run starts
# spellcheck on P ranks and T threads, same compares two files.
# shellcheck shell=bash
failed=0
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
