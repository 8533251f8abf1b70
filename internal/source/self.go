package source

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"testing"

	"github.com/wirebench/wirebench/internal/bench"
	"github.com/wirebench/wirebench/internal/results"
)

// SuiteIdentical is what a stored check that skips the embedded suite
// says of it.
const SuiteIdentical = "this wirebench executable, and so the suite's code and data, is the one that recorded the baseline"

// SuitePackage is the package key of the embedded suite's benchmarks in
// results.Results.Hashes: they have none ("").
const SuitePackage = ""

// suiteHash is the identity of the embedded suite as p measures it: the
// SHA-256 of the executable that runs it (p.Self, or this process's
// own), with whether it is counted (and with the cache simulation) and
// the filter. The suite is wirebench's own code, compiled into that
// executable with every codec and dataset it measures, so the same hash
// measures the same code the same way: nothing a pull request changes
// reaches it. A stored check whose baseline recorded the same hash does
// not measure it (Embedded.Results), as a go test package whose test
// binary is identical is not.
func suiteHash(p Plan) (string, error) {
	self := p.Self
	if self == "" {
		var err error
		if self, err = os.Executable(); err != nil {
			return "", fmt.Errorf("find this binary to hash the embedded suite: %w", err)
		}
	}
	f, err := os.Open(self)
	if err != nil {
		return "", fmt.Errorf("hash the embedded suite: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hash the embedded suite: %s: %w", self, err)
	}
	counted, cache := p.Count != nil, p.Count != nil && p.Count.Callgrind.CacheSim
	fmt.Fprintf(h, "\x00counted=%s cache=%s filter=%q", strconv.FormatBool(counted), strconv.FormatBool(cache), p.Filter)
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// sameSuite is the results of a check that does not measure the
// embedded suite, hash being the baseline's (p.Known): none measured,
// the suite listed as unmeasured, with the reference's environment (the
// hash names the executable, and so its Go release and GOOS/GOARCH).
func sameSuite(p Plan, hash string) *results.Results {
	r := results.New(bench.SuiteName, bench.CaptureEnv(p.getenv))
	if ref := p.Reference; ref != nil {
		r.Env.GoVersion, r.Env.GOOS, r.Env.GOARCH, r.Env.GOMAXPROCS = ref.Env.GoVersion, ref.Env.GOOS, ref.Env.GOARCH, ref.Env.GOMAXPROCS
	}
	if p.Count != nil {
		r.Settings.Counter = p.Count.Counter()
	}
	r.Settings.Filter = p.Filter
	r.Axes = bench.Axes()
	r.Hashes = map[string]string{SuitePackage: hash}
	r.Unmeasured = []string{SuitePackage}
	return r
}

// hashable reports whether the embedded suite's executable can be
// hashed: not in a test binary counting it without Plan.Self (which
// fails on its own, saying why).
func hashable(p Plan) bool { return p.Self != "" || p.Count == nil || !testing.Testing() }
