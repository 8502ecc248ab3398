#!/usr/bin/env bash
# generate.sh OUTDIR -- big inputs for the big_inputs case, made at test time
# (a few MB each, not worth keeping in git). They are bigger than a rank's
# share and a thread's work unit, and most hold no byte where the stream may
# be cut safely (an ASCII separator), so every cut lands inside a token or a
# UTF-8 sequence and must be moved to the end of it. Writes OUTDIR/docs/*
# (document mode) and OUTDIR/words.txt (word-list mode).
set -eu
out=$1
rm -rf "$out"
mkdir -p "$out/docs/more"

# double S N: S repeated 2^N times
double() {
  local s=$1 i
  for ((i = 0; i < $2; i++)); do s=$s$s; done
  printf '%s' "$s"
}

# One token of 3 MB letters (too long: skipped), then two short words.
{ head -c 3000000 /dev/zero | tr '\0' a; printf ' tail wrd\n'; } >"$out/docs/letters.txt"
# 2 MB of invalid bytes around one word, no safe cut at all.
{ head -c 2000000 /dev/zero | tr '\0' '\377'; printf 'wrd\377xyz'
  head -c 1000000 /dev/zero | tr '\0' '\376'; printf 'end'; } >"$out/docs/invalid.bin"
# One 2 MB token of 2-byte letters, and one of "ab'" (apostrophes join).
{ double 'é' 20; printf ' wrd'; } >"$out/docs/more/eacute.txt"
{ double "ab'" 19; printf 'cd wrd'; } >"$out/docs/more/apostrophes.txt"
# Short words separated only by bytes that are no safe cut: invalid bytes,
# U+00A0, U+2014, doubled apostrophes, a lone continuation byte.
pattern=$'\xc3\xa9a\xffb\xe6\x9d\xb1\xc2\xa0xy\x27\x27\xc3\xb6\xe2\x80\x94ab\xe2\x80\x99\xe2\x80\x99\xc3\x9f\x80zq\xe2\x80\x99z\xff'
double "$pattern" 16 >"$out/docs/more/no-safe-cut.txt"

# Word-list mode: one 3 MB line (skipped), then CRLF lines; and the same
# lines without separators between them across a cut.
{ head -c 3000000 /dev/zero | tr '\0' x; printf '\n'
  double $'a\r\nb\r\nab\r\nba\r\nabc\r\n \t\r\n\xff\r\n' 17; printf 'wrd\r\nlast'; } >"$out/words.txt"
echo "generate.sh: wrote $(du -sh "$out" | cut -f1) into $out"
