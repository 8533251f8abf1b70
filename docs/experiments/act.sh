#!/usr/bin/env bash
# act.sh — a runner written by someone else, nektos/act v0.2.89, runs the
# action (issue 42): the README's workflow on a push (the baseline) and
# a pull_request, against the fake API (docs/experiments/act/fakeapi),
# with the action's image built here and podman's Docker-compatible API.
#
# What it does differently from GitHub's runner, and why (nothing here can
# be pulled or cloned from GitHub):
#   - the job runs on this machine (-P ubuntu-24.04=-self-hosted), not
#     in a runner image; act skips actions/checkout of the local repository
#     and copies the working tree;
#   - wirebench/wirebench@v1 is this tree (--local-repository), whose
#     action.yml names the image built here (docker://) instead of the
#     Dockerfile, which starts FROM images that cannot be pulled; the image
#     is the container tests' (their cached Debian base with Valgrind,
#     cmd/action's static binary), without the Go toolchain, so the
#     workflow measures the embedded suite (FILTER), not `bench: .`;
#   - the jobs run in a container of that Debian base (-P), with the
#     working tree bound (--bind), so the second half finds the relay the
#     first left: the example pair's upload-artifact and download-artifact
#     steps are left out (they cannot be fetched, and a download by run-id
#     goes to the API, which the fake does not serve); the rest of the
#     pair is examples/workflows' as written.
#
#   docs/experiments/act.sh        writes OUT (default a new directory
#                                  under /tmp): act's logs, the API's
#                                  requests and comments, summary.txt
# Needs go, podman, git, and the container tests' base image tarball
# (run the container tests once: ~/.cache/wirebench-e2e/*.tar).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$(mktemp -d /tmp/wirebench-act.XXXXXX)}
FILTER=${FILTER:-Serialize/codec=protobuf/dataset=small}
export CONTAINERS_CONF=${CONTAINERS_CONF:-$REPO/.ci/containers.conf}
log() { echo "$(date -u +%H:%M:%S) $*" | tee -a "$OUT/summary.txt"; }
mkdir -p "$OUT/bin" "$OUT/ctx" "$OUT/action"
log "results in $OUT"
GOBIN=$OUT/bin go install github.com/nektos/act@v0.2.89
(cd "$REPO" && go build -o "$OUT/bin/fakeapi" ./docs/experiments/act/fakeapi)
(cd "$REPO" && CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags=-w -o "$OUT/ctx/wirebench" ./cmd/action)

pm=(podman --root "$OUT/store" --runroot "$OUT/runroot" --storage-driver vfs)
"${pm[@]}" system service --time=0 "unix://$OUT/podman.sock" >"$OUT/podman.log" 2>&1 &
svc=$!
api=""
cleanup() { kill "$svc" 2>/dev/null || true; [ -n "$api" ] && kill "$api" 2>/dev/null || true; }
trap cleanup EXIT
export DOCKER_HOST=unix://$OUT/podman.sock
base=$(ls "$HOME"/.cache/wirebench-e2e/wirebench-e2e-base-*.tar | head -1)
"${pm[@]}" import "$base" localhost/wirebench-act-base:latest >/dev/null
cat >"$OUT/ctx/Containerfile" <<'CF'
FROM localhost/wirebench-act-base:latest
COPY wirebench /wirebench
ENV GODEBUG=madvdontneed=0
ENTRYPOINT ["/wirebench"]
CF
"${pm[@]}" build --pull=never -q -t localhost/wirebench-act:latest -f "$OUT/ctx/Containerfile" "$OUT/ctx" >/dev/null
log "image localhost/wirebench-act:latest built"
sed 's|^  image: Dockerfile$|  image: docker://localhost/wirebench-act:latest|' "$REPO/action.yml" >"$OUT/action/action.yml"
grep -q 'docker://localhost/wirebench-act' "$OUT/action/action.yml"

token=ghs_WbActWriteTok0123456789abcdef
forktoken=ghs_WbActForkTok0123456789abcdefgh
forksha=$(printf '2%.0s' $(seq 40))
"$OUT/bin/fakeapi" -token "$token" -fork-token "$forktoken" -pr "43:contributor/codecs:fast-msgpack:$forksha" -dump "$OUT/api.json" >"$OUT/api.url" &
api=$!
for _ in $(seq 50); do [ -s "$OUT/api.url" ] && break; sleep 0.1; done
url=$(head -1 "$OUT/api.url")
log "fake API at $url"

ws=$OUT/workspace
mkdir -p "$ws/.github/workflows"
cat >"$ws/.github/workflows/wirebench.yml" <<YML
on:
  pull_request:
  push:
    branches: [main]
permissions:
  contents: write
  pull-requests: write
jobs:
  wirebench:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v4
        with:
          persist-credentials: false
      - uses: wirebench/wirebench@v1
        with:
          filter: $FILTER
          metric: instructions
YML
(cd "$ws" && git init -q -b main && git add -A && git -c user.email=a@b -c user.name=act commit -qm init)
sha=$(git -C "$ws" rev-parse HEAD)
cat >"$OUT/push.json" <<JSON
{"ref": "refs/heads/main", "after": "$sha", "repository": {"full_name": "octo-org/codecs", "default_branch": "main"}, "sender": {"login": "octo"}}
JSON
cat >"$OUT/pull_request.json" <<JSON
{"action": "synchronize", "number": 42,
 "pull_request": {"number": 42, "body": "", "user": {"login": "octo"}, "labels": [],
   "head": {"sha": "$sha", "ref": "feature", "repo": {"full_name": "octo-org/codecs", "fork": false}},
   "base": {"sha": "$sha", "ref": "main", "repo": {"full_name": "octo-org/codecs"}}},
 "repository": {"full_name": "octo-org/codecs", "default_branch": "main"}, "sender": {"login": "octo"}}
JSON
# run NAME EVENT TOKEN WORKFLOW: act runs WORKFLOW of $ws on EVENT with
# the payload $OUT/NAME.json, the token TOKEN.
run() {
	local name=$1 event=$2 tok=$3 wf=$4 code=0
	(cd "$ws" && "$OUT/bin/act" "$event" -W "$wf" -e "$OUT/$name.json" -P ubuntu-24.04=localhost/wirebench-act-base:latest --pull=false --bind \
		--local-repository "wirebench/wirebench@v1=$OUT/action" \
		--env "GITHUB_API_URL=$url" --env GITHUB_REPOSITORY=octo-org/codecs -s "GITHUB_TOKEN=$tok" \
		--container-daemon-socket - ) >"$OUT/act-$name.log" 2>&1 || code=$?
	log "act $name ($event, $wf): exit $code ($(grep -c . "$OUT/act-$name.log") log lines)"
}
run push push "$token" .github/workflows/wirebench.yml
run pull_request pull_request "$token" .github/workflows/wirebench.yml

# The fork pair, as examples/workflows has it (less the artifact steps).
mkdir -p "$ws/pair"
sed -e '/- name: Upload the relay/,$d' -e "s|          bench: .|          filter: $FILTER\n          metric: instructions|" \
	"$REPO/examples/workflows/wirebench.yml" >"$ws/pair/wirebench.yml"
sed -e '/- name: Download the relay/,/path: wirebench-relay/d' -e 's|      - if: steps.relay.outcome == .success.|      - if: always()|' \
	"$REPO/examples/workflows/wirebench-comment.yml" >"$ws/pair/wirebench-comment.yml"
cat >"$OUT/fork.json" <<JSON
{"action": "synchronize", "number": 43,
 "pull_request": {"number": 43, "body": "", "user": {"login": "contributor"}, "labels": [],
   "head": {"sha": "$forksha", "ref": "fast-msgpack", "repo": {"full_name": "contributor/codecs", "fork": true}},
   "base": {"sha": "$sha", "ref": "main", "repo": {"full_name": "octo-org/codecs"}}},
 "repository": {"full_name": "octo-org/codecs", "default_branch": "main"}, "sender": {"login": "contributor"}}
JSON
rm -rf "$ws/wirebench-results" "$ws/wirebench-relay"
run fork pull_request "$forktoken" pair/wirebench.yml
mkdir -p "$ws/wirebench-relay"
cp "$ws/wirebench-results/relay.json" "$ws/wirebench-relay/" && log "the fork's run left its relay ($(wc -c <"$ws/wirebench-relay/relay.json") bytes)"
cat >"$OUT/workflow_run.json" <<JSON
{"action": "completed",
 "workflow_run": {"id": 9001, "event": "pull_request", "status": "completed", "conclusion": "success",
   "html_url": "https://github.com/octo-org/codecs/actions/runs/9001", "head_sha": "$forksha", "head_branch": "fast-msgpack",
   "pull_requests": [], "head_repository": {"full_name": "contributor/codecs", "fork": true}},
 "repository": {"full_name": "octo-org/codecs", "default_branch": "main"}, "sender": {"login": "contributor"}}
JSON
run workflow_run workflow_run "$token" pair/wirebench-comment.yml
sed 's/"number": 43/"number": 42/' "$ws/wirebench-results/relay.json" >"$ws/wirebench-relay/relay.json"
cp "$OUT/workflow_run.json" "$OUT/workflow_run-forged.json"
run workflow_run-forged workflow_run "$token" pair/wirebench-comment.yml
kill -TERM "$api"; wait "$api" || true; api=""
log "API: $(jq '.requests | length' "$OUT/api.json") requests; comments on #42: $(jq '.comments["42"] | length' "$OUT/api.json"), on #43: $(jq '.comments["43"] // [] | length' "$OUT/api.json")"
jq -r '.requests[] | "\(.Method) \(.Path)"' "$OUT/api.json" >"$OUT/requests.txt"
