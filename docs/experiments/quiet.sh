#!/usr/bin/env bash
# quiet.sh — what a count holds steady (issue 41): docs/experiments/quiet
# is example.com/quiet, whose benchmarks write a byte to /dev/null, write
# and read a pipe, sleep a nanosecond, decode nested JSON and a map, and
# keep 20,000 slots of pointers alive (Live).
#
#   docs/experiments/quiet.sh aa N     the module against a copy of itself, counted
#                                      (--metric instructions --measure-all), N runs;
#                                      even runs beside CPU_HOGS `yes` (default 1)
#   docs/experiments/quiet.sh live     a head whose Live keeps twice as many
#                                      pointers alive (const live = 2; the same
#                                      allocations an operation), the default
#                                      metric (auto: counted, then timed)
#
# BIN (default: this tree's wirebench, built into OUT) is the binary run.
# Writes to OUT (default a new directory under /tmp): per run the JSON
# comparison and stderr, and summary.tsv: run, load, exit, seconds, what
# was flagged, and per benchmark its instructions/op detectable change
# and gc-instructions/op detectable change (MDE), spread between
# processes and within pairs, and test.
set -euo pipefail
MODE=${1:?usage: quiet.sh aa N | live}
RUNS=${2:-1}
CPU_HOGS=${CPU_HOGS:-1}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-quiet.XXXXXX)}
mkdir -p "$OUT/bin"
. "$REPO/docs/experiments/lib.sh"
need go jq yes valgrind
log "results in $OUT"
BIN=${BIN:-}
if [ -z "$BIN" ]; then
	(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
	BIN=$OUT/bin/wb
fi
for side in base head; do
	rm -rf "${OUT:?}/$side"
	cp -r "$REPO/docs/experiments/quiet" "$OUT/$side"
done
summary() { # NAME LOAD EXIT SECONDS
	jq -r --arg name "$1" --arg load "$2" --arg rc "$3" --arg secs "$4" '
		def pct: if . == null then "-" else (. * 100000 | round / 1000 | tostring) + "%" end;
		[$name, $load, $rc, $secs,
		 ([.comparisons[] | select(.verdict == "regression" or .verdict == "improvement") | "\(.name | sub("^example.com/quiet "; "")) \(.unit) \((.ratio - 1) | pct)"] | join("; ") | if . == "" then "-" else . end),
		 ([.comparisons[] | select(.unit == "instructions/op" or .unit == "gc-instructions/op") | "\(.name | sub("^example.com/quiet Benchmark"; "")) \(.unit | sub("/op$"; "")) mde \(.mde | pct) spread \(.spread | pct) pairs \(.pair_spread | pct) \(.test) \(.verdict)"] | join("; "))]
		| @tsv' "$OUT/$1.json" >>"$OUT/summary.tsv" || printf '%s\t%s\t%s\t%s\t(no JSON)\n' "$1" "$2" "$3" "$4" >>"$OUT/summary.tsv"
	tail -1 "$OUT/summary.tsv" >&2
}
run() { # NAME HOGS ARGS...
	local name=$1 hogs=$2 load rc=0 start
	shift 2
	[ "$hogs" = 0 ] || CPU_HOGS=$hogs start_hogs
	load="$([ "$hogs" = 0 ] && echo quiet || echo "beside $hogs hog"), load $(cut -d' ' -f1 /proc/loadavg)"
	log "$name ($load): ab $*"
	start=$(date +%s)
	(cd "$OUT/head" && "$BIN" ab --base "$OUT/base" --bench . --packages . --format json "$@" \
		--report "$OUT/$name.md" >"$OUT/$name.json" 2>"$OUT/$name.err") || rc=$?
	stop_hogs
	summary "$name" "$load" "$rc" "$(($(date +%s) - start))"
}
case $MODE in
aa)
	for i in $(seq 1 "$RUNS"); do
		hogs=0
		[ $((i % 2)) = 0 ] && hogs=$CPU_HOGS
		run "aa-$i" "$hogs" --metric instructions --measure-all
	done
	;;
live)
	sed -i 's/^const live = 1$/const live = 2/' "$OUT/head/quiet.go"
	grep -q '^const live = 2$' "$OUT/head/quiet.go"
	run live 0 --measure-all
	;;
*) echo "usage: quiet.sh aa N | live" >&2; exit 2 ;;
esac
