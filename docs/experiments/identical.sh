#!/usr/bin/env bash
# identical.sh — what a change can reach is what ab measures (issue 40).
# Writes a module of 6 packages of 8 benchmarks each (p2 imports p1; all
# import helper), then two heads: "leaf" makes one benchmark of p6 do 3%
# more work, "helper" changes a constant of the helper every package
# imports (the same work, another binary). Runs the default `ab` (metric
# auto: counted, then the wall-time check) of each, back to back, and
# records wall time, verdict and what was identical. PACKAGES (default 6)
# makes a module of that many packages instead (p2 still imports p1). The
# base is built once first, untimed (an `ab` of the base against itself,
# which measures nothing), so that neither head's run pays the base's
# first build; AB_ONLY=1 skips the stored baseline's steps.
# Usage: identical.sh OUT   (OUT: a scratch directory)
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: identical.sh OUT}
mkdir -p "$OUT"
. "$REPO/docs/experiments/lib.sh"
need go valgrind /usr/bin/time

(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)

module() { # DIR LEAFWORK HELPERMUL
	rm -rf "$1"; mkdir -p "$1/helper"
	printf 'module example.com/six\n\ngo 1.22\n' >"$1/go.mod"
	cat >"$1/helper/helper.go" <<GO
package helper

// Mix is n steps of a dependent multiply-add chain.
func Mix(x uint64, n int) uint64 {
	for i := 0; i < n; i++ {
		x = x*$3 + uint64(i)
	}
	return x
}
GO
	for p in $(seq 1 "${PACKAGES:-6}"); do
		mkdir -p "$1/p$p"
		imp='"example.com/six/helper"'
		call="helper.Mix(uint64(i), n)"
		if [ $p = 2 ]; then imp="\"example.com/six/p1\""; call="p1.Work(i, n)"; fi
		printf 'package p%s\n\nimport (%s)\n\n// Work is n steps of work.\nfunc Work(i, n int) uint64 { return %s }\n' "$p" "$imp" "$call" >"$1/p$p/p$p.go"
		{
			printf 'package p%s\n\nimport "testing"\n\nvar sink uint64\n' "$p"
			for b in 1 2 3 4 5 6 7 8; do
				n=$((1000 + 100 * b))
				if [ $p = 6 ] && [ $b = 3 ]; then n=$(( n * $2 / 100 )); fi
				printf '\nfunc BenchmarkW%s(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += Work(i, %s)\n\t}\n}\n' "$b" "$n"
			done
		} >"$1/p$p/p${p}_test.go"
		gofmt -w "$1/p$p"
	done
}

module "$OUT/base" 100 6364136223846793005
module "$OUT/leaf" 103 6364136223846793005
module "$OUT/helper" 100 6364136223846793007
(cd "$OUT/base" && go vet ./...)

printf 'mode\thead\tload\twall_s\texit\tverdict\tregressions\tidentical\tcomparisons\n' >"$OUT/identical.tsv"
one() { # MODE HEAD ARGS...
	local mode=$1 head=$2
	shift 2
	load=$(cut -d' ' -f1 /proc/loadavg)
	log "$mode $head (load $load)"
	start=$(date +%s.%N)
	set +e
	(cd "$OUT/$head" && "$OUT/bin/wb" "$mode" "$@" --bench . --format json >"$OUT/$mode-$head.json" 2>"$OUT/$mode-$head.err")
	code=$?
	set -e
	wall=$(echo "$(date +%s.%N) - $start" | bc)
	python3 - "$OUT/$mode-$head.json" "$mode" "$head" "$load" "$wall" "$code" >>"$OUT/identical.tsv" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
regs = [c["name"] + " " + c["unit"] for c in d["comparisons"] if c["verdict"] == "regression"]
print("\t".join([sys.argv[2], sys.argv[3], sys.argv[4], "%.1f" % float(sys.argv[5]), sys.argv[6], d["verdict"],
	";".join(regs) or "-", str(d["counts"]["identical"]), str(d["counts"]["comparisons"])]))
PY
	tail -1 "$OUT/identical.tsv" >&2
}
log "warm-up: the base's build (ab of the base against itself, untimed)"
(cd "$OUT/base" && "$OUT/bin/wb" ab --base "$OUT/base" --bench . >/dev/null 2>"$OUT/warm-up.err")
for head in leaf helper; do
	one ab "$head" --base "$OUT/base" --head "$OUT/$head"
done
[ -z "${AB_ONLY:-}" ] || exit 0
# A stored baseline: one update of the base (it measures everything),
# then check of each head against it.
load=$(cut -d' ' -f1 /proc/loadavg)
log "update base (load $load)"
start=$(date +%s.%N)
(cd "$OUT/base" && "$OUT/bin/wb" update --bench . --baseline "$OUT/baseline.json" >"$OUT/update.out" 2>"$OUT/update.err")
log "update: $(echo "$(date +%s.%N) - $start" | bc) s"
for head in leaf helper; do
	one check "$head" --baseline "$OUT/baseline.json" --out "$OUT/check-$head.results.json"
done
