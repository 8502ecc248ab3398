#!/usr/bin/env bash
# Document-mode benchmark (issue: document mode). On make-datasets' `medium`
# (100 MB) and `large` (1 GB) collections with the american-insane
# dictionary: median of REPEATS runs at ranks x threads = 1x2 and 2x1,
# printing ingest MB/s, distinct and misspelled words and the phase
# breakdown; then `hunspell -l` on the medium set, the tool users would
# otherwise reach for. Appends CSV rows to results/docs-bench.csv.
#   bench/docs-bench.sh [DATA_DIR] [REPEATS]      (defaults: build/data, 3)
#   SPELLCHECK_BENCH_SIZES="medium large"  SPELLCHECK_BENCH_CONFIGS="1x2 2x1"
#   SPELLCHECK_BENCH_HUNSPELL=0            skip hunspell
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$here/build/data}
repeats=${2:-3}
sizes=${SPELLCHECK_BENCH_SIZES:-"medium large"}
configs=${SPELLCHECK_BENCH_CONFIGS:-"1x2 2x1"}
shared=$here/../shared
for size in $sizes; do
  if [ ! -d "$data/docs/$size" ]; then
    [ -x "$shared/data/make-datasets" ] || { echo "no $data/docs/$size and no ../shared" >&2; exit 2; }
    "$shared/data/make-datasets" "$data" --size "$size"
  fi
done
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$here/build" -j"$(nproc)" --target spellcheck >/dev/null
bin=$here/build/spellcheck
dict=$data/dict/american-insane.txt
. "$here/scripts/local-mpi-env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
csv=$here/results/docs-bench.csv
[ -f "$csv" ] || echo "date,commit,size,ranks,threads,wall_s,total_s,ingest_s,input_mb,ingest_mb_s_per_core,distinct,misspelled,peak_rss_mb_max" >"$csv"
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $repeats runs per point"
for size in $sizes; do
  for cfg in $configs; do
    p=${cfg%x*}
    t=${cfg#*x}
    rows=()
    for r in $(seq "$repeats"); do
      start=$(date +%s.%N)
      mpirun -q -n "$p" --bind-to none "$bin" --threads "$t" --quiet --stats "$work/s.json" -o "$work/out.txt" \
        "$dict" "$data/docs/$size"
      end=$(date +%s.%N)
      rows+=("$(python3 - "$work/s.json" "$start" "$end" "$p" "$t" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
p, t = int(sys.argv[4]), int(sys.argv[5])
ph = {k: v["max"] for k, v in s["phases"].items()}
c = s["counts"]
mb = c["input_bytes"] / 1e6
rss = max(r["peak_rss_bytes"] for r in s["per_rank"]) / 2**20
print(",".join(str(x) for x in [wall, ph["total"], ph["ingest"], mb, mb / ph["ingest"] / (p * t), c["distinct"],
      c["misspelled"], rss] + ["%s=%.3f" % (k, v) for k, v in ph.items()]))
PY
)")
      echo "$(date -Iseconds),$commit,$size,$p,$t,$(echo "${rows[-1]}" | cut -d, -f1-8)" >>"$csv"
    done
    printf '%s\n' "${rows[@]}" | python3 -c "
import sys, statistics as st
rows = [l.strip().split(',') for l in sys.stdin if l.strip()]
num = lambda i: st.median(float(r[i]) for r in rows)
mid = sorted(rows, key=lambda r: float(r[1]))[len(rows) // 2]
print('$size $p x $t: median wall %.2f s, in-program total %.2f s, ingest %.2f s = %.0f MB/s per core (%.0f MB), %d distinct, %d misspelled, peak RSS %.0f MB' % (num(0), num(1), num(2), num(4), num(3), num(5), num(6), num(7)))
print('   phases (max over ranks, median run): ' + ' '.join(mid[8:]))
open('$work/medians', 'a').write('$size $p $t %f %f\\n' % (num(0), num(1)))
"
  done
done
if [ "${SPELLCHECK_BENCH_HUNSPELL:-1}" = 1 ] && command -v hunspell >/dev/null; then
  files=$(find "$data/docs/medium" -type f | LC_ALL=C sort)
  mb=$(cat $files | wc -c | awk '{print $1 / 1e6}')
  start=$(date +%s.%N)
  cat $files | hunspell -d en_US -l >"$work/hunspell.txt"
  end=$(date +%s.%N)
  python3 -c "
s = $end - $start
print('hunspell -l (1 core) on medium: %.1f s = %.2f MB/s, %d lines' % (s, $mb / s, sum(1 for _ in open('$work/hunspell.txt', errors='replace'))))
import os
if os.path.exists('$work/medians'):
    for l in open('$work/medians'):
        size, p, t, wall, total = l.split()
        if size == 'medium':
            print('  spellcheck %sx%s on medium: %.0fx hunspell by wall time incl. mpirun (%.2f s), %.0fx by in-program total (%.2f s)'
                  % (p, t, s / float(wall), float(wall), s / float(total), float(total)))"
fi
echo "CSV rows appended to $csv"
