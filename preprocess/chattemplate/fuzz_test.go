package chattemplate

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseRender compiles fuzzed template text and renders it with fuzzed
// messages JSON. Neither may panic (a recovered engine panic is reported as
// errInternal and fails the target) and every render is bounded by small
// limits, so a fuzzed infinite loop ends in ErrLimit. Seeds: every template
// of testdata/chattemplate with the conversations' messages, and the
// expression cases.
func FuzzParseRender(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(testdataDir, "templates", "*.jinja"))
	convs := readJSONLines[line](f, filepath.Join(testdataDir, "conversations.jsonl"))
	for i, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(f, err)
		f.Add(string(src), string(convs[i%len(convs)].Messages))
	}
	for _, c := range readJSONLines[expressionGolden](f, filepath.Join(testdataDir, "golden", "expressions.jsonl")) {
		f.Add(c.Template, `[{"role": "user", "content": "hi"}]`)
	}
	f.Fuzz(func(t *testing.T, src, messages string) {
		tmpl, err := Parse(src, Options{Now: goldenNow, MaxSteps: 20000, MaxBytes: 1 << 20})
		require.False(t, errors.Is(err, errInternal), "Parse panicked: %v\n%q", err, src)
		if err != nil {
			return
		}
		out, err := tmpl.Render(Input{
			Messages:            json.RawMessage(messages),
			Tools:               json.RawMessage(`[{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]`),
			AddGenerationPrompt: true,
			BOSToken:            "<s>",
			Kwargs:              json.RawMessage(`{"enable_thinking": true}`),
		})
		require.False(t, errors.Is(err, errInternal), "Render panicked: %v\ntemplate %q\nmessages %q", err, src, messages)
		require.LessOrEqual(t, len(out), 1<<20+1<<16, "output of %d bytes beyond MaxBytes", len(out))
	})
}
