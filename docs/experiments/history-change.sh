#!/bin/sh
# history-change.sh — does an update find a change merged into the
# default branch in a real history, at the right run? (issue 23)
#
#  1. Builds wirebench from this tree, and from a scratch copy of it
#     (inject.sh; never committed, the checkout untouched) whose one
#     benchmark TARGET_OP of TARGET_CODEC on TARGET_DATASET waits
#     SLOWDOWN_PCT% of each operation's own time after it: the "change".
#  2. RUNS `update` runs of the suite into a fresh baseline file, one at a
#     time, as pushes to main would make them: runs 1 to CHANGE_AT-1 of
#     the clean binary, runs CHANGE_AT to RUNS of the slowed one (the
#     change was merged at run CHANGE_AT). Every run records its own
#     commit (GITHUB_SHA, which wirebench reads): c01…, c02…, so a change
#     point's "first run after" names its run.
#  3. Each update finds the change points of the history and prints those
#     it is the first to see ("new change point: …"); the script keeps
#     them, with the run that first saw them, in OUT/found.tsv, and says
#     whether the change was found at run CHANGE_AT or CHANGE_AT+1, and
#     how many other change points (false ones: nothing else changed)
#     were reported.
#
# METRIC=instructions (or cycles) counts the runs instead of timing them
# (docs/counted.md); the change is then EVERY (default 50): every EVERY-th
# operation of the target done twice (inject-work.sh, +1/EVERY of its
# work, and of its B/op), or spinK, a loop of K iterations in every
# operation (no allocation), since a wait is not work.
#
# With the defaults (30 timed runs of 60 s) it takes about 35 minutes of a
# quiet machine. Everything goes to OUT (default: a new directory under
# /tmp). It needs go. To try it out in seconds:
#
#     RUNS=3 CHANGE_AT=2 BUDGET=2s FILTER='codec=protobuf/dataset=(small|floats-1k)$' \
#         TARGET_DATASET=floats-1k docs/experiments/history-change.sh
set -eu

RUNS=${RUNS:-30}
CHANGE_AT=${CHANGE_AT:-20}
BUDGET=${BUDGET:-60s}
TARGET_CODEC=${TARGET_CODEC:-protobuf}
TARGET_DATASET=${TARGET_DATASET:-floats-64k}
TARGET_OP=${TARGET_OP:-serialize}
SLOWDOWN_PCT=${SLOWDOWN_PCT:-20}
FILTER=${FILTER:-}
METRIC=${METRIC:-time}
EVERY=${EVERY:-50}

REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/docs/experiments/lib.sh"
OUT=${OUT:-$(mktemp -d /tmp/wirebench-history.XXXXXX)}
mkdir -p "$OUT/bin" "$OUT/runs"
echo "history-change: writing to $OUT"

(cd "$REPO" && go build -o "$OUT/bin/wirebench" ./cmd/wirebench)
UNIT=ns/op CHANGE="+$SLOWDOWN_PCT%"
case $METRIC in
time) "$REPO/docs/experiments/inject.sh" "$OUT/scratch-tree" "$SLOWDOWN_PCT" "$TARGET_CODEC" "$TARGET_DATASET" "$TARGET_OP" ;;
*)
	"$REPO/docs/experiments/inject-work.sh" "$OUT/scratch-tree" "$EVERY" "$TARGET_CODEC" "$TARGET_DATASET" "$TARGET_OP"
	UNIT=instructions/op CHANGE="+1/$EVERY of its work"
	case $EVERY in spin*) CHANGE="a loop of ${EVERY#spin} iterations in every operation" ;; esac
	[ "$METRIC" = cycles ] && UNIT=est-cycles/op
	;;
esac
cp "$OUT/scratch-tree.diff" "$OUT/injection.diff"
(cd "$OUT/scratch-tree" && go build -o "$OUT/bin/wirebench-changed" ./cmd/wirebench)

target=$(target "$TARGET_OP" "$TARGET_CODEC" "$TARGET_DATASET")
baseline="$OUT/baseline.json"
: >"$OUT/found.tsv"
printf 'seen at run\tbenchmark\tunit\tfirst run after\tline\n' >"$OUT/found.tsv"
i=1
while [ "$i" -le "$RUNS" ]; do
	bin="$OUT/bin/wirebench"
	[ "$i" -ge "$CHANGE_AT" ] && bin="$OUT/bin/wirebench-changed"
	commit=$(printf 'c%02d%037d' "$i" 0)
	name=$(printf 'run-%02d' "$i")
	set -- update --baseline "$baseline" --budget "$BUDGET" --history 50 --metric "$METRIC"
	[ -n "$FILTER" ] && set -- "$@" --filter "$FILTER"
	echo "history-change: $name ($(basename "$bin"), commit ${commit%%0000000000*}…)"
	GITHUB_SHA=$commit "$bin" "$@" >"$OUT/runs/$name.txt" 2>"$OUT/runs/$name.err" || {
		echo "history-change: $name failed (exit $?): see $OUT/runs/$name.err" >&2
		exit 1
	}
	# "new change point: Serialize protobuf/floats-64k ns/op stepped +19.8% (… → …) at c200000, 2026-12-01, the first run after the step; …"
	grep '^new change point: ' "$OUT/runs/$name.txt" | while IFS= read -r line; do
		rest=${line#new change point: }
		bench=${rest%% stepped *}
		unit=${bench##* }
		bench=${bench% *}
		at=${rest#* at }
		at=${at%%,*}
		run=$(printf '%s' "$at" | sed -n 's/^c\([0-9][0-9]\).*/\1/p')
		printf '%d\t%s\t%s\t%s\t%s\n' "$i" "$bench" "$unit" "${run:-?}" "$line" >>"$OUT/found.tsv"
	done
	i=$((i + 1))
done

short=$(echo "$target" | sed -e 's/^Benchmark//' -e 's|/codec=| |' -e 's|/dataset=|/|')
echo
echo "history-change: change points each update was the first to see ($OUT/found.tsv):"
cat "$OUT/found.tsv"
echo
hit=$(awk -F'\t' -v b="$short" -v u="$UNIT" -v c="$CHANGE_AT" 'NR > 1 && index($2, b) && $3 == u && ($4 == c || $4 == c + 1) { print $1; exit }' "$OUT/found.tsv")
others=$(awk -F'\t' -v b="$short" -v u="$UNIT" 'NR > 1 && !(index($2, b) && $3 == u) { n++ } END { print n + 0 }' "$OUT/found.tsv")
if [ -n "$hit" ]; then
	echo "the change ($target $UNIT $CHANGE from run $CHANGE_AT): found at run $CHANGE_AT or $((CHANGE_AT + 1)), first reported by the update of run $hit"
else
	echo "the change ($target $UNIT $CHANGE from run $CHANGE_AT): NOT found at run $CHANGE_AT or $((CHANGE_AT + 1))"
fi
echo "other change points reported (nothing else changed, so false ones): $others"
