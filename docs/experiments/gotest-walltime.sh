#!/usr/bin/env bash
# Wall time and peak memory of the same-runner A/B step on a module's own
# benchmarks: a 12-benchmark selection of msgpack/v5 (from the module
# proxy) and a generated package of 100 benchmarks, each with a cold and a
# warm build cache (the sandbox's go caches: /tmp/wirebench-cache when the
# home cannot be reached by its user, as root's /root cannot).
#
#   docs/experiments/gotest-walltime.sh
#
# Prints one line per run: what, cache, wall time, the builds' time, peak
# RSS of the process tree (GNU time's maximum resident set size, the
# largest process).
set -euo pipefail
cd "$(dirname "$0")/../.."
WORK=${WORK:-/tmp/wirebench-walltime}
BUDGET=${BUDGET:-90s}
CACHE=${CACHE:-/tmp/wirebench-cache}
mkdir -p "$WORK"
go build -o "$WORK/wirebench" ./cmd/wirebench
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (apt-get install time)" >&2; exit 1; }

# msgpack v5.4.1, twice.
dir=$(go mod download -json github.com/vmihailenco/msgpack/v5@v5.4.1 | sed -n 's/.*"Dir": "\(.*\)",/\1/p')
for side in base head; do rm -rf "$WORK/msgpack-$side"; cp -r "$dir" "$WORK/msgpack-$side"; chmod -R u+w "$WORK/msgpack-$side"; done
BENCH12='^Benchmark(StructMarshal|StructUnmarshal|StructManual|MapStringString|MapIntInt|StringSlice|ByteSlice|Int32|Float64|Bool|Time|Duration)$'

# A package of 100 benchmarks: JSON of maps of growing size.
gen() {
  local d=$1
  rm -rf "$d"; mkdir -p "$d"
  printf 'module example.com/hundred\n\ngo 1.22\n' > "$d/go.mod"
  printf 'package hundred\n' > "$d/hundred.go"
  {
    printf 'package hundred\n\nimport (\n\t"encoding/json"\n\t"strconv"\n\t"testing"\n)\n\n'
    printf 'func payload(n int) map[string]int {\n\tm := map[string]int{}\n\tfor i := 0; i < n; i++ {\n\t\tm["k"+strconv.Itoa(i)] = i\n\t}\n\treturn m\n}\n\n'
    for i in $(seq 1 100); do
      printf 'func BenchmarkJSON%03d(b *testing.B) {\n\tm := payload(%d)\n\tb.ReportAllocs()\n\tfor i := 0; i < b.N; i++ {\n\t\tif _, err := json.Marshal(m); err != nil {\n\t\t\tb.Fatal(err)\n\t\t}\n\t}\n}\n\n' "$i" "$i"
    done
  } > "$d/hundred_test.go"
}
gen "$WORK/hundred-base"; gen "$WORK/hundred-head"

run() { # run NAME CACHE BASE HEAD BENCH
  local name=$1 cache=$2 base=$3 head=$4 bench=$5
  [ "$cache" = cold ] && rm -rf "$CACHE"
  /usr/bin/time -f '%e %M' -o "$WORK/$name-$cache.time" "$WORK/wirebench" ab --base "$base" --head "$head" --bench "$bench" --packages . \
    --budget "$BUDGET" --format json > "$WORK/$name-$cache.json" 2> "$WORK/$name-$cache.log" || true
  read -r wall rss < "$WORK/$name-$cache.time"
  builds=$(sed -n 's/.*in all (builds \([^,]*\), measurement \([^;]*\);.*/builds \1, measurement \2/p' "$WORK/$name-$cache.log")
  echo "$name	$cache	wall ${wall}s	$builds	peak RSS $((rss / 1024)) MiB"
}
run msgpack-12 cold "$WORK/msgpack-base" "$WORK/msgpack-head" "$BENCH12"
run msgpack-12 warm "$WORK/msgpack-base" "$WORK/msgpack-head" "$BENCH12"
run hundred cold "$WORK/hundred-base" "$WORK/hundred-head" .
run hundred warm "$WORK/hundred-base" "$WORK/hundred-head" .
