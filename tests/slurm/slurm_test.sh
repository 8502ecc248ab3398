#!/usr/bin/env bash
# slurm_test.sh -- the Slurm tests (ctest label "slurm"), on a real Slurm
# started on this machine by the project's scripts/slurm-local.
#
#   slurm_test.sh up      SLURM_LOCAL NODES
#   slurm_test.sh down    SLURM_LOCAL
#   slurm_test.sh sbatch  SLURM_LOCAL WORK SPELLCHECK REFERENCE DICT WORDS [DOC_DICT DOCS]
#   slurm_test.sh sweep   SLURM_LOCAL WORK SPELLCHECK REFERENCE COMMCOST DATA
#   slurm_test.sh refuse  WORK
#
# up/down bring the cluster up (emulating NODES nodes) and down (fixtures).
# sbatch submits slurm/spellcheck.sbatch with `sbatch --wait` in four shapes
#   (2 nodes x 2 ranks via the auto launcher, 1 node x 2 ranks via mpirun,
#   parameters from the environment with 2 threads, and document mode on
#   DOCS with 2 nodes x 1 rank x 2 threads) and compares each output byte for
#   byte with the serial reference; a wrong --reference must fail the job.
# sweep runs a miniature slurm/scaling sweep (1-2 nodes, 2 repetitions,
#   strong + weak) through the collector and checks the CSV rows and PNGs.
# refuse copies that sweep, corrupts one run's output, and checks that the
#   collector refuses it (exit 3, listed in refused.csv, absent from runs.csv).
#
# The tests' cluster is private: its own state directory and ports
# (SPELLCHECK_TEST_SLURM_DIR and SPELLCHECK_TEST_SLURM_PORT; by default one
# pair per build tree, from suite_slurm.cmake), so a developer's own cluster
# (a sweep in progress) or another checkout's tests are neither restarted
# nor stopped by the tests. 'down' removes the state directory.
#
# Exit status 77 (skip) only when Slurm cannot be set up here: not root, or
# slurm-wlm/munge missing and not installable (slurm-local up exits 77).
set -u
export LC_ALL=C
export SLURM_LOCAL_DIR=${SPELLCHECK_TEST_SLURM_DIR:-${SPELLCHECK_TEST_SLURM_DEFAULT_DIR:-/var/lib/spellcheck-slurm-ctest}}
export SLURM_LOCAL_PORT=${SPELLCHECK_TEST_SLURM_PORT:-${SPELLCHECK_TEST_SLURM_DEFAULT_PORT:-6937}}
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

skip() { echo "slurm_test: SKIP: $*"; exit 77; }
fail() { echo "slurm_test: FAIL: $*"; exit 1; }
ok() { echo "slurm_test: ok: $*"; }

need_slurm_local() {
  [ -f "$1" ] || fail "$1 not found"
  [ "$(id -u)" = 0 ] || skip "the local Slurm's daemons run as root, and this is user $(id -un)"
}

use_cluster() {  # point sbatch & co. at the slurm-local cluster
  need_slurm_local "$1"
  command -v slurmctld >/dev/null || command -v /usr/sbin/slurmctld >/dev/null ||
    skip "Slurm is not installed and could not be (see the slurm.up test)"
  eval "$(bash "$1" env)"
  export SLURM_CONF
  bash "$1" status >/dev/null 2>&1 || fail "the slurm-local cluster is not up (run the slurm.up test first)"
}

need_file() { for f in "$@"; do [ -e "$f" ] || skip "missing $f"; done; }

# sbatch --wait, bounded: a job that never starts must not hang the suite.
sbatch_wait() {
  timeout 300 sbatch --wait "$@"
}

cmd=${1:-}
shift || true
case $cmd in
  up)
    need_slurm_local "$1"
    nodes=${2:-2}
    bash "$1" up --nodes "$nodes" --timeout 120
    rc=$?
    [ "$rc" = 77 ] && skip "slurm-local cannot set up Slurm here (its message above)"
    [ "$rc" = 0 ] || fail "slurm-local up --nodes $nodes"
    eval "$(bash "$1" env)"
    export SLURM_CONF
    sinfo || fail "sinfo"
    ok "cluster up with $nodes node(s)"
    ;;

  down)
    [ -f "$1" ] || fail "$1 not found"
    bash "$1" down
    rc=$?
    [ "$rc" = 77 ] && skip "no local Slurm here"
    [ "$rc" = 0 ] || fail "slurm-local down"
    rm -rf "$SLURM_LOCAL_DIR"
    ;;

  sbatch)
    use_cluster "$1"
    work=$2 bin=$3 ref=$4 dict=$5 words=$6
    need_file "$bin" "$ref" "$dict" "$words"
    rm -rf "$work"
    mkdir -p "$work" || fail "mkdir $work"
    want=$work/want.txt
    "$ref" --words "$dict" "$words" -o "$want" || fail "reference_spellcheck"
    echo "slurm_test: reference: $(wc -l <"$want") lines"
    sb=$REPO/slurm/spellcheck.sbatch

    check_run() {  # NAME RANKS THREADS
      local d=$work/runs/$1
      [ -f "$d/output.txt" ] || fail "$1: no output.txt (job log: $(cat "$d/job.log" 2>/dev/null | tail -n 20))"
      cmp "$want" "$d/output.txt" || fail "$1: output differs from the serial reference"
      [ -s "$d/stats.json" ] || fail "$1: no stats.json"
      [ -s "$d/job.log" ] || fail "$1: no job.log"
      [ -s "$d/meta.json" ] || fail "$1: no meta.json"
      grep -Eq "\"ranks\": *$2[,}]" "$d/stats.json" || fail "$1: stats.json does not say $2 ranks"
      grep -Eq "\"threads\": *$3[,}]" "$d/stats.json" || fail "$1: stats.json does not say $3 threads"
      grep -q '"reference_match": true' "$d/meta.json" || fail "$1: meta.json has no reference match"
      grep -q 'OMP_PROC_BIND' "$d/job.log" || fail "$1: job.log lacks the OpenMP settings"
      ok "$1: output byte-identical to the serial reference ($2 ranks x $3 threads, launcher $(sed -n 's/.*"launcher": "\([a-z]*\)".*/\1/p' "$d/meta.json"))"
    }

    # 1. two nodes x two ranks, launcher chosen by the script (srun --mpi=pmix here)
    sbatch_wait -N 2 --ntasks-per-node=2 -c 1 -o "$work/slurm-%j.out" "$sb" \
      --bin "$bin" --dict "$dict" --mode words --outdir "$work/runs" --name n2-r2-auto \
      --reference "$want" -- "$words" || { cat "$work"/slurm-*.out; fail "job n2-r2-auto failed"; }
    check_run n2-r2-auto 4 1

    # 2. one node x two ranks through mpirun inside the allocation
    sbatch_wait -N 1 --ntasks-per-node=2 -c 1 -o "$work/slurm-%j.out" "$sb" \
      --bin "$bin" --dict "$dict" --outdir "$work/runs" --name n1-r2-mpirun --launcher mpirun \
      --reference "$want" "$words" || { cat "$work"/slurm-*.out; fail "job n1-r2-mpirun failed"; }
    check_run n1-r2-mpirun 2 1
    grep -q '"launcher": "mpirun"' "$work/runs/n1-r2-mpirun/meta.json" || fail "n1-r2-mpirun did not use mpirun"

    # 3. everything from the environment (no arguments), 1 rank x 2 threads
    SC_BIN=$bin SC_DICT=$dict SC_INPUTS=$words SC_MODE=words SC_THREADS=2 SC_OUTDIR=$work/runs \
      SC_NAME=env-r1-t2 SC_REFERENCE=$want \
      sbatch_wait -N 1 -n 1 -c 2 -o "$work/slurm-%j.out" "$sb" ||
      { cat "$work"/slurm-*.out; fail "job env-r1-t2 failed"; }
    check_run env-r1-t2 1 2
    grep -q '"OMP_NUM_THREADS": "2"' "$work/runs/env-r1-t2/meta.json" || fail "env-r1-t2: OMP_NUM_THREADS is not 2"

    # 4. document mode, 2 nodes x 1 rank x 2 threads
    if [ $# -ge 8 ] && [ -e "$7" ] && [ -e "$8" ]; then
      "$ref" "$7" "$8" -o "$work/want-docs.txt" || fail "reference_spellcheck (documents)"
      sbatch_wait -N 2 --ntasks-per-node=1 -c 2 -o "$work/slurm-%j.out" "$sb" --bin "$bin" \
        --dict "$7" --mode documents --outdir "$work/runs" --name docs-n2-r1-t2 \
        --reference "$work/want-docs.txt" -- "$8" || { cat "$work"/slurm-*.out; fail "job docs-n2-r1-t2 failed"; }
      want=$work/want-docs.txt
      check_run docs-n2-r1-t2 2 2
    else
      echo "slurm_test: note: no document-mode input given or found, document mode not tested"
    fi

    # 5. a wrong reference makes the job fail with status 3
    printf 'not the output\n' >"$work/wrong.txt"
    sbatch_wait -N 1 -n 1 -o "$work/slurm-%j.out" "$sb" --bin "$bin" --dict "$dict" \
      --outdir "$work/runs" --name wrong-ref --reference "$work/wrong.txt" -- "$words"
    rc=$?
    [ "$rc" = 3 ] || fail "a job whose output differs from --reference exited $rc, not 3"
    ok "a differing output fails the job (exit 3)"
    ;;

  sweep)
    use_cluster "$1"
    work=$2 bin=$3 ref=$4 commcost=$5 data=$6
    need_file "$bin" "$ref" "$data/words/DATASETS.txt" "$data/words/d10k-w10k.txt"
    rm -rf "$work"
    mkdir -p "$work"
    cc=(--commcost-bin none)
    [ -x "$commcost" ] && cc=(--commcost-bin "$commcost" --commcost-args "--quick")
    # 2 node counts x 1 geometry x 2 reps, strong and weak = 8 runs.
    "$REPO/slurm/scaling" --bin "$bin" --reference-bin "$ref" "${cc[@]}" --data "$data" \
      --nodes "1 2" --per-node "1x1" --reps 2 --strong d10k-w10k --weak d10k-w10k:4000 \
      --out "$work/raw" --results "$work/results" --time 00:05:00 --wait
    rc=$?
    [ "$rc" = 0 ] || fail "slurm/scaling --wait exited $rc"
    res=$work/results
    for f in runs.csv points.csv refused.csv MODEL.txt; do [ -s "$res/$f" ] || fail "no $f"; done
    rows=$(($(wc -l <"$res/runs.csv") - 1))
    [ "$rows" = 8 ] || fail "runs.csv has $rows rows, want 8"
    head -n1 "$res/runs.csv" | tr ',' '\n' >"$work/cols"
    for c in nodes ranks_per_node threads ranks dataset kind rep t_total_max t_candidates_max \
             misspelled bytes_sent messages_sent bytes_per_rank_avg oversubscribed; do
      grep -qx "$c" "$work/cols" || fail "runs.csv has no column $c"
    done
    for k in strong weak; do
      n=$(awk -F, -v k=$k 'NR > 1 && $4 == k' "$res/runs.csv" | wc -l)
      [ "$n" = 4 ] || fail "runs.csv has $n $k rows, want 4"
    done
    [ "$(wc -l <"$res/refused.csv")" = 1 ] || fail "runs were refused: $(cat "$res/refused.csv")"
    for p in speedup efficiency phases comm weak model model_extrapolation; do
      f=$res/$p.png
      [ -s "$f" ] || fail "no $p.png"
      [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$p.png is not a PNG"
    done
    [ -x "$commcost" ] && { ls "$work"/raw/commcost/*.json >/dev/null 2>&1 || fail "no commcost calibration"; }
    # The runs read the dictionary compiled once by a compile job.
    scd=$(ls "$work"/raw/dict/*.scd 2>/dev/null | head -n1)
    [ -n "$scd" ] || fail "no compiled dictionary (the compile job)"
    grep -q -- "--dict $scd" "$work"/raw/jobs/plan-*.txt || fail "the runs do not read $scd"
    ok "sweep: 8 runs on a compiled dictionary verified and recorded, 7 plots"
    ;;

  refuse)
    work=$1
    raw=$work/raw
    [ -d "$raw/runs" ] || skip "no sweep in $raw (the slurm.sweep test did not run)"
    copy=$work/corrupt
    rm -rf "$copy"
    mkdir -p "$copy"
    cp -a "$raw/runs" "$raw/ref" "$copy/" || fail "copy"
    [ -d "$raw/commcost" ] && cp -a "$raw/commcost" "$copy/"
    victim=$(ls "$copy/runs" | grep '^strong-' | head -n1)
    [ -n "$victim" ] || fail "no strong run to corrupt"
    out=$copy/runs/$victim/output.txt
    # Same size, one byte changed: only a checksum notices.
    printf 'X' | dd of="$out" bs=1 seek=0 conv=notrunc status=none
    cmp -s "$out" "$raw/runs/$victim/output.txt" && fail "corruption did not change the file"
    py=/usr/bin/python3
    "$py" -c 'import matplotlib' 2>/dev/null || py=python3
    "$py" "$REPO/slurm/collect.py" --raw "$copy" --out "$copy/results" --no-plots >"$copy/collect.log" 2>&1
    rc=$?
    cat "$copy/collect.log"
    [ "$rc" = 3 ] || fail "collector exited $rc on a corrupted output, want 3"
    grep -q "REFUSED $victim: output checksum" "$copy/collect.log" || fail "no REFUSED line for $victim"
    grep -q "^$victim," "$copy/results/refused.csv" || fail "$victim not in refused.csv"
    grep -q ",$victim," "$copy/results/runs.csv" && fail "$victim was recorded in runs.csv"
    rows=$(($(wc -l <"$copy/results/runs.csv") - 1))
    [ "$rows" = 7 ] || fail "runs.csv has $rows rows, want the 7 good ones"
    ok "the corrupted run $victim was refused, the 7 others recorded"
    ;;

  *)
    echo "usage: slurm_test.sh up|down|sbatch|sweep|refuse ..." >&2
    exit 2
    ;;
esac
exit 0
