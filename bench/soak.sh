#!/usr/bin/env bash
# soak.sh [--launcher mpirun|srun] N [BUILD_DIR] -- N randomized runs of
# spellcheck, each compared byte for byte with the serial reference (issue
# 9's soak).
#
# Each run draws: ranks 1-8 (oversubscribed), --threads 1-4, OMP_THREAD_LIMIT
# (none, 1, 2) and OMP_DYNAMIC (on/off), --batch-bytes (1 B - 64 KiB),
# SPELLCHECK_MAX_MESSAGE_BYTES (none or a few bytes: exchanges in rounds),
# words or documents mode, shared memory or TCP (OMPI_MCA_btl=self,tcp),
# prefilters on or off, the direct or the two-level all-to-all (emulated
# nodes of 2 or 3 ranks), --comm-thread shared or dedicated. Inputs: the generated test data (tests/data/
# make_test_data.py; made in BUILD_DIR/test-data if missing): small-10k with
# d10k-w10k, and with docs/small's quotes collection.
# --launcher srun: each run is `srun --mpi=pmix -N 2` (2-4 ranks over two
# nodes, message rounds of 1000 B when forced) in the current Slurm
# allocation, or in a job of its own outside one; e.g. 2 emulated nodes of
# scripts/slurm-local, UCX forced:
#   eval "$(scripts/slurm-local env)"
#   OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any \
#     sbatch -N 2 --wait -o soak.log --wrap "nice -n 19 bench/soak.sh --launcher srun 200"
# Core dumps are on: a run that leaves a core file counts as crashed.
# UCX writes its own log lines to stdout (across emulated nodes: "UCX
# ERROR ... error during flush: Endpoint timeout" at MPI_Finalize): they are
# taken out before the comparison, and the runs that had any are counted.
# Prints one line per failure (the settings, to rerun it) and a summary;
# exit status 1 if any run crashed, hung (SOAK_TIMEOUT seconds, default
# 120: raise it on a loaded machine, where a niced 8-rank TCP run with tiny
# message rounds can take minutes), or printed other bytes. 15 s before a
# run's limit, every rank's stacks go to $TMPDIR/soak-runN.stacks (gdb).
#   SOAK_SEED=S   the random seed (default 1): the same seed, the same runs
# Run it niced: nice -n 19 bench/soak.sh 1000
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
launcher=mpirun
if [ "${1:-}" = --launcher ]; then
  launcher=${2:-}
  shift 2
fi
case $launcher in
  mpirun) ;;
  srun) command -v srun >/dev/null || { echo "soak: no srun here" >&2; exit 2; } ;;
  *) echo "soak: --launcher mpirun or srun, not '$launcher'" >&2; exit 2 ;;
esac
n=${1:-100}
build=$(cd "${2:-$here/build}" && pwd) || exit 2
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

ulimit -c unlimited 2>/dev/null || echo "soak: note: core dumps stay off (ulimit -c: $(ulimit -c))"
work=$(mktemp -d "${TMPDIR:-/tmp}/soak.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2  # core files land here
"$ref" --words "$dict" "$words" >"$work/want.words" || exit 2
"$ref" "$dict" "$docs" >"$work/want.docs" || exit 2

RANDOM=${SOAK_SEED:-1}
pick() { local a=("$@"); echo "${a[RANDOM % ${#a[@]}]}"; }
ucx_line='^\[[0-9.]+\] \[[^]]*\] +[^ ]+ +UCX +[A-Z]+ '  # a line of UCX's own log
ok=0 bad=0 crashed=0 hung=0 ucx_log=0
limit_s=${SOAK_TIMEOUT:-120}
((limit_s >= 30)) || { echo "soak: SOAK_TIMEOUT is at least 30 s" >&2; exit 2; }
start=$(date +%s)
for ((i = 1; i <= n; i++)); do
  ranks=$((RANDOM % 8 + 1))
  threads=$((RANDOM % 4 + 1))
  limit=$(pick "" "" 1 2)
  dynamic=$(pick false true)
  batch=$(pick 1 7 64 1000 65536)
  maxmsg=$(pick "" "" "" 3 100)
  if [ "$launcher" = srun ]; then
    # Across nodes every exchange round costs ~1 ms (UCX over TCP, 2 shared
    # cores): 3-byte rounds take minutes. Rounds of 1000 B, and 2-4 ranks.
    ranks=$((ranks % 3 + 2))
    [ -n "$maxmsg" ] && maxmsg=1000
  fi
  mode=$(pick words docs)
  btl=$(pick "" "self,tcp")
  filters=$(pick "" "" "--no-trigram-filter --no-affix-filter")
  exchange=$(pick direct direct two-level)  # two-level: on emulated nodes of 2 or 3 ranks
  per_node=$(pick 2 3)
  comm_thread=$(pick shared dedicated)
  envs=(OMP_DYNAMIC=$dynamic)
  [ "$exchange" = two-level ] && envs+=(SPELLCHECK_EXCHANGE=two-level SPELLCHECK_RANKS_PER_NODE=$per_node)
  [ -n "$limit" ] && envs+=(OMP_THREAD_LIMIT=$limit)
  [ -n "$maxmsg" ] && envs+=(SPELLCHECK_MAX_MESSAGE_BYTES=$maxmsg)
  [ -n "$btl" ] && envs+=(OMPI_MCA_btl=$btl)
  args=(--threads "$threads" --batch-bytes "$batch" --comm-thread "$comm_thread" $filters)
  if [ "$mode" = words ]; then args+=(--words "$dict" "$words"); else args+=("$dict" "$docs"); fi
  if [ "$launcher" = srun ]; then
    launch=(srun --mpi=pmix -N 2 -n "$ranks" --overcommit --kill-on-bad-exit=1)
  else
    launch=(mpirun -q -n "$ranks")
  fi
  # A run near its time limit gets every rank's stacks dumped first (gdb),
  # so a hang leaves evidence of where it waits, not only its settings.
  watcher=
  if command -v gdb >/dev/null; then
    (
      # `wait` returns at once on a trapped signal: killed, it stops its
      # sleep and leaves quietly, with no dump.
      trap 'kill "$nap" 2>/dev/null; exit 0' TERM
      sleep $((limit_s - 15)) &
      nap=$!
      wait "$nap"
      for pid in $(pgrep -f "^$bin "); do
        echo "== pid $pid"
        gdb -q -batch -ex 'thread apply all bt 30' -p "$pid" 2>/dev/null | grep -E '^#|^Thread'
      done >"${TMPDIR:-/tmp}/soak-run$i.stacks"
    ) &
    watcher=$!
  fi
  env "${envs[@]}" timeout -k 5 "$limit_s" "${launch[@]}" "$bin" -q "${args[@]}" >"$work/got" 2>"$work/err" </dev/null
  rc=$?
  if [ -n "$watcher" ]; then
    kill "$watcher" 2>/dev/null
    wait "$watcher" 2>/dev/null
  fi
  # A launcher killed by `timeout -k` can leave its ranks behind: none may
  # live on into the next run.
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then pkill -KILL -f "^$bin " 2>/dev/null; fi
  cores=$(find "$work" -maxdepth 1 -name 'core*' | wc -l)
  [ "$cores" = 0 ] || for c in "$work"/core*; do mv "$c" "${TMPDIR:-/tmp}/soak-run$i-${c##*/}"; done
  if grep -qE "$ucx_line" "$work/got"; then
    ucx_log=$((ucx_log + 1))
    grep -vE "$ucx_line" "$work/got" >"$work/got.clean"
    mv "$work/got.clean" "$work/got"
  fi
  what="run $i: ${envs[*]} ${launch[*]} spellcheck ${args[*]}"
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    hung=$((hung + 1)); echo "HUNG    $what (stacks: ${TMPDIR:-/tmp}/soak-run$i.stacks)"
  elif [ "$cores" != 0 ]; then
    crashed=$((crashed + 1)); echo "CORE    $what: exit $rc, core file(s) in ${TMPDIR:-/tmp}/soak-run$i-*: $(head -c 300 "$work/err")"
  elif [ "$rc" != 0 ]; then
    crashed=$((crashed + 1)); echo "FAILED  $what: exit $rc: $(head -c 300 "$work/err")"
  elif ! cmp -s "$work/got" "$work/want.$mode"; then
    bad=$((bad + 1)); echo "WRONG   $what (output: ${TMPDIR:-/tmp}/soak-run$i.out)"
    cp "$work/got" "${TMPDIR:-/tmp}/soak-run$i.out"
  else
    ok=$((ok + 1))
  fi
  if ((i % 50 == 0)); then echo "soak: $i runs, $ok right, $bad wrong, $crashed failed, $hung hung ($(($(date +%s) - start)) s)"; fi
done
echo "soak: $n runs (seed ${SOAK_SEED:-1}, $launcher): $ok right, $bad wrong output, $crashed crashed or failed, $hung hung, $ucx_log with UCX log lines on stdout; $(($(date +%s) - start)) s"
[ $((bad + crashed + hung)) = 0 ]
