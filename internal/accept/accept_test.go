package accept

import (
	"fmt"
	"strings"
	"testing"
)

func TestFromDescription(t *testing.T) {
	src := Acceptance{Source: "the pull request's description", By: "octo", PR: 42}
	tests := []struct {
		name     string
		body     string
		patterns []string
		reasons  []string
		problems int
	}{
		{"none", "Speeds up the encoder.", nil, nil, 0},
		{"one line", "Adds a field.\n\nWirebench-Accept: protobuf/dataset=small the new id field\n", []string{"protobuf/dataset=small"}, []string{"the new id field"}, 0},
		{"key case and indentation", "  wirebench-accept:   Serialize  \r\n", []string{"Serialize"}, []string{""}, 0},
		{"two lines", "Wirebench-Accept: a x\nWirebench-Accept: b y z", []string{"a", "b"}, []string{"x", "y z"}, 0},
		{"not at the start of a line", "We could write Wirebench-Accept: x here", nil, nil, 0},
		{"in a code fence", "```\nWirebench-Accept: x\n```\nWirebench-Accept: y", []string{"y"}, []string{""}, 0},
		{"in a tilde fence", "~~~md\nWirebench-Accept: x\n~~~", nil, nil, 0},
		{"in an HTML comment", "<!--\nWirebench-Accept: <pattern> [reason]\n-->\n<!-- Wirebench-Accept: x -->", nil, nil, 0},
		{"bad pattern", "Wirebench-Accept: [ oops", nil, nil, 1},
		{"no pattern", "Wirebench-Accept:", nil, nil, 1},
		{"other key", "Wirebench-Accepted: x\nAccept: y", nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, problems := FromDescription(tt.body, src)
			if len(problems) != tt.problems {
				t.Errorf("problems %v, want %d", problems, tt.problems)
			}
			if len(set) != len(tt.patterns) {
				t.Fatalf("got %v, want patterns %q", set, tt.patterns)
			}
			for i, a := range set {
				if a.Pattern != tt.patterns[i] || a.Reason != tt.reasons[i] || a.By != "octo" || a.PR != 42 || a.Source != src.Source {
					t.Errorf("acceptance %d = %+v, want pattern %q reason %q from %+v", i, a, tt.patterns[i], tt.reasons[i], src)
				}
			}
		})
	}
}

func TestFromCommit(t *testing.T) {
	src := Acceptance{Source: "commit 1a2b3c4", By: "dev"}
	tests := []struct {
		name     string
		message  string
		patterns []string
		problems int
	}{
		{"trailer", "msgpack: add the id field\n\nThe id is needed.\n\nWirebench-Accept: msgpack grows by 9 bytes\nSigned-off-by: Dev <dev@example.com>", []string{"msgpack"}, 0},
		{"in the body, not the trailers", "subject\n\nWirebench-Accept: msgpack\n\nSigned-off-by: Dev <dev@example.com>", nil, 0},
		{"subject only", "Wirebench-Accept: msgpack", nil, 0},
		{"CRLF", "subject\r\n\r\nWirebench-Accept: json reason\r\n", []string{"json"}, 0},
		{"bad pattern", "subject\n\nWirebench-Accept: (", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, problems := FromCommit(tt.message, src)
			if len(problems) != tt.problems {
				t.Errorf("problems %v, want %d", problems, tt.problems)
			}
			var got []string
			for _, a := range set {
				got = append(got, a.Pattern)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.patterns) {
				t.Errorf("patterns %q, want %q", got, tt.patterns)
			}
		})
	}
}

func TestMatches(t *testing.T) {
	tests := []struct {
		pattern, key string
		want         bool
	}{
		{"", "anything", true},
		{"protobuf/dataset=small$", "BenchmarkSerialize/codec=protobuf/dataset=small", true},
		{"protobuf/dataset=small$", "BenchmarkSerialize/codec=protobuf/dataset=smaller", false},
		{"^BenchmarkMarshal$", "example.com/m/codec BenchmarkMarshal", true},     // the name alone
		{"codec BenchmarkMarshal", "example.com/m/codec BenchmarkMarshal", true}, // the key
		{"^BenchmarkMarshal$", "example.com/m/codec BenchmarkMarshalJSON", false},
		{"[", "x", false}, // not compilable: an edited baseline; matches nothing
	}
	for _, tt := range tests {
		if got := (Acceptance{Pattern: tt.pattern}).Matches(tt.key); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pattern, tt.key, got, tt.want)
		}
	}
}

func TestSetMatchFirst(t *testing.T) {
	s := Set{{Pattern: "json", Source: "a"}, {Pattern: "", Source: "label"}}
	if a, ok := s.Match("BenchmarkSerialize/codec=json"); !ok || a.Source != "a" {
		t.Errorf("Match = %+v, %v; want the first, a", a, ok)
	}
	if a, ok := s.Match("other"); !ok || a.Source != "label" {
		t.Errorf("Match = %+v, %v; want the label", a, ok)
	}
	if _, ok := (Set{{Pattern: "json"}}).Match("gob"); ok {
		t.Error("json matched gob")
	}
}

func TestReasonClipped(t *testing.T) {
	long := strings.Repeat("é", 300)
	set, _ := FromDescription("Wirebench-Accept: x "+long, Acceptance{})
	if len(set) != 1 || len(set[0].Reason) > maxLine+len("…") || !strings.HasSuffix(set[0].Reason, "…") {
		t.Fatalf("reason not clipped: %d bytes", len(set[0].Reason))
	}
	if r := []rune(set[0].Reason); r[len(r)-2] != 'é' {
		t.Errorf("clipped inside a rune: %q", set[0].Reason[len(set[0].Reason)-8:])
	}
}

func ExampleFromDescription() {
	body := "Adds the order id.\n\nWirebench-Accept: BenchmarkWire/codec=protobuf the id costs 3 bytes\n"
	set, problems := FromDescription(body, Acceptance{Source: "the pull request's description", By: "octo", PR: 7})
	fmt.Println(len(problems), set[0])
	fmt.Println(set.Match("example.com/orders BenchmarkWire/codec=protobuf/op=size"))
	// Output:
	// 0 the pull request's description of #7 by @octo: BenchmarkWire/codec=protobuf (the id costs 3 bytes)
	// the pull request's description of #7 by @octo: BenchmarkWire/codec=protobuf (the id costs 3 bytes) true
}
