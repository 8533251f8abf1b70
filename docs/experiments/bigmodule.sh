#!/bin/sh
# bigmodule.sh DIR PACKAGES BENCHMARKS [head]
#
# Writes a module of PACKAGES packages with BENCHMARKS benchmarks each,
# all microsecond-scale, all calling one shared helper package (example.com/big/helper).
# With "head", the helper's Mix does 20% more work for inputs divisible
# by 3, so about a third of the benchmarks regress and the rest do not
# move: the base and the head of a sharded same-runner A/B measurement
# (docs/shards.md).
set -eu
dir=$1 pkgs=$2 benches=$3 head=${4:-}
rm -rf "$dir"
mkdir -p "$dir/helper"
printf 'module example.com/big\n\ngo 1.22\n' >"$dir/go.mod"
extra=0
[ "$head" = head ] && extra=1
cat >"$dir/helper/helper.go" <<GO
// Package helper is the code every benchmark of the module calls.
package helper

// Mix does n rounds of integer mixing: about n nanoseconds.
func Mix(n int) uint64 {
	rounds := n
	if $extra == 1 && n%3 == 0 {
		rounds += n / 5
	}
	x := uint64(n)
	for i := 0; i < rounds; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}
GO
p=1
while [ "$p" -le "$pkgs" ]; do
	d="$dir/p$p"
	mkdir -p "$d"
	printf 'package p%d\n\nimport (\n\t"testing"\n\n\t"example.com/big/helper"\n)\n\nvar sink uint64\n' "$p" >"$d/p_test.go"
	b=1
	while [ "$b" -le "$benches" ]; do
		n=$(( (p * 7 + b * 13) % 40 * 25 + 500 ))
		printf '\nfunc BenchmarkMix%d(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tsink += helper.Mix(%d)\n\t}\n}\n' "$b" "$n" >>"$d/p_test.go"
		b=$((b + 1))
	done
	p=$((p + 1))
done
