#!/usr/bin/python3
"""Fits the noisy-channel weights (src/noisy_channel.cpp) on public
misspelling lists, from the features bench/rank_tune dumps.

    tune_channel.py features1.tsv [features2.tsv ...] [--weights name=v,...] [--fit]

Prints top-1 / top-5 / anywhere per file for the given weights (default:
the program's defaults below, kept in step with ChannelWeights), and with
--fit a coordinate search that maximises the mean of top-1 and top-5 over
all files, each file weighted equally. Scoring mirrors channel_score().
"""
import math
import sys

DEFAULTS = dict(prior_weight=1.0, prior_floor=0.5, transposition=3000, substitution=6000,
                keyboard_substitution=-1000, vowel_substitution=-1500, insertion=6000,
                double_insertion=-2500, deletion=6000, double_deletion=-2500, first_letter=2000,
                same_sound=3000, near_sound=1000, case_only=20000)
COLS = ["distance", "transpositions", "substitutions", "keyboard_substitution", "vowel_substitution",
        "insertions", "double_insertion", "deletions", "double_deletion", "first_letter", "sound"]


def load(path):
    words = []
    cur = None
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        f = line.rstrip("\n").split("\t")
        if f[0] == "T":
            cur = dict(typo=f[1], accepted=f[3] == "1", cands=[])
            words.append(cur)
        else:
            cur["cands"].append((f[1], f[2] == "1", int(f[3])) + tuple(int(x) for x in f[4:]))
    return words


def score(c, w, logf):
    (_, _, freq, dist, tr, sub, kbd, vow, ins, dins, dele, ddel, first, snd) = c
    s = round(1000.0 * w["prior_weight"] * logf)
    s -= tr * w["transposition"] + sub * w["substitution"] + kbd * w["keyboard_substitution"]
    s -= vow * w["vowel_substitution"] + ins * w["insertion"] + dins * w["double_insertion"]
    s -= dele * w["deletion"] + ddel * w["double_deletion"] + first * w["first_letter"]
    if snd == 0:
        s += w["same_sound"]
    elif snd == 1:
        s += w["near_sound"]
    if dist == 0:
        s += w["case_only"]
    return s


def evaluate(words, w):
    t1 = t5 = anyw = 0
    floor = w["prior_floor"]
    for x in words:
        if x["accepted"] or not x["cands"]:
            continue
        ranked = sorted(x["cands"], key=lambda c: (-score(c, w, math.log(c[2] + floor)), c[0]))
        seen = []
        for c in ranked:
            if c[0] not in [s[0] for s in seen]:
                seen.append(c)
        pos = next((i for i, c in enumerate(seen) if c[1]), None)
        if pos is not None:
            anyw += 1
            t1 += pos == 0
            t5 += pos < 5
    n = len(words)
    return 100.0 * t1 / n, 100.0 * t5 / n, 100.0 * anyw / n


def main():
    args = sys.argv[1:]
    w = dict(DEFAULTS)
    fit = "--fit" in args
    files = [a for a in args if not a.startswith("--") and "=" not in a]
    for a in args:
        if a.startswith("--weights="):
            for kv in a.split("=", 1)[1].split(","):
                k, v = kv.split("=")
                w[k] = float(v)
    data = [(f, load(f)) for f in files]

    def objective(w):
        r = [evaluate(d, w) for _, d in data]
        return sum(a + b for a, b, _ in r) / len(r) / 2

    def show(w):
        for f, d in data:
            print("  %-40s top1 %.1f top5 %.1f any %.1f (n=%d)" % ((f.split("/")[-1],) + evaluate(d, w) + (len(d),)))
    show(w)
    if not fit:
        return
    best = objective(w)
    steps = {k: (0.1 if k in ("prior_weight",) else 0.5 if k == "prior_floor" else 500) for k in w}
    for rnd in range(6):
        improved = False
        for k in w:
            for direction in (+1, -1):
                while True:
                    trial = dict(w)
                    trial[k] = w[k] + direction * steps[k]
                    if k in ("prior_floor",) and trial[k] <= 0:
                        break
                    o = objective(trial)
                    if o > best + 1e-9:
                        best, w = o, trial
                        improved = True
                    else:
                        break
        print("round %d objective %.2f" % (rnd, best), ",".join("%s=%g" % kv for kv in w.items()))
        if not improved:
            for k in steps:
                steps[k] /= 2
    show(w)


if __name__ == "__main__":
    main()
