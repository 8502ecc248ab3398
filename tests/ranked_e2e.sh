#!/usr/bin/env bash
# ranked_e2e.sh -- helpers of the ranked-mode end-to-end tests
# (tests/cmake/suite_ranked.cmake).
#
#   ranked_e2e.sh gen OUTDIR
#       makes a deterministic ranked case in OUTDIR: dict.txt (a few thousand
#       entries over a small alphabet, so that neighbours are common, with
#       capitals, apostrophes, multi-byte letters and case variants),
#       words.txt (mutations of entries in every case pattern, random words,
#       invalid UTF-8), docs/ (text made of the same words) and freq.txt (a
#       `word count` list).
#
#   ranked_e2e.sh collection MPIEXEC P SPELLCHECK OUTDIR
#       checks the collection term of the prior on a small case made in
#       OUTDIR (document mode against words mode).
#
#   ranked_e2e.sh sets WANT -- CMD [ARGS...]
#       runs CMD and compares its output with WANT as CANDIDATE SETS: each
#       line `word:  c1 c2 ...` is reduced to the word and its candidates
#       sorted byte-wise, and the lines are sorted, on both sides (the
#       reference lists every candidate within the distance but does not
#       rank them). Exit 0 same, 77 WANT missing, 1 otherwise.
set -u
export LC_ALL=C

normalise() {
  # word, then its candidates sorted, one line per word; lines sorted.
  python3 -c '
import sys
out = []
for raw in sys.stdin.buffer.read().split(b"\n"):
    if not raw:
        continue
    i = raw.find(b": ")
    if i < 0:
        out.append(b"MALFORMED " + raw)
        continue
    cands = sorted(c for c in raw[i + 2:].split(b" ") if c)
    out.append(raw[:i] + b":" + b"".join(b" " + c for c in cands))
out.sort()
sys.stdout.buffer.write(b"".join(l + b"\n" for l in out))
'
}

case "${1:-}" in
gen)
  [ $# -eq 2 ] || { echo "usage: ranked_e2e.sh gen OUTDIR" >&2; exit 2; }
  mkdir -p "$2/docs" || exit 1
  exec python3 - "$2" <<'EOF'
import os, random, sys
out = sys.argv[1]
rng = random.Random(20261203)
letters = list("abcdehlnorst") + ["'", "é", "ß", "ö", "α", "ж"]
def word(lo, hi):
    return "".join(rng.choice(letters) for _ in range(rng.randint(lo, hi)))
def title(w):
    return w[:1].upper() + w[1:]
def upper(w):
    return w.upper()
entries = set()
while len(entries) < 2500:
    w = word(1, 9)
    r = rng.random()
    if r < 0.05:
        w = title(w)
    elif r < 0.08:
        w = upper(w)
    entries.add(w)
entries |= {"the", "The", "paris", "Paris", "école", "ÉCOLE", "naïve", "don't", "ΑΘΗΝΑ", "Москва"}
entries = sorted(entries)
def mutate(w):
    w = list(w)
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(4)
        p = rng.randrange(len(w)) if w else 0
        if op == 0 and w:
            del w[p]
        elif op == 1:
            w.insert(rng.randrange(len(w) + 1), rng.choice(letters))
        elif op == 2 and w:
            w[p] = rng.choice(letters)
        elif op == 3 and len(w) >= 2:
            p = min(p, len(w) - 2)
            w[p], w[p + 1] = w[p + 1], w[p]
    return "".join(w)
words = []
for i in range(700):
    w = mutate(rng.choice(entries)) if i % 5 else word(1, 8)
    r = rng.random()
    if r < 0.15:
        w = title(w)
    elif r < 0.25:
        w = upper(w)
    elif r < 0.3:
        w = upper(rng.choice(entries))  # accepted by case, mostly
    elif r < 0.35:
        w = title(rng.choice(entries))
    if w:
        words.append(w.encode())
words += [b"teh", b"Teh", b"TEH", b"PARIS", b"Paris", b"pAris", "ÉCOLE".encode(), b"Ecole", "naive".encode(),
          "NAÏVE".encode(), b"dont", b"DONT", "αθηνα".encode(), "москва".encode(), "Αθηνα".encode(),
          b"th\xffe", b"\xc3the", b"the\xe2\x82", b"\xed\xa0\x80ab", b"ecol\xc3\xa9\xc3"]
with open(os.path.join(out, "dict.txt"), "wb") as f:
    f.write("".join(e + "\n" for e in entries).encode())
with open(os.path.join(out, "words.txt"), "wb") as f:
    f.write(b"".join(w + b"\n" for w in words))
for k in range(3):
    with open(os.path.join(out, "docs", "doc%d.txt" % k), "wb") as f:
        chunk = words[k::3]
        f.write(b" ".join(chunk) + b".\n" + b", ".join(rng.choice(chunk) for _ in range(200)) + b"\n")
with open(os.path.join(out, "freq.txt"), "w", encoding="utf-8") as f:
    for i, e in enumerate(entries):
        if i % 3 == 0:
            f.write("%s %d\n" % (e, (i * 7919) % 100000))
    f.write("THE 500\nthe\t700\nzzzz 5\r\n\n")
EOF
  ;;
report)
  # ranked_e2e.sh report MPIEXEC RANKS SPELLCHECK DICT DOCS FREQ
  # The ranked --report TSV against what it must agree with: its rows are
  # the ranked output's words in the same order, their candidates are that
  # line's suggestions, and their occurrences and first locations are the
  # SPEC report's for the same word (that one is compared with the serial
  # reference in e2e.report_locations).
  [ $# -eq 7 ] || { echo "usage: ranked_e2e.sh report MPIEXEC RANKS SPELLCHECK DICT DOCS FREQ" >&2; exit 2; }
  mpiexec=$2 ranks=$3 spellcheck=$4 dict=$5 docs=$6 freq=$7
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/ranked_e2e.XXXXXX") || exit 1
  trap 'rm -rf "$tmp"' EXIT
  "$mpiexec" -n "$ranks" "$spellcheck" -q --suggest ranked --frequencies "$freq" \
    -o "$tmp/ranked.txt" --report "$tmp/ranked.tsv" "$dict" "$docs" || { echo "ranked_e2e: FAIL: ranked run"; exit 1; }
  "$mpiexec" -n "$ranks" "$spellcheck" -q -o "$tmp/spec.txt" --report "$tmp/spec.tsv" "$dict" "$docs" ||
    { echo "ranked_e2e: FAIL: SPEC run"; exit 1; }
  python3 - "$tmp" <<'PY'
import sys
tmp = sys.argv[1]
def rows(path):
    lines = open(path, "rb").read().split(b"\n")
    assert lines[0] == b"word\toccurrences\tfirst_location\tcandidates", lines[0]
    return [l.split(b"\t") for l in lines[1:] if l]
ranked = rows(tmp + "/ranked.tsv")
spec = {r[0]: r for r in rows(tmp + "/spec.tsv")}
out = []
for raw in open(tmp + "/ranked.txt", "rb").read().split(b"\n"):
    if raw:
        w, _, c = raw.partition(b": ")
        out.append((w, b" ".join(x for x in c.split(b" ") if x)))
bad = []
if [r[0] for r in ranked] != [w for w, _ in out]:
    bad.append("the report's words are not the output's, in its order")
for r, (w, cands) in zip(ranked, out):
    if len(r) != 4:
        bad.append("malformed row %r" % r); continue
    if r[3] != cands:
        bad.append("%r: candidates %r, output line says %r" % (w, r[3], cands))
    s = spec.get(r[0])
    if s is None or s[1:3] != r[1:3]:
        bad.append("%r: occurrences/location %r, SPEC report %r" % (w, r[1:3], s and s[1:3]))
if not ranked:
    bad.append("no row: the case has no misspelled word")
if bad:
    print("ranked_e2e: FAIL: %d problems, first 20:" % len(bad))
    print("\n".join(bad[:20]))
    sys.exit(1)
print("ranked_e2e: OK: %d rows agree with the output and the SPEC report" % len(ranked))
PY
  ;;
sets)
  [ $# -ge 4 ] && [ "$3" = "--" ] || { echo "usage: ranked_e2e.sh sets WANT -- CMD [ARGS...]" >&2; exit 2; }
  want=$2
  shift 3
  if [ ! -e "$want" ]; then
    echo "ranked_e2e: SKIP: missing expected output $want"
    exit 77
  fi
  tmp=$(mktemp -d "${TMPDIR:-/tmp}/ranked_e2e.XXXXXX") || exit 1
  trap 'rm -rf "$tmp"' EXIT
  echo "ranked_e2e: $*"
  "$@" >"$tmp/got"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "ranked_e2e: FAIL: command exited with status $rc"
    exit 1
  fi
  normalise <"$want" >"$tmp/want.n" || exit 1
  normalise <"$tmp/got" >"$tmp/got.n" || exit 1
  if cmp -s "$tmp/want.n" "$tmp/got.n"; then
    echo "ranked_e2e: OK: $(wc -l <"$tmp/got.n") lines, the same candidate sets as $want"
    exit 0
  fi
  echo "ranked_e2e: FAIL: candidate sets differ from $want (normalised; want < > got), first 40 lines:"
  diff -a "$tmp/want.n" "$tmp/got.n" | head -40 | cut -c1-300 | cat -v
  exit 1
  ;;
collection)
  # collection MPIEXEC P SPELLCHECK OUTDIR: document mode weighs candidates
  # by the collection's counts of correct words (summed over files, ranks
  # and case variants: `Cot` counts for `cot`), words mode does not.
  [ $# -eq 5 ] || { echo "usage: ranked_e2e.sh collection MPIEXEC P SPELLCHECK OUTDIR" >&2; exit 2; }
  mpiexec=$2 p=$3 sc=$4 dir=$5
  mkdir -p "$dir/docs" || exit 1
  printf 'cat\ncot\ncut\nthe\n' >"$dir/dict.txt"
  printf 'cut 100\ncot 30\ncat 10\nthe 100000\n' >"$dir/freq.txt"
  { echo "cxt"; for _ in 1 2 3 4 5 6 7 8 9 10; do echo "the cot"; done; } >"$dir/docs/a.txt"
  for _ in 1 2 3 4 5 6 7 8 9 10; do echo "Cot the"; done >"$dir/docs/b.txt"
  echo cxt >"$dir/words.txt"
  run() { "$mpiexec" -n "$p" "$sc" -q --suggest ranked --format jsonl --frequencies "$dir/freq.txt" "$@"; }
  words=$(run --words "$dir/dict.txt" "$dir/words.txt") || exit 1
  docs=$(run "$dir/dict.txt" "$dir/docs") || exit 1
  exec python3 - "$words" "$docs" <<'EOF2'
import json, math, sys
w, d = (json.loads(x) for x in sys.argv[1:3])
ws = {s["word"]: s["score"] for s in w["suggestions"]}
ds = {s["word"]: s["score"] for s in d["suggestions"]}
ok = True
def check(cond, what):
    global ok
    print(("ok: " if cond else "FAIL: ") + what)
    ok = ok and cond
check([s["word"] for s in w["suggestions"]][:2] == ["cut", "cot"], "words mode: cut before cot (frequencies only)")
check([s["word"] for s in d["suggestions"]][:2] == ["cot", "cut"], "document mode: cot first (20 uses in the collection)")
want = round(1000 * 0.5 * math.log(1 + 20)) / 1000
check(abs(ds["cot"] - ws["cot"] - want) < 1e-9, f"cot gains 0.5 ln(21) = {want}: {ds['cot']} - {ws['cot']}")
check(ds["cut"] == ws["cut"] and ds["cat"] == ws["cat"], "cut and cat, unused in the collection, keep their scores")
sys.exit(0 if ok else 1)
EOF2
  ;;
*)
  echo "usage: ranked_e2e.sh gen OUTDIR | sets WANT -- CMD [ARGS...] | report ... | collection MPIEXEC P SPELLCHECK OUTDIR" >&2
  exit 2
  ;;
esac
