#!/usr/bin/env bash
# Word-list benchmark (issue: the distributed engine). Builds Release, makes
# the `large` word-list dataset if missing (american-insane dictionary,
# 650k-line list), runs ranks x threads = 1x1, 1x2, 2x1 REPEATS times each,
# and prints the median wall time (mpirun included), the median in-program
# total and phase breakdown, ns per candidate per core and peak memory.
# Appends one CSV row per run to results/words-bench.csv.
#   bench/words-bench.sh [DATA_DIR] [REPEATS]        (defaults: build/data, 5)
#   SPELLCHECK_BENCH_ARGS="--no-trigram-filter"       extra spellcheck flags
#   SPELLCHECK_BENCH_CONFIGS="1x1 1x2 2x1"             which ranks x threads
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$here/build/data}
repeats=${2:-5}
configs=${SPELLCHECK_BENCH_CONFIGS:-"1x1 1x2 2x1"}
extra=${SPELLCHECK_BENCH_ARGS:-}
shared=$here/../shared
if [ ! -f "$data/words/large-w650k.txt" ]; then
  [ -x "$shared/data/make-datasets" ] || { echo "no dataset in $data and no ../shared/data/make-datasets" >&2; exit 2; }
  "$shared/data/make-datasets" "$data" --size small
fi
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$here/build" -j"$(nproc)" --target spellcheck >/dev/null
bin=$here/build/spellcheck
dict=$data/dict/american-insane.txt
list=$data/words/large-w650k.txt
. "$here/scripts/local-mpi-env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
csv=$here/results/words-bench.csv
mkdir -p "$here/results"
[ -f "$csv" ] || echo "date,commit,ranks,threads,extra,wall_s,total_s,read_s,shuffle_s,index_s,filter_s,route_s,judge_s,candidates_s,report_s,candidates,ns_per_candidate_core,peak_rss_mb_max,misspelled" >"$csv"
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "machine: $(nproc) cores; dataset: $list; $repeats runs per point; extra flags: '${extra}'"
for cfg in $configs; do
  p=${cfg%x*}
  t=${cfg#*x}
  rows=()
  for r in $(seq "$repeats"); do
    start=$(date +%s.%N)
    mpirun -q -n "$p" --bind-to none "$bin" --words --threads "$t" $extra --quiet --stats "$work/s.json" \
      -o "$work/out.txt" "$dict" "$list"
    end=$(date +%s.%N)
    rows+=("$(python3 - "$work/s.json" "$start" "$end" "$p" "$t" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
p, t = int(sys.argv[4]), int(sys.argv[5])
ph = {k: v["max"] for k, v in s["phases"].items()}
c = s["counts"]
ns = 1e9 * ph["candidates"] * p * t / max(1, c["candidates_generated"])
rss = max(r["peak_rss_bytes"] for r in s["per_rank"]) / 2**20
print(",".join(str(x) for x in [wall, ph["total"], ph["read"], ph["shuffle"], ph["index"], ph["filter"], ph["route"],
      ph["judge"], ph["candidates"], ph["report"], c["candidates_generated"], ns, rss, c["misspelled"]]))
PY
)")
    echo "$(date -Iseconds),$commit,$p,$t,\"$extra\",${rows[-1]}" >>"$csv"
  done
  printf '%s\n' "${rows[@]}" | python3 -c "
import sys, statistics as st
rows = [list(map(float, l.split(','))) for l in sys.stdin if l.strip()]
col = lambda i: st.median(r[i] for r in rows)
names = ['wall','total','read','shuffle','index','filter','route','judge','candidates','report']
print('%sx%s ranks x threads: median wall %.3f s (min %.3f max %.3f), in-program total %.3f s' % ('$p', '$t', col(0), min(r[0] for r in rows), max(r[0] for r in rows), col(1)))
print('   phases (max over ranks, median): ' + ' '.join('%s=%.3f' % (n, col(i)) for i, n in enumerate(names) if i >= 2))
print('   %.0f candidates, %.2f ns per candidate per core, %.1f M candidates/s, peak RSS %.0f MB, %d misspelled' % (col(10), col(11), col(10) / col(8) / 1e6, col(12), col(13)))
"
done
echo "CSV rows appended to $csv"
