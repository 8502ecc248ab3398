#!/usr/bin/env bash
# context.sh -- --context on (ranked mode weighed by the collection's word
# pairs) under mpirun, against the serial reference
# (tests/reference/context_reference.py).
#
#   context.sh [--mpiexec M] SPELLCHECK WORDS HUNSPELL
#
# WORDS: a word list (Debian's american-english-insane), the dictionary;
# HUNSPELL: a hunspell .dic (Debian's en_US), the same checks on fewer shapes.
# The collection, made here: prose from a few hundred common words in
# sentences that repeat their pairs, with typos whose candidates the pairs
# tell apart, run-together pairs, words written apart ("with out", and
# "with-out": never merged) (and capitals at sentences' starts), and
# its own frequency list, in a dozen files, one of
# about a megabyte (cut into units between ranks and threads: the pairs
# and neighbours across the cuts must be joined). Checks:
#   compare   the jsonl output (suggestions reordered, each occurrence's
#             best and margin) and the text output equal the reference's,
#             computed from the same run with --context off, byte for byte
#             on 1-4 ranks x 1-2 threads (--merge on --merge-ratio 10),
#             with --context-weight 2, with --merge on (ratio 200), with
#             --split off --merge off, and with the hunspell dictionary on
#             3x2 (merges off, the default); --report's rows (each
#             occurrence's best) those of the reference's jsonl. The word
#             list is read as given on 1x1, compiled (spellcheck compile)
#             on the other runs.
#   changes   context reorders some words, splits some and merges some
#             pairs (else the test could not fail)
#   edges     a pair apart across units' edges counted on every rank and
#             thread count
#   fix       --fix DIR: the folder and the change list equal the
#             reference's corrections (margin 5 or more) applied by hand;
#             a word inside code or markup left as written
#   stream    standard input: said on stderr, ranked without context;
#             --fix refused (status 2, one line)
# Exit status: 0 passed, 1 a check failed.
set -u
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=tests/e2e_lib.sh
. "$tests_dir/e2e_lib.sh"  # e2e_setup, failed, fail, run, same
e2e_setup context "context.sh [--mpiexec M] SPELLCHECK WORDS HUNSPELL" 3 "$@"
spellcheck=${args[0]} words=${args[1]} hunspell=${args[2]}
python=${SPELLCHECK_TEST_PYTHON:-python3}

# --- The collection --------------------------------------------------------
"$python" - "$words" <<'PY' || { echo "FAIL: making the collection"; exit 1; }
import os, random, sys
rng = random.Random(20261207)
entries = set(line.rstrip("\n") for line in open(sys.argv[1], encoding="utf-8"))
common = ("the of and to in a is that for it as was with be by on not he this are or his from at which but "
          "have an they you were her she there been one all we their has would when if so no will more out up "
          "into do than who some could them other then its time only these may first any my now such like our "
          "over man me even most made after also did many before must through years where much your way well "
          "down should because each just those people how too little state good very make world still own see "
          "men work long get here between both life being under never day same another know while last might "
          "great old year off come since against go came right used take three states himself few house use "
          "during without again place around however home small found thought went say part once general high "
          "upon school every don does got united left number course war until always away something fact though "
          "water less public put think almost hand enough far took head yet government system better set told "
          "nothing night end why called didn eyes find going look asked later knew point next city business give "
          "group toward young days let room president side social present given several order national second "
          "possible rather per face among form important often things looked early white case john become large "
          "big need four within felt along children saw best church ever least power development light thing "
          "seemed family interest want members mind country area others done turned although open god service").split()
common = [w for w in common if w in entries]
# Sentences from a few hundred templates: their pairs repeat.
# ("a" one word in ten: a one-letter part common enough to split off.)
templates = [["a" if rng.random() < 0.1 else rng.choice(common) for _ in range(rng.randint(4, 9))] for _ in range(300)]
def typo(w):
    for _ in range(20):
        k = rng.randrange(len(w))
        op = rng.randrange(3)
        if op == 0 and len(w) > 3: t = w[:k] + w[k + 1:]
        elif op == 1: t = w[:k] + rng.choice("aeiourst") + w[k:]
        else: t = w[:k] + w[k + 1:k + 2] + w[k:k + 1] + w[k + 2:]
        if t != w and t not in entries and t.capitalize() not in entries:
            return t
    return w
typos = {w: typo(w) for w in rng.sample([w for w in common if len(w) >= 4], 60)}
# Words that are two common words ("without"), written apart now and then
# ("with out"; with a hyphen, in a hyphenated word, or "with Out": never
# merged).
apart_cuts = {}
for w in common:
    for at in range(2, len(w) - 1):
        if w[:at] in common and w[at:] in common:
            apart_cuts[w] = at
def sentence():
    s = list(rng.choice(templates))
    for i, w in enumerate(s):
        if w in typos and rng.random() < 0.15:
            s[i] = typos[w]
        elif w in apart_cuts and rng.random() < 0.04:
            at = apart_cuts[w]
            s[i] = w[:at] + (" " if rng.random() < 0.8 else "-") + w[at:]
            # In a hyphenated word ("man-with out", "with out-man"), or the
            # second word with a capital ("with Out"): never merged.
            r = rng.random()
            if r < 0.05:
                s[i] = rng.choice(common) + "-" + s[i]
            elif r < 0.1:
                s[i] = s[i] + "-" + rng.choice(common)
            elif r < 0.15 and " " in s[i]:
                s[i] = w[:at] + " " + w[at:].capitalize()
    # Run-together words: a pair the collection also has apart (now and
    # then an identifier's inner capital, never split); one pair written
    # as one half the time (as often together as apart: never split).
    if rng.random() < 0.05:
        i = rng.randrange(len(s) - 1)
        if s[i].isalpha() and s[i + 1].isalpha() and s[i] + s[i + 1] not in entries:
            s[i:i + 2] = [s[i] + (s[i + 1].capitalize() if rng.random() < 0.1 else s[i + 1])]
    elif s[:2] == templates[0][:2] and rng.random() < 0.5 and s[0] + s[1] not in entries:
        s[0:2] = [s[0] + s[1]]
    s[0] = s[0][:1].upper() + s[0][1:]
    return " ".join(s) + rng.choice([".", ".", ",", ";", "!", "?"])
def text(n_sentences):
    lines, line = [], []
    for _ in range(n_sentences):
        line.append(sentence())
        if rng.random() < 0.2:
            lines.append(" ".join(line))
            line = []
    lines.append(" ".join(line))
    return "\n".join(lines) + "\n"
os.makedirs("docs/sub", exist_ok=True)
with open("docs/big.txt", "w") as f:
    f.write(text(25000))
for i in range(10):
    with open(f"docs/{'sub/' if i % 2 else ''}part{i:02d}.txt", "w") as f:
        f.write(text(rng.randint(0, 400)))
open("docs/empty.txt", "w").close()
# A name ("Satan", never lower-case here) is no join: "sat an" stays.
with open("docs/names.txt", "w") as f:
    f.write("Then Satan came.\n" * 30 + "He sat an hour.\n")
# The frequency list (a split's prior is scaled to its total).
with open("freq.txt", "w") as f:
    for w in common:
        f.write(f"{w} {rng.randint(1000, 10**9)}\n")
PY

ranked() { run "$@" --suggest ranked --max-distance 1 --frequencies freq.txt; }
# The word list compiled once (its ranked index built once, not in each of
# ~25 runs: CI time); the runs without context and on 1x1 read the list.
"$mpiexec" -n 1 "$spellcheck" compile -q --max-distance 1 --frequencies freq.txt -o words.scd "$words" ||
  fail "compiling the word list"
scd=$work/words.scd

# --- compare ---------------------------------------------------------------
ranked 1 1 --format jsonl --context off -o base.jsonl "$words" docs || fail "the run without context"
for weight in 0.5 2; do
  "$python" "$tests_dir/reference/context_reference.py" base.jsonl docs "$weight" want-$weight.jsonl want-$weight.txt \
    freq.txt on 10 || fail "the reference (weight $weight)"
done
"$python" "$tests_dir/reference/context_reference.py" base.jsonl docs 0.5 want-200.jsonl want-200.txt freq.txt on 200 ||
  fail "the reference with merges 200 times as often"
"$python" "$tests_dir/reference/context_reference.py" base.jsonl docs 0.5 want-nosplit.jsonl want-nosplit.txt freq.txt off off ||
  fail "the reference without splits"
cmp -s base.jsonl want-0.5.jsonl && fail "the reference says context changes nothing"
changed=$("$python" -c '
import json, sys
a = [json.loads(l)["suggestions"] for l in open(sys.argv[1])]
b = [json.loads(l)["suggestions"] for l in open(sys.argv[2])]
print(sum(x[0]["word"] != y[0]["word"] for x, y in zip(a, b) if x))' base.jsonl want-0.5.jsonl)
if [ "${changed:-0}" -gt 0 ]; then echo "ok: changes: context puts another first for $changed words"; else fail "changes: context reorders no first suggestion"; fi
splits=$(grep -c '"best":"[a-z]* [a-z]*"' want-0.5.jsonl)
if [ "${splits:-0}" -gt 0 ]; then echo "ok: changes: $splits run-together words split"; else fail "changes: no word split"; fi
grep -q '"best":"[aA] [a-z]*"' want-0.5.jsonl || fail "changes: no one-letter part split off"
merges=$(grep -c '"merge":true' want-0.5.jsonl)
if [ "${merges:-0}" -gt 0 ]; then echo "ok: changes: $merges pairs written apart merged"; else fail "changes: no merge"; fi
grep -q '"word":"[A-Z][a-z]* [a-z]*","occurrences":[0-9]*,"suggestions":\[[^]]*\],"merge"' want-0.5.jsonl ||
  fail "changes: no merge at a sentence's start"
grep -q -- '-' docs/big.txt || fail "changes: no hyphen"
for pt in "1 1" "1 2" "2 1" "2 2" "3 2" "4 1"; do
  set -- $pt
  dict=$scd
  [ "$1$2" = 11 ] && dict=$words
  ranked "$1" "$2" --format jsonl --context on --merge on --merge-ratio 10 -o got.jsonl "$dict" docs ||
    fail "the run on $1x$2"
  same want-0.5.jsonl got.jsonl "compare: jsonl on $1 ranks x $2 threads"
done
for pt in "1 1" "3 2"; do
  set -- $pt
  ranked "$1" "$2" --context on -o got.txt "$scd" docs || fail "the text run on $1x$2"
  same want-0.5.txt got.txt "compare: text on $1 ranks x $2 threads"
done
ranked 2 2 --format jsonl --context on --context-weight 2 --merge on --merge-ratio 10 -o got.jsonl "$scd" docs ||
  fail "the run with weight 2"
same want-2.jsonl got.jsonl "compare: --context-weight 2 on 2 ranks x 2 threads"
ranked 3 1 --format jsonl --context on --merge on -o got.jsonl "$scd" docs || fail "the run with --merge on"
same want-200.jsonl got.jsonl "compare: --merge on (ratio 200) on 3 ranks x 1 thread"
ranked 3 1 --format jsonl --context on --split off --merge off -o got.jsonl "$scd" docs ||
  fail "the run with --split off --merge off"
same want-nosplit.jsonl got.jsonl "compare: --split off --merge off on 3 ranks x 1 thread"
# --report: a row per line of the jsonl (merges too): the word, its count,
# its first place, its candidates, and its occurrences by their best
# ("their at a:1:1 a:3:4; there at b:2:1", bests in the word's order).
"$python" -c '
import json, os, re, sys
first = {}  # each spelling: its first place (in_context lists none for a word without candidates)
paths = sorted((os.path.join(d, f) for d, _, fs in os.walk(sys.argv[2]) for f in fs), key=os.fsencode)
for path in paths:
    for n, text in enumerate(open(path, "rb").read().split(b"\n"), 1):
        for m in re.finditer(rb"[A-Za-z]+", text):
            first.setdefault(m.group().decode(), "%s:%d:%d" % (path, n, m.start() + 1))
print("word\toccurrences\tfirst_location\tcandidates\tin_context")
for line in open(sys.argv[1]):
    o = json.loads(line)
    words = [s["word"] for s in o["suggestions"]]
    groups = {}
    for occ in o["in_context"]:
        groups.setdefault(occ["best"], []).append(occ["at"])
    bests = "; ".join(b + " at " + " ".join(groups[b]) for b in sorted(groups, key=words.index))
    at = o["in_context"][0]["at"] if o.get("merge") else first[o["word"]]
    print("%s\t%d\t%s\t%s\t%s" % (o["word"], o["occurrences"], at, " ".join(words), bests))' want-0.5.jsonl docs >report.want
ranked 2 2 --context on --merge on --merge-ratio 10 --report report.tsv -o /dev/null "$scd" docs ||
  fail "the run with --report"
same report.want report.tsv "compare: --report (each occurrence's best, merges) on 2 ranks x 2 threads"
# A hunspell dictionary: words judged at their fold keys' ranks.
ranked 1 1 --format jsonl --context off -o hbase.jsonl "$hunspell" docs || fail "hunspell: the run without context"
"$python" "$tests_dir/reference/context_reference.py" hbase.jsonl docs 0.5 hwant.jsonl hwant.txt freq.txt ||
  fail "hunspell: the reference"
for pt in "3 2"; do
  set -- $pt
  ranked "$1" "$2" --format jsonl --context on -o got.jsonl "$hunspell" docs || fail "hunspell: the run on $1x$2"
  same hwant.jsonl got.jsonl "compare: hunspell dictionary, jsonl on $1 ranks x $2 threads"
done

# --- edges -----------------------------------------------------------------
# A pair apart across the cut between two ranks' or threads' units (the
# cut inside "with" snaps to the blank after it), or across the end of the
# reader's buffer (1 MB: "out" read in the next): every "with out" counted
# on every rank and thread count, and none in a hyphenated word ("with
# out-goo": with --filter none, the cut inside "out" snaps to the hyphen;
# 13 bytes, so that some unit's cut falls there).
mkdir -p edges
"$python" -c '
import sys
open("edges/a.txt", "w").write("".join("with out" + " " * (1 + i % 3) for i in range(120000)) + "\n")
open("edges/b.txt", "w").write("without " * 1230000 + "\n")
open("edges/c.txt", "w").write("with out-goo " * 40000 + "\n")'
for pt in "1 1 auto" "2 1 auto" "3 2 auto" "4 2 auto" "3 2 none" "4 1 none"; do
  set -- $pt
  ranked "$1" "$2" --format jsonl --context on --merge on --merge-ratio 10 --filter "$3" -o edges.jsonl "$scd" edges ||
    fail "edges: the run on $1x$2, --filter $3"
  n=$(grep -o '"word":"with out","occurrences":[0-9]*' edges.jsonl | grep -o '[0-9]*$')
  if [ "${n:-0}" = 120000 ]; then
    echo "ok: edges: every pair apart on $1 ranks x $2 threads, --filter $3"
  else
    fail "edges: $n pairs apart on $1x$2, --filter $3"
  fi
done

# --- fix -------------------------------------------------------------------
# The reference's corrections (best in context, another word, margin 5 (the
# default) or more, or no runner-up) applied to the documents by hand: the folder and
# the change list must be what --fix writes.
"$python" - want-0.5.jsonl docs fix-want 5 <<'PY' || fail "fix: the reference's folder"
import json, os, shutil, sys
jsonl, root, out, least = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
changes = {}
for line in open(jsonl, encoding="utf-8"):
    o = json.loads(line)
    if o.get("merge"):
        continue  # (merges are reported, never applied)
    for occ in o["in_context"]:
        if occ["best"] != o["word"] and (occ["margin"] is None or occ["margin"] >= least):
            path, line_no, col = occ["at"].rsplit(":", 2)
            changes.setdefault(path, []).append((int(line_no), int(col), o["word"], occ["best"], occ["margin"]))
tsv = []
for d, _, files in os.walk(root):
    for name in files:
        path = os.path.join(d, name)
        lines = open(path, "rb").read().split(b"\n")
        for line_no, col, old, new, margin in sorted(changes.get(path, []), reverse=True):
            l = lines[line_no - 1]
            assert l[col - 1:col - 1 + len(old)] == old.encode()
            lines[line_no - 1] = l[:col - 1] + new.encode() + l[col - 1 + len(old):]
        os.makedirs(os.path.join(out, d), exist_ok=True)
        open(os.path.join(out, path), "wb").write(b"\n".join(lines))
for path in sorted(changes, key=os.fsencode):
    for line_no, col, old, new, margin in sorted(changes[path]):
        tsv.append(f"{path}:{line_no}:{col}\t{old}\t{new}\t{'-' if margin is None else '%.3f' % margin}\n")
open(out + ".tsv", "w", encoding="utf-8").writelines(tsv)
PY
for pt in "1 1" "3 2"; do
  set -- $pt
  rm -rf fixed
  ranked "$1" "$2" --fix fixed -o changes.tsv "$scd" docs 2>fix.err || fail "fix: the run on $1x$2"
  same fix-want.tsv changes.tsv "fix: the change list on $1 ranks x $2 threads"
  if diff -r fix-want fixed >/dev/null; then echo "ok: fix: the folder on $1 ranks x $2 threads"; else fail "fix: the folder on $1x$2"; diff -r fix-want fixed | head -3; fi
done
[ -s fix-want.tsv ] || fail "fix: the reference makes no change"
# Code: a word with one candidate (always fixed) joined by '_', '/', '.',
# ':' or '(' to more of a name, after '$', between '*' or '|', before '(' is
# left; in prose (a line's start, before ". ", ", ", in "{x}", "_x_",
# "(x.)", at the line's end) fixed.
alone=$("$python" -c '
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o["word"].isalpha() and o["word"].islower() and len(o["suggestions"]) == 1 and " " not in o["suggestions"][0]["word"]:
        print(o["word"]); break' want-0.5.jsonl)
rm -rf code-docs fixed && cp -r docs code-docs
w=$alone
printf '%s x_%s %s_x $%s a/%s %s.txt *%s* |%s| %s() %s:x f(%s %s. %s, {%s} _%s_ (%s.) %s\n' \
  $w $w $w $w $w $w $w $w $w $w $w $w $w $w $w $w $w >code-docs/code.txt
ranked 2 1 --fix fixed -o code.tsv "$scd" code-docs 2>/dev/null || fail "fix: the run with code"
got=$(grep '^code-docs/code.txt:' code.tsv | cut -f1 | tr '\n' ' ')
want=$("$python" -c '
import sys
line, w = open(sys.argv[1]).read(), sys.argv[2]
cols = [i + 1 for i in range(len(line)) if line.startswith(w, i)]
print(" ".join("code-docs/code.txt:1:%d" % cols[k] for k in (0, 11, 12, 13, 14, 15, 16)), end=" ")' code-docs/code.txt "$w")
if [ -n "$w" ] && [ "$got" = "$want" ]; then echo "ok: fix: '$w' left inside code, fixed in prose"; else fail "fix: code: got '$got', want '$want'"; fi
ranked 1 1 --fix fixed --report r.tsv "$scd" docs >/dev/null 2>&1
[ $? -eq 2 ] || fail "fix: --report beside --fix not refused"

# --- stream ----------------------------------------------------------------
cat docs/part00.txt | ranked 2 1 --context on "$scd" - >stream.txt 2>stream.err || fail "stream: the run"
ranked 1 1 --context off "$scd" - <docs/part00.txt >plain.txt || fail "stream: the run without context"
same plain.txt stream.txt "stream: ranked without context"
if grep -q "read once" stream.err; then echo "ok: stream: said so"; else fail "stream: nothing said"; cat stream.err; fi
rm -rf fixed
cat docs/part00.txt | ranked 2 1 --fix fixed "$scd" - >fix-stream.out 2>fix-stream.err
status=$?
if [ $status -eq 2 ] && [ "$(wc -l <fix-stream.err)" -eq 1 ] && grep -q "cannot be rewritten" fix-stream.err; then
  echo "ok: stream: --fix refused"
else
  fail "stream: --fix on a pipe: status $status"
  cat fix-stream.err
fi

exit "$failed"
