package anthropic_test

import (
	"bytes"
	"encoding/json"
	"strings"
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
	f.Add([]byte(`{"model":"m","max_tokens":1,"messages":[],"tools":[{"name":"f","input_schema":{"type":"object"},"eager_input_streaming":true}]}`))
	// denial-of-service shapes: nested tool_result, case-folded keys, deep
	// nesting, a huge number
	f.Add(nestedToolResults(40))
	f.Add([]byte(`{"model":"a","MODEL":"b","Max_tokens":2,"max_tokens":1,"messages":[{"role":"user","ROLE":"x","content":"y"}]}`))
	f.Add([]byte(`{"model":"m","max_tokens":1,"messages":[],"metadata":{"user_id":` + strings.Repeat("[", 130) + strings.Repeat("]", 130) + `}}`))
	f.Add([]byte(`{"model":"m","max_tokens":` + strings.Repeat("9", 400) + `,"messages":[]}`))
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

// FuzzEmitter: any text through every event kind yields valid SSE whose
// events decode to typed events, and the deltas concatenate to the input
// (invalid UTF-8 replaced per piece).
func FuzzEmitter(f *testing.F) {
	f.Add([]byte("hello"), []byte("think"), []byte(`{"a":"\u00e9"}`), uint8(3))
	f.Add([]byte("\xff\xfe<\u2028>"), []byte("\x00\x1f"), []byte(`"`), uint8(0))
	f.Fuzz(func(t *testing.T, content, reasoning, args []byte, split uint8) {
		e := anthropic.NewEmitter(anthropic.EmitterConfig{Model: "m", DeltaUsage: split%2 == 0})
		var out []byte
		n := int(split)%4 + 1
		pieces := func(b []byte) [][]byte {
			var ps [][]byte
			for len(b) > 0 {
				k := min(n, len(b))
				ps = append(ps, b[:k])
				b = b[k:]
			}
			return ps
		}
		var want [3][]byte
		for i, in := range [][]byte{reasoning, content, args} {
			for _, p := range pieces(in) {
				var back string
				_ = json.Unmarshal(jsonx.AppendString(nil, p), &back)
				want[i] = append(want[i], back...)
			}
		}
		for _, p := range pieces(reasoning) {
			out = e.Reasoning(out, p)
		}
		for _, p := range pieces(content) {
			out = e.Content(out, p)
		}
		out = e.ToolCallStart(out, 0, []byte("call_1"), []byte("f"))
		for _, p := range pieces(args) {
			out = e.ToolCallArgs(out, 0, p)
		}
		out = e.ToolCallEnd(out, 0)
		out = e.Finish(out, protocols.FinishStop, protocols.Usage{})
		var got [3][]byte
		for _, fr := range testutil.Frames(t, out) {
			ev, err := anthropic.DecodeStreamEvent([]byte(fr.Data))
			if err != nil || ev.EventType() != fr.Event {
				t.Fatalf("frame %s %q: %v", fr.Event, fr.Data, err)
			}
			if d, ok := ev.(*anthropic.ContentBlockDeltaEvent); ok {
				switch d.Delta.Type {
				case anthropic.DeltaThinking:
					got[0] = append(got[0], d.Delta.Thinking...)
				case anthropic.DeltaText:
					got[1] = append(got[1], d.Delta.Text...)
				case anthropic.DeltaInputJSON:
					got[2] = append(got[2], d.Delta.PartialJSON...)
				}
			}
		}
		for i := range got {
			if string(got[i]) != string(want[i]) {
				t.Fatalf("stream %d: got %q, want %q", i, got[i], want[i])
			}
		}
	})
}
