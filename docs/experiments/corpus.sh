#!/usr/bin/env bash
# corpus.sh — wirebench on a corpus of released Go libraries (issue 53):
# serialization, compression and hashing modules from the Go module proxy,
# each laid out as two git repositories, base (one release) and head (the
# next), as a user's checkouts are. The module zips carry the _test.go
# files, so the libraries' own benchmarks run. Nothing of the libraries is
# committed: the trees are made under $WORK.
#
#   docs/experiments/corpus.sh prepare [LIB...]  fetch every library's two
#       releases (go mod download), copy each to $WORK/LIB/{base,head},
#       writable, git init + one commit (dated the release's time), fetch
#       its dependencies; LIB/meta.tsv records the module, the versions,
#       their go.mod go and toolchain lines and the Go each side runs on
#   docs/experiments/corpus.sh native [LIB...]  per library and side,
#       go test -json -run '^$' -bench BENCH -benchtime 1x -cpu NATIVE_CPU
#       -timeout 0 PACKAGES, with the toolchain the module asks for
#       (GOTOOLCHAIN=auto), for at most NATIVE_LIMIT: LIB/native-SIDE.jsonl
#       (the stream), .err, .tsv (exit, seconds, load before and after, the
#       selection), .summary.json (corpus native: every result line's
#       benchmark, the skipped, the failed, the packages that did not
#       build or failed, and why)
#   docs/experiments/corpus.sh ab [LIB...]  from head, wirebench ab --base
#       ../base --bench BENCH --packages PACKAGES --format json --report
#       (default settings otherwise): LIB/ab/report.json, report.md,
#       stderr.log, run.tsv (exit, wall seconds, load before and after)
#   docs/experiments/corpus.sh aa [LIB...]  A/A: head against a copy of
#       itself (LIB/head-copy), --measure-all, the same records in LIB/aa/
#   docs/experiments/corpus.sh table [MODE...]  one Markdown table per mode
#       (native, ab, aa; default all three) from the records, on stdout
#
# LIB is a library's short name (the catalogue below); without any, LIBS.
# The table of a mode reads the JSON reports through classify in
# docs/experiments/corpus/main.go (counted, timed only, identical, one
# side only, failed, not counted, and why).
#
# Knobs (environment):
#   WORK          where everything goes (default /tmp/wirebench-corpus)
#   WB            the wirebench binary to run (default: built from this
#                 tree into $WORK/bin/wirebench)
#   LIBS          the libraries of the corpus (default: the chosen ones
#                 below); LIBS=all: every library of the catalogue
#   BENCH         overrides every library's --bench / -bench selection
#   PACKAGES      overrides every library's package patterns
#   NATIVE_CPU    go test -cpu of the native runs (default: nproc, what go
#                 test takes by default here; the names' -N suffix)
#   NATIVE_LIMIT  the wall time a native run of one side may take (default
#                 10m; timeout(1): go test's -timeout does not bound
#                 benchmarks); a package still running then is a problem
#                 "did not finish", with the benchmark it was in
#   WB_FLAGS      more flags for wirebench ab, both modes (default none)
#   TAG           names this series of ab and aa runs: their records go
#                 to LIB/ab-TAG and LIB/aa-TAG (e.g. TAG=before with the
#                 WB of an earlier commit), and table ab-TAG reads them
#   WB_LIMIT      the wall time one wirebench run may take (default: no
#                 limit; timeout(1) with SIGINT, exit 124 when it struck)
#
# ab and aa on the whole corpus take hours (counting costs about a second
# per benchmark and process): run them one library at a time on a machine
# nothing else is measuring on, and note the load beside every time.
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/wirebench-corpus}
OUT=$WORK # lib.sh's log writes $OUT/experiment.log
mkdir -p "$WORK"
. "$REPO/docs/experiments/lib.sh"
need go git jq timeout
NATIVE_CPU=${NATIVE_CPU:-$(nproc)}
NATIVE_LIMIT=${NATIVE_LIMIT:-10m}
WB_FLAGS=${WB_FLAGS:-}

# The chosen corpus (lib says why each): hashing (xxhash, xxh3 with its
# AVX-512 sub-benchmarks, blake3), JSON (goccy/go-json,
# segmentio/encoding), MessagePack (msgpack; msgp, whose tests do not
# build from the module zip), CBOR, protobuf, compression (the zstd
# package of klauspost/compress, snappy). About 1,200 benchmarks natively
# (the head; corpus-native-*.md); the full sets of xxh3, segmentio,
# protobuf and compress would add some 2,000 more, msgp 672.
CORPUS="xxhash xxh3 msgpack gojson segmentio cbor protobuf compress snappy blake3 msgp"
CATALOGUE="$CORPUS jsoniter lz4 fastjson gjson zeebo-blake3"
case ${LIBS:-} in
"") LIBS=$CORPUS ;;
all) LIBS=$CATALOGUE ;;
esac

# lib NAME: sets module, base, head (two consecutive releases), packages
# and bench: the selection that wirebench and the native runs take,
# ./... and . unless a library's full set is too large or too slow to
# count in reasonable time (counting costs about a second per benchmark
# and process), and then why. The native counts quoted are the head's.
lib() {
	packages=./... bench=.
	case $1 in
	# 20 benchmarks: the one to try the script on.
	xxhash) module=github.com/cespare/xxhash/v2 base=v2.2.0 head=v2.3.0 ;;
	# Its AVX-512 sub-benchmarks exist only where the CPU says it has
	# AVX-512 (they are not registered otherwise): Valgrind's CPU does
	# not. 400 benchmarks: the 64-bit ones only (200, AVX-512 among
	# them); the 128-bit ones run the same code paths.
	xxh3) module=github.com/zeebo/xxh3 base=v1.0.2 head=v1.1.0 bench='^Benchmark(Fixed64|Hasher64)$' ;;
	msgpack) module=github.com/vmihailenco/msgpack/v5 base=v5.4.0 head=v5.4.1 ;;
	# 225 benchmarks in the base, 281 in the head (56 new).
	gojson) module=github.com/goccy/go-json base=v0.11.2 head=v0.12.0 ;;
	# json's BenchmarkTypeFieldsCache makes 10^6 struct types with
	# reflect (10^3 only on Go's builders) and every benchmark after it
	# in the process then takes seconds natively (the whole set did not
	# finish in 14 minutes): left out, by the only regular expression
	# go test's -bench allows for it (no BenchmarkTy...). The ascii
	# package's 81 string benchmarks left out for the time: 303 remain.
	segmentio) module=github.com/segmentio/encoding base=v0.5.3 head=v0.5.4 \
		packages='./json ./proto ./thrift ./iso8601' bench='^Benchmark([^T]|T[^y])' ;;
	# go.mod's go line moves from 1.20 to 1.24; 194 benchmarks, 215.
	cbor) module=github.com/fxamacker/cbor/v2 base=v2.9.6 head=v2.10.0 ;;
	# 750 benchmarks, 686 of them the proto package's Encode and Decode
	# of every test message: those of test3.TestAllTypes only (80); the
	# sub-benchmarks' names have parentheses and a star.
	protobuf) module=google.golang.org/protobuf base=v1.36.11 head=v1.36.12 \
		packages=./proto bench='^Benchmark(Encode|Decode)$/\(\*test3\.TestAllTypes\)$' ;;
	# The zstd package declares a package-level const debug, the name
	# of an import of wirebench's worker (runtime/debug). 1,166
	# benchmarks (244 skipped: test data that is not in the zip), 342 of
	# them zstd's: encoders, a decoder of each kind, the sequence decoder
	# (about 75), with one that fails natively (its test file is missing)
	# and one that skips.
	compress) module=github.com/klauspost/compress base=v1.20.4 head=v1.20.5 packages=./zstd \
		bench='^Benchmark(Encoder_|Random|Decoder_DecodeAll$|Decoder_DecoderNewSomeRead$|Decoder_DecoderSmall$|_seqdec_decode$|DecoderSilesia$)' ;;
	# go.mod without a go line (language version go1.16); 2 benchmarks
	# run, 36 skip (their test data is fetched separately).
	snappy) module=github.com/golang/snappy base=v0.0.4 head=v1.0.0 ;;
	# Assembly with AVX-512 chosen at run time (klauspost/cpuid): the
	# count sees another code path than the clock. 12 benchmarks.
	blake3) module=lukechampine.com/blake3 base=v1.5.1 head=v1.5.2 ;;
	# The root package and msgp's own test files need code go generate
	# makes, which the zip lacks: they do not build; all 672 benchmarks
	# that run are the generated set package's. Only the package that
	# does not build (0 benchmarks run): a head that does not build.
	msgp) module=github.com/tinylib/msgp base=v1.6.4 head=v1.6.5 packages=./msgp ;;
	# Not in the corpus (LIBS=all, or by name):
	jsoniter) module=github.com/json-iterator/go base=v1.1.11 head=v1.1.12 ;;
	lz4) module=github.com/pierrec/lz4/v4 base=v4.1.33 head=v4.1.34 ;;
	fastjson) module=github.com/valyala/fastjson base=v1.6.7 head=v1.6.10 ;;
	gjson) module=github.com/tidwall/gjson base=v1.20.5 head=v1.20.6 ;;
	zeebo-blake3) module=github.com/zeebo/blake3 base=v0.2.3 head=v0.2.4 ;;
	*) echo "$(basename "$0"): no library $1 (the catalogue: $CATALOGUE)" >&2; exit 2 ;;
	esac
	packages=${PACKAGES:-$packages} bench=${BENCH:-$bench}
}

# wirebench: WB, or built from this tree.
wb() {
	if [ -z "${WB:-}" ]; then
		WB=$WORK/bin/wirebench
		(cd "$REPO" && go build -o "$WB" ./cmd/wirebench)
	fi
}

# corpus_tool ARG...: the table and summary program, built once a run.
CORPUS_BUILT=""
corpus_tool() {
	if [ -z "$CORPUS_BUILT" ]; then
		(cd "$REPO/docs/experiments/corpus" && go build -o "$WORK/bin/corpus" .)
		CORPUS_BUILT=1
	fi
	"$WORK/bin/corpus" "$@"
}

load() { cut -d' ' -f1-3 /proc/loadavg; }

# elapsed START: seconds since START (date +%s.%N).
elapsed() { awk -v s="$1" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}'; }

# golines DIR: the go and toolchain lines of DIR/go.mod ("-" when none).
golines() {
	local g t
	g=$(sed -n 's/^go \([^ ]*\).*/\1/p' "$1/go.mod" | head -1)
	t=$(sed -n 's/^toolchain \([^ ]*\).*/\1/p' "$1/go.mod" | head -1)
	printf '%s%s' "${g:--}" "${t:+ (toolchain $t)}"
}

# tree VERSION DIR: a git repository of the module at VERSION.
tree() {
	local version=$1 dir=$2 json src when
	json=$(cd "$WORK" && go mod download -json "$module@$version")
	src=$(jq -r .Dir <<<"$json")
	when=$(jq -r .Info <<<"$json" | xargs jq -r .Time)
	rm -rf "$dir"
	cp -r "$src" "$dir"
	chmod -R u+w "$dir"
	(
		cd "$dir"
		git init -q
		git add -A -f .
		GIT_AUTHOR_NAME=corpus GIT_AUTHOR_EMAIL=corpus@example.com GIT_AUTHOR_DATE=$when \
			GIT_COMMITTER_NAME=corpus GIT_COMMITTER_EMAIL=corpus@example.com GIT_COMMITTER_DATE=$when \
			git commit -q -m "$module $version"
		# The test dependencies, so that the runs do not download them.
		GOTOOLCHAIN=auto go mod download
	)
}

prepare() {
	local name dir
	for name in "$@"; do
		lib "$name"
		dir=$WORK/$name
		mkdir -p "$dir"
		log "prepare $name: $module $base -> $head"
		tree "$base" "$dir/base"
		tree "$head" "$dir/head"
		{
			printf 'module\t%s\nbase\t%s\nhead\t%s\npackages\t%s\nbench\t%s\n' "$module" "$base" "$head" "$packages" "$bench"
			printf 'base_go\t%s\nhead_go\t%s\n' "$(golines "$dir/base")" "$(golines "$dir/head")"
			printf 'base_goversion\t%s\n' "$(cd "$dir/base" && GOTOOLCHAIN=auto go env GOVERSION)"
			printf 'head_goversion\t%s\n' "$(cd "$dir/head" && GOTOOLCHAIN=auto go env GOVERSION)"
			printf 'base_commit\t%s\n' "$(git -C "$dir/base" rev-parse HEAD)"
			printf 'head_commit\t%s\n' "$(git -C "$dir/head" rev-parse HEAD)"
		} >"$dir/meta.tsv"
		printf '%s\t%s\t%s\t%s\n' "$name" "$module" "$base" "$head" >>"$WORK/versions.tsv"
	done
	sort -u -o "$WORK/versions.tsv" "$WORK/versions.tsv"
}

native() {
	local name side dir start code before
	for name in "$@"; do
		lib "$name"
		for side in base head; do
			dir=$WORK/$name
			[ -d "$dir/$side" ] || { echo "$(basename "$0"): $dir/$side missing: run prepare $name first" >&2; exit 2; }
			before=$(load)
			start=$(date +%s.%N)
			code=0
			# shellcheck disable=SC2086 # packages are patterns, split
			# go test's -timeout stops its alarm before the benchmarks (and
			# some benchmarks refuse to run under one, as wirebench's workers
			# run with none): -timeout 0, the run bounded by timeout(1), its
			# whole process group.
			(cd "$dir/$side" && GOTOOLCHAIN=auto timeout -k 10s "$NATIVE_LIMIT" go test -json -run '^$' -bench "$bench" \
				-benchtime 1x -cpu "$NATIVE_CPU" -timeout 0 $packages) >"$dir/native-$side.jsonl" 2>"$dir/native-$side.err" || code=$?
			printf 'exit\t%s\nseconds\t%s\nload_before\t%s\nload_after\t%s\npackages\t%s\nbench\t%s\n' "$code" \
				"$(elapsed "$start")" "$before" "$(load)" "$packages" "$bench" >"$dir/native-$side.tsv"
			corpus_tool native -procs "$NATIVE_CPU" -stderr "$dir/native-$side.err" <"$dir/native-$side.jsonl" >"$dir/native-$side.summary.json"
			log "native $name $side: exit $code, $(jq '.results | length' "$dir/native-$side.summary.json") benchmarks," \
				"$(jq '.skipped | length' "$dir/native-$side.summary.json") skipped, $(jq '.failed | length' "$dir/native-$side.summary.json") failed," \
				"$(jq '.problems | length' "$dir/native-$side.summary.json") package problems ($(sed -n 's/^seconds\t//p' "$dir/native-$side.tsv") s, load $before -> $(load))"
		done
	done
}

# run MODE NAME BASE: wirebench ab from NAME's head against BASE.
run() {
	local mode=$1 name=$2 base=$3 dir start code before
	dir=$WORK/$name/$mode${TAG:+-$TAG}
	rm -rf "$dir"
	mkdir -p "$dir"
	local args=(ab --base "$base" --bench "$bench" --packages "$packages" --format json --report "$dir/report.md")
	[ "$mode" = aa ] && args+=(--measure-all)
	# shellcheck disable=SC2206 # WB_FLAGS are flags, split
	args+=($WB_FLAGS)
	printf '%q ' "$WB" "${args[@]}" >"$dir/command"
	before=$(load)
	log "$mode $name: $(cat "$dir/command") (load $before)"
	start=$(date +%s.%N)
	code=0
	local limit=()
	[ -n "${WB_LIMIT:-}" ] && limit=(timeout --signal=INT --kill-after=30s "$WB_LIMIT")
	(cd "$WORK/$name/head" && "${limit[@]}" "$WB" "${args[@]}") >"$dir/report.json" 2>"$dir/stderr.log" || code=$?
	printf 'exit\t%s\nseconds\t%s\nload_before\t%s\nload_after\t%s\n' "$code" \
		"$(elapsed "$start")" "$before" "$(load)" >"$dir/run.tsv"
	[ -s "$dir/report.json" ] || rm -f "$dir/report.json"
	log "$mode $name: exit $code, $(sed -n 's/^seconds\t//p' "$dir/run.tsv") s, load $(load)"
}

ab() {
	local name
	wb
	for name in "$@"; do
		lib "$name"
		[ -d "$WORK/$name/head" ] || { echo "$(basename "$0"): run prepare $name first" >&2; exit 2; }
		run ab "$name" ../base
	done
}

aa() {
	local name
	wb
	for name in "$@"; do
		lib "$name"
		[ -d "$WORK/$name/head" ] || { echo "$(basename "$0"): run prepare $name first" >&2; exit 2; }
		rm -rf "$WORK/$name/head-copy"
		cp -a "$WORK/$name/head" "$WORK/$name/head-copy"
		run aa "$name" ../head-copy
	done
}

table() {
	local mode
	# shellcheck disable=SC2086 # LIBS is a list
	for mode in ${*:-native ab aa}; do
		echo "### $mode"
		echo
		corpus_tool table -work "$WORK" -mode "$mode" $LIBS
		echo
	done
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
prepare | native | ab | aa)
	# shellcheck disable=SC2086 # LIBS is a list
	[ $# -gt 0 ] || set -- $LIBS
	"$cmd" "$@"
	;;
table) table "$@" ;;
*)
	echo "usage: $(basename "$0") prepare|native|ab|aa [LIB...] | table [MODE...]" >&2
	exit 2
	;;
esac
