package scripted

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/stretchr/testify/require"
)

const (
	readTool      = `{"type":"function","function":{"name":"Read","parameters":{"type":"object","properties":{"file_path":{"type":"string"},"offset":{"type":"number"}},"required":["file_path"]}}}`
	viewImageTool = `{"type":"function","function":{"name":"view_image","parameters":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}}}`
)

// TestImageRoundTrip: asked about an image file, the agent reads it with
// the harness's image tool (Claude Code's Read, Codex's view_image); with
// the image back in the tool result it acknowledges what it received.
func TestImageRoundTrip(t *testing.T) {
	for _, tc := range []struct{ tools, user, call string }{
		{bash + `,` + readTool, "What is in @shot.png?", `{"name": "Read", "arguments": {"file_path": "shot.png"}}`},
		{viewImageTool + `,` + bash, "Look at /tmp/x.JPG, please", `{"name": "view_image", "arguments": {"path": "/tmp/x.JPG"}}`},
		{bash, "What is in shot.png?", ``}, // no image tool: the shell as usual
	} {
		chat := chatRequest(t, `{"model":"m","messages":[{"role":"user","content":`+quoteJSON(tc.user)+`}],"tools":[`+tc.tools+`]}`)
		out, err := Answer(RenderChatML(chat, RenderOptions{}))
		require.NoError(t, err)
		if tc.call == "" {
			require.NotContains(t, out, `"Read"`, "%q: read an image: %s", tc.user, out)
			require.NotContains(t, out, `"view_image"`, "%q: read an image: %s", tc.user, out)
			continue
		}
		require.Contains(t, out, callOpen+"\n"+tc.call+"\n"+callClose, "%q: %s", tc.user, out)
	}

	chat := chatRequest(t, `{"model":"m","messages":[{"role":"user","content":"What is in shot.png?"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"Read","arguments":"{\"file_path\":\"shot.png\"}"}}]},
		{"role":"tool","tool_call_id":"c1","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}],"tools":[`+readTool+`]}`)
	prompt := RenderChatML(chat, RenderOptions{})
	require.Equal(t, 1, strings.Count(prompt, VisionPlaceholder), "prompt: %s", prompt)
	out, err := respond(prompt, []engine.Image{{MediaType: "image/png", Width: 120, Height: 80, Bytes: 999}})
	require.NoError(t, err)
	want := "Done. The tool returned:\n\n" + "[image]" + "\n\nI received 1 image: PNG 120×80 (999 bytes)."
	require.True(t, strings.HasSuffix(out, want), "answer %q, want suffix %q", out, want)
}

func quoteJSON(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}

// TestEngineImageCache: the embedded engine's prefix cache keys the block
// holding an image's placeholder by the image's hash: the same text with
// another image hits only the blocks before the image; the same image
// resent hits as text does.
func TestEngineImageCache(t *testing.T) {
	chat := chatRequest(t, `{"model":"m","messages":[{"role":"system","content":"`+strings.Repeat("You are a coding agent. ", 12)+`"},
		{"role":"user","content":[{"type":"text","text":"What is in this screenshot?"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},{"type":"text","text":"`+strings.Repeat("Describe it in detail. ", 8)+`"}]}]}`)
	prompt := RenderChatML(chat, RenderOptions{})
	at := strings.Index(prompt, VisionPlaceholder)
	require.GreaterOrEqual(t, at, 0, "prompt: %s", prompt)
	require.Equal(t, 1, strings.Count(prompt, VisionPlaceholder), "prompt: %s", prompt)
	const block = 16 * 4 // the default cache's block: 16 tokens of 4 bytes
	before := int64(at / block * 16)
	whole := int64((len(prompt) - 1) / block * 16)
	require.NotEqual(t, int64(0), before, "the image must sit inside the prompt: at %d of %d bytes", at, len(prompt))
	require.Less(t, before, whole, "the image must sit inside the prompt: at %d of %d bytes", at, len(prompt))
	img := func(h string) []engine.Image {
		return []engine.Image{{MediaType: "image/png", Width: 64, Height: 32, Bytes: 100, Hash: h}}
	}
	e := NewEngine(nil, 0)
	for i, tc := range []struct {
		imgs   []engine.Image
		cached int64
	}{
		{img("aaaa"), 0},
		{img("bbbb"), before}, // another image, the same text
		{img("aaaa"), whole},  // the first image resent
		{img("bbbb"), whole},
	} {
		st, err := e.Generate(context.Background(), &engine.Request{Model: "m", Prompt: prompt, Images: tc.imgs, MaxTokens: 200})
		require.NoError(t, err)
		var last *engine.Usage
		for {
			out, err := st.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			if out.Usage != nil {
				last = out.Usage
			}
		}
		st.Close()
		require.NotNil(t, last, "request %d: usage %+v, want %d cached tokens", i, last, tc.cached)
		require.Equal(t, tc.cached, last.CachedTokens, "request %d: usage %+v, want %d cached tokens", i, last, tc.cached)
	}
}
