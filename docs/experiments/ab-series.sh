#!/bin/sh
# ab-series.sh — the same-runner A/B mode on the default suite: A/A runs
# and runs with one benchmark slowed by 5% and by 2%, in rotation, one at
# a time, every option at its default (issue 15's table).
#
# Scratch copies of the tree (inject.sh; never committed) are the heads of
# the injected runs; the tree itself is the base of every run and the head
# of the A/A runs (byte-identical binaries). Every run writes
# OUT/KIND-I.json (the comparison) and OUT/KIND-I.log (the progress), and
# one line of OUT/summary.tsv:
#   kind, run, start (UTC), wall seconds, the target's change and 95%
#   interval, its verdict (caught = an enforced regression), timings of
#   other benchmarks enforced as regressions or improvements, the A/A
#   check's verdict, the median and largest MDE of ns/op, the offsets
#   between generations.
# Knobs: OUT, RUNS (rounds of the rotation, default 5), FIRST (the number
# of the first, default 1: a later call adds rounds to OUT), KINDS (default
# "aa inj5 inj2"; "nopin" is an A/A run with --pin=false, so KINDS="aa
# nopin" alternates pinned and unpinned workers), TARGET_CODEC/TARGET_DATASET/TARGET_OP (default
# Serialize protobuf/large, 40 µs an operation, so the injection's clock
# reads add ~0.25%), and any further arguments go to every `ab`.
set -eu
OUT=${OUT:-$(mktemp -d /tmp/wirebench-ab.XXXXXX)}
RUNS=${RUNS:-5}
FIRST=${FIRST:-1}
KINDS=${KINDS:-"aa inj5 inj2"}
TARGET_CODEC=${TARGET_CODEC:-protobuf}
TARGET_DATASET=${TARGET_DATASET:-large}
TARGET_OP=${TARGET_OP:-serialize}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/docs/experiments/lib.sh"
TARGET=$(target "$TARGET_OP" "$TARGET_CODEC" "$TARGET_DATASET")
mkdir -p "$OUT"
(cd "$REPO" && go build -o "$OUT/wirebench" ./cmd/wirebench)
for pct in 5 2; do
	case " $KINDS " in *" inj$pct "*)
		"$REPO/docs/experiments/inject.sh" "$OUT/inj$pct" "$pct" "$TARGET_CODEC" "$TARGET_DATASET" "$TARGET_OP" ;;
	esac
done
[ -f "$OUT/summary.tsv" ] || printf 'kind\trun\tstart\twall_s\ttarget\tverdict\tothers_enforced\taa\tmedian_mde\tmax_mde\toffsets\n' >"$OUT/summary.tsv"
for i in $(seq "$FIRST" $((FIRST + RUNS - 1))); do
	for kind in $KINDS; do
		head=$REPO pin=--pin=true
		case $kind in
		aa) ;;
		nopin) pin=--pin=false ;;
		*) head="$OUT/$kind" ;;
		esac
		t0=$(date +%s)
		start=$(date -u +%H:%M:%S)
		"$OUT/wirebench" ab --base "$REPO" --head "$head" "$pin" --format json "$@" >"$OUT/$kind-$i.json" 2>"$OUT/$kind-$i.log" || true
		wall=$(( $(date +%s) - t0 ))
		offsets=$(grep -o 'offsets between generations of workers: ±[0-9.]*%' "$OUT/$kind-$i.log" | head -1 | sed 's/.*: //')
		python3 - "$OUT/$kind-$i.json" "$TARGET" "$kind" "$i" "$start" "$wall" "${offsets:--}" >>"$OUT/summary.tsv" <<'PY'
import json, statistics, sys
path, target, kind, run, start, wall, offsets = sys.argv[1:]
d = json.load(open(path))
t = [c for c in d["comparisons"] if c["unit"] == "ns/op"]
mde = [c["mde"] for c in t if c.get("mde") is not None]
enforced = lambda c: c["verdict"] in ("regression", "improvement") and not c.get("unconfirmed")
tc = next((c for c in t if c["name"] == target), None)
tgt = "-" if tc is None else "%+.2f%% [%+.2f%%, %+.2f%%]" % (100 * (tc["ratio"] - 1), 100 * (tc["ci_low"] - 1), 100 * (tc["ci_high"] - 1))
verdict = "-" if tc is None else ("caught" if tc["verdict"] == "regression" and not tc.get("unconfirmed") else tc["verdict"] + (" (unconfirmed)" if tc.get("unconfirmed") else ""))
others = sum(1 for c in t if c["name"] != target and enforced(c))
aa = d.get("aa_check") or {}
print("\t".join([kind, run, start, wall, tgt, verdict, str(others), "noisy" if aa.get("noisy") else "quiet",
                 "%.2f%%" % (100 * statistics.median(mde)), "%.2f%%" % (100 * max(mde)), offsets]))
PY
		tail -1 "$OUT/summary.tsv"
	done
done
