package anthropic_test

import (
	"bytes"
	"testing"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
)

// Decoded requests hand back the exact body (for proxies), and re-encoding
// writes <, > and & as themselves, as the SDKs and the APIs do.
func TestOriginalBytesAndNoHTMLEscape(t *testing.T) {
	body := []byte(`{"model":"m", "max_tokens":1,"messages":[{"role":"user","content":"<b>a & b</b> \u003c"}],"x":"<y>"}`)
	req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if &req.Original[0] != &body[0] || len(req.Original) != len(body) {
		t.Error("Original is not the decoded body")
	}
	out, err := jsonx.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(`\u003c`)) || bytes.Contains(out, []byte(`\u0026`)) || !bytes.Contains(out, []byte(`"<b>a & b</b> <"`)) || !bytes.Contains(out, []byte(`"x":"<y>"`)) {
		t.Errorf("re-encoded: %s", out)
	}
	if bytes.Contains(out, []byte("Original")) {
		t.Errorf("Original encoded: %s", out)
	}
	cr, err := openai.DecodeChatRequest([]byte(`{"model":"m","messages":[]}`), openai.DecodeOptions{})
	if err != nil || string(cr.Original) != `{"model":"m","messages":[]}` {
		t.Errorf("chat Original %q %v", cr.Original, err)
	}
	rr, err := responses.DecodeRequest([]byte(`{"input":"<x>"}`), responses.DecodeOptions{})
	if err != nil || string(rr.Original) != `{"input":"<x>"}` {
		t.Errorf("responses Original %q %v", rr.Original, err)
	}
	if out, _ := jsonx.Marshal(rr); !bytes.Equal(out, []byte(`{"input":"<x>"}`)) {
		t.Errorf("responses re-encoded %s", out)
	}
}
