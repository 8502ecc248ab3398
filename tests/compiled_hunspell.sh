#!/usr/bin/env bash
# compiled_hunspell.sh -- compiled hunspell dictionaries (spellcheck compile
# NAME.dic) under mpirun, against runs on the .dic itself.
#
#   compiled_hunspell.sh [--mpiexec M] SPELLCHECK WORDS DIC DIC
#
# WORDS: a word list (Debian's american-english-insane) for the collection
# made here: prose of its words with typos (in capitals too), a few files.
# Each DIC (Debian's hunspell dictionaries: en_US, de_DE with its
# compounds) is compiled on 1 rank (the first also on 3: the same bytes),
# then:
#   spec      runs on the compiled file print what runs on the .dic print,
#             on 3 ranks x 2 threads (the first DIC also on 1 x 1), in
#             document and --words mode
#   ranked    --suggest ranked: the same on 3 ranks, the file's ranked
#             index read (no warning); on a file compiled with
#             --no-ranked-index (the first DIC), the index built from the
#             forms the file keeps, on 2 ranks
#   refused   (the first DIC) a flipped byte in the hunspell section (its header, the .aff,
#             its records; its forms, which a ranked run that builds its
#             index reads), a cut file, --extra-dict at run time: exit 2,
#             one line naming the file, no output left
# Exit status: 0 passed, 1 a check failed.
set -u
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=tests/e2e_lib.sh
. "$tests_dir/e2e_lib.sh"  # e2e_setup, failed, fail, run, same
e2e_setup compiled_hunspell "compiled_hunspell.sh [--mpiexec M] SPELLCHECK WORDS DIC DIC" 4 "$@"
spellcheck=${args[0]} words=${args[1]}
dics=("${args[@]:2}")

python3 - "$words" <<'PY' || { echo "FAIL: making the data"; exit 1; }
import os, random, sys
rng = random.Random(20261206)
vocab = [w for w in (l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")) if w.isascii() and w.isalpha()]
def typo(w):
    k = rng.randrange(len(w))
    return w[:k] + rng.choice("aeiourst") + w[k + 1:]
def word():
    r, w = rng.random(), rng.choice(vocab)
    if r < 0.05: return typo(w)
    if r < 0.06: return typo(w).upper()
    if r < 0.08: return w.capitalize()
    return w
os.makedirs("docs")
for i in range(3):
    open(f"docs/part-{i}.txt", "w").write(" ".join(word() for _ in range(rng.randint(40, 100))) + ".\n")
open("words.txt", "w").write("\n".join(word() for _ in range(150)) + "\n")
PY

first=$(basename "${dics[0]}" .dic)
for dic in "${dics[@]}"; do
  name=$(basename "$dic" .dic)
  OMP_NUM_THREADS=2 "$mpiexec" -n 1 "$spellcheck" compile -q -o "$name.scd" "$dic" || fail "$name: compile on 1 rank"
  if [ "$name" = "$first" ]; then  # (the same code for every dictionary: once)
    OMP_NUM_THREADS=1 "$mpiexec" -n 3 "$spellcheck" compile -q -o "$name-3.scd" "$dic" || fail "$name: compile on 3"
    if cmp -s "$name.scd" "$name-3.scd"; then echo "ok: $name compiled on 3 ranks = on 1"; else
      fail "$name: compiled on 3 ranks differs"; fi
  fi
  scd=$work/$name.scd

  # --- spec -------------------------------------------------------------------
  run 2 1 -o want-doc.txt "$dic" docs || fail "$name: documents on the .dic"
  run 2 1 --words -o want-words.txt "$dic" words.txt || fail "$name: --words on the .dic"
  [ -s want-doc.txt ] && [ -s want-words.txt ] || fail "$name: the .dic's runs printed nothing"
  shapes=("3 2")
  [ "$name" = "$first" ] && shapes=("1 1" "3 2")
  for pt in "${shapes[@]}"; do
    read -r p t <<<"$pt"
    run $p $t -o got.txt "$scd" docs || fail "$name: documents, $p ranks x $t threads: exit status"
    same want-doc.txt got.txt "$name: documents, compiled, $p ranks x $t threads"
    run $p $t --words -o got.txt "$scd" words.txt || fail "$name: --words, $p ranks x $t threads: exit status"
    same want-words.txt got.txt "$name: --words, compiled, $p ranks x $t threads"
  done

  # --- ranked -----------------------------------------------------------------
  run 1 1 --suggest ranked -o want-ranked.txt "$dic" docs || fail "$name: ranked on the .dic"
  for p in 3; do
    OMP_NUM_THREADS=1 "$mpiexec" -n $p "$spellcheck" --suggest ranked -o got.txt "$scd" docs 2>err.txt ||
      fail "$name: ranked, $p ranks: exit status"
    same want-ranked.txt got.txt "$name: ranked, compiled, $p ranks"
    if grep -q "not using its ranked index" err.txt; then fail "$name: the file's ranked index not read"; fi
  done
  if [ "$name" = "$first" ]; then
    "$mpiexec" -n 2 "$spellcheck" compile -q --no-ranked-index -o plain.scd "$dic" || fail "$name: --no-ranked-index"
    run 2 1 --suggest ranked -o got.txt plain.scd docs || fail "$name: ranked without an index: exit status"
    same want-ranked.txt got.txt "$name: ranked, a file without an index (the kept forms), 2 ranks"
  fi

  # --- refused ----------------------------------------------------------------
  [ "$name" = "$first" ] || continue  # (the same checks for every dictionary)
  size=$(stat -c %s "$scd")
  # The section's offset and size (the file's header), where its records
  # and forms start (the section's header: compiled_hunspell.hpp).
  section=$(python3 -c "
import struct, sys
f = open(sys.argv[1], 'rb')
hun, ranked = struct.unpack('<QQ', f.read(72)[48:64])
at = int(sys.argv[2]) - ranked - hun
f.seek(at)
h = f.read(120)
keys = struct.unpack('<Q', h[48:56])[0]
record_bytes, meta_bytes = struct.unpack('<Q', h[88:96])[0], struct.unpack('<Q', h[104:112])[0]
records = at + 120 + meta_bytes + (2 * keys + 1) * 8
print(at, hun, records, records + record_bytes)" "$scd" "$size")
  read -r hun_at hun_bytes records_at forms_at <<<"$section"
  [ "$hun_bytes" -gt 0 ] || fail "$name: no hunspell section"
  for flip in "$((hun_at + 20))" "$((hun_at + 200))" "$(((records_at + forms_at) / 2))" \
    "$((forms_at + 5)) --suggest ranked --max-distance 1"; do
    read -r at ranked <<<"$flip"
    python3 -c "
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[int(sys.argv[2])] ^= 0x08
open('flip.scd', 'wb').write(b)" "$scd" "$at"
    rm -f out.txt
    # shellcheck disable=SC2086  # (the ranked run's options, split)
    run 1 1 $ranked -o out.txt flip.scd docs 2>err.txt
    status=$?
    if [ $status -eq 2 ] && [ "$(grep -c . err.txt)" -eq 1 ] && grep -q "flip.scd: a damaged" err.txt && [ ! -e out.txt ]; then
      echo "ok: $name: a byte of the hunspell section flipped at $at ($(cat err.txt))"
    else
      fail "$name: flipped at $at: status $status: $(head -c 300 err.txt)"
    fi
  done
  head -c $((hun_at + hun_bytes / 2)) "$scd" >cut.scd
  run 2 1 -o out.txt cut.scd docs 2>err.txt
  status=$?
  if [ $status -eq 2 ] && grep -q "cut.scd: a truncated" err.txt; then echo "ok: $name: a cut file"; else
    fail "$name: cut: status $status: $(head -c 300 err.txt)"; fi
  printf 'extra\n' >extra.txt
  run 2 1 -o out.txt --extra-dict extra.txt "$scd" docs 2>err.txt
  status=$?
  if [ $status -eq 2 ] && [ "$(grep -c . err.txt)" -eq 1 ] && grep -q -- "--extra-dict" err.txt; then
    echo "ok: $name: --extra-dict refused"; else fail "$name: --extra-dict: status $status: $(cat err.txt)"; fi
done
exit $failed
