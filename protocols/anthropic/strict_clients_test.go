package anthropic_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
)

// TestStrictAcceptsClients: strict decoding accepts every member the
// recorded OpenCode, Qwen Code and pi requests carry
// (protocols/testdata/README.md), and re-encodes them without loss.
func TestStrictAcceptsClients(t *testing.T) {
	var files []string
	for _, client := range []string{"opencode", "qwen-code", "pi"} {
		f, _ := filepath.Glob("../testdata/harness/" + client + "__*-messages.json")
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
			req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{Strict: true})
			if err != nil {
				t.Fatal(err)
			}
			out, err := jsonx.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			if d := testutil.JSONDiff(t, body, out); d != "" {
				t.Errorf("re-encoded request differs (-recorded +re-encoded):\n%s", d)
			}
		})
	}
}
