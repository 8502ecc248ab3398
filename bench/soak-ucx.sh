#!/usr/bin/env bash
# Soak the candidate phase's thread model under UCX: RUNS randomized runs of
# a spellcheck binary on 2 ranks, UCX forced, core dumps on, each output
# byte-compared with a reference made once with default settings.
#
#   bench/soak-ucx.sh [-n RUNS] [-l mpirun|slurm] [-s SEED] [-k] BINARY DATA_DIR OUT_DIR
#
# DATA_DIR is make-datasets output (`make-datasets DIR --size small`): the
# runs alternate document mode (dict/small-10k.txt, docs/small) and
# word-list mode (dict/american-insane.txt, words/large-w650k.txt).
# Randomized per run: threads 1-2 (--threads), --batch-bytes 1..65536
# (log-uniform), and for a third of the word-list runs OMP_DYNAMIC=true or
# OMP_THREAD_LIMIT=1 (the team OpenMP gives may be smaller than asked; not
# in document mode, whose ingest still assumes the team it asked for).
# Launchers: `mpirun -np 2` on this machine (default) or `srun --mpi=pmix
# -N 2 -n 2` under a running Slurm (e.g. 2 emulated nodes of slurm-local).
# Prints one line per failed run and a summary: runs, ok, crashes (killed by
# a signal or a core file left), failures (other non-zero status), timeouts,
# mismatches. UCX writes its own log lines to stdout (e.g. "UCX ERROR ...
# Endpoint timeout" at MPI_Finalize across emulated nodes): they are taken
# out before the comparison and the runs that had any are counted apart
# (ucx_log). Exit status 1 if any run was not ok. -k keeps OUT_DIR's per-run
# files of good runs too.
set -u
runs=200 launcher=mpirun seed=$$ keep=0
while getopts "n:l:s:k" o; do
  case $o in
    n) runs=$OPTARG ;;
    l) launcher=$OPTARG ;;
    s) seed=$OPTARG ;;
    k) keep=1 ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || { sed -n '2,/^set -u/p' "$0" | sed '$d;s/^# \{0,1\}//' >&2; exit 2; }
bin=$(readlink -f "$1") data=$(readlink -f "$2") out=$3
mkdir -p "$out" && out=$(readlink -f "$out")
for f in "$bin" "$data/dict/small-10k.txt" "$data/docs/small" "$data/dict/american-insane.txt" \
         "$data/words/large-w650k.txt"; do
  [ -e "$f" ] || { echo "soak-ucx: missing $f" >&2; exit 2; }
done

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any
ulimit -c unlimited
RANDOM=$seed

launch() {  # launch CMD...: 2 ranks
  if [ "$launcher" = slurm ]; then
    srun --mpi=pmix -N 2 -n 2 --overcommit --kill-on-bad-exit=1 "$@"
  else
    mpirun -q -np 2 --bind-to none "$@"
  fi
}
mode_args() {  # mode_args 0|1: the dataset of document (0) or word-list (1) mode
  if [ "$1" = 0 ]; then echo "$data/dict/small-10k.txt $data/docs/small"
  else echo "--words $data/dict/american-insane.txt $data/words/large-w650k.txt"; fi
}

ucx_line='^\[[0-9.]+\] \[[^]]*\] +[^ ]+ +UCX +[A-Z]+ '  # a line of UCX's own log

# References: 2 ranks, 1 thread, default batch size, the same launcher.
for m in 0 1; do
  # shellcheck disable=SC2046
  (cd "$out" && OMP_NUM_THREADS=1 timeout 300 bash -c "$(declare -f launch); launcher=$launcher; \
      launch \"$bin\" --threads 1 $(mode_args $m)" >"$out/ref$m.txt" 2>"$out/ref$m.err") ||
    { echo "soak-ucx: reference run $m failed, see $out/ref$m.err" >&2; exit 2; }
  grep -vE "$ucx_line" "$out/ref$m.txt" >"$out/ref$m.clean" && mv "$out/ref$m.clean" "$out/ref$m.txt"
done

ok=0 crashes=0 failures=0 timeouts=0 mismatches=0 ucx_log=0
for ((i = 1; i <= runs; ++i)); do
  m=$((i % 2)) threads=$((1 + RANDOM % 2))
  batch=$(awk -v r=$RANDOM 'BEGIN { v = int(exp(log(65536) * r / 32767)); print (v < 1 ? 1 : v) }')
  env=() envtag=plain
  case $((m == 1 ? RANDOM % 6 : 5)) in
    0) env=(OMP_DYNAMIC=true) envtag=dynamic ;;
    1) env=(OMP_THREAD_LIMIT=1) envtag=limit1 ;;
  esac
  dir=$out/run$i
  mkdir -p "$dir"
  desc="run $i: mode=$([ $m = 0 ] && echo docs || echo words) threads=$threads batch=$batch env=$envtag"
  # shellcheck disable=SC2046
  (cd "$dir" && env "${env[@]}" timeout 120 bash -c "$(declare -f launch); launcher=$launcher; \
      launch \"$bin\" --threads $threads --batch-bytes $batch $(mode_args $m)" >"$dir/out.txt" 2>"$dir/err.txt")
  rc=$?
  cores=$(find "$dir" -maxdepth 1 -name 'core*' | wc -l)
  if grep -qE "$ucx_line" "$dir/out.txt"; then
    ((++ucx_log))
    grep -vE "$ucx_line" "$dir/out.txt" >"$dir/out.clean" && mv "$dir/out.clean" "$dir/out.txt"
  fi
  if [ $rc = 124 ]; then
    ((++timeouts)); echo "TIMEOUT $desc"
  elif [ $rc -ge 128 ] || [ "$cores" -gt 0 ] || grep -qiE 'signal|segmentation|core dumped' "$dir/err.txt"; then
    ((++crashes)); echo "CRASH (rc=$rc cores=$cores) $desc"
  elif [ $rc != 0 ]; then
    ((++failures)); echo "FAIL (rc=$rc) $desc"
  elif ! cmp -s "$dir/out.txt" "$out/ref$m.txt"; then
    ((++mismatches)); echo "MISMATCH $desc"
  else
    ((++ok))
    [ $keep = 1 ] || rm -rf "$dir"
  fi
done
echo "soak-ucx: launcher=$launcher runs=$runs ok=$ok crashes=$crashes failures=$failures timeouts=$timeouts" \
     "mismatches=$mismatches ucx_log=$ucx_log seed=$seed binary=$bin"
[ $ok = "$runs" ]
