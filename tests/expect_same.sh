#!/usr/bin/env bash
# expect_same.sh -- run a command and compare what it prints with a file.
#
#   expect_same.sh [--need PATH]... [--o] WANT -- CMD [ARGS...]
#
# Runs CMD with its stdout sent to a temporary file, then compares that file
# byte for byte with WANT (cmp), printing the head of a diff on mismatch.
#
#   --need PATH  skip (exit 77) unless PATH exists; repeatable (test inputs)
#   --o          CMD writes its output with `-o FILE` (appended to CMD) and
#                must print nothing on stdout; no FILE.tmp.* may be left
#   @OUT@        in CMD, replaced by that output file (implies --o, nothing
#                is appended)
#
# Exit status: 0 same, 77 WANT or a --need path missing (skip), 1 otherwise
# (CMD failed, or the output differs).
set -u

usage() {
  echo "usage: expect_same.sh [--need PATH]... [--o] WANT -- CMD [ARGS...]" >&2
  exit 2
}

out_flag=0
needs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --need) [ $# -ge 2 ] || usage; needs+=("$2"); shift 2 ;;
    --o) out_flag=1; shift ;;
    --) usage ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -ge 3 ] || usage
want=$1
[ "$2" = "--" ] || usage
shift 2

for p in "${needs[@]+"${needs[@]}"}"; do
  if [ ! -e "$p" ]; then
    echo "expect_same: SKIP: missing input $p"
    exit 77
  fi
done
if [ ! -e "$want" ]; then
  echo "expect_same: SKIP: missing expected output $want"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/expect_same.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
got=$tmp/stdout
outfile=$tmp/out.txt

cmd=()
uses_out=0
for a in "$@"; do
  if [ "$a" = "@OUT@" ]; then
    cmd+=("$outfile")
    uses_out=1
  else
    cmd+=("$a")
  fi
done
if [ $out_flag = 1 ] && [ $uses_out = 0 ]; then
  cmd+=(-o "$outfile")
  uses_out=1
fi

echo "expect_same: ${cmd[*]}"
"${cmd[@]}" >"$got"
rc=$?
if [ $rc -ne 0 ]; then
  echo "expect_same: FAIL: command exited with status $rc"
  exit 1
fi

if [ $uses_out = 1 ]; then
  if [ -s "$got" ]; then
    echo "expect_same: FAIL: with -o, stdout must stay empty; it holds $(wc -c <"$got") bytes:"
    head -c 600 "$got" | cat -v
    exit 1
  fi
  leftovers=$(cd "$tmp" && ls -A | grep -v -x -e stdout -e out.txt)
  if [ -n "$leftovers" ]; then
    echo "expect_same: FAIL: files left beside the output: $leftovers"
    exit 1
  fi
  if [ ! -f "$outfile" ]; then
    echo "expect_same: FAIL: the command wrote no output file"
    exit 1
  fi
  got=$outfile
fi

if cmp -s "$want" "$got"; then
  echo "expect_same: OK: $(wc -l <"$got") lines, $(wc -c <"$got") bytes, same as $want"
  exit 0
fi
echo "expect_same: FAIL: output differs from $want"
echo "  want: $(wc -l <"$want") lines, $(wc -c <"$want") bytes"
echo "  got:  $(wc -l <"$got") lines, $(wc -c <"$got") bytes"
cmp "$want" "$got" | head -1
echo "--- diff (want < > got), first 40 lines:"
diff -a "$want" "$got" | head -40 | cut -c1-300 | cat -v
exit 1
