#!/usr/bin/env bash
# everyday_inputs.sh -- pipes, folder walks and compressed inputs, under
# mpirun, compared byte for byte with the serial reference on the plain files.
#
#   everyday_inputs.sh [--mpiexec M] PART SPELLCHECK REFERENCE WORDS
#
# Makes a dictionary (every 10th line of WORDS, e.g. Debian's
# american-english-insane) and a small collection of its words with typos in
# a temporary folder, then PART is one of:
#   stdin       `cat files | spellcheck DICT -` and `spellcheck --words DICT
#               < list` on ranks 1-4 equal the reference on the same bytes
#               as a file; a named pipe and gzip'd standard input too;
#               with 4 KiB pieces (SPELLCHECK_STREAM_PIECE_BYTES): ranks
#               1-4 x threads 1-2, a piece grown past a 20,000-letter run,
#               an empty stream, --report locations of a file and -
#   tree        a folder with hidden files and folders, binary files and
#               --exclude'd names equals the reference on the files that
#               should be read; --verbose names the binary files, the summary
#               and --stats count them; a binary file named is read
#   compressed  the collection as .gz, .zst (no extension), .bz2 and .xz
#               (and plain) equals the plain collection on ranks 1-4 x
#               threads 1-2; a gzip'd word list too
#   bad         truncated and corrupt archives, and a truncated gzip'd
#               standard input: exit 2, one line naming the file, no output
#               file left
#   progress    mpirun's captured stderr holds whole progress lines (phase,
#               done/total, rate, time left; a line per phase done) with
#               --progress, and by default when there is a controlling
#               terminal (script(1) makes one); none without either
# Exit status: 0 passed, 1 a check failed, 77 a tool is missing (skip).
set -u
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

mpiexec=mpirun
if [ "${1:-}" = "--mpiexec" ]; then
  mpiexec=$2
  shift 2
fi
[ $# -eq 4 ] || { echo "usage: everyday_inputs.sh [--mpiexec M] PART SPELLCHECK REFERENCE DICT" >&2; exit 2; }
part=$1 spellcheck=$2 reference=$3 words_file=$4
[ -f "$words_file" ] || { echo "everyday_inputs: SKIP: missing $words_file"; exit 77; }
for tool in gzip zstd bzip2 xz; do
  command -v $tool >/dev/null || { echo "everyday_inputs: SKIP: $tool missing"; exit 77; }
done

export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_orte_execute_quiet=1 OMPI_MCA_hwloc_base_binding_policy=none

work=$(mktemp -d "${TMPDIR:-/tmp}/everyday_inputs.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
dict=$work/dict.txt
awk 'NR % 10 == 1' "$words_file" >"$dict"
# shellcheck source=tests/e2e_lib.sh
. "$tests_dir/e2e_lib.sh"  # failed, fail, run, same

# The collection: 8 files of about 30 KB, every 7th word mistyped; no file
# ends inside a word (so their concatenation has the same words).
mkdir -p plain
awk -v seed=12 'BEGIN { srand(seed) } { w[NR] = $0 } END {
  for (f = 1; f <= 8; f++) {
    out = sprintf("plain/f%02d.txt", f)
    for (i = 0; i < 5000; i++) {
      x = w[int(rand() * NR) + 1]
      if (i % 7 == 3 && length(x) > 2) { k = int(rand() * length(x)) + 1; x = substr(x, 1, k - 1) substr(x, k + 1) "q" }
      printf "%s%s", x, (i % 12 == 11 ? ".\n" : " ") > out
    }
    printf "\n" > out
  }
}' "$dict"
ls plain/*.txt >/dev/null || { echo "everyday_inputs: could not make the collection"; exit 1; }
cat plain/*.txt >all.txt
tr -s ' .\n' '\n\n\n' <all.txt | head -3000 >words.txt
"$reference" "$dict" all.txt >want.txt || exit 1
"$reference" --words "$dict" words.txt >want-words.txt || exit 1
[ -s want.txt ] || { echo "everyday_inputs: empty expected output"; exit 1; }

case "$part" in
stdin)
  for p in 1 2 3 4; do
    t=$(( p > 2 ? 2 : 1 ))
    cat plain/*.txt | run $p $t "$dict" - >got.txt
    same want.txt got.txt "cat | spellcheck DICT - on $p ranks"
    [ $p -eq 1 ] || [ $p -eq 4 ] || continue
    run $p $t --words "$dict" <words.txt >got.txt
    same want-words.txt got.txt "spellcheck --words DICT < list on $p ranks"
  done
  mkfifo fifo
  cat all.txt >fifo &
  run 2 1 "$dict" fifo >got.txt
  wait
  same want.txt got.txt "a named pipe on 2 ranks"
  gzip -c all.txt | run 3 2 "$dict" - >got.txt
  same want.txt got.txt "gzip'd standard input on 3 ranks"
  # A file and standard input together: both read.
  cat plain/f01.txt plain/f02.txt >a.txt
  "$reference" "$dict" a.txt plain/f03.txt >want-two.txt
  cat plain/f03.txt | run 2 1 "$dict" a.txt - >got.txt
  same want-two.txt got.txt "a file and - together"
  # Pieces of 4 KiB: the stream (240 KB) is tokenized as it arrives, about
  # 60 pieces shared out while it is read; a run of 20,000 letters (no place
  # to cut) makes a piece grow. An empty stream is an empty file.
  export SPELLCHECK_STREAM_PIECE_BYTES=4096
  { head -c 20000 /dev/zero | tr '\0' x; printf ' '; cat all.txt; } >long.txt
  "$reference" "$dict" long.txt >want-long.txt
  : >empty.txt
  "$reference" "$dict" empty.txt >want-empty.txt
  for p in 1 2 3 4; do
    for t in 1 2; do
      cat plain/*.txt | run $p $t "$dict" - >got.txt
      same want.txt got.txt "4 KiB pieces: cat | spellcheck DICT - on $p ranks, $t threads"
    done
    run $p 2 "$dict" - <long.txt >got.txt
    same want-long.txt got.txt "4 KiB pieces, a piece grown past 20,000 bytes, on $p ranks"
    : | run $p 1 "$dict" - >got.txt
    same want-empty.txt got.txt "an empty stream on $p ranks"
  done
  # --report: first locations in the stream, and in a file whose place in
  # the collection comes after it ("-" sorts first): the reference reads a
  # file named "-" with the same bytes.
  cp plain/f04.txt ./-
  "$reference" --report want.tsv -o want-report.txt "$dict" a.txt - || fail "the reference on a file named -"
  for p in 1 3; do
    rm -f got.tsv
    run $p 2 --report got.tsv -o got-report.txt "$dict" a.txt - <plain/f04.txt
    same want.tsv got.tsv "4 KiB pieces: --report locations of a file and - on $p ranks"
    same want-report.txt got-report.txt "4 KiB pieces: -o of a file and - on $p ranks"
  done
  gzip -c all.txt | run 2 2 "$dict" - >got.txt
  same want.txt got.txt "4 KiB pieces: gzip'd standard input on 2 ranks"
  unset SPELLCHECK_STREAM_PIECE_BYTES
  ;;
tree)
  mkdir -p tree/a tree/.git tree/sub/.cache tree/build tree/bin
  cp plain/f01.txt plain/f02.txt tree/a/
  cp plain/f03.txt tree/sub/
  printf 'hiddenwordzz in a hidden file\n' >tree/.notes.txt
  printf 'gitwordzz in a hidden folder\n' >tree/.git/config
  printf 'cachewordzz\n' >tree/sub/.cache/c.txt
  printf 'buildwordzz\n' >tree/build/out.txt
  printf 'logwordzz\n' >tree/run.log
  { printf 'binwordzz\0\0\1'; head -c 3000 plain/f04.txt; } >tree/bin/image.dat
  { printf 'gzbinzz\0'; } | gzip -c >tree/bin/packed.gz
  "$reference" "$dict" tree/a/f01.txt tree/a/f02.txt tree/sub/f03.txt >want-tree.txt
  for p in 1 3; do
    run $p 2 --exclude build --exclude '*.log' --verbose --stats stats.json "$dict" tree >got.txt 2>err.txt
    same want-tree.txt got.txt "folder walk on $p ranks (hidden, binary, excluded left out)"
    grep -qx "spellcheck: skipped binary file 'tree/bin/image.dat'" err.txt || fail "--verbose names image.dat"
    grep -qx "spellcheck: skipped binary file 'tree/bin/packed.gz'" err.txt || fail "--verbose names packed.gz"
    grep -q '"skipped_binary_files": *2' stats.json || fail "--stats counts 2 binary files"
    grep -q '"skipped_hidden": *3' stats.json || fail "--stats counts 3 hidden entries"
    grep -q '"skipped_excluded": *2' stats.json || fail "--stats counts 2 excluded entries"
  done
  OMP_NUM_THREADS=1 "$mpiexec" -n 2 "$spellcheck" "$dict" tree >/dev/null 2>err.txt
  grep -q 'binary_skipped=2 ' err.txt || fail "the summary counts binary files"
  rm tree/bin/packed.gz  # (the reference does not decode)
  "$reference" "$dict" tree >want-all.txt
  run 2 1 --hidden --binary "$dict" tree >got.txt
  same want-all.txt got.txt "--hidden --binary: every file, as SPEC.md's walk"
  "$reference" "$dict" tree/bin/image.dat tree/.notes.txt >want-named.txt
  run 2 1 "$dict" tree/bin/image.dat tree/.notes.txt >got.txt
  same want-named.txt got.txt "a binary and a hidden file named are read"
  ;;
compressed)
  mkdir -p ctree/z
  i=0
  for f in plain/*.txt; do
    b=$(basename "$f" .txt)
    case $((i % 5)) in
      0) gzip -c "$f" >ctree/$b.txt.gz ;;
      1) zstd -q -c "$f" >ctree/z/$b ;;  # no extension: found by its magic bytes
      2) bzip2 -c "$f" >ctree/$b.txt.bz2 ;;
      3) xz -c "$f" >ctree/$b.txt.xz ;;
      4) cp "$f" ctree/$b.txt ;;
    esac
    i=$((i + 1))
  done
  # A gzip file of two members (cat a.gz b.gz) and a multi-frame zstd file.
  { gzip -c plain/f01.txt; gzip -c plain/f02.txt; } >ctree/two-members.gz
  { zstd -q -c plain/f03.txt; zstd -q -c plain/f04.txt; } >ctree/z/two-frames.zst
  cat plain/f01.txt plain/f02.txt >ab.txt
  cat plain/f03.txt plain/f04.txt >cd.txt
  "$reference" "$dict" plain ab.txt cd.txt >want-c.txt
  for p in 1 2 3 4; do
    for t in 1 2; do
      run $p $t "$dict" ctree >got.txt
      same want-c.txt got.txt "every format on $p ranks, $t threads"
    done
  done
  gzip -c words.txt >words.txt.gz
  run 3 1 --words "$dict" words.txt.gz >got.txt
  same want-words.txt got.txt "a gzip'd word list on 3 ranks"
  ;;
bad)
  for fmt in gzip zstd bzip2 xz; do
    $fmt -c all.txt >full.$fmt
    size=$(stat -c %s full.$fmt)
    head -c $((size * 2 / 3)) full.$fmt >cut.$fmt
    mkdir -p d.$fmt
    cp plain/f01.txt d.$fmt/
    cp cut.$fmt d.$fmt/cut
    targets=cut.$fmt
    case $fmt in gzip | zstd) targets="$targets d.$fmt" ;; esac  # found in a folder walk too
    for target in $targets; do
      run 2 1 -o out.txt "$dict" $target >stdout.txt 2>err.txt
      rc=$?
      [ $rc -eq 2 ] || fail "$fmt truncated ($target): exit $rc, not 2"
      [ "$(grep -c 'spellcheck: error:' err.txt)" -eq 1 ] || fail "$fmt truncated ($target): one error line"
      grep -q "spellcheck: error: cannot read '[^']*cut[^']*': truncated $fmt data" err.txt ||
        { fail "$fmt truncated ($target): the error names the file"; cat err.txt; }
      [ ! -e out.txt ] && [ -z "$(ls -A . | grep '^out.txt')" ] || fail "$fmt truncated: output left behind"
      [ -s stdout.txt ] && fail "$fmt truncated: something on stdout"
    done
    echo "ok: truncated $fmt"
    # Corrupt: bytes flipped in the middle.
    cp full.$fmt bad.$fmt
    printf 'CORRUPTCORRUPTCORRUPT' | dd of=bad.$fmt bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
    run 3 1 -o out.txt "$dict" bad.$fmt >/dev/null 2>err.txt
    rc=$?
    [ $rc -eq 2 ] || fail "$fmt corrupt: exit $rc, not 2"
    grep -q "spellcheck: error: cannot read 'bad.$fmt': " err.txt || { fail "$fmt corrupt: the error names the file"; cat err.txt; }
    [ -z "$(ls -A . | grep '^out.txt')" ] || fail "$fmt corrupt: output left behind"
    echo "ok: corrupt $fmt"
  done
  # A truncated compressed stream, cut after many 4 KiB pieces went out to
  # the ranks: the same one line, exit 2, nothing written, no rank left.
  cat all.txt all.txt all.txt | gzip -c >full-stream.gz
  size=$(stat -c %s full-stream.gz)
  for p in 1 3; do
    head -c $((size * 2 / 3)) full-stream.gz |
      SPELLCHECK_STREAM_PIECE_BYTES=4096 timeout 60 "$mpiexec" -n $p "$spellcheck" -q -o out.txt "$dict" - >stdout.txt 2>err.txt
    rc=$?
    [ $rc -eq 2 ] || fail "truncated gzip'd standard input on $p ranks: exit $rc, not 2"
    [ "$(grep -c 'spellcheck: error:' err.txt)" -eq 1 ] &&
      grep -q "spellcheck: error: cannot read '-': truncated gzip data" err.txt ||
      { fail "truncated gzip'd standard input on $p ranks: one error line naming -"; cat err.txt; }
    [ -z "$(ls -A . | grep '^out.txt')" ] || fail "truncated gzip'd standard input: output left behind"
    [ -s stdout.txt ] && fail "truncated gzip'd standard input: something on stdout"
  done
  echo "ok: truncated gzip'd standard input"
  ;;
progress)
  for i in $(seq 40); do cat all.txt; done >big.txt  # ~10 MB: several work units
  progress_ok() {  # progress_ok FILE WHAT
    local re='^\[spellcheck\]\[progress\] '
    grep -Eq "${re}reading \(rank 0's share\): [0-9]+/[0-9]+ MB \([0-9]+%\), [0-9.]+ MB/s, " "$1" ||
      fail "$2: a periodic reading line"
    grep -Eq "${re}reading \(rank 0's share\): done, [0-9]+ MB in [0-9.]+ s \([0-9.]+ MB/s\)$" "$1" ||
      fail "$2: the reading done line"
    grep -Eq "${re}candidates \(rank 0's share\): done, [0-9]+ words in " "$1" || fail "$2: the candidates done line"
    grep -q $'\r' "$1" && fail "$2: a carriage return (not whole lines)"
    [ "$(grep -c "${re}" "$1")" -ge 3 ] && echo "ok: $2"
  }
  setsid -w "$mpiexec" -n 2 "$spellcheck" -q --progress --progress-interval 0.001 "$dict" big.txt >got.txt 2>err.txt
  same want.txt got.txt "output with --progress"
  progress_ok err.txt "--progress under mpirun, stderr captured"
  SPELLCHECK_PROGRESS_INTERVAL=0.001 setsid -w "$mpiexec" -n 2 "$spellcheck" -q "$dict" big.txt >/dev/null 2>err.txt
  grep -q progress err.txt && fail "progress lines without --progress nor a terminal"
  if command -v script >/dev/null; then
    SPELLCHECK_PROGRESS_INTERVAL=0.001 script -qec \
      "'$mpiexec' -n 2 '$spellcheck' -q '$dict' big.txt >/dev/null 2>err.txt" /dev/null >/dev/null
    progress_ok err.txt "progress by default from a terminal, stderr captured"
  fi
  ;;
*)
  echo "everyday_inputs: unknown part '$part'" >&2
  exit 2
  ;;
esac
exit $failed
