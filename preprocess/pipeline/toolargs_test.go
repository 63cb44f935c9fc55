package pipeline

import (
	"regexp"
	"testing"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
)

// TestToolArgsRecorded: on Anthropic Messages, streamed and unary, every
// tool_use id the answer carries is recorded in ResponsePlan.ToolArgs with
// the exact argument text the model wrote (spaces kept), so the next turn
// can replay it.
func TestToolArgsRecorded(t *testing.T) {
	const out = `<tool_call>` + "\n" + `{"name": "get_weather", "arguments": {"city":  "Paris", "n": 1.50}}` + "\n" + `</tool_call>`
	const args = `{"city":  "Paris", "n": 1.50}`
	ids := regexp.MustCompile(`"id":"(toolu_[0-9a-f]+)"`)
	for _, stream := range []bool{true, false} {
		prep := prepFor(api.Messages, stream, "hermes", "qwen3")
		prep.Response.ToolArgs = preprocess.NewToolArgs(8)
		w := serve(t, newFake(textOutputs([]string{out[:20], out[20:50], out[50:]}, engine.FinishStop)), prep)
		m := ids.FindAllStringSubmatch(w.Body.String(), -1)
		require.Len(t, m, 1, "stream=%v: %d tool_use ids in %s", stream, len(m), w.Body)
		got, ok := prep.Response.ToolArgs.Get(m[0][1])
		require.True(t, ok, "stream=%v: recorded %q, %v; want %q", stream, got, ok, args)
		require.Equal(t, args, got, "stream=%v: recorded %q, %v; want %q", stream, got, ok, args)
		n := prep.Response.ToolArgs.Len()
		require.Equal(t, 1, n, "stream=%v: %d entries, want 1", stream, n)
	}
	// Chat answers record nothing (their clients send the string back).
	prep := prepFor(api.Chat, true, "hermes", "qwen3")
	prep.Response.ToolArgs = preprocess.NewToolArgs(8)
	serve(t, newFake(textOutputs([]string{out}, engine.FinishStop)), prep)
	n := prep.Response.ToolArgs.Len()
	require.Equal(t, 0, n, "chat: %d entries recorded", n)
}
