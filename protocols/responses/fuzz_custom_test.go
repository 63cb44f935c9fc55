package responses_test

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	. "github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/responses"
	"github.com/agentwire/agentwire/protocols/sse"
)

// FuzzCustomToolArgs: whatever arguments a custom tool call streams, in
// pieces of any size, every frame is valid JSON and the input deltas add
// up to the done input, which is CustomToolInput of the whole arguments
// (the exact text for the {"input": …} shape).
func FuzzCustomToolArgs(f *testing.F) {
	f.Add([]byte(`{"input":"*** Begin Patch\n\u00e9\"x\"\n*** End Patch"}`), uint8(3))
	f.Add([]byte(` { "input" : "a\ud83d\ude00b" } `), uint8(1))
	f.Add([]byte(`{"input":"cut \u00`), uint8(5))
	f.Add([]byte(`*** Begin Patch`), uint8(2))
	f.Add([]byte(`{"path":"x","input":"y"}`), uint8(4))
	f.Fuzz(func(t *testing.T, args []byte, step uint8) {
		e := responses.NewEmitter(responses.EmitterConfig{Tools: responses.ToolRoutes{"p": {Custom: true}}})
		steps := []Step{S(0, "c", "p")}
		n := int(step)%7 + 1
		for i := 0; i < len(args); i += n {
			steps = append(steps, A(0, string(args[i:min(i+n, len(args))])))
		}
		steps = append(steps, E(0), F(protocols.FinishToolCalls, protocols.Usage{}))
		out := Run(e, steps)
		r := sse.NewReader(bytes.NewReader(out), 1<<24)
		var deltas strings.Builder
		done, sawDone := "", false
		for {
			ev, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(ev.Data, &m); err != nil {
				t.Fatalf("invalid frame %s: %v", ev.Data, err)
			}
			switch m["type"] {
			case responses.EventCustomInputDelta:
				deltas.WriteString(m["delta"].(string))
			case responses.EventCustomInputDone:
				done, sawDone = m["input"].(string), true
			}
		}
		if !sawDone {
			t.Fatal("no input.done")
		}
		if !json.Valid(args) {
			return // garbage arguments: valid frames are all that is promised
		}
		var back string
		_ = json.Unmarshal(quoteJSON(responses.CustomToolInput(nil, args)), &back)
		if done != back || deltas.String() != done {
			t.Fatalf("deltas %q, done %q, CustomToolInput %q", deltas.String(), done, back)
		}
	})
}

// quoteJSON quotes b as a JSON string (U+FFFD for invalid UTF-8, as frames do).
func quoteJSON(b []byte) []byte {
	q, _ := json.Marshal(string(b))
	return q
}
