#!/usr/bin/env bash
# What moves a count between processes (issue 33): a real module's own
# benchmarks counted with `wirebench run --metric instructions` in
# PROCESSES processes, once per setting of the environment, and per
# benchmark the spread of the processes' instructions/op.
#
#   docs/experiments/vary.sh MODULE@VERSION BENCH [NAME=ENV ...]
#
# Each NAME=ENV is one run with ENV (space-separated VAR=value pairs, or
# "-" for none) added to wirebench's environment, which the workers
# inherit; e.g. default=- gogc=GOGC=off. The module's tree is a copy of
# its zip from the Go module proxy (its _test.go files included), made
# under $OUT. spread.tsv: per run and benchmark, the processes' values,
# their range and their standard deviation, relative to the median.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/wirebench-vary}
PROCESSES=${PROCESSES:-5}
. "$REPO/docs/experiments/lib.sh"
[ $# -ge 3 ] || { echo "usage: $0 MODULE@VERSION BENCH NAME=ENV..." >&2; exit 2; }
module=$1 bench=$2
shift 2
mkdir -p "$OUT/bin"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
dir=$(cd "$OUT" && go mod download -json "$module" | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
tree="$OUT/tree"
rm -rf "$tree"; cp -r "$dir" "$tree"; chmod -R u+w "$tree"
(cd "$tree" && git init -q && git add -A && git -c user.email=x@x -c user.name=x commit -qm tree)
for setting in "$@"; do
	name=${setting%%=*} env=${setting#*=}
	[ "$env" = - ] && env=
	log "$module: $name ($env), $PROCESSES processes"
	(cd "$tree" && env $env "$OUT/bin/wb" run --bench "$bench" --metric instructions --processes "$PROCESSES" \
		--format json > "$OUT/$name.json" 2> "$OUT/$name.log") || { log "$name failed: $(tail -3 "$OUT/$name.log")"; continue; }
done
python3 - "$OUT" "$@" <<'PY' | tee "$OUT/spread.tsv"
import json, statistics, sys
out, settings = sys.argv[1], sys.argv[2:]
print("run\tbenchmark\tmedian\trange%\tsd%\tprocesses")
for s in settings:
    name = s.split("=", 1)[0]
    try:
        r = json.load(open(f"{out}/{name}.json"))
    except Exception:
        continue
    for b in r["benchmarks"]:
        for m in b["metrics"]:
            if m["unit"] != "instructions/op":
                continue
            v = m["values"]
            med = statistics.median(v)
            sd = statistics.stdev(v) if len(v) > 1 else 0
            print(f"{name}\t{b['name']}\t{med:.1f}\t{100*(max(v)-min(v))/med:.2f}\t{100*sd/med:.3f}\t{' '.join(f'{x:.1f}' for x in v)}")
PY
