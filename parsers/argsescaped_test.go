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
