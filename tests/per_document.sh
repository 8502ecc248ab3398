#!/usr/bin/env bash
# per_document.sh -- --per-document FILE (one JSON line per document) under
# mpirun, against the serial reference.
#
#   per_document.sh [--mpiexec M] SPELLCHECK REFERENCE WORDS
#
# WORDS: a word list (Debian's american-english-insane); every 4th entry is
# the dictionary. The collection, made here: generated prose with typos
# (repeated ones, one-off ones, words in capitals) in a few dozen files of
# different sizes in nested folders, one of a few MB (cut between ranks and
# threads), empty files and files without words, numbers, tokens with
# digits, long tokens, URLs and addresses, and odd file names (a quote, a
# backslash, a tab, non-ASCII). Checks:
#   compare  spellcheck's per-document file equals the reference's byte for
#            byte on 1-4 ranks x 1-2 threads: SPEC and ranked mode, with and
#            without --filter url,digits, --per-document-top 0, 3 and the
#            default, --max-word-length 5; the main output is unchanged by
#            --per-document; the reference's file names every file, in
#            byte-wise path order, as valid JSON
#   jsonl    JSON Lines records named by --id-field give the same file as
#            the same texts as plain files named as the ids
#   refused  --per-document with --words, and an unwritable FILE: exit 2,
#            one line on stderr, no file left
# Exit status: 0 passed, 1 a check failed.
set -u
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=tests/e2e_lib.sh
. "$tests_dir/e2e_lib.sh"  # e2e_setup, failed, fail, run, same
e2e_setup per_document "per_document.sh [--mpiexec M] SPELLCHECK REFERENCE WORDS" 3 "$@"
spellcheck=${args[0]} reference=${args[1]} words=${args[2]}
awk 'NR % 4 == 1' "$words" >dict.txt  # a smaller dictionary: faster runs
dict=$work/dict.txt

# --- The collection --------------------------------------------------------
# docs/: the plain files. jsonl/corpus.jsonl: records {"id":"rec/NNNNN.txt",
# "text":...} (non-ASCII escaped, \u00e9), and jsonl/rec/NNNNN.txt the same
# texts as plain files (zero-padded: byte order is record order).
python3 - "$dict" <<'PY' || { echo "FAIL: making the collection"; exit 1; }
import json, math, os, random, sys
rng = random.Random(20260611)
entries = [line.rstrip("\n") for line in open(sys.argv[1], encoding="utf-8")]
vocab = rng.sample([e for e in entries if e.isascii() and e.isalpha() and e.islower()], 3000)
accented = [e for e in entries if not e.isascii() and e.isalpha()]
def typo(w):
    k = rng.randrange(len(w))
    op = rng.randrange(3)
    if op == 0 and len(w) > 3: return w[:k] + w[k + 1:]
    if op == 1: return w[:k] + rng.choice("aeiourst") + w[k:]
    return w[:k] + w[k + 1:k + 2] + w[k:k + 1] + w[k + 2:]
repeated = [typo(w) for w in rng.sample(vocab, 150)]
weights = [1 / (i + 1) for i in range(len(repeated))]  # a few typos are common
odd = ["1999", "42", "3.14", "2026-06-11", "mp3", "x86", "4th", "B2B", "naïve", "café", "Zürich", "don’t",
       "dogs'", "'quoted'", "rock'n'roll", "word—word", "x" * 64, "y" * 65, "z" * 70, "qq" + "a" * 62,
       "https://example.com/qqpath/index.html", "qq.user@example.org", "/usr/share/qqdoc", "C:\\qqwin\\dir",
       "http://x.org/a?b=c&d=e"]
def word():
    r = rng.random()
    if r < 0.04: return rng.choices(repeated, weights)[0]
    if r < 0.05: return typo(rng.choice(vocab))
    if r < 0.055: return rng.choice(vocab).upper()  # ranked mode accepts these
    if r < 0.057: return rng.choice(accented).upper()
    if r < 0.06: return rng.choice(odd)
    return rng.choice(vocab)
def sentence():
    ws = [word() for _ in range(rng.randint(3, 16))]
    ws[0] = ws[0][:1].upper() + ws[0][1:]
    return " ".join(ws) + rng.choice([". ", "! ", "? ", ".\n", ";\n", ".\r\n", " -- "])
def prose(size):
    parts, n = [], 0
    while n < size:
        parts.append(sentence())
        n += len(parts[-1].encode())
    return "".join(parts)
def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f: f.write(text)

for i in range(36):
    folder = ["docs/prose", "docs/prose/more", "docs/a/b/c", "docs/z"][i % 4]
    put(f"{folder}/part-{i:02d}.txt", prose(int(math.exp(rng.uniform(math.log(100), math.log(80000))))))
put("docs/big/big.txt", prose(3_000_000))
put("docs/empty.txt", "")
put("docs/a/b/empty-too.txt", "")
put("docs/blank.txt", " \n\t--- ... !!! ’’ ''\n")
put("docs/numbers.txt", "1 22 333 4444\n2026-06-11 3.14 007\n")
put("docs/digits.txt", "mp3 x86 4th B2B 1st 2nd\n")
put("docs/urls.txt", "See https://example.com/qqpath and mail qq.user@example.org or /usr/share/qqdoc.\n")
put("docs/long.txt", " ".join(["x" * 64, "y" * 65, "Pneumonoultramicroscopicsilicovolcanoconiosis", "z" * 200]))
put("docs/one-typo.txt", "Thhe")
put("docs/tie.txt", " ".join(vocab[:31] + ["qqzzx"]) + "\n")  # 31/32: 0.96875 to 4 places
put("docs/a.txt", prose(300))  # docs/a.txt before docs/a/...: byte-wise path order
put("docs/Zeta.txt", prose(500))
put("docs/café.txt", prose(700))
put('docs/odd "quoted" \\ name.txt', prose(400))
put("docs/tab\tname.txt", prose(400))

texts = ["", "1999 42", "Caf\u00e9 d\u00e9j\u00e0 vu, na\u00efve \u00c9COLE \u201cquoted\u201d don\u2019t \U0001F600 end",
         'A "quoted" line with a back\\slash, a\ttab and\nnew lines\r\n', "Thhe only tyop"]
texts += [prose(rng.randint(1, 600)).replace("e ", "\u00e9 ", rng.randint(0, 2)) for _ in range(95)]
os.makedirs("jsonl/rec")
with open("jsonl/corpus.jsonl", "w", encoding="ascii") as out:  # json.dumps escapes non-ASCII
    for i, text in enumerate(texts):
        out.write(json.dumps({"id": f"rec/{i:05d}.txt", "text": text}, separators=(",", ":")) + "\n")
        put(f"jsonl/rec/{i:05d}.txt", text)
PY
find docs -type f | LC_ALL=C sort >files.txt

# --- compare: the per-document file against the reference's ----------------
compare() {  # compare NAME "P:T..." ARGS...: the reference, then spellcheck on each P ranks x T threads
  local name=$1 combos=$2 combo p t
  shift 2
  "$reference" --per-document "want-$name.jsonl" "$@" "$dict" docs || { fail "the reference, $name"; return; }
  for combo in $combos; do
    p=${combo%:*} t=${combo#*:}
    rm -f "got-$name.jsonl"
    run "$p" "$t" --per-document "got-$name.jsonl" "$@" "$dict" docs >/dev/null ||
      { fail "spellcheck, $name, $p ranks x $t threads"; continue; }
    same "want-$name.jsonl" "got-$name.jsonl" "$name, $p ranks x $t threads"
  done
}
compare spec "1:1 4:2"
compare spec-top3 "2:2 3:1" --per-document-top 3
compare spec-url-digits "3:1 2:1" --filter url,digits
compare spec-url-digits-top0 "4:2 1:2" --filter url,digits --per-document-top 0
compare spec-length5 "2:1" --max-word-length 5
# Ranked mode filters by default (--filter auto): none is said where meant.
compare ranked-top0 "2:1 4:1" --suggest ranked --filter none --per-document-top 0
compare ranked "1:2 3:2" --suggest ranked --filter none
compare ranked-url-digits-top3 "4:1 2:2" --suggest ranked --filter url,digits --per-document-top 3
compare ranked-url-digits "3:2 1:1" --suggest ranked --filter url,digits

# The main output beside --per-document is the usual one.
"$reference" -o want-main.txt "$dict" docs || fail "the reference, main output"
run 3 2 -o got-main.txt --per-document got-main.jsonl "$dict" docs || fail "spellcheck, main output"
same want-main.txt got-main.txt "the main output beside --per-document"

# The reference's own file is what the contract says, so that the
# comparisons above are not vacuous: valid JSON, every file once in
# byte-wise path order, empty files with null, some typos in the big file,
# the top lists as long as asked, ranked mode accepting capitals.
if python3 - files.txt want-spec.jsonl want-spec-top3.jsonl want-ranked.jsonl <<'PY'; then
import json, sys
files = open(sys.argv[1], "rb").read().decode().split("\n")[:-1]
spec, top3, ranked = ([json.loads(l) for l in open(p, encoding="utf-8")] for p in sys.argv[2:5])
assert [d["document"] for d in spec] == files, "not every file, in byte-wise order"
by_name = {d["document"]: d for d in spec}
assert by_name["docs/empty.txt"] == {"document": "docs/empty.txt", "tokens": 0, "words": 0, "misspelled": 0,
                                     "distinct_misspelled": 0, "in_dictionary": None, "top": []}
assert by_name["docs/numbers.txt"]["tokens"] > 0 and by_name["docs/numbers.txt"]["in_dictionary"] is None
assert by_name["docs/tie.txt"]["in_dictionary"] == 0.9688
big = by_name["docs/big/big.txt"]
assert big["distinct_misspelled"] > 100 and len(big["top"]) == 5 and big["top"][0][1] > big["top"][4][1]
assert all(len(d["top"]) == min(3, d["distinct_misspelled"]) for d in top3)
assert sum(d["misspelled"] for d in ranked) < sum(d["misspelled"] for d in spec), "ranked accepts no capitals"
PY
  echo "ok: the reference's per-document file"
else
  fail "the reference's per-document file"
fi

# --- jsonl: records named by --id-field -------------------------------------
compare_jsonl() {  # compare_jsonl NAME "P:T..." ARGS...: corpus.jsonl against rec/
  local name=$1 combos=$2 combo p t
  shift 2
  (cd jsonl && "$reference" --per-document "../want-$name.jsonl" "$@" "$dict" rec) || { fail "the reference, $name"; return; }
  for combo in $combos; do
    p=${combo%:*} t=${combo#*:}
    rm -f "got-$name.jsonl"
    run "$p" "$t" --input-format jsonl --id-field id --per-document "got-$name.jsonl" "$@" "$dict" jsonl/corpus.jsonl \
      >/dev/null || { fail "spellcheck, $name, $p ranks x $t threads"; continue; }
    same "want-$name.jsonl" "got-$name.jsonl" "$name, $p ranks x $t threads"
  done
}
compare_jsonl jsonl "1:1 2:2 4:2"
compare_jsonl jsonl-ranked-url-digits-top3 "3:1" --suggest ranked --filter url,digits --per-document-top 3
[ "$(wc -l <want-jsonl.jsonl)" -eq 100 ] || fail "the reference: not 100 records"

# --- refused: exit 2, one line on stderr, no file left -----------------------
refused() {  # refused WHAT ARGS...: spellcheck on 2 ranks
  local what=$1
  shift
  : >err.txt
  local before after status
  before=$(ls -A)
  run 2 1 "$@" >/dev/null 2>err.txt
  status=$?
  after=$(ls -A)
  if [ $status -ne 2 ] || [ "$(wc -l <err.txt)" -ne 1 ] || [ "$before" != "$after" ] || [ -e /nonexistent-dir ]; then
    fail "$what: status $status, $(wc -l <err.txt) lines on stderr"
    diff <(echo "$before") <(echo "$after")
    cat err.txt
  else
    echo "ok: $what refused"
  fi
}
printf 'apple\nbananna\n' >words.txt
refused "--per-document with --words" --words --per-document words.jsonl "$dict" words.txt
refused "--per-document /nonexistent-dir/x.jsonl" --per-document /nonexistent-dir/x.jsonl "$dict" docs
mkdir a-folder
refused "--per-document a-folder" --per-document a-folder "$dict" docs
[ -z "$(ls -A a-folder)" ] || fail "--per-document a-folder: files left in it"
exit $failed
