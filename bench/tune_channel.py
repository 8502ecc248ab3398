#!/usr/bin/python3
"""Fits the noisy-channel weights (ChannelWeights in
include/spellcheck/suggest/noisy_channel.hpp) on public misspelling lists, from the
features bench/rank_tune dumps (one file per corpus and word list).

    bench/rank_tune DICT FREQ CORPUS.tsv 2 1 > features.tsv
    tune_channel.py features1.tsv [...] [--weights=name=v,...] [--fit]

Prints top-1 / top-5 / anywhere per file (per distinct misspelling, right
when any of its corrections is ranked there; a misspelling accepted as a
word is a miss) for the given weights, and with --fit a coordinate search
maximising the mean over files of (top-1 + top-5) / 2. The score mirrors
channel_score(): linear in the weights but for the prior's floor.
Needs numpy (Debian: python3-numpy).
"""
import sys

import numpy as np

DEFAULTS = dict(prior_weight=0.79375, prior_floor=1.125, transposition=3000, substitution=7000,
                keyboard_substitution=0, vowel_substitution=-1750, insertion=4000,
                double_insertion=-1500, deletion=8000, double_deletion=-1250, first_letter=2250,
                same_sound=3500, near_sound=1000, case_only=19500, capital_mismatch=7250)
# Feature columns after (word, right, frequency): distance, transpositions,
# substitutions, keyboard, vowel, insertions, double_ins, deletions,
# double_del, first_letter, sound_distance.
LINEAR = ["transposition", "substitution", "keyboard_substitution", "vowel_substitution", "insertion",
          "double_insertion", "deletion", "double_deletion", "first_letter"]


class Corpus:
    def __init__(self, path):
        self.name = path.split("/")[-1]
        groups, right, freq, feats, caps = [], [], [], [], []
        n_words = 0
        for line in open(path, encoding="utf-8", errors="surrogateescape"):
            f = line.rstrip("\n").split("\t")
            if f[0] == "T":
                n_words += 1
                accepted = f[3] == "1"
                typo_has_capital = any(ch.isupper() for ch in f[1])
                cur = -1 if accepted else n_words - 1
            elif cur >= 0:
                groups.append(cur)
                right.append(f[2] == "1")
                freq.append(int(f[3]))
                feats.append([int(x) for x in f[4:]])
                caps.append(not typo_has_capital and any(ch.isupper() for ch in f[1]))
        self.n = n_words
        self.group = np.array(groups, dtype=np.int64)
        self.right = np.array(right, dtype=bool)
        self.freq = np.array(freq, dtype=np.float64)
        x = np.array(feats, dtype=np.int64).reshape(-1, 11)
        self.dist = x[:, 0]
        self.linear = x[:, 1:10].astype(np.float64)
        self.sound = x[:, 10]
        self.caps = np.array(caps, dtype=bool)

    def evaluate(self, w):
        s = np.rint(1000.0 * w["prior_weight"] * np.log(self.freq + w["prior_floor"]))
        s -= self.linear @ np.array([w[k] for k in LINEAR], dtype=np.float64)
        s += np.where(self.sound == 0, w["same_sound"], np.where(self.sound == 1, w["near_sound"], 0))
        s += np.where(self.dist == 0, w["case_only"], 0)
        s -= np.where(self.caps, w["capital_mismatch"], 0)
        best_right = np.full(self.n, -np.inf)
        np.maximum.at(best_right, self.group[self.right], s[self.right])
        above = np.zeros(self.n, dtype=np.int64)
        # Ties count against (the program breaks them by word, which tuning must not lean on).
        np.add.at(above, self.group, ((s >= best_right[self.group]) & ~self.right).astype(np.int64))
        found = np.isfinite(best_right)
        t1 = np.sum(found & (above == 0))
        t5 = np.sum(found & (above < 5))
        return 100.0 * t1 / self.n, 100.0 * t5 / self.n, 100.0 * np.sum(found) / self.n


def main():
    args = sys.argv[1:]
    w = dict(DEFAULTS)
    for a in args:
        if a.startswith("--weights="):
            for kv in a.split("=", 1)[1].split(","):
                k, v = kv.split("=")
                w[k] = float(v)
    data = [Corpus(f) for f in args if not f.startswith("--")]

    def objective(w):
        r = [c.evaluate(w) for c in data]
        return sum(a + b for a, b, _ in r) / len(r) / 2

    def show(w):
        for c in data:
            print("  %-44s top1 %.1f top5 %.1f any %.1f (n=%d)" % ((c.name,) + c.evaluate(w) + (c.n,)))
    show(w)
    if "--fit" not in args:
        return
    best = objective(w)
    steps = {k: (0.1 if k == "prior_weight" else 0.25 if k == "prior_floor" else 1000) for k in w}
    for rnd in range(12):
        improved = False
        for k in w:
            for direction in (+1, -1):
                while True:
                    trial = dict(w)
                    trial[k] = w[k] + direction * steps[k]
                    if k == "prior_floor" and trial[k] <= 0:
                        break
                    o = objective(trial)
                    if o > best + 1e-9:
                        best, w, improved = o, trial, True
                    else:
                        break
        print("round %d objective %.2f" % (rnd, best), ",".join("%s=%g" % kv for kv in w.items()), flush=True)
        if not improved:
            for k in steps:
                steps[k] /= 2
    show(w)


if __name__ == "__main__":
    main()
