#!/usr/bin/env bash
# comment-screen.sh — what a reviewer sees of the comment (issue 42): a
# module of one benchmark, example.com/screen, compared counted by two
# wirebench binaries (BEFORE and AFTER), once with a head that does 10%
# more work (a counted regression) and once against a copy of itself (an
# A/A run, --measure-all). For each comment (`ab --format markdown`, the
# comment's body) it records the characters of the prose before the first
# table in sight, and the lines and characters in sight with every
# <details> folded, and renders it in headless Chromium (tools/render).
#
#   BEFORE=/path/wb-old AFTER=/path/wb-new docs/experiments/comment-screen.sh
#
# Writes to OUT (default a new directory under /tmp): NAME.md, NAME.png
# and summary.tsv. Needs go, valgrind, node (tools/render's packages).
set -euo pipefail
BEFORE=${BEFORE:?the wirebench binary before the change}
AFTER=${AFTER:?the wirebench binary after it}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-screen.XXXXXX)}
module() { # module DIR WORK
	mkdir -p "$1"
	printf 'module example.com/screen\n\ngo 1.24\n' >"$1/go.mod"
	cat >"$1/screen.go" <<GO
// Package screen encodes a counter, WORK bytes an operation.
package screen

const work = $2

// Encode appends work bytes to b.
func Encode(b []byte) []byte {
	for i := 0; i < work; i++ {
		b = append(b, byte(i))
	}
	return b
}
GO
	cat >"$1/screen_test.go" <<'GO'
package screen

import "testing"

func BenchmarkEncode(b *testing.B) {
	buf := make([]byte, 0, 256)
	for b.Loop() {
		buf = Encode(buf[:0])
	}
}
GO
}
module "$OUT/base" 100
module "$OUT/head" 110
module "$OUT/same" 100
measure() { # measure FILE: prose before the first table, lines and characters in sight
	python3 - "$1" <<'PY'
import sys
depth, table, prose, lines, chars = 0, False, 0, 0, 0
for l in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if depth == 0 and l.strip():
        lines += 1; chars += len(l)
        if l.startswith("|"): table = True
        if not table and not l.startswith("#### "): prose += len(l)
    depth += l.count("<details>") - l.count("</details>")
print(f"{prose}\t{lines}\t{chars}")
PY
}
printf 'binary\tcase\texit\tprose before the first table\tlines in sight\tcharacters in sight\n' >"$OUT/summary.tsv"
for which in before after; do
	bin=$BEFORE
	[ "$which" = after ] && bin=$AFTER
	for case in regression aa; do
		head=$OUT/head flags=()
		[ "$case" = aa ] && head=$OUT/same flags=(--measure-all)
		code=0
		(cd "$OUT" && "$bin" ab --base base --head "$head" --bench . --metric instructions "${flags[@]}" --format markdown) \
			>"$OUT/$which-$case.md" 2>"$OUT/$which-$case.err" || code=$?
		printf '%s\t%s\t%s\t%s\n' "$which" "$case" "$code" "$(measure "$OUT/$which-$case.md")" >>"$OUT/summary.tsv"
		node "$REPO/tools/render/render.mjs" "$OUT/$which-$case.md" "$OUT/$which-$case.png" >/dev/null
	done
done
column -t -s "$(printf '\t')" "$OUT/summary.tsv"
