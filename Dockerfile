# wirebench's action image: a static binary, plus the Go toolchain that the
# same-runner A/B mode uses to build the base and head versions of a
# suite. Nothing else: no shell, no package manager.
#
# Multi-arch: the binary is cross-compiled on the build platform; the
# toolchain stage is pulled for the target platform, so an arm64 image
# carries an arm64 Go.
#
#   docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/OWNER/wirebench:v1 .

ARG GO_VERSION=1.26

FROM --platform=$BUILDPLATFORM golang:${GO_VERSION} AS build
ARG TARGETOS=linux
ARG TARGETARCH=amd64
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -buildvcs=false -ldflags="-s -w" -o /out/wirebench ./cmd/wirebench \
 && mkdir -p /out/tmp && chmod 1777 /out/tmp

FROM golang:${GO_VERSION} AS toolchain

FROM scratch
LABEL org.opencontainers.image.source="https://github.com/wirebench/wirebench" \
      org.opencontainers.image.description="wirebench: serialization benchmarks that gate pull requests"
# The Go toolchain (for the A/B mode's builds) and the CA certificates the
# go command needs to download modules; the binary carries its own roots.
COPY --from=toolchain /usr/local/go /usr/local/go
COPY --from=toolchain /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/tmp /tmp
COPY --from=build /out/wirebench /wirebench
ENV PATH=/usr/local/go/bin \
    CGO_ENABLED=0 \
    GOFLAGS=-buildvcs=false \
    GOTOOLCHAIN=local \
    GODEBUG=madvdontneed=0
# No USER: Docker actions must run as root to write the runner's
# file-command files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY). No WORKDIR: the
# runner mounts the workspace and makes it the working directory.
ENTRYPOINT ["/wirebench"]
