package shard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/wirebench/wirebench/internal/bounded"
	"github.com/wirebench/wirebench/internal/compare"
	"github.com/wirebench/wirebench/internal/results"
)

// ABFormat and ABVersion name the file a shard of a same-runner A/B
// comparison writes (ABPart): what the merge job reads.
const (
	ABFormat  = "wirebench-ab-shard"
	ABVersion = 1
)

// PackageCost is what starting one package's test binary costs a
// counted process, in benchmarks' worth: a counted benchmark costs about
// the same whatever it does (its blocks aim at one native time,
// count.DefaultBlock: about 0.3 s under callgrind here), and a Go test
// binary's start under callgrind took about 2.2 s on the development
// machine (docs/design/shards.md). Every counted process starts every package
// of its part once, so a shard's cost is its packages' starts plus its
// benchmarks.
const PackageCost = 8

// ABPartition is the partition of a same-runner A/B comparison: which
// shard counts each benchmark. It is computed from the base's list of
// benchmarks alone, which every shard lists alike (all build the same
// base), and a benchmark only the head has goes to a shard that counts
// its package (by hashing, when the base has no such package): it
// depends on nothing measured, so every shard computes the same one.
//
// It balances the count's cost model, not the calibration's estimate:
// the native calibration's time per operation is measured on each
// runner, and runners differ, so shards could disagree on a partition
// made from it. A package is a unit (each of its shards starts its test
// binary in every process, PackageCost); a package costing more than a
// shard's share is dealt out, its benchmarks in hash order, in as many
// chunks as its cost holds shares; the units are spread by the
// longest-processing-time rule, ties in hash order.
type ABPartition struct {
	n      int
	shard  map[string]int // the base's benchmarks
	pkgs   map[string]int // a package of the base to its lowest shard
	cost   []float64      // each shard's cost, in benchmarks' worth
	chunks int
}

// NewABPartition partitions base, a build's listed benchmarks by key,
// over n shards.
func NewABPartition(base []string, n int) *ABPartition {
	p := &ABPartition{n: max(n, 1), shard: map[string]int{}, pkgs: map[string]int{}, cost: make([]float64, max(n, 1))}
	byPkg := map[string][]string{}
	for _, key := range base {
		pkg, _ := results.SplitKey(key)
		byPkg[pkg] = append(byPkg[pkg], key)
	}
	total := 0.0
	for _, keys := range byPkg {
		total += PackageCost + float64(len(keys))
	}
	share := total / float64(p.n)
	type unit struct {
		id   string
		keys []string
		cost float64
	}
	var units []unit
	for pkg, keys := range byPkg {
		slices.SortFunc(keys, func(a, b string) int { return cmpHash(a, b) })
		k := 1
		if p.n > 1 {
			k = min(len(keys), p.n, max(1, int(math.Ceil((PackageCost+float64(len(keys)))/share-1e-9))))
		}
		for c := range k {
			u := unit{id: fmt.Sprintf("%s\x00%d", pkg, c)}
			for i := c; i < len(keys); i += k {
				u.keys = append(u.keys, keys[i])
			}
			u.cost = PackageCost + float64(len(u.keys))
			units = append(units, u)
		}
	}
	slices.SortFunc(units, func(a, b unit) int {
		if a.cost != b.cost {
			if a.cost > b.cost {
				return -1
			}
			return 1
		}
		return cmpHash(a.id, b.id)
	})
	for _, u := range units {
		best := 0
		for s := 1; s < p.n; s++ {
			if p.cost[s] < p.cost[best] {
				best = s
			}
		}
		p.cost[best] += u.cost
		for _, key := range u.keys {
			p.shard[key] = best + 1
		}
		pkg, _, _ := strings.Cut(u.id, "\x00")
		if s, ok := p.pkgs[pkg]; !ok || best+1 < s {
			p.pkgs[pkg] = best + 1
		}
	}
	p.chunks = len(units)
	return p
}

// Shard is the shard (1..n) that counts the benchmark key.
func (p *ABPartition) Shard(key string) int {
	if s, ok := p.shard[key]; ok {
		return s
	}
	pkg, _ := results.SplitKey(key)
	if s, ok := p.pkgs[pkg]; ok {
		return s
	}
	return rendezvous(key, p.n)
}

// Costs are the shards' costs by the model, in benchmarks' worth, shard
// 1 first.
func (p *ABPartition) Costs() []float64 { return slices.Clone(p.cost) }

// ABAssign is the partition of a same-runner A/B comparison over n
// shards (ABPartition): every benchmark either build lists, to its
// shard.
func ABAssign(base, head []string, n int) map[string]int {
	p := NewABPartition(base, n)
	out := map[string]int{}
	for _, key := range union(base, head) {
		out[key] = p.Shard(key)
	}
	return out
}

// cmpHash orders names by their hash, then by name.
func cmpHash(a, b string) int {
	ha, hb := hash64(a), hash64(b)
	switch {
	case ha < hb:
		return -1
	case ha > hb:
		return 1
	}
	return strings.Compare(a, b)
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	seen := make(map[string]bool, len(a))
	for _, n := range a {
		seen[n] = true
	}
	for _, n := range b {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// ABPart is one shard's part of a same-runner A/B comparison split over a
// job matrix: what it counted of its benchmarks, as samples, and what
// it saw of both builds. It holds no verdict: the merge judges the union
// of the shards' samples (check.MergeAB), so a shard's file, which a
// fork's workflow can replace, cannot state one.
type ABPart struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	// Shard is I/N; Partition fingerprints the partition it kept its
	// part by (PartitionID of ABAssign).
	Shard     string `json:"shard"`
	Partition string `json:"partition"`
	// ListedBase and ListedHead are every benchmark each build listed, by
	// key: the partition's input, the same for every shard of one matrix
	// run.
	ListedBase []string `json:"listed_base"`
	ListedHead []string `json:"listed_head"`
	// BaseCommit and HeadCommit are the builds' commits, when known (the
	// action knows them from the event).
	BaseCommit string `json:"base_commit,omitempty"`
	HeadCommit string `json:"head_commit,omitempty"`
	// Base and Head are what the shard counted of its part, one sample
	// per process, before any confirmation; AgainBase and AgainHead the
	// processes it counted again to confirm what its part flagged (nil:
	// none).
	Base      *results.Results `json:"base"`
	Head      *results.Results `json:"head"`
	AgainBase *results.Results `json:"again_base,omitempty"`
	AgainHead *results.Results `json:"again_head,omitempty"`
	// Missing and New are the benchmarks of its part only the base, only
	// the head has; Identical the packages identical in both builds,
	// not measured (every shard finds the same).
	Missing   []string            `json:"missing,omitempty"`
	New       []string            `json:"new,omitempty"`
	Identical []compare.Identical `json:"identical,omitempty"`
	Elapsed   time.Duration       `json:"elapsed_ns"`
	// spec is Shard, parsed (ReadAB).
	spec Spec
}

// IsABPart reports whether data is a shard file of a same-runner A/B
// comparison (as opposed to a run's results).
func IsABPart(data []byte) bool {
	var head struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &head) == nil && head.Format == ABFormat
}

// ReadABFile reads the shard file at path, which may hold at most
// results.MaxFileBytes, and checks it on its own (CheckAB).
func ReadABFile(path string) (*ABPart, error) {
	data, err := bounded.ReadFile(path, results.MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("read A/B shard: %w", err)
	}
	return ReadAB(path, data)
}

// ReadAB parses a shard file: unknown fields are refused (it is the
// output of one version of wirebench, not a format that grows by
// hand), and each build's results are validated.
func ReadAB(name string, data []byte) (*ABPart, error) {
	var p ABPart
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("read %s: not a same-runner A/B shard's file (%v): pass the files `wirebench ab --shard I/N --out FILE` wrote", name, err)
	}
	if p.Format != ABFormat || p.Version != ABVersion {
		return nil, fmt.Errorf("read %s: format %q version %d, want %q version %d: every shard and the merge must run one version of wirebench", name, p.Format, p.Version, ABFormat, ABVersion)
	}
	spec, err := Parse(p.Shard)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	p.spec = spec
	for _, r := range []struct {
		what string
		r    *results.Results
		need bool
	}{{"base", p.Base, true}, {"head", p.Head, true}, {"again_base", p.AgainBase, p.AgainHead != nil}, {"again_head", p.AgainHead, p.AgainBase != nil}} {
		switch {
		case r.r == nil && r.need:
			return nil, fmt.Errorf("read %s: no %s results: the shard's file is incomplete (re-run that shard)", name, r.what)
		case r.r == nil:
			continue
		}
		if err := r.r.Validate(); err != nil {
			return nil, fmt.Errorf("read %s: %s: %w", name, r.what, err)
		}
		if r.r.Settings.Counter == nil {
			return nil, fmt.Errorf("read %s: the %s was not counted: A/B shards are merged from counts (metric instructions or cycles)", name, r.what)
		}
	}
	return &p, nil
}

// Spec is the part's shard.
func (p *ABPart) Spec() Spec { return p.spec }

// WriteAB writes p as a shard file.
func WriteAB(p *ABPart) ([]byte, error) {
	p.Format, p.Version = ABFormat, ABVersion
	data, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return nil, fmt.Errorf("write A/B shard: %w", err)
	}
	return append(data, '\n'), nil
}

// JoinedAB is the shards of a same-runner A/B comparison joined: the
// union of their samples, for one judgment.
type JoinedAB struct {
	// Base and Head are every shard's counted part before confirmation;
	// AgainBase and AgainHead every confirmation's processes (nil: none).
	Base, Head, AgainBase, AgainHead *results.Results
	Missing, New                     []string
	Identical                        []compare.Identical
	// BaseCommit and HeadCommit are the commits every shard built, ""
	// when the shards did not record them (the command line's ab).
	BaseCommit, HeadCommit string
	// Shards says which shard counted what where; MissingShards the
	// shards not given (only with MergeOptions.AllowPartial).
	Shards        []results.ShardRun
	MissingShards []int
	// Elapsed is the slowest shard's time: the matrix ran them side by
	// side.
	Elapsed time.Duration
}

// JoinAB checks that parts (read from files, named so in errors) are the
// shards of one same-runner A/B comparison and joins them. Everything a
// shard states is checked against the others and against the partition
// the merge computes itself from the lists: one count N, each shard once,
// the same lists of benchmarks and commits (the same two builds), the
// same partition, every benchmark of a shard its own by that partition
// and counted or reported by it, one way of counting.
func JoinAB(parts []*ABPart, files []string, opts MergeOptions) (*JoinedAB, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("merge: no A/B shard files given: pass the shards' files (e.g. the downloaded artifacts)")
	}
	first := parts[0]
	n := first.spec.Count
	assign := ABAssign(first.ListedBase, first.ListedHead, n)
	pid := PartitionID(assign, n)
	byIndex := map[int]int{}
	for i, p := range parts {
		switch {
		case p.spec.Count != n:
			return nil, fmt.Errorf("merge: %s is shard %s but %s is shard %s: all shards must split the comparison the same number of ways", files[i], p.spec, files[0], first.spec)
		case !slices.Equal(p.ListedBase, first.ListedBase) || !slices.Equal(p.ListedHead, first.ListedHead):
			return nil, fmt.Errorf("merge: %s and %s listed different benchmarks: their shards built different trees (a different base or head commit?); re-run the matrix on one pull request commit", files[i], files[0])
		case p.BaseCommit != first.BaseCommit || p.HeadCommit != first.HeadCommit:
			return nil, fmt.Errorf("merge: %s compared %s with %s, %s compared %s with %s: every shard must build the same base and head; re-run the matrix", files[i], orNone(p.HeadCommit), orNone(p.BaseCommit), files[0], orNone(first.HeadCommit), orNone(first.BaseCommit))
		case p.Partition != pid:
			return nil, fmt.Errorf("merge: %s records partition %s, the benchmarks listed give %s: the shard did not keep its part by this version's partition; re-run the matrix with one version of wirebench", files[i], p.Partition, pid)
		case p.Base.Env.GoVersion != first.Base.Env.GoVersion || p.Head.Env.GoVersion != first.Head.Env.GoVersion:
			return nil, fmt.Errorf("merge: %s built with %s and %s, %s with %s and %s: every shard must build both trees with one Go (pin it in the workflow)", files[i], p.Base.Env.GoVersion, p.Head.Env.GoVersion, files[0], first.Base.Env.GoVersion, first.Head.Env.GoVersion)
		case p.Base.Suite != first.Base.Suite || p.Head.Suite != first.Head.Suite:
			return nil, fmt.Errorf("merge: %s is of suite %q, %s of %q: shards of one comparison run one suite", files[i], p.Head.Suite, files[0], first.Head.Suite)
		}
		if d := countDiff(p.Base.Settings.Counter, first.Base.Settings.Counter); d != "" {
			return nil, fmt.Errorf("merge: %s and %s counted differently (%s): every shard of a matrix must count alike (set metric and the count's options for the whole matrix)", files[i], files[0], d)
		}
		if !sameIdentical(p.Identical, first.Identical) {
			return nil, fmt.Errorf("merge: %s and %s found different packages identical in both builds: they built different trees; re-run the matrix", files[i], files[0])
		}
		if j, dup := byIndex[p.spec.Index]; dup {
			return nil, fmt.Errorf("merge: shard %s appears twice (%s and %s): give each shard's file once", p.spec, files[j], files[i])
		}
		byIndex[p.spec.Index] = i
		if err := p.checkPart(assign, files[i]); err != nil {
			return nil, err
		}
	}
	var missing []int
	for s := 1; s <= n; s++ {
		if _, ok := byIndex[s]; !ok {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 && !opts.AllowPartial {
		return nil, fmt.Errorf("merge: %s of %d missing (got %d %s): a matrix job failed or its artifact was not downloaded; re-run it, or pass --partial to merge what is there",
			pick(len(missing) == 1, "shard "+joinInts(missing), "shards "+joinInts(missing)), n, len(parts), pick(len(parts) == 1, "file", "files"))
	}
	j := &JoinedAB{}
	for s := 1; s <= n; s++ {
		i, ok := byIndex[s]
		if !ok {
			continue
		}
		p := parts[i]
		j.Base, j.Head = joinInto(j.Base, p.Base, s), joinInto(j.Head, p.Head, s)
		if p.AgainBase != nil {
			j.AgainBase, j.AgainHead = joinInto(j.AgainBase, p.AgainBase, s), joinInto(j.AgainHead, p.AgainHead, s)
		}
		j.Missing, j.New = append(j.Missing, p.Missing...), append(j.New, p.New...)
		j.Shards = append(j.Shards, results.ShardRun{Index: s, Count: n, Env: p.Head.Env, Benchmarks: len(p.Head.Benchmarks), Elapsed: p.Elapsed})
		j.Elapsed = max(j.Elapsed, p.Elapsed)
	}
	j.Identical, j.MissingShards = first.Identical, missing
	j.BaseCommit, j.HeadCommit = first.BaseCommit, first.HeadCommit
	sort.Strings(j.Missing)
	sort.Strings(j.New)
	if len(missing) == 0 {
		if err := j.complete(assign, first, files, byIndex); err != nil {
			return nil, err
		}
	}
	for _, r := range []*results.Results{j.Base, j.Head} {
		r.Settings.Elapsed, r.Shards = j.Elapsed, j.Shards
		r.Settings.Shard = ""
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("merge: the joined shards: %w", err)
		}
	}
	return j, nil
}

// checkPart checks that every benchmark p holds or names is one its
// builds listed and that the partition gives to p's shard.
func (p *ABPart) checkPart(assign map[string]int, file string) error {
	listedB, listedH := set(p.ListedBase), set(p.ListedHead)
	check := func(what, key string, listed map[string]bool) error {
		switch {
		case !listed[key]:
			return fmt.Errorf("merge: %s holds %s %s, which its build did not list: the file is not a shard's own output; re-run that shard", file, what, key)
		case assign[key] != p.spec.Index:
			return fmt.Errorf("merge: %s (shard %s) holds %s %s, which the partition gives shard %d/%d: shards overlap; re-run the matrix with one version of wirebench", file, p.spec, what, key, assign[key], p.spec.Count)
		}
		return nil
	}
	for _, side := range []struct {
		what   string
		rs     []*results.Results
		listed map[string]bool
	}{{"the base's benchmark", []*results.Results{p.Base, p.AgainBase}, listedB}, {"the head's benchmark", []*results.Results{p.Head, p.AgainHead}, listedH}} {
		for _, r := range side.rs {
			if r == nil {
				continue
			}
			for _, b := range r.Benchmarks {
				if err := check(side.what, b.Key(), side.listed); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range p.Missing {
		if err := check("missing benchmark", k, listedB); err != nil {
			return err
		}
	}
	for _, k := range p.New {
		if err := check("new benchmark", k, listedH); err != nil {
			return err
		}
	}
	return nil
}

// complete checks, when every shard is there, that each benchmark both
// builds listed was counted or reported (a trouble, missing or new) by
// its shard: a shard's file that leaves some out is incomplete.
func (j *JoinedAB) complete(assign map[string]int, first *ABPart, files []string, byIndex map[int]int) error {
	accounted := map[string]bool{}
	for _, r := range []*results.Results{j.Base, j.Head} {
		for _, b := range r.Benchmarks {
			accounted[b.Key()] = true
		}
		for _, t := range r.Troubles {
			accounted[t.Name] = true
		}
	}
	for _, k := range append(slices.Clone(j.Missing), j.New...) {
		accounted[k] = true
	}
	listedH := set(first.ListedHead)
	var lost []string
	for _, k := range first.ListedBase {
		if listedH[k] && !accounted[k] {
			lost = append(lost, k)
		}
	}
	if len(lost) > 0 {
		s := assign[lost[0]]
		return fmt.Errorf("merge: %s (shard %d/%d) neither counted nor reported %s%s, which both builds list: the shard's file is incomplete; re-run that shard",
			files[byIndex[s]], s, first.spec.Count, lost[0], pick(len(lost) > 1, fmt.Sprintf(" (and %d more)", len(lost)-1), ""))
	}
	return nil
}

// joinInto adds part's benchmarks and troubles, measured by shard s, to
// into (nil: a copy of part's settings and environment).
func joinInto(into, part *results.Results, s int) *results.Results {
	if into == nil {
		into = part.Clone()
		into.Benchmarks, into.Troubles = nil, nil
		if c := into.Settings.Counter; c != nil {
			c.Settled, c.Further, c.Estimate, c.Budget = 0, 0, 0, 0
		}
	}
	for _, b := range part.Benchmarks {
		b.Shard = s
		into.Benchmarks = append(into.Benchmarks, b)
	}
	for _, t := range part.Troubles {
		into.AddTrouble(t)
	}
	if c, pc := into.Settings.Counter, part.Settings.Counter; c != nil && pc != nil {
		c.Settled += pc.Settled
		c.Further += pc.Further
		c.Processes = max(c.Processes, pc.Processes)
	}
	return into
}

// countDiff says how two shards' counts differ in what makes counts
// comparable, "" when they do not. The counted CPU's features may differ
// (the matrix's runners need not be alike): each benchmark's base and
// head were counted on one runner.
func countDiff(a, b *results.Counter) string {
	var d []string
	for _, x := range a.Diff(b) {
		if x.Field != "counted CPU's features" {
			d = append(d, fmt.Sprintf("%s %s vs %s", x.Field, x.Old, x.New))
		}
	}
	if a.Blocks != b.Blocks {
		d = append(d, fmt.Sprintf("blocks %d vs %d", a.Blocks, b.Blocks))
	}
	return strings.Join(d, ", ")
}

func sameIdentical(a, b []compare.Identical) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func set(v []string) map[string]bool {
	m := make(map[string]bool, len(v))
	for _, s := range v {
		m[s] = true
	}
	return m
}

func orNone(s string) string {
	if s == "" {
		return "(commit not recorded)"
	}
	return s
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}
