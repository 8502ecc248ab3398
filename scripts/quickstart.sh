#!/usr/bin/env bash
# One command from a fresh clone: install what is missing, build (Release),
# and spell-check a real sample on 2 MPI ranks: Debian's license texts
# against Debian's american-english-insane dictionary, ranked suggestions
# first; then the same as a Slurm job when a Slurm cluster answers.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/scripts/install-deps.sh"
cmake -S "$here" -B "$here/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$here/build" -j"$(nproc)" --target spellcheck
. "$here/scripts/local-mpi-env.sh"
dict=/usr/share/dict/american-english-insane
docs=/usr/share/common-licenses
out="$here/build/sample-output.txt"
echo "== ranked suggestions (best first; the words used most first) for $docs, dictionary $dict, 2 ranks"
mpirun -q -n 2 --bind-to none "$here/build/spellcheck" -q --threads 1 --suggest ranked --sort count --top 3 "$dict" "$docs" |
  head -n 8
echo "== the same in the default SPEC format (every edit-distance-1 candidate)"
mpirun -q -n 2 --bind-to none "$here/build/spellcheck" --threads 1 --stats "$here/build/sample-stats.json" \
  -o "$out" "$dict" "$docs"
echo "== $(wc -l <"$out") misspelled distinct words; the first lines of $out:"
head -n 5 "$out"
echo "== statistics in $here/build/sample-stats.json"
# The same run as a Slurm job, when a cluster answers.
if command -v sbatch >/dev/null && timeout 10 sinfo -h >/dev/null 2>&1; then
  echo "== the same through Slurm: sbatch slurm/spellcheck.sbatch (runs in $here/build/spellcheck-runs/quickstart)"
  if timeout 600 sbatch --wait --quiet -N 1 --ntasks-per-node=2 --output=/dev/null "$here/slurm/spellcheck.sbatch" \
       --bin "$here/build/spellcheck" --mode documents --dict "$dict" --outdir "$here/build/spellcheck-runs" \
       --name quickstart --arg --suggest --arg ranked --arg --sort --arg count --arg --top --arg 3 "$docs"; then
    head -n 8 "$here/build/spellcheck-runs/quickstart/output.txt"
    echo "== job log: $here/build/spellcheck-runs/quickstart/job.log"
  else
    echo "== the Slurm job did not finish in 10 minutes or failed; see $here/build/spellcheck-runs/quickstart/job.log"
  fi
fi
