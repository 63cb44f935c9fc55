package anthropic_test

import (
	"testing"

	"github.com/agentwire/agentwire/protocols/anthropic"
)

func TestEstimateTokens(t *testing.T) {
	body := `{"model":"m","system":"abcdef","messages":[
		{"role":"user","content":"hello"},
		{"role":"assistant","content":[{"type":"thinking","thinking":"hmm","signature":"s"},{"type":"tool_use","id":"t","name":"f","input":{"a":1}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"ok"},{"type":"image","source":{"type":"url","url":"u"}}]}],
		"tools":[{"name":"f","description":"d","input_schema":{"type":"object"}}]}`
	req, err := anthropic.DecodeCountTokensRequest([]byte(body), anthropic.DecodeOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	// system 6; user 4+5; assistant 9+3+(1+7); user 4+2+256; tool 1+1+17
	const sum = 6 + 4 + 5 + 9 + 3 + 1 + 7 + 4 + 2 + 256 + 1 + 1 + 17
	if got := req.EstimateTokens(); got != sum/3 {
		t.Errorf("EstimateTokens = %d, want %d", got, sum/3)
	}
	if got := anthropic.EstimateTokens("a", nil, nil); got != 1 {
		t.Errorf("tiny request: %d, want 1", got)
	}
	if got := anthropic.EstimateTokens("", nil, nil); got != 0 {
		t.Errorf("empty request: %d, want 0", got)
	}
}
