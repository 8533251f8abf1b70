#!/bin/sh
# counted-stored.sh — counted work against a stored baseline (issue 21):
# does a counted `check` cry wolf on unchanged code, loaded or not, and does
# it catch one benchmark doing 2% and 1% more work?
#
#  1. Builds wirebench from this tree, and from scratch copies in which
#     TARGET does more of its own work (inject-work.sh): for each EVERY
#     (default "50 100"), every EVERY-th operation done twice (+1/EVERY,
#     and as much more B/op); for each WORK percentage (e.g. "2 1"), a loop
#     of K iterations in every operation, K calibrated by counting the
#     target with a 256-iteration loop (no allocation, the same in every
#     block).
#  2. History: HISTORY_RUNS `update --metric instructions` into a fresh
#     baseline (the runs of one commit: replicates of the reference;
#     HISTORY_RUNS=0 keeps OUT/baseline.json from an earlier start).
#  3. A/A: AA_RUNS `check` of the same binary; every other one beside
#     CPU_HOGS `yes` processes.
#  4. Injected: INJECT_RUNS checks of each slowed binary, half loaded.
#  5. Per check: its exit status, the counts gated, the median detectable
#     change, the regressions that failed it and whether they were the
#     target, the target's change — in summary.tsv.
#
# Writes to OUT (default a new directory under /tmp); needs go, jq, yes and
# valgrind. Every check of the whole suite counts 5 processes (3 for the
# floats-1m benchmarks): several minutes each on a 2-core machine.
set -eu
HISTORY_RUNS=${HISTORY_RUNS:-5}
AA_RUNS=${AA_RUNS:-20}
INJECT_RUNS=${INJECT_RUNS:-10}
CPU_HOGS=${CPU_HOGS:-2}
TARGET_CODEC=${TARGET_CODEC:-protobuf}
TARGET_DATASET=${TARGET_DATASET:-small}
TARGET_OP=${TARGET_OP:-serialize}
EVERY=${EVERY-"50 100"}
WORK=${WORK:-}
FILTER=${FILTER:-}
METRIC=${METRIC:-instructions}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-counted-stored.XXXXXX)}
mkdir -p "$OUT/bin"
COMMIT=${COMMIT:-$(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)}
. "$REPO/docs/experiments/lib.sh"
need go jq yes valgrind
TARGET=$(target "$TARGET_OP" "$TARGET_CODEC" "$TARGET_DATASET")
UNIT=instructions/op
[ "$METRIC" = cycles ] && UNIT=est-cycles/op

log "results in $OUT; building"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)

# count prints the median instructions/op of TARGET that binary $1 counts
# (3 processes, the target's codec and dataset alone) into $2.
count() {
	(cd "$OUT" && "$1" run --metric instructions --processes 3 --filter "codec=$TARGET_CODEC/dataset=$TARGET_DATASET\$" \
		--out "$2" >/dev/null 2>"$2.err")
	jq -r --arg target "$TARGET" '.benchmarks[] | select(.name == $target) | .metrics[] | select(.unit == "instructions/op")
		| .values | sort | .[length / 2 | floor]' "$2"
}
# WORK: percentages of more work done by a loop in every operation
# (inject-work.sh spinK), K calibrated here from the count of spin256.
if [ -n "$WORK" ]; then
	"$REPO/docs/experiments/inject-work.sh" "$OUT/scratch-cal" spin256 "$TARGET_CODEC" "$TARGET_DATASET" "$TARGET_OP"
	(cd "$OUT/scratch-cal" && go build -buildvcs=false -o "$OUT/bin/wb-cal" ./cmd/wirebench)
	rm -rf "$OUT/scratch-cal" "$OUT/scratch-cal.diff"
	c0=$(count "$OUT/bin/wb" "$OUT/calibrate-0.json")
	c256=$(count "$OUT/bin/wb-cal" "$OUT/calibrate-256.json")
	for p in $WORK; do
		k=$(awk -v c0="$c0" -v c256="$c256" -v p="$p" 'BEGIN { d = (c256 - c0) / 256; printf "%d", p / 100 * c0 / d + 0.5 }')
		log "calibration: $TARGET counts $c0 instructions/op, $c256 with spin256: +$p% is spin$k"
		EVERY="$EVERY spin$k"
	done
fi
for every in $EVERY; do
	"$REPO/docs/experiments/inject-work.sh" "$OUT/scratch-$every" "$every" "$TARGET_CODEC" "$TARGET_DATASET" "$TARGET_OP"
	mv "$OUT/scratch-$every.diff" "$OUT/injection-$every.diff"
	(cd "$OUT/scratch-$every" && go build -buildvcs=false -o "$OUT/bin/wb-$every" ./cmd/wirebench)
	rm -rf "$OUT/scratch-$every"
done

tally() {
	jq -r --arg phase "$1" --arg i "$2" --arg load "$3" --arg rc "$4" --arg secs "$5" --arg target "$TARGET" --arg unit "$UNIT" '
		def pct: if . == null then "-" else (. * 10000 | round / 100 | tostring) + "%" end;
		([.comparisons[] | select(.name == $target and .unit == $unit)][0]) as $t
		| [$phase, $i, $load, $rc, $secs, .verdict,
		   "\(.judged.counts_gated)/\(.judged.counts)", (.judged.counts_inconclusive | tostring), (.judged.counts_median_mde | pct),
		   ([.comparisons[] | select(.verdict == "regression" and .enforced and (.unconfirmed | not))] | length | tostring),
		   ([.comparisons[] | select(.verdict == "regression" and .enforced and (.unconfirmed | not) and .name != $target)] | length | tostring),
		   ([.comparisons[] | select(.verdict == "regression" or .verdict == "improvement") | "\(.name | sub("^Benchmark"; "")) \(.unit) \(.change | pct)\(if .unconfirmed then " (did not hold)" else "" end)"] | join("; ")),
		   (if $t == null then "-" else "\($t.verdict)\(if $t.unconfirmed then " (did not hold)" else "" end) \($t.change | pct) [\(($t.ci_low - 1) | pct), \(($t.ci_high - 1) | pct)] mde \($t.mde | pct)" end)]
		| @tsv' "$6" >>"$OUT/summary.tsv"
}
printf 'phase\trun\tload\texit\tseconds\tverdict\tcounts gated\tinconclusive\tmedian MDE\tfailing regressions\tnot the target\tflagged\ttarget (%s %s)\n' "$TARGET" "$UNIT" >"$OUT/summary.tsv"

history "$HISTORY_RUNS" --metric "$METRIC" --filter "$FILTER"

check_run() {
	name="$1-$2" load=quiet
	[ $(($2 % 2)) = 1 ] && load=loaded
	[ "$load" = loaded ] && start_hogs
	log "$name ($load)"
	start=$(date +%s) rc=0
	(cd "$OUT" && GITHUB_SHA=$4 "$3" check --baseline "$OUT/baseline.json" --filter "$FILTER" \
		--out "$OUT/$name.results.json" --report "$OUT/$name.md" >"$OUT/$name.txt" 2>"$OUT/$name.err") || rc=$?
	secs=$(($(date +%s) - start))
	stop_hogs
	"$OUT/bin/wb" compare --format json "$OUT/baseline.json" "$OUT/$name.results.json" >"$OUT/$name.json" 2>>"$OUT/$name.err" || true
	tally "$1" "$2" "$load" "$rc" "$secs" "$OUT/$name.json"
}
i=1
while [ "$i" -le "$AA_RUNS" ]; do check_run aa "$i" "$OUT/bin/wb" "$COMMIT"; i=$((i + 1)); done
for every in $EVERY; do
	i=1
	phase=every$every
	case $every in spin*) phase=$every ;; esac
	while [ "$i" -le "$INJECT_RUNS" ]; do check_run "$phase" "$i" "$OUT/bin/wb-$every" injected; i=$((i + 1)); done
done
column -t -s "$(printf '\t')" "$OUT/summary.tsv" >&2 || cat "$OUT/summary.tsv" >&2
