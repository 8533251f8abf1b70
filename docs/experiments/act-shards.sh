#!/usr/bin/env bash
# act-shards.sh — nektos/act v0.2.89 runs the merge job of a same-runner
# A/B comparison split over a job matrix (docs/shards.md, issue 54) in
# the action's image, against the fake API: one comment, one summary, one
# verdict from the shards' files. The shard jobs themselves cannot run
# under act here: the image built below has no Go toolchain, and a shard
# builds both trees; their files are written beforehand on this machine
# with `wirebench ab --shard I/N` (AB_SHARDS: their directory, e.g.
# docs/experiments/shards-ab.sh's OUT/shards). The rest as act.sh:
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
#   AB_SHARDS=dir docs/experiments/act-shards.sh   writes OUT (default a new directory
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
# The example's merge job as docs/shards.md has it, less the
# download-artifact step (the files are copied into the workspace).
awk '/^## Same-runner A\/B over a job matrix/{f=1} f&&/^```yaml/{y=1;next} y&&/^```/{exit} y' "$REPO/docs/shards.md" |
	sed -e '/^  shard:/,/^  merge:/{/^  merge:/!d}' -e '/      - uses: actions\/download-artifact@v4/,/          path: shards/d' -e '/    needs: shard/d' >"$ws/.github/workflows/ab-merge.yml"
grep -q 'mode: merge' "$ws/.github/workflows/ab-merge.yml"
cp "$ws/.github/workflows/ab-merge.yml" "$OUT/"
mkdir -p "$ws/shards"
cp -r "${AB_SHARDS:?the directory of the shard files}"/. "$ws/shards/"
(cd "$ws" && git init -q -b main && git add -A && git -c user.email=a@b -c user.name=act commit -qm init)
sha=$(git -C "$ws" rev-parse HEAD)
cat >"$OUT/pull_request.json" <<JSON
{"action": "synchronize", "number": 42,
 "pull_request": {"number": 42, "body": "", "user": {"login": "octo"}, "labels": [],
   "head": {"sha": "$sha", "ref": "feature", "repo": {"full_name": "octo-org/codecs", "fork": false}},
   "base": {"sha": "$sha", "ref": "main", "repo": {"full_name": "octo-org/codecs"}}},
 "repository": {"full_name": "octo-org/codecs", "default_branch": "main"}, "sender": {"login": "octo"}}
JSON
code=0
(cd "$ws" && "$OUT/bin/act" pull_request -W .github/workflows/ab-merge.yml -e "$OUT/pull_request.json" -P ubuntu-24.04=localhost/wirebench-act-base:latest --pull=false --bind \
	--local-repository "wirebench/wirebench@v1=$OUT/action" \
	--env "GITHUB_API_URL=$url" --env GITHUB_REPOSITORY=octo-org/codecs -s "GITHUB_TOKEN=$token" \
	--container-daemon-socket - ) >"$OUT/act-ab-merge.log" 2>&1 || code=$?
log "act ab-merge (pull_request): exit $code ($(grep -c . "$OUT/act-ab-merge.log") log lines)"
"${pm[@]}" rm -f -t 2 -a >/dev/null 2>&1 || true # act leaves the job's container running
kill -TERM "$api"; wait "$api" || true; api=""
log "API: $(jq '.requests | length' "$OUT/api.json") requests; comments on #42: $(jq '.comments["42"] // [] | length' "$OUT/api.json")"
jq -r '.comments["42"][0].Body // ""' "$OUT/api.json" >"$OUT/comment-42.md"
log "the comment: $(grep -c . "$OUT/comment-42.md") lines; $(grep -o 'Merged from [0-9]* A/B shards' "$OUT/comment-42.md" | head -1)"
