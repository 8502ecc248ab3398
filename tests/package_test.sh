#!/usr/bin/env bash
# The Debian package, installed into a scratch root and run there:
#   cpack -G DEB in BUILD_DIR (nothing is rebuilt), dpkg-deb -x into a fresh
#   directory, then: the files are where packaging/Packaging.cmake says; the
#   package depends on Open MPI, TBB and mpirun; the unpacked binary checks a
#   small input on 1 and 2 ranks with the expected output; and in ranked mode
#   it uses the frequency list of its own tree (an edited copy there changes
#   the ranking), not the one of the source tree it was built from.
#
#   package_test.sh BUILD_DIR
# Skips (77) without cpack or dpkg-deb.
set -uo pipefail
build=$(realpath "$1")
fail() { echo "package: FAIL: $*"; exit 1; }
for tool in cpack dpkg-deb mpirun; do
  command -v $tool >/dev/null || { echo "package: no $tool, skipped"; exit 77; }
done
here=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../scripts/local-mpi-env.sh
source "$here/scripts/local-mpi-env.sh"
work=$(mktemp -d "$build/package-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

(cd "$build" && cpack -G DEB -B "$work/out") >"$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; fail "cpack"; }
debs=("$work"/out/spellcheck_*.deb)
[ -f "${debs[0]}" ] || { cat "$work/cpack.log"; fail "no .deb made"; }
deb=${debs[0]}
echo "package: $(basename "$deb"), $(stat -c %s "$deb") bytes"

depends=$(dpkg-deb -f "$deb" Depends)
echo "package: Depends: $depends"
for want in libopenmpi libtbb libgomp libstdc++ openmpi-bin; do
  grep -q "$want" <<<"$depends" || fail "Depends lacks $want"
done

root=$work/root
dpkg-deb -x "$deb" "$root" || fail "dpkg-deb -x"
for f in usr/bin/spellcheck usr/share/man/man1/spellcheck.1.gz usr/share/spellcheck/freq/en-80k.txt \
         usr/share/spellcheck/slurm/spellcheck.sbatch usr/share/spellcheck/slurm/compile.sbatch usr/share/spellcheck/slurm/scaling \
         usr/share/spellcheck/slurm/collect.py usr/share/spellcheck/slurm/sweep_verify.py \
         usr/share/doc/spellcheck/README.md usr/share/doc/spellcheck/LICENSE usr/share/doc/spellcheck/copyright; do
  [ -f "$root/$f" ] || fail "$f is not in the package"
done
for f in usr/bin/spellcheck usr/share/spellcheck/slurm/spellcheck.sbatch usr/share/spellcheck/slurm/compile.sbatch \
         usr/share/spellcheck/slurm/collect.py; do
  [ -x "$root/$f" ] || fail "$f is not executable"
done
cmp -s "$root/usr/share/spellcheck/freq/en-80k.txt" "$here/freq/en-80k.txt" || fail "en-80k.txt differs"
if command -v man >/dev/null; then
  MANWIDTH=80 man -l "$root/usr/share/man/man1/spellcheck.1.gz" 2>&1 | grep -q -- "--filter-exchange" ||
    fail "the installed man page does not render"
fi

# The installed collector imports its modules from where it is installed.
mkdir -p "$work/empty-sweep"
python3 "$root/usr/share/spellcheck/slurm/collect.py" --raw "$work/empty-sweep" --out "$work/results" \
  >"$work/collect.log" 2>&1
rc=$?
[ $rc = 2 ] && grep -q "no runs" "$work/collect.log" || { cat "$work/collect.log"; fail "installed collect.py: exit $rc"; }

bin=$root/usr/bin/spellcheck
"$bin" --version | grep -qx "spellcheck [0-9.]*" || fail "--version"

# SPEC mode on a tiny document, 1 rank (singleton) and 2 ranks.
printf 'cat\ncot\ndog\nthe\n' >"$work/dict.txt"
printf "The cxt and the dgg.\nthw dog\n" >"$work/doc.txt"
printf 'and: \ndgg:  dog\nthw:  the\ncxt:  cat cot\n' >"$work/expected.txt"  # as tests/reference/ prints it
"$bin" --quiet "$work/dict.txt" "$work/doc.txt" >"$work/out1.txt" || fail "1 rank: exit $?"
cmp "$work/expected.txt" "$work/out1.txt" || { diff "$work/expected.txt" "$work/out1.txt"; fail "1 rank output"; }
mpirun -q -n 2 "$bin" --quiet --threads 1 "$work/dict.txt" "$work/doc.txt" >"$work/out2.txt" || fail "2 ranks: exit $?"
cmp "$work/expected.txt" "$work/out2.txt" || { diff "$work/expected.txt" "$work/out2.txt"; fail "2 ranks output"; }

# Ranked: the shipped list ranks cat before cot; an edited list in the
# unpacked tree reverses that, so the binary read the list beside itself.
printf 'cxt\n' >"$work/words.txt"
unset SPELLCHECK_FREQUENCIES
"$bin" --quiet --words --suggest ranked --top 2 "$work/dict.txt" "$work/words.txt" >"$work/ranked1.txt" ||
  fail "ranked: exit $?"
[ "$(cat "$work/ranked1.txt")" = "cxt:  cat cot" ] || fail "ranked with the shipped list: $(cat "$work/ranked1.txt")"
printf 'cot 1000000000\ncat 10\n' >"$root/usr/share/spellcheck/freq/en-80k.txt"
"$bin" --quiet --words --suggest ranked --top 2 "$work/dict.txt" "$work/words.txt" >"$work/ranked2.txt" ||
  fail "ranked, edited list: exit $?"
[ "$(cat "$work/ranked2.txt")" = "cxt:  cot cat" ] ||
  fail "the unpacked binary did not use its own frequency list: $(cat "$work/ranked2.txt")"

echo "package: installs into a scratch root; the unpacked binary's output is the expected one on 1 and 2 ranks"
echo "1 passed, 0 failed"
