#!/usr/bin/env bash
# hunspell-bench.sh [RUNS] [LANG...] -- spellcheck with Debian's hunspell
# dictionaries against hunspell itself, per language, on the prose of
# Debian's translated man pages (every page of manpages-LL, troff stripped by
# tests/data/man_text.py into $BENCH_DIR, default /tmp/spellcheck-hunspell-bench).
# For each language, RUNS (default 5) alternated runs of each command, the
# median wall time of each (whole process tree; 2 ranks):
#   load      spellcheck --suggest none on a one-word input: the dictionary's
#             load (parse, expand, shuffle) and start-up, and the read phase's
#             own time and peak memory per rank (--stats)
#   list      spellcheck --suggest none on the pages (the misspelled words:
#             hunspell -l's job), and hunspell -l on the same bytes
#   spec      spellcheck's default output (every edit-1 candidate) on the pages
# and the ratios hunspell -l / spellcheck. BIN: the spellcheck binary
# (default build/spellcheck). COPIES=N (default 1): the pages N times over
# (N files of all pages), a larger collection of the same vocabulary.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
shift || true
langs=("$@")
[ ${#langs[@]} -eq 0 ] && langs=(de_DE fr_FR es_ES ru_RU nl_NL sv_SE)
bin=${BIN:-$here/build/spellcheck}
copies=${COPIES:-1}
dir=${BENCH_DIR:-/tmp/spellcheck-hunspell-bench}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpi=(mpirun -q -n 2 --bind-to none)

now() { date +%s.%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
# time_of CMD...: wall seconds of one run (output discarded).
time_of() {
  local t0 t1
  t0=$(now)
  "$@" >/dev/null 2>&1
  t1=$(now)
  echo "$t1 - $t0" | bc -l
}

printf 'hunspell-bench: commit %s, %s cores, load %s; %s copies; %s alternated runs each, medians\n' \
  "$(git -C "$here" rev-parse --short HEAD 2>/dev/null)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$copies" "$runs"
printf '%-6s %7s %9s %9s %9s %9s %9s %8s %8s %9s\n' lang MB load_s read_s rss_MiB list_s hunspell_s ratio spec_s spec_ratio
for lang in "${langs[@]}"; do
  out=$dir/$lang
  if [ ! -d "$out/docs" ]; then
    python3 "$here/tests/data/man_text.py" "$lang" "$out" 100000 >/dev/null || { echo "$lang: no man pages"; continue; }
  fi
  dic=/usr/share/hunspell/$lang.dic
  rm -rf "$out/copies" && mkdir -p "$out/copies"
  cat "$out"/docs/* >"$out/copies/0.txt"
  for ((c = 1; c < copies; c++)); do cp "$out/copies/0.txt" "$out/copies/$c.txt"; done
  echo Wort >"$out/one.txt"
  mb=$(du -cm "$out"/copies/*.txt | tail -1 | cut -f1)
  load=() list=() hun=() spec=()
  for ((r = 0; r < runs; r++)); do
    load+=("$(time_of "${mpi[@]}" "$bin" --quiet --suggest none --words "$dic" "$out/one.txt")")
    list+=("$(time_of "${mpi[@]}" "$bin" --quiet --suggest none "$dic" "$out/copies")")
    hun+=("$(time_of sh -c "hunspell -d ${dic%.dic} -i utf-8 -l '$out'/copies/*.txt")")
    spec+=("$(time_of "${mpi[@]}" "$bin" --quiet "$dic" "$out/copies")")
  done
  "${mpi[@]}" "$bin" --quiet --suggest none --stats "$out/stats.json" --words "$dic" "$out/one.txt" >/dev/null 2>&1
  read_s=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.3f" % d["phases"]["read"]["max"])' "$out/stats.json" 2>/dev/null)
  rss=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print("%.0f" % (max(r["peak_rss_bytes"] for r in d["per_rank"]) / 2**20))' "$out/stats.json" 2>/dev/null)
  l=$(printf '%s\n' "${load[@]}" | median)
  li=$(printf '%s\n' "${list[@]}" | median)
  h=$(printf '%s\n' "${hun[@]}" | median)
  s=$(printf '%s\n' "${spec[@]}" | median)
  printf '%-6s %7s %9.3f %9s %9s %9.3f %9.3f %8.1f %8.3f %9.1f\n' "$lang" "$mb" "$l" "${read_s:-?}" "${rss:-?}" "$li" "$h" \
    "$(echo "$h / $li" | bc -l)" "$s" "$(echo "$h / $s" | bc -l)"
done
