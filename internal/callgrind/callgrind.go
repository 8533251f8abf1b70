package callgrind

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Cache geometry of the simulation: first-level instruction and data
// caches of 32 KiB, 8-way, and a last-level cache of 8 MiB, 16-way, with
// 64-byte lines: the geometry CodSpeed's CPU simulation fixes, so a count
// does not depend on the host's caches (callgrind would otherwise read
// them from the host's CPUID, and two runners would simulate two
// machines).
const (
	L1Bytes, L1Ways = 32 << 10, 8
	LLBytes, LLWays = 8 << 20, 16
	LineBytes       = 64
)

// Weights of the estimated cycles: an access that hits the first level
// costs 1, one that misses it and hits the last level 5, one that goes to
// memory 35. The weights of Itamar Turner-Trauring's "Consistent
// benchmarking in CI" (pythonspeed.com, 2019), which iai-callgrind
// (gungraun) and Bencher use too.
const (
	WeightL1  = 1
	WeightLL  = 5
	WeightRAM = 35
)

// Options say how to count.
type Options struct {
	// CacheSim adds callgrind's cache simulation at the fixed geometry
	// above, which the estimated cycles need; measured here, it makes a
	// counted block 2-3 times slower again.
	CacheSim bool
}

// Geometry names the simulated caches, "" without the simulation.
func (o Options) Geometry() string {
	if !o.CacheSim {
		return ""
	}
	return fmt.Sprintf("I1 %d,%d,%d D1 %d,%d,%d LL %d,%d,%d", L1Bytes, L1Ways, LineBytes, L1Bytes, L1Ways, LineBytes, LLBytes, LLWays, LineBytes)
}

// Args are valgrind's arguments that count prog (with its arguments)
// the way Begin and End expect, its dumps written to outFile.1-T,
// outFile.2-T, ... in the order of the blocks, one per thread T of the
// process: callgrind, instrumentation off until Begin, quiet
// (Valgrind's own messages only when something is wrong), the threads
// apart (see Dumps), and with CacheSim the cache simulation.
func (o Options) Args(outFile, prog string, args []string) []string {
	a := []string{"--tool=callgrind", "-q", "--instr-atstart=no", "--separate-threads=yes", "--callgrind-out-file=" + outFile}
	if o.CacheSim {
		geometry := func(bytes, ways int) string { return fmt.Sprintf("%d,%d,%d", bytes, ways, LineBytes) }
		a = append(a, "--cache-sim=yes",
			"--I1="+geometry(L1Bytes, L1Ways), "--D1="+geometry(L1Bytes, L1Ways), "--LL="+geometry(LLBytes, LLWays))
	}
	return append(append(a, prog), args...)
}

// Env is env with what Go needs under callgrind: GOMAXPROCS=1, and
// asyncpreemptoff=1, memprofilerate=0 (MemProfile) and cpu.rdtscp=off
// added to GODEBUG (the last GODEBUG of env decides, as for a process;
// its other settings are kept).
//
// cpu.rdtscp=off: Valgrind's virtual CPU reports RDTSCP whether or not
// the machine has it, and where the machine does not (a virtual machine
// whose hypervisor hides it: an AMD EPYC guest here), the instruction
// stops the process with SIGILL. The runtime reads the clock with it
// when a thread waits for a runtime lock (runtime.cputicks from lock2),
// so counted processes crashed at random: counting msgpack/v5's
// benchmarks in 5+5 processes, every one of 7 runs lost a process so.
// Off, the runtime reads the clock with RDTSC behind fences, which
// Valgrind runs everywhere: 0 of 3 runs.
func Env(env []string) []string {
	out := make([]string, 0, len(env)+2)
	godebug := ""
	for _, kv := range env {
		switch {
		case strings.HasPrefix(kv, "GOMAXPROCS="):
			continue
		case strings.HasPrefix(kv, "GODEBUG="):
			godebug = strings.TrimPrefix(kv, "GODEBUG=")
			continue
		}
		out = append(out, kv)
	}
	if godebug != "" {
		godebug += ","
	}
	return append(out, "GOMAXPROCS=1", "GODEBUG="+godebug+"asyncpreemptoff=1,memprofilerate=0,cpu.rdtscp=off")
}

// MemProfile is what Env does to the runtime's memory profiling: "off"
// (GODEBUG memprofilerate=0). The profiler samples allocations at
// random intervals and unwinds the stack of each sample (about 50,000
// instructions): with it on, msgpack's BenchmarkStructMarshal moved
// 0.4% between processes and counted 1.4% more (docs/design/counted-pairs.md,
// "Pairs").
const MemProfile = "off"

// Counts are the events callgrind counted in one block: instructions
// executed (Ir), data reads and writes (Dr, Dw) and, with the cache
// simulation, the misses of the first-level instruction and data caches
// (I1mr, D1mr, D1mw) and of the last level (ILmr, DLmr, DLmw).
type Counts struct {
	Ir, Dr, Dw       uint64
	I1mr, D1mr, D1mw uint64
	ILmr, DLmr, DLmw uint64
	// CacheSim is set when the dump had the cache events.
	CacheSim bool
}

// EstCycles is the estimated cycles of the block: every access weighted
// by the level that served it (WeightL1, WeightLL, WeightRAM). Without
// the cache simulation it is 0.
func (c Counts) EstCycles() float64 {
	if !c.CacheSim {
		return 0
	}
	ram := c.ILmr + c.DLmr + c.DLmw
	l1Miss := c.I1mr + c.D1mr + c.D1mw
	accesses := c.Ir + c.Dr + c.Dw
	// Saturate rather than wrap: a well-formed dump never has more
	// misses at a level than accesses reaching it.
	llHits := l1Miss - min(ram, l1Miss)
	l1Hits := accesses - min(l1Miss, accesses)
	return WeightL1*float64(l1Hits) + WeightLL*float64(llHits) + WeightRAM*float64(ram)
}

// maxDump bounds what ReadDump reads of a dump: the header is a few
// hundred bytes, the costs of every function the block ran follow (tens
// of kilobytes for the default suite's largest benchmarks).
const maxDump = 64 << 20

// ErrNoDump is returned by Dumps.Next when the block's dump file is not
// there.
var ErrNoDump = errors.New("no callgrind dump")

// ReadDump reads the counts of a callgrind dump: its "events:" line names
// the events, its "totals:" line (the last of the file) gives their sums
// over every function of the dump.
//
// Not its "summary:" line: measured here, with a worker process beside
// another, the summary of one dump in three disagreed with its totals,
// by the thousands of instructions another thread of the process (the
// runtime's monitor) ran, and now and then by wrapping below zero; the
// totals stayed within 0.05% of each other from block to block.
func ReadDump(r io.Reader) (Counts, error) {
	d, err := parseDump(r, totalsOnly)
	return d.totals, err
}

// parseSummary is the counts of a "totals:" line's values, one per
// event of the "events:" line (trailing zeros left out), with CacheSim
// set when the events are all those of the cache simulation.
func parseSummary(events, values []string) (Counts, error) {
	if len(values) > len(events) {
		return Counts{}, fmt.Errorf("callgrind dump: %d totals for %d events", len(values), len(events))
	}
	var c Counts
	fields := c.fields()
	seen := 0
	for i, e := range events {
		k := slices.Index(eventFields, e)
		if k < 0 {
			continue
		}
		seen++
		if i >= len(values) { // trailing zeros may be left out
			continue
		}
		v, err := strconv.ParseUint(values[i], 10, 64)
		if err != nil {
			return Counts{}, fmt.Errorf("callgrind dump: event %s: %v", e, err)
		}
		*fields[k] = v
	}
	if !slices.Contains(events, "Ir") {
		return Counts{}, fmt.Errorf("callgrind dump: no Ir (instructions) among the events %q", events)
	}
	c.CacheSim = seen == len(fields)
	return c, nil
}

// Dumps reads the dumps a counted process writes under one out file, in
// order: the first call reads the first block's, the next the second's,
// and so on, each file removed once read.
//
// A block's count is the sum over the threads of the process (End dumps
// them all: a goroutine that blocked in the kernel may go on on another
// thread, and work may be handed to one) but the Go runtime's monitor
// (sysmon), which wakes up on the clock, not on the work: measured here,
// it added a few hundred instructions to a block of 700,000 on a quiet
// machine and 1% to one of 1,400,000 beside other work, so with it a
// count would move with the machine's load. Without it the same loop
// counts the same to the instruction.
type Dumps struct {
	OutFile string
	// Profile has Next read where each block's work went too
	// (Block.Profile).
	Profile bool
	next    int
}

// Block is what one dump of a counted process holds: its counts, summed
// over the threads that count (see Dumps), and with Dumps.Profile the
// self cost of every function, summed over the same threads.
type Block struct {
	Counts
	// Profile is nil without Dumps.Profile, and when a thread's profile
	// could not be read (ProfileErr says why): the counts stand, where
	// their work went is not known.
	Profile    Profile
	ProfileErr error
}

// Next reads and removes the next dump's files, one per thread. A dump
// without any wraps ErrNoDump; one whose only thread is the runtime
// monitor's counts nothing.
func (d *Dumps) Next() (Block, error) { return d.NextInto("") }

// NextInto is Next, but moves the files of the threads that count (not
// the runtime monitor's) into the directory dir, made if needed, rather
// than removing them: a block someone may want to open (callgrind_annotate,
// KCachegrind, ReadLines). "" removes them.
func (d *Dumps) NextInto(dir string) (Block, error) {
	prefix := fmt.Sprintf("%s.%d-", d.OutFile, d.next+1)
	paths, err := filepath.Glob(globQuote(prefix) + "*")
	if err != nil {
		return Block{}, err
	}
	if len(paths) == 0 {
		return Block{}, fmt.Errorf("%w: %s*", ErrNoDump, prefix)
	}
	var b Block
	for _, path := range paths {
		if _, err := strconv.Atoi(strings.TrimPrefix(path, prefix)); err != nil {
			continue // not a thread's dump
		}
		f, err := os.Open(path)
		if err != nil {
			return Block{}, err
		}
		want := totalsOnly
		if d.Profile {
			want = byFunction
		}
		t, err := parseDump(f, want)
		f.Close()
		if err != nil {
			return Block{}, fmt.Errorf("%s: %w", path, err)
		}
		if dir == "" || t.sysmon {
			os.Remove(path)
		} else if err := moveFile(path, filepath.Join(dir, filepath.Base(path))); err != nil {
			return Block{}, fmt.Errorf("keep the dump: %w", err)
		}
		if t.sysmon {
			continue
		}
		if t.profileErr != nil {
			t.profileErr = fmt.Errorf("%s: %w", path, t.profileErr)
		}
		b.Add(Block{Counts: t.totals, Profile: t.profile, ProfileErr: t.profileErr})
	}
	d.next++
	return b, nil
}

// Add adds o, another thread's or another dump's part of the same
// block, to b. A part without a profile for an error leaves b without
// one, with the first error.
func (b *Block) Add(o Block) {
	b.Counts = b.Counts.Add(o.Counts)
	if b.ProfileErr == nil {
		b.ProfileErr = o.ProfileErr
	}
	switch {
	case b.ProfileErr != nil:
		b.Profile = nil
	case o.Profile != nil:
		if b.Profile == nil {
			b.Profile = Profile{}
		}
		b.Profile.Add(o.Profile)
	}
}

// Add is the sum of two counts (of two threads, or two dumps of a block).
func (c Counts) Add(o Counts) Counts {
	return Counts{Ir: c.Ir + o.Ir, Dr: c.Dr + o.Dr, Dw: c.Dw + o.Dw, I1mr: c.I1mr + o.I1mr, D1mr: c.D1mr + o.D1mr,
		D1mw: c.D1mw + o.D1mw, ILmr: c.ILmr + o.ILmr, DLmr: c.DLmr + o.DLmr, DLmw: c.DLmw + o.DLmw, CacheSim: c.CacheSim || o.CacheSim}
}

// moveFile moves the file src to dst, its directory made if needed:
// renamed, or copied and removed across file systems.
func moveFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if os.Rename(src, dst) == nil {
		return nil
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return err
	}
	return os.Remove(src)
}

// globQuote escapes the glob metacharacters of s.
func globQuote(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Valgrind is an installed Valgrind.
type Valgrind struct {
	Path    string
	Version string // e.g. "3.19.0"
}

// InstallHint is the command that installs Valgrind where it is missing.
const InstallHint = "apt-get install valgrind (Debian, Ubuntu); dnf install valgrind (Fedora)"

var versionRE = regexp.MustCompile(`^valgrind-(\d+\.\d+(?:\.\d+)?)`)

// Find looks Valgrind up on PATH and asks it its version, so a valgrind
// that is there but cannot run (a missing tool directory) is found out
// before anything is measured. The error says how to install it.
func Find(ctx context.Context) (Valgrind, error) {
	if !Supported {
		return Valgrind{}, fmt.Errorf("counting needs amd64 or arm64; this wirebench is built for another architecture")
	}
	path, err := exec.LookPath("valgrind")
	if err != nil {
		return Valgrind{}, fmt.Errorf("valgrind is not installed (%v): install it with %s", err, InstallHint)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--tool=callgrind", "--version").CombinedOutput()
	m := versionRE.FindSubmatch(bytes.TrimSpace(out))
	if err != nil || m == nil {
		return Valgrind{}, fmt.Errorf("%s --tool=callgrind --version does not work (%v: %q): reinstall it with %s", path, err, bytes.TrimSpace(out), InstallHint)
	}
	abs, _ := filepath.Abs(path)
	return Valgrind{Path: abs, Version: string(m[1])}, nil
}
