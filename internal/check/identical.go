package check

import (
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/human"
	"github.com/wirebench/wirebench/internal/program"
	"github.com/wirebench/wirebench/internal/sandbox"
)

// splitIdentical takes out of base and head the parts that are the same
// package with the same non-empty hash (program.Part.Hash) on both sides:
// they run the same instructions on the same inputs, so measuring them
// can find nothing. It returns the parts left to measure and the head's
// identical parts.
func splitIdentical(base, head program.Program) (b, h, same program.Program) {
	hashes := map[string]string{}
	for _, p := range base {
		if p.Hash != "" {
			hashes[p.Package] = p.Hash
		}
	}
	for _, p := range head {
		if p.Hash != "" && hashes[p.Package] == p.Hash {
			same = append(same, p)
		} else {
			h = append(h, p)
		}
	}
	for _, p := range base {
		if !slices.ContainsFunc(same, func(s program.Part) bool { return s.Package == p.Package }) {
			b = append(b, p)
		}
	}
	return b, h, same
}

// listIdentical names the benchmarks of the identical parts, for the
// report: each part is started natively once, in the sandbox, and asked
// for its list (a test binary's worker lists by running each benchmark
// once), then stopped. Nothing is measured.
func listIdentical(ctx context.Context, progress io.Writer, sb *sandbox.Sandbox, same program.Program, env []string) ([]compare.Identical, error) {
	if len(same) == 0 {
		return nil, nil
	}
	var out []compare.Identical
	n := 0
	for _, p := range same {
		w, err := program.Start(ctx, "head", "identical", program.Program{p}, env, program.StartOptions{Sandbox: sb}, program.NewLists())
		if err != nil {
			return nil, &program.SideError{Side: "head", Err: fmt.Errorf("list the benchmarks of %s, identical in both builds: %w", cmpPackage(p.Package), err)}
		}
		names := w.Handshake().Benchmarks
		if err := w.Close(); err != nil {
			return nil, &program.SideError{Side: "head", Err: fmt.Errorf("list the benchmarks of %s: %w", cmpPackage(p.Package), err)}
		}
		id := compare.Identical{Package: p.Package, Hash: p.Hash}
		for _, name := range names {
			id.Benchmarks = append(id.Benchmarks, compare.IdenticalBenchmark{Name: name})
		}
		n += len(names)
		out = append(out, id)
	}
	fmt.Fprintf(progress, "wirebench: %s in %s not measured: %s in both builds (--measure-all measures them)\n",
		human.Plural(n, "benchmark", "benchmarks"), human.Plural(len(out), "package", "packages"), compare.IdenticalReason[:len("identical test binary and files")])
	return out, nil
}

// cmpPackage names a part's package for messages ("the suite" for the
// embedded one, which has none).
func cmpPackage(pkg string) string {
	if pkg == "" {
		return "the suite"
	}
	return pkg
}
