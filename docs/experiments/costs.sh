#!/usr/bin/env bash
# costs.sh — what the default (metric auto: counted, and timed beside the
# count) costs on this machine, for four selections: a small module
# (.ci/quickstart-module, 2 benchmarks), twelve of msgpack/v5's
# benchmarks (v5.4.1 from the module proxy), a generated package of 100
# benchmarks (as gotest-walltime.sh makes it) and the embedded suite (84
# benchmarks). For each, the three steps the action runs, all A/A (the
# tree against a copy of itself), with warm build caches (one untimed
# build first):
#
#   ab      a pull request with a base checkout (same-runner A/B)
#   update  a push to the default branch (stored baseline, 1 run)
#   check   a pull request without one, against that baseline
#
# An A/A tree is identical to its base, so the default ab and check
# measure nothing (issue 40: identical test binaries are not measured):
# ab-all and check-all are the same steps with --measure-all, what a
# pull request that reaches every package costs.
#
#   docs/experiments/costs.sh [SELECTION...]   small msgpack hundred suite (default: all)
#
# Writes to OUT (default a new directory under /tmp) per step the JSON
# report, stderr and results, and costs.tsv: selection, step, exit, load
# (1-minute average before), wall seconds (GNU time), peak RSS MiB, the
# builds, the count's estimate and its time, the wall-time check's time,
# the longest silence on stderr (seconds between two lines). Run one at a
# time on a machine nothing else is measuring on.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-costs.XXXXXX)}
mkdir -p "$OUT/bin"
. "$REPO/docs/experiments/lib.sh"
need go jq valgrind /usr/bin/time
log "results in $OUT"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
SELECTIONS=${*:-small msgpack hundred suite}
BENCH12='^Benchmark(StructMarshal|StructUnmarshal|StructManual|MapStringString|MapIntInt|StringSlice|ByteSlice|Int32|Float64|Bool|Time|Duration)$'

# tree NAME: makes $OUT/NAME-base and $OUT/NAME-head, two copies of the
# selection's module, and sets args, the arguments that select its
# benchmarks.
tree() {
	local name=$1 side
	for side in base head; do
		rm -rf "${OUT:?}/$name-$side"
		case $name in
		small) cp -r "$REPO/.ci/quickstart-module" "$OUT/$name-$side" ;;
		msgpack)
			local dir
			dir=$(go mod download -json github.com/vmihailenco/msgpack/v5@v5.4.1 | jq -r .Dir)
			cp -r "$dir" "$OUT/$name-$side"
			chmod -R u+w "$OUT/$name-$side"
			;;
		hundred) hundred "$OUT/$name-$side" ;;
		suite) copy_tree "$OUT/$name-$side" ;;
		esac
	done
	case $name in
	small) args=(--bench .) ;;
	msgpack) args=(--bench "$BENCH12" --packages .) ;;
	hundred) args=(--bench . --packages .) ;;
	suite) args=() ;;
	esac
}

# hundred DIR: a package of 100 benchmarks, JSON of maps of growing size.
hundred() {
	local d=$1 i
	mkdir -p "$d"
	printf 'module example.com/hundred\n\ngo 1.22\n' >"$d/go.mod"
	printf 'package hundred\n' >"$d/hundred.go"
	{
		printf 'package hundred\n\nimport (\n\t"encoding/json"\n\t"strconv"\n\t"testing"\n)\n\n'
		printf 'func payload(n int) map[string]int {\n\tm := map[string]int{}\n\tfor i := 0; i < n; i++ {\n\t\tm["k"+strconv.Itoa(i)] = i\n\t}\n\treturn m\n}\n\n'
		for i in $(seq 1 100); do
			printf 'func BenchmarkJSON%03d(b *testing.B) {\n\tm := payload(%d)\n\tb.ReportAllocs()\n\tfor i := 0; i < b.N; i++ {\n\t\tif _, err := json.Marshal(m); err != nil {\n\t\t\tb.Fatal(err)\n\t\t}\n\t}\n}\n\n' "$i" "$i"
		done
	} >"$d/hundred_test.go"
}

# silence FILE: the longest gap, in seconds, between two lines of FILE
# (stamped by stamp).
silence() { awk '{t = $1; if (NR > 1 && t - p > m) m = t - p; p = t} END {printf "%.1f", m}' "$1"; }

# stamp: copies stdin to stdout, each line prefixed by the seconds since
# the epoch, to the millisecond.
stamp() { while IFS= read -r line; do printf '%s %s\n' "$(date +%s.%3N)" "$line"; done; }

# step SELECTION STEP DIR ARGS...: one timed wirebench command in DIR.
step() {
	local sel=$1 st=$2 dir=$3 load rc=0
	shift 3
	load=$(cut -d' ' -f1 /proc/loadavg)
	log "$sel $st (load $load): wb $*"
	local format=(--format json)
	[ "$st" = update ] && format=() # update prints its summary; its results go to --out
	(cd "$dir" && /usr/bin/time -f '%e %M' -o "$OUT/$sel-$st.time" "$OUT/bin/wb" "$@" "${format[@]}" >"$OUT/$sel-$st.json" \
		2> >(stamp >"$OUT/$sel-$st.err")) || rc=$?
	sleep 1 # the stamped stderr is written by a process of its own
	local wall rss builds estimate counting clock
	read -r wall rss < <(tail -1 "$OUT/$sel-$st.time") # GNU time says a failure's status first
	builds=$(grep -o 'built the [a-z]* ([^)]*) in [0-9.a-zµ]*' "$OUT/$sel-$st.err" | sed 's/.* in //' | paste -sd+ - || true)
	estimate=$(grep -o 'expected to take about [0-9a-z.]*' "$OUT/$sel-$st.err" | head -1 | sed 's/.* about //' || true)
	counting=$(grep -o 'counting [0-9.msh]* in [0-9]* processes' "$OUT/$sel-$st.err" | sed 's/counting \([^ ]*\).*/\1/' || true)
	[ -n "$counting" ] || counting=$(grep -o 'counted [^(]*([0-9]* of [0-9]* processes, [0-9ms]* elapsed)' "$OUT/$sel-$st.err" | tail -1 | sed 's/.*, \([0-9ms]*\) elapsed)/\1/' || true)
	if [ "$st" = update ]; then
		clock=$(jq -r 'if .clock == null then "-" else (.clock.settings.elapsed_ns / 1e9 | round | tostring) + " s" end' "$OUT/$sel-update-results.json" 2>/dev/null || echo -)
	else
		clock=$(jq -r 'if .clock == null then "-" else (.clock.elapsed_seconds | round | tostring) + " s" end' "$OUT/$sel-$st.json" 2>/dev/null || echo -)
	fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$sel" "$st" "$rc" "$load" "$wall" "$((rss / 1024))" "${builds:--}" "${estimate:--}" "${counting:--}" "$clock" "$(silence "$OUT/$sel-$st.err")" >>"$OUT/costs.tsv"
}

printf 'selection\tstep\texit\tload\twall s\tpeak RSS MiB\tbuilds\testimate\tcounting\twall-time check\tlongest silence s\n' >"$OUT/costs.tsv"
for sel in $SELECTIONS; do
	tree "$sel"
	# Warm the build cache (not timed).
	(cd "$OUT/$sel-head" && "$OUT/bin/wb" run "${args[@]}" --metric time --budget 1s >/dev/null 2>&1) || true
	step "$sel" ab "$OUT/$sel-head" ab --base "$OUT/$sel-base" "${args[@]}"
	step "$sel" update "$OUT/$sel-base" update "${args[@]}" --baseline "$OUT/$sel-baseline.json" --out "$OUT/$sel-update-results.json"
	step "$sel" check "$OUT/$sel-head" check "${args[@]}" --baseline "$OUT/$sel-baseline.json" --out "$OUT/$sel-check-results.json"
	step "$sel" ab-all "$OUT/$sel-head" ab --base "$OUT/$sel-base" "${args[@]}" --measure-all
	step "$sel" check-all "$OUT/$sel-head" check "${args[@]}" --baseline "$OUT/$sel-baseline.json" --out "$OUT/$sel-check-all-results.json" --measure-all
done
column -t -s "$(printf '\t')" "$OUT/costs.tsv" >&2 || cat "$OUT/costs.tsv" >&2
