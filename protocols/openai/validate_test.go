package openai_test

import (
	"strings"
	"testing"

	"github.com/agentwire/agentwire/protocols/openai"
)

func TestValidate(t *testing.T) {
	const base = `"model":"m","messages":[{"role":"user","content":"hi"}]`
	tools := `"tools":[{"type":"function","function":{"name":"f"}}]`
	cases := []struct{ body, msg string }{
		{`{` + base + `}`, ""},
		{`{"model":"m","messages":[]}`, "Messages array cannot be empty"},
		{`{"messages":[{"role":"user","content":"x"}]}`, "Model cannot be empty"},
		{`{` + base + `,"max_tokens":0}`, "Max tokens must be greater than 0, got 0"},
		{`{` + base + `,"tool_choice":"required"}`, `tool_choice is "required" but tools is empty`},
		{`{` + base + `,` + tools + `,"tool_choice":{"type":"function","function":{"name":"g"}}}`, `tool named "g" in tool_choice is not present in tools`},
		{`{` + base + `,` + tools + `,"tool_choice":{"type":"function","function":{"name":"f"}}}`, ""},
		{`{` + base + `,"stop":["a",""]}`, "Stop sequences must not be empty"},
		{`{` + base + `,"stop":[` + strings.Repeat(`"x",`, 32) + `"y"]}`, "At most 32 stop sequences are allowed"},
		{`{` + base + `,"n":2,"temperature":0}`, "n > 1 requires a non-zero temperature (greedy sampling gives identical choices)"},
		{`{` + base + `,"top_logprobs":21}`, "top_logprobs must be between 0 and 20, got 21"},
		{`{` + base + `,"response_format":{"type":"json_schema","json_schema":{"name":""}}}`, "response_format.json_schema.name must not be empty"},
		{`{` + base + `,"response_format":{"type":"json_schema","json_schema":{"name":"n","schema":[]}}}`, "response_format.json_schema.schema must be an object"},
		{`{` + base + `,"tools":[{"type":"function","function":{"name":"` + strings.Repeat("a", 129) + `"}}]}`, "tools[0].function.name is longer than 128 characters"},
		{`{` + base + `,"reasoning_effort":"extreme"}`, `reasoning_effort must be one of none, minimal, low, medium, high, xhigh, max; got "extreme"`},
		{`{` + base + `,"reasoning":{"effort":"extreme"}}`, `reasoning.effort must be one of none, minimal, low, medium, high, xhigh, max; got "extreme"`},
		{`{` + base + `,"reasoning":{"effort":"high","max_tokens":100}}`, ""},
		{`{` + base + `,"repetition_penalty":3}`, "repetition_penalty must be in (0, 2], got 3"},
	}
	for _, tc := range cases {
		req, err := openai.DecodeChatRequest([]byte(tc.body), openai.DecodeOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.body, err)
		}
		err = req.Validate()
		switch {
		case tc.msg == "" && err != nil:
			t.Errorf("%s: unexpected %v", tc.body, err)
		case tc.msg != "" && (err == nil || err.(*openai.APIError).Body.Error.Message != tc.msg):
			t.Errorf("%s: err = %v, want %q", clipBody(tc.body), err, tc.msg)
		}
	}
}

func clipBody(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
