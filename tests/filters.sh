#!/usr/bin/env bash
# filters.sh -- --filter on real marked-up files, under mpirun, against the
# serial reference.
#
#   filters.sh [--mpiexec M] PART SPELLCHECK REFERENCE FILTER_TEXT WORDS
#
# WORDS: a word list (Debian's american-english-insane).
# The collection: hand-made HTML, Markdown, TeX and man pages, text full of
# URLs, addresses, paths and tokens with digits, generated prose with typos,
# and real files from Debian packages (the Debian Reference's HTML, Markdown
# under /usr/share/doc, man pages, TeX sources), some gzip'd. PART:
#   compare  spellcheck --filter auto (-o and --report) on ranks 1-4 x
#            threads 1-2 equals the reference run with --filter url,digits
#            on copies of the files whose markup FILTER_TEXT blanked first
#            (tests/input/filter_text.cpp: the markup filter the name
#            implies, over the whole file at once); no tag, attribute,
#            entity, request or command name is left in the output
#   corpus   the prose as JSON Lines and as WARC (WET) files, plain and
#            gzip'd, equals the reference on the same text as a plain file,
#            on ranks 1-4; broken JSON lines in every position are left out
#            with a warning naming the first (each with --verbose), --strict
#            exits 2; a truncated WARC record likewise
#   modes    ranked mode's default filter is auto; --sort count orders the
#            lines by the reference's occurrence counts; --exit-status is 3
#            with misspellings, 0 without, 2 for bad input; bad --filter
#            values exit 2 with one line
# Exit status: 0 passed, 1 a check failed.
set -u
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

mpiexec=mpirun
if [ "${1:-}" = "--mpiexec" ]; then
  mpiexec=$2
  shift 2
fi
[ $# -eq 5 ] || { echo "usage: filters.sh [--mpiexec M] PART SPELLCHECK REFERENCE FILTER_TEXT WORDS" >&2; exit 2; }
part=$1 spellcheck=$2 reference=$3 filter_text=$4 words=$5
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_orte_execute_quiet=1 OMPI_MCA_hwloc_base_binding_policy=none

work=$(mktemp -d "${TMPDIR:-/tmp}/filters.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# The dictionary: all of WORDS for the markup comparison (fewer misspelled
# words to look at), every 4th entry for the others (faster ranked runs).
dict=$words
[ "$part" = compare ] || { awk 'NR % 4 == 1' "$words" >small-dict.txt; dict=$work/small-dict.txt; }
# shellcheck source=tests/e2e_lib.sh
. "$tests_dir/e2e_lib.sh"  # failed, fail, run, same
need() {  # need PATH PACKAGE: a real file the test reads (install-deps.sh installs it)
  [ -e "$1" ] || { echo "FAIL: $1 missing: install Debian's $2 (scripts/install-deps.sh)"; exit 1; }
}

# --- The collection --------------------------------------------------------
mkdir -p docs/hand docs/real docs/prose
cat >docs/hand/page.html <<'HTML'
<!DOCTYPE html>
<html><head><title>Thhe page</title><style>body { qqstyle: red; }</style>
<script>var zzscript = "qqscript";</script></head>
<body><p class="intro">Some recieve text with <b>bold</b> and <a href="http://example.com/qqlink">a linkk</a>.</p>
<img src="qqimage.png" alt="a pictre of a cat" title="Hover titel">
<!-- a qqcomment here -->
<pre>qqpre block</pre> caf&eacute; d&eacute;j&agrave; &amp; &nbsp; don&rsquo;t <code>qqcode</code>
</body></html>
HTML
cat >docs/hand/notes.md <<'MD'
# Notes with a tyop

Some `qqspan` text and a [linkk](http://example.com/qqtarget "qqtitle").

```
qqfence inside code
```

    qqindent code block

<div class="qqhtml">raw</div> and https://example.org/qqauto too.
MD
cat >docs/hand/paper.tex <<'TEX'
\documentclass{article}\usepackage{qqpackage}
% a qqcomment line
\begin{document}
\section{Intro\-duction} A sentance with $x^2 + qqmath$ and \cite{qqcite}, see~\ref{qqref}.
\begin{verbatim}
qqverbatim text
\end{verbatim}
Caf\'e and Schr\"{o}dinger wrote \emph{emphasised wrods} \verb|qqverb|.
\end{document}
TEX
cat >docs/hand/tool.1 <<'MAN'
.TH TOOL 1 "2026" "qqversion"
.SH NAME
tool \- does a thnig
.SH DESCRIPTION
.B tool
reads \fIfiles\fR and \fBprints\fP them.
.\" a qqcomment
.TP
.B \-x
ex\%ample of an optoin.
.EX
qqexample code
.EE
MAN
printf 'See http://example.com/qqurl and mail qquser@example.org or /usr/qqpath now.\nThe 19xx x86 mp3 qq4d0 items, and/or 10:30 recieve.\n' >docs/hand/links.txt
awk 'NR % 97 == 5' "$dict" | head -3000 | awk 'BEGIN { srand(3) } {
  x = $0; if (NR % 6 == 2 && length(x) > 3) { k = int(rand() * length(x)) + 1; x = substr(x, 1, k - 1) substr(x, k + 1) }
  printf "%s%s", x, (NR % 11 == 10 ? ".\n" : " ") }' >docs/prose/words.txt
printf 'Prose at https://x.org/%s end\n' "$(head -c 3000 /dev/zero | tr '\0' a)" >docs/prose/longurl.txt
need /usr/share/debian-reference/ch01.en.html debian-reference-en
cp /usr/share/debian-reference/ch01.en.html /usr/share/debian-reference/ch05.en.html docs/real/
need /usr/share/doc/zstd/README.md.gz zstd
cp /usr/share/doc/zstd/README.md.gz /usr/share/doc/zstd/TESTING.md docs/real/
for m in ls grep tar; do
  need /usr/share/man/man1/$m.1.gz "$m's package"
  cp /usr/share/man/man1/$m.1.gz docs/real/
done
gzip -dc docs/real/ls.1.gz >docs/real/ls-plain.1
need /usr/share/doc/c++-annotations/cplusplus.latex.gz c++-annotations-latex
gzip -dc /usr/share/doc/c++-annotations/cplusplus.latex.gz | head -c 200000 >docs/real/annotations.tex

# What the reference reads: each file with its markup blanked (and
# decompressed), under the same name.
(cd docs && find . -type f) | while read -r f; do
  mkdir -p "filtered/$(dirname "$f")"
  "$filter_text" auto "docs/$f" "filtered/$f" || { echo "FAIL: filter_text $f"; exit 1; }
done || exit 1

case $part in
compare)
  "$reference" --filter url,digits -o want.txt --report want.tsv "$dict" filtered || { echo "FAIL: the reference"; exit 1; }
  sed 's#filtered/#docs/#' want.tsv >want-docs.tsv
  [ -s want.txt ] || fail "the reference found nothing misspelled"
  for combo in 1:1 1:2 2:1 2:2 3:1 4:1 4:2; do
    p=${combo%:*} t=${combo#*:}
    rm -f got.txt got.tsv
    run "$p" "$t" --filter auto -o got.txt --report got.tsv "$dict" docs || { fail "spellcheck p=$p t=$t"; continue; }
    same want.txt got.txt "output, $p ranks x $t threads"
    same want-docs.tsv got.tsv "report, $p ranks x $t threads"
  done
  # Nothing of the markup is left: words the hand-made files hide.
  if grep -E '^(qq[a-z0-9]*|zzscript|href|xmlns|tbody|fB|fR|TH|SH|PP|usr|mp3|x86|qq4d0|19xx|documentclass|usepackage|textbf)[:\t]' got.txt; then
    fail "markup, URLs or digits in the output"
  else
    echo "ok: no markup, URL or digit token in the output"
  fi
  for w in Thhe recieve linkk pictre titel tyop sentance wrods thnig optoin; do
    grep -q "^$w:" got.txt || fail "the prose word '$w' is missing"
  done
  # Without the filters those words come back (the check above can fail).
  run 2 1 --filter none "$dict" docs >none.txt
  grep -qE '^(qqcode|href|qqfence|usr):' none.txt || fail "--filter none hides markup words too"
  ;;
modes)
  run 2 1 --suggest ranked "$dict" docs >ranked-default.txt
  run 2 1 --suggest ranked --filter auto "$dict" docs >ranked-auto.txt
  same ranked-auto.txt ranked-default.txt "ranked mode's default is --filter auto"
  run 2 1 --suggest ranked --filter none "$dict" docs >ranked-none.txt
  cmp -s ranked-none.txt ranked-default.txt && fail "ranked --filter none equals the default"
  # --sort count: the reference's lines ordered by its occurrence counts.
  "$reference" --filter url,digits -o want.txt --report want.tsv "$dict" filtered || exit 1
  python3 - want.txt want.tsv >want-count.txt <<'PY'
import sys
lines = {l.split(b":", 1)[0]: l for l in open(sys.argv[1], "rb").read().splitlines(keepends=True)}
rows = [r.split(b"\t") for r in open(sys.argv[2], "rb").read().splitlines()[1:]]
for word, count, *_ in sorted(rows, key=lambda r: (-int(r[1]), r[0])):
    sys.stdout.buffer.write(lines[word])
PY
  for combo in 1:2 3:1; do
    p=${combo%:*} t=${combo#*:}
    run "$p" "$t" --filter auto --sort count "$dict" docs >got-count.txt
    same want-count.txt got-count.txt "--sort count, $p ranks x $t threads"
  done
  [ "$(head -1 got-count.txt)" != "$(head -1 want.txt)" ] || fail "--sort count: the first line is SPEC's"
  # --exit-status.
  run 2 1 --exit-status --filter auto "$dict" docs >/dev/null
  [ $? -eq 3 ] || fail "--exit-status with misspellings is not 3"
  printf 'the\n' >clean.txt
  run 2 1 --exit-status "$dict" clean.txt >/dev/null
  [ $? -eq 0 ] || fail "--exit-status without misspellings is not 0"
  run 2 1 --exit-status "$dict" missing.txt >/dev/null 2>err.txt
  [ $? -eq 2 ] || fail "--exit-status on a missing input is not 2"
  # Bad values: exit 2, one line.
  for bad in "--filter htm" "--filter url,,digits" "--sort size" "--words --filter url"; do
    # shellcheck disable=SC2086
    run 1 1 $bad "$dict" clean.txt >/dev/null 2>err.txt
    status=$?
    if [ $status -ne 2 ] || [ "$(wc -l <err.txt)" -ne 1 ]; then fail "'$bad': status $status, $(wc -l <err.txt) lines"; else echo "ok: '$bad' refused"; fi
  done
  ;;
corpus)
  # The prose as JSON Lines (ensure_ascii: every non-ASCII letter escaped)
  # and as a WET file, next to the same text as plain files; broken records
  # in every position of a copy.
  cat docs/prose/words.txt docs/hand/links.txt > plain.txt
  printf 'caf\xc3\xa9 d\xc3\xa9j\xc3\xa0 vu \xe2\x80\x9cquoted\xe2\x80\x9d don\xe2\x80\x99t na\xc3\xafve tab\there\n' >>plain.txt
  python3 - plain.txt <<'PY' || exit 1
import json, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
if lines[-1] == "": lines.pop()
with open("corpus.jsonl", "w") as out:
    for i, line in enumerate(lines):
        out.write(json.dumps({"id": i, "meta": {"text": "qqmeta", "n": [1, 2]}, "text": line}) + "\n")
bad = ['{"text": "qqbroken one"', 'qqbroken two', '{"text": "qqbroken \\x three"}', '["text", "qqbroken"]']
with open("broken.jsonl", "w") as out:
    out.write(bad[0] + "\n")
    broken = 2
    for i, line in enumerate(lines):
        out.write(json.dumps({"text": line}) + "\n")
        if i % 40 == 7:
            out.write(bad[(i // 40) % len(bad)] + "\n")
            broken += 1
    out.write(bad[1])
open("broken.count", "w").write(str(broken))
def record(kind, payload, extra=""):
    body = payload.encode()
    return (f"WARC/1.0\r\nWARC-Type: {kind}\r\n{extra}Content-Length: {len(body)}\r\n\r\n").encode() + body + b"\r\n\r\n"
with open("corpus.warc", "wb") as out:
    out.write(record("warcinfo", "software: qqinfo\r\n"))
    for k in range(0, len(lines), 25):
        uri = f"WARC-Target-URI: http://example.com/qq{k}\r\n"
        out.write(record("request", "GET /qqrequest HTTP/1.1\r\n\r\n", uri))
        out.write(record("conversion", "\n".join(lines[k:k + 25]) + "\n", uri))
with open("corpus.warc", "rb") as f: whole = f.read()
with open("truncated.warc", "wb") as out: out.write(whole[: len(whole) - 100])
PY
  gzip -c corpus.jsonl >corpus.jsonl.gz
  gzip -c corpus.warc >corpus.warc.wet.gz
  "$reference" -o want.txt "$dict" plain.txt || { echo "FAIL: the reference"; exit 1; }
  [ -s want.txt ] || fail "the reference found nothing misspelled"
  for combo in 1:1 2:2 3:1 4:2; do
    p=${combo%:*} t=${combo#*:}
    run "$p" "$t" --input-format jsonl "$dict" corpus.jsonl >got.txt
    same want.txt got.txt "jsonl, $p ranks x $t threads"
    run "$p" "$t" --input-format warc "$dict" corpus.warc >got.txt
    same want.txt got.txt "warc, $p ranks x $t threads"
  done
  # Standard input in 4 KiB pieces: they end at line ends, so no record is
  # cut.
  SPELLCHECK_STREAM_PIECE_BYTES=4096 run 3 1 --input-format jsonl "$dict" - <corpus.jsonl >got.txt
  same want.txt got.txt "jsonl on standard input, 4 KiB pieces"
  run 2 1 --input-format auto "$dict" corpus.jsonl.gz >got.txt
  same want.txt got.txt "jsonl.gz by its name"
  run 2 1 --input-format auto "$dict" corpus.warc.wet.gz >got.txt
  same want.txt got.txt "warc.wet.gz by its name"
  run 3 1 --input-format jsonl --text-field meta "$dict" corpus.jsonl >got.txt
  [ ! -s got.txt ] || fail "--text-field meta (an object) gave text"
  # Broken records: the rest is read, the run warns with the first place.
  for combo in 1:1 2:1 4:2; do
    p=${combo%:*} t=${combo#*:}
    run "$p" "$t" --input-format jsonl "$dict" broken.jsonl >got.txt 2>err.txt
    status=$?
    same want.txt got.txt "broken.jsonl, $p ranks x $t threads"
    [ $status -eq 0 ] || fail "broken.jsonl: status $status"
  done
  OMP_NUM_THREADS=1 "$mpiexec" -n 2 "$spellcheck" --input-format jsonl "$dict" broken.jsonl >/dev/null 2>err.txt
  broken=$(cat broken.count)
  grep -q "warning: $broken malformed record(s) skipped, the first at broken.jsonl:1 " err.txt ||
    { fail "no warning naming broken.jsonl:1"; cat err.txt; }
  OMP_NUM_THREADS=1 "$mpiexec" -n 3 "$spellcheck" --verbose --input-format jsonl "$dict" broken.jsonl 2>err.txt >/dev/null
  [ "$(grep -c 'malformed record$' err.txt)" -eq "$broken" ] || fail "--verbose does not name the $broken broken lines"
  run 3 1 --strict --input-format jsonl "$dict" broken.jsonl >/dev/null 2>err.txt
  status=$?
  if [ $status -ne 2 ] || [ "$(wc -l <err.txt)" -ne 1 ] || ! grep -q "broken.jsonl:1: malformed record" err.txt; then
    fail "--strict: status $status, $(cat err.txt)"
  else
    echo "ok: --strict names broken.jsonl:1, exit 2"
  fi
  OMP_NUM_THREADS=1 "$mpiexec" -n 2 "$spellcheck" --input-format warc "$dict" truncated.warc >/dev/null 2>err.txt ||
    fail "truncated.warc: a failure"
  grep -q "malformed record(s) skipped, the first at truncated.warc:" err.txt || fail "truncated.warc: no warning"
  run 2 1 --strict --input-format warc "$dict" truncated.warc >/dev/null 2>err.txt
  [ $? -eq 2 ] || fail "truncated.warc --strict is not exit 2"
  ;;
*)
  echo "filters.sh: unknown part '$part'" >&2
  exit 2
  ;;
esac
exit $failed
