package responses_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/responses"
)

// TestStrictAcceptsClients: strict decoding accepts every member the
// recorded OpenCode, Qwen Code and pi requests carry
// (protocols/testdata/README.md), and re-encodes them without loss (the
// empty annotations of an output_text part are written back, see below).
func TestStrictAcceptsClients(t *testing.T) {
	var files []string
	for _, client := range []string{"opencode", "qwen-code", "pi"} {
		f, _ := filepath.Glob("../testdata/harness/" + client + "__*-responses.json")
		if len(f) == 0 {
			t.Fatalf("no %s captures", client)
		}
		files = append(files, f...)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			req, err := responses.DecodeRequest(body, responses.DecodeOptions{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			out, err := jsonx.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			// output_text parts always carry their annotations
			// (ContentPart.MarshalJSON); OpenCode leaves the empty list out
			empty := []byte(`,"annotations":[]`)
			if d := testutil.JSONDiff(t, bytes.ReplaceAll(body, empty, nil), bytes.ReplaceAll(out, empty, nil)); d != "" {
				t.Errorf("re-encoded request differs (-recorded +re-encoded):\n%s", d)
			}
		})
	}
}
