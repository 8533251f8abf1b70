#!/usr/bin/env bash
# The same-runner A/B mode on a real third-party library's own benchmarks:
# github.com/vmihailenco/msgpack/v5, two released versions from the Go
# module proxy (module zips carry the _test.go files). Nothing of the
# library is committed: the trees are made under $WORK from the module
# cache, and the injected slowdowns are edits of a scratch copy.
#
#   docs/experiments/gotest-msgpack.sh aa N        A/A: v5.4.1 against itself, N runs
#   docs/experiments/gotest-msgpack.sh versions [OLD]  OLD (default v5.3.5) against
#                                                 v5.4.1, once, all benchmarks (v5.0.0
#                                                 lacks four of v5.4.1's); table.tsv has
#                                                 every benchmark's change
#   docs/experiments/gotest-msgpack.sh inject PCT N  v5.4.1 against a copy whose
#                                                 BenchmarkStructMarshal spins PCT% longer
#
# FIRST=K continues an interrupted aa or inject series at run K, with the
# trees (and the injection's calibration) the series started with.
#
# Each run writes run-*.json (the comparison), run-*.md (the report) and
# run-*.log (progress) to
# $WORK/<mode>/; summary.tsv has one line per run: the run, the verdict,
# the injected benchmark's ns/op change and interval and verdict, the other
# timings enforced as regressions, the offsets between generations.
# Run one at a time on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=${WORK:-/tmp/wirebench-msgpack}
. docs/experiments/lib.sh # spin_func
# BUDGET set empty gives wirebench its own default (with METRIC auto: the
# wall-time check's budget, a fifth of the count's time).
BUDGET=${BUDGET-90s}
# METRIC is what measures: time (the A/B engine's timed blocks, as the
# runs in docs/lab/your-benchmarks.md were made) or instructions or cycles
# (counted under callgrind, docs/counted.md).
METRIC=${METRIC:-time}
export METRIC
# Twelve of the library's benchmarks: structs, maps, slices, numbers.
BENCH=${BENCH:-'^Benchmark(StructMarshal|StructUnmarshal|StructManual|MapStringString|MapIntInt|StringSlice|ByteSlice|Int32|Float64|Bool|Time|Duration)$'}
TARGET=BenchmarkStructMarshal
FIRST=${FIRST:-1}
mkdir -p "$WORK"
go build -o "$WORK/wirebench" ./cmd/wirebench

tree() { # tree VERSION DIR: a writable copy of the module at VERSION
  local dir
  dir=$(go mod download -json "github.com/vmihailenco/msgpack/v5@$1" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
  rm -rf "$2"; cp -r "$dir" "$2"; chmod -R u+w "$2"
}

spin() { # spin DIR BASE PCT: BenchmarkStructMarshal's loop does PCT% more work
  local dir=$1 base=$2 pct=$3 ns per steps
  spin_func "$dir/bench_test.go"
  cat >> "$dir/bench_test.go" <<'GO'

func BenchmarkWirebenchSpin(b *testing.B) {
	for i := 0; i < b.N; i++ {
		wirebenchSpin(1000)
	}
}
GO
  # A first guess from the benchmark's ns/op and the cost of one spin step
  # on their own, with one P, as the workers run (-cpu 1: GOMAXPROCS=1).
  ns=$(fastest "$dir" "^$TARGET\$")
  per=$(fastest "$dir" '^BenchmarkWirebenchSpin$' | awk '{print $1/1000}')
  steps=$(awk -v ns="$ns" -v per="$per" -v pct="$pct" 'BEGIN {printf "%d", ns*pct/100/per + 0.5}')
  echo "spin: $TARGET $ns ns/op, a step $per ns on its own: $steps steps for $pct%" >&2
  # One call per iteration, inside the timed loop.
  perl -0pi -e "s/(func $TARGET\(b \*testing.B\) \{.*?for i := 0; i < b.N; i\+\+ \{\n)/\$1\t\twirebenchSpin($steps) \/\/ injected\n/s" "$dir/bench_test.go"
  grep -q "wirebenchSpin($steps) // injected" "$dir/bench_test.go"
  # Inside the benchmark a step overlaps with the encoder's own work and
  # costs less than on its own, and go test's runs one after another are
  # offset by this machine's neighbours by more than 5%: so the injected
  # benchmark is measured against the base's with the A/B engine itself
  # (the target alone, 20 s, interleaved), and the steps scaled to the
  # effect asked for, twice. The runs below are independent of these.
  local round e next
  for round in 1 2; do
    "$WORK/wirebench" ab --base "$base" --head "$dir" --bench "^$TARGET\$" --packages . --budget 20s --metric time \
      --format json > "$dir.calibrate.json" 2> "$dir.calibrate.log" || true
    e=$(python3 -c 'import json,sys; c=[c for c in json.load(open(sys.argv[1]))["comparisons"] if c["unit"]=="ns/op"][0]; print(100*(c["ratio"]-1))' "$dir.calibrate.json")
    next=$(awk -v e="$e" -v s="$steps" -v pct="$pct" 'BEGIN {if (e < 0.2) e = 0.2; printf "%d", s*pct/e + 0.5}')
    echo "spin: round $round: $steps steps make $TARGET $(printf '%+.2f' "$e")% slower; next $next" >&2
    sed -i "s/wirebenchSpin([0-9]*) \/\/ injected/wirebenchSpin($next) \/\/ injected/" "$dir/bench_test.go"
    steps=$next
  done
  grep -q "wirebenchSpin($steps) // injected" "$dir/bench_test.go"
  echo "spin: $steps steps" >&2
}

fastest() { # fastest DIR REGEXP: the lowest of 5 ns/op of the benchmark, one P
  (cd "$1" && go test -run '^$' -bench "$2" -cpu 1 -count 5 2>/dev/null) | awk '/ns\/op/ {print $3}' | sort -n | head -1
}

run() { # run OUT BASE HEAD
  local out=$1 base=$2 head=$3 code=0
  "$WORK/wirebench" ab --base "$base" --head "$head" --bench "$BENCH" --packages . ${BUDGET:+--budget "$BUDGET"} --metric "$METRIC" \
    --format json --report "$out.md" > "$out.json" 2> "$out.log" || code=$?
  echo "$code"
}

summary() { # summary RUN JSON LOG CODE
  python3 - "$@" <<'PY'
import json, sys, re
name, path, log, code = sys.argv[1:5]
import os
unit = {"time": "ns/op", "instructions": "instructions/op", "cycles": "est-cycles/op", "auto": "instructions/op"}[os.environ.get("METRIC", "time")]
try:
    d = json.load(open(path))
except Exception as e:
    print(f"{name}\tcode={code}\tno comparison ({e})"); sys.exit()
target = [c for c in d["comparisons"] if c["unit"] == unit and c["name"].endswith(" BenchmarkStructMarshal")]
others = [c["name"].split()[-1] for c in d["comparisons"] if c["verdict"] == "regression" and not c.get("unconfirmed")
          and not c["name"].endswith(" BenchmarkStructMarshal")]
offs = re.findall(r"offsets between generations of workers: ±([0-9.]+)%", open(log).read())
t = target[0] if target else None
tt = f"{100*(t['ratio']-1):+.2f}% [{100*(t['ci_low']-1):+.2f}, {100*(t['ci_high']-1):+.2f}] {t['verdict']}{' unconfirmed' if t.get('unconfirmed') else ''}" if t else "-"
print(f"{name}\tcode={code}\t{d['verdict']}\t{tt}\tother regressions: {','.join(others) or 'none'}\toffsets ±{offs[0] if offs else '?'}%\taa noisy: {bool(d.get('aa_check') and d['aa_check'].get('noisy'))}")
PY
}

table() { # table JSON: per benchmark, each speed unit's change, interval and verdict, and the sizes' and allocations' (TSV)
  python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("benchmark\tunit\tbase\thead\tchange\tinterval\tverdict")
for c in sorted(d["comparisons"], key=lambda c: (c["name"], c["unit"])):
    name = c["name"].split()[-1].removeprefix("Benchmark")
    iv = f"[{100*(c['ci_low']-1):+.2f}, {100*(c['ci_high']-1):+.2f}]" if c.get("ci_low") is not None else "-"
    ch = f"{100*(c['ratio']-1):+.2f}%" if c.get("ratio") is not None else "-"
    b, h = c.get("baseline"), c.get("candidate")
    v = c["verdict"] + (" (did not hold)" if c.get("unconfirmed") else "") + ("" if c.get("enforced", True) else " (not enforced)")
    print(f"{name}\t{c['unit']}\t{b}\t{h}\t{ch}\t{iv}\t{v}")
PY
}

mode=${1:?usage: gotest-msgpack.sh aa N | versions | inject PCT N}
case $mode in
aa)
  n=${2:-10}; dir="$WORK/aa"; mkdir -p "$dir"
  [ "$FIRST" -gt 1 ] && [ -d "$dir/head" ] || { tree v5.4.1 "$dir/base"; tree v5.4.1 "$dir/head"; }
  for i in $(seq "$FIRST" "$n"); do
    code=$(run "$dir/run-$i" "$dir/base" "$dir/head")
    summary "aa-$i" "$dir/run-$i.json" "$dir/run-$i.log" "$code" | tee -a "$dir/summary.tsv"
  done ;;
versions)
  old=${2:-v5.3.5}; dir="$WORK/versions"; [ "$old" = v5.3.5 ] || dir="$WORK/versions-$old"; mkdir -p "$dir"
  tree "$old" "$dir/base"; tree v5.4.1 "$dir/head"
  BENCH=. code=$(run "$dir/run-1" "$dir/base" "$dir/head")
  summary "versions $old" "$dir/run-1.json" "$dir/run-1.log" "$code" | tee -a "$dir/summary.tsv"
  table "$dir/run-1.json" > "$dir/table.tsv" || true ;;
inject)
  pct=${2:?percent}; n=${3:-20}; dir="$WORK/inject-$pct"; mkdir -p "$dir"
  [ "$FIRST" -gt 1 ] && [ -d "$dir/head" ] || { tree v5.4.1 "$dir/base"; tree v5.4.1 "$dir/head"; spin "$dir/head" "$dir/base" "$pct"; }
  for i in $(seq "$FIRST" "$n"); do
    code=$(run "$dir/run-$i" "$dir/base" "$dir/head")
    summary "inject-$pct-$i" "$dir/run-$i.json" "$dir/run-$i.log" "$code" | tee -a "$dir/summary.tsv"
  done ;;
*) echo "unknown mode $mode" >&2; exit 2 ;;
esac
