#!/bin/sh
# rows.sh — both instruments on a module of slowdowns (issue 29):
# docs/experiments/rows is example.com/rows, whose `const slow` turns on,
# in the head, what makes a benchmark slower in ways a count may or may
# not see (a sleep, a write, syscalls, a random walk of 64 MiB, work done
# only outside Valgrind, a RunParallel encoder behind a mutex).
#
#   docs/experiments/rows.sh ab       the base (slow = false) against the head, once
#   docs/experiments/rows.sh aa N     the head against a copy of itself, N runs;
#                                     even runs beside CPU_HOGS `yes` (default 1)
#   docs/experiments/rows.sh stored N M  against a stored baseline: HISTORY (5)
#                                     updates of the base, then N checks of the
#                                     base (A/A) and M of the head, interleaved;
#                                     even checks beside CPU_HOGS `yes`
#
# METRIC (default auto: counted and timed) and BUDGET (empty: the default)
# pass to `wirebench ab`, and EXTRA (more flags) to every run; aa sets
# --measure-all, since identical builds are otherwise not measured. Writes to OUT (default a new directory under
# /tmp): per run the JSON comparison, the Markdown report and stderr, and
# summary.tsv: run, load, exit, seconds, clock seconds, what was flagged
# (benchmark, unit, change, and on a ns/op change what the count showed).
# Needs go, jq, yes, valgrind. Run one at a time on a machine nothing
# else is measuring on.
set -eu
MODE=${1:?usage: rows.sh ab | aa N | stored N M}
RUNS=${2:-1}
METRIC=${METRIC:-auto}
BUDGET=${BUDGET:-}
EXTRA=${EXTRA:-}
CPU_HOGS=${CPU_HOGS:-1}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-rows.XXXXXX)}
mkdir -p "$OUT/bin"
. "$REPO/docs/experiments/lib.sh"
need go jq yes valgrind
log "results in $OUT"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
for side in base head head2; do
	rm -rf "${OUT:?}/$side"
	cp -r "$REPO/docs/experiments/rows" "$OUT/$side"
done
for side in head head2; do
	sed -i 's/^const slow = false$/const slow = true/' "$OUT/$side/enc.go" "$OUT/$side/par/par.go"
done
printf 'run\tload\texit\tseconds\tclock seconds\tflagged\n' >"$OUT/summary.tsv"
summarize() { # summarize NAME LOAD EXIT SECONDS: a line of summary.tsv from NAME.json
	jq -r --arg run "$1" --arg load "$2" --arg rc "$3" --arg secs "$4" '
		def pct: if . == null then "-" else (. * 10000 | round / 100 | tostring) + "%" end;
		[$run, $load, $rc, $secs, (if .clock == null then "-" else (.clock.elapsed_seconds | round | tostring) end),
		 ([.comparisons[] | select(.verdict == "regression" or .verdict == "improvement")
		   | "\(.name | sub("^.*Benchmark"; "")) \(.unit) \(.change | pct)\(if .unconfirmed then " (did not hold)" else "" end)\(if .unit == "ns/op" and .note != "" then " [\(.note | split(":")[0])]" else "" end)"]
		  | join("; "))]
		| @tsv' "$OUT/$1.json" >>"$OUT/summary.tsv" || printf '%s\t%s\t%s\t%s\t-\t(no JSON)\n' "$1" "$2" "$3" "$4" >>"$OUT/summary.tsv"
}
one() { # one NAME BASE LOAD
	[ "$3" = quiet ] || start_hogs
	log "$1 ($3): ab --base $2 --head head"
	start=$(date +%s) rc=0
	(cd "$OUT/head" && "$OUT/bin/wb" ab --base "$OUT/$2" --bench . --metric "$METRIC" ${BUDGET:+--budget "$BUDGET"} $EXTRA \
		--format json --report "$OUT/$1.md" >"$OUT/$1.json" 2>"$OUT/$1.err") || rc=$?
	secs=$(($(date +%s) - start))
	stop_hogs
	summarize "$1" "$3" "$rc" "$secs"
}
check() { # check NAME DIR LOAD: wirebench check of DIR against the stored baseline
	[ "$3" = quiet ] || start_hogs
	log "$1 ($3): check $2"
	start=$(date +%s) rc=0
	(cd "$OUT/$2" && "$OUT/bin/wb" check --bench . --baseline "$OUT/baseline.json" --metric "$METRIC" ${BUDGET:+--budget "$BUDGET"} $EXTRA \
		--format json --report "$OUT/$1.md" >"$OUT/$1.json" 2>"$OUT/$1.err") || rc=$?
	secs=$(($(date +%s) - start))
	stop_hogs
	summarize "$1" "$3" "$rc" "$secs"
}
case $MODE in
ab) one ab base quiet ;;
stored)
	AA=$RUNS HEAD=${3:-0} i=1
	n=1
	while [ "$n" -le "${HISTORY:-5}" ]; do
		log "history $n: update base"
		(cd "$OUT/base" && "$OUT/bin/wb" update --bench . --baseline "$OUT/baseline.json" --metric "$METRIC" ${BUDGET:+--budget "$BUDGET"} \
			>"$OUT/history-$n.txt" 2>"$OUT/history-$n.err")
		n=$((n + 1))
	done
	while [ "$i" -le "$AA" ] || [ "$i" -le "$HEAD" ]; do
		load=quiet
		[ $((i % 2)) = 0 ] && [ "$CPU_HOGS" -gt 0 ] && load="beside $CPU_HOGS hogs"
		[ "$i" -le "$AA" ] && check "aa-$i" base "$load"
		[ "$i" -le "$HEAD" ] && check "head-$i" head "$load"
		i=$((i + 1))
	done
	;;
aa)
	EXTRA="--measure-all $EXTRA"
	i=1
	while [ "$i" -le "$RUNS" ]; do
		load=quiet
		[ $((i % 2)) = 0 ] && [ "$CPU_HOGS" -gt 0 ] && load="beside $CPU_HOGS hogs"
		one "aa-$i" head2 "$load"
		i=$((i + 1))
	done
	;;
*) echo "usage: rows.sh ab | aa N | stored N M" >&2; exit 2 ;;
esac
column -t -s "$(printf '\t')" "$OUT/summary.tsv" >&2 || cat "$OUT/summary.tsv" >&2
