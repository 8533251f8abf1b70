#!/bin/sh
# inject.sh SCRATCH PCT CODEC DATASET OP — copies this tree to SCRATCH (a
# new directory; the checkout is not touched) and slows one benchmark
# there: after every operation OP (serialize or deserialize) of CODEC on
# DATASET it waits PCT% of that operation's own time, a pure timing change
# (no allocation, so the exact metrics cannot see it). The wait costs two
# clock reads more per operation (tens of nanoseconds): pick a benchmark
# whose operation takes microseconds. The change is written to
# SCRATCH.diff. Used by stored-baseline-aa.sh and ab-series.sh.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/docs/experiments/lib.sh"
injection "inject.sh SCRATCH PCT CODEC DATASET serialize|deserialize" "$@"
pct=$2
# The target's operation is wrapped where it is bound, so that no other
# benchmark runs one instruction more.
case $op in
serialize)
	wrap="		slow := ops.Encode\n		ops.Encode = func() ([]byte, error) {\n			t0 := time.Now()\n			b, err := slow()"
	back="			return b, err" ;;
deserialize)
	wrap="		slow := ops.Decode\n		ops.Decode = func(b []byte) (any, error) {\n			t0 := time.Now()\n			sum, err := slow(b)"
	back="			return sum, err" ;;
*) echo "inject.sh: OP is serialize or deserialize, not $op" >&2; exit 2 ;;
esac
# Anchors, each of which must occur exactly once.
for anchor in '^	"testing"$' '^	size := len(encoded)$'; do
	if [ "$(grep -c "$anchor" "$suite")" != 1 ]; then
		echo "inject.sh: $suite no longer has exactly one line matching $anchor: update the injection" >&2
		exit 2
	fi
done
sed -i \
	-e 's|^	"testing"$|	"testing"\n	"time"|' \
	-e "s|^	size := len(encoded)\$|	size := len(encoded)\n	if c.Name() == \"$codec\" \&\& dataset == \"$dataset\" {\n$wrap\n			for d := time.Since(t0) * (100 + $pct) / 100; time.Since(t0) < d; {\n			}\n$back\n		}\n	}|" \
	"$suite"
injected
