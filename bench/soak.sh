#!/usr/bin/env bash
# soak.sh N [BUILD_DIR] -- N randomized runs of spellcheck, each compared
# byte for byte with the serial reference (issue 9's soak).
#
# Each run draws: ranks 1-8 (oversubscribed), --threads 1-4, OMP_THREAD_LIMIT
# (none, 1, 2) and OMP_DYNAMIC (on/off), --batch-bytes (1 B - 64 KiB),
# SPELLCHECK_MAX_MESSAGE_BYTES (none or a few bytes: exchanges in rounds),
# words or documents mode, shared memory or TCP (OMPI_MCA_btl=self,tcp),
# prefilters on or off. Inputs: the generated test data (tests/data/
# make_test_data.py; made in BUILD_DIR/test-data if missing): small-10k with
# d10k-w10k, and with docs/small's quotes collection.
# Prints one line per failure (the settings, to rerun it) and a summary;
# exit status 1 if any run crashed, hung (SOAK_TIMEOUT seconds, default
# 120: raise it on a loaded machine, where a niced 8-rank TCP run with tiny
# message rounds can take minutes), or printed other bytes.
#   SOAK_SEED=S   the random seed (default 1): the same seed, the same runs
# Run it niced: nice -n 19 bench/soak.sh 1000
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-100}
build=${2:-$here/build}
bin=$build/spellcheck
ref=$build/tests/reference_spellcheck
for f in "$bin" "$ref"; do
  [ -x "$f" ] || { echo "soak: $f missing (build first)" >&2; exit 2; }
done
data=$build/test-data
bash "$here/tests/make_data.sh" "$data" >/dev/null || exit 2
dict=$data/dict/small-10k.txt
words=$data/words/d10k-w10k.txt
docs=$data/docs/small/vol01/quotes
# shellcheck source=../scripts/local-mpi-env.sh
source "$here/scripts/local-mpi-env.sh"
export OMPI_MCA_hwloc_base_binding_policy=none

work=$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
"$ref" --words "$dict" "$words" >"$work/want.words" || exit 2
"$ref" "$dict" "$docs" >"$work/want.docs" || exit 2

RANDOM=${SOAK_SEED:-1}
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
ok=0 bad=0 crashed=0 hung=0
start=$(date +%s)
for ((i = 1; i <= n; i++)); do
  ranks=$((RANDOM % 8 + 1))
  threads=$((RANDOM % 4 + 1))
  limit=$(pick "" "" 1 2)
  dynamic=$(pick false true)
  batch=$(pick 1 7 64 1000 65536)
  maxmsg=$(pick "" "" "" 3 100)
  mode=$(pick words docs)
  btl=$(pick "" "self,tcp")
  filters=$(pick "" "" "--no-trigram-filter --no-affix-filter")
  envs=(OMP_DYNAMIC=$dynamic)
  [ -n "$limit" ] && envs+=(OMP_THREAD_LIMIT=$limit)
  [ -n "$maxmsg" ] && envs+=(SPELLCHECK_MAX_MESSAGE_BYTES=$maxmsg)
  [ -n "$btl" ] && envs+=(OMPI_MCA_btl=$btl)
  args=(--threads "$threads" --batch-bytes "$batch" $filters)
  if [ "$mode" = words ]; then args+=(--words "$dict" "$words"); else args+=("$dict" "$docs"); fi
  env "${envs[@]}" timeout -k 5 "${SOAK_TIMEOUT:-120}" mpirun -q -n "$ranks" "$bin" -q "${args[@]}" >"$work/got" 2>"$work/err" </dev/null
  rc=$?
  what="run $i: ${envs[*]} mpirun -n $ranks spellcheck ${args[*]}"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    hung=$((hung + 1)); echo "HUNG    $what"
  elif [ "$rc" != 0 ]; then
    crashed=$((crashed + 1)); echo "FAILED  $what: exit $rc: $(head -c 300 "$work/err")"
  elif ! cmp -s "$work/got" "$work/want.$mode"; then
    bad=$((bad + 1)); echo "WRONG   $what"
  else
    ok=$((ok + 1))
  fi
  if ((i % 50 == 0)); then echo "soak: $i runs, $ok right, $bad wrong, $crashed failed, $hung hung ($(($(date +%s) - start)) s)"; fi
done
echo "soak: $n runs (seed ${SOAK_SEED:-1}): $ok right, $bad wrong output, $crashed crashed or failed, $hung hung; $(($(date +%s) - start)) s"
[ $((bad + crashed + hung)) = 0 ]
