#!/bin/sh
# shards-ab.sh — a sharded same-runner A/B comparison against the
# unsharded one, on a module written by bigmodule.sh (PACKAGES x
# BENCHMARKS microsecond benchmarks; the head makes a third of them 20%
# more work): the whole counted once, then each of N shards, one after
# another (as N matrix jobs would run side by side), then the merge.
# Every step's wall time and CPU time (user and system, the counted
# processes included) with the load average before and after it (the
# machine is shared: compare ratios, not seconds; the CPU time moves
# less with the load than the wall time), and whether the merged
# verdicts are the unsharded ones.
#
#   docs/experiments/shards-ab.sh [PACKAGES [BENCHMARKS [N]]]
#   OUT=dir (default a new one under /tmp): the modules, files and logs;
#   summary.tsv is the table.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
PKGS=${1:-8} BENCHES=${2:-16} N=${3:-4}
OUT=${OUT:-$(mktemp -d /tmp/wirebench-shards.XXXXXX)}
mkdir -p "$OUT"
cd "$OUT"
if [ -z "${SKIP_WHOLE:-}" ]; then
	"$REPO/docs/experiments/bigmodule.sh" base "$PKGS" "$BENCHES"
	"$REPO/docs/experiments/bigmodule.sh" head "$PKGS" "$BENCHES" head
fi
(cd "$REPO" && go build -o "$OUT/wb" ./cmd/wirebench)
load() { cut -d' ' -f1 /proc/loadavg; }
step() { # name, then the command
	name=$1
	shift
	l0=$(load)
	set +e
	/usr/bin/time -f '%e %U %S' -o "$name.time" "$@" >"$name.out" 2>"$name.err"
	rc=$?
	set -e
	read -r wall user sys <<EOF
$(tail -n 1 "$name.time")
EOF
	printf '%s\t%s\t%s\t%.1f\t%s\t%s\n' "$name" "$rc" "$wall" "$(echo "$user + $sys" | bc)" "$l0" "$(load)" | tee -a summary.tsv
}
ab="./wb ab --base base --head head --bench . --metric instructions --measure-all"
if [ -z "${SKIP_WHOLE:-}" ]; then # SKIP_WHOLE=1 keeps OUT's whole.out, to re-run the shards only
	printf 'step\texit\twall_s\tcpu_s\tload_before\tload_after\n' >summary.tsv
	step whole $ab --format json
fi
rm -rf shards
i=1
while [ "$i" -le "$N" ]; do
	step "shard-$i" $ab --shard "$i/$N" --out "shards/$i/ab-shard.json"
	i=$((i + 1))
done
step merge ./wb merge --format json --out merged-results.json shards
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
def verdicts(f):
    d = json.load(open(f"{out}/{f}"))
    return {(c["name"], c["unit"]): c["verdict"] for c in d["comparisons"]}, sorted(d.get("missing") or []), sorted(d.get("new") or [])
w, m = verdicts("whole.out"), verdicts("merge.out")
diff = [k for k in set(w[0]) | set(m[0]) if w[0].get(k) != m[0].get(k)]
reg = sum(1 for k, v in w[0].items() if v == "regression")
print(f"comparisons: whole {len(w[0])}, merged {len(m[0])}; regressions (whole) {reg}; differing verdicts {len(diff)} {sorted(diff)[:5]}")
PY
grep -h "lists" shard-*.err || true
echo "results in $OUT"
