#!/usr/bin/env python3
"""The ratios that matter, each measured in one run with its runs alternated.

    bench/ratios.py [--data DIR] [--repeats N] [--old BIN] [--sample N] [--seed S]
                    [--only NAME,...]

On make-datasets' data (american-insane dictionary; words/large-w650k,
docs/medium 100 MB, docs/large 1 GB), 2 ranks x 1 thread, warm file cache.
Each round runs every measurement once, in a fixed order, so a slow period of
this shared machine slows both sides of a ratio alike; ratios are taken round
by round and their median printed with their range.

  words    word-list mode (--words large-w650k) against an older binary
           (--old, e.g. the 2026-12-02 build): target <= 1.00x.
  list     SPEC mode on docs/large against `aspell list` on the same bytes
           (wall, mpirun and cat included): target >= 30x.
  ranked   --words --suggest ranked over every SPEC-misspelled word of
           docs/large, index from a warm --index-cache, against `aspell -a
           --sug-mode=normal` on a random sample of the same words (seeded;
           never the head of the list, whose order is SPEC order): words/s,
           in-program and wall; target >= 100x.
  docs     ranked against SPEC documents, index built in the run, on
           docs/medium and docs/large: target <= 2.00x; also with the index
           read from --index-cache, and (--old) this build's ranked runs
           against the older one's.
  hugepages --huge-pages on against off (ranked docs/medium, words list):
           the default (auto) must not be slower than either.
  perdoc   SPEC mode on docs/large with --per-document against without
           (in-program total and wall): target <= 1.15x.

aspell's master is made from the same dictionary (its en data is
ISO-8859-1: words outside it are left out of aspell's master and sample).
"""
import argparse
import json
import os
import random
import shutil
import statistics as st
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--data", default=os.path.join(here, "..", "data"))
    a.add_argument("--repeats", type=int, default=5)
    a.add_argument("--old", help="an older spellcheck binary: word lists and ranked documents against it")
    a.add_argument("--bin", default=os.path.join(here, "build", "spellcheck"))
    a.add_argument("--sample", type=int, default=5000, help="words for aspell -a")
    a.add_argument("--seed", type=int, default=20261206)
    a.add_argument("--only", default="words,list,ranked,docs,hugepages,perdoc")
    return a.parse_args()


def mpi_env():
    env = dict(os.environ)
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    env.setdefault("OMPI_MCA_pml", "ob1")
    return env


class Bench:
    def __init__(self, args, work):
        self.args, self.work, self.env = args, work, mpi_env()
        self.dict = os.path.join(args.data, "dict", "american-insane.txt")
        self.times = {}  # name -> [(wall, in-program total, ranked phase, misspelled)]

    def spellcheck(self, name, binary, *args, record=True):
        stats = os.path.join(self.work, name + ".json")
        out = os.path.join(self.work, name + ".out")
        cmd = ["mpirun", "-q", "-n", "2", "--bind-to", "none", binary, "--threads", "1", "--quiet", "--stats", stats,
               "-o", out] + list(args)
        s = time.perf_counter()
        subprocess.run(cmd, check=True, env=self.env)
        wall = time.perf_counter() - s
        total = ranked = mis = float("nan")
        if os.path.exists(stats):
            j = json.load(open(stats))
            ph = {k: v["max"] for k, v in j["phases"].items()}
            total, ranked, mis = ph["total"], ph.get("ranked", float("nan")), j["counts"]["misspelled"]
        if record:
            self.times.setdefault(name, []).append((wall, total, ranked, mis))
        return out

    def timed(self, name, cmd, stdin=None, shell=False):
        s = time.perf_counter()
        subprocess.run(cmd, check=True, stdin=stdin, stdout=subprocess.DEVNULL, shell=shell)
        wall = time.perf_counter() - s
        self.times.setdefault(name, []).append((wall, wall, wall, 0))

    def wall(self, name):
        return [t[0] for t in self.times[name]]

    def col(self, name, i):
        return [t[i] for t in self.times[name]]


def latin1_words(path):
    for w in open(path, encoding="utf-8", errors="surrogateescape").read().split("\n"):
        try:
            if w:
                w.encode("latin-1")
                yield w
        except UnicodeEncodeError:
            pass


def ratio_line(label, a, b, target):
    """Median and range of a[i]/b[i], round by round."""
    r = [x / y for x, y in zip(a, b)]
    return (f"{label}: {st.median(r):.2f}x (range {min(r):.2f}-{max(r):.2f}; {st.median(a):.3f} s vs "
            f"{st.median(b):.3f} s, medians of {len(r)}) {target}")


def main():
    args = parse()
    only = set(args.only.split(","))
    data = args.data
    for need in ("dict/american-insane.txt", "words/large-w650k.txt", "docs/medium", "docs/large"):
        if not os.path.exists(os.path.join(data, need)):
            maker = os.path.join(here, "..", "shared", "data", "make-datasets")
            subprocess.run([maker, data, "--size", "all"], check=True)
            break
    if ({"list", "ranked"} & only) and not shutil.which("aspell"):
        sys.exit("ratios: aspell is not installed (apt-get install aspell aspell-en)")
    work = tempfile.mkdtemp(prefix="spellcheck-ratios.")
    try:
        run(args, only, Bench(args, work), work)
    finally:
        shutil.rmtree(work)


def run(args, only, b, work):
    data, binary = args.data, args.bin
    words = os.path.join(data, "words", "large-w650k.txt")
    medium, large = os.path.join(data, "docs", "medium"), os.path.join(data, "docs", "large")
    commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"ratios: commit {commit}, {os.cpu_count()} cores, load {open('/proc/loadavg').read().split()[0]}, "
          f"{args.repeats} alternated rounds, 2 ranks x 1 thread; {time.strftime('%Y-%m-%d %H:%M')}", flush=True)

    # Outside the timing: the file cache, the SPEC list of misspelled words,
    # the compiled dictionary in the index cache, aspell's master and the
    # random sample.
    b.spellcheck("warm_medium", binary, b.dict, medium, record=False)
    spec_large = b.spellcheck("warm_large", binary, b.dict, large, record=False)
    misspelled = os.path.join(work, "misspelled.txt")
    with open(spec_large, "rb") as f, open(misspelled, "wb") as o:
        for line in f:
            o.write(line.split(b":", 1)[0] + b"\n")
    index = os.path.join(work, "index")
    if {"ranked", "docs"} & only:
        b.spellcheck("warm_index", binary, "--words", "--suggest", "ranked", "--index-cache", index, b.dict, misspelled,
                     record=False)
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(large) for f in fs)
    listing = os.path.join(work, "large.files")
    with open(listing, "w") as f:
        f.write("\0".join(files))
    if {"list", "ranked"} & only:
        master = os.path.join(work, "insane.rws")
        with open(os.path.join(work, "aspell.in"), "w", encoding="utf-8") as f:
            f.write("\n".join(sorted(set(latin1_words(b.dict)))) + "\n")
        with open(os.path.join(work, "aspell.in"), "rb") as f:
            subprocess.run(["aspell", "--lang=en", "--encoding=utf-8", "create", "master", master], stdin=f,
                           check=True)
        pool = list(latin1_words(misspelled))
        sample = random.Random(args.seed).sample(pool, min(args.sample, len(pool)))
        sample_path = os.path.join(work, "sample.txt")
        with open(sample_path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write("".join("^" + w + "\n" for w in sample))
        aspell = ["aspell", "--encoding=utf-8", "--lang=en", f"--master={master}"]
    n_mis = sum(1 for _ in open(misspelled, "rb"))

    for r in range(args.repeats):
        print(f"  round {r + 1}/{args.repeats}", file=sys.stderr, flush=True)
        if "words" in only:
            # A B, then B A: the run after another workload is often slower.
            pair = [("words", binary), ("words_old", args.old)] if args.old else [("words", binary)]
            for name, which in pair if r % 2 == 0 else reversed(pair):
                b.spellcheck(name, which, "--words", b.dict, words)
        if "list" in only:
            b.spellcheck("spec_large", binary, b.dict, large)
            b.timed("aspell_list", f"xargs -0 cat < {listing} | {' '.join(aspell)} list", shell=True)
        if "ranked" in only:
            b.spellcheck("ranked_words", binary, "--words", "--suggest", "ranked", "--index-cache", index, b.dict,
                         misspelled)
            with open(sample_path, "rb") as f:
                b.timed("aspell_a", aspell + ["-a", "--sug-mode=normal"], stdin=f)
        if "docs" in only:
            for size, path in (("medium", medium), ("large", large)):
                if not (size == "large" and "list" in only):  # spec_large above serves
                    b.spellcheck(f"spec_{size}", binary, b.dict, path)
                b.spellcheck(f"ranked_{size}", binary, "--suggest", "ranked", b.dict, path)
                # The index read from the cache, not built (written above).
                b.spellcheck(f"cached_{size}", binary, "--suggest", "ranked", "--index-cache", index, b.dict, path)
                if args.old:
                    b.spellcheck(f"ranked_{size}_old", args.old, "--suggest", "ranked", b.dict, path)
        if "perdoc" in only:
            pair = [("plain_large", ()), ("perdoc_large", ("--per-document", os.path.join(work, "docs.jsonl")))]
            for name, extra in pair if r % 2 == 0 else reversed(pair):
                b.spellcheck(name, binary, *extra, b.dict, large)
        if "hugepages" in only:
            for mode in ("auto", "on", "off"):
                b.spellcheck(f"hp_{mode}_ranked", binary, f"--huge-pages={mode}", "--suggest", "ranked", b.dict,
                             medium)
                b.spellcheck(f"hp_{mode}_words", binary, f"--huge-pages={mode}", "--words", b.dict, words)

    print()
    if "words" in only:
        w = b.wall("words")
        print(f"word list (large-w650k, --words): wall {st.median(w):.3f} s, in-program "
              f"{st.median(b.col('words', 1)):.3f} s")
        if args.old:
            print("  " + ratio_line(f"against {args.old}", w, b.wall("words_old"), "(target <= 1.00x)"))
    if "list" in only:
        a, s = b.wall("aspell_list"), b.wall("spec_large")
        print(ratio_line("1 GB, aspell list / spellcheck SPEC mode (wall)", a, s, "(target >= 30x)"))
    if "ranked" in only:
        n = len(sample)
        aspell_wps = [n / t for t in b.wall("aspell_a")]
        ours_prog = [n_mis / t for t in b.col("ranked_words", 1)]
        ours_wall = [n_mis / t for t in b.wall("ranked_words")]
        print(f"ranked words/s: spellcheck {st.median(ours_prog):,.0f} in-program, {st.median(ours_wall):,.0f} "
              f"wall ({n_mis:,} words, warm index cache); aspell {st.median(aspell_wps):,.0f} "
              f"(random {n:,}, seed {args.seed})")
        for label, ours in (("in-program", ours_prog), ("wall", ours_wall)):
            r = [o / a for o, a in zip(ours, aspell_wps)]
            print(f"  spellcheck / aspell, {label}: {st.median(r):.0f}x (range {min(r):.0f}-{max(r):.0f}) "
                  f"(target >= 100x)")
    if "docs" in only:
        for size in ("medium", "large"):
            print(ratio_line(f"ranked / SPEC documents, docs/{size} (wall, index built)", b.wall(f"ranked_{size}"),
                             b.wall(f"spec_{size}"), "(target <= 2.00x)"))
            print("  " + ratio_line("index from --index-cache", b.wall(f"cached_{size}"), b.wall(f"spec_{size}"), ""))
            if args.old:
                print("  " + ratio_line(f"ranked, this build / {args.old}", b.wall(f"ranked_{size}"),
                                        b.wall(f"ranked_{size}_old"), ""))
    if "perdoc" in only:
        print(ratio_line("--per-document / without, docs/large (in-program total)", b.col("perdoc_large", 1),
                         b.col("plain_large", 1), "(target <= 1.15x)"))
        print("  " + ratio_line("wall", b.wall("perdoc_large"), b.wall("plain_large"), ""))
    if "hugepages" in only:
        for load in ("ranked", "words"):
            auto, on, off = (b.wall(f"hp_{m}_{load}") for m in ("auto", "on", "off"))
            print(ratio_line(f"huge pages on / off, {load}", on, off, ""))
            for m, other in (("on", on), ("off", off)):
                print("  " + ratio_line(f"default (auto) / {m}", auto, other, "(target <= 1.00x beyond noise)"))


if __name__ == "__main__":
    main()
