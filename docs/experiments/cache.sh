#!/bin/sh
# cache.sh — the build cache's cost in the action's container (issue 40):
# TestContainerBuildCache (internal/cli) builds the action's image as the
# container tests do, then runs it as the runner runs it, in A/B mode, on
# msgpack/v5's own twelve benchmarks, three times with one go build cache
# mounted where the action keeps it (what the README's actions/cache
# step restores): cold, warm, warm with measure-all. Writes the test's
# log to OUT (default a new directory under /tmp) and prints each run's
# wall time and builds. Needs podman, buildah, mmdebstrap (.ci/install-deps).
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-cache.XXXXXX)}
mkdir -p "$OUT"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/cache.log"
(cd "$REPO" && CONTAINERS_CONF=${CONTAINERS_CONF:-$REPO/.ci/containers.conf} WIREBENCH_E2E_CACHE=1 \
	go test -count=1 -timeout 40m -run '^TestContainerBuildCache$' -v ./internal/cli) >>"$OUT/cache.log" 2>&1 || {
	tail -50 "$OUT/cache.log" >&2
	exit 1
}
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/cache.log"
grep 'build cache: the run took' "$OUT/cache.log"
