#!/bin/sh
# counted-ab.sh — the same-runner A/B mode, counted, on the whole default
# suite (issue 21): AA_RUNS runs of this tree against a copy of itself
# (nothing may be flagged), and INJECT_RUNS of it against a copy in which
# TARGET does 1/EVERY more of its own work (inject-work.sh; EVERY 100:
# +1%). Every other run beside CPU_HOGS `yes` processes (0: none). Writes to OUT
# (default a new directory under /tmp): per run its exit status, wall time,
# what was flagged, the target's change — summary.tsv. AA_FLAGS are
# added to the A/A runs' command line (--measure-all: an identical tree
# is otherwise not measured at all). Needs go, jq, yes, valgrind.
set -eu
AA_RUNS=${AA_RUNS:-5}
INJECT_RUNS=${INJECT_RUNS:-5}
CPU_HOGS=${CPU_HOGS:-2}
EVERY=${EVERY:-100}
TARGET_CODEC=${TARGET_CODEC:-protobuf}
TARGET_DATASET=${TARGET_DATASET:-small}
TARGET_OP=${TARGET_OP:-serialize}
METRIC=${METRIC:-instructions}
FILTER=${FILTER:-}
AA_FLAGS=${AA_FLAGS:-}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-counted-ab.XXXXXX)}
mkdir -p "$OUT/bin"
. "$REPO/docs/experiments/lib.sh"
TARGET=$(target "$TARGET_OP" "$TARGET_CODEC" "$TARGET_DATASET")
UNIT=instructions/op
[ "$METRIC" = cycles ] && UNIT=est-cycles/op

log "results in $OUT"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
copy_tree "$OUT/base"
"$REPO/docs/experiments/inject-work.sh" "$OUT/head" "$EVERY" "$TARGET_CODEC" "$TARGET_DATASET" "$TARGET_OP"
mv "$OUT/head.diff" "$OUT/injection.diff"
printf 'kind\trun\tload\texit\tseconds\tcounts gated\tmedian MDE (all counts)\tmedian MDE (inconclusive counts)\tflagged\ttarget (%s %s)\n' "$TARGET" "$UNIT" >"$OUT/summary.tsv"
one() {
	name="$1-$2" load=quiet
	[ $(($2 % 2)) = 0 ] && [ "$CPU_HOGS" -gt 0 ] && load="beside $CPU_HOGS hogs"
	[ "$load" = quiet ] || start_hogs
	load="$load, load $(cut -d' ' -f1 /proc/loadavg)"
	flags=""
	[ "$1" = aa ] && flags=$AA_FLAGS
	log "$name ($load): ab --base base --head $3 $flags"
	start=$(date +%s) rc=0
	# shellcheck disable=SC2086 # AA_FLAGS is a list of flags
	(cd "$OUT" && "$OUT/bin/wb" ab --base "$OUT/base" --head "$3" --metric "$METRIC" --filter "$FILTER" $flags --format json \
		--report "$OUT/$name.md" >"$OUT/$name.json" 2>"$OUT/$name.err") || rc=$?
	secs=$(($(date +%s) - start))
	stop_hogs
	jq -r --arg kind "$1" --arg i "$2" --arg load "$load" --arg rc "$rc" --arg secs "$secs" --arg target "$TARGET" --arg unit "$UNIT" '
		def pct: if . == null then "-" else (. * 10000 | round / 100 | tostring) + "%" end;
		([.comparisons[] | select(.name == $target and .unit == $unit)][0]) as $t
		| [$kind, $i, $load, $rc, $secs, "\(.judged.counts_gated)/\(.judged.counts)", ([.comparisons[] | select(.unit == $unit) | .mde // empty] | sort | if length == 0 then null else .[length / 2 | floor] end | pct), (.judged.counts_median_mde | pct),
		   ([.comparisons[] | select(.verdict == "regression" or .verdict == "improvement") | "\(.name | sub("^Benchmark"; "")) \(.unit) \(.change | pct)\(if .unconfirmed then " (did not hold)" else "" end)"] | join("; ")),
		   (if $t == null then "-" else "\($t.verdict)\(if $t.unconfirmed then " (did not hold)" else "" end) \($t.change | pct) [\(($t.ci_low - 1) | pct), \(($t.ci_high - 1) | pct)] mde \($t.mde | pct)" end)]
		| @tsv' "$OUT/$name.json" >>"$OUT/summary.tsv" || printf '%s\t%s\t%s\t%s\t%s\t(no JSON)\n' "$1" "$2" "$load" "$rc" "$secs" >>"$OUT/summary.tsv"
}
# A/A and injected runs alternate, so that a series stopped early has
# some of both.
i=1
while [ "$i" -le "$AA_RUNS" ] || [ "$i" -le "$INJECT_RUNS" ]; do
	[ "$i" -le "$AA_RUNS" ] && one aa "$i" "$OUT/base"
	[ "$i" -le "$INJECT_RUNS" ] && one "every$EVERY" "$i" "$OUT/head"
	i=$((i + 1))
done
column -t -s "$(printf '\t')" "$OUT/summary.tsv" >&2 || cat "$OUT/summary.tsv" >&2
