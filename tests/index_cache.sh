#!/usr/bin/env bash
# index_cache.sh -- --index-cache DIR end to end: compile on first use.
# The first run with a dictionary compiles it into DIR (one .scd file) and
# later runs read that file, at any rank count; every run's output is byte
# for byte the output without a cache. Ranked runs and SPEC runs keep
# their own files (with and without the ranked index), and another
# --extra-dict or a changed dictionary makes another; --stats counts the
# read and the write. A damaged cache file is a one-line error naming it,
# exit 2; a cache path that is not a directory too, with no output file.
#
#   index_cache.sh -- CMD...   (CMD: spellcheck under mpirun -n P, then its
#                               dictionary and inputs; options are added
#                               after the executable)
set -u
[ $# -ge 2 ] && [ "$1" = "--" ] || { echo "usage: index_cache.sh -- CMD..." >&2; exit 2; }
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/index_cache.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
ORIG=("$@")
# run NAME [RANKS] [OPTIONS...]: CMD (on RANKS ranks when given) with
# -o NAME.out --stats NAME.json OPTIONS; stderr to NAME.err.
run() {
  local name=$1 cmd=() placed=0 ranks="" a prev=""
  shift
  [[ ${1:-} =~ ^[0-9]+$ ]] && { ranks=$1; shift; }
  for a in "${ORIG[@]}"; do
    [ "$prev" = "-n" ] && [ -n "$ranks" ] && a=$ranks
    cmd+=("$a")
    prev=$a
    if [ $placed = 0 ] && [[ "$a" == *spellcheck ]]; then
      cmd+=(-o "$tmp/$name.out" --stats "$tmp/$name.json" "$@")
      placed=1
    fi
  done
  "${cmd[@]}" 2>"$tmp/$name.err"
}
fail() { echo "FAIL: $*"; exit 1; }
counts() {  # counts NAME: "read written" (ranked runs' --stats)
  python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["counts"]; print(c["index_cache_read"], c["index_cache_written"])' "$tmp/$1.json"
}
files() { find "$cache" -type f | wc -l; }
# refused NAME WHAT MESSAGE OPTIONS...: the run exits 2 with one stderr
# line holding MESSAGE, and writes no output.
refused() {
  local name=$1 what=$2 message=$3 rc
  shift 3
  run "$name" "$@"
  rc=$?
  [ $rc = 2 ] || fail "$what: exit $rc, want 2"
  [ "$(grep -c . "$tmp/$name.err")" = 1 ] && grep -qF "$message" "$tmp/$name.err" ||
    fail "$what: want one line with \"$message\", got: $(cat "$tmp/$name.err")"
  [ ! -e "$tmp/$name.out" ] || fail "$what: an output file was written"
}
same() { cmp -s "$tmp/$1.out" "$tmp/$2.out" || fail "$2: the output differs from $1's"; }
cache=$tmp/cache

run plain --suggest ranked || fail "the ranked run without a cache: $(cat "$tmp/plain.err")"
run spec || fail "the SPEC run without a cache: $(cat "$tmp/spec.err")"
[ -s "$tmp/plain.out" ] && [ -s "$tmp/spec.out" ] || fail "no output to compare"

run write --suggest ranked --index-cache "$cache" || fail "writing run: $(cat "$tmp/write.err")"
same plain write
[ "$(counts write)" = "0 1" ] || fail "writing run: read written = $(counts write)"
[ "$(files)" = 1 ] && ls "$cache" | grep -q '^dict-[0-9a-f]\{16\}\.scd$' || fail "not one dict-KEY.scd: $(ls -A "$cache")"
grep -q "compiled .* into $cache/dict-" "$tmp/write.err" || fail "the writing run did not say so: $(cat "$tmp/write.err")"

run read --suggest ranked --index-cache "$cache" || fail "reading run: $(cat "$tmp/read.err")"
same plain read
[ "$(counts read)" = "1 0" ] || fail "reading run: read written = $(counts read)"
grep -q "warning" "$tmp/read.err" && fail "the reading run warned: $(cat "$tmp/read.err")"

# Another rank count, the cache from the environment (job scripts).
SPELLCHECK_INDEX_CACHE=$cache run env 2 --suggest ranked || fail "2 ranks, SPELLCHECK_INDEX_CACHE: $(cat "$tmp/env.err")"
same plain env
[ "$(counts env)" = "1 0" ] || fail "2 ranks: read written = $(counts env)"

# SPEC runs: their own file (no ranked index), then read.
run spec-write --index-cache "$cache" || fail "SPEC writing run: $(cat "$tmp/spec-write.err")"
same spec spec-write
[ "$(files)" = 2 ] || fail "SPEC run: want a second file: $(ls -A "$cache")"
run spec-read 1 --index-cache "$cache" || fail "SPEC reading run: $(cat "$tmp/spec-read.err")"
same spec spec-read
[ "$(files)" = 2 ] || fail "SPEC reading run wrote a file: $(ls -A "$cache")"

# --extra-dict: its words inside another file; a changed dictionary too.
dict=${ORIG[${#ORIG[@]} - 2]}
sed -n '1~50p' "$dict" | sed 's/^/*/' >"$tmp/gone.txt"
run extra-plain --extra-dict "$tmp/gone.txt" || fail "--extra-dict without a cache"
run extra --extra-dict "$tmp/gone.txt" --index-cache "$cache" || fail "--extra-dict: $(cat "$tmp/extra.err")"
same extra-plain extra
cmp -s "$tmp/spec.out" "$tmp/extra.out" && fail "--extra-dict changed nothing"
[ "$(files)" = 3 ] || fail "--extra-dict: want a third file: $(ls -A "$cache")"
mkdir "$tmp/changed"
{ cat "$dict"; echo "zzyzxq"; } >"$tmp/changed/dict.txt"
ORIG[${#ORIG[@]} - 2]=$tmp/changed/dict.txt
run changed --index-cache "$cache" || fail "changed dictionary: $(cat "$tmp/changed.err")"
[ "$(files)" = 4 ] || fail "a changed dictionary: want a fourth file: $(ls -A "$cache")"

# A damaged cache file: one line naming it, exit 2, no output.
ORIG[${#ORIG[@]} - 2]=$dict
victim=$(ls -t "$cache"/*.scd | tail -1)  # the ranked file, written first
python3 -c '
import os, sys
p = sys.argv[1]
with open(p, "r+b") as f:
    f.seek(os.path.getsize(p) // 2)
    b = f.read(1)
    f.seek(-1, 1)
    f.write(bytes([b[0] ^ 0x55]))
' "$victim"
refused damaged "a damaged cache file" "$victim: a damaged compiled dictionary" --suggest ranked --index-cache "$cache"

# Not a directory: one line, exit 2, nothing written.
: >"$tmp/not_a_dir"
refused bad "a file as the cache directory" "index cache directory '$tmp/not_a_dir' is not a directory" \
  --suggest ranked --index-cache "$tmp/not_a_dir"
[ "$(find "$cache" -type f | grep -vc '\.scd$')" = 0 ] || fail "files left in the cache: $(ls -A "$cache")"
echo "index cache: compiled on first use, read on 3 and 2 ranks and in SPEC mode, one file per source and mode; identical output"
