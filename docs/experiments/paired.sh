#!/usr/bin/env bash
# Counted precision on a real module's own benchmarks (issue 33): the
# same-runner counted A/B (`wirebench ab --metric instructions`) of a
# module's zip from the Go module proxy against a copy of itself (A/A),
# and against a copy whose TARGET benchmark does about PCT% more work a
# loop iteration (a dependent multiply-add chain, sized from the A/A's
# count of TARGET at PER_STEP instructions a step: 8, measured on the
# first runs, which took 4 and injected 1.7-2.0% for "1%"). With AA 0 the
# count comes from an earlier series' aa-1.json, copied into OUT first.
#
#   docs/experiments/paired.sh MODULE@VERSION BENCH TARGET FILE AA INJECT [PCT]
#
# FILE is the _test.go file that holds TARGET. EXTRA="--threshold 0.5%"
# passes more flags to every ab run. BEFORE=path runs the A/A
# runs with another wirebench binary too (an earlier commit's), once
# each first. summary.tsv: per run, the verdict, TARGET's change,
# interval, test and verdict, the other benchmarks flagged, the median
# detectable change (MDE) of instructions/op over the benchmarks, and
# the median spread between processes and within pairs; the same of
# gc-instructions/op, and every inconclusive comparison.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/wirebench-paired}
. "$REPO/docs/experiments/lib.sh"
[ $# -ge 6 ] || { echo "usage: $0 MODULE@VERSION BENCH TARGET FILE AA INJECT [PCT]" >&2; exit 2; }
module=$1 bench=$2 target=$3 file=$4 aa=$5 inject=$6 pct=${7:-1}
mkdir -p "$OUT/bin"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
dir=$(cd "$OUT" && go mod download -json "$module" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
tree() { rm -rf "$1"; cp -r "$dir" "$1"; chmod -R u+w "$1"; }
tree "$OUT/base"; tree "$OUT/head"
summary() { # summary NAME JSON CODE
	python3 - "$@" "$target" <<'PY' | tee -a "$OUT/summary.tsv"
import json, statistics, sys
# A count whose pairs all differed by the same (exact: none to the
# instruction) detects any change: 0; a comparison with no test, inf.
def mde_of(c):
    if c["mde"] is not None:
        return c["mde"]
    return 0.0 if "differed by the same" in (c.get("note") or "") or "counted the same" in (c.get("note") or "") else float("inf")
name, path, code, target = sys.argv[1:5]
try:
    d = json.load(open(path))
except Exception as e:
    print(f"{name}\tcode={code}\tno comparison ({e})"); sys.exit()
cs = [c for c in d["comparisons"] if c["unit"] == "instructions/op"]
t = [c for c in cs if c["name"].split()[-1] == target]
others = [c["name"].split()[-1] for c in cs if c["verdict"] in ("regression", "improvement") and c["name"].split()[-1] != target]
mde = statistics.median([mde_of(c) for c in cs])
sp = statistics.median([c.get("spread", 0) for c in cs])
wp = [c.get("pair_spread", 0) for c in cs if c.get("test") == "paired-t"]
tt = "-"
if t:
    c = t[0]
    tt = f"{100*(c['ratio']-1):+.2f}% [{100*(c['ci_low']-1):+.2f}, {100*(c['ci_high']-1):+.2f}] {c['test']} {c['verdict']}"
worst = max([mde_of(c) for c in cs])
gc = [c for c in d["comparisons"] if c["unit"] == "gc-instructions/op"]
gct = "no gc-instructions/op"
if gc:
    gm = [mde_of(c) for c in gc]
    gflag = [c["name"].split()[-1] for c in gc if c["verdict"] in ("regression", "improvement")]
    gwp = [c.get("pair_spread", 0) for c in gc if c.get("test") == "paired-t"]
    gct = f"gc-instructions/op: {len(gc)} benchmarks, median MDE {100*statistics.median(gm):.3f}%, worst {100*max(gm):.3f}%, within pairs {100*statistics.median(gwp) if gwp else float('nan'):.3f}%, flagged {','.join(gflag) or 'none'}"
inc = [f"{c['name'].split()[-1]} {c['unit']}" for c in d["comparisons"] if c["verdict"] == "inconclusive"]
print(f"{name}\tcode={code}\t{d['verdict']}\t{target} {tt}\tothers flagged: {','.join(others) or 'none'}\tmedian MDE {100*mde:.3f}%\tworst {100*worst:.3f}%\tspread {100*sp:.3f}%\twithin pairs {100*statistics.median(wp) if wp else float('nan'):.3f}%\t{len(cs)} benchmarks\t{gct}\tinconclusive: {', '.join(inc) or 'none'}")
PY
}
run() { # run NAME BIN HEAD
	local code=0
	(cd "$3" && "$2" ab --base "$OUT/base" --bench "$bench" --metric instructions ${EXTRA:-} --format json > "$OUT/$1.json" 2> "$OUT/$1.log") || code=$?
	summary "$1" "$OUT/$1.json" "$code"
}
: > "$OUT/summary.tsv"
if [ -n "${BEFORE:-}" ]; then
	for i in $(seq 1 "${BEFORE_RUNS:-1}"); do log "before: A/A $i"; run "before-aa-$i" "$BEFORE" "$OUT/head"; done
fi
for i in $(seq 1 "$aa"); do log "A/A $i"; run "aa-$i" "$OUT/bin/wb" "$OUT/head"; done
inject_spin "$OUT/aa-1.json" "$target" "$pct" "$OUT/head/$file"
for i in $(seq 1 "$inject"); do log "+$pct% in $target: $i"; run "inject-$i" "$OUT/bin/wb" "$OUT/head"; done
