# wirebench's action image: a static binary, the Go toolchain that the
# same-runner A/B mode and a module's `go test` benchmarks build with, a C
# compiler for the benchmarks whose packages use cgo, and Valgrind, which
# counts the work of each benchmark (metric auto counts instructions where
# Valgrind runs: docs/counted.md). The base is Debian's slim image because
# Valgrind comes from Debian's packages, for amd64 and arm64 alike; nothing
# else is installed.
#
# Multi-arch: the binary is cross-compiled on the build platform; the
# toolchain and Debian stages are pulled for the target platform, so an
# arm64 image carries an arm64 Go and an arm64 Valgrind.
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
# -w drops the debug information, not -s the symbol table: the embedded
# suite is counted in this binary's worker, and callgrind names the
# functions behind a count (where a change went) by its symbols
# (measured: 27.3 MB stripped, 29.9 MB with them).
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH \
    go build -trimpath -buildvcs=false -ldflags="-w" -o /out/wirebench ./cmd/action

FROM golang:${GO_VERSION} AS toolchain

FROM debian:bookworm-slim
# Valgrind (callgrind) for counted measurement, the CA certificates the go
# command needs to download modules (the binary carries its own), and gcc
# with the C library's headers: a module's test binaries that link a
# package using cgo are built with cgo, as go test builds them on an
# ubuntu runner; every other is built without (CGO_ENABLED is left to
# wirebench, not set here: internal/gotest/cgo.go). They add 204 MB to
# the image, 73 MB compressed (docs/your-benchmarks.md, "cgo").
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends valgrind ca-certificates gcc libc6-dev \
 && rm -rf /var/lib/apt/lists/*
LABEL org.opencontainers.image.source="https://github.com/wirebench/wirebench" \
      org.opencontainers.image.description="wirebench: serialization benchmarks that gate pull requests"
COPY --from=toolchain /usr/local/go /usr/local/go
COPY --from=build /out/wirebench /wirebench
ENV PATH=/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    GOFLAGS=-buildvcs=false \
    GOTOOLCHAIN=local \
    GODEBUG=madvdontneed=0
# /wirebench is cmd/action, the action's entrypoint: with no arguments the
# action; it serves every command of the wirebench tool too (its own binary
# is the embedded suite's counting worker and the sandbox's first step).
# No USER: Docker actions must run as root to write the runner's
# file-command files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY). No WORKDIR: the
# runner mounts the workspace and makes it the working directory.
ENTRYPOINT ["/wirebench"]
