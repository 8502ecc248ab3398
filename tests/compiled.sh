#!/usr/bin/env bash
# compiled.sh -- compiled dictionaries (spellcheck compile, NAME.scd) under
# mpirun, against the serial reference on the source word list.
#
#   compiled.sh [--mpiexec M] SPELLCHECK REFERENCE WORDS
#
# WORDS: a word list (Debian's american-english-insane); every 4th entry,
# some entries twice and some only capitalised, is the dictionary. The
# collection, made here: generated prose with typos (in capitals too) in a
# few files, one of over a MB (cut between ranks and threads). Checks:
#   compile   the compiled file is the same bytes whether 1, 3 or 4 ranks
#             compile it (and with --buckets 64)
#   spec      a run on the compiled file prints what the reference prints
#             for the word list, on 1x1, 2x2, 3x1, 4x2 and 8x1 ranks x
#             threads (8 oversubscribed), in document mode and with
#             --words; with
#             --per-document; with an --extra-dict (words added and `*word`
#             removed) given to the run
#   ranked    --suggest ranked on the compiled file (its ranked index read)
#             prints what it prints on the word list (1 rank, 1 thread), on
#             1, 3, 4 (x 2 threads), 6 and 8 ranks (oversubscribed), on the
#             --buckets 64 file, and on a file compiled with
#             --no-ranked-index (the index built, no warning); a run with
#             other ranked options, another frequency list or an
#             --extra-dict warns once and builds the index, printing what
#             the word list's run with them prints
#   damaged   a truncated file (in the header, the tables, the words, the
#             hashes), a flipped byte in each part (the ranked index's
#             header, meta and arrays: in ranked runs), another format version,
#             fewer buckets than ranks: exit 2, one line on stderr naming
#             the file, no output file left
#   refused   compile of a malformed hunspell .dic, compile without -o, a run
#             with --buckets: exit 2, one line
# Exit status: 0 passed, 1 a check failed.
set -u
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=tests/e2e_lib.sh
. "$tests_dir/e2e_lib.sh"  # e2e_setup, failed, fail, run, same
e2e_setup compiled "compiled.sh [--mpiexec M] SPELLCHECK REFERENCE WORDS" 3 "$@"
spellcheck=${args[0]} reference=${args[1]} words=${args[2]}

# --- The dictionary and the collection --------------------------------------
python3 - "$words" <<'PY' || { echo "FAIL: making the data"; exit 1; }
import os, random, sys
rng = random.Random(20261206)
entries = [line.rstrip("\n") for line in open(sys.argv[1], encoding="utf-8")]
dictionary = entries[::4]
twice = rng.sample(dictionary, 500)                  # duplicate lines
capital = [w.capitalize() for w in rng.sample(dictionary, 300) if w.islower()]
with open("dict.txt", "w", encoding="utf-8") as f:
    lines = dictionary + twice + capital
    rng.shuffle(lines)
    f.write("\n".join(lines) + "\n")
vocab = [w for w in dictionary if w.isascii() and w.isalpha()]
def typo(w):
    k = rng.randrange(len(w))
    return w[:k] + rng.choice("aeiourst") + w[k + 1:]
def word():
    r = rng.random()
    w = rng.choice(vocab)
    if r < 0.05: return typo(w)
    if r < 0.06: return typo(w).upper()
    if r < 0.07: return w.capitalize()
    return w
def prose(n):
    return " ".join(word() for _ in range(n)) + ".\n"
os.makedirs("docs/sub")
for i in range(6):
    open(f"docs/sub/part-{i}.txt", "w").write(prose(rng.randint(10, 20000)))
open("docs/big.txt", "w").write(prose(150000))
added = [typo(w) for w in rng.sample(vocab, 200)]
removed = rng.sample(vocab, 200)
with open("extra.txt", "w") as f:
    f.write("\n".join(added + ["*" + w for w in removed]) + "\n")
with open("dict-extra.txt", "w", encoding="utf-8") as f:  # the same words as one list, for the reference
    gone = set(removed)
    f.write("\n".join([w for w in lines if w not in gone] + [w for w in added if w not in gone]) + "\n")
# Words as --words reads them: the collection's tokens, one a line.
with open("words.txt", "w") as f:
    f.write("\n".join(prose(30000).rstrip(".\n").split(" ")) + "\n")
PY
dict=$work/dict.txt

# --- compile: the same bytes from any number of compiling ranks -------------
for p in 1 3 4; do
  OMP_NUM_THREADS=2 "$mpiexec" -n $p "$spellcheck" compile -q -o "c$p.scd" "$dict" || fail "compile on $p ranks"
done
for p in 3 4; do
  if cmp -s c1.scd "c$p.scd"; then echo "ok: compiled on $p ranks = on 1"; else fail "compiled on $p ranks differs"; fi
done
"$mpiexec" -n 1 "$spellcheck" compile -q --buckets 64 -o b64-1.scd "$dict" || fail "compile --buckets 64"
"$mpiexec" -n 3 "$spellcheck" compile -q --buckets 64 -o b64-3.scd "$dict" || fail "compile --buckets 64 on 3"
if cmp -s b64-1.scd b64-3.scd; then echo "ok: --buckets 64 on 3 ranks = on 1"; else fail "--buckets 64 differs"; fi
scd=$work/c1.scd
if cmp -s c1.scd b64-1.scd; then fail "--buckets 64 made the default file"; fi

# --- spec: the compiled file's runs against the reference's ------------------
"$reference" -o want-doc.txt "$dict" docs || fail "the reference, documents"
"$reference" --words -o want-words.txt "$dict" words.txt || fail "the reference, --words"
"$reference" --per-document want-pd.jsonl "$dict" docs || fail "the reference, --per-document"
"$reference" -o want-extra.txt dict-extra.txt docs || fail "the reference, extra words"
[ -s want-doc.txt ] && [ -s want-words.txt ] || fail "the reference printed nothing"
for p in 1 2 3 4 8; do
  for t in 1 2; do
    [ $((p % 2)) -eq $((t - 1)) ] && [ $p -lt 5 ] && continue  # 1x1, 2x2, 3x1, 4x2, 8x1
    [ $p -gt 4 ] && [ $t -eq 2 ] && continue
    run $p $t -o got.txt "$scd" docs || fail "documents, $p ranks x $t threads: exit status"
    same want-doc.txt got.txt "documents, compiled, $p ranks x $t threads"
    run $p $t --words -o got.txt "$scd" words.txt || fail "--words, $p ranks x $t threads: exit status"
    same want-words.txt got.txt "--words, compiled, $p ranks x $t threads"
  done
done
for p in 1 3; do
  run $p 2 -o /dev/null --per-document got-pd.jsonl "$scd" docs || fail "--per-document, $p ranks: exit status"
  same want-pd.jsonl got-pd.jsonl "--per-document, compiled, $p ranks"
  run $p 1 -o got.txt --extra-dict extra.txt "$scd" docs || fail "--extra-dict, $p ranks: exit status"
  same want-extra.txt got.txt "--extra-dict at run time, compiled, $p ranks"
done
run 2 1 -o got.txt b64-1.scd docs || fail "--buckets 64 file: exit status"
same want-doc.txt got.txt "documents, the --buckets 64 file, 2 ranks"

# --- ranked: as on the word list (on docs/sub: the ranked runs are slower) --
run 1 1 --suggest ranked -o want-ranked.txt "$dict" docs/sub || fail "ranked on the word list"
for pt in "1 1" "3 1" "4 2" "6 1" "8 1"; do
  read -r p t <<<"$pt"
  run $p $t --suggest ranked -o got.txt "$scd" docs/sub || fail "ranked, $p ranks x $t threads: exit status"
  same want-ranked.txt got.txt "ranked, compiled, $p ranks x $t threads"
done
run 3 1 --suggest ranked -o got.txt b64-3.scd docs/sub || fail "ranked, --buckets 64 file: exit status"
same want-ranked.txt got.txt "ranked, the --buckets 64 file, 3 ranks"
"$mpiexec" -n 2 "$spellcheck" compile -q --no-ranked-index -o plain.scd "$dict" || fail "compile --no-ranked-index"
if [ "$(stat -c %s plain.scd)" -lt "$(stat -c %s "$scd")" ]; then echo "ok: --no-ranked-index is smaller"; else
  fail "--no-ranked-index made no smaller file"; fi
OMP_NUM_THREADS=1 "$mpiexec" -n 2 "$spellcheck" --suggest ranked -o got.txt plain.scd docs/sub 2>err.txt ||
  fail "ranked on a file without an index: exit status"
same want-ranked.txt got.txt "ranked, a file without an index, 2 ranks"
if grep -q warning err.txt; then fail "a file without an index warned: $(cat err.txt)"; fi
ranked_rebuilt() {  # ranked_rebuilt WHAT EXPECT ARGS...: a warning, then the word list's output with ARGS
  local what=$1 expect=$2
  shift 2
  run 1 1 --suggest ranked "$@" -o want.txt "$dict" docs/sub || fail "$what: the word list's run"
  OMP_NUM_THREADS=1 "$mpiexec" -n 2 "$spellcheck" --suggest ranked "$@" -o got.txt "$scd" docs/sub 2>err.txt ||
    fail "$what: exit status"
  same want.txt got.txt "ranked, compiled, $what"
  if [ "$(grep -c "warning: .*not using its ranked index ($expect" err.txt)" -eq 1 ]; then echo "ok: $what warned"; else
    fail "$what: no warning: $(head -c 300 err.txt)"; fi
}
ranked_rebuilt "--max-distance 1" "--max-distance 2 there, 1 here" --max-distance 1
head -n 20000 "$tests_dir/../freq/en-80k.txt" >short-freq.txt
ranked_rebuilt "another frequency list" "compiled with another frequency list" --frequencies short-freq.txt
ranked_rebuilt "an --extra-dict" "the run adds --extra-dict" --extra-dict extra.txt

# --- damaged: one line naming the file, exit 2, no output left ----------------
refused() {  # refused WHAT FILE RANKS EXPECTED-WORDS [ARGS...]: a run on FILE must fail cleanly
  local what=$1 file=$2 p=$3 expect=$4 status lines
  shift 4
  rm -f out.txt
  run "$p" 1 "$@" -o out.txt "$file" docs/sub 2>err.txt
  status=$?
  lines=$(grep -c . err.txt)
  if [ "$status" -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q -- "$file" err.txt || ! grep -q -- "$expect" err.txt ||
    [ -e out.txt ]; then
    fail "$what: status $status, $lines line(s): $(head -c 300 err.txt)"
  else
    echo "ok: $what ($(cat err.txt))"
  fi
}
size=$(stat -c %s "$scd")
words_at=$(python3 -c "import struct,sys; h=open(sys.argv[1],'rb').read(72); print(72 + struct.unpack('<Q', h[40:48])[0])" "$scd")
ranked_at=$((size - $(python3 -c "import struct,sys; print(struct.unpack('<Q', open(sys.argv[1],'rb').read(72)[56:64])[0])" "$scd")))
hashes_at=$((ranked_at - $(wc -l <dict.txt) * 8))
for cut in 16 71 72 $((words_at - 5)) $((words_at + 100)) $((hashes_at + 8)) $((size - 1)); do
  head -c "$cut" "$scd" >cut.scd
  refused "truncated at $cut of $size bytes" cut.scd 2 "truncated\|not a compiled"
done
flip() {  # flip OFFSET: a copy of the file with one byte changed
  python3 -c "
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[int(sys.argv[2])] ^= 0x20
open('flip.scd', 'wb').write(b)" "$scd" "$1"
}
for at in 70 $((words_at - 9)) $((words_at + 3)) $((words_at + (hashes_at - words_at) / 2)) $((hashes_at + 5)) $((ranked_at - 2)); do
  flip "$at"
  # Every rank reads the tables; a bucket only its owner: 1 rank reads all.
  refused "a byte flipped at $at" flip.scd 1 "damaged"
done
# The ranked index: its header, its meta (bucket tables, chunk digests),
# its arrays (the first, a middle one, the delete filter at the end).
for at in $((ranked_at + 20)) $((ranked_at + 400)) $(((ranked_at + size) / 2)) $((size - 3)); do
  flip "$at"
  refused "a byte of the ranked index flipped at $at" flip.scd 1 "damaged" --suggest ranked
done
flip 24  # the header's entry count: the tables no longer add up
refused "the header's entry count changed" flip.scd 2 "damaged\|truncated"
python3 -c "
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[16] = 9
open('format.scd', 'wb').write(b)" "$scd"
refused "another format version" format.scd 2 "format 9"
"$mpiexec" -n 1 "$spellcheck" compile -q --no-ranked-index --buckets 2 -o b2.scd "$dict" || fail "compile --buckets 2"
refused "2 buckets on 3 ranks" b2.scd 3 "at most 2 ranks"
run 2 1 -o got.txt b2.scd docs || fail "2 buckets on 2 ranks: exit status"
same want-doc.txt got.txt "2 buckets on 2 ranks"

# --- refused: what compile does not take --------------------------------------
refused_compile() {  # refused_compile WHAT ARGS...: exit 2, one line, no file
  local what=$1 status
  shift
  rm -f out.scd
  "$mpiexec" -n 2 "$spellcheck" compile "$@" 2>err.txt >/dev/null
  status=$?
  if [ "$status" -eq 2 ] && [ "$(grep -c . err.txt)" -eq 1 ] && [ ! -e out.scd ]; then
    echo "ok: $what ($(cat err.txt))"
  else
    fail "$what: status $status: $(head -c 300 err.txt)"
  fi
}
printf 'SET UTF-8\n' >tiny.aff
printf 'many\nword\n' >tiny.dic
refused_compile "compile of a hunspell .dic without its count" -o out.scd tiny.dic
refused_compile "compile without -o" "$dict"
refused_compile "compile of a compiled file" -o out.scd "$scd"
refused_compile "compile --buckets 3" --buckets 3 -o out.scd "$dict"
run 1 1 --buckets 64 -o out.txt "$dict" docs 2>err.txt
status=$?
if [ $status -eq 2 ] && [ "$(grep -c . err.txt)" -eq 1 ]; then echo "ok: --buckets on a run"; else fail "--buckets on a run: $status"; fi

exit $failed
