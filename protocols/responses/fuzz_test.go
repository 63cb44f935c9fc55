package responses_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/responses"
)

// FuzzRequestRoundTrip: whatever decodes must encode to valid JSON that is
// a fixed point of decode → encode; translation to chat never panics.
func FuzzRequestRoundTrip(f *testing.F) {
	f.Add([]byte(`{"model":"m","instructions":"i","input":[{"role":"user","content":"hi"},{"type":"reasoning","summary":[{"type":"summary_text","text":"s"}],"content":null,"encrypted_content":"e"},{"type":"function_call","call_id":"c","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"o"},{"type":"web_search_call","id":"w"}],"tools":[{"type":"function","name":"f","parameters":{}},{"type":"namespace","name":"n","tools":[{"type":"function","name":"g"}]},{"type":"web_search"}],"tool_choice":{"type":"function","name":"f"},"text":{"verbosity":"low"},"reasoning":{"effort":"low"},"store":false}`))
	f.Add([]byte(`{"input":"x"}`))
	f.Add([]byte(`{"input":"x","prompt_cache_retention":"24h","include":["reasoning.encrypted_content"]}`))
	// denial-of-service shapes: nested namespaces, case-folded keys, deep
	// nesting
	f.Add(nestedNamespaces(40))
	f.Add([]byte(`{"model":"a","MODEL":"b","Input":"x","input":[{"ROLE":"user","role":"user","content":"y"}]}`))
	f.Add([]byte(`{"input":"x","metadata":` + strings.Repeat("[", 130) + strings.Repeat("]", 130) + `}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := responses.DecodeRequest(data, responses.DecodeOptions{})
		if err != nil {
			return
		}
		_ = protocols.UnknownFields(req)
		_, _, _ = convert.ResponsesToChat(req, convert.ResponsesOptions{})
		_ = responses.ResponseFrom(req)
		once, err := jsonx.Marshal(req)
		if err != nil {
			t.Fatalf("decoded value does not encode: %v", err)
		}
		if !json.Valid(once) {
			t.Fatalf("invalid JSON %s", once)
		}
		var again responses.Request
		if err := jsonx.Unmarshal(once, &again); err != nil {
			t.Fatalf("re-decode of %s: %v", once, err)
		}
		twice, _ := jsonx.Marshal(&again)
		if !bytes.Equal(once, twice) {
			if d := testutil.JSONDiff(t, once, twice); d != "" {
				t.Fatalf("not a fixed point:\n%s", d)
			}
		}
	})
}
