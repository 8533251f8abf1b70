#!/bin/sh
# inject-work.sh SCRATCH EVERY CODEC DATASET OP — copies this tree to
# SCRATCH (a new directory; the checkout is not touched) and gives one
# benchmark more work there, in one of two ways:
#
#  - EVERY a number: every EVERY-th operation OP (serialize or
#    deserialize) of CODEC on DATASET is done twice, so the benchmark does
#    1/EVERY more of its own work (EVERY 50: +2%, 100: +1%). The doubled
#    operation allocates too, so B/op grows by 1/EVERY (allocs/op, whole
#    allocations, does not show it while an operation allocates fewer
#    than EVERY objects), and a block of iterations holds a number of
#    doubled operations that depends on where the calls' counter stood,
#    which spreads the count between blocks and processes.
#  - EVERY "spinK" (e.g. spin64): every operation then runs K iterations
#    of an arithmetic loop into a package variable: the same extra
#    instructions in every operation, no allocation, no spread. What K
#    costs relative to the operation is measured (counted-stored.sh
#    calibrates K to a target percentage).
#
# Nothing else runs one instruction more. The change is written to
# SCRATCH.diff. Used by counted-stored.sh and counted-ab.sh.
set -eu
REPO=$(cd "$(dirname "$0")/../.." && pwd)
. "$REPO/docs/experiments/lib.sh"
injection "inject-work.sh SCRATCH EVERY CODEC DATASET serialize|deserialize" "$@"
every=$2
spin=""
case $every in
spin*) spin=${every#spin} ;;
esac
if [ -n "$spin" ]; then
	case $spin in *[!0-9]* | "") echo "inject-work.sh: spinK needs a whole K, not $every" >&2; exit 2 ;; esac
	case $op in
	serialize) fn=Encode sig="() ([]byte, error)" call="work()" ;;
	deserialize) fn=Decode sig="(b []byte) (any, error)" call="work(b)" ;;
	*) echo "inject-work.sh: OP is serialize or deserialize, not $op" >&2; exit 2 ;;
	esac
	wrap="		work := ops.$fn\n		ops.$fn = func$sig {\n			v, err := $call\n			s := 0\n			for i := range $spin {\n				s += i ^ (i >> 3)\n			}\n			injectedSink = s\n			return v, err\n		}"
fi
[ -n "$spin" ] || case $op in
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
[ -z "$spin" ] || printf '\n// injectedSink keeps the injected loop (inject-work.sh) from being optimised away.\nvar injectedSink int\n' >>"$suite"
injected
