package parsers

import (
	"strings"
	"testing"
)

func TestMistralFeedAllocs(t *testing.T) {
	assertFeedAllocs(t, Config{ToolParser: "mistral", ReasoningParser: "mistral"}, jsonFamilyOutputs("mistral"))
}

// isMistralID reports whether id has the shape mistral-common validates:
// exactly 9 ASCII alphanumerics.
func isMistralID(id string) bool {
	if len(id) != 9 {
		return false
	}
	for _, c := range []byte(id) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return false
		}
	}
	return true
}

// TestMistralIDs pins PARSER_CASES.md for mistral: the model's id when it
// gives one, else a minted id of 9 ASCII alphanumerics, distinct within the
// stream (and across streams), in both call modes.
func TestMistralIDs(t *testing.T) {
	var out strings.Builder
	for i := 0; i < 200; i++ {
		out.WriteString(`[TOOL_CALLS]f[ARGS]{}`)
	}
	out.WriteString(`[TOOL_CALLS][{"name": "g", "arguments": {}}, {"name": "h", "arguments": {}, "id": "modelID01"}]`)
	out.WriteString(`[TOOL_CALLS]k[CALL_ID]call-7[ARGS]{}`)
	// An id after more than the wait bound of arguments is not waited for.
	out.WriteString(`[TOOL_CALLS][{"name": "w", "arguments": {"s": "` + strings.Repeat("p", mistralIDWait) + `"}, "id": "lateID001"}]`)
	seen := map[string]bool{}
	for _, whole := range []bool{false, true} {
		for round := 0; round < 2; round++ {
			res, err := Parse(Config{ToolParser: "mistral", WholeCalls: whole}, out.String())
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Calls) != 204 {
				t.Fatalf("%d calls, want 204", len(res.Calls))
			}
			for i, c := range res.Calls {
				switch {
				case i == 201:
					if c.ID != "modelID01" {
						t.Errorf("call %d: id %q, want the model's modelID01", i, c.ID)
					}
				case i == 202:
					if c.ID != "call-7" {
						t.Errorf("call %d: id %q, want the model's call-7 verbatim", i, c.ID)
					}
				case i == 203 && c.ID == "lateID001":
					t.Errorf("call %d: the id after %d bytes of arguments was waited for", i, mistralIDWait)
				default:
					if !isMistralID(c.ID) {
						t.Errorf("call %d: minted id %q is not 9 ASCII alphanumerics", i, c.ID)
					}
					if seen[c.ID] {
						t.Errorf("call %d: id %q minted twice", i, c.ID)
					}
					seen[c.ID] = true
				}
			}
		}
	}
}

// TestMistralIDWait pins where a pre-v11 call starts: it waits for an id
// written after the arguments while at most mistralIDWait bytes of them are
// held, and streams from then on.
func TestMistralIDWait(t *testing.T) {
	p, err := New(Config{ToolParser: "mistral"})
	if err != nil {
		t.Fatal(err)
	}
	head := `[TOOL_CALLS][{"name": "w", "arguments": {"s": "`
	var started bool
	feed := func(s string) {
		for _, e := range p.Feed([]byte(s)) {
			if e.Kind == EventToolCallStart {
				started = true
			}
		}
	}
	feed(head)
	feed(strings.Repeat("p", mistralIDWait-16))
	if started {
		t.Fatal("the call started before its id or the wait bound")
	}
	feed(strings.Repeat("p", 32))
	if !started {
		t.Fatal("the call did not start past the wait bound")
	}
}

// FuzzMistral runs the mistral grammar (pre-v11 and v11+ forms), alone or
// behind the [THINK] reasoning parser.
func FuzzMistral(f *testing.F) {
	fixtureSeeds(f, "mistral")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		jsonFamilyFuzz(t, []string{"mistral"}, "mistral", in, seed, sel)
	})
}
