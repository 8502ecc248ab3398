#!/usr/bin/env bash
# output_targets.sh -- spellcheck's -o, --stats and --report on targets that
# are not plain files, under mpirun (2 ranks).
#
#   output_targets.sh [--mpiexec MPIEXEC] --expected WANT SPELLCHECK DICT INPUT...
#
# WANT is the expected stdout of `spellcheck DICT INPUT...`. Checks:
#   /dev/null         -o, --stats and --report leave it the same character
#                     device (same device number and inode); if a run
#                     replaced it anyway, it is made again and the test fails
#   /dev/stdout, -    the result on stdout, byte for byte
#   symbolic link     followed: the link stays, its target gets the result,
#                     nothing is left beside either
#   dangling link     its target is created, the link stays
#   FIFO              read by a background cat: the result, and still a FIFO
#   existing file     replaced, keeping its permission bits
#   directory         exit 2, one line "spellcheck: error: ...Is a directory"
# Exit status: 0 all passed, 1 a check failed, 77 WANT missing (skip).
set -u

mpiexec=mpirun
want=""
while [ $# -gt 0 ]; do
  case "$1" in
    --mpiexec) mpiexec=$2; shift 2 ;;
    --expected) want=$2; shift 2 ;;
    -*) echo "usage: output_targets.sh [--mpiexec M] --expected WANT SPELLCHECK DICT INPUT..." >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 3 ] || [ -z "$want" ]; then
  echo "usage: output_targets.sh [--mpiexec M] --expected WANT SPELLCHECK DICT INPUT..." >&2
  exit 2
fi
if [ ! -f "$want" ]; then
  echo "output_targets: SKIP: missing expected output $want"
  exit 77
fi
spellcheck=$1
shift
args=("$@")

export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_orte_execute_quiet=1 OMPI_MCA_odls_base_sigkill_timeout=0

work=$(mktemp -d "${TMPDIR:-/tmp}/output_targets.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

failed=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; failed=1; }

# run ARGS... : spellcheck on 2 ranks; rc, stdout in out.stdout, stderr in out.stderr.
run() {
  timeout 120 "$mpiexec" -n 2 "$spellcheck" "$@" >out.stdout 2>out.stderr </dev/null
  rc=$?
}

# /dev/null ---------------------------------------------------------------------
null_id() { stat -c '%F %t:%T %i' /dev/null; }
before=$(null_id)
case "$before" in
  "character special file"*) ;;
  *) echo "output_targets: /dev/null is not a character device before the test ($before)"; exit 1 ;;
esac
run -o /dev/null --stats /dev/null --report /dev/null "${args[@]}"
after=$(null_id)
if [ "$rc" = 0 ] && [ "$after" = "$before" ] && [ ! -s out.stdout ]; then
  pass "-o /dev/null --stats /dev/null --report /dev/null: exit 0, /dev/null still $after"
else
  fail "-o /dev/null ...: exit $rc, /dev/null was '$before', is '$after', stdout $(wc -c <out.stdout) bytes"
  head -3 out.stderr
  case "$after" in
    "character special file 1:3 "*) ;;
    *)  # put the machine's /dev/null back
      rm -f /dev/null && mknod -m 666 /dev/null c 1 3 && echo "output_targets: /dev/null made again" ;;
  esac
fi
ls -A /dev | grep -q '^null\.tmp\.' && fail "a temporary file was left in /dev: $(ls -A /dev | grep '^null\.tmp\.')"

# stdout ------------------------------------------------------------------------
for target in /dev/stdout -; do
  run -o "$target" "${args[@]}"
  if [ "$rc" = 0 ] && cmp -s "$want" out.stdout; then
    pass "-o $target: the result on stdout"
  else
    fail "-o $target: exit $rc, stdout $(wc -c <out.stdout) bytes, want $(wc -c <"$want")"
  fi
done

# symbolic links ----------------------------------------------------------------
mkdir -p real links
echo old >real/out.txt
ln -s ../real/out.txt links/to-out
ln -s ../real/new.txt links/dangling
for link in links/to-out links/dangling; do
  run -o "$link" "${args[@]}"
  t=real/$(basename "$(readlink "$link")")
  if [ "$rc" = 0 ] && [ -L "$link" ] && [ -f "$t" ] && [ ! -L "$t" ] && cmp -s "$want" "$t"; then
    pass "-o $link: link kept, $t holds the result"
  else
    fail "-o $link: exit $rc; link $([ -L "$link" ] && echo kept || echo replaced); $t $(cmp -s "$want" "$t" && echo right || echo wrong)"
  fi
done
left=$(ls -A real links | grep '\.tmp\.')
[ -z "$left" ] && pass "nothing left beside the links or their targets" || fail "left behind: $left"

# FIFO ---------------------------------------------------------------------------
mkfifo fifo
cat fifo >fifo.got &
reader=$!
run -o fifo "${args[@]}"
wait "$reader"
if [ "$rc" = 0 ] && [ -p fifo ] && cmp -s "$want" fifo.got; then
  pass "-o FIFO: read whole by the reader, still a FIFO"
else
  fail "-o FIFO: exit $rc, $([ -p fifo ] && echo "still a FIFO" || echo replaced), reader got $(wc -c <fifo.got) bytes"
fi

# existing file keeps its mode ------------------------------------------------------
echo old >kept.txt
chmod 600 kept.txt
run -o kept.txt "${args[@]}"
if [ "$rc" = 0 ] && [ "$(stat -c %a kept.txt)" = 600 ] && cmp -s "$want" kept.txt; then
  pass "-o existing file: replaced, mode 600 kept"
else
  fail "-o existing file: exit $rc, mode $(stat -c %a kept.txt)"
fi

# directory -----------------------------------------------------------------------
mkdir -p adir
run -o adir "${args[@]}"
if [ "$rc" = 2 ] && [ "$(wc -l <out.stderr)" = 1 ] && grep -q '^spellcheck: error: .*Is a directory' out.stderr &&
   [ ! -s out.stdout ] && [ -z "$(ls -A adir)" ]; then
  pass "-o directory: exit 2, $(cat out.stderr)"
else
  fail "-o directory: exit $rc, stderr: $(head -3 out.stderr)"
fi

[ $failed = 0 ] && echo "output_targets: all passed" || echo "output_targets: FAILED"
exit $failed
