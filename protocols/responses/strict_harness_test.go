package responses_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/responses"
)

// Strict decoding accepts every member the real Codex requests carry, and
// re-encodes them.
func TestStrictAcceptsCodex(t *testing.T) {
	files, _ := filepath.Glob("../testdata/harness/codex__*-responses.json")
	if len(files) == 0 {
		t.Fatal("no captures")
	}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		req, err := responses.DecodeRequest(body, responses.DecodeOptions{Strict: true})
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		out, err := jsonx.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		if d := testutil.JSONDiff(t, body, out); d != "" {
			t.Errorf("%s: re-encoded request differs:\n%s", filepath.Base(f), d)
		}
	}
}
