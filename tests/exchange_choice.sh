#!/usr/bin/env bash
# exchange_choice.sh -- the default --exchange auto picks the all-to-all the
# way use_two_level() says, and the output stays the reference's. Run on 16
# ranks in emulated nodes of 4 (SPELLCHECK_RANKS_PER_NODE=4), from the
# phase traffic in --stats (messages every rank sent):
#   - word routing of a small word list: two levels (fewer messages than
#     --exchange direct: 2 x (3 + 3) a rank instead of 2 x 15);
#   - the dictionary shuffle of a big dictionary (more than the 9 start-ups
#     saved are worth: 9 x 1.5 us / 0.1 ns = 135 kB a rank): direct (as many
#     messages as --exchange direct, plus the all-reduces that decided).
#
#   exchange_choice.sh REFERENCE BIG_DICT SMALL_DICT WORDS -- MPIRUN... SPELLCHECK
set -u
[ $# -ge 7 ] && [ "$5" = "--" ] || { echo "usage: exchange_choice.sh REF BIG_DICT SMALL_DICT WORDS -- CMD..." >&2; exit 2; }
ref=$1 big=$2 small=$3 words=$4
shift 5
for f in "$big" "$small" "$words"; do [ -f "$f" ] || { echo "exchange_choice: $f missing" >&2; exit 2; }; done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/exchange_choice.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export SPELLCHECK_RANKS_PER_NODE=4
status=0
messages() {  # messages every rank sent in a phase: stats.json phase
  /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["phase_traffic"][sys.argv[2]]["messages_sent"])' "$1" "$2"
}
for dict in "$big" "$small"; do
  "$ref" --words "$dict" "$words" >"$tmp/want" || exit 1
  for ex in direct auto; do
    "$@" -q --threads 1 --exchange "$ex" --stats "$tmp/$ex.json" -o "$tmp/$ex.out" --words "$dict" "$words" ||
      { echo "FAIL: spellcheck --exchange $ex failed"; exit 1; }
    cmp -s "$tmp/want" "$tmp/$ex.out" || { echo "FAIL: --exchange $ex on $dict: output differs from the reference"; status=1; }
  done
  route_direct=$(messages "$tmp/direct.json" route) route_auto=$(messages "$tmp/auto.json" route)
  shuffle_direct=$(messages "$tmp/direct.json" shuffle) shuffle_auto=$(messages "$tmp/auto.json" shuffle)
  echo "$(basename "$dict"): route $route_direct direct, $route_auto auto; shuffle $shuffle_direct direct, $shuffle_auto auto"
  # Routing a small word list: two levels, on either dictionary.
  ((route_auto < route_direct)) || { echo "FAIL: auto routed the words directly"; status=1; }
  if [ "$dict" = "$big" ]; then
    # As direct, plus the all-reduces that decided.
    ((shuffle_auto >= shuffle_direct)) || { echo "FAIL: auto shuffled the big dictionary in two levels"; status=1; }
  else
    ((shuffle_auto < shuffle_direct)) || { echo "FAIL: auto shuffled the small dictionary directly"; status=1; }
  fi
done
[ $status = 0 ] && echo "exchange_choice: auto chose as use_two_level() says; outputs equal the reference"
exit $status
