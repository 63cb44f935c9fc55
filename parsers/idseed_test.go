package parsers

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// callIDs feeds output to p in 5-byte chunks and returns the ids of the
// calls it started.
func callIDs(t *testing.T, p *Parser, output string) []string {
	t.Helper()
	var ids []string
	collect := func(evs []Event) {
		for _, e := range evs {
			if e.Kind == EventToolCallStart {
				ids = append(ids, string(e.ID))
			}
		}
	}
	for i := 0; i < len(output); i += 5 {
		collect(p.Feed([]byte(output[i:min(i+5, len(output))])))
	}
	collect(p.Finish())
	return ids
}

// TestIDSeed: a non-zero Config.IDSeed makes minted ids reproducible across
// parsers and Resets, different seeds give different ids, and the zero seed
// gives every stream its own ids.
func TestIDSeed(t *testing.T) {
	const hermes = `<tool_call>{"name":"f","arguments":{}}</tool_call><tool_call>{"name":"g","arguments":{"a":1}}</tool_call>`
	const mistral = `[TOOL_CALLS]f[ARGS]{}[TOOL_CALLS]g[ARGS]{"a":1}`
	for _, tc := range []struct{ parser, output string }{{"hermes", hermes}, {"mistral", mistral}} {
		t.Run(tc.parser, func(t *testing.T) {
			mk := func(seed uint64) *Parser {
				p, err := New(Config{ToolParser: tc.parser, IDSeed: seed})
				if err != nil {
					t.Fatal(err)
				}
				return p
			}
			p := mk(42)
			first := callIDs(t, p, tc.output)
			if len(first) != 2 || first[0] == first[1] || first[0] == "" {
				t.Fatalf("ids %q: want two distinct ids", first)
			}
			p.Reset()
			if diff := cmp.Diff(first, callIDs(t, p, tc.output)); diff != "" {
				t.Errorf("after Reset (-first +again):\n%s", diff)
			}
			if diff := cmp.Diff(first, callIDs(t, mk(42), tc.output)); diff != "" {
				t.Errorf("another parser, same seed (-first +other):\n%s", diff)
			}
			if other := callIDs(t, mk(43), tc.output); other[0] == first[0] || other[1] == first[1] {
				t.Errorf("seeds 42 and 43 minted %q and %q", first, other)
			}
			r := mk(0)
			a := callIDs(t, r, tc.output)
			r.Reset()
			if b := callIDs(t, r, tc.output); a[0] == b[0] || a[1] == b[1] {
				t.Errorf("IDSeed 0: two streams minted %q and %q", a, b)
			}
		})
	}
}
