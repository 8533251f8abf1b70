#!/bin/sh
# module1000.sh — a generated module of many microsecond-scale benchmarks
# (issue 54): PACKAGES packages (default 20) of PER benchmarks each
# (default 50), every package importing one helper package, laid out as
# two git repositories, DIR/base and DIR/head, whose only difference is
# the helper: the head's finishes one of its two functions with a final
# mix (a few instructions a call), so every package is reached by the
# change and every benchmark is rebuilt, and those that call that
# function do a little more work (the more, the shorter their buffer).
#
#   docs/experiments/module1000.sh DIR
#
# Each benchmark mixes a buffer of its own size (64..1024 bytes) with
# the helper, some allocating a copy first, so counts, allocations and
# the collector's work are all there to compare.
set -eu
DIR=${1:?usage: module1000.sh DIR}
PACKAGES=${PACKAGES:-20}
PER=${PER:-50}
rm -rf "$DIR"
for side in base head; do
	m="$DIR/$side"
	mkdir -p "$m/helper"
	cat > "$m/go.mod" <<EOT
module example.com/many

go 1.26
EOT
	extra="	_ = 0"
	if [ "$side" = head ]; then
		extra='	h ^= h >> 29
	h *= 0xbf58476d1ce4e5b9'
	fi
	cat > "$m/helper/helper.go" <<EOT
// Package helper is what every package of the module calls.
package helper

// Mix folds b into a hash, seeded.
func Mix(b []byte, seed uint64) uint64 {
	h := seed ^ 0x9e3779b97f4a7c15
	for _, c := range b {
		h = (h ^ uint64(c)) * 0x100000001b3
	}
$extra
	return h
}

// Sum adds b's bytes: not changed by the head.
func Sum(b []byte) uint64 {
	var s uint64
	for _, c := range b {
		s += uint64(c)
	}
	return s
}
EOT
	p=0
	while [ "$p" -lt "$PACKAGES" ]; do
		pkg=$(printf 'p%02d' "$p")
		mkdir -p "$m/$pkg"
		cat > "$m/$pkg/$pkg.go" <<EOT
// Package $pkg encodes with the helper.
package $pkg

import "example.com/many/helper"

// Encode is the package's work on b.
func Encode(b []byte, seed uint64, mix bool) uint64 {
	if mix {
		return helper.Mix(b, seed)
	}
	return helper.Sum(b) + seed
}
EOT
		{
			printf 'package %s\n\nimport "testing"\n\nvar sink uint64\n\n' "$pkg"
			i=0
			while [ "$i" -lt "$PER" ]; do
				size=$(( 64 + (i * 97 + p * 31) % 961 ))
				mix=true
				[ $(( (i + p) % 4 )) -eq 3 ] && mix=false
				if [ $(( i % 3 )) -eq 0 ]; then
					body="c := append([]byte(nil), buf...)
		sink += Encode(c, $i, $mix)"
				else
					body="sink += Encode(buf, $i, $mix)"
				fi
				cat <<EOT
func BenchmarkOp$i(b *testing.B) {
	buf := make([]byte, $size)
	for k := range buf {
		buf[k] = byte(k * $((i + 3)))
	}
	for b.Loop() {
		$body
	}
}

EOT
				i=$((i + 1))
			done
		} > "$m/$pkg/${pkg}_test.go"
		p=$((p + 1))
	done
	gofmt -w "$m"
	(cd "$m" && git init -q && git add -A && git -c user.name=x -c user.email=x@example.com commit -qm "$side")
done
echo "$DIR: base and head, $PACKAGES packages of $PER benchmarks"
