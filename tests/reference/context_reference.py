#!/usr/bin/env python3
"""Serial reference for --context (tests/context.sh): what `spellcheck
--suggest ranked --context on --format jsonl` prints, from the run's own
ranking without context and the documents, computed the plain way.

    context_reference.py BASE.jsonl ROOT WEIGHT OUT.jsonl OUT.txt FREQ [SPLIT [MERGE]]

BASE.jsonl: the same run with --context off (each word's suggestions and
their scores: the ranking context starts from). ROOT: the folder of
documents as given to spellcheck (its text: ASCII letters, spaces,
punctuation and newlines only, so a token is a run of ASCII letters).
FREQ: the run's frequency list; SPLIT: on (default) or off, as --split;
MERGE: off (default), or --merge on's --merge-ratio R.
Writes the jsonl and the text output the run in context must print.

The model, as `include/spellcheck/suggest/context.hpp` states it: a
token's context key is its spelling with the first letter lowered (words of
up to 16 bytes); N tokens; count(x) and count(x y) over the whole
collection (pairs within a file); for an occurrence with neighbours L and
R (none at a file's edges) and a candidate c among the word's first five:
    side(pair, given, word) = ln(pair / given) - ln((word + 0.5) / N),
                              ln(0.4) if the pair never occurs
    evidence = round(1000 * weight * side(count(L c), count(L), count(c)))
             + round(1000 * weight * side(count(c R), count(c), count(R)))
A candidate's score gains its evidence summed over the word's
occurrences; the five are reordered by score (then spelling, byte-wise),
the rest follow as they were (a word with one candidate is left as it is);
lines by number of candidates, then word byte-wise (SPEC.md).
An occurrence's best: the highest of score plus its own evidence, ties to
the earlier; margin over the runner-up.

Splits (`include/spellcheck/suggest/split_words.hpp`), before the
weighing: a misspelled word of 2 to 30 letters (no ASCII capital after the
first) cut in two after each letter where both parts' keys are keys of
words the dictionary accepted (tokens not among the misspelled words; a
part of one letter at least one in 200 of all tokens), and
the collection has the pair (count n > 0) at least 10 times as often as
the word, becomes the candidate "left right" (distance 1) with score
    round(1000 * 0.79375 * ln(floor(F * n / N) + 1.125))
    + round(1000 * 0.5 * ln(1 + n)) - 4000 + 3500
(F: the frequency list's counts summed), put before the first candidate
that scores less, cuts left to right; the ranking then keeps at most
max(10, what it had).

Merges (`include/spellcheck/suggest/merge_words.hpp`, jsonl only): a word
the dictionary accepted (a token not among the misspelled words) of 4 to
30 letters, no ASCII capital after the first, cut after its second to its
last but two letters into two parts whose keys are keys of such words,
joins the pair of those keys; the join's count: the counts of the
spellings that join it, summed (one of them lower-case: else a name, no
merge). Two neighbouring tokens with one space or
tab between (within a line; not after a hyphen, nor before one the next
token follows; the second's first letter no capital), n times in all,
whose keys are such a pair,
are merged when the join's count is at least R n: a line per case of the
first token's first letter (a capital, or not: its words' first letters
so), word "left right", occurrences its places, its one suggestion the
join (distance 1, score round(1000 ln(join's count / n))), "merge":true,
each place's best the join, margin null; ordered with the other lines as
words of one candidate.
"""
import collections
import json
import math
import os
import re
import sys

TOKEN = re.compile(rb"[A-Za-z]+")
WEIGHED = 5
BACKOFF = 0.4
TOP = 10
APART = 10
ONE_LETTER = 200


def key(word):
    if len(word) <= 16 and word[:1].isupper() and word[:1].isascii():
        return word[:1].lower() + word[1:]
    return word


def dumps(s):
    return json.dumps(s, ensure_ascii=False)


def llround(x):
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def files_of(root):
    out = []
    for d, dirs, files in os.walk(root):
        for name in files:
            out.append(os.path.join(d, name))
    return sorted(out, key=os.fsencode)


def tokens_of(path):
    """(word, line, column, apart) of each token, in order; apart: one blank
    between it and the token before, neither in a hyphenated word (no
    hyphen before the token before, none between it and the next token
    right after), and its first letter no capital."""
    out = []
    with open(path, "rb") as f:
        for line_no, line in enumerate(f.read().split(b"\n"), 1):
            ms = list(TOKEN.finditer(line))
            for i, m in enumerate(ms):
                apart = i > 0 and m.start() == ms[i - 1].end() + 1 and line[m.start() - 1:m.start()] in (b" ", b"\t")
                apart = apart and line[ms[i - 1].start() - 1:ms[i - 1].start()] != b"-"
                apart = apart and not (len(m.group()) <= 16 and m.group()[:1].isupper())
                apart = apart and not (i + 1 < len(ms) and ms[i + 1].start() == m.end() + 1 and
                                       line[m.end():m.end() + 1] == b"-")
                out.append((m.group().decode(), line_no, m.start() + 1, apart))
    return out


def merge_lines(known_spellings, known, apart_places, ratio):
    """The merges' (order key, jsonl line): known_spellings: each correct
    spelling's count; known: key -> count; apart_places: pair of keys ->
    [(place, capital)] of the pairs written one blank apart."""
    joins = {}
    for w, count in known_spellings.items():
        if not 4 <= len(w.encode()) <= 30 or any("A" <= c <= "Z" for c in w[1:]):
            continue
        for at in range(2, len(w) - 1):
            left, right = w[:at], w[at:]
            if known.get(key(left), 0) > 0 and known.get(key(right), 0) > 0:
                together = w[:1].lower() + w[1:] if w[:1].isascii() else w
                j = joins.setdefault((key(left), key(right)), [together, at, 0, False])
                j[2] += count
                j[3] = j[3] or not ("A" <= w[:1] <= "Z")
    out = []
    for pair, (together, at, count, lower) in joins.items():
        places = apart_places.get(pair, [])
        if not places or not lower or count < ratio * len(places):
            continue
        score = llround(1000.0 * math.log(count / len(places)))
        for capital in (False, True):
            mine = [at_ for at_, c in places if c == capital]
            if not mine:
                continue
            t = together[:1].upper() + together[1:] if capital else together
            apart = t[:at] + " " + t[at:]
            line = '{"word":%s,"occurrences":%d,"suggestions":[{"word":%s,"distance":1,"score":%.3f}],' % (
                dumps(apart), len(mine), dumps(t), score / 1000.0)
            line += '"merge":true,"in_context":[' + ",".join(
                '{"at":%s,"best":%s,"margin":null}' % (dumps(p), dumps(t)) for p in mine) + "]}\n"
            out.append(((1, apart.encode()), line))
    return out


def split_score(n, tokens, freq_total):
    expected = int(float(freq_total) * n / tokens)
    return (llround(1000.0 * 0.79375 * math.log(expected + 1.125)) + llround(1000.0 * 0.5 * math.log(1.0 + n))
            - 4000 + 3500)


def with_splits(word, occurrences, sugg, known, pairs, tokens, freq_total):
    """The word's suggestions [(word, distance, score)] with its splits
    (known: key -> the count of the correct tokens of that key)."""
    if not 2 <= len(word.encode()) <= 30 or any("A" <= c <= "Z" for c in word[1:]):
        return sugg
    out = list(sugg)
    for at in range(1, len(word)):
        left, right = word[:at], word[at:]
        n = pairs[(key(left), key(right))]
        def enough(part):
            return known.get(key(part), 0) > 0 and (len(part) > 1 or known[key(part)] * ONE_LETTER >= tokens)
        if enough(left) and enough(right) and n > 0 and n >= APART * occurrences:
            s = split_score(n, tokens, freq_total)
            where = next((j for j, c in enumerate(out) if c[2] < s), len(out))
            out.insert(where, (left + " " + right, 1, s))
    return out[:max(len(sugg), TOP)]


def main():
    base_path, root, weight, out_jsonl, out_txt, freq_path = sys.argv[1:7]
    split = sys.argv[7] == "on" if len(sys.argv) > 7 else True
    merge = int(sys.argv[8]) if len(sys.argv) > 8 and sys.argv[8] != "off" else 0
    weight = float(weight)
    freq_total = sum(int(line.split()[1]) for line in open(freq_path, encoding="utf-8") if line.strip())
    words, pairs, places = collections.Counter(), collections.Counter(), collections.defaultdict(list)
    apart_places = collections.defaultdict(list)
    for path in files_of(root):
        toks = tokens_of(path)
        for i, (w, line, col, apart) in enumerate(toks):
            words[key(w)] += 1
            if i > 0:
                pairs[(key(toks[i - 1][0]), key(w))] += 1
            if apart:
                v = toks[i - 1]
                capital = len(v[0].encode()) <= 16 and "A" <= v[0][:1] <= "Z"
                apart_places[(key(v[0]), key(w))].append((f"{path}:{v[1]}:{v[2]}", capital))
            left = key(toks[i - 1][0]) if i > 0 else None
            right = key(toks[i + 1][0]) if i + 1 < len(toks) else None
            places[w].append((f"{path}:{line}:{col}", left, right))
    n = sum(words.values())

    def side(pair, given, word):
        if pair == 0 or given == 0:
            return math.log(BACKOFF)
        return math.log(pair / given) - math.log((word + 0.5) / n)

    def evidence(left, right, c):
        e = 0
        if left is not None:
            e += llround(1000.0 * weight * side(pairs[(left, c)], words[left], words[c]))
        if right is not None:
            e += llround(1000.0 * weight * side(pairs[(c, right)], words[c], words[right]))
        return e

    base = [json.loads(raw) for raw in open(base_path, encoding="utf-8")]
    misspelled = set(o["word"] for o in base)
    known, known_spellings = collections.Counter(), {}
    for w, at in places.items():
        if w not in misspelled:
            known[key(w)] += len(at)
            known_spellings[w] = len(at)
    jsonl, text = [], []
    for o in base:
        sugg = [(s["word"], s["distance"], round(s["score"] * 1000)) for s in o["suggestions"]]
        if split:
            sugg = with_splits(o["word"], o["occurrences"], sugg, known, pairs, n, freq_total)
        occ = places[o["word"]] if sugg else []  # (a word without candidates is not weighed)
        k_n = min(WEIGHED, len(sugg)) if len(sugg) >= 2 else 0  # (one candidate: nothing to weigh)
        each = [[evidence(left, right, key(sugg[k][0])) for k in range(k_n)] for _, left, right in occ]
        total = [sugg[k][2] + sum(e[k] for e in each) for k in range(k_n)]
        order = sorted(range(k_n), key=lambda k: (-total[k], sugg[k][0].encode()))
        ranked = [(sugg[k][0], sugg[k][1], total[k]) for k in order] + sugg[k_n:]
        line = '{"word":' + dumps(o["word"]) + ',"occurrences":' + str(o["occurrences"])
        line += ',"suggestions":[' + ",".join(
            '{"word":%s,"distance":%d,"score":%.3f}' % (dumps(w), d, s / 1000.0) for w, d, s in ranked)
        line += '],"in_context":['
        shown = []
        for (at, _, _), e in zip(occ, each):
            values = [total[k] + e[k] for k in order]
            best = max(range(len(values)), key=lambda r: (values[r], -r)) if values else 0
            rest = sorted(values[:best] + values[best + 1:], reverse=True)
            margin = "null" if not rest else "%.3f" % ((values[best] - rest[0]) / 1000.0)
            shown.append('{"at":%s,"best":%s,"margin":%s}' % (dumps(at), dumps(ranked[best][0]), margin))
        order_key = (len(ranked), o["word"].encode())  # (a split may change a word's count of candidates)
        jsonl.append((order_key, line + ",".join(shown) + "]}\n"))
        text.append((order_key, o["word"] + ": " + "".join(" " + w for w, _, _ in ranked) + "\n"))
    if merge:
        jsonl += merge_lines(known_spellings, known, apart_places, merge)
    with open(out_jsonl, "w", encoding="utf-8") as f:
        f.writelines(line for _, line in sorted(jsonl))
    with open(out_txt, "w", encoding="utf-8") as f:
        f.writelines(line for _, line in sorted(text))


if __name__ == "__main__":
    main()
