#!/usr/bin/env bash
# index_cache.sh -- --index-cache end to end: the output of runs that write
# the cache, read it, find a file damaged (and write it again) or find it
# through SPELLCHECK_INDEX_CACHE is byte for byte the output without a
# cache, and --stats says which happened on how many ranks; the directory
# holds one file per rank and nothing else; a cache path that is not a
# directory is a one-line error, exit 2, with no output file.
#
#   index_cache.sh -- CMD...   (CMD: spellcheck under mpirun, then its
#                               dictionary and inputs; options are added
#                               after the executable)
set -u
[ $# -ge 2 ] && [ "$1" = "--" ] || { echo "usage: index_cache.sh -- CMD..." >&2; exit 2; }
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/index_cache.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
run() {  # run NAME [OPTIONS...]: CMD with -o NAME.out --stats NAME.json OPTIONS; stderr to NAME.err
  local name=$1 cmd=() placed=0 a
  shift
  for a in "${ORIG[@]}"; do
    cmd+=("$a")
    if [ $placed = 0 ] && [[ "$a" == *spellcheck ]]; then
      cmd+=(-o "$tmp/$name.out" --stats "$tmp/$name.json" "$@")
      placed=1
    fi
  done
  "${cmd[@]}" 2>"$tmp/$name.err"
}
ORIG=("$@")
fail() { echo "FAIL: $*"; exit 1; }
counts() {  # counts NAME: "read written ranks"
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); c=s["counts"]; print(c["index_cache_read"], c["index_cache_written"], s["ranks"])' "$tmp/$1.json"
}
cache=$tmp/cache

run plain --suggest ranked || fail "the run without a cache failed: $(cat "$tmp/plain.err")"
[ -s "$tmp/plain.out" ] || fail "no output to compare"
read -r _ _ ranks <<<"$(counts plain)"

run write --suggest ranked --index-cache "$cache" || fail "writing run: $(cat "$tmp/write.err")"
cmp -s "$tmp/plain.out" "$tmp/write.out" || fail "the writing run's output differs"
[ "$(counts write)" = "0 $ranks $ranks" ] || fail "writing run: read written ranks = $(counts write)"
[ "$(ls "$cache" | grep -c '\.idx$')" = "$ranks" ] || fail "not one file per rank: $(ls "$cache")"
[ "$(ls "$cache" | wc -l)" = "$ranks" ] || fail "other files in the cache: $(ls "$cache")"

run read --suggest ranked --index-cache "$cache" || fail "reading run: $(cat "$tmp/read.err")"
cmp -s "$tmp/plain.out" "$tmp/read.out" || fail "the reading run's output differs"
[ "$(counts read)" = "$ranks 0 $ranks" ] || fail "reading run: read written ranks = $(counts read)"

# Rank 0's file damaged in its middle: a warning, built and written again.
victim=$(ls "$cache"/*-0-of-"$ranks".idx)
python3 -c '
import os, sys
p = sys.argv[1]
with open(p, "r+b") as f:
    f.seek(os.path.getsize(p) // 2)
    b = f.read(1)
    f.seek(-1, 1)
    f.write(bytes([b[0] ^ 0x55]))
' "$victim"
run damaged --suggest ranked --index-cache "$cache" || fail "run on a damaged file: $(cat "$tmp/damaged.err")"
cmp -s "$tmp/plain.out" "$tmp/damaged.out" || fail "the output on a damaged file differs"
[ "$(counts damaged)" = "0 $ranks $ranks" ] || fail "damaged: read written ranks = $(counts damaged)"
[ "$(grep -c "warning: index cache file '$victim' not used" "$tmp/damaged.err")" = 1 ] ||
  fail "no warning about the damaged file: $(cat "$tmp/damaged.err")"

# From the environment (job scripts), the rewritten files read back.
SPELLCHECK_INDEX_CACHE=$cache run env --suggest ranked || fail "run with SPELLCHECK_INDEX_CACHE: $(cat "$tmp/env.err")"
cmp -s "$tmp/plain.out" "$tmp/env.out" || fail "the output through SPELLCHECK_INDEX_CACHE differs"
[ "$(counts env)" = "$ranks 0 $ranks" ] || fail "env: read written ranks = $(counts env)"
[ "$(ls "$cache" | wc -l)" = "$ranks" ] || fail "files left in the cache: $(ls "$cache")"

# Not a directory: one line, exit 2, nothing written.
: >"$tmp/not_a_dir"
run bad --suggest ranked --index-cache "$tmp/not_a_dir"
rc=$?
[ $rc = 2 ] || fail "a file as the cache directory: exit $rc, want 2"
[ "$(wc -l <"$tmp/bad.err")" = 1 ] && grep -q "index cache directory '$tmp/not_a_dir' is not a directory" "$tmp/bad.err" ||
  fail "want one line naming the directory, got: $(cat "$tmp/bad.err")"
[ ! -e "$tmp/bad.out" ] || fail "an output file was written"
echo "index cache: written, read, rewritten after damage, read through the environment on $ranks rank(s); identical output"
