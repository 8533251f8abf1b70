#!/usr/bin/env bash
# staged.sh — counting in stages (issue 40): msgpack/v5 v5.4.1's own 12
# benchmarks, the default `ab` (metric auto: counted, then the wall-time
# check) with an earlier wirebench (BEFORE: every benchmark counted in 5
# processes of each build) and with this tree's (3 first, the unsettled
# up to 5), run by run alternating: RUNS A/A runs (a copy of the module
# against itself, --measure-all, since an identical tree is otherwise not
# measured at all) and RUNS runs against a head whose StructMarshal does
# about PCT% more work a loop iteration (PER_STEP 8 instructions a step of
# the injected chain). Records per run the wall time, exit, verdict,
# StructMarshal's change, the other benchmarks flagged, the median
# detectable change of instructions/op and what the count's progress said
# it counted.
#
#   BEFORE=/path/to/old/wb docs/experiments/staged.sh OUT [RUNS] [PCT]
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${1:?usage: BEFORE=wb staged.sh OUT [RUNS] [PCT]}
RUNS=${2:-2}
PCT=${3:-2}
BEFORE=${BEFORE:?BEFORE: an earlier wirebench binary}
. "$REPO/docs/experiments/lib.sh"
mkdir -p "$OUT/bin"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
BENCH12='^Benchmark(StructMarshal|StructUnmarshal|StructManual|MapStringString|MapIntInt|StringSlice|ByteSlice|Int32|Float64|Bool|Time|Duration)$'
target=BenchmarkStructMarshal
dir=$(cd "$OUT" && go mod download -json github.com/vmihailenco/msgpack/v5@v5.4.1 | jq -r .Dir)
tree() { rm -rf "$1"; cp -r "$dir" "$1"; chmod -R u+w "$1"; }
tree "$OUT/base"
tree "$OUT/same"
tree "$OUT/inject"

summary() { # NAME JSON CODE WALL LOAD ERR
	python3 - "$@" "$target" <<'PY' | tee -a "$OUT/staged.tsv"
import json, re, statistics, sys
# A count whose pairs all differed by the same (exact: none to the
# instruction) detects any change: 0; a comparison with no test, inf.
def mde_of(c):
    if c["mde"] is not None:
        return c["mde"]
    return 0.0 if "differed by the same" in (c.get("note") or "") or "counted the same" in (c.get("note") or "") else float("inf")
name, path, code, wall, load, err, target = sys.argv[1:8]
d = json.load(open(path))
cs = [c for c in d["comparisons"] if c["unit"] == "instructions/op"]
t = [c for c in cs if c["name"].split()[-1] == target]
others = [c["name"].split()[-1] + " " + c["unit"] for c in d["comparisons"] if c["verdict"] in ("regression", "improvement") and c["name"].split()[-1] != target]
mde = statistics.median([mde_of(c) for c in cs]) if cs else float("nan")
tt = "-"
if t:
    c = t[0]
    tt = f"{100*(c['ratio']-1):+.2f}% [{100*(c['ci_low']-1):+.2f}, {100*(c['ci_high']-1):+.2f}] {c['verdict']}"
log = open(err).read()
said = re.findall(r"counting (\d+ benchmarks?)[^\n]* in (\d+) processes of each build", log)
rest = re.findall(r"(\d+ benchmarks?) not settled by (\d+) processes", log)
again = re.findall(r"(\d+ benchmarks?) counted as changed", log)
counted = f"{said[0][0]} in {said[0][1]}" if said else "-"
if rest:
    counted += f"; {rest[0][0]} up to 5"
if again:
    counted += f"; {again[0][0]} again"
print("\t".join([name, load, wall, code, d["verdict"], tt, ",".join(others) or "none", f"{100*mde:.3f}%", counted]))
PY
}
run() { # NAME BIN HEAD ARGS...
	local name=$1 bin=$2 head=$3 code=0
	shift 3
	local load start wall
	load=$(cut -d' ' -f1 /proc/loadavg)
	log "$name (load $load)"
	start=$(date +%s.%N)
	(cd "$head" && "$bin" ab --base "$OUT/base" --head "$head" --bench "$BENCH12" --packages . "$@" --format json >"$OUT/$name.json" 2>"$OUT/$name.err") || code=$?
	wall=$(echo "$(date +%s.%N) - $start" | bc)
	summary "$name" "$OUT/$name.json" "$code" "$(printf %.1f "$wall")" "$load" "$OUT/$name.err"
}

printf 'run\tload\twall_s\texit\tverdict\ttarget\tothers flagged\tmedian MDE\tcounted\n' >"$OUT/staged.tsv"
# Warm the build caches (both binaries build the same trees).
(cd "$OUT/base" && go test -c -o /dev/null . >/dev/null)
run warm "$OUT/bin/wb" "$OUT/same" --measure-all >/dev/null
inject_spin "$OUT/warm.json" "$target" "$PCT" "$OUT/inject/bench_test.go"
for i in $(seq 1 "$RUNS"); do
	run "before-aa-$i" "$BEFORE" "$OUT/same" --measure-all
	run "after-aa-$i" "$OUT/bin/wb" "$OUT/same" --measure-all
	run "before-inject-$i" "$BEFORE" "$OUT/inject"
	run "after-inject-$i" "$OUT/bin/wb" "$OUT/inject"
done
run "after-aa-default" "$OUT/bin/wb" "$OUT/same"
