#!/bin/sh
# inject-work.sh SCRATCH EVERY CODEC DATASET OP — copies this tree to
# SCRATCH (a new directory; the checkout is not touched) and gives one
# benchmark more work there: every EVERY-th operation OP (serialize or
# deserialize) of CODEC on DATASET is done twice, so the benchmark does
# 1/EVERY more of its own work (EVERY 50: +2%, 100: +1%) and nothing else
# runs one instruction more. For a counted gate: its extra allocations are
# 1/EVERY of an operation's, which allocs/op (truncated to whole
# allocations, as testing.B reports them) does not show while an
# operation allocates fewer than EVERY objects. The change is written to
# SCRATCH.diff. Used by counted-stored.sh and counted-ab.sh.
set -eu
[ $# = 5 ] || { echo "usage: inject-work.sh SCRATCH EVERY CODEC DATASET serialize|deserialize" >&2; exit 2; }
scratch=$1 every=$2 codec=$3 dataset=$4 op=$5
REPO=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$scratch"
mkdir -p "$scratch"
(cd "$REPO" && tar --exclude=./.git -cf - .) | (cd "$scratch" && tar -xf -)
suite="$scratch/matrix/matrix.go"
case $op in
serialize)
	wrap="		work := ops.Encode\n		calls := 0\n		ops.Encode = func() ([]byte, error) {\n			if calls++; calls%$every == 0 {\n				work()\n			}\n			return work()\n		}" ;;
deserialize)
	wrap="		work := ops.Decode\n		calls := 0\n		ops.Decode = func(b []byte) (any, error) {\n			if calls++; calls%$every == 0 {\n				work(b)\n			}\n			return work(b)\n		}" ;;
*) echo "inject-work.sh: OP is serialize or deserialize, not $op" >&2; exit 2 ;;
esac
anchor='^	size := len(encoded)$'
if [ "$(grep -c "$anchor" "$suite")" != 1 ]; then
	echo "inject-work.sh: $suite no longer has exactly one line matching $anchor: update the injection" >&2
	exit 2
fi
sed -i -e "s|^	size := len(encoded)\$|	size := len(encoded)\n	if c.Name() == \"$codec\" \&\& dataset == \"$dataset\" {\n$wrap\n	}|" "$suite"
diff -u "$REPO/matrix/matrix.go" "$suite" >"$scratch.diff" || true
(cd "$scratch" && gofmt -l matrix/matrix.go | grep -q . && { echo "inject-work.sh: the injected matrix.go is not gofmt-clean" >&2; exit 2; }) || true
