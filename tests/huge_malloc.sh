#!/usr/bin/env bash
# huge_malloc.sh -- spellcheck re-executes itself with glibc's malloc on huge
# pages (GLIBC_TUNABLES glibc.malloc.hugetlb=1, common/huge_pages.hpp) on
# every rank: --stats says so (malloc_huge_pages); not with --no-huge-pages,
# nor when GLIBC_TUNABLES already names the tunable (the user's value stays,
# and no exec loops). The output is the same every way.
#
#   huge_malloc.sh EXPECT -- CMD...   (EXPECT: 1, or 0 in sanitizer builds,
#                                      which do not re-execute; CMD:
#                                      spellcheck under mpirun, then its
#                                      dictionary and inputs)
set -u
[ $# -ge 3 ] && [ "$2" = "--" ] || { echo "usage: huge_malloc.sh EXPECT -- CMD..." >&2; exit 2; }
expect=$1
shift 2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/huge_malloc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
ORIG=("$@")
run() {  # run NAME [OPTIONS...]
  local name=$1 cmd=() placed=0 a
  shift
  for a in "${ORIG[@]}"; do
    cmd+=("$a")
    if [ $placed = 0 ] && [[ "$a" == *spellcheck ]]; then
      cmd+=(-q -o "$tmp/$name.out" --stats "$tmp/$name.json" "$@")
      placed=1
    fi
  done
  "${cmd[@]}" || { echo "FAIL: run $name failed"; exit 1; }
}
flag() { python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["malloc_huge_pages"]))' "$tmp/$1.json"; }
fail() { echo "FAIL: $*"; exit 1; }

run plain
[ "$(flag plain)" = "$expect" ] || fail "malloc_huge_pages $(flag plain), want $expect"
run off --no-huge-pages
[ "$(flag off)" = 0 ] || fail "--no-huge-pages: malloc_huge_pages $(flag off), want 0"
GLIBC_TUNABLES=glibc.malloc.hugetlb=0 run user
[ "$(flag user)" = 0 ] || fail "the user's glibc.malloc.hugetlb=0 was overridden"
for n in off user; do cmp -s "$tmp/plain.out" "$tmp/$n.out" || fail "output of run $n differs"; done
echo "malloc_huge_pages: $expect by default, 0 with --no-huge-pages or the user's tunable; same output"
