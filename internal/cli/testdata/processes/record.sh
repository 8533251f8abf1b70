#!/usr/bin/env bash
# Records the Go benchmark text of the compare tests (TestCompareProcesses
# in cmd/wirebench): five go test processes a side, each -count 2, of this
# module as it is (old.txt, and again for the A/A pair, same.txt) and with
# the build tag slow, which makes BenchmarkEncode 30% slower (slow.txt).
# Each process runs on one CPU (-cpu 1, and taskset -c 1 where there is
# taskset), so that the machine's neighbours move it less. Run from this
# directory, on a machine as quiet as can be had; it takes about a minute.
set -euo pipefail
cd "$(dirname "$0")"
pin=()
command -v taskset >/dev/null && pin=(taskset -c 1)
record() {
  local out=$1; shift
  for i in 1 2 3 4 5; do
    "${pin[@]}" go test -run '^$' -bench . -count 2 -cpu 1 -benchtime 200ms "$@" ./...
  done > "$out"
}
record old.txt
record same.txt
record slow.txt -tags slow
