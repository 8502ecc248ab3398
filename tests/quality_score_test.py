#!/usr/bin/env python3
"""Tests of bench/quality_score.py (the suggestion-quality scorer): a
hand-made corpus and outputs in both formats, with exact counts.
Plain unittest (no pytest needed): python3 tests/quality_score_test.py"""
import importlib.util
import io
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
SCORER = os.path.join(HERE, "..", "bench", "quality_score.py")
spec = importlib.util.spec_from_file_location("quality_score", SCORER)
qs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(qs)

# Each pair's fate under unit=pair:
CORPUS = "".join(l + "\n" for l in [
    "teh\tthe",                  # 1st suggestion: top-1
    "teh\tthe",                  # the same pair again: counted again
    "recieve\treceive",          # 3rd suggestion: top-5, not top-1
    "form\tfrom",                # accepted as a word (no output line): a miss
    "zork\tzorkmid",             # correct word not in the list: left out
    "wich\twhich",               # two corrections: which is 2nd...
    "wich\twitch",               # ...witch is 1st
    "acommodate\taccommodate",   # 6th: anywhere only
    "qqq\tqueue",                # no candidates: a miss
    "Teh\tThe",                  # The is in the list (the, first letter lowered): top-1
    "Recieve\tReceive",          # only `receive` suggested: case-sensitive, a miss
    "alot\ta lot",               # a correction with a space: never in a list, left out
])
WORDS = "".join(w + "\n" for w in [
    "the", "ten", "tea", "relieve", "deceive", "receive", "form", "from", "which",
    "witch", "wick", "accommodate", "queue", "a", "lot", "b", "c", "d", "e", "f"])
SPEC_OUT = "".join(l + "\n" for l in [
    "qqq: ",
    "Teh:  The",
    "Recieve:  receive",
    "teh:  the ten tea",
    "wich:  witch which wick",
    "alot:  a lot",
    "zork:  fork",
    "recieve:  relieve deceive receive",
    "acommodate:  a b c d e accommodate f",
])
# aspell -a / hunspell -a: one block per distinct misspelling, corpus order.
ISPELL_OUT = "\n".join([
    "@(#) International Ispell Version 3.1.20 (but really Aspell 0.60.8)",
    "& teh 3 1: the, ten, tea", "",
    "& recieve 3 1: relieve, deceive, receive", "",
    "*", "",
    "& zork 1 1: fork", "",
    "& wich 3 1: witch, which, wick", "",
    "& acommodate 7 1: a, b, c, d, e, accommodate, f", "",
    "# qqq 1", "",
    "& Teh 1 1: The", "",
    "& Recieve 1 1: receive", "",
    "& alot 1 1: a lot", "",
]) + "\n"

# unit=pair: 12 pairs, 2 left out (zork, alot), 10 counted;
# top-1: teh x2, wich/witch, Teh = 4; top-5: + recieve, wich/which = 6;
# anywhere: + acommodate = 7; accepted: form = 1.
PAIR = dict(counted=10, left_out=2, top1=4, top5=6, anywhere=7, accepted=1)
# unit=misspelling: 10 distinct, 2 left out, 8 counted; top-1: teh, wich, Teh
# = 3; top-5: + recieve = 4; anywhere: + acommodate = 5; accepted: form = 1.
MISSPELLING = dict(counted=8, left_out=2, top1=3, top5=4, anywhere=5, accepted=1)


class Files:
    def __init__(self):
        self.dir = tempfile.TemporaryDirectory()

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        return path


class ScorerTest(unittest.TestCase):
    def setUp(self):
        self.files = Files()
        self.addCleanup(self.files.dir.cleanup)
        self.corpus = self.files.write("corpus.tsv", CORPUS)
        self.words = self.files.write("words.txt", WORDS)
        self.spec = self.files.write("spec.txt", SPEC_OUT)
        self.ispell = self.files.write("ispell.txt", ISPELL_OUT)

    def counts(self, output, fmt, unit):
        pairs = qs.load_corpus(self.corpus)
        words = qs.load_words(self.words)
        mis = qs.distinct_misspellings(pairs)
        if fmt == "spec":
            sugg = qs.parse_spec(output, set(mis))
        else:
            sugg = qs.parse_ispell(output, mis)
        return qs.score(pairs, sugg, words, unit)

    def test_spec_pair(self):
        self.assertEqual(self.counts(self.spec, "spec", "pair"), PAIR)

    def test_spec_misspelling(self):
        self.assertEqual(self.counts(self.spec, "spec", "misspelling"), MISSPELLING)

    def test_ispell_pair(self):
        self.assertEqual(self.counts(self.ispell, "aspell", "pair"), PAIR)

    def test_ispell_misspelling(self):
        self.assertEqual(self.counts(self.ispell, "aspell", "misspelling"), MISSPELLING)

    def test_in_word_list(self):
        words = {"the", "Paris"}
        self.assertTrue(qs.in_word_list("the", words))
        self.assertTrue(qs.in_word_list("The", words))
        self.assertTrue(qs.in_word_list("Paris", words))
        self.assertFalse(qs.in_word_list("paris", words))
        self.assertFalse(qs.in_word_list("THE", words))
        self.assertFalse(qs.in_word_list("", words))

    def test_spec_parse(self):
        p = self.files.write("o.txt", "Coca Cola:  Coca-Cola Cola\nx: \na:b:  c\n")
        got = qs.parse_spec(p, {"Coca Cola", "x", "a:b"})
        self.assertEqual(got, {"Coca Cola": ["Coca-Cola", "Cola"], "x": [], "a:b": ["c"]})

    def test_ispell_tokens(self):
        # A line of two tokens: accepted only when no token is misspelled;
        # else the suggestions of its & lines, in order.
        p = self.files.write("o.txt", "@(#) banner\n*\n& Cola 1 5: Cole\n\n*\n*\n\n+ walk\n\n")
        got = qs.parse_ispell(p, ["Coca Cola", "New York", "walked"])
        self.assertEqual(got, {"Coca Cola": ["Cole"]})

    def test_ispell_block_count(self):
        p = self.files.write("o.txt", "@(#) banner\n*\n\n")
        with self.assertRaises(SystemExit):
            qs.parse_ispell(p, ["a", "b"])

    def test_cli(self):
        for fmt, out in (("spec", self.spec), ("aspell", self.ispell)):
            r = subprocess.run([sys.executable, SCORER, self.corpus, self.words, out, "--format", fmt],
                               capture_output=True, text=True, check=True)
            self.assertEqual(r.stdout, "40.00 60.00 70.00 10.00 10 2\n")
        buf = io.StringIO()
        with redirect_stdout(buf):
            qs.main([self.corpus, self.words, self.spec, "--unit", "both", "--counts"])
        self.assertEqual(buf.getvalue(), "pair 4 6 7 1 10 2\nmisspelling 3 4 5 1 8 2\n")


if __name__ == "__main__":
    unittest.main()
