package responses_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/responses"
	"github.com/agentwire/agentwire/protocols/sse"
)

// Every event of the streams Codex accepted decodes to a typed event that
// encodes back to the same JSON, and sequence numbers count from 0.
func TestRecordedStreamEventsDecode(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "harness", "codex__*.sse"))
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
			var seq int64
			for {
				ev, err := r.Next()
				if err != nil {
					break
				}
				typed, err := responses.DecodeStreamEvent(ev.Data)
				if err != nil {
					t.Fatalf("%s: %v", ev.Data, err)
				}
				if typed.EventType() != string(ev.Name) || typed.Sequence() != seq {
					t.Errorf("event %s #%d decoded as %s #%d", ev.Name, seq, typed.EventType(), typed.Sequence())
				}
				seq++
				out, err := jsonx.Marshal(typed)
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(testutil.Generic(t, ev.Data), testutil.Generic(t, out), testutil.NumberEqual); d != "" {
					t.Errorf("%s (-recorded +typed):\n%s", ev.Name, d)
				}
			}
			if seq < 5 {
				t.Errorf("only %d events", seq)
			}
		})
	}
}
