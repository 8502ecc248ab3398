#!/usr/bin/env bash
# make_data.sh -- the test datasets, made by the repository's own generator
# (tests/data/make_test_data.py, Python standard library only), unless they
# are already there.
#
#   make_data.sh DATA_DIR
#
# Exit status: 0 the data is there (made now or before), else the
# generator's failure. Nothing outside the repository is needed.
#
#   make_data.sh --check-count SHARED_DIR EXPECTED [--words] DICT INPUT...
#
# Cross-checks an expected output written by the reference: it must have as
# many lines as there are distinct misspelled words, by the generator's own
# count (DATA_DIR/COUNTS.txt: it knows every token it wrote), or, for data
# made by ../shared/data/make-datasets, by SHARED_DIR/data/count-misspelled
# (an independent Python count). 77 (skip) only when neither exists.
set -u
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = "--check-count" ]; then
  if [ $# -lt 5 ]; then
    echo "usage: make_data.sh --check-count SHARED_DIR EXPECTED [--words] DICT INPUT..." >&2
    exit 2
  fi
  counter=$2/data/count-misspelled
  expected=$3
  shift 3
  if [ ! -f "$expected" ]; then
    echo "make_data: FAIL: $expected not found"
    exit 1
  fi
  mode=documents
  if [ "$1" = "--words" ]; then
    mode=words
    shift
  fi
  dict=$1 input=$2
  data=$(dirname "$(dirname "$dict")")
  if [ -f "$data/COUNTS.txt" ]; then
    rel_dict=${dict#"$data"/} rel_input=${input#"$data"/}
    want=$(awk -F'\t' -v d="$rel_dict" -v i="$rel_input" -v m="$mode" \
      '$1 == d && $2 == i && $3 == m { print $4 }' "$data/COUNTS.txt")
    source="$data/COUNTS.txt"
  elif [ -f "$counter" ]; then
    args=("$dict" "$input")
    [ "$mode" = words ] && args=(--words "${args[@]}")
    summary=$(python3 "$counter" --jobs 2 "${args[@]}") || exit 1
    echo "count-misspelled: $summary"
    want=$(printf '%s\n' "$summary" | sed -n 's/.*distinct_misspelled=\([0-9]*\).*/\1/p')
    source=$counter
  else
    echo "make_data: SKIP: neither $data/COUNTS.txt nor $counter"
    exit 77
  fi
  got=$(wc -l <"$expected")
  if [ -n "$want" ] && [ "$want" = "$got" ]; then
    echo "make_data: OK: $expected has $got lines, as many as distinct misspelled words ($source)"
    exit 0
  fi
  echo "make_data: FAIL: $expected has $got lines, $source says ${want:-nothing for $mode $dict $input}"
  exit 1
fi
if [ $# -ne 1 ]; then
  echo "usage: make_data.sh DATA_DIR" >&2
  exit 2
fi
data=$1

# MANIFEST.txt is written last, after every file it lists.
if [ -f "$data/MANIFEST.txt" ] && [ -f "$data/words/DATASETS.txt" ] &&
   grep -q "^docs/small " "$data/MANIFEST.txt"; then
  echo "make_data: $data already holds the datasets"
  exit 0
fi
echo "make_data: making the test datasets in $data (tests/data/make_test_data.py)"
rm -rf "$data.partial"
python3 "$here/data/make_test_data.py" "$data.partial" || exit 1
mkdir -p "$data" && cp -r "$data.partial"/. "$data"/ && rm -rf "$data.partial"
