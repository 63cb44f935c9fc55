package parsers

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestArgsEscapedOneStep checks that argsEscaped's one-step path leaves the
// same events (kinds, indices, bytes) as the piecewise calls it replaces,
// from every starting state: no event yet, an args event of the call (from
// the input or from the arena), another event, a held filter tail, whole
// mode, no open call.
func TestArgsEscapedOneStep(t *testing.T) {
	alphabet := []string{"a", "b", " ", "\"", "\\", "\n", "\t", "\x01", "é", "世", "\xc3", "\xa9", "\xed\xa0\x80", "<", "u"}
	r := rand.New(rand.NewPCG(3, 4))
	type setup func(e *emitter)
	setups := map[string]setup{
		"empty":      func(e *emitter) {},
		"args-input": func(e *emitter) { e.args([]byte("ab")) },
		"args-arena": func(e *emitter) { e.args([]byte("ab")); e.argsString(`\n`) },
		"args-held":  func(e *emitter) { e.args([]byte("a\xc3")) },
		"escape-held": func(e *emitter) {
			e.args([]byte(`x\ud8`))
		},
		"content": func(e *emitter) { e.content([]byte("text")) },
		"closed":  func(e *emitter) { e.endCall() },
	}
	for name, set := range setups {
		for _, whole := range []bool{false, true} {
			for range 300 {
				var b []byte
				for range r.IntN(12) {
					b = append(b, alphabet[r.IntN(len(alphabet))]...)
				}
				run := func(one bool) []Event {
					e := &emitter{whole: whole, limit: 1 << 20}
					e.reset()
					e.begin()
					e.startCall([]byte("f"), []byte("id"))
					set(e)
					if one {
						e.argsEscaped(b)
					} else {
						e.argsEscapedPieces(b)
					}
					e.args([]byte("z"))
					e.endCall()
					var out []Event
					for _, ev := range e.events {
						out = append(out, ev.Clone())
					}
					return out
				}
				if diff := cmp.Diff(run(false), run(true)); diff != "" {
					t.Fatalf("%s whole=%v %q: (-pieces +one step)\n%s", name, whole, b, diff)
				}
			}
		}
	}
}

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
