#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build (Release),
# and spell-check a real sample on 2 MPI ranks: Debian's license texts
# against Debian's american-english-insane dictionary.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/install-deps.sh"
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$here/build" -j"$(nproc)" --target spellcheck
. "$here/scripts/local-mpi-env.sh"
dict=/usr/share/dict/american-english-insane
docs=/usr/share/common-licenses
out="$here/build/sample-output.txt"
echo "== spellcheck: documents in $docs, dictionary $dict, 2 ranks"
mpirun -q -n 2 --bind-to none "$here/build/spellcheck" --threads 1 --stats "$here/build/sample-stats.json" \
  -o "$out" "$dict" "$docs"
echo "== $(wc -l <"$out") misspelled distinct words; the first lines of $out:"
head -n 5 "$out"
echo "== statistics in $here/build/sample-stats.json"
