#!/bin/sh
# stored-baseline-aa.sh — does `check` against a stored baseline cry wolf on
# unchanged code, and does it catch a real slowdown? (issue 14)
#
#  1. Builds wirebench from this tree into a temporary directory.
#  2. History: HISTORY_RUNS `update` runs of the default suite (quiet
#     machine, budget HISTORY_BUDGET) into a fresh baseline file.
#  3. A/A: AA_RUNS `check` runs of the same binary against that baseline:
#     every other run while CPU_HOGS CPU-heavy processes run (`yes`), and the
#     budgets of BUDGETS alternating in pairs, so that every combination of
#     load and budget occurs equally often.
#  4. Injected slowdown: a scratch copy of the tree (never committed, never
#     touching this checkout) whose one benchmark TARGET_OP of TARGET_CODEC
#     on TARGET_DATASET waits SLOWDOWN_PCT% of each operation's own time
#     after it (no extra allocation, so only timings can see it); INJECT_RUNS
#     `check` runs of it in the same pattern of load and budgets.
#  5. For every check: `compare --format json` of its results against the
#     baseline (the same judgement as the check), tallied in summary.tsv and
#     printed.
#
# Everything it writes goes to OUT (default: a new directory under /tmp);
# nothing in the repository changes. With the defaults it takes about
# 35 to 45 minutes (5 history runs of 60 s, 30 checks of 20 or 60 s, a
# second measurement in checks that find a timing regression, warm-up and
# builds). It needs go and jq. Read README.md next to it for how to read the
# results.
set -eu

HISTORY_RUNS=${HISTORY_RUNS:-5}
HISTORY_BUDGET=${HISTORY_BUDGET:-60s}
AA_RUNS=${AA_RUNS:-20}
INJECT_RUNS=${INJECT_RUNS:-10}
BUDGETS=${BUDGETS:-"20s 60s"}
CPU_HOGS=${CPU_HOGS:-1}
TARGET_CODEC=${TARGET_CODEC:-protobuf}
TARGET_DATASET=${TARGET_DATASET:-floats-64k}
TARGET_OP=${TARGET_OP:-serialize}
SLOWDOWN_PCT=${SLOWDOWN_PCT:-20}
# FILTER restricts the suite (the experiment is of the whole default suite;
# a filter of a few small benchmarks, with short budgets, only tries the
# script out in seconds).
FILTER=${FILTER:-}

REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-aa.XXXXXX)}
mkdir -p "$OUT/bin"
# The commit the runs record (wirebench reads it from GITHUB_SHA when set):
# every run of the clean binary measures the same code, so the history's
# runs are replicates of the reference; the slowed binary is other code.
COMMIT=${COMMIT:-$(git -C "$REPO" rev-parse HEAD 2>/dev/null || echo unknown)}

. "$REPO/docs/experiments/lib.sh"
need go jq yes
TARGET=$(target "$TARGET_OP" "$TARGET_CODEC" "$TARGET_DATASET")

# pick N WORD...: the Nth of the words (N from 1), cycling. (sh has no
# local variables: every function here names its own.)
pick() {
	pick_n=$1
	shift
	eval "echo \${$(((pick_n - 1) % $# + 1))}"
}

# build_clean builds wirebench from the tree as it is.
build_clean() {
	log "building wirebench from $REPO"
	(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
}

# build_slowed builds wirebench from a scratch copy of the tree in which the
# target benchmark waits SLOWDOWN_PCT% of each operation's time after it
# (inject.sh).
build_slowed() {
	scratch="$OUT/scratch-tree"
	"$REPO/docs/experiments/inject.sh" "$scratch" "$SLOWDOWN_PCT" "$TARGET_CODEC" "$TARGET_DATASET" "$TARGET_OP"
	mv "$scratch.diff" "$OUT/injection.diff"
	log "building the slowed copy ($TARGET +$SLOWDOWN_PCT%) in $scratch"
	(cd "$scratch" && go build -buildvcs=false -o "$OUT/bin/wb-slowed" ./cmd/wirebench)
}

# check_run PHASE I BINARY COMMIT: one check, loaded on odd I, with the
# budget of pair (I+1)/2; then its comparison as JSON.
check_run() {
	cr_phase=$1 cr_i=$2 cr_bin=$3 cr_commit=$4
	cr_load=$((cr_i % 2))
	# shellcheck disable=SC2086 # BUDGETS is a list of words
	cr_budget=$(pick $(((cr_i + 1) / 2)) $BUDGETS)
	cr_name="$cr_phase-$cr_i"
	log "$cr_name: check, budget $cr_budget, $([ "$cr_load" = 1 ] && echo "with $CPU_HOGS CPU hog(s)" || echo quiet)"
	if [ "$cr_load" = 1 ]; then start_hogs; fi
	cr_rc=0
	(cd "$OUT" && GITHUB_SHA=$cr_commit "$cr_bin" check --baseline "$OUT/baseline.json" --budget "$cr_budget" --filter "$FILTER" \
		--out "$OUT/$cr_name.results.json" --report "$OUT/$cr_name.md" >"$OUT/$cr_name.txt" 2>"$OUT/$cr_name.err") || cr_rc=$?
	stop_hogs
	"$OUT/bin/wb" compare --format json "$OUT/baseline.json" "$OUT/$cr_name.results.json" >"$OUT/$cr_name.json" 2>>"$OUT/$cr_name.err" || true
	tally "$cr_phase" "$cr_i" "$cr_load" "$cr_budget" "$cr_rc" "$OUT/$cr_name.json"
}

# tally appends one line to summary.tsv.
tally() {
	jq -r --arg phase "$1" --arg i "$2" --arg load "$3" --arg budget "$4" --arg rc "$5" --arg target "$TARGET" '
		def pct: if . == null then "-" else (. * 1000 | round / 10 | tostring) + "%" end;
		([.comparisons[] | select(.name == $target and .unit == "ns/op")][0]) as $t
		| [$phase, $i, (if $load == "1" then "loaded" else "quiet" end), $budget, $rc, .verdict,
		   "\(.judged.timings_gated)/\(.judged.timings)", (.judged.timings_inconclusive | tostring),
		   (.judged.timings_not_enforced | tostring), (.judged.timings_median_mde | pct),
		   ([.comparisons[] | select(.verdict == "regression" and .enforced and (.unconfirmed | not))] | length | tostring),
		   ([.comparisons[] | select(.verdict == "regression" and .enforced and (.unconfirmed | not) and .name != $target)] | length | tostring),
		   ([.comparisons[] | select(.verdict == "regression" and .enforced) | "\(.name | sub("^Benchmark"; "")) \(.unit) \(.change | pct)\(if .unconfirmed then " (not reproduced)" else "" end)"] | join("; ")),
		   (if $t == null then "-" else "\($t.verdict)\(if ($t.enforced | not) then " (not enforced)" elif $t.unconfirmed then " (not reproduced)" else "" end) \($t.change | pct) mde \($t.mde | pct)" end)]
		| @tsv' "$6" >>"$OUT/summary.tsv"
}

printf 'phase\trun\tload\tbudget\texit\tverdict\ttimings gated\tinconclusive\tnot enforced\tmedian MDE\tfailing regressions\tof them not the target\tregressions enforced (re-measured)\ttarget (%s ns/op)\n' "$TARGET" >"$OUT/summary.tsv"
log "results in $OUT"
build_clean
build_slowed

history "$HISTORY_RUNS" --budget "$HISTORY_BUDGET" --filter "$FILTER"

run_n=1
while [ "$run_n" -le "$AA_RUNS" ]; do
	check_run aa "$run_n" "$OUT/bin/wb" "$COMMIT"
	run_n=$((run_n + 1))
done
run_n=1
while [ "$run_n" -le "$INJECT_RUNS" ]; do
	check_run injected "$run_n" "$OUT/bin/wb-slowed" "$COMMIT-slowed"
	run_n=$((run_n + 1))
done

column -t -s "$(printf '\t')" "$OUT/summary.tsv" 2>/dev/null || cat "$OUT/summary.tsv"
awk -F '\t' -v target="$TARGET" -v pct="$SLOWDOWN_PCT" '
	NR == 1 { next }
	$1 == "aa" { aa++; if ($5 != 0) aafail++; split($7, g, "/"); gated += g[1]; timings += g[2]; if ($11 > 0) aafalse++ }
	$1 == "injected" { inj++; if ($5 == 1) injfail++; if ($14 ~ /^regression [^(]/) caught++; if ($14 ~ /^regression \(/) reported++; if ($12 > 0) injfalse++ }
	END {
		printf "\nA/A: %d of %d checks failed (exit != 0); %d had a regression that failed it; %d of %d timing comparisons gated\n", aafail, aa, aafalse, gated, timings
		printf "injected +%s%% on %s: caught (a regression that failed the check) in %d of %d checks, reported but not enforced or not reproduced in %d; %d checks failed; %d had a failing regression of another benchmark\n", pct, target, caught, inj, reported, injfail, injfalse
	}' "$OUT/summary.tsv" | tee -a "$OUT/experiment.log"
log "done: $OUT/summary.tsv, per run: NAME.txt (the check's output), NAME.md (its report), NAME.json (the comparison)"
