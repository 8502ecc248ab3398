#!/usr/bin/env bash
# stats_traffic.sh -- the traffic in --stats adds up: for every phase, what
# all ranks sent (bytes and messages) is what all ranks received, each
# rank's whole-run totals are at least the sum of its phases, and a run on
# more than one rank shows traffic in the phases that exchange (shuffle,
# route).
#
#   stats_traffic.sh -- CMD...     (CMD: spellcheck under mpirun, with its
#                                   dictionary and inputs; --stats and -o are
#                                   added in front of them)
set -u
[ $# -ge 2 ] && [ "$1" = "--" ] || { echo "usage: stats_traffic.sh -- CMD..." >&2; exit 2; }
shift
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stats_traffic.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# Options go after the executable (the first word ending in spellcheck).
cmd=()
placed=0
for a in "$@"; do
  cmd+=("$a")
  if [ $placed = 0 ] && [[ "$a" == *spellcheck ]]; then
    cmd+=(--stats "$tmp/stats.json" -o "$tmp/out.txt")
    placed=1
  fi
done
[ $placed = 1 ] || { echo "stats_traffic: no spellcheck in the command" >&2; exit 2; }
"${cmd[@]}" || { echo "FAIL: spellcheck failed"; exit 1; }
/usr/bin/python3 - "$tmp/stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
ranks = s["ranks"]
ok = True
def fail(msg):
    global ok
    ok = False
    print("FAIL:", msg)
per_rank = s["per_rank"]
phases = [p for p in s["phase_traffic"] if p != "total"]
keys = ["messages_sent", "bytes_sent", "messages_received", "bytes_received"]
for p in phases + ["total"]:
    t = {k: sum(r["phase_traffic"][p][k] for r in per_rank) for k in keys}
    if t != s["phase_traffic"][p]:
        fail(f"{p}: totals {s['phase_traffic'][p]} are not the sum over ranks {t}")
    if t["bytes_sent"] != t["bytes_received"] or t["messages_sent"] != t["messages_received"]:
        fail(f"{p}: sent {t['bytes_sent']} B in {t['messages_sent']} messages, received {t['bytes_received']} B in {t['messages_received']}")
for r in per_rank:
    for k in keys:
        inside = sum(r["phase_traffic"][p][k] for p in phases)
        if r["phase_traffic"]["total"][k] < inside:
            fail(f"rank {r['rank']}: total {k} {r['phase_traffic']['total'][k]} < sum of phases {inside}")
        if k in r and r[k] < r["phase_traffic"]["total"][k]:
            fail(f"rank {r['rank']}: whole-run {k} {r[k]} < the total phase's")
for p in ("shuffle", "route" if "route" in phases else "shuffle"):
    t = s["phase_traffic"][p]
    if ranks > 1 and t["bytes_sent"] == 0:
        fail(f"{p}: no traffic on {ranks} ranks")
    if ranks == 1 and (t["bytes_sent"] or t["messages_sent"]):
        fail(f"{p}: traffic on one rank")
print("stats_traffic:", "ok" if ok else "FAILED", f"({ranks} ranks, {len(phases)} phases)")
sys.exit(0 if ok else 1)
PY
