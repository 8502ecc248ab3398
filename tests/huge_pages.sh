#!/usr/bin/env bash
# huge_pages.sh -- --huge-pages on|off|auto (common/huge_pages.hpp): --stats
# says what each run chose (huge_pages); auto, the default, chooses what the
# kernel's THP settings say pays (on only with defrag defer or never). The
# program never re-executes itself: glibc's malloc is on huge pages only
# when the user's GLIBC_TUNABLES asks (malloc_huge_pages), and then on every
# rank. The output is the same every way.
#
#   huge_pages.sh -- CMD...   (CMD: spellcheck under mpirun, then its
#                              dictionary and inputs)
set -u
[ $# -ge 2 ] && [ "$1" = "--" ] || { echo "usage: huge_pages.sh -- CMD..." >&2; exit 2; }
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/huge_pages.XXXXXX") || exit 1
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
field() { python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))[sys.argv[2]]))' "$tmp/$1.json" "$2"; }
fail() { echo "FAIL: $*"; exit 1; }
selected() { sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$1" 2>/dev/null; }

enabled=$(selected /sys/kernel/mm/transparent_hugepage/enabled)
defrag=$(selected /sys/kernel/mm/transparent_hugepage/defrag)
auto=0
case "$enabled/$defrag" in always/defer | always/never | madvise/defer | madvise/never) auto=1 ;; esac

run auto
[ "$(field auto huge_pages)" = "$auto" ] || fail "auto chose $(field auto huge_pages), want $auto (THP enabled=$enabled defrag=$defrag)"
[ "$(field auto malloc_huge_pages)" = 0 ] || fail "malloc on huge pages without the user asking (a re-execution?)"
run on --huge-pages on
[ "$(field on huge_pages)" = 1 ] || fail "--huge-pages on: huge_pages $(field on huge_pages)"
run off --huge-pages off
[ "$(field off huge_pages)" = 0 ] || fail "--huge-pages off: huge_pages $(field off huge_pages)"
run old --no-huge-pages
[ "$(field old huge_pages)" = 0 ] || fail "--no-huge-pages: huge_pages $(field old huge_pages)"
GLIBC_TUNABLES=glibc.malloc.hugetlb=1 run user
[ "$(field user malloc_huge_pages)" = 1 ] || fail "the user's glibc.malloc.hugetlb=1 was not kept"
for n in on off old user; do cmp -s "$tmp/auto.out" "$tmp/$n.out" || fail "output of run $n differs"; done
echo "huge pages: auto=$auto (THP enabled=$enabled defrag=$defrag), on and off as asked, no re-execution; same output"
