#!/usr/bin/env python3
"""Scores one spell checker's suggestions against a misspelling corpus.

    python3 bench/quality_score.py CORPUS.tsv WORDLIST OUTPUT [--format spec|aspell]
                                   [--unit pair|misspelling|both] [--counts]

prints `top1 top5 anywhere accepted counted left_out`: the first four are
percentages of the counted units, the last two are numbers of units (with
--counts the first four are numbers too). bench/quality.sh uses it for every
(corpus, word list, tool); it also serves on its own in a tuning loop.

CORPUS.tsv   `misspelling<TAB>correct` per line (../shared/data/quality/).
WORDLIST     the word list the tool ran with, one word per line.
OUTPUT       --format spec: spellcheck's output, one line per misspelled word,
               `word:` then ` candidate` for each candidate, best first; a
               misspelling with no line was accepted as a word.
             --format aspell: `aspell -a` / `hunspell -a` output for the
               distinct misspellings of CORPUS, one per input line, in corpus
               order (first occurrence), as bench/quality.sh feeds them.

How it counts (the method of ../shared/data/quality/README.md and of the
spellcheck baseline in the issue; both are reproduced exactly only this way):
  * unit `pair` (default): every line of the corpus, duplicated pairs
    included. A pair is right at rank k when ITS OWN correct word is among
    the first k suggestions; a misspelling with two accepted corrections
    gives two pairs, and one list can make both right only in the top 5 /
    anywhere, never both in the top 1.
  * unit `misspelling`: every distinct misspelling once; right at rank k when
    ANY of its (in-list) corrections is among the first k suggestions. Only
    wikipedia_common_misspellings has misspellings with several corrections,
    so only its numbers differ much between the two units (top-1 up to
    about 4 points higher per misspelling).
  * a unit is left out (not counted) when its correct word is not in the word
    list; "in the word list" is spellcheck's own rule: the word is an entry,
    or it is one with its first byte lowered (A-Z only), so `Occasionally`
    counts when `occasionally` is an entry. A correction with a space
    (`a lot`) is one "word" and so is never in a list: it is left out.
  * a suggestion matches only byte for byte (case-sensitive): `Occasionally`
    is not matched by `occasionally`.
  * a misspelling the tool accepts (no output line / only `*` lines) is a
    miss; `accepted` is its share of the counted units.
"""
import argparse
import sys


def load_corpus(path):
    """List of (misspelling, correct) pairs in file order."""
    pairs = []
    with open(path, encoding="utf-8", newline="\n") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n").rstrip("\r")
            if not line:
                continue
            parts = line.split("\t")
            if len(parts) != 2 or not parts[0] or not parts[1]:
                raise SystemExit(f"{path}:{n}: expected misspelling<TAB>correct")
            pairs.append((parts[0], parts[1]))
    return pairs


def distinct_misspellings(pairs):
    return list(dict.fromkeys(m for m, _ in pairs))


def load_words(path):
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", errors="surrogateescape")
    words = set(data.split("\n"))
    words.discard("")
    return words


def in_word_list(word, words):
    """spellcheck's rule: an entry, or an entry once its first byte (A-Z) is lowered."""
    if word in words:
        return True
    return "A" <= word[:1] <= "Z" and (word[0].lower() + word[1:]) in words


def parse_spec(path, known):
    """{misspelling: [candidates best first]} from spellcheck's output.

    A word may itself hold `: ` or spaces (`Coca Cola`), so the word is the
    shortest prefix before `: ` that is a known misspelling (else the first)."""
    out = {}
    with open(path, "rb") as f:
        text = f.read().decode("utf-8", errors="surrogateescape")
    for n, line in enumerate(text.split("\n"), 1):
        if not line:
            continue
        i = line.find(": ")
        if i < 0:
            raise SystemExit(f"{path}:{n}: no ': ' in line")
        first = i
        while line[:i] not in known:
            i = line.find(": ", i + 1)
            if i < 0:
                i = first
                break
        rest = line[i + 2:]
        out[line[:i]] = rest.split(" ")[1:] if rest else []
    return out


def parse_ispell(path, misspellings):
    """{misspelling: [suggestions]} from `aspell -a` / `hunspell -a` output.

    One block per input line, ended by an empty line; a line of several
    tokens (`Carnagie-Mellon`, `Coca Cola`) has one result line per token:
    the word is accepted when no token is misspelled (`*`, `+`, `-` lines
    only), else its suggestions are those of its `&` lines in order."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the text's final newline, not an empty line
    if lines and lines[0].startswith("@(#)"):
        lines = lines[1:]
    blocks, cur = [], []
    for line in lines:
        if line == "":
            blocks.append(cur)
            cur = []
        else:
            cur.append(line)
    if cur:
        raise SystemExit(f"{path}: output ends inside a block (truncated?)")
    if len(blocks) != len(misspellings):
        raise SystemExit(f"{path}: {len(blocks)} result blocks for {len(misspellings)} input words")
    out = {}
    for word, block in zip(misspellings, blocks):
        sugg = None
        for line in block:
            if line.startswith("&"):
                sugg = (sugg or []) + line.split(": ", 1)[1].split(", ")
            elif line.startswith("#"):
                sugg = sugg or []
            elif line[:1] not in ("*", "+", "-"):
                raise SystemExit(f"{path}: unexpected line {line!r}")
        if sugg is not None:
            out[word] = sugg
    return out


def score(pairs, suggestions, words, unit="pair"):
    """Counts for one tool's suggestions: dict with counted, left_out, top1,
    top5, anywhere, accepted (numbers of units)."""
    corrections = {}
    for m, c in pairs:
        corrections.setdefault(m, [])
        if c not in corrections[m]:
            corrections[m].append(c)
    if unit == "pair":
        units = [(m, [c]) for m, c in pairs]
    elif unit == "misspelling":
        units = [(m, corrections[m]) for m in distinct_misspellings(pairs)]
    else:
        raise ValueError(unit)
    r = dict(counted=0, left_out=0, top1=0, top5=0, anywhere=0, accepted=0)
    for m, cands in units:
        cands = [c for c in cands if in_word_list(c, words)]
        if not cands:
            r["left_out"] += 1
            continue
        r["counted"] += 1
        sugg = suggestions.get(m)
        if sugg is None:
            r["accepted"] += 1
            continue
        ranks = [sugg.index(c) for c in cands if c in sugg]
        if not ranks:
            continue
        best = min(ranks)
        r["anywhere"] += 1
        r["top5"] += best < 5
        r["top1"] += best < 1
    return r


def percent(r, key):
    return 100.0 * r[key] / r["counted"] if r["counted"] else 0.0


def format_line(r, counts=False):
    keys = ("top1", "top5", "anywhere", "accepted")
    if counts:
        head = [str(r[k]) for k in keys]
    else:
        head = ["%.2f" % percent(r, k) for k in keys]
    return " ".join(head + [str(r["counted"]), str(r["left_out"])])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus")
    ap.add_argument("wordlist")
    ap.add_argument("output")
    ap.add_argument("--format", choices=("spec", "aspell"), default="spec",
                    help="spec: spellcheck's output; aspell: aspell -a / hunspell -a output")
    ap.add_argument("--unit", choices=("pair", "misspelling", "both"), default="pair",
                    help="both: two lines, pair then misspelling, each prefixed by its unit")
    ap.add_argument("--counts", action="store_true", help="numbers of units instead of percentages")
    a = ap.parse_args(argv)
    pairs = load_corpus(a.corpus)
    words = load_words(a.wordlist)
    mis = distinct_misspellings(pairs)
    if a.format == "spec":
        sugg = parse_spec(a.output, set(mis))
    else:
        sugg = parse_ispell(a.output, mis)
    units = ("pair", "misspelling") if a.unit == "both" else (a.unit,)
    for u in units:
        line = format_line(score(pairs, sugg, words, u), a.counts)
        print(f"{u} {line}" if a.unit == "both" else line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
