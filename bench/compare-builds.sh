#!/usr/bin/env bash
# Two builds of spellcheck on the same inputs, alternated run by run (A B A B
# ...) so that a machine shared with other work slows both alike; prints the
# median, min and max of each phase (--stats, max over ranks) per build.
# Used to compare the portable default build with -DSPELLCHECK_NATIVE=ON.
#
#   bench/compare-builds.sh BIN_A BIN_B [DATA_DIR] [REPEATS] [RANKS]
#     DATA_DIR  make-datasets output (default ../data beside the repository)
#     REPEATS   runs of each build per workload (default 7)
#     RANKS     MPI ranks (default 2)
# Workloads: document mode on docs/large with american-insane (tokenizer:
# the ingest phase) and word-list mode on words/large-w650k.txt (candidates).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 2 ] || { sed -n 2,12p "$0"; exit 2; }
a=$(realpath "$1")
b=$(realpath "$2")
data=${3:-$here/../data}
repeats=${4:-7}
ranks=${5:-2}
dict=$data/dict/american-insane.txt
[ -f "$dict" ] || { echo "compare-builds: no $dict (make-datasets)" >&2; exit 2; }
# shellcheck source=../scripts/local-mpi-env.sh
source "$here/scripts/local-mpi-env.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

run() {  # run BIN TAG WORKLOAD ARGS...
  local bin=$1 tag=$2 load=$3
  shift 3
  mpirun -q -n "$ranks" --bind-to none "$bin" --quiet --stats "$work/s.json" -o "$work/out.txt" "$@"
  /usr/bin/python3 - "$work/s.json" "$tag" "$load" >>"$work/rows.tsv" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
for ph, v in s['phases'].items():
    print('%s\t%s\t%s\t%.6f' % (sys.argv[3], sys.argv[2], ph, v['max']))
EOF
  cksum <"$work/out.txt" | cut -d' ' -f1 >>"$work/$load.$tag.sum"
}

for ((i = 0; i < repeats; i++)); do
  for tag in A B; do
    bin=$a
    [ $tag = B ] && bin=$b
    run "$bin" $tag docs-large "$dict" "$data/docs/large"
    run "$bin" $tag words-large --words "$dict" "$data/words/large-w650k.txt"
  done
done
for load in docs-large words-large; do
  [ "$(sort -u "$work/$load".*.sum | wc -l)" = 1 ] || { echo "compare-builds: $load outputs differ" >&2; exit 1; }
done
echo "A = $a"
echo "B = $b"
echo "$ranks ranks, $repeats runs each, alternated; seconds, max over ranks: median [min-max]; outputs identical"
/usr/bin/python3 - "$work/rows.tsv" <<'EOF'
import statistics, sys
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
times = {}
for load, tag, ph, t in rows:
    times.setdefault((load, ph), {}).setdefault(tag, []).append(float(t))
print('%-12s %-11s %-24s %-24s %s' % ('workload', 'phase', 'A', 'B', 'A/B'))
for (load, ph), by in times.items():
    a, b = by['A'], by['B']
    ma, mb = statistics.median(a), statistics.median(b)
    print('%-12s %-11s %-24s %-24s %.3f' % (load, ph, '%.3f [%.3f-%.3f]' % (ma, min(a), max(a)),
                                            '%.3f [%.3f-%.3f]' % (mb, min(b), max(b)), ma / mb if mb else 0))
EOF
