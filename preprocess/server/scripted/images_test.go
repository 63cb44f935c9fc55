package scripted

import (
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/engine"
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
		if err != nil {
			t.Fatal(err)
		}
		if tc.call == "" {
			if strings.Contains(out, `"Read"`) || strings.Contains(out, `"view_image"`) {
				t.Errorf("%q: read an image: %s", tc.user, out)
			}
			continue
		}
		if !strings.Contains(out, callOpen+"\n"+tc.call+"\n"+callClose) {
			t.Errorf("%q: %s", tc.user, out)
		}
	}

	chat := chatRequest(t, `{"model":"m","messages":[{"role":"user","content":"What is in shot.png?"},
		{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"Read","arguments":"{\"file_path\":\"shot.png\"}"}}]},
		{"role":"tool","tool_call_id":"c1","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}}]}],"tools":[`+readTool+`]}`)
	prompt := RenderChatML(chat, RenderOptions{})
	if strings.Count(prompt, VisionPlaceholder) != 1 {
		t.Fatalf("prompt: %s", prompt)
	}
	out, err := respond(prompt, []engine.Image{{MediaType: "image/png", Width: 120, Height: 80, Bytes: 999}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "Done. The tool returned:\n\n" + "[image]" + "\n\nI received 1 image: PNG 120×80 (999 bytes)."; !strings.HasSuffix(out, want) {
		t.Errorf("answer %q, want suffix %q", out, want)
	}
}

func quoteJSON(s string) string {
	return `"` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
}
