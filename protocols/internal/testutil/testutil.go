// Package testutil holds helpers shared by the protocols tests: SSE frame
// splitting and semantic JSON comparison.
package testutil

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols/sse"
)

// Frame is one SSE event with its data decoded generically.
type Frame struct {
	Event string
	Data  string
}

// Frames splits an SSE byte stream into frames.
func Frames(t testing.TB, b []byte) []Frame {
	t.Helper()
	r := sse.NewReader(bytes.NewReader(b), 0)
	var out []Frame
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		out = append(out, Frame{Event: string(ev.Name), Data: string(ev.Data)})
	}
	return out
}

// Generic decodes JSON into any with numbers kept as json.Number.
func Generic(t testing.TB, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, data)
	}
	if dec.More() {
		t.Fatalf("trailing data after JSON value: %s", data)
	}
	return v
}

// NumberEqual compares JSON numbers by value: integers exactly (big.Int),
// others as float64 — so 1.0 equals 1 but 2^53+1 does not equal 2^53.
var NumberEqual = cmp.Comparer(func(a, b json.Number) bool {
	if a == b {
		return true
	}
	ai, aok := new(big.Int).SetString(string(a), 10)
	bi, bok := new(big.Int).SetString(string(b), 10)
	if aok && bok {
		return ai.Cmp(bi) == 0
	}
	af, aerr := strconv.ParseFloat(string(a), 64)
	bf, berr := strconv.ParseFloat(string(b), 64)
	return aerr == nil && berr == nil && af == bf
})

// JSONDiff returns "" when a and b are semantically equal JSON, else a diff.
func JSONDiff(t testing.TB, a, b []byte) string {
	t.Helper()
	return cmp.Diff(Generic(t, a), Generic(t, b), NumberEqual)
}

// StdMarshal encodes v with encoding/json (the reference encoder in tests).
func StdMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return b
}

// Want is an expected frame: {event name, value}. The value is the typed
// event its data must decode-equal (as encoding/json encodes it), or a
// string for literal data such as "[DONE]".
type Want [2]any

// CheckFrames compares the SSE output b frame by frame with want.
func CheckFrames(t testing.TB, b []byte, want []Want) {
	t.Helper()
	got := Frames(t, b)
	if len(got) != len(want) {
		var names []string
		for _, f := range got {
			names = append(names, fmt.Sprintf("%s %s", f.Event, f.Data))
		}
		t.Fatalf("got %d frames, want %d:\n%s", len(got), len(want), bytes.Join(toBytes(names), []byte("\n")))
	}
	for i, w := range want {
		event, value := w[0].(string), w[1]
		if got[i].Event != event {
			t.Errorf("frame %d: event %q, want %q", i, got[i].Event, event)
		}
		if s, ok := value.(string); ok {
			if got[i].Data != s {
				t.Errorf("frame %d: data %q, want %q", i, got[i].Data, s)
			}
			continue
		}
		if d := JSONDiff(t, []byte(got[i].Data), StdMarshal(t, value)); d != "" {
			t.Errorf("frame %d (%s): emitter output differs from encoding/json of the typed event (-emitter +typed):\n%s\nemitter: %s", i, event, d, got[i].Data)
		}
	}
}

func toBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}

// DropNulls removes object members whose value is null, recursively (for
// comparisons that ignore the null/absent distinction).
func DropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if e != nil {
				out[k] = DropNulls(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = DropNulls(e)
		}
		return out
	}
	return v
}
