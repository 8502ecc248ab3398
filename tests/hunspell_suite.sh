#!/usr/bin/env bash
# hunspell_suite.sh -- hunspell's own test suite (tests/hunspell_suite/,
# from hunspell v1.7.1) as a test of spellcheck's hunspell dictionaries.
#
#   hunspell_suite.sh [--mpiexec M] [--jobs N] [--slow] [--only CASE]...
#                     SPELLCHECK REFERENCE SUITE_DIR RANKS THREADS
#
# For every case of SUITE_DIR (NAME.aff, NAME.dic and NAME.good and/or
# NAME.wrong), in byte-wise order of NAME:
#   * the word list is the .good lines, then the .wrong lines, in UTF-8.
#     hunspell's test.sh feeds these files with `-i UTF-8`, and in v1.7.1
#     they are UTF-8 even where the .aff says SET ISO8859-x, so a file
#     that is valid UTF-8 is taken as it is; any other file is converted
#     from the .aff's SET charset (iconv), and one that cannot be converted
#     fails the case;
#   * REFERENCE (tests/reference/hunspell_reference: libhunspell's spell()
#     for words and candidates) writes the expected output, and
#     `M -n RANKS SPELLCHECK --threads THREADS --quiet --words` must print
#     the same bytes (cmp) and exit 0;
#   * the suite's own expectations, judged by the reference: on the .good
#     words alone it must print nothing, on the .wrong words alone one line
#     per distinct word (counted: no parsing of `word: cand...` lines, whose
#     words and candidates may hold ':' or blanks). Here lines are split at
#     blanks first, as hunspell -l / -G tokenise them in hunspell's test.sh.
# Not compared:
#   * hu: Hungarian-only compounding that spellcheck does not implement:
#     it must warn, naming COMPOUNDSYLLABLE;
#   * 1748408-1 .. -4, hunspell's crash tests (malformed AF/AM tables):
#     spellcheck must refuse them: exit status 2, exactly one stderr line
#     "spellcheck: error: .../NAME.aff:LINE: ...", nothing on stdout, and
#     no -o file (nor a temporary one) left behind;
#   * timelimit, slow (minutes): only with --slow, or --only timelimit.
#
# --jobs N: cases run N at a time (default 4): a case is mostly mpirun's and
# MPI_Init's latency (~0.5 s), not CPU. --mpiexec M: the MPI launcher
# (default mpirun; Open MPI's settings come from the environment, as in
# tests/cmake/MpiTest.cmake).
#
# Prints one line per case (ok / FAIL / skip, with its time; a FAIL is
# followed by the first differing line), then a summary line. Exit status:
# 0 every case passed, 1 some case failed, 2 usage.
set -u
export LC_ALL=C

usage() {
  echo "usage: hunspell_suite.sh [--mpiexec M] [--jobs N] [--slow] [--only CASE]..." \
    "SPELLCHECK REFERENCE SUITE_DIR RANKS THREADS" >&2
  exit 2
}

mpiexec=mpirun
only=()
jobs=4
with_slow=0
while [ $# -gt 0 ]; do
  case "$1" in
    --mpiexec) [ $# -ge 2 ] || usage; mpiexec=$2; shift 2 ;;
    --only) [ $# -ge 2 ] || usage; only+=("$2"); shift 2 ;;
    --jobs) [ $# -ge 2 ] && [[ $2 =~ ^[1-9][0-9]*$ ]] || usage; jobs=$2; shift 2 ;;
    --slow) with_slow=1; shift ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -eq 5 ] || usage
spellcheck=$1 reference=$2 suite=$3 ranks=$4 threads=$5
[ -x "$spellcheck" ] || { echo "hunspell_suite: not an executable: $spellcheck" >&2; exit 2; }
[ -x "$reference" ] || { echo "hunspell_suite: not an executable: $reference" >&2; exit 2; }
[ -d "$suite" ] || { echo "hunspell_suite: not a folder: $suite" >&2; exit 2; }
suite=$(cd "$suite" && pwd)

# As tests/cmake/MpiTest.cmake: Open MPI reads these (mpirun -q
# --oversubscribe, root allowed), other MPIs ignore them.
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_orte_execute_quiet=1
export ASAN_OPTIONS=detect_leaks=0 OMP_NUM_THREADS=$threads
# Idle OpenMP threads sleep instead of spinning: each case is a fraction of
# a second of work, and spinning threads of oversubscribed ranks (2 cores
# here) made a run 0.7 s instead of 0.5 s. The results are the same.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
# The refusals need no grace period after the failing rank exits.
export OMPI_MCA_odls_base_sigkill_timeout=0

# Cases of directives spellcheck does not implement: not compared, but the
# warning must name the directive (the README says more). hu: Hungarian-only
# compounding (COMPOUNDSYLLABLE with LANG hu_HU).
declare -A warned=(
  [hu]="COMPOUNDSYLLABLE"
)
refused_re='^1748408-[1-4]$'
# Slow cases, run only with --slow (or --only NAME).
declare -A slow=(
  [timelimit]="a 23-character .wrong word of a four-entry dictionary where every digit string is a compound: each of its ~2,900 edit-distance-1 strings is an exponential compound check (reference ~45 s, libhunspell stops compound searches after a time limit; spellcheck ~90 s on 1 rank)"
)

work=$(mktemp -d "${TMPDIR:-/tmp}/hunspell_suite.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# set_of_aff AFF: the SET charset of AFF (hunspell's default, ISO8859-1, if
# it has none).
set_of_aff() {
  local s
  s=$(sed -n '1s/^\xef\xbb\xbf//; /^SET[ \t]/{s/^SET[ \t]*//; s/[ \t\r].*$//; p; q}' "$1")
  echo "${s:-ISO8859-1}"
}

# to_utf8 FILE CHARSET OUT: FILE as UTF-8 in OUT, one word a line, ending
# in a newline. Returns 1 (and sets why) when it cannot.
to_utf8() {
  local file=$1 set=$2 out=$3
  if iconv -f UTF-8 -t UTF-8 "$file" >"$out" 2>/dev/null; then
    :
  elif iconv -f "$set" -t UTF-8 "$file" >"$out" 2>/dev/null; then
    note+=" ($(basename "$file") converted from $set)"
  else
    why="$(basename "$file") is neither UTF-8 nor convertible from $set"
    return 1
  fi
  # No newline at the end (5 files): add one, or concatenation joins lines.
  if [ -s "$out" ] && [ -n "$(tail -c1 "$out")" ]; then
    echo >>"$out"
  fi
  return 0
}

# first_difference WANT GOT: the first line where they differ.
first_difference() {
  local n
  n=$(awk 'NR == FNR { a[NR] = $0; na = NR; next } { b[FNR] = $0; nb = FNR }
           END { for (i = 1; i <= na || i <= nb; i++)
                   if (i > na || i > nb || a[i] != b[i]) { print i; exit } }' "$1" "$2")
  if [ -z "$n" ]; then
    echo "      the same lines; the final newline differs"
    return
  fi
  local w g
  w=$(sed -n "${n}p" "$1" | cut -c1-300)
  g=$(sed -n "${n}p" "$2" | cut -c1-300)
  [ "$(grep -c '' "$1")" -ge "$n" ] || w="<end of output>"
  [ "$(grep -c '' "$2")" -ge "$n" ] || g="<end of output>"
  echo "      line $n: reference:  $w"
  echo "      line $n: spellcheck: $g"
}

# mpi_launch ARGS...: the launcher with a session folder of its own. Open
# MPI's launchers share /tmp/ompi.HOST.UID by default, and one that starts
# as another removes it fails now and then ("ORTE_ERROR_LOG ...
# session_dir.c"): the cases run several at a time.
mpi_launch() {
  local session rc
  session=$(mktemp -d "$work/ompi.XXXXXX") || return 1
  OMPI_MCA_orte_tmpdir_base=$session timeout -k 5 120 "$mpiexec" "$@"
  rc=$?
  rm -rf "$session"
  return $rc
}

run_spellcheck() {
  mpi_launch -n "$ranks" "$spellcheck" --threads "$threads" --quiet "$@" </dev/null
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# check_refused NAME: spellcheck must refuse the .aff (crash tests).
check_refused() {
  local name=$1 d=$work/$name
  mkdir -p "$d/out"
  printf 'word\n' >"$d/words"
  run_spellcheck --words -o "$d/out/out.txt" "$suite/$name.dic" "$d/words" \
    >"$d/stdout" 2>"$d/stderr"
  local rc=$?
  # Open MPI's launcher now and then warns about a closed descriptor as
  # the ranks end after an error; that line is not spellcheck's.
  grep -v -E '^\[warn\] Epoll [A-Z]+\([0-9]+\) on fd [0-9]+ failed' "$d/stderr" >"$d/stderr.own"
  why=""
  [ "$rc" = 2 ] || why+=" exit status $rc, want 2;"
  if [ "$(wc -l <"$d/stderr.own")" != 1 ] || [ -n "$(tail -c1 "$d/stderr.own")" ]; then
    why+=" stderr has $(wc -l <"$d/stderr.own") lines, want 1;"
  elif ! grep -q -E "^spellcheck: error: .*$name\\.aff:[0-9]+" "$d/stderr.own"; then
    why+=" stderr is not 'spellcheck: error: ...$name.aff:LINE...';"
  fi
  [ -s "$d/stdout" ] && why+=" stdout not empty;"
  [ -n "$(ls -A "$d/out")" ] && why+=" left in the output folder: $(ls -A "$d/out" | tr '\n' ' ');"
  why=${why# }
  if [ -z "$why" ]; then
    return 0
  fi
  echo "      stderr: $(head -3 "$d/stderr" | cut -c1-300 | tr '\n' '|')"
  return 1
}

# check_warned NAME: a case of a feature spellcheck does not implement must
# be named in a warning on stderr, with exit status 0 (never a silent
# difference).
check_warned() {
  local name=$1 d=$work/$name
  mkdir -p "$d"
  printf 'word\n' >"$d/words"
  # (without --quiet, which keeps warnings off stderr too)
  mpi_launch -n "$ranks" "$spellcheck" --threads "$threads" --words "$suite/$name.dic" \
    "$d/words" </dev/null >"$d/stdout" 2>"$d/stderr"
  local rc=$?
  why=""
  [ "$rc" = 0 ] || why+=" exit status $rc, want 0;"
  grep -q -E "^spellcheck: warning: .*$name\\.aff: .*${warned[$name]}" "$d/stderr" ||
    why+=" no warning naming ${warned[$name]};"
  why=${why# }
  [ -z "$why" ] && return 0
  echo "      stderr: $(head -3 "$d/stderr" | cut -c1-300 | tr '\n' '|')"
  return 1
}

# check_case NAME: the comparison and the expectations.
check_case() {
  local name=$1 d=$work/$name
  mkdir -p "$d"
  local set
  set=$(set_of_aff "$suite/$name.aff")
  : >"$d/good"
  : >"$d/wrong"
  if [ -f "$suite/$name.good" ]; then
    to_utf8 "$suite/$name.good" "$set" "$d/good" || return 1
  fi
  if [ -f "$suite/$name.wrong" ]; then
    to_utf8 "$suite/$name.wrong" "$set" "$d/wrong" || return 1
  fi
  cat "$d/good" "$d/wrong" >"$d/words"

  if ! "$reference" --words -o "$d/want" "$suite/$name.dic" "$d/words" 2>"$d/ref.err"; then
    why="the reference failed: $(head -1 "$d/ref.err")"
    return 1
  fi
  run_spellcheck --words "$suite/$name.dic" "$d/words" >"$d/got" 2>"$d/stderr"
  local rc=$?
  if [ $rc != 0 ]; then
    why="spellcheck exited with status $rc: $(head -1 "$d/stderr" | cut -c1-300)"
    return 1
  fi
  if [ -s "$d/stderr" ]; then
    note+=" (stderr: $(head -1 "$d/stderr" | cut -c1-200))"
  fi
  if ! cmp -s "$d/want" "$d/got"; then
    why="output differs from the reference ($(wc -l <"$d/want") lines expected, $(wc -l <"$d/got") printed)"
    first_difference "$d/want" "$d/got" >"$d/diff"
    return 1
  fi

  # The suite's expectations, judged by libhunspell (the reference). As
  # hunspell's test.sh (hunspell -l, -G) tokenises each line, so do these
  # checks, at blanks: morph.good has 16 lines of two words ("drink eat"),
  # which the comparison above gives whole to both programs and spell()
  # rejects as one word.
  local kind bad
  for kind in good wrong; do
    [ -s "$d/$kind" ] || continue
    tr ' \t\r' '\n\n\n' <"$d/$kind" | grep -v '^$' >"$d/$kind.tokens"
    if ! "$reference" --words -o "$d/$kind.out" "$suite/$name.dic" "$d/$kind.tokens" 2>"$d/ref.err"; then
      why="the reference failed on the .$kind words: $(head -1 "$d/ref.err")"
      return 1
    fi
    if [ $kind = good ]; then
      bad=$(wc -l <"$d/$kind.out")
      if [ "$bad" != 0 ]; then
        why="$bad .good words rejected by libhunspell: $(head -5 "$d/$kind.out" | cut -c1-80 | tr '\n' '|')"
        return 1
      fi
    else
      bad=$(($(sort -u "$d/$kind.tokens" | wc -l) - $(wc -l <"$d/$kind.out")))
      if [ "$bad" != 0 ]; then
        why="$bad .wrong words accepted by libhunspell: $(wrong_accepted "$d/$kind.tokens" "$d/$kind.out" | head -5 | tr '\n' ' ')"
        return 1
      fi
    fi
  done
  return 0
}

# wrong_accepted WORDS OUT: the words with no `word: ` line in OUT (for the
# message only; a word holding ': ' could be missed).
wrong_accepted() {
  sed 's/^[ \t\r]*//; s/[ \t\r]*$//' "$1" | grep -v '^$' | sort -u |
    awk 'NR == FNR { out[NR] = $0; n = NR; next }
         { found = 0; for (i = 1; i <= n; i++) if (index(out[i], $0 ": ") == 1) { found = 1; break }
           if (!found) print }' "$2" -
}

# run_one NAME: checks one case, leaving its verdict in $work/NAME.result
# (first line: ok/FAIL/skip line; then the details of a failure).
run_one() {
  local name=$1 t0 ok
  t0=$(now)
  why=""
  note=""
  mkdir -p "$work/$name"
  if [[ $name =~ $refused_re ]]; then
    check_refused "$name" >"$work/$name/msg"
    ok=$?
    [ $ok = 0 ] && note=" (refused with status 2)"
  elif [ -n "${warned[$name]+x}" ]; then
    check_warned "$name" >"$work/$name/msg"
    ok=$?
    [ $ok = 0 ] && note=" (not compared: warned about ${warned[$name]})"
  else
    check_case "$name" >"$work/$name/msg"
    ok=$?
  fi
  if [ $ok = 0 ]; then
    echo "ok    $name ($(elapsed "$t0") s)$note"
  else
    echo "FAIL  $name ($(elapsed "$t0") s):$note $why"
    cat "$work/$name/msg"
    [ -f "$work/$name/diff" ] && cat "$work/$name/diff"
  fi >"$work/$name.result"
}

start=$(now)
cases=()
for dic in "$suite"/*.dic; do
  name=$(basename "$dic" .dic)
  [ -f "$suite/$name.aff" ] || continue
  [ -f "$suite/$name.good" ] || [ -f "$suite/$name.wrong" ] || continue
  if [ ${#only[@]} -gt 0 ]; then
    keep=0
    for o in "${only[@]}"; do [ "$o" = "$name" ] && keep=1; done
    [ $keep = 1 ] || continue
  fi
  cases+=("$name")
done
mapfile -t cases < <(printf '%s\n' "${cases[@]+"${cases[@]}"}" | grep -v '^$' | sort)
if [ ${#cases[@]} = 0 ]; then
  echo "hunspell_suite: no case in $suite" >&2
  exit 1
fi

echo "hunspell_suite: ${#cases[@]} cases, $ranks rank(s), $threads thread(s), $jobs at a time"
running=0
for name in "${cases[@]}"; do
  if [ -n "${slow[$name]+x}" ] && [ $with_slow = 0 ] && [ ${#only[@]} = 0 ]; then
    echo "skip  $name: slow, run with --slow: ${slow[$name]}" >"$work/$name.result"
    continue
  fi
  if [ "$running" -ge "$jobs" ]; then
    wait -n
    running=$((running - 1))
  fi
  run_one "$name" &
  running=$((running + 1))
done
wait

passed=0
failed=0
skipped=0
failed_names=()
for name in "${cases[@]}"; do
  if [ ! -s "$work/$name.result" ]; then
    echo "FAIL  $name: no verdict (the runner itself failed)"
  else
    cat "$work/$name.result"
  fi
  case $(head -c4 "$work/$name.result" 2>/dev/null) in
    "ok  ") passed=$((passed + 1)) ;;
    skip) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)); failed_names+=("$name") ;;
  esac
done
echo "hunspell_suite: $passed passed, $failed failed, $skipped skipped in $(elapsed "$start") s${failed_names[*]:+ (failed: ${failed_names[*]})}"
[ $failed = 0 ]
