#!/bin/sh
# history-counted.sh — does a young counted history tell the truth from
# its first runs: a step at once, a creep over time, nothing on unchanged
# code? (issue 31)
#
# docs/experiments/ledger is example.com/ledger, three benchmarks of a
# small ledger entry (Marshal reports its message's B/msg, 41 bytes).
# The script copies it to OUT/module and runs `wirebench update --bench .`
# there RUNS times into a fresh baseline, one at a time, as pushes to main
# would, each recording its own commit (GITHUB_SHA c01…, c02…), after
# editing the copy's constants as the mode says:
#
#   history-counted.sh step    6 updates; from the STEP_AT-th (4) on the
#                              message grows by a field (B/msg 41 → 51)
#                              and Marshal's work by STEP_PCT% (15)
#   history-counted.sh same    6 updates of unchanged code
#   history-counted.sh creep   RUNS (13) updates: the first unchanged, then
#                              each adds CREEP_PCT% (0.4) of Marshal's work
#                              (a loop of more iterations), none a step
#   history-counted.sh aa      RUNS (30) updates of unchanged code
#
# How many loop iterations make STEP_PCT% or CREEP_PCT% of Marshal's work
# is measured first: two counted runs (`wirebench run`) of Marshal with
# the loop at 0 and at 1000 iterations.
#
# Each update prints the change points and creeps it is the first to see
# ("new change point: …", "new creep: …"); the script keeps them with the
# update that saw them in OUT/found.tsv, and prints what the mode asks:
# which update first reported the size's step, the count's step, the
# creep; how many others were reported (all false: nothing else
# changed). OUT/baseline.json is the history, OUT/runs each update's
# output and results.
#
# METRIC (default instructions) passes to update; counted, a run of the
# three benchmarks takes about 30 s on the project's 2-core machine, so
# step and same take about 3 minutes each, creep about 7, aa about 15.
# Writes to OUT (default a new directory under /tmp). Needs go, jq and
# valgrind. Run one at a time on a machine nothing else is measuring on.
set -eu
MODE=${1:?usage: history-counted.sh step | same | creep | aa}
METRIC=${METRIC:-instructions}
STEP_AT=${STEP_AT:-4}
STEP_PCT=${STEP_PCT:-15}
CREEP_PCT=${CREEP_PCT:-0.4}
case $MODE in
step | same) RUNS=${RUNS:-6} ;;
creep) RUNS=${RUNS:-13} ;;
aa) RUNS=${RUNS:-30} ;;
*) echo "usage: history-counted.sh step | same | creep | aa" >&2; exit 2 ;;
esac
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-history-counted.XXXXXX)}
mkdir -p "$OUT/bin" "$OUT/runs"
. "$REPO/docs/experiments/lib.sh"
need go jq valgrind
log "history-counted $MODE: results in $OUT"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
rm -rf "${OUT:?}/module"
cp -r "$REPO/docs/experiments/ledger" "$OUT/module"
src="$OUT/module/ledger.go"

# set NAME VALUE: the copy's constant NAME is VALUE.
set_const() {
	sed -i "s/^\t$1\( *\)= .*\$/\t$1\1= $2/" "$src"
	grep -q "^	$1 *= $2\$" "$src" || { echo "history-counted: could not set $1 in $src" >&2; exit 2; }
}

# marshal_count: Marshal's instructions/op in a counted run of the copy.
marshal_count() {
	(cd "$OUT/module" && "$OUT/bin/wb" run --bench 'Marshal$' --metric "$METRIC" --format json 2>>"$OUT/calibrate.err") |
		jq -r --arg unit "$UNIT" '[.benchmarks[] | select(.name == "BenchmarkMarshal") | .metrics[] | select(.unit == $unit) | .values | sort | .[length / 2 | floor]][0]'
}
UNIT=instructions/op
[ "$METRIC" = cycles ] && UNIT=est-cycles/op

# iterations PCT: loop iterations that add PCT% of Marshal's work.
iterations() {
	awk -v base="$BASE_COUNT" -v per="$PER_ITERATION" -v pct="$1" 'BEGIN { printf "%d\n", base * pct / 100 / per + 0.5 }'
}

# A creep of 0.4% of Marshal's ~270 instructions is one instruction, less
# than a loop iteration (about 4): the creep's Marshal first spins
# CREEP_BASE iterations (about 8,000 instructions more), so that 0.4% of
# its work is some 8 iterations and rounding moves it by ±0.03%.
CREEP_BASE=${CREEP_BASE:-2000}
BASE_SPIN=0
[ "$MODE" = creep ] && BASE_SPIN=$CREEP_BASE
if [ "$MODE" = step ] || [ "$MODE" = creep ]; then
	log "calibrating: Marshal counted with the loop at $BASE_SPIN and $((BASE_SPIN + 1000)) iterations"
	set_const spin "$BASE_SPIN"
	BASE_COUNT=$(marshal_count)
	case $BASE_COUNT in '' | null) echo "history-counted: no $UNIT of Marshal in a counted run ($OUT/calibrate.err)" >&2; exit 1 ;; esac
	set_const spin "$((BASE_SPIN + 1000))"
	WITH_LOOP=$(marshal_count)
	set_const spin "$BASE_SPIN"
	PER_ITERATION=$(awk -v a="$BASE_COUNT" -v b="$WITH_LOOP" 'BEGIN { print (b - a) / 1000 }')
	log "Marshal: $BASE_COUNT instructions/op, $PER_ITERATION a loop iteration"
	case $PER_ITERATION in 0 | -*) echo "history-counted: the loop costs nothing: calibration failed ($OUT/calibrate.err)" >&2; exit 1 ;; esac
fi

printf 'seen at update\tkind\tbenchmark\tunit\tline\n' >"$OUT/found.tsv"
i=1
while [ "$i" -le "$RUNS" ]; do
	case $MODE in
	step)
		if [ "$i" -ge "$STEP_AT" ]; then
			set_const grow true
			set_const growSpin "$(iterations "$STEP_PCT")"
		fi
		;;
	creep) set_const spin "$((BASE_SPIN + $(iterations "$(awk -v p="$CREEP_PCT" -v k="$((i - 1))" 'BEGIN { print p * k }')")))" ;;
	esac
	commit=$(printf 'c%02d%037d' "$i" 0)
	name=$(printf 'update-%02d' "$i")
	log "$name: $(grep -E '^	(grow|growSpin|spin) ' "$src" | tr -s '\t ' ' ' | tr '\n' ';')"
	(cd "$OUT/module" && GITHUB_SHA=$commit "$OUT/bin/wb" update --bench . --baseline "$OUT/baseline.json" --metric "$METRIC" \
		--out "$OUT/runs/$name.json" >"$OUT/runs/$name.txt" 2>"$OUT/runs/$name.err") || {
		echo "history-counted: $name failed (exit $?): see $OUT/runs/$name.err" >&2
		exit 1
	}
	# "new change point: Marshal B/msg stepped +24.4% (41 B → 51 B) at c04…, …"
	# "new creep: Marshal instructions/op +2.1% over the last 5 merges, …"
	grep -E '^new (change point|creep): ' "$OUT/runs/$name.txt" | while IFS= read -r line; do
		kind=${line%%:*}
		rest=${line#*: }
		bench=${rest%% *}
		unit=${rest#* }
		unit=${unit%% *}
		printf '%d\t%s\t%s\t%s\t%s\n' "$i" "${kind#new }" "$bench" "$unit" "$line" >>"$OUT/found.tsv"
	done
	i=$((i + 1))
done

echo
echo "history-counted $MODE: what each update was the first to see ($OUT/found.tsv):"
cat "$OUT/found.tsv"
echo
first() { # first KIND BENCH UNIT: the update that first reported it
	awk -F'\t' -v k="$1" -v b="$2" -v u="$3" 'NR > 1 && $2 == k && $3 == b && $4 == u { print $1; exit }' "$OUT/found.tsv"
}
others() { # others BENCH UNIT...: lines about anything else
	awk -F'\t' -v keep="$*" 'NR > 1 { id = $3 " " $4; if (index(" " keep " ", " " id " ") == 0) n++ } END { print n + 0 }' "$OUT/found.tsv"
}
unit=$UNIT
case $MODE in
step)
	echo "the size's step (B/msg 41 → 51 at update $STEP_AT): first reported by update $(first 'change point' Marshal B/msg)"
	echo "the count's step (+$STEP_PCT% at update $STEP_AT): first reported by update $(first 'change point' Marshal "$unit")"
	echo "anything else reported (false): $(awk -F'\t' 'NR > 1 && !($3 == "Marshal" && $2 == "change point") { n++ } END { print n + 0 }' "$OUT/found.tsv")"
	;;
creep)
	echo "the creep (+$CREEP_PCT% of Marshal's work an update from update 2): first reported by update $(first creep Marshal "$unit")"
	echo "change points reported (none is a step): $(awk -F'\t' 'NR > 1 && $2 == "change point" { n++ } END { print n + 0 }' "$OUT/found.tsv")"
	echo "creeps of other benchmarks (false): $(awk -F'\t' 'NR > 1 && $2 == "creep" && $3 != "Marshal" { n++ } END { print n + 0 }' "$OUT/found.tsv")"
	;;
same | aa)
	echo "change points and creeps reported on unchanged code (false): $(others)"
	;;
esac
