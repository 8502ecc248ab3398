#!/usr/bin/env bash
# Suggestion-quality benchmark: spellcheck against aspell and hunspell on the
# misspelling corpora of ../shared/data/quality (misspelling<TAB>correct).
#
#   bench/quality.sh [BUILD_DIR] [OUT_DIR]      (defaults: build, results)
#
# For each corpus and each of two word lists
#   american-insane  /usr/share/dict/american-english-insane
#   aspell-en_US     `aspell dump master en_US | aspell -l en expand`, one
#                    word a line, sorted unique
# it runs on the distinct misspellings (one a line, corpus order):
#   aspell     aspell -a --sug-mode=normal, with a master dictionary built
#              from the list (`aspell --lang=en create master`; words aspell
#              refuses are dropped and counted) or, for aspell-en_US, its own
#              en_US dictionary (the same words);
#   hunspell   hunspell -a -d X, X.dic = the list (no affix flags: the lists
#              are expanded already), X.aff = the suggestion settings of
#              Debian's en_US.aff (SET, TRY, KEY, ICONV, WORDCHARS, REP, MAP)
#              without its affix and compound rules;
#   spellcheck mpirun -n RANKS spellcheck --words [MODE] --quiet -o OUT LIST MIS
#              MODE ranked: --suggest ranked --max-distance 2 --top 10
#              --frequencies FREQ; default: nothing (all edit-1 candidates in
#              byte order, the baseline);
# and scores the output with bench/quality_score.py (the counting method is
# described there: unit = corpus line, its own correct word, left out when
# that word is not in the list, case-sensitive match; this reproduces the
# quality README's aspell/hunspell figures and the issue's baseline).
# Prints a markdown table and writes it to OUT_DIR/quality.md; appends one row
# per (corpus, word list, tool) to OUT_DIR/quality.csv.
#
# Environment:
#   QUALITY_TOOLS="aspell hunspell spellcheck"   which tools
#   QUALITY_HUNSPELL=0                 skip hunspell (8-40 words/s: about 13 min
#                                      of the run on this machine)
#   QUALITY_WORDLISTS="american-insane aspell-en_US"
#   QUALITY_CORPORA="norvig_testset1 ..."   corpus names (default: every *.tsv)
#   QUALITY_CORPUS_DIR=DIR             default ../shared/data/quality
#   QUALITY_SPELLCHECK_MODE=auto|ranked|default   auto (default): ranked when
#                                      `spellcheck --help` lists --suggest
#   QUALITY_SPELLCHECK_ARGS="..."      replaces the ranked-mode options above
#   QUALITY_FREQ=FILE                  default: the repo's freq/en-80k.txt (or
#                                      data/freq/), else ../shared/data/freq/en-80k.txt
#   QUALITY_RANKS=2                    MPI ranks for spellcheck
#   QUALITY_KEEP=DIR                   keep every tool's raw output in DIR
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
out_dir=${2:-$here/results}
shared=$here/../shared
corpus_dir=${QUALITY_CORPUS_DIR:-$shared/data/quality}
tools=${QUALITY_TOOLS:-"aspell hunspell spellcheck"}
if [ "${QUALITY_HUNSPELL:-1}" = 0 ]; then
  tools=$(echo "$tools" | tr ' ' '\n' | grep -vx hunspell | tr '\n' ' ' || true)
fi
wordlists=${QUALITY_WORDLISTS:-"american-insane aspell-en_US"}
ranks=${QUALITY_RANKS:-2}
scorer=$here/bench/quality_score.py
bin=$build/spellcheck
insane=/usr/share/dict/american-english-insane

die() { echo "quality.sh: $*" >&2; exit 2; }
now() { date +%s.%N; }
# timed CMD...: runs CMD; its CPU seconds (user + system, children included:
# mpirun's ranks) go to $work/cpu. The machine is shared: CPU time is the
# steadier speed figure, wall time the one asked for.
timed() {
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%U %S' -o "$work/cpu" "$@"
  else
    : >"$work/cpu"; "$@"
  fi
}
[ -d "$corpus_dir" ] || die "no corpus directory $corpus_dir"
if [ -n "${QUALITY_CORPORA:-}" ]; then
  corpora=$QUALITY_CORPORA
else
  corpora=$(find "$corpus_dir" -maxdepth 1 -name '*.tsv' -printf '%f\n' | sed 's/\.tsv$//' | sort)
fi
[ -n "$corpora" ] || die "no *.tsv in $corpus_dir"
for t in $tools; do
  case $t in
    aspell|hunspell) command -v "$t" >/dev/null || die "$t not installed" ;;
    spellcheck) [ -x "$bin" ] || die "no $bin (cmake -S $here -B $build -DCMAKE_BUILD_TYPE=Release && cmake --build $build --target spellcheck)" ;;
    *) die "unknown tool $t" ;;
  esac
done

# spellcheck's suggestion mode.
freq=${QUALITY_FREQ:-}
if [ -z "$freq" ]; then
  for freq in "$here/freq/en-80k.txt" "$here/data/freq/en-80k.txt" "$shared/data/freq/en-80k.txt"; do
    [ ! -f "$freq" ] || break
  done
fi
mode=${QUALITY_SPELLCHECK_MODE:-auto}
sc_args=()
if [[ " $tools " == *" spellcheck "* ]]; then
  if [ "$mode" = auto ]; then
    # The help text is read whole first: `grep -q` on a pipe stops reading at
    # the first match, and under pipefail the writer's SIGPIPE would count
    # as a failure (default mode by chance).
    help_text=$("$bin" --help 2>&1 || true)
    if grep -q -- '--suggest' <<<"$help_text"; then mode=ranked; else
      mode=default
      echo "quality.sh: $bin has no --suggest: default mode (all edit-1 candidates, byte order)" >&2
    fi
  fi
  case $mode in
    ranked)
      if [ -n "${QUALITY_SPELLCHECK_ARGS:-}" ]; then
        read -r -a sc_args <<<"$QUALITY_SPELLCHECK_ARGS"
      else
        [ -f "$freq" ] || die "no frequency list $freq (QUALITY_FREQ)"
        sc_args=(--suggest ranked --max-distance 2 --top 10 --frequencies "$freq")
      fi ;;
    default) ;;
    *) die "QUALITY_SPELLCHECK_MODE must be auto, ranked or default" ;;
  esac
  # shellcheck source=scripts/local-mpi-env.sh
  . "$here/scripts/local-mpi-env.sh"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The run takes minutes (hunspell): spellcheck runs from a copy, so that a
# rebuild of BUILD_DIR meanwhile cannot mix two builds into one table.
if [ -x "$bin" ]; then
  cp "$bin" "$work/spellcheck"
  bin=$work/spellcheck
fi
keep=${QUALITY_KEEP:-}
[ -z "$keep" ] || mkdir -p "$keep"
mkdir -p "$out_dir"
export LC_ALL=C.UTF-8

# --- word lists, and each tool's dictionary built from them ----------------
# list_<name>: the list; aspell_opts_<name>, hunspell_dict_<name>; dropped
# counts go to $work/notes.
: >"$work/notes"
declare -A list aspell_opts hunspell_dict aspell_dropped
make_hunspell() {  # NAME LIST
  local d=$work/hunspell-$1
  grep -E '^(SET|TRY|KEY|ICONV|WORDCHARS|REP|MAP)( |$)' /usr/share/hunspell/en_US.aff >"$d.aff" \
    || echo "SET UTF-8" >"$d.aff"
  # A `/` would start affix flags: escape it.
  { wc -l <"$2"; sed 's,/,\\/,g' "$2"; } >"$d.dic"
  hunspell_dict[$1]=$d
}
make_aspell() {  # NAME LIST: a master dictionary from LIST
  local rws=$work/aspell-$1.rws in=$work/aspell-$1.in n tries=0
  # aspell's en data is ISO-8859-1: a word outside it cannot be stored.
  python3 -c '
import sys
for w in open(sys.argv[1], encoding="utf-8", errors="surrogateescape").read().split("\n"):
    try:
        if w: w.encode("latin-1"); print(w)
    except UnicodeEncodeError: pass' "$2" | sort -u >"$in"
  # Drop any word aspell calls invalid, one at a time (none in these lists).
  until aspell --lang=en --encoding=utf-8 create master "$rws" <"$in" 2>"$work/aspell.err"; do
    tries=$((tries + 1))
    local bad
    bad=$(sed -n 's/.*The word "\(.*\)" is invalid.*/\1/p' "$work/aspell.err" | head -1)
    if [ -z "$bad" ] || [ $tries -ge 200 ]; then cat "$work/aspell.err" >&2; die "aspell create master failed"; fi
    grep -vxF -- "$bad" "$in" >"$in.tmp" && mv "$in.tmp" "$in"
  done
  n=$(aspell --lang=en --encoding=utf-8 --master="$rws" dump master | sort -u | wc -l)
  aspell_dropped[$1]=$(( $(sort -u "$2" | wc -l) - n ))
  aspell_opts[$1]="--lang=en --master=$rws"
  echo "- aspell master from $1: $n words stored, ${aspell_dropped[$1]} of the list's distinct words dropped" >>"$work/notes"
}
for wl in $wordlists; do
  case $wl in
    american-insane)
      [ -f "$insane" ] || die "no $insane (apt-get install wamerican-insane)"
      list[$wl]=$insane ;;
    aspell-en_US)
      aspell dump master en_US | aspell -l en expand | tr ' ' '\n' | grep -v '^$' | sort -u >"$work/aspell-en_US.txt"
      list[$wl]=$work/aspell-en_US.txt ;;
    *) die "unknown word list $wl" ;;
  esac
  echo "- word list $wl: $(wc -l <"${list[$wl]}") lines" >>"$work/notes"
  if [[ " $tools " == *" aspell "* ]]; then
    if [ "$wl" = aspell-en_US ]; then
      aspell_opts[$wl]="-d en_US"; aspell_dropped[$wl]=0
    else
      make_aspell "$wl" "${list[$wl]}"
    fi
  fi
  if [[ " $tools " == *" hunspell "* ]]; then make_hunspell "$wl" "${list[$wl]}"; fi
done

# --- runs -------------------------------------------------------------------
rows=$work/rows.tsv
# HEAD when the run starts (the binary may be older: BUILD_DIR is not rebuilt).
commit=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
: >"$rows"
aspell_v=$(aspell --version 2>/dev/null | sed -n 's/.*really Aspell \([^)]*\)).*/\1/p')
hunspell_v=$(hunspell --version 2>/dev/null | sed -n 's/.*really Hunspell \([^)]*\)).*/\1/p' | head -1)
sc_v=""
[ ! -x "$bin" ] || sc_v=$("$bin" --version 2>/dev/null | awk '{print $NF}')
for c in $corpora; do
  tsv=$corpus_dir/$c.tsv
  [ -f "$tsv" ] || die "no corpus $tsv"
  mis=$work/$c.mis
  cut -f1 "$tsv" | awk 'NF && !seen[$0]++' >"$mis"
  nmis=$(wc -l <"$mis")
  sed 's/^/^/' "$mis" >"$mis.ispell"   # ^: the rest of the line is text, never a command
  for wl in $wordlists; do
    for t in $tools; do
      out=$work/$c.$wl.$t.out
      fmt=aspell wall_mpi="" dropped=0
      case $t in
        aspell)
          read -r -a aopts <<<"${aspell_opts[$wl]}"
          s=$(now); timed aspell -a --sug-mode=normal --encoding=utf-8 "${aopts[@]}" <"$mis.ispell" >"$out"; e=$(now)
          dropped=${aspell_dropped[$wl]} ;;
        hunspell)
          echo "quality.sh: hunspell on $c ($nmis words) with $wl ..." >&2
          s=$(now); timed hunspell -a -d "${hunspell_dict[$wl]}" <"$mis.ispell" >"$out"; e=$(now) ;;
        spellcheck)
          fmt=spec
          rm -f "$work/stats.json"
          s=$(now)
          timed mpirun -q -n "$ranks" --oversubscribe "$bin" --words "${sc_args[@]}" --quiet \
            --stats "$work/stats.json" -o "$out" "${list[$wl]}" "$mis"
          e=$(now)
          wall_mpi=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.6f", e - s }')
          # The tool's own time: the in-program total (max over ranks).
          tot=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["phases"]["total"]["max"])' \
                "$work/stats.json" 2>/dev/null || true)
          if [ -n "$tot" ]; then s=0 e=$tot; fi ;;
      esac
      secs=$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.6f", e - s }')
      cpu=$(awk '{ printf "%.3f", $1 + $2 }' "$work/cpu")
      [ -z "$keep" ] || cp "$out" "$keep/$c.$wl.$t.txt"
      python3 "$scorer" "$tsv" "${list[$wl]}" "$out" --format "$fmt" --unit both --counts >"$work/score"
      p=$(sed -n 's/^pair //p' "$work/score")
      m=$(sed -n 's/^misspelling //p' "$work/score")
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$c" "$wl" "$t" "$nmis" "$secs" "$wall_mpi" "$dropped" \
        "$(tr ' ' '\t' <<<"$p")" "$(tr ' ' '\t' <<<"$m")" \
        "$( [ "$t" = spellcheck ] && echo "$mode" || echo -)" "$cpu" >>"$rows"
    done
  done
done

# --- report -----------------------------------------------------------------
sc_cmd="mpirun -n $ranks --oversubscribe spellcheck --words${sc_args[*]:+ ${sc_args[*]}} --quiet -o OUT WORDLIST MISSPELLINGS"
python3 - "$rows" "$out_dir/quality.md" "$out_dir/quality.csv" "$work/notes" "$commit" \
  "aspell $aspell_v" "hunspell $hunspell_v" "spellcheck $sc_v" "$sc_cmd" "$(nproc)" "$load" <<'PY'
import csv, datetime, os, sys
rows_path, md_path, csv_path, notes_path, commit, av, hv, sv, sc_cmd, cores, load = sys.argv[1:]
date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
version = {"aspell": av, "hunspell": hv, "spellcheck": sv}
# The issue's baseline (spellcheck default mode, american-insane) and the
# quality README's aspell figures (own en_US list): top-1 / top-5 / anywhere.
expected = {
    ("norvig_testset1", "american-insane", "spellcheck", "default"): (37.2, 53.2, 61.7),
    ("wikipedia_common_misspellings", "american-insane", "spellcheck", "default"): (46.0, 61.9, 65.2),
    ("aspell_02_orig", "american-insane", "spellcheck", "default"): (19.7, 30.1, 37.8),
    ("norvig_testset1", "aspell-en_US", "aspell", "-"): (75.6, 93.6, 97.7),
    ("wikipedia_common_misspellings", "aspell-en_US", "aspell", "-"): (84.6, 96.9, 98.4),
    ("aspell_02_orig", "aspell-en_US", "aspell", "-"): (59.2, 83.5, 91.0),
}
rows = []
for line in open(rows_path):
    f = line.rstrip("\n").split("\t")
    r = dict(corpus=f[0], wordlist=f[1], tool=f[2], words=int(f[3]), secs=float(f[4]),
             wall_mpi=float(f[5]) if f[5] else None, dropped=int(f[6]),
             p=[int(x) for x in f[7:13]], m=[int(x) for x in f[13:19]], mode=f[19],
             cpu=float(f[20]) if f[20] else None)
    rows.append(r)
def pct(v):  # v: top1 top5 anywhere accepted counted left_out
    n = v[4]
    return [100.0 * x / n if n else 0.0 for x in v[:4]]
def tool_name(r):
    return r["tool"] + (f" ({r['mode']})" if r["tool"] == "spellcheck" else "")
md = []
md.append(f"# Suggestion quality ({date}, commit {commit}, {cores} cores)\n")
md.append(f"{av}, {hv}, {sv}; spellcheck: `{sc_cmd}`.\n")
md.append("Unit: one corpus line (pair); right when that pair's correct word is suggested "
          "(case-sensitive) first / in the first five / anywhere; a pair is left out when its "
          "correct word is not in the word list (an entry, or one once its first letter is "
          "lowered); an accepted misspelling is a miss. Method: `bench/quality_score.py`.\n")
md.append("| corpus | word list | tool | pairs | left out | top-1 % | top-5 % | anywhere % | accepted % | words/s | tool s | wall s (mpirun) | CPU s |")
md.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
checks = []
for r in rows:
    t1, t5, an, acc = pct(r["p"])
    wps = r["words"] / r["secs"] if r["secs"] > 0 else float("inf")
    wall = f"{r['wall_mpi']:.2f}" if r["wall_mpi"] is not None else ""
    cpu = f"{r['cpu']:.2f}" if r["cpu"] is not None else ""
    md.append(f"| {r['corpus']} | {r['wordlist']} | {tool_name(r)} | {r['p'][4]} | {r['p'][5]} | "
              f"{t1:.1f} | {t5:.1f} | {an:.1f} | {acc:.1f} | {wps:,.0f} | {r['secs']:.2f} | {wall} | {cpu} |")
    exp = expected.get((r["corpus"], r["wordlist"], r["tool"], r["mode"]))
    if exp:
        got = tuple(round(x, 1) for x in (t1, t5, an))
        checks.append(f"- {r['corpus']}, {r['wordlist']}, {tool_name(r)}: expected "
                      f"{' / '.join(map(str, exp))}, got {' / '.join(map(str, got))}: "
                      f"{'same' if got == exp else 'DIFFERENT'}")
md.append("")
md.append("Per distinct misspelling instead (right when ANY of its accepted corrections is "
          "suggested; only wikipedia_common_misspellings has several corrections per misspelling):\n")
md.append("| corpus | word list | tool | misspellings | left out | top-1 % | top-5 % | anywhere % | accepted % |")
md.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for r in rows:
    t1, t5, an, acc = pct(r["m"])
    md.append(f"| {r['corpus']} | {r['wordlist']} | {tool_name(r)} | {r['m'][4]} | {r['m'][5]} | "
              f"{t1:.1f} | {t5:.1f} | {an:.1f} | {acc:.1f} |")
md.append("")
md.append("words/s: distinct misspellings / tool seconds (for spellcheck its in-program total, "
          "max over ranks, from --stats; the wall time with mpirun, dictionary loading "
          "included, is the next column). CPU s: user + system seconds of the whole run (mpirun and "
          f"its ranks included). Dictionary builds are not timed. Load average at the start: {load}.\n")
notes = open(notes_path).read().strip()
if notes:
    md.append(notes + "\n")
if checks:
    md.append("Reference figures (issue baseline, quality README):\n")
    md.extend(checks)
    md.append("")
text = "\n".join(md)
print(text)
with open(md_path, "w") as f:
    f.write(text)
new = not os.path.exists(csv_path) or os.path.getsize(csv_path) == 0
with open(csv_path, "a", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    if new:
        w.writerow(["date", "commit", "corpus", "wordlist", "tool", "version", "mode",
                    "pairs", "left_out", "top1_pct", "top5_pct", "anywhere_pct", "accepted_pct",
                    "mis_counted", "mis_left_out", "mis_top1_pct", "mis_top5_pct", "mis_anywhere_pct",
                    "mis_accepted_pct", "distinct_words", "tool_s", "wall_mpirun_s", "cpu_s", "words_per_s",
                    "dict_dropped", "command"])
    for r in rows:
        p, m = pct(r["p"]), pct(r["m"])
        w.writerow([date, commit, r["corpus"], r["wordlist"], r["tool"], version[r["tool"]], r["mode"],
                    r["p"][4], r["p"][5]] + [f"{x:.2f}" for x in p] +
                   [r["m"][4], r["m"][5]] + [f"{x:.2f}" for x in m] +
                   [r["words"], f"{r['secs']:.3f}",
                    f"{r['wall_mpi']:.3f}" if r["wall_mpi"] is not None else "",
                    f"{r['cpu']:.3f}" if r["cpu"] is not None else "",
                    f"{r['words'] / r['secs']:.1f}" if r["secs"] > 0 else "",
                    r["dropped"], sc_cmd if r["tool"] == "spellcheck" else ""])
PY
