# lib.sh — what the experiment scripts share, sourced (`. "$REPO/docs/experiments/lib.sh"`)
# once REPO (this tree) is set; log needs OUT. Defines:
#   log MESSAGE...          a timestamped line on stderr and in $OUT/experiment.log
#   need TOOL...            exits 2 naming the first tool not in PATH
#   target OP CODEC DATASET the embedded suite's benchmark name, e.g.
#                           BenchmarkSerialize/codec=protobuf/dataset=small
#   copy_tree DIR           this tree without .git, copied into DIR (made afresh)
#   start_hogs, stop_hogs   CPU_HOGS `yes` processes beside a run, stopped
#                           whatever happens (exit, INT, TERM)
#   injection USAGE ARG...  the injectors' arguments (SCRATCH X CODEC DATASET OP):
#                           exits 2 with USAGE unless there are five; copies this
#                           tree to SCRATCH and sets scratch, codec, dataset, op and
#                           suite (the copy's matrix/matrix.go, where the change goes)
#   injected                writes the change to SCRATCH.diff; exits 2 if the
#                           changed matrix.go is not gofmt-clean
#   spin_func FILE          appends to the Go file FILE wirebenchSpin(n): n steps of
#                           a dependent multiply-add chain, the injected work of
#                           the experiments on real modules' benchmarks
#   history N ARG...        N runs of `$OUT/bin/wb update ARG...` into the baseline
#                           $OUT/baseline.json, each recording GITHUB_SHA=$COMMIT
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" | tee -a "$OUT/experiment.log" >&2; }

need() {
	for need_tool in "$@"; do
		command -v "$need_tool" >/dev/null || { echo "$(basename "$0"): needs $need_tool" >&2; exit 2; }
	done
}

target() {
	case $1 in
	serialize) printf 'BenchmarkSerialize/codec=%s/dataset=%s\n' "$2" "$3" ;;
	deserialize) printf 'BenchmarkDeserialize/codec=%s/dataset=%s\n' "$2" "$3" ;;
	*) echo "$(basename "$0"): the operation is serialize or deserialize, not $1" >&2; exit 2 ;;
	esac
}

copy_tree() {
	rm -rf "$1"
	mkdir -p "$1"
	(cd "$REPO" && tar --exclude=./.git -cf - .) | (cd "$1" && tar -xf -)
}

injection() {
	injection_usage=$1
	shift
	[ $# = 5 ] || { echo "usage: $injection_usage" >&2; exit 2; }
	scratch=$1 codec=$3 dataset=$4 op=$5
	copy_tree "$scratch"
	suite="$scratch/matrix/matrix.go"
}

injected() {
	diff -u "$REPO/matrix/matrix.go" "$suite" >"$scratch.diff" || true
	if (cd "$scratch" && gofmt -l matrix/matrix.go) | grep -q .; then
		echo "$(basename "$0"): the injected matrix.go is not gofmt-clean" >&2
		exit 2
	fi
}

history() {
	history_n=$1
	shift
	run_n=1
	while [ "$run_n" -le "$history_n" ]; do
		log "history $run_n/$history_n: update $*"
		(cd "$OUT" && GITHUB_SHA=$COMMIT "$OUT/bin/wb" update --baseline "$OUT/baseline.json" "$@" \
			--out "$OUT/history-$run_n.results.json" >"$OUT/history-$run_n.txt" 2>"$OUT/history-$run_n.err")
		run_n=$((run_n + 1))
	done
}

# (sh has no local variables: the hogs' counter is not the callers' i)
HOGS=""
start_hogs() {
	hog=0
	while [ "$hog" -lt "${CPU_HOGS:-0}" ]; do
		yes >/dev/null &
		HOGS="$HOGS $!"
		hog=$((hog + 1))
	done
}
stop_hogs() {
	for hog_pid in $HOGS; do kill "$hog_pid" 2>/dev/null || true; done
	for hog_pid in $HOGS; do wait "$hog_pid" 2>/dev/null || true; done
	HOGS=""
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM

spin_func() {
	cat >>"$1" <<'GO'

var wirebenchSink uint64

// wirebenchSpin is the injected work: n steps of a dependent chain.
func wirebenchSpin(n int) {
	x := wirebenchSink
	for i := 0; i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	wirebenchSink = x
}
GO
}

# inject_spin JSON TARGET PCT FILE: makes TARGET, a benchmark of the Go
# file FILE, do about PCT% more work: wirebenchSpin steps in its loop,
# as many as PCT% of the instructions/op the comparison JSON counted for
# it in the base (PER_STEP instructions a step, default 8). Sets steps.
inject_spin() {
	count=$(python3 -c 'import json,sys; print([c for c in json.load(open(sys.argv[1]))["comparisons"] if c["unit"]=="instructions/op" and c["name"].split()[-1]==sys.argv[2]][0]["baseline"])' "$1" "$2")
	steps=$(awk -v n="$count" -v p="$3" -v per="${PER_STEP:-8}" 'BEGIN {printf "%d", n*p/100/per + 0.5}')
	log "$2 counts $count instructions/op: $steps steps for about $3%"
	spin_func "$4"
	perl -0pi -e "s/(func $2\(b \*testing.B\) \{.*?for (\w+) := 0; \2 < b.N; \2\+\+ \{\n)/\$1\t\twirebenchSpin($steps) \/\/ injected\n/s" "$4"
	grep -q "wirebenchSpin($steps) // injected" "$4"
}
