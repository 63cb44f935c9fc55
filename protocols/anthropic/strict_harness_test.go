package anthropic_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
)

// Strict decoding accepts every member the real Claude Code requests carry
// (and safeguards, which interactive sessions add), and re-encodes them.
func TestStrictAcceptsClaudeCode(t *testing.T) {
	files, _ := filepath.Glob("../testdata/harness/claude-code__*-messages.json")
	if len(files) == 0 {
		t.Fatal("no captures")
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{Strict: true}); err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
		}
		// interactive sessions add safeguards
		withSafeguards := strings.Replace(string(body), `{"model":`, `{"safeguards":{"cyber":{"mode":"standard"}},"model":`, 1)
		req, err := anthropic.DecodeMessagesRequest([]byte(withSafeguards), anthropic.DecodeOptions{Strict: true})
		if err != nil {
			t.Fatalf("%s with safeguards: %v", filepath.Base(f), err)
		}
		out, err := jsonx.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if d := testutil.JSONDiff(t, []byte(withSafeguards), out); d != "" {
			t.Errorf("%s: re-encoded request differs:\n%s", filepath.Base(f), d)
		}
	}
}
