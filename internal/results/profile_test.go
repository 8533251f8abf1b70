package results

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestNewProfile: costliest first, ties by name; functions that cost
// nothing dropped; those below ProfileFloor of the total left out with
// what they cost together and the most any one did; 4 significant
// digits.
func TestNewProfile(t *testing.T) {
	p := NewProfile(map[string]Cost{
		"main.encode":      {Instructions: 6000.123456, EstCycles: 7000},
		"runtime.mallocgc": {Instructions: 3000},
		"main.b":           {Instructions: 500},
		"main.a":           {Instructions: 500},
		"runtime.gcStart":  {Instructions: 0.5, EstCycles: 9}, // below 1e-4 of 10,000.x
		"runtime.lock":     {Instructions: 0.25},
		"main.nothing":     {},
		"main.negative":    {Instructions: -3}, // a difference's noise
	})
	want := []string{"main.encode", "runtime.mallocgc", "main.a", "main.b"}
	if got := names(p); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("functions %q, want %q", got, want)
	}
	if c := p.Functions[0].Cost; c.Instructions != 6000 || c.EstCycles != 7000 {
		t.Errorf("main.encode costs %+v, want 6000 (4 digits) and 7000", c)
	}
	if p.Omitted != 2 || *p.Rest != (Cost{Instructions: 0.75, EstCycles: 9}) || *p.Most != (Cost{Instructions: 0.5, EstCycles: 9}) {
		t.Errorf("left out %d, rest %+v, most %+v; want 2, {0.75 9}, {0.5 9}", p.Omitted, *p.Rest, *p.Most)
	}
	if got := p.Total().Instructions; got != 10000.75 {
		t.Errorf("total %v, want 10000.75", got)
	}
	if NewProfile(map[string]Cost{"f": {}}) != nil {
		t.Error("a profile of nothing is not nil")
	}
	if c, ok := p.Lookup("runtime.mallocgc"); !ok || c.Instructions != 3000 {
		t.Errorf("Lookup = %v, %v", c, ok)
	}
	if _, ok := p.Lookup("runtime.lock"); ok {
		t.Error("Lookup found a function left out")
	}
	if b := p.Bound(UnitInstructionsPerOp); b != 0.5 {
		t.Errorf("Bound = %v, want 0.5", b)
	}
}

func names(p *Profile) []string {
	var out []string
	for _, f := range p.Functions {
		out = append(out, f.Name)
	}
	return out
}

// TestNewProfileCap: at most ProfileFunctions are kept, the others left
// out.
func TestNewProfileCap(t *testing.T) {
	costs := map[string]Cost{}
	for i := range ProfileFunctions + 10 {
		costs[fmt.Sprintf("f%04d", i)] = Cost{Instructions: 1000 + float64(i)}
	}
	p := NewProfile(costs)
	if len(p.Functions) != ProfileFunctions || p.Omitted != 10 || p.Most.Instructions != 1009 || p.Functions[0].Name != "f0309" {
		t.Errorf("%d kept (first %s), %d left out, the most %v", len(p.Functions), p.Functions[0].Name, p.Omitted, p.Most.Instructions)
	}
}

// TestCompact: the functions that make up the share, at most n, at
// least one; what was left out before stays left out, the bound the
// larger of both.
func TestCompact(t *testing.T) {
	p := &Profile{Functions: []Function{{"a", Cost{Instructions: 50}}, {"b", Cost{Instructions: 30}}, {"c", Cost{Instructions: 15}}, {"d", Cost{Instructions: 3}}},
		Omitted: 4, Rest: &Cost{Instructions: 2}, Most: &Cost{Instructions: 1}}
	tests := []struct {
		share   float64
		n       int
		want    string
		omitted int
		most    float64
	}{
		{0.8, 10, "a b", 6, 15},
		{0.81, 10, "a b c", 5, 3},
		{0.99, 10, "a b c d", 4, 1},
		{0.99, 2, "a b", 6, 15},
		{0, 10, "a", 7, 30},
	}
	for _, tt := range tests {
		c := p.Compact(tt.share, tt.n)
		if got := strings.Join(names(c), " "); got != tt.want || c.Omitted != tt.omitted || c.Most.Instructions != tt.most || c.Total() != p.Total() {
			t.Errorf("Compact(%v, %d) keeps %q, leaves out %d, most %v, total %v; want %q, %d, %v, %v",
				tt.share, tt.n, got, c.Omitted, c.Most.Instructions, c.Total(), tt.want, tt.omitted, tt.most, p.Total())
		}
	}
	if len(p.Functions) != 4 || p.Omitted != 4 {
		t.Error("Compact changed the profile it compacts")
	}
}

// TestProfileRoundTrip: a profile survives the results file, and Clone
// shares nothing.
func TestProfileRoundTrip(t *testing.T) {
	r := New("s", Env{})
	b := Benchmark{Name: "BenchmarkX", Profile: NewProfile(map[string]Cost{"main.f": {Instructions: 100, EstCycles: 120}, "main.g": {Instructions: 0.001}})}
	b.Add(UnitInstructionsPerOp, 100)
	r.Benchmarks = append(r.Benchmarks, b)
	var buf bytes.Buffer
	if err := r.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read("x.json", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got := back.Benchmarks[0].Profile
	if got == nil || len(got.Functions) != 1 || got.Functions[0] != b.Profile.Functions[0] || *got.Rest != *b.Profile.Rest || got.Omitted != 1 {
		t.Errorf("read back %+v, wrote %+v", got, b.Profile)
	}
	c := r.Clone()
	c.Benchmarks[0].Profile.Functions[0].Instructions = 1
	c.Benchmarks[0].Profile.Rest.Instructions = 1
	if r.Benchmarks[0].Profile.Functions[0].Instructions != 100 || r.Benchmarks[0].Profile.Rest.Instructions == 1 {
		t.Error("Clone shares the profile")
	}
}

// TestProfileValidate: a results file whose profile another job or a
// pull request could have written is checked like its samples.
func TestProfileValidate(t *testing.T) {
	rest := &Cost{Instructions: 1}
	tests := []struct {
		name string
		p    Profile
		want string
	}{
		{"no name", Profile{Functions: []Function{{"", Cost{Instructions: 1}}}}, "has no name"},
		{"line break", Profile{Functions: []Function{{"main.f\n### pwned", Cost{Instructions: 1}}}}, "control character"},
		{"twice", Profile{Functions: []Function{{"f", Cost{Instructions: 1}}, {"f", Cost{Instructions: 1}}}}, "appears twice"},
		{"negative", Profile{Functions: []Function{{"f", Cost{Instructions: -1}}}}, "invalid cost"},
		{"NaN", Profile{Functions: []Function{{"f", Cost{EstCycles: math.NaN()}}}}, "invalid cost"},
		{"rest without count", Profile{Functions: []Function{{"f", Cost{Instructions: 1}}}, Rest: rest, Most: rest}, "leaves out 0"},
		{"infinite rest", Profile{Omitted: 1, Rest: &Cost{Instructions: math.Inf(1)}, Most: rest}, "invalid cost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New("s", Env{})
			b := Benchmark{Name: "BenchmarkX", Profile: &tt.p}
			b.Add(UnitInstructionsPerOp, 1)
			r.Benchmarks = append(r.Benchmarks, b)
			if err := r.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate = %v, want an error with %q", err, tt.want)
			}
		})
	}
}
