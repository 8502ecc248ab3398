#!/usr/bin/env bash
# report_locations.sh -- spellcheck's --report (occurrences and first
# file:line:column, counted while tokenizing) against the serial reference's
# on every hand-made document case (tests/cases), byte for byte, with the
# output (-o) of the same run.
#
#   report_locations.sh REFERENCE CASES_DIR EMPTY_DIR -- CMD...
#
# CMD is spellcheck under mpirun (e.g. `mpirun -n 3 spellcheck`); the case's
# options, --report, -o, the dictionary and inputs are appended. Cases made
# by generate.sh are left out (the unit test line_marks_test cuts files at
# every size). Exit 0 all equal, 1 otherwise.
set -u
[ $# -ge 5 ] && [ "$4" = "--" ] || { echo "usage: report_locations.sh REFERENCE CASES_DIR EMPTY_DIR -- CMD..." >&2; exit 2; }
reference=$1 cases=$2 empty_dir=$3
shift 4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/report_locations.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
failed=0 checked=0
for dir in "$cases"/*/; do
  dir=${dir%/}
  name=$(basename "$dir")
  [ -f "$dir/dict.txt" ] && [ ! -f "$dir/generate.sh" ] || continue
  inputs=()
  if [ -f "$dir/inputs.txt" ]; then
    while IFS= read -r line; do
      line=${line%$'\r'}
      [ -n "${line// }" ] || continue
      if [ "$line" = "@EMPTY_DIR@" ]; then inputs+=("$empty_dir"); else inputs+=("$dir/$line"); fi
    done < "$dir/inputs.txt"
  elif [ -d "$dir/docs" ]; then
    inputs=("$dir/docs")
  else
    continue
  fi
  opts=()
  [ -f "$dir/options.txt" ] && read -r -a opts < "$dir/options.txt"
  if ! "$reference" "${opts[@]+"${opts[@]}"}" --report "$tmp/want.tsv" -o "$tmp/want.txt" "$dir/dict.txt" "${inputs[@]}"; then
    echo "FAIL $name: the reference failed"; failed=1; continue
  fi
  rm -f "$tmp/got.tsv" "$tmp/got.txt"
  if ! "$@" "${opts[@]+"${opts[@]}"}" --report "$tmp/got.tsv" -o "$tmp/got.txt" "$dir/dict.txt" "${inputs[@]}"; then
    echo "FAIL $name: spellcheck failed"; failed=1; continue
  fi
  for f in tsv txt; do
    if ! cmp -s "$tmp/want.$f" "$tmp/got.$f"; then
      echo "FAIL $name: .$f differs"
      diff "$tmp/want.$f" "$tmp/got.$f" | head -5
      failed=1
    fi
  done
  checked=$((checked + 1))
done
echo "report_locations: $checked cases checked"
[ "$checked" -gt 0 ] || exit 1
exit $failed
