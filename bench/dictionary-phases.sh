#!/usr/bin/env bash
# dictionary-phases.sh ROUNDS DICT INPUT OLD_BIN NEW_BIN [ARGS...] -- the
# dictionary phases (read + shuffle + index + filter timing lines, and in
# ranked mode rank-index, each the maximum over ranks) of OLD_BIN on the
# word list DICT, NEW_BIN on DICT and NEW_BIN on DICT compiled (once,
# first), in turn each round, on 2 ranks x 1 thread; then their medians. ARGS go to every run (--suggest ranked, ...).
#   bench/dictionary-phases.sh 7 /usr/share/dict/american-english-insane docs/ old/spellcheck build/spellcheck
set -eu
[ $# -ge 5 ] || { sed -n '2,8p' "$0"; exit 2; }
rounds=$1 dict=$2 input=$3 old=$4 new=$5
shift 5
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mpirun -n 2 "$new" compile -q -o "$work/dict.scd" "$dict"
for i in $(seq 1 "$rounds"); do
  for v in "old $old $dict" "new $new $dict" "compiled $new $work/dict.scd"; do
    read -r name bin d <<<"$v"
    OMP_NUM_THREADS=1 mpirun -n 2 --bind-to none "$bin" "$@" -o /dev/null "$d" "$input" 2>"$work/err"
    awk -v n="$name" '/timing\] (read|shuffle|index|filter|rank-index) /{split($5,a,"="); sub("s","",a[2]); s+=a[2]}
      END{printf "%s %.4f\n", n, s}' "$work/err"
  done
done | tee "$work/rows" >&2
python3 - "$work/rows" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, s = line.split()
    rows[name].append(float(s))
old = statistics.median(rows["old"])
for name, v in rows.items():
    m = statistics.median(v)
    print(f"{name:9s} dictionary phases {m:.4f} s ({100 * m / old:.0f}% of old; range {min(v):.4f}-{max(v):.4f}, {len(v)} rounds)")
PY
