#!/usr/bin/env bash
# inputs-bench.sh [DATA_DIR] [REPEATS] -- everyday inputs against the plain
# tree on the 1 GB collection (DATA_DIR/docs/large), 2 ranks, end to end
# (mpirun included; wall seconds by /usr/bin/time), the variants run in
# turn in every round so that a busy machine slows them alike; medians and
# ratios to the plain run:
#   plain   spellcheck DICT docs/large
#   zstd    the same files as .zst (zstd -3), gzip as .gz (gzip -6)
#   pipe    find docs/large -type f | xargs cat | spellcheck DICT -
# then decode + ingest MB/s per core (build/bench/ingest_bench, 1 thread).
# The compressed copies are made once under DATA_DIR/compressed/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$here/../data}
reps=${2:-5}
bin=$here/build/spellcheck
dict=$data/dict/american-insane.txt
large=$data/docs/large
[ -d "$large" ] || { echo "inputs-bench: $large missing (make-datasets --size all)" >&2; exit 2; }
. "$here/scripts/local-mpi-env.sh"
for c in gz zst; do
  out=$data/compressed/large-$c
  [ -d "$out" ] && continue
  echo "== making $out"
  (cd "$large" && find . -type d -exec mkdir -p "$out/{}" \; &&
   find . -type f -print0 | xargs -0 -P 2 -n 200 sh -c '
     for f; do if [ "$0" = gz ]; then gzip -6 -c "$f" >"$1/$f.gz"; else zstd -q -3 -c "$f" >"$1/$f.zst"; fi; done' "$c" "$out")
  # (sh -c's $0 is the format, $1 the folder; xargs appends the files.)
done
declare -A times
run() {
  local v=$1 t
  case $v in
    plain) t=$( { /usr/bin/time -f %e mpirun -n 2 "$bin" -q -o /dev/null "$dict" "$large" >/dev/null; } 2>&1 | tail -1) ;;
    zstd) t=$( { /usr/bin/time -f %e mpirun -n 2 "$bin" -q -o /dev/null "$dict" "$data/compressed/large-zst" >/dev/null; } 2>&1 | tail -1) ;;
    gzip) t=$( { /usr/bin/time -f %e mpirun -n 2 "$bin" -q -o /dev/null "$dict" "$data/compressed/large-gz" >/dev/null; } 2>&1 | tail -1) ;;
    pipe) t=$( { /usr/bin/time -f %e sh -c "cd '$large' && find . -type f | xargs cat | mpirun -n 2 '$bin' -q -o /dev/null '$dict' -" >/dev/null; } 2>&1 | tail -1) ;;
  esac
  times[$v]+="$t "
}
for r in $(seq "$reps"); do
  for v in plain zstd gzip pipe; do run $v; done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
p=$(echo "${times[plain]}" | median)
echo "== end to end, 2 ranks, median of $reps (wall s; ratio to plain)"
for v in plain zstd gzip pipe; do
  m=$(echo "${times[$v]}" | median)
  printf '%-6s %7.2f s  %.2fx   runs: %s\n' "$v" "$m" "$(echo "$m / $p" | bc -l)" "${times[$v]}"
done
echo "== decode + ingest, 1 thread (ingest_bench)"
for d in "$large" "$data/compressed/large-zst" "$data/compressed/large-gz"; do
  echo "$d"
  "$here/build/bench/ingest_bench" "$d" --threads 1 --repeat 3 | tail -2
done
