#!/bin/bash
# A/A runs of the default suite, alternating workers pinned to one CPU
# (the default) and not (--pin=false), one at a time. Usage:
#   OUT=/tmp/pinaa RUNS=3 docs/experiments/pin-aa.sh [extra ab flags]
# Writes $OUT/{pin,nopin}-N.{json,log} and prints one line a run: median
# and largest MDE of ns/op, offsets between generations, flags.
set -euo pipefail
OUT=${OUT:-/tmp/pinaa}
RUNS=${RUNS:-3}
tree=$(git rev-parse --show-toplevel)
mkdir -p "$OUT"
bin="$OUT/wirebench"
(cd "$tree" && go build -o "$bin" ./cmd/action)
summary() {
	python3 - "$1" <<'PY'
import json, re, statistics as st, sys
d = json.load(open(sys.argv[1]))
mde = [c["mde"] for c in d["comparisons"] if c["unit"] == "ns/op" and c.get("mde") is not None]
flag = sum(1 for c in d["comparisons"] if c["unit"] == "ns/op" and c["verdict"] in ("regression", "improvement"))
aa = d.get("aa_check") or {}
print("median MDE %.2f%%, largest %.2f%%, flagged %d, A/A flagged %s" % (100 * st.median(mde), 100 * max(mde), flag, len(aa.get("flagged") or [])))
PY
}
for i in $(seq 1 "$RUNS"); do
	for mode in pin nopin; do
		flag=--pin=true
		[ "$mode" = nopin ] && flag=--pin=false
		start=$(date +%s)
		"$bin" ab --base "$tree" --head "$tree" $flag --format json "$@" > "$OUT/$mode-$i.json" 2> "$OUT/$mode-$i.log" || true
		echo "$mode-$i $(date -u +%H:%M) $(( $(date +%s) - start ))s: $(summary "$OUT/$mode-$i.json"); $(grep -o 'offsets between generations of workers: [^(]*' "$OUT/$mode-$i.log" | head -1)"
	done
done
