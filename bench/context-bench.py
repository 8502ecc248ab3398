#!/usr/bin/env python3
"""In-context suggestion benchmark (issue 32): real prose with misspellings
injected where their intended word stood, the truth kept per occurrence.

    bench/context-bench.py --spellcheck build/spellcheck --dict DICT --docs DIR
        [--pairs TSV]... [--occurrences N] [--per-pair K] [--joins J] [--aparts A] [--seed S]
        [--ranks P] [--out DIR] [-- EXTRA SPELLCHECK OPTIONS]

1. Pairs: every `misspelling<TAB>correct` line of the --pairs lists (default:
   ../shared/data/quality/*.tsv) whose correct word is a dictionary entry and
   whose misspelling is not (neither as written nor capitalised), both
   lower-case ASCII letters.
2. Places: every occurrence of a pair's correct word in DIR's text files
   (byte-wise path order), as a whole ASCII word (no apostrophe beside it),
   lower-case or with an initial capital. A seeded random sample of pairs, each with at most K of
   its places (also random), until N places: each place gets the
   misspelling (capitalised like the word it replaces). The rest of the
   text is untouched (the generated collections carry their own ~1% typos:
   context, not scored). Besides, J run-together words: random places where
   two lower-case dictionary words stand a space apart (not beside the
   typos) are joined when the join is no dictionary word; the truth is the
   two words with the space. And A words written apart: random places of a
   lower-case dictionary word of the text that is two dictionary words of
   two letters or more (cut where the rarer part is commonest in the text)
   get the space ("an other"); the truth is the word.
3. The injected collection goes to OUT/docs, the truth to OUT/truth.tsv
   (path, line, column in bytes from 1, misspelling, correct word).
4. spellcheck --suggest ranked --format jsonl on OUT/docs (mpirun -n P),
   with --context off and on, and per injected occurrence: reported at
   all, the word's first suggestion right (top-1), among its first five
   (top-5), and the occurrence's own best (jsonl's in_context; without
   context, the word's first) right; the typos and the joins apart. The
   words written apart: merged right per occurrence (a "merge" line's
   place), and the merges elsewhere (not injected: unscored, a few shown).
5. --fix: precision (changed to the intended word / changed) and recall
   (changed right / injected) by margin, from the context run's margins,
   and one --fix run at its default margin (its change list scored; its
   splits outside the injected places counted, and a few shown).

Prints the figures, one line each, and writes OUT/summary.txt.
"""
import argparse
import collections
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORD = re.compile(rb"[A-Za-z]+")
APOSTROPHE = "\u2019".encode()


def read_pairs(paths, dictionary):
    pairs = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 2:
                    continue
                typo, correct = parts
                if not (typo.isascii() and typo.isalpha() and correct.isascii() and correct.isalpha()):
                    continue
                if correct not in dictionary or typo in dictionary or typo.capitalize() in dictionary:
                    continue
                if typo != typo.lower() or correct != correct.lower():
                    continue
                pairs.setdefault(correct, typo)  # one misspelling per word
    return pairs


def text_files(root):
    out = []
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for name in files:
            out.append(os.path.join(d, name))
    return sorted(out, key=lambda p: os.fsencode(p))


def find_places(files, pairs):
    """(file index, line index, start, end, correct) for each occurrence."""
    places = collections.defaultdict(list)
    wanted = set(pairs)
    for fi, path in enumerate(files):
        with open(path, "rb") as f:
            for li, line in enumerate(f.read().split(b"\n")):
                for m in WORD.finditer(line):
                    # (Not beside an apostrophe: the tokenizer keeps
                    # "d'oeuvre" and "student's" whole.)
                    if line[max(0, m.start() - 3):m.start()].endswith((b"'", APOSTROPHE)) or \
                            line[m.end():m.end() + 3].startswith((b"'", APOSTROPHE)):
                        continue
                    w = m.group().decode()
                    key = w.lower()
                    if key in wanted and (w == key or w == key.capitalize()):
                        places[key].append((fi, li, m.start(), m.end()))
    return places


def choose(places, pairs, n, per_pair, rng):
    words = sorted(places)
    rng.shuffle(words)
    chosen = []
    for w in words:
        if len(chosen) >= n:
            break
        spots = places[w][:]
        rng.shuffle(spots)
        for p in spots[:per_pair]:
            chosen.append((p, w))
    return chosen[:n]


JOIN = re.compile(rb"(?<![A-Za-z'\x80-\xff])([a-z]+) ([a-z]+)(?![A-Za-z'\x80-\xff])")


def free_matches(files, pattern, taken_places):
    """(file, line, match) of pattern's matches in the files' lines, away
    from taken_places (and a byte beside them)."""
    taken = collections.defaultdict(list)
    for (fi, li, s, e), _ in taken_places:
        taken[(fi, li)].append((s, e))
    for fi, path in enumerate(files):
        with open(path, "rb") as f:
            for li, line in enumerate(f.read().split(b"\n")):
                for m in pattern.finditer(line):
                    if not any(s < m.end() + 1 and m.start() - 1 < e for s, e in taken[(fi, li)]):
                        yield fi, li, m


def choose_joins(files, chosen, dictionary, n, rng):
    """n random ((file, line, start, end), "left right") places to join."""
    places = []
    for fi, li, m in free_matches(files, JOIN, chosen):
        left, right = m.group(1).decode(), m.group(2).decode()
        joined = left + right
        if left in dictionary and right in dictionary and joined not in dictionary and \
                joined.capitalize() not in dictionary:
            places.append(((fi, li, m.start(), m.end()), left + " " + right))
    rng.shuffle(places)
    out, used = [], set()
    for (fi, li, s, e), words in places:
        if len(out) >= n:
            break
        if any((fi, li, x) in used for x in range(s - 1, e + 2)):
            continue
        used.update((fi, li, x) for x in range(s, e))
        out.append(((fi, li, s, e), words))
    return out


APART = re.compile(rb"(?<![A-Za-z'\x80-\xff])([a-z]{4,})(?![A-Za-z'\x80-\xff])")


def choose_aparts(files, taken_places, dictionary, n, rng):
    """n random ((file, line, start, end), "left right") places of words to
    write apart, away from taken_places."""
    counts = collections.Counter()
    for path in files:
        with open(path, "rb") as f:
            counts.update(m.group().decode() for m in WORD.finditer(f.read()))
    cut_of = {}
    def cut(word):
        if word not in cut_of:
            cuts = [(min(counts[word[:at]], counts[word[at:]]), at) for at in range(2, len(word) - 1)
                    if word[:at] in dictionary and word[at:] in dictionary]
            cut_of[word] = max(cuts)[1] if cuts else None
        return cut_of[word]
    places = []
    for fi, li, m in free_matches(files, APART, taken_places):
        w = m.group(1).decode()
        at = cut(w) if w in dictionary else None
        if at is not None:
            places.append(((fi, li, m.start(), m.end()), w[:at] + " " + w[at:]))
    return rng.sample(places, min(n, len(places)))


def inject(files, chosen, pairs, src_root, out_root, joins=()):
    by_file = collections.defaultdict(list)
    for (fi, li, s, e), w in chosen:
        by_file[fi].append((li, s, e, w))
    for (fi, li, s, e), words in joins:
        by_file[fi].append((li, s, e, words))
    truth = []
    for fi, path in enumerate(files):
        rel = os.path.relpath(path, src_root)
        dest = os.path.join(out_root, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        if fi not in by_file:
            shutil.copyfile(path, dest)
            continue
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        by_line = collections.defaultdict(list)
        for li, s, e, w in by_file[fi]:
            by_line[li].append((s, e, w))
        for li, spots in by_line.items():
            old, new, at = lines[li], b"", 0
            for s, e, w in sorted(spots):
                original = old[s:e].decode()
                if " " in w:  # a join ("in the" -> "inthe"), or a word written apart ("another" -> "an other")
                    typo = w.replace(" ", "") if " " in original else w
                else:
                    typo = pairs[w] if original == w else pairs[w].capitalize()
                new += old[at:s]
                truth.append((rel, li + 1, len(new) + 1, typo, original))
                new += typo.encode()
                at = e
            lines[li] = new + old[at:]
        with open(dest, "wb") as f:
            f.write(b"\n".join(lines))
    truth.sort()
    return truth


def run_ranked(args, docs, out_path, context):
    cmd = ["mpirun", "-n", str(args.ranks), "--bind-to", "none", args.spellcheck, "--suggest", "ranked",
           "--format", "jsonl", "--quiet", "--context", context, "-o", out_path] + args.extra + [args.dict, docs]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, env=env)
    return time.monotonic() - t0


def read_answers(path, docs, margins=None):
    """word -> its suggestions; (relative path, line, column) -> best in
    context (and, into margins, -> its margin; None: no runner-up)."""
    answers, in_context = {}, {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            answers[o["word"]] = [s["word"] for s in o["suggestions"]]
            for occ in o.get("in_context", []):
                where, line_no, col = occ["at"].rsplit(":", 2)
                place = (os.path.relpath(where, docs), int(line_no), int(col))
                in_context[place] = occ["best"]
                if margins is not None:
                    margins[place] = occ["margin"]
    return answers, in_context


def margin_sweep(truth, in_context, margins, thresholds):
    """Per threshold: (made right, made wrong, missed) over the injected
    occurrences, fixing those whose margin is at least the threshold."""
    rows = []
    for m in thresholds:
        right = wrong = 0
        for rel, line, col, _, correct in truth:
            place = (rel, line, col)
            if place not in in_context:
                continue
            margin = margins[place]
            if margin is not None and margin < m:
                continue
            if in_context[place] == correct:
                right += 1
            else:
                wrong += 1
        rows.append((m, right, wrong, len(truth) - right - wrong))
    return rows


def run_fix(args, docs, out_path, fixed_dir):
    cmd = ["mpirun", "-n", str(args.ranks), "--bind-to", "none", args.spellcheck, "--suggest", "ranked", "--quiet",
           "--fix", fixed_dir, "-o", out_path] + args.extra + [args.dict, docs]
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    subprocess.run(cmd, check=True, env=env)
    changes = {}
    with open(out_path, encoding="utf-8") as f:
        for line in f:
            where, old, new, _ = line.rstrip("\n").split("\t")
            path, line_no, col = where.rsplit(":", 2)
            changes[(os.path.relpath(path, docs), int(line_no), int(col))] = new
    return changes


def merges_of(path, docs):
    """(relative path, line, column) -> the join, of each merge line's places."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            o = json.loads(line)
            if o.get("merge"):
                for occ in o["in_context"]:
                    where, line_no, col = occ["at"].rsplit(":", 2)
                    out[(os.path.relpath(where, docs), int(line_no), int(col))] = occ["best"]
    return out


def score(truth, answers, in_context):
    """Per occurrence: reported, its word's first suggestion right, among the
    first five, and its own best (in context, else the word's first) right."""
    n = len(truth)
    reported = top1 = top5 = own = 0
    for rel, line, col, typo, correct in truth:
        sugg = answers.get(typo)
        if sugg is None:
            continue
        reported += 1
        top1 += bool(sugg) and sugg[0] == correct
        top5 += correct in sugg[:5]
        best = in_context.get((rel, line, col), sugg[0] if sugg else None)
        own += best == correct
    return n, reported, top1, top5, own


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--spellcheck", required=True)
    ap.add_argument("--dict", required=True)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--pairs", action="append")
    ap.add_argument("--occurrences", type=int, default=3000)
    ap.add_argument("--per-pair", type=int, default=3)
    ap.add_argument("--joins", type=int, default=500)
    ap.add_argument("--aparts", type=int, default=500)
    ap.add_argument("--seed", type=int, default=20261206)
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--out", default="context-bench")
    ap.add_argument("extra", nargs="*", help="options for every spellcheck run (after --)")
    args = ap.parse_args()
    pair_files = args.pairs or sorted(glob.glob(os.path.join(HERE, "..", "..", "shared", "data", "quality", "*.tsv")))
    if not pair_files:
        sys.exit("context-bench: no --pairs lists (../shared/data/quality/*.tsv not found)")
    with open(args.dict, encoding="utf-8") as f:
        dictionary = {line.rstrip("\n") for line in f}
    pairs = read_pairs(pair_files, dictionary)
    files = text_files(args.docs)
    places = find_places(files, pairs)
    rng = random.Random(args.seed)
    chosen = choose(places, pairs, args.occurrences, args.per_pair, rng)
    if os.path.exists(args.out):
        shutil.rmtree(args.out)
    docs = os.path.join(args.out, "docs")
    joins = choose_joins(files, chosen, dictionary, args.joins, rng)
    aparts = choose_aparts(files, chosen + joins, dictionary, args.aparts, rng)
    truth = inject(files, chosen, pairs, args.docs, docs, joins + aparts)
    with open(os.path.join(args.out, "truth.tsv"), "w") as f:
        f.write("path\tline\tcolumn\tmisspelling\tcorrect\n")
        for row in truth:
            f.write("\t".join(map(str, row)) + "\n")
    typos = [t for t in truth if " " not in t[4] and " " not in t[3]]
    joined = [t for t in truth if " " in t[4]]
    apart = [t for t in truth if " " in t[3]]
    fixable = typos + joined  # (merges are reported, never applied by --fix)
    runs = {}
    margins = {}
    for context in ("off", "on"):
        out_path = os.path.join(args.out, f"ranked-context-{context}.jsonl")
        seconds = run_ranked(args, docs, out_path, context)
        answers, in_context = read_answers(out_path, docs, margins if context == "on" else None)
        runs[context] = (seconds,) + score(typos, answers, in_context)
        runs["joins " + context] = (seconds,) + score(joined, answers, in_context)
        if context == "on":
            merges = merges_of(out_path, docs)
    n, reported = runs["off"][1], runs["off"][2]
    pct = lambda k, d=n: f"{100.0 * k / d:.1f}%" if d else "-"
    lines = [
        f"pairs usable: {len(pairs)}; with a place in the text: {len(places)}; "
        f"injected typos: {n} ({len({t[3].lower() for t in typos})} misspellings, at most {args.per_pair} each, "
        f"seed {args.seed}); run-together words: {len(joined)}",
        f"reported: {reported} ({pct(reported)})",
    ]
    for context in ("off", "on"):
        seconds, _, _, top1, top5, own = runs[context]
        _, jn, _, _, jtop5, jown = runs["joins " + context]
        lines += [
            f"context {context}: top-1 per occurrence {own} ({pct(own)}); the word's first {top1} ({pct(top1)}), "
            f"first five {top5} ({pct(top5)}); {seconds:.2f} s wall on {args.ranks} ranks x 1 thread",
            f"  run-together words: split right per occurrence {jown} ({pct(jown, jn)}), in the first five {jtop5} "
            f"({pct(jtop5, jn)})",
        ]
    injected_apart = {(rel, line, col) for rel, line, col, _, _ in apart}
    merged_right = sum(merges.get((rel, line, col)) == correct for rel, line, col, _, correct in apart)
    elsewhere = sorted((place, join) for place, join in merges.items() if place not in injected_apart)
    lines.append(f"words written apart: {len(apart)}; merged right per occurrence {merged_right} "
                 f"({pct(merged_right, len(apart))}); merges elsewhere (not injected: unscored): {len(elsewhere)}, "
                 f"e.g. " + ", ".join(repr(j) for _, j in rng.sample(elsewhere, min(12, len(elsewhere)))))
    truth = fixable
    n = len(truth)
    lines.append("--fix by margin (injected typos and joins): margin, made right, made wrong, missed, precision, recall")
    for m, right, wrong, missed in margin_sweep(truth, in_context, margins, [0, 1, 2, 3, 5, 8, 12]):
        lines.append(f"  {m:>4}  {right:5d}  {wrong:5d}  {missed:5d}  {pct(right, right + wrong)}  {pct(right, n)}")
    changes = run_fix(args, docs, os.path.join(args.out, "changes.tsv"), os.path.join(args.out, "fixed"))
    right = sum(changes.get((rel, line, col)) == correct for rel, line, col, _, correct in truth)
    wrong = sum((rel, line, col) in changes and changes[(rel, line, col)] != correct for rel, line, col, _, correct in truth)
    lines.append(f"--fix at its default margin: {len(changes)} changes; injected: {right} right, {wrong} wrong, "
                 f"{n - right - wrong} missed: precision {pct(right, right + wrong)}, recall {pct(right, n)}")
    split_right = sum(changes.get((rel, line, col)) == correct for rel, line, col, _, correct in joined)
    injected = {(rel, line, col) for rel, line, col, _, _ in truth}
    other_splits = [(place, new) for place, new in changes.items() if " " in new and place not in injected]
    lines.append(f"  joins split right: {split_right} of {len(joined)} ({pct(split_right, len(joined))}); "
                 f"splits elsewhere (not injected: unscored): {len(other_splits)}, e.g. "
                 + ", ".join(f"{new!r}" for _, new in sorted(other_splits)[:8]))
    print("\n".join(lines))
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
