#!/usr/bin/env python3
"""make_test_data.py -- the test datasets, made from nothing but this file.

    python3 make_test_data.py OUTDIR

Writes, deterministically (the same bytes on every machine and Python 3
version: its own generator, no `random`), the shapes the data tests use:

  dict/small-10k.txt, dict/medium-100k.txt, dict/american-insane.txt
      10,000 / 100,000 / 663,000 entries, unsorted, with capitalised names,
      possessives ('s), accented words, a few duplicates, CRLF and blank lines
  words/d10k-w10k.txt, d10k-w100k, d100k-w10k, d100k-w100k, large-w650k
      word lists (one word a line): entries, entries with a capital first
      letter, misspellings one edit away, lower-cased names, junk, a word
      over 64 bytes, blank and padded lines; words/DATASETS.txt as
      make-datasets writes it (its last column: distinct misspelled words)
  docs/small/vol01/<collection>/...
      88 text files, about 5 MB, in nested folders (vol01/quotes among them):
      sentences of the same kinds of words between punctuation, numbers,
      quotes, U+2019 apostrophes, accented and CJK words, emoji, em dashes,
      invalid UTF-8 bytes, CRLF lines and tokens over 64 bytes
  COUNTS.txt
      for every (dictionary, input, mode) the data tests run: the number of
      distinct misspelled words by SPEC.md, counted here from the tokens
      this script wrote (it knows them; it does not tokenize), so the
      reference's output can be checked against a count independent of it
  MANIFEST.txt
      written last, after every file it lists (tests/make_data.sh looks
      for it)
"""
import os
import sys

MAX_WORD = 64  # SPEC's default --max-word-length


class Rng:
    """xorshift64*: the same numbers everywhere."""

    def __init__(self, seed):
        self.s = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF

    def next(self):
        s = self.s
        s ^= (s >> 12)
        s ^= (s << 25) & 0xFFFFFFFFFFFFFFFF
        s ^= (s >> 27)
        self.s = s
        return (s * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF

    def below(self, n):
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, percent):
        return self.below(1000) < percent * 10


ONSETS = ["", "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z",
          "bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "pl", "pr", "sc", "sh", "sk", "sl",
          "sm", "sn", "sp", "st", "str", "sw", "th", "tr", "wh"]
VOWELS = ["a", "e", "i", "o", "u", "ai", "ea", "ee", "ie", "oa", "oo", "ou", "y"]
CODAS = ["", "", "", "b", "ck", "d", "ft", "g", "l", "ll", "m", "n", "nd", "ng", "nt", "p", "r", "rd",
         "rn", "s", "ss", "st", "t", "th", "x"]
SUFFIXES = ["", "", "", "", "s", "ed", "ing", "er", "ly", "ness", "ment", "able", "tion", "ist", "ous"]
ACCENTED = ["\u00e9", "\u00e8", "\u00ef", "\u00f6", "\u00fc", "\u00e7", "\u00e5", "\u00f1"]
ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def make_word(rng):
    w = ""
    for _ in range(1 + rng.below(3)):
        w += rng.pick(ONSETS) + rng.pick(VOWELS) + rng.pick(CODAS)
    return w + rng.pick(SUFFIXES)


def make_entries(n, seed):
    """n distinct entries as spelled: mostly lower case, some names, some
    possessives, some accented, a few all-capital."""
    rng = Rng(seed)
    seen = set()
    out = []
    while len(out) < n:
        w = make_word(rng)
        k = rng.below(100)
        if k < 8:
            w = w[0].upper() + w[1:]  # a name
        elif k < 11:
            w = w + "'s"
        elif k < 13:
            i = rng.below(len(w))
            w = w[:i] + rng.pick(ACCENTED) + w[i + 1:]
        elif k < 14:
            w = w.upper()
        if w and w not in seen:
            seen.add(w)
            out.append(w)
    return out


def write_dictionary(path, entries, seed):
    """Unsorted, as a file: a few duplicates, padded, CRLF and blank lines."""
    rng = Rng(seed)
    order = list(entries)
    for i in range(len(order) - 1, 0, -1):  # Fisher-Yates
        j = rng.below(i + 1)
        order[i], order[j] = order[j], order[i]
    lines = []
    for w in order:
        k = rng.below(1000)
        if k < 3:
            lines.append("  " + w + "\t")
        elif k < 6:
            lines.append(w + "\r")
        elif k < 8:
            lines.append("")  # a blank line, then the entry
            lines.append(w)
        else:
            lines.append(w)
        if k == 999:
            lines.append(w)  # a duplicate
    write_bytes(path, ("\n".join(lines) + "\n").encode("utf-8"))


def is_correct(word, entries):
    """SPEC: an entry, or an entry once its first byte is lowered (A-Z only)."""
    if word in entries:
        return True
    return "A" <= word[0] <= "Z" and (word[0].lower() + word[1:]) in entries


def misspell(rng, w):
    """One edit: deletion, substitution or insertion of an ASCII letter."""
    i = rng.below(len(w) + 1)
    c = rng.pick(ALPHABET[:52])
    k = rng.below(3)
    if k == 0 and len(w) > 1 and i < len(w):
        return w[:i] + w[i + 1:]
    if k == 1 and i < len(w):
        return w[:i] + c + w[i + 1:]
    return w[:i] + c + w[i:]


def junk(rng):
    return "".join(rng.pick("qxzjkvw") for _ in range(3 + rng.below(6)))


def pick_word(rng, entries_list, entry_set, wrong_percent):
    """A word of the input and whether it is misspelled (as this script made
    it: checked against the dictionary, never assumed)."""
    w = rng.pick(entries_list)
    if rng.chance(wrong_percent):
        k = rng.below(10)
        if k < 6:
            w = misspell(rng, w)
        elif k < 7:
            w = junk(rng)
        elif k < 8 and "A" <= w[0] <= "Z":
            w = w[0].lower() + w[1:]  # a name in lower case: wrong
        elif k < 9:
            w = w + rng.pick(ALPHABET[:26])
        else:
            w = w.upper() if len(w) > 1 else w + "q"
    elif rng.chance(10) and "a" <= w[0] <= "z":
        w = w[0].upper() + w[1:]  # sentence case: still right
    return w


def write_bytes(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def make_word_list(path, entries_list, entry_set, lines, seed):
    """One word a line; returns (lines, words, distinct, too-long, misspelled)."""
    rng = Rng(seed)
    out = []
    words = 0
    too_long = 0
    distinct = set()
    for i in range(lines):
        if i == lines // 2:  # one word over the limit
            w = "x" * (MAX_WORD + 1)
            out.append(w)
            too_long += 1
            continue
        k = rng.below(10000)
        if k < 2:
            out.append("")  # blank
            continue
        if k < 4:
            out.append("   \t")
            continue
        w = pick_word(rng, entries_list, entry_set, 5)
        if k < 30:
            out.append(" " + w + "\r")  # cleaned like a dictionary line
        else:
            out.append(w)
        words += 1
        distinct.add(w)
    write_bytes(path, ("\n".join(out) + "\n").encode("utf-8"))
    misspelled = sum(1 for w in distinct if not is_correct(w, entry_set))
    return lines, words, len(distinct), too_long, misspelled


# Document text: every separator below is a separator by SPEC wherever it
# stands (ASCII punctuation and space, U+2014, an emoji, an invalid byte),
# and tokens are written whole, so the tokens are exactly the words chosen.
SEPARATORS = [" ", " ", " ", " ", ", ", ". ", "; ", ": ", " (", ") ", " \"", "\" ", " - ", " \u2014 ",
              " \U0001F600 ", "!\n", "?\r\n", "\n", " \xff ", "\t"]
COLLECTIONS = ["quotes/fortunes", "literature/austen/persuasion", "literature/austen/emma",
               "manuals/vim", "manuals/perl", "reference/glossary", "bible/books", "commentary/psalms"]


def make_docs(root, entries_list, entry_set, files, total_bytes, seed):
    """files text files under root/vol01/<collection>/; returns the set of
    distinct tokens written (numbers and over-long tokens excluded)."""
    rng = Rng(seed)
    tokens = set()
    per_file = total_bytes // files
    for f in range(files):
        collection = COLLECTIONS[f % len(COLLECTIONS)]
        path = os.path.join(root, "vol01", collection, "part-%03d.txt" % f)
        parts = []
        size = 0
        target = per_file // 2 + rng.below(per_file)
        while size < target:
            k = rng.below(1000)
            if k < 15:
                t = str(rng.below(100000))  # a number: skipped
                text = t
            elif k < 17:
                t = "".join(rng.pick("abcdefgh") for _ in range(MAX_WORD + 1 + rng.below(10)))  # too long
                text = t
            elif k < 27:
                w = rng.pick(entries_list)
                t = w
                # U+2019 for the apostrophe: normalised to ' by the tokenizer
                text = w.replace("'", "\u2019") if "'" in w and rng.chance(50) else w
                if "'" not in w and rng.chance(30):
                    t = w + "'t"
                    text = w + "\u2019t"
            elif k < 30:
                t = rng.pick(["\u4e2d\u6587", "\u65e5\u672c\u8a9e", "caf\u00e9", "na\u00efve", "3rd", "0x1F"])
                text = t
            elif k < 33:
                w = rng.pick(entries_list)
                t = w
                text = "'" + w + "'"  # quotes at both ends are not part of it
            else:
                t = pick_word(rng, entries_list, entry_set, 4)
                if t.startswith("'") or t.endswith("'"):  # an edge apostrophe is no part of a token
                    t = t.strip("'")
                text = t
            if not t.isdigit() and len(t.encode("utf-8")) <= MAX_WORD:
                tokens.add(t)
            parts.append(text)
            parts.append(rng.pick(SEPARATORS))
            size += len(text) + 2
        # U+00FF appears only in the separator " \xff ": it becomes a lone
        # 0xFF byte, which no UTF-8 sequence holds.
        data = "".join(parts).encode("utf-8").replace(b"\xc3\xbf", b"\xff")
        write_bytes(path, data)
    return tokens


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: make_test_data.py OUTDIR\n")
        return 2
    out = sys.argv[1]
    manifest = []

    dicts = {}
    for name, n, seed in [("small-10k", 10000, 1), ("medium-100k", 100000, 2), ("american-insane", 663000, 3)]:
        entries = make_entries(n, seed)
        path = os.path.join(out, "dict", name + ".txt")
        write_dictionary(path, entries, seed + 100)
        dicts[name] = (entries, set(entries))
        manifest.append("dict/%s.txt entries=%d bytes=%d" % (name, n, os.path.getsize(path)))

    counts = []
    datasets = ["# Word-list datasets (spellcheck --words DICTIONARY WORDLIST), made by tests/data/make_test_data.py.",
                "# Counts follow SPEC.md: lines cleaned like dictionary lines, empty ones ignored, words over 64",
                "# bytes skipped (too-long), each distinct word judged once with the first-letter case rule.",
                "# dataset\tdictionary\tword-list\tlines\twords\tdistinct\ttoo-long\tmisspelled"]
    for name, dict_name, lines, seed in [("d10k-w10k", "small-10k", 10000, 11), ("d10k-w100k", "small-10k", 100000, 12),
                                         ("d100k-w10k", "medium-100k", 10000, 13),
                                         ("d100k-w100k", "medium-100k", 100000, 14),
                                         ("large-w650k", "american-insane", 650000, 15)]:
        entries, entry_set = dicts[dict_name]
        rel = "words/%s.txt" % name
        row = make_word_list(os.path.join(out, rel), entries, entry_set, lines, seed)
        datasets.append("%s\tdict/%s.txt\t%s\t%d\t%d\t%d\t%d\t%d" % ((name, dict_name, rel) + row))
        counts.append("dict/%s.txt\t%s\twords\t%d" % (dict_name, rel, row[4]))
    write_bytes(os.path.join(out, "words", "DATASETS.txt"), ("\n".join(datasets) + "\n").encode())

    entries, entry_set = dicts["medium-100k"]
    docs_root = os.path.join(out, "docs", "small")
    tokens = make_docs(docs_root, entries, entry_set, 88, 5 << 20, 21)
    wrong = sum(1 for t in tokens if not is_correct(t, entry_set))
    counts.append("dict/medium-100k.txt\tdocs/small\tdocuments\t%d" % wrong)
    manifest.append("docs/small files=88 bytes=%d" % sum(
        os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(docs_root) for f in fs))
    write_bytes(os.path.join(out, "COUNTS.txt"),
                ("# dictionary\tinput\tmode\tdistinct_misspelled (tests/data/make_test_data.py)\n" +
                 "\n".join(counts) + "\n").encode())
    write_bytes(os.path.join(out, "MANIFEST.txt"),
                ("# MANIFEST of the test datasets written by tests/data/make_test_data.py\n" +
                 "\n".join(manifest) + "\n").encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
