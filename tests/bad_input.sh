#!/usr/bin/env bash
# bad_input.sh -- spellcheck on bad input and bad options, under mpirun.
#
#   bad_input.sh [--mpiexec MPIEXEC] [--ranks "1 3"] [--variants plain|o|both]
#                SPELLCHECK
#
# Every failure must give: exit status 2, exactly one line on stderr
# ("spellcheck: error: ..."), nothing on stdout, and with -o OUT no OUT and
# no OUT.tmp.* left behind. Each scenario runs on each rank count, once
# plainly and once with -o OUT. Binary junk as input must succeed.
# Every run is wrapped in `timeout 60`, so a hang (a rank left waiting after
# another one gave up) fails instead of blocking the suite.
# Prints one line per check and a closing "N passed, N failed" line.
set -u

mpiexec=mpirun
ranks="1 3"
variants=both
while [ $# -gt 0 ]; do
  case "$1" in
    --mpiexec) mpiexec=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --variants) variants=$2; shift 2 ;;
    -*) echo "usage: bad_input.sh [--mpiexec MPIEXEC] [--ranks \"1 3\"] SPELLCHECK" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -ne 1 ] || [ ! -x "$1" ]; then
  echo "usage: bad_input.sh [--mpiexec MPIEXEC] [--ranks \"1 3\"] SPELLCHECK (executable)" >&2
  exit 2
fi
spellcheck=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)

export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_hwloc_base_binding_policy=none
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_orte_execute_quiet=1
export ASAN_OPTIONS=detect_leaks=0 OMP_NUM_THREADS=2
# mpirun waits 1 s (SIGTERM, then SIGKILL) after a rank exits non-zero; the
# failing runs here need no grace period.
export OMPI_MCA_odls_base_sigkill_timeout=0

work=$(mktemp -d "${TMPDIR:-/tmp}/bad_input.XXXXXX") || exit 1
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1

# Inputs.
printf 'apple\nbanana\ncherry\n' >dict.txt
printf 'apple\nbananna\ncheery\n' >words.txt
printf 'An apple, a bananna.\n' >doc.txt
: >empty.txt
printf '\n \t\r\n\t\n\r\n   \n' >blank-dict.txt
mkdir -p a-dir/sub
printf 'word\n' >a-dir/sub/file.txt
ln -s does-not-exist dangling-link
printf 'apple\n' >unreadable.txt
chmod 000 unreadable.txt
mkdir -p dir-with-unreadable/sub unreadable-subdir/locked
printf 'word\n' >dir-with-unreadable/ok.txt
printf 'word\n' >dir-with-unreadable/sub/locked.txt
chmod 000 dir-with-unreadable/sub/locked.txt
printf 'word\n' >unreadable-subdir/ok.txt
printf 'word\n' >unreadable-subdir/locked/hidden.txt
chmod 000 unreadable-subdir/locked
junk=$here/cases/invalid_utf8/docs/junk.bin
if [ -f "$junk" ]; then
  cp "$junk" junk.bin
else
  head -c 8192 /dev/urandom >junk.bin
fi
mkdir out
chmod 755 "$work"
chmod 777 out
run_as=()

passed=0
failed=0
skipped=0
pass() { passed=$((passed + 1)); echo "PASS  $*"; }
fail() { failed=$((failed + 1)); echo "FAIL  $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP  $*"; }

# run N ARGS... : runs spellcheck on N ranks; sets rc, leaves stdout/stderr.
run() {
  local n=$1
  shift
  timeout 60 ${run_as[@]+"${run_as[@]}"} "$mpiexec" -n "$n" "$spellcheck" "$@" \
    >stdout 2>stderr </dev/null
  rc=$?
}

# check_failure LABEL N OUTFILE(or "") ARGS...
check_failure() {
  local label=$1 n=$2 outfile=$3
  shift 3
  rm -rf out/*
  run "$n" "$@"
  local what="$label [-n $n${outfile:+, -o}]"
  local problems=""
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    problems+=" hung (killed after 60 s);"
  elif [ "$rc" != 2 ]; then
    problems+=" exit status $rc, want 2;"
  fi
  # Open MPI's launcher (its libevent) now and then warns about a closed
  # descriptor while the ranks end after an error: "[warn] Epoll MOD(1) on
  # fd 25 failed. ...". That line is mpiexec's, not spellcheck's.
  grep -v -E '^\[warn\] Epoll [A-Z]+\([0-9]+\) on fd [0-9]+ failed' stderr >stderr.own || true
  local nlines
  nlines=$(wc -l <stderr.own)
  if [ "$nlines" != 1 ] || [ -n "$(tail -c1 stderr.own)" ]; then
    problems+=" stderr has $nlines lines (want exactly 1);"
  elif ! grep -q '^spellcheck: error: ' stderr.own; then
    problems+=" stderr line does not start with 'spellcheck: error: ';"
  fi
  if [ -s stdout ]; then
    problems+=" stdout not empty ($(wc -c <stdout) bytes);"
  fi
  if [ -n "$outfile" ]; then
    if [ -e "$outfile" ]; then
      problems+=" output file left behind;"
    fi
    local left
    left=$(ls -A out)
    if [ -n "$left" ]; then
      problems+=" files left in the output folder: $(echo $left);"
    fi
  fi
  if [ -z "$problems" ]; then
    pass "$what: $(head -c 200 stderr)"
  else
    fail "$what:$problems"
    echo "      args: $*"
    echo "      stderr (first lines):"
    head -5 stderr | cut -c1-300 | sed 's/^/        /'
    [ -s stdout ] && { echo "      stdout (first lines):"; head -3 stdout | cut -c1-300 | sed 's/^/        /'; }
  fi
}

# failure LABEL ARGS... : the scenario on every rank count, plainly and
# with -o OUT (put first, so it is parsed whatever follows).
failure() {
  local label=$1
  shift
  local n
  for n in $ranks; do
    [ "$variants" = o ] || check_failure "$label" "$n" "" "$@"
    [ "$variants" = plain ] || check_failure "$label" "$n" out/result.txt -o out/result.txt "$@"
  done
}

# success LABEL ARGS... : must exit 0; with -o OUT, OUT exists and stdout
# stays empty.
success() {
  local label=$1
  shift
  local n left
  for n in $ranks; do
    if [ "$variants" != o ]; then
      rm -rf out/*
      run "$n" "$@"
      if [ "$rc" = 0 ]; then
        pass "$label [-n $n]: exit 0, $(wc -l <stdout) lines"
      else
        fail "$label [-n $n]: exit status $rc (want 0)"
        head -5 stderr | cut -c1-300 | sed 's/^/        /'
      fi
    fi
    if [ "$variants" != plain ]; then
      rm -rf out/*
      run "$n" -o out/result.txt "$@"
      left=$(ls -A out | grep -v -x result.txt)
      if [ "$rc" = 0 ] && [ ! -s stdout ] && [ -f out/result.txt ] && [ -z "$left" ]; then
        pass "$label [-n $n, -o]: exit 0, $(wc -l <out/result.txt) lines in the file"
      else
        fail "$label [-n $n, -o]: exit status $rc (want 0), stdout $(wc -c <stdout) bytes" \
             "(want 0), output file $([ -f out/result.txt ] && echo present || echo missing)${left:+, left: $left}"
        head -5 stderr | cut -c1-300 | sed 's/^/        /'
      fi
    fi
  done
}

# --- files -------------------------------------------------------------------
failure "missing dictionary" no-such-dict.txt words.txt
failure "missing dictionary (--words)" --words no-such-dict.txt words.txt
failure "missing input" dict.txt no-such-input.txt
failure "missing input (--words)" --words dict.txt no-such-input.txt
failure "missing second input" dict.txt doc.txt no-such-input.txt
failure "dangling link as input" dict.txt dangling-link
failure "directory as dictionary" a-dir doc.txt
failure "empty dictionary" empty.txt doc.txt
failure "empty dictionary (--words)" --words empty.txt words.txt
failure "blank-lines-only dictionary" blank-dict.txt doc.txt
# chmod 000 stops everyone but root; as root, run these as nobody (setpriv),
# when nobody can reach the binary.
unreadable_ok=1
if [ "$(id -u)" = 0 ]; then
  run_as=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp)
  if ! command -v setpriv >/dev/null ||
     ! "${run_as[@]}" test -x "$spellcheck" -a -r dict.txt -a ! -r unreadable.txt 2>/dev/null; then
    unreadable_ok=0
  fi
fi
if [ $unreadable_ok = 1 ]; then
  failure "unreadable dictionary" unreadable.txt doc.txt
  failure "unreadable input" dict.txt unreadable.txt
  failure "unreadable file in an input directory" dict.txt dir-with-unreadable
  failure "unreadable folder in an input directory" dict.txt unreadable-subdir
else
  skip "unreadable files (chmod 000): running as root and cannot run as nobody" \
       "(no setpriv, or nobody cannot reach $spellcheck)"
fi
run_as=()

# --- options -----------------------------------------------------------------
failure "unknown option" --no-such-option dict.txt doc.txt
failure "--threads 0" --threads 0 dict.txt doc.txt
failure "--threads -1" --threads -1 dict.txt doc.txt
failure "--threads abc" --threads abc dict.txt doc.txt
failure "--threads 2x" --threads 2x dict.txt doc.txt
failure "--max-word-length 0" --max-word-length 0 dict.txt doc.txt
failure "--max-word-length abc" --max-word-length abc dict.txt doc.txt
failure "--filter-exchange bogus" --filter-exchange bogus dict.txt doc.txt
failure "--threads without a value" dict.txt doc.txt --threads
failure "--max-word-length without a value" dict.txt doc.txt --max-word-length
failure "--batch-bytes without a value" dict.txt doc.txt --batch-bytes
failure "-o without a value" dict.txt doc.txt -o
failure "no input" dict.txt
failure "no arguments"

# --- junk that must work -----------------------------------------------------
success "binary junk, document mode" dict.txt junk.bin
success "binary junk, word-list mode" --words dict.txt junk.bin

# --- ranked suggestions (--suggest ranked) -------------------------------------
printf 'apple 10\nbanana 5\n' >freq.txt
printf 'apple 10\nbanana -5\n' >freq-negative.txt
printf 'apple 10\nbanana 1000000000000001\n' >freq-huge.txt
printf 'apple 10\nbanana\n' >freq-no-count.txt
printf 'apple 10\nbanana 1.5\n' >freq-fraction.txt
cp junk.bin freq-binary.bin
printf 'apple 1\n\0\n' >>freq-binary.bin
failure "--frequencies missing file" --suggest ranked --frequencies no-such-freq.txt dict.txt doc.txt
failure "--frequencies missing file (--words)" --suggest ranked --frequencies no-such-freq.txt --words dict.txt words.txt
failure "--frequencies binary file" --suggest ranked --frequencies freq-binary.bin dict.txt doc.txt
failure "--frequencies negative count" --suggest ranked --frequencies freq-negative.txt dict.txt doc.txt
failure "--frequencies huge count" --suggest ranked --frequencies freq-huge.txt --words dict.txt words.txt
failure "--frequencies line without a count" --suggest ranked --frequencies freq-no-count.txt dict.txt doc.txt
failure "--frequencies fractional count" --suggest ranked --frequencies freq-fraction.txt dict.txt doc.txt
failure "--frequencies a directory" --suggest ranked --frequencies a-dir dict.txt doc.txt
failure "--max-distance 3" --suggest ranked --max-distance 3 dict.txt doc.txt
failure "--max-distance 0" --suggest ranked --max-distance 0 dict.txt doc.txt
failure "--top 0" --suggest ranked --top 0 dict.txt doc.txt
failure "--top abc" --suggest ranked --top abc dict.txt doc.txt
failure "--suggest foo" --suggest foo dict.txt doc.txt
failure "--suggest without a value" dict.txt doc.txt --suggest
failure "--format jsonl without ranked" --format jsonl dict.txt doc.txt
failure "--format xml" --suggest ranked --format xml dict.txt doc.txt
failure "ranked: missing dictionary" --suggest ranked --frequencies freq.txt no-such-dict.txt doc.txt
success "ranked with a frequency list" --suggest ranked --frequencies freq.txt dict.txt doc.txt
success "ranked jsonl, word-list mode" --suggest ranked --format jsonl --frequencies freq.txt --words dict.txt words.txt
success "ranked on binary junk" --suggest ranked --frequencies freq.txt dict.txt junk.bin

# Hunspell dictionaries: one line naming the file and line, exit 2.
# failure_naming LABEL REGEX ARGS...: failure, and the error names REGEX.
failure_naming() {
  local label=$1 re=$2
  shift 2
  failure "$label" "$@"
  if grep -qE "^spellcheck: error: $re" stderr.own; then
    pass "$label: the error names $re"
  else
    fail "$label: the error does not name $re: $(head -c 200 stderr.own)"
  fi
}
printf 'Haus Baum Hause\n' >hdoc.txt
printf 'SET UTF-8\nSFX A Y 1\nSFX A 0 e .\n' >hok.aff
printf '2\nHaus/A\nBaum\n' >hok.dic
cp hok.dic horphan.dic
printf 'Haus\nBaum\n' >hwords.dic
printf 'SET UTF-8\nSFX A Y 2\nSFX A 0 e .\n' >hrule.aff
cp hok.dic hrule.dic
printf 'SET X-NOPE\n' >hset.aff
cp hok.dic hset.dic
cp hok.aff hnul.aff
printf '2\nHa\0us\nBaum\n' >hnul.dic
cp hok.aff hcount.aff
printf 'zwei\nHaus\n' >hcount.dic
failure_naming "hunspell .dic without its .aff" "horphan\\.dic:1: .*horphan\\.aff" horphan.dic hdoc.txt
failure_naming "hunspell .aff with a malformed rule" "hrule\\.aff:3: " hrule.dic hdoc.txt
failure_naming "hunspell .aff with an unknown SET" "hset\\.aff:1: .*X-NOPE" hset.dic hdoc.txt
failure_naming "hunspell .dic with a NUL byte" "hnul\\.dic:2: " hnul.dic hdoc.txt
failure_naming "hunspell .dic without its count line" "hcount\\.dic:1: " hcount.dic hdoc.txt
failure_naming "--lang of no dictionary" "" --lang xx_NOPE hdoc.txt
success "hunspell dictionary" hok.dic hdoc.txt
success "a word list named .dic" hwords.dic hdoc.txt

[ "$skipped" = 0 ] || echo "($skipped skipped)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
