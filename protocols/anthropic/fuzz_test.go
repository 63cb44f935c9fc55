package anthropic_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
)

// FuzzMessagesRequestRoundTrip: whatever decodes must encode to valid JSON
// that is a fixed point of decode → encode; translation to chat never
// panics.
func FuzzMessagesRequestRoundTrip(f *testing.F) {
	f.Add([]byte(`{"model":"m","max_tokens":5,"system":[{"type":"text","text":"s","cache_control":{"type":"ephemeral","ttl":"1h"}}],"messages":[{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}}]},{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"tool_use","id":"toolu_1","name":"f","input":{"a":1}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"r"}],"is_error":false},{"type":"mystery","x":1}]}],"tools":[{"name":"f","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"f"},"thinking":{"type":"enabled","budget_tokens":100},"extra":true}`))
	f.Add([]byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":"x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := anthropic.DecodeMessagesRequest(data, anthropic.DecodeOptions{})
		if err != nil {
			return
		}
		_ = protocols.UnknownFields(req)
		_ = req.Validate()
		_, _, _ = req.NvExtCacheSalt()
		_, _, _ = convert.AnthropicToChat(req, convert.AnthropicOptions{StripBillingHeader: true, ReasoningParser: true})
		once, err := jsonx.Marshal(req)
		if err != nil {
			t.Fatalf("decoded value does not encode: %v", err)
		}
		if !json.Valid(once) {
			t.Fatalf("invalid JSON %s", once)
		}
		var again anthropic.MessagesRequest
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
