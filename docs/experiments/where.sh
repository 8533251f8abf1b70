#!/bin/sh
# where.sh — where the work of a counted change went (issue 30): the
# functions wirebench names behind each counted regression and
# improvement, checked, and what keeping them costs.
#
#   docs/experiments/where.sh module        docs/experiments/where (example.com/where),
#                                           whose head's checksum helper does a quarter
#                                           more work: `ab` (base against head), then
#                                           `update` of the base and `check` of the head
#                                           (a stored baseline); each must name
#                                           example.com/where.checksum first, explain
#                                           about all of BenchmarkEncode's change, and name
#                                           no other function as grown
#   docs/experiments/where.sh msgpack [OLD] msgpack/v5 OLD (default v5.3.5) against
#                                           v5.4.1, counted (gotest-msgpack.sh versions),
#                                           then for its largest counted changes (flagged,
#                                           or inconclusive beyond the 1% floor: the JSON
#                                           report says where those went too) what
#                                           wirebench named beside callgrind_annotate's
#                                           self costs of the same kept dumps, by hand;
#                                           v5.0.0 has a flagged one (MapIntInt -9.9%)
#   docs/experiments/where.sh cost          counting with the per-function profiles
#                                           (this tree) against without (BASE, default
#                                           the merge base with main): `update` of the
#                                           default suite and of msgpack's 12 benchmarks,
#                                           RUNS (2) of each binary in turn, and of a
#                                           generated package of 100 benchmarks once;
#                                           counting's time and the baseline's size
#
# METRIC (default instructions: counted only) passes to wirebench. Writes
# to OUT (default a new directory under /tmp); each mode ends with its
# summary on stderr (module: verdicts.txt, msgpack: msgpack.txt, cost:
# cost.tsv). Needs go, jq, valgrind (cg_diff, cg_annotate,
# callgrind_annotate); msgpack also python3 and bash. Run one at a time on
# a machine nothing else is measuring on.
set -eu
MODE=${1:?usage: where.sh module | msgpack [OLD] | cost}
METRIC=${METRIC:-instructions}
RUNS=${RUNS:-2}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-where.XXXXXX)}
mkdir -p "$OUT/bin"
. "$REPO/docs/experiments/lib.sh"
need go jq valgrind cg_diff cg_annotate callgrind_annotate
log "results in $OUT"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)

# where NAME: the counted changes of NAME.json and the functions behind
# each (TSV: benchmark, unit, change, function, base → head per op,
# share, appeared/gone/bounded, explained).
where() {
	jq -r '
		def pct: if . == null then "-" else (. * 1000 | round / 10 | tostring) + "%" end;
		.comparisons[] | select(.where != null)
		| . as $c
		| (.where.functions[] | [($c.name | sub("^.*Benchmark"; "")), $c.unit, ($c.change | pct), .function,
			"\(if .baseline_at_most then "≤" else "" end)\(.baseline) → \(if .candidate_at_most then "≤" else "" end)\(.candidate)",
			(.share | pct), (if .appeared then "appeared" elif .disappeared then "gone" else "" end), ($c.where.explained | pct)])
		| @tsv' "$OUT/$1.json"
}

# verdict NAME: whether NAME.json names example.com/where.checksum first
# for BenchmarkEncode, its functions explain 90-110% of the change, and no
# other function grew; and the command the report gives for the dumps,
# run where it says (its output in NAME.dumps.txt).
verdict() {
	jq -r --arg run "$1" '
		[.comparisons[] | select((.name | endswith("BenchmarkEncode")) and .where != null)][0] as $e
		| if $e == null then "\($run): FAIL no counted change of BenchmarkEncode with a where"
		  else ($e.where.functions) as $f
		  | [($f[0].function == "example.com/where.checksum"),
		     ($e.where.explained > 0.9 and $e.where.explained < 1.1),
		     ([$f[1:][] | select(.change > 0)] | length == 0)] as $ok
		  | "\($run): \(if ($ok | all) then "PASS" else "FAIL" end) BenchmarkEncode \($e.unit) \($e.change * 1000 | round / 10)%: first \($f[0].function) (\($f[0].share * 100 | round)%), explained \($e.where.explained * 100 | round)%, others grown: \([$f[1:][] | select(.change > 0) | .function] | join(", ") | if . == "" then "none" else . end); other benchmarks flagged: \([.comparisons[] | select((.verdict == "regression" or .verdict == "improvement") and (.name | endswith("BenchmarkEncode") | not)) | .name] | join(", ") | if . == "" then "none" else . end)"
		  end' "$OUT/$1.json" | tee -a "$OUT/verdicts.txt" >&2
	dumps=$(jq -r '[.comparisons[] | select((.name | endswith("BenchmarkEncode")) and .where.dumps != null)][0].where | "\(.dumps)\t\(.open)"' "$OUT/$1.json")
	dir=${dumps%%	*} cmd=${dumps#*	}
	case $dir in /*) ;; *) dir="$2/$dir" ;; esac
	if [ -d "$dir" ]; then
		(cd "$dir" && sh -c "$cmd" >"$OUT/$1.dumps.txt" 2>&1) || true
		log "$1: $cmd in $dir: $OUT/$1.dumps.txt"
	else
		log "$1: no dumps kept ($dumps)"
	fi
}

case $MODE in
module)
	for side in base head; do
		rm -rf "${OUT:?}/$side"
		cp -r "$REPO/docs/experiments/where" "$OUT/$side"
	done
	sed -i 's/^const more = false$/const more = true/' "$OUT/head/enc.go"
	mkdir -p "$OUT/ab" "$OUT/check"
	log "ab: base against head"
	(cd "$OUT/head" && "$OUT/bin/wb" ab --base "$OUT/base" --bench . --metric "$METRIC" \
		--format json --report "$OUT/ab/report.md" >"$OUT/ab.json" 2>"$OUT/ab.err") || true
	where ab >"$OUT/ab.where.tsv"
	verdict ab "$OUT/head"
	log "update: the base into baseline.json"
	(cd "$OUT/base" && "$OUT/bin/wb" update --bench . --baseline "$OUT/baseline.json" --metric "$METRIC" \
		--out "$OUT/update.results.json" >"$OUT/update.txt" 2>"$OUT/update.err")
	log "check: the head against baseline.json"
	(cd "$OUT/head" && "$OUT/bin/wb" check --bench . --baseline "$OUT/baseline.json" --metric "$METRIC" \
		--format json --out "$OUT/check/results.json" --report "$OUT/check/report.md" >"$OUT/check.json" 2>"$OUT/check.err") || true
	where check >"$OUT/check.where.tsv"
	verdict check "$OUT/head"
	printf 'baseline.json: %s bytes, %s without its profiles\n' "$(wc -c <"$OUT/baseline.json")" \
		"$(jq --indent 1 'del(.reference.benchmarks[].profile)' "$OUT/baseline.json" | wc -c)" | tee -a "$OUT/verdicts.txt" >&2
	for run in ab check; do
		printf '\n%s:\n' "$run" >&2
		column -t -s "$(printf '\t')" "$OUT/$run.where.tsv" >&2 || cat "$OUT/$run.where.tsv" >&2
	done
	;;
msgpack)
	old=${2:-v5.3.5}
	need bash python3
	log "msgpack $old against v5.4.1, counted (gotest-msgpack.sh versions)"
	WORK="$OUT/msgpack" METRIC=$METRIC BUDGET= bash "$REPO/docs/experiments/gotest-msgpack.sh" versions "$old" >&2
	dir="$OUT/msgpack/versions"
	[ "$old" = v5.3.5 ] || dir="$OUT/msgpack/versions-$old"
	cp "$dir/run-1.json" "$OUT/msgpack.json"
	where msgpack >"$OUT/msgpack.where.tsv"
	# By hand: for the largest counted changes, callgrind_annotate's self
	# cost of each function wirebench named, in the kept block of each
	# build (its threads' files summed), and the block's total: the
	# function's share of the block's change beside wirebench's share.
	jq -r '[.comparisons[] | select(.where != null and .where.dumps != null)] | sort_by(if .change < 0 then .change else -.change end) | .[:3][]
		| "\(.name)\t\(.where.dumps)\t\([.where.functions[] | .symbol] | join("\u0001"))"' "$OUT/msgpack.json" |
		while IFS="$(printf '\t')" read -r name dumps symbols; do
			case $dumps in /*) ;; *) dumps="$dir/$dumps" ;; esac
			printf '\n%s (%s)\n' "$name" "$dumps"
			(cd "$dumps" && sh -c "$(jq -r --arg n "$name" '.comparisons[] | select(.name == $n and .where != null) | .where.open' "$OUT/msgpack.json")" >cg_diff.txt 2>&1) || true
			for side in base head; do
				for f in "$dumps/$side"/block/callgrind.out.*; do # the timer method's block
					callgrind_annotate --threshold=100 --auto=no --show-percs=no "$f"
				done >"$dumps/$side.annotate.txt"
			done
			python3 - "$dumps" "$symbols" <<'PY'
import re, sys
dumps, symbols = sys.argv[1], sys.argv[2].split("\x01")
def read(path):
    # callgrind_annotate rows: "12,345  file:function [object]", per
    # thread file; the total is theirs (PROGRAM TOTALS is the summary:
    # line, which can disagree with the totals, docs/counted.md)
    self = {}
    for line in open(path):
        m = re.match(r"\s*([\d,]+)\s+(.*)$", line)
        if not m or m.group(2) == "PROGRAM TOTALS":
            continue
        v, rest = int(m.group(1).replace(",", "")), m.group(2)
        fn = rest.split(":", 1)[1] if ":" in rest else rest
        fn = re.sub(r" \[[^]]*\]$", "", fn)
        self[fn] = self.get(fn, 0) + v
    return self, sum(self.values())
(b, bt), (h, ht) = read(dumps + "/base.annotate.txt"), read(dumps + "/head.annotate.txt")
print(f"  callgrind_annotate, the kept blocks: total {bt:,} -> {ht:,} ({ht - bt:+,})")
for s in symbols:
    d = h.get(s, 0) - b.get(s, 0)
    share = d / (ht - bt) if ht != bt else float("nan")
    print(f"  {s}: {b.get(s, 0):,} -> {h.get(s, 0):,} ({d:+,}, {100 * share:.0f}% of the block's change)")
PY
		done >"$OUT/msgpack-by-hand.txt"
	{
		printf 'wirebench (medians over processes, per op):\n'
		column -t -s "$(printf '\t')" "$OUT/msgpack.where.tsv" || cat "$OUT/msgpack.where.tsv"
		cat "$OUT/msgpack-by-hand.txt"
	} | tee "$OUT/msgpack.txt" >&2
	;;
cost)
	BASE=${BASE:-$(git -C "$REPO" merge-base HEAD main)}
	log "without the profiles: $BASE"
	rm -rf "$OUT/without-src"
	mkdir -p "$OUT/without-src"
	git -C "$REPO" archive "$BASE" | tar -x -C "$OUT/without-src"
	(cd "$OUT/without-src" && go build -o "$OUT/bin/without" ./cmd/wirebench)
	cp "$OUT/bin/wb" "$OUT/bin/with"
	# msgpack v5.4.1 (the module proxy) and the package of 100
	# benchmarks of gotest-walltime.sh.
	mp=$(go mod download -json github.com/vmihailenco/msgpack/v5@v5.4.1 | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
	rm -rf "$OUT/msgpack"
	cp -r "$mp" "$OUT/msgpack"
	chmod -R u+w "$OUT/msgpack"
	BENCH12='^Benchmark(StructMarshal|StructUnmarshal|StructManual|MapStringString|MapIntInt|StringSlice|ByteSlice|Int32|Float64|Bool|Time|Duration)$'
	h="$OUT/hundred"
	rm -rf "$h"
	mkdir -p "$h"
	printf 'module example.com/hundred\n\ngo 1.22\n' >"$h/go.mod"
	printf 'package hundred\n' >"$h/hundred.go"
	{
		printf 'package hundred\n\nimport (\n\t"encoding/json"\n\t"strconv"\n\t"testing"\n)\n\n'
		printf 'func payload(n int) map[string]int {\n\tm := map[string]int{}\n\tfor i := 0; i < n; i++ {\n\t\tm["k"+strconv.Itoa(i)] = i\n\t}\n\treturn m\n}\n\n'
		for i in $(seq 1 100); do
			printf 'func BenchmarkJSON%03d(b *testing.B) {\n\tm := payload(%d)\n\tb.ReportAllocs()\n\tfor i := 0; i < b.N; i++ {\n\t\tif _, err := json.Marshal(m); err != nil {\n\t\t\tb.Fatal(err)\n\t\t}\n\t}\n}\n\n' "$i" "$i"
		done
	} >"$h/hundred_test.go"
	printf 'what\tbinary\trun\tload\tseconds\tcounting seconds\tresults bytes\tbaseline bytes\tbaseline profile functions\n' >"$OUT/cost.tsv"
	# one WHAT BIN RUN DIR ARGS...: update a fresh baseline with BIN in DIR.
	one() {
		what=$1 bin=$2 run=$3 dir=$4
		shift 4
		name="$what-$bin-$run"
		load=$(cut -d' ' -f1 /proc/loadavg)
		log "$name (load $load): update $*"
		rm -f "$OUT/$name.baseline.json"
		start=$(date +%s)
		(cd "$dir" && "$OUT/bin/$bin" update --metric "$METRIC" --baseline "$OUT/$name.baseline.json" --out "$OUT/$name.results.json" "$@" \
			>"$OUT/$name.txt" 2>"$OUT/$name.err") || log "$name failed: $OUT/$name.err"
		secs=$(($(date +%s) - start))
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$what" "$bin" "$run" "$load" "$secs" \
			"$(jq '.settings.elapsed_ns / 1e9 | round' "$OUT/$name.results.json" 2>/dev/null || echo -)" \
			"$(wc -c <"$OUT/$name.results.json" 2>/dev/null || echo -)" "$(wc -c <"$OUT/$name.baseline.json" 2>/dev/null || echo -)" \
			"$(jq '[.reference.benchmarks[].profile.functions // [] | length] | add' "$OUT/$name.baseline.json" 2>/dev/null || echo -)" >>"$OUT/cost.tsv"
	}
	# The two binaries in turn, the order swapped every run, so that the
	# machine's drift falls on both.
	run=1
	while [ "$run" -le "$RUNS" ]; do
		if [ $((run % 2)) = 1 ]; then order="without with"; else order="with without"; fi
		for bin in $order; do one suite "$bin" "$run" "$OUT"; done
		for bin in $order; do one msgpack12 "$bin" "$run" "$OUT/msgpack" --bench "$BENCH12" --packages .; done
		run=$((run + 1))
	done
	for bin in without with; do one hundred "$bin" 1 "$h" --bench . --packages .; done
	column -t -s "$(printf '\t')" "$OUT/cost.tsv" >&2 || cat "$OUT/cost.tsv" >&2
	;;
*) echo "usage: where.sh module | msgpack [OLD] | cost" >&2; exit 2 ;;
esac
