package anthropic_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/sse"
)

// Every event of the streams Claude Code accepted decodes to a typed event
// that encodes back to the same JSON.
func TestRecordedStreamEventsDecode(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "harness", "claude-code__*.sse"))
	if len(files) != 3 {
		t.Fatalf("fixtures: %v", files)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			r := sse.NewReader(bytes.NewReader(b), 0)
			n := 0
			for {
				ev, err := r.Next()
				if err != nil {
					break
				}
				n++
				typed, err := anthropic.DecodeStreamEvent(ev.Data)
				if err != nil {
					t.Fatalf("%s: %v", ev.Data, err)
				}
				if typed.EventType() != string(ev.Name) {
					t.Errorf("event %s decoded as %s", ev.Name, typed.EventType())
				}
				out, err := jsonx.Marshal(typed)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(testutil.Generic(t, ev.Data), testutil.Generic(t, out), testutil.NumberEqual); d != "" {
					t.Errorf("%s (-recorded +typed):\n%s", ev.Name, d)
				}
			}
			if n < 5 {
				t.Errorf("only %d events", n)
			}
		})
	}
}

func TestModelsShapes(t *testing.T) {
	list := anthropic.ModelList{Data: []anthropic.ModelInfo{}, FirstID: anthropic.Opt[string]{}, LastID: anthropic.Opt[string]{}}
	b, _ := jsonx.Marshal(list)
	if string(b) != `{"data":[],"has_more":false,"first_id":null,"last_id":null}` {
		t.Errorf("empty list %s", b)
	}
	m := `{"id":"Qwen/Qwen3.5-35B-A3B-FP8","display_name":"Qwen/Qwen3.5-35B-A3B-FP8","type":"model","created_at":"2026-01-01T00:00:00Z","max_input_tokens":262144}`
	var info anthropic.ModelInfo
	if err := jsonx.Unmarshal([]byte(m), &info); err != nil || info.MaxInputTokens.Value() != 262144 {
		t.Fatalf("%v %+v", err, info)
	}
	out, _ := jsonx.Marshal(info)
	if d := testutil.JSONDiff(t, []byte(m), out); d != "" {
		t.Error(d)
	}
}
