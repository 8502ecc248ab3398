#!/usr/bin/env bash
# make_data.sh -- build the test datasets with ../shared/data/make-datasets,
# unless they are already there.
#
#   make_data.sh SHARED_DIR DATA_DIR [SIZE]      (SIZE: small, the default)
#
# Exit status: 0 the data is there (built now or before), 77 (skip) when
# SHARED_DIR/data/make-datasets is absent, otherwise make-datasets' failure.
#
#   make_data.sh --check-count SHARED_DIR EXPECTED [--words] DICT INPUT...
#
# Cross-checks an expected output written by the reference: it must have as
# many lines as SHARED_DIR/data/count-misspelled (an independent Python
# count) finds distinct misspelled words. 77 when either is missing.
set -u
if [ "${1:-}" = "--check-count" ]; then
  if [ $# -lt 5 ]; then
    echo "usage: make_data.sh --check-count SHARED_DIR EXPECTED [--words] DICT INPUT..." >&2
    exit 2
  fi
  counter=$2/data/count-misspelled
  expected=$3
  shift 3
  for p in "$counter" "$expected"; do
    if [ ! -f "$p" ]; then
      echo "make_data: SKIP: $p not found"
      exit 77
    fi
  done
  summary=$(python3 "$counter" --jobs 2 "$@") || exit 1
  echo "count-misspelled: $summary"
  want=$(printf '%s\n' "$summary" | sed -n 's/.*distinct_misspelled=\([0-9]*\).*/\1/p')
  got=$(wc -l <"$expected")
  if [ -n "$want" ] && [ "$want" = "$got" ]; then
    echo "make_data: OK: $expected has $got lines, as many as distinct misspelled words"
    exit 0
  fi
  echo "make_data: FAIL: $expected has $got lines, count-misspelled says ${want:-?}"
  exit 1
fi
if [ $# -lt 2 ]; then
  echo "usage: make_data.sh SHARED_DIR DATA_DIR [SIZE]" >&2
  exit 2
fi
shared=$1
data=$2
size=${3:-small}

# MANIFEST.txt is written last, after every file it lists.
if [ -f "$data/MANIFEST.txt" ] && [ -f "$data/words/DATASETS.txt" ] &&
   grep -q "^docs/$size " "$data/MANIFEST.txt"; then
  echo "make_data: $data already holds the $size datasets"
  exit 0
fi

gen=$shared/data/make-datasets
if [ ! -f "$gen" ]; then
  echo "make_data: SKIP: $gen not found (no ../shared here), tests on datasets will skip"
  exit 77
fi

echo "make_data: building the $size datasets in $data"
exec python3 "$gen" "$data" --size "$size"
