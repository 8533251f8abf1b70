#!/usr/bin/env bash
# Both supported Go releases, counted and paired (issue 53): a small
# module (four microsecond-scale benchmarks: encoding/json with a map,
# sha256 over a struct, a map built and looked up, a sort of math/rand's
# global source) laid out as two git repositories, base and head, counted
# A/A with `wirebench ab --bench . --measure-all` (metric auto), then with
# about PCT% more work in one benchmark, once for each go line of GOS: a
# module on `go 1.27` is built with the toolchain the go command fetches
# for it (GOTOOLCHAIN=auto), from wirebench's copy outside the module
# cache. UNKNOWN=go1.25.0 also counts the module on a Go whose runtime the
# patches do not know (go 1.25, GOTOOLCHAIN=go1.25.0): measured unpaired.
#
#   docs/experiments/goreleases.sh
#
# Knobs: OUT (default /tmp/wirebench-goreleases), GOS ("1.26 1.27"),
# AA_RUNS (3), INJECT_RUNS (2), PCT (2), UNKNOWN (go1.25.0; "" skips),
# PER_STEP (8). wirebench runs with HOME=$OUT/home, so its sandbox's cache
# (the go command's build and module caches, and the copies of fetched
# toolchains) starts cold and is this experiment's alone. summary.tsv: per
# run, the exit code, verdict, the target's change, the test (paired-t
# or welch-t), the other benchmarks flagged, the median and worst
# detectable change of instructions/op, and the patches each side's
# build said; the progress lines naming the Go of each side are in the
# run's .err.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/wirebench-goreleases}
. "$REPO/docs/experiments/lib.sh"
need go git python3 valgrind perl
GOS=${GOS:-1.26 1.27} AA_RUNS=${AA_RUNS:-3} INJECT_RUNS=${INJECT_RUNS:-2} PCT=${PCT:-2} UNKNOWN=${UNKNOWN-go1.25.0}
mkdir -p "$OUT/bin" "$OUT/home"
chmod 755 "$OUT" "$OUT/home"
(cd "$REPO" && go build -o "$OUT/bin/wb" ./cmd/wirebench)
target=BenchmarkMarshal

# module DIR GOLINE: the module's tree in DIR, a git repository of its own.
module() {
	rm -rf "$1"
	mkdir -p "$1"
	printf 'module example.com/gorel\n\ngo %s\n' "$2" >"$1/go.mod"
	cat >"$1/gorel.go" <<'GO'
// Package gorel is a small module whose benchmarks meet the runtime's
// random state: map order and hash seeds, math/rand's global source.
package gorel

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"math/rand"
	"sort"
)

// Order is a message with a map, so its encoding walks the map.
type Order struct {
	ID    int64             `json:"id"`
	Note  string            `json:"note"`
	Tags  map[string]string `json:"tags"`
	Lines []int             `json:"lines"`
}

// NewOrder is an order with n tags and lines.
func NewOrder(n int) *Order {
	o := &Order{ID: 42, Note: "a note", Tags: map[string]string{}}
	for i := 0; i < n; i++ {
		k := string(rune('a'+i%26)) + string(rune('a'+i/26))
		o.Tags[k] = k + k
		o.Lines = append(o.Lines, i*i)
	}
	return o
}

// Marshal encodes o as JSON.
func Marshal(o *Order) ([]byte, error) { return json.Marshal(o) }

// Sum hashes o's fields, its tags in map order.
func Sum(o *Order) [32]byte {
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(o.ID))
	h.Write(b[:])
	h.Write([]byte(o.Note))
	for k, v := range o.Tags {
		h.Write([]byte(k))
		h.Write([]byte(v))
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// Index builds a map of n keys and looks each up.
func Index(n int) int {
	m := make(map[int]int)
	for i := 0; i < n; i++ {
		m[i*7919] = i
	}
	s := 0
	for i := 0; i < n; i++ {
		s += m[i*7919]
	}
	return s
}

// Shuffled sorts n values drawn from math/rand's global source.
func Shuffled(n int) []int {
	v := make([]int, n)
	for i := range v {
		v[i] = rand.Intn(1000)
	}
	sort.Ints(v)
	return v
}
GO
	cat >"$1/gorel_test.go" <<'GO'
package gorel

import "testing"

func BenchmarkMarshal(b *testing.B) {
	o := NewOrder(16)
	for i := 0; i < b.N; i++ {
		if _, err := Marshal(o); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSum(b *testing.B) {
	o := NewOrder(16)
	for i := 0; i < b.N; i++ {
		Sum(o)
	}
}

func BenchmarkIndex(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Index(200)
	}
}

func BenchmarkShuffled(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Shuffled(100)
	}
}
GO
	(cd "$1" && git init -q && git add -A && git -c user.name=x -c user.email=x@example.com commit -qm "$2")
}

# summary NAME JSON CODE: a line of summary.tsv.
summary() {
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
mdes = [mde_of(c) for c in cs]
t = [c for c in cs if c["name"].split()[-1] == target]
tt = "-"
if t:
    c = t[0]
    tt = f"{100*(c['ratio']-1):+.2f}% [{100*(c['ci_low']-1):+.2f}, {100*(c['ci_high']-1):+.2f}] {c['verdict']}"
tests = sorted({c.get("test", "") for c in cs})
others = [c["name"].split()[-1] + " " + c["unit"] for c in d["comparisons"] if c["verdict"] in ("regression", "improvement") and c["name"].split()[-1] != target]
p = d.get("patches") or {}
side = lambda s: "-" if not p.get(s) else f"{p[s]['patches']} (seeded {p[s]['seeded']})"
print(f"{name}\tcode={code}\t{d['verdict']}\t{target} {tt}\ttest {','.join(tests)}\tothers flagged: {', '.join(others) or 'none'}\t"
      f"median MDE {100*statistics.median(mdes):.3f}%\tworst {100*max(mdes):.3f}%\t{len(cs)} benchmarks\tbase: {side('baseline')}\thead: {side('candidate')}")
PY
}

# ab NAME DIR [ENV...]: one `wirebench ab` of DIR/head against DIR/base.
ab() {
	ab_name=$1 ab_dir=$2
	shift 2
	log "$ab_name: load $(cut -d' ' -f1-3 /proc/loadavg)"
	ab_start=$SECONDS
	code=0
	(cd "$ab_dir/head" && env HOME="$OUT/home" "$@" "$OUT/bin/wb" ab --base ../base --bench . --measure-all --format json \
		>"$OUT/$ab_name.json" 2>"$OUT/$ab_name.err") || code=$?
	log "$ab_name: exit $code in $((SECONDS - ab_start)) s; $(grep -m1 'built with' "$OUT/$ab_name.err" || true)"
	summary "$ab_name" "$OUT/$ab_name.json" "$code"
}

: >"$OUT/summary.tsv"
for v in $GOS; do
	dir=$OUT/go$v
	module "$dir/base" "$v"
	module "$dir/head" "$v"
	i=1
	while [ "$i" -le "$AA_RUNS" ]; do
		ab "go$v-aa-$i" "$dir"
		i=$((i + 1))
	done
	module "$dir/head" "$v"
	inject_spin "$OUT/go$v-aa-1.json" "$target" "$PCT" "$dir/head/gorel_test.go"
	(cd "$dir/head" && git -c user.name=x -c user.email=x@example.com commit -qam "$PCT% more work in $target")
	i=1
	while [ "$i" -le "$INJECT_RUNS" ]; do
		ab "go$v-inject-$i" "$dir"
		i=$((i + 1))
	done
done
if [ -n "$UNKNOWN" ]; then
	v=$(echo "$UNKNOWN" | sed 's/^go\([0-9]*\.[0-9]*\).*/\1/')
	dir=$OUT/$UNKNOWN
	module "$dir/base" "$v"
	module "$dir/head" "$v"
	i=1
	while [ "$i" -le "$AA_RUNS" ]; do
		ab "$UNKNOWN-aa-$i" "$dir" GOTOOLCHAIN="$UNKNOWN"
		i=$((i + 1))
	done
fi
log "the copies of fetched toolchains: $(du -sh "$OUT/home/.cache/wirebench/go-toolchain" 2>/dev/null | cut -f1) (their files linked to the module cache's: $(du -sh "$OUT/home/.cache/wirebench/go-mod/golang.org" "$OUT/home/.cache/wirebench/go-toolchain" 2>/dev/null | tr '\n' ' '))"
