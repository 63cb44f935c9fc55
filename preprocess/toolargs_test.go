package preprocess

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/stretchr/testify/require"
)

// messagesTurn2 is a Claude Code-shaped second turn: the tool_use the
// server answered (input as the client re-serialised it) and its result.
func messagesTurn2(t *testing.T, id, input string) *anthropic.MessagesRequest {
	body := fmt.Sprintf(`{"model":"claude","max_tokens":100,"messages":[
		{"role":"user","content":"Say hi with the shell."},
		{"role":"assistant","content":[{"type":"tool_use","id":%q,"name":"Bash","input":%s}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":%q,"content":"hi"}]}],
		"tools":[{"name":"Bash","input_schema":{"type":"object","properties":{"command":{"type":"string"}}}}]}`, id, input, id)
	r, err := anthropic.DecodeMessagesRequest([]byte(body), anthropic.DecodeOptions{})
	require.NoError(t, err)
	return r
}

// TestToolArgsReplay: an Anthropic client sends a tool_use input back as a
// compact object; the Qwen3 template prints string arguments as they are.
// The prompt must carry the model's own text (kept by the server under the
// id it minted) or, on a miss, the object's tojson — never the client's
// compact re-serialisation.
func TestToolArgsReplay(t *testing.T) {
	m := tinyModel(t, ModelOptions{ToolParser: "hermes", ReasoningParser: "qwen3"})
	require.True(t, m.Template(true).ArgumentsAsString)
	cases := []struct {
		name, cached, input, want string
	}{
		{"hit: the model's own spacing", `{"command":  "echo hi"}`, `{"command":"echo hi"}`, `"arguments": {"command":  "echo hi"}}`},
		{"miss: the object's tojson", "", `{"command":"echo hi"}`, `"arguments": {"command": "echo hi"}}`},
		{"edited input: the object", `{"command": "echo ho"}`, `{"command":"echo hi"}`, `"arguments": {"command": "echo hi"}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := New(m, Options{PrefixCacheEntries: -1})
			if c.cached != "" {
				p.ToolArgs().Put("toolu_1", []byte(c.cached))
			}
			prep, err := p.Messages(context.Background(), messagesTurn2(t, "toolu_1", c.input))
			require.NoError(t, err)
			require.Contains(t, prep.Engine.Prompt, `{"name": "Bash", `+c.want)
			require.NotContains(t, prep.Engine.Prompt, `{"command":"echo hi"}`)
			require.Same(t, p.ToolArgs(), prep.Response.ToolArgs)
		})
	}
	// Disabled: the object.
	p := New(m, Options{PrefixCacheEntries: -1, ToolArgsEntries: -1})
	require.Nil(t, p.ToolArgs())
	prep, err := p.Messages(context.Background(), messagesTurn2(t, "toolu_1", `{"command":"echo hi"}`))
	require.NoError(t, err)
	require.True(t, strings.Contains(prep.Engine.Prompt, `"arguments": {"command": "echo hi"}}`))
}

func TestToolArgsBounded(t *testing.T) {
	c := NewToolArgs(3)
	for i := range 10 {
		c.Put(fmt.Sprint("toolu_", i), []byte(fmt.Sprint(`{"i": `, i, `}`)))
	}
	require.Equal(t, 3, c.Len())
	_, ok := c.Get("toolu_6")
	require.False(t, ok, "evicted")
	v, ok := c.Get("toolu_9")
	require.True(t, ok)
	require.Equal(t, `{"i": 9}`, v)
	c.Put("toolu_big", make([]byte, api.MaxToolArgsBytes+1))
	_, ok = c.Get("toolu_big")
	require.False(t, ok, "too long to keep")
	c.Put("", []byte("{}"))
	require.Equal(t, 3, c.Len())
	var nilCache *ToolArgs
	nilCache.Put("x", []byte("{}"))
	_, ok = nilCache.Get("x")
	require.False(t, ok)
}
