#!/bin/sh
# counted-repro.sh — how reproducible are counts? (issue 21) The whole
# default suite counted in PROCESSES processes with the cache simulation
# (metric cycles: est-cycles/op and instructions/op), twice: quiet, and
# beside CPU_HOGS CPU-heavy processes (`yes`). Per benchmark and unit: the
# spread between processes (standard deviation of value/median), and the
# shift of the median from the quiet run to the loaded one. Writes to OUT
# (default a new directory under /tmp); needs go, valgrind and python3.
set -eu
PROCESSES=${PROCESSES:-5}
CPU_HOGS=${CPU_HOGS:-2}
METRIC=${METRIC:-cycles}
FILTER=${FILTER:-}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-repro.XXXXXX)}
mkdir -p "$OUT"
. "$REPO/docs/experiments/lib.sh"
(cd "$REPO" && go build -o "$OUT/wb" ./cmd/wirebench)
git -C "$REPO" rev-parse HEAD >"$OUT/commit" 2>/dev/null || true
for kind in quiet loaded; do
	[ "$kind" = loaded ] && start_hogs
	log "$kind: run --metric $METRIC --processes $PROCESSES (load $(cut -d' ' -f1-3 /proc/loadavg))"
	start=$(date +%s)
	/usr/bin/time -v "$OUT/wb" run --metric "$METRIC" --processes "$PROCESSES" --filter "$FILTER" --out "$OUT/$kind.json" \
		>"$OUT/$kind.txt" 2>"$OUT/$kind.err"
	log "$kind: $(($(date +%s) - start)) s (load $(cut -d' ' -f1-3 /proc/loadavg)); $(grep -E 'Maximum resident' "$OUT/$kind.err" | sed 's/^[[:space:]]*//')"
	stop_hogs
done
python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import json, statistics as st, sys
out = sys.argv[1]
def load(kind):
    r = json.load(open(f"{out}/{kind}.json"))
    return {b["name"]: {m["unit"]: m["values"] for m in b["metrics"]} for b in r["benchmarks"]}
q, l = load("quiet"), load("loaded")
for unit in ("instructions/op", "est-cycles/op"):
    for kind, run in (("quiet", q), ("loaded", l)):
        sds = sorted((st.stdev([x / st.median(v[unit]) for x in v[unit]]) * 100, n) for n, v in run.items() if unit in v and len(v[unit]) > 1)
        if not sds:
            continue
        print(f"{unit} {kind}: spread between processes (sd) median {st.median([s for s, _ in sds]):.3f}%, "
              f"90th {sds[int(0.9 * len(sds))][0]:.3f}%, worst {sds[-1][0]:.3f}% ({sds[-1][1]}); next {sds[-2][0]:.3f}% ({sds[-2][1]}), {sds[-3][0]:.3f}% ({sds[-3][1]})")
    shifts = sorted((st.median(l[n][unit]) / st.median(q[n][unit]) - 1) * 100 for n in q if unit in q[n] and n in l)
    if shifts:
        print(f"{unit} loaded against quiet: median shift {st.median(shifts):+.3f}%, mean {st.mean(shifts):+.3f}%, range {shifts[0]:+.3f}% to {shifts[-1]:+.3f}%")
PY
