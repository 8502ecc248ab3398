#!/usr/bin/env bash
# Ranked-mode speed benchmark (issue 8's speed targets). On make-datasets'
# `large` collection (1 GB) with the american-insane dictionary, 2 ranks x 1
# thread (the machine's 2 cores), the file cache warm:
#   - SPEC mode and ranked mode end to end, alternated REPEATS times: wall
#     medians, their ratio (target: ranked within 2x), the ranked phase and
#     its misspelled words per second; ranked mode both building its index
#     ("ranked") and reading it from --index-cache ("cached", written by a
#     run before the timed ones);
#   - aspell (`aspell -a --sug-mode=normal`, one core, a master dictionary
#     made from the same word list) on a sample of the same misspelled
#     words (SAMPLE of them, at random with a fixed seed), REPEATS times: its median words
#     per second, and how many times faster the ranked phase is (target:
#     100x).
# With BASE_BIN, that binary's ranked run is alternated with the others too
# (a before/after comparison in the same run).
#   bench/ranked-bench.sh [DATA_DIR] [REPEATS] [BASE_BIN]   (defaults: build/data, 3)
#   RANKED_BENCH_SAMPLE=5000   words for aspell
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$here/build/data}
repeats=${2:-3}
base=${3:-}
sample=${RANKED_BENCH_SAMPLE:-5000}
shared=$here/../shared
if [ ! -d "$data/docs/large" ]; then
  [ -x "$shared/data/make-datasets" ] || { echo "no $data/docs/large and no ../shared" >&2; exit 2; }
  "$shared/data/make-datasets" "$data" --size large
fi
command -v aspell >/dev/null || { echo "ranked-bench: aspell is not installed (apt-get install aspell aspell-en)" >&2; exit 2; }
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$here/build" -j"$(nproc)" --target spellcheck >/dev/null
bin=$here/build/spellcheck
dict=$data/dict/american-insane.txt
docs=$data/docs/large
. "$here/scripts/local-mpi-env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "ranked-bench: commit $commit, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $repeats alternated runs each"

run() {  # run NAME BIN ARGS...: one timed run, a line "NAME wall ranked-phase total misspelled"
  local name=$1 b=$2 s e
  shift 2
  s=$(date +%s.%N)
  mpirun -q -n 2 --bind-to none "$b" --threads 1 --quiet --stats "$work/$name.json" -o "$work/$name.out" "$@" "$dict" "$docs"
  e=$(date +%s.%N)
  python3 - "$work/$name.json" "$s" "$e" "$name" <<'PY' >>"$work/runs"
import json, sys
s = json.load(open(sys.argv[1]))
ph = {k: v["max"] for k, v in s["phases"].items()}
print(sys.argv[4], float(sys.argv[3]) - float(sys.argv[2]), ph.get("ranked", 0.0), ph["total"], s["counts"]["misspelled"])
PY
}
run warmup "$bin"  # the file cache
# The index cache written once, outside the timing (as aspell's master is
# made outside it): "cached" runs read it.
run warmup_cache "$bin" --suggest ranked --index-cache "$work/index"
: >"$work/runs"
for _ in $(seq "$repeats"); do
  run spec "$bin"
  run ranked "$bin" --suggest ranked
  run cached "$bin" --suggest ranked --index-cache "$work/index"
  [ -z "$base" ] || run base "$base" --suggest ranked
done
cmp -s "$work/ranked.out" "$work/cached.out" || { echo "ranked-bench: output with the index cache differs" >&2; exit 1; }

# aspell on a sample of the misspelled words, with a master from the list
# (aspell's en data is ISO-8859-1: words outside it are left out of both).
cut -d: -f1 "$work/spec.out" >"$work/misspelled"
python3 - "$work/misspelled" "$sample" >"$work/sample" <<'PY'
import sys
words = []
for w in open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().split("\n"):
    try:
        if w:
            w.encode("latin-1")
            words.append(w)
    except UnicodeEncodeError:
        pass
# A random sample (seeded): SPEC order puts digit-heavy tokens first and
# every k-th word is no fairer.
import random
sample = random.Random(20261206).sample(words, min(int(sys.argv[2]), len(words)))
print("\n".join("^" + w for w in sample))
PY
python3 -c '
import sys
for w in open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().split("\n"):
    try:
        if w: w.encode("latin-1"); print(w)
    except UnicodeEncodeError: pass' "$dict" | sort -u >"$work/aspell.in"
aspell --lang=en --encoding=utf-8 create master "$work/insane.rws" <"$work/aspell.in"
n=$(wc -l <"$work/sample")
# aspell's rate moves by several percent between runs: REPEATS runs, the
# median.
: >"$work/aspell_times"
for _ in $(seq "$repeats"); do
  s=$(date +%s.%N)
  aspell -a --sug-mode=normal --encoding=utf-8 --lang=en --master="$work/insane.rws" <"$work/sample" >"$work/aspell.out"
  e=$(date +%s.%N)
  echo "$s $e" >>"$work/aspell_times"
done
python3 - "$work/runs" "$n" "$work/aspell_times" <<'PY'
import statistics as st, sys
runs = {}
for line in open(sys.argv[1]):
    name, wall, ranked, total, mis = line.split()
    runs.setdefault(name, []).append((float(wall), float(ranked), float(total), int(mis)))
med = {k: [st.median(r[i] for r in v) for i in range(3)] + [v[0][3]] for k, v in runs.items()}
aspell_rates = [int(sys.argv[2]) / (float(e) - float(s)) for s, e in (l.split() for l in open(sys.argv[3]))]
aspell = st.median(aspell_rates)
spec = med["spec"][0]
print(f"spec mode:   wall {spec:.2f} s (in-program {med['spec'][2]:.2f} s), {med['spec'][3]:,} misspelled words")
for k in [k for k in ("ranked", "cached", "base") if k in med]:
    wall, ranked, total, mis = med[k]
    wps = mis / ranked
    print(f"{k + ':':12} wall {wall:.2f} s = {wall / spec:.1f}x spec mode (target 2x); ranked phase {ranked:.2f} s, "
          f"{wps:,.0f} words/s = {wps / aspell:.0f}x aspell (target 100x)")
print(f"aspell:      {aspell:,.0f} words/s (one core, sug-mode normal, {sys.argv[2]} of the misspelled words; "
      f"median of {len(aspell_rates)} runs, {min(aspell_rates):,.0f}-{max(aspell_rates):,.0f})")
PY
