#!/usr/bin/env bash
# fuzz.sh SECONDS [TARGET...] -- runs the libFuzzer targets (fuzz/) for
# SECONDS each, one after the other, and prints per target the executions,
# the corpus and the crashes found. Builds them first in build-fuzz/ with
# clang (SPELLCHECK_FUZZ=ON). Seeds: the hand-made test cases. Crashing
# inputs are kept in build-fuzz/artifacts/TARGET/. Exit status 1 when a
# target crashed (or found a mismatch), 77 when clang is missing.
#   FUZZ_JOBS=N   run N targets at once (default 1)
#   FUZZ_CXX_FLAGS=F  the build's optimisation flags, when it is first
#                 configured (default: CMake's RelWithDebInfo, -O2 -g; CI's
#                 short run passes "-O1 -g1 -DNDEBUG", half the build time)
#   FUZZ_BUILD=DIR  build in DIR instead (CI: its ASan + UBSan build, which
#                 it configures with SPELLCHECK_FUZZ=ON for the purpose)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(tokenizer lines options input_plan hunspell markup jsonl warc compiled)
if ! command -v clang++ >/dev/null; then
  echo "fuzz: SKIP: clang++ not found (scripts/install-deps.sh installs clang)"
  exit 77
fi
build=${FUZZ_BUILD:-$here/build-fuzz}
if [ ! -f "$build/CMakeCache.txt" ]; then
  flags=()
  [ -n "${FUZZ_CXX_FLAGS:-}" ] && flags=("-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$FUZZ_CXX_FLAGS")
  CC=clang CXX=clang++ cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSPELLCHECK_FUZZ=ON \
    -DSPELLCHECK_TESTS=OFF "${flags[@]}" >/dev/null || exit 1
fi
cmake --build "$build" -j2 --target $(printf 'fuzz_%s ' "${targets[@]}") >/dev/null || exit 1

# fuzz_one T: one target's run; its summary line (and first errors) in
# $build/fuzz-T.summary, "crashed" appended if it did.
fuzz_one() {
  local t=$1 corpus=$build/corpus/$1 artifacts=$build/artifacts/$1
  local log=$build/fuzz-$t.log summary=$build/fuzz-$t.summary
  # fuzz_compiled initialises MPI (a singleton), whose libraries keep memory
  # to the end and unload their plugins: leaks not checked there, as in
  # every MPI test (tests/cmake/MpiTest.cmake).
  local leaks=1
  [ "$t" = compiled ] && leaks=0
  ASAN_OPTIONS=detect_leaks=$leaks "$build/fuzz/fuzz_$t" -detect_leaks=$leaks -max_total_time="$secs" -print_final_stats=1 -artifact_prefix="$artifacts/" \
    -max_len=4096 "$corpus" >"$log" 2>&1
  local rc=$?
  local execs crashes
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashes=$(find "$artifacts" -type f | wc -l)
  echo "fuzz_$t: ${secs} s, ${execs:-?} executions, corpus $(find "$corpus" -type f | wc -l) inputs, exit $rc, crash files $crashes" >"$summary"
  if [ "$rc" != 0 ]; then
    grep -m3 -E "ERROR|SUMMARY|deadly" "$log" >>"$summary"
    echo crashed >>"$summary"
  fi
}

jobs_at_once=${FUZZ_JOBS:-1}
for t in "${targets[@]}"; do
  corpus=$build/corpus/$t
  artifacts=$build/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  # Seeds: the test cases' inputs (text and lines); options and plans start empty.
  case $t in
    tokenizer|lines) find "$here/tests/cases" -type f -size -64k -exec cp -n {} "$corpus/" \; 2>/dev/null ;;
    # hunspell: each case of hunspell's suite as AFF, DIC and its words.
    hunspell)
      for aff in "$here"/tests/hunspell_suite/*.aff; do
        b=${aff%.aff}
        n=$(basename "$b")
        [ -s "$corpus/$n" ] || { cat "$aff"; printf '\n====\n'; cat "$b.dic"; printf '\n====\n';
          cat "$b.good" "$b.wrong" 2>/dev/null; } 2>/dev/null | head -c 4096 >"$corpus/$n"
      done ;;
    # markup: a filter's number (0 url, 1 html, 2 markdown, 3 tex, 4 nroff),
    # two cut bytes, then the start of a real file of that kind.
    markup)
      k=0
      for f in /usr/share/debian-reference/ch01.en.html /usr/share/doc/zstd/TESTING.md \
               "$here"/tests/filters.sh /usr/share/man/man1/ls.1.gz; do
        [ -f "$f" ] || continue
        for kind in 0 1 2 3 4; do
          { printf "\\$(printf '%03o' $kind)\\100\\200"; case $f in *.gz) gzip -dc "$f" ;; *) cat "$f" ;; esac; } |
            head -c 4096 >"$corpus/seed-$k-$kind"
        done
        k=$((k + 1))
      done ;;
    # jsonl: two cut bytes, then a few records (good, malformed, blank).
    jsonl)
      printf '\100\200{"id": 1, "text": "caf\\u00e9 don\\u2019t \\"q\\" a\\nb \\ud83d\\ude00"}\r\n\n  \n' \
        >"$corpus/seed-1"
      printf '\020\300{"meta": {"text": [1, "x"]}, "text": "two words", "id": "b"}\n{"text": "bad\n' \
        >"$corpus/seed-2"
      printf '\001\377{"text": null}\n{"text": 3}\n["text"]\n{"text": "a"} x\n{"text": "\\u00e9l\\u00e8ve"}' \
        >"$corpus/seed-3" ;;
    # warc: two cut bytes, then a small WARC file: a WET of a licence, and
    # a response with HTTP headers and HTML, a request and stray bytes.
    warc)
      rec() { local LC_ALL=C; printf 'WARC/1.0\r\nWARC-Type: %s\r\n%sContent-Length: %d\r\n\r\n%s\r\n\r\n' "$1" "$2" "${#3}" "$3"; }
      lic=$(head -c 2000 /usr/share/common-licenses/BSD 2>/dev/null || echo "Some licence text.")
      { printf '\100\200'; rec warcinfo "" "software: fuzz.sh"$'\r\n'
        rec conversion "WARC-Target-URI: http://example.com/bsd"$'\r\n' "$lic"; } >"$corpus/seed-wet"
      html=$'HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>Cats &amp; <b>dogs</b></p><script>x</script>'
      { printf '\020\300'; rec response "Content-Type: application/http"$'\r\n' "$html"
        rec request "" $'GET / HTTP/1.1\r\n\r\n'; printf 'junk\r\n'
        rec resource "Content-Type: text/plain"$'\r\n' "plain words"; } >"$corpus/seed-warc" ;;
    # compiled: a case byte (odd: compile the lines, then damage), ranks,
    # buckets, a damage position; then dictionary lines.
    compiled)
      { printf '\001\002\001\000'; head -c 3000 /usr/share/dict/american-english 2>/dev/null || printf 'a\nb\n'; } \
        >"$corpus/seed-whole"
      { printf '\001\003\202\100'; printf 'Apple\napple\nbanana\n\ncafé\nZ\n'; } >"$corpus/seed-cut"
      { printf '\000\001\000\000'; printf 'spellcheck-dict\n'; head -c 200 /dev/zero; } >"$corpus/seed-raw" ;;
  esac
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_at_once" ]; do wait -n || true; done
  rm -f "$build/fuzz-$t.summary"
  fuzz_one "$t" &
done
wait
failed=0
for t in "${targets[@]}"; do
  summary=$build/fuzz-$t.summary
  [ -f "$summary" ] || echo "fuzz_$t: no summary (the run did not finish)" >"$summary"
  grep -v '^crashed$' "$summary"
  if grep -q '^crashed$' "$summary" || ! grep -q "^fuzz_$t: .*exit 0" "$summary"; then failed=1; fi
done
exit $failed
