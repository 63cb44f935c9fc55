package scripted

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/openai"
)

func chatRequest(t *testing.T, body string) *openai.ChatRequest {
	t.Helper()
	r, err := openai.DecodeChatRequest([]byte(body), openai.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

const bash = `{"type":"function","function":{"name":"Bash","parameters":{"type":"object","properties":{"command":{"type":"string"},"timeout":{"type":"number"},"description":{"type":"string"}},"required":["command"]}}}`

func TestScript(t *testing.T) {
	tests := []struct {
		name, body string
		opts       RenderOptions
		want       string
	}{{
		name: "greeting",
		body: `{"messages":[{"role":"system","content":"be brief"},{"role":"user","content":"hi there"}]}`,
		want: "<think>\nThe user said hello. I will greet them back.\n</think>\n\nHello! I am the agentwire scripted agent. You said: hi there",
	}, {
		name: "thinking disabled",
		body: `{"messages":[{"role":"user","content":"hi"}]}`,
		opts: RenderOptions{DisableThinking: true},
		want: "Hello! I am the agentwire scripted agent. You said: hi",
	}, {
		name: "shell tool preferred",
		body: `{"messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"Read","parameters":{"type":"object","properties":{"file_path":{"type":"string"}},"required":["file_path"]}}},` + bash + `]}`,
		want: "<think>\nThe user wants me to act. I will call the Bash tool.\n</think>\n\n<tool_call>\n{\"name\": \"Bash\", \"arguments\": {\"command\":\"echo hello\"}}\n</tool_call>",
	}, {
		name: "first tool, minimal arguments from the schema",
		body: `{"messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"Edit","parameters":{"type":"object","properties":{"path":{"type":"string"},"mode":{"enum":["a","b"]},"n":{"type":"integer"},"opts":{"type":"object","properties":{"x":{"type":["null","boolean"]}},"required":["x"]},"tags":{"type":"array","minItems":1,"items":{"type":"string"}},"skip":{"type":"string"}},"required":["path","mode","n","opts","tags"]}}}]}`,
		want: "<think>\nThe user wants me to act. I will call the Edit tool.\n</think>\n\n<tool_call>\n{\"name\": \"Edit\", \"arguments\": {\"path\":\"hello\",\"mode\":\"a\",\"n\":1,\"opts\":{\"x\":false},\"tags\":[\"hello\"]}}\n</tool_call>",
	}, {
		name: "parallel",
		body: `{"messages":[{"role":"user","content":"two in Parallel please"}],"tools":[{"type":"function","function":{"name":"shell","parameters":{"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}}},"required":["command"]}}}]}`,
		want: "<think>\nThe user wants me to act. I will call the shell tool.\n</think>\n\n<tool_call>\n{\"name\": \"shell\", \"arguments\": {\"command\":[\"echo\",\"hello\"]}}\n</tool_call>\n<tool_call>\n{\"name\": \"shell\", \"arguments\": {\"command\":[\"echo\",\"world\"]}}\n</tool_call>",
	}, {
		name: "tool results answered",
		body: `{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"reasoning_content":"I will call it.","tool_calls":[{"id":"a","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"echo hello\"}"}},{"id":"b","type":"function","function":{"name":"Bash","arguments":{"command":"echo world"}}}]},{"role":"tool","tool_call_id":"a","content":"hello"},{"role":"tool","tool_call_id":"b","content":"world"}],"tools":[` + bash + `]}`,
		want: "<think>\nThe tool finished. I will report what it returned.\n</think>\n\nDone. The tool returned:\n\nhello\n\nworld",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prompt := RenderChatML(chatRequest(t, tt.body), tt.opts)
			if diff := cmp.Diff(tt.want, Script(prompt)); diff != "" {
				t.Errorf("script (-want +got):\n%s\nprompt:\n%s", diff, prompt)
			}
		})
	}
}

func TestRenderChatML(t *testing.T) {
	got := RenderChatML(chatRequest(t, `{"messages":[{"role":"system","content":"sys"},{"role":"user","content":"go"},`+
		`{"role":"assistant","content":"ok","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}}]},`+
		`{"role":"tool","tool_call_id":"a","content":"r"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}]}`), RenderOptions{})
	want := "<|im_start|>system\nsys\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n" +
		"You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n" +
		`{"type":"function","function":{"name":"f","parameters":{"type":"object"}}}` + "\n</tools>\n\n" +
		"For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n" +
		"<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" +
		"<|im_start|>user\ngo<|im_end|>\n<|im_start|>assistant\nok\n<tool_call>\n{\"name\": \"f\", \"arguments\": {}}\n</tool_call><|im_end|>\n" +
		"<|im_start|>user\n<tool_response>\nr\n</tool_response><|im_end|>\n<|im_start|>assistant\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPieces(t *testing.T) {
	got := Pieces("<think>\nHi, wörld</think>\n\n<tool_call>\n{\"a\": 1}")
	want := []string{"<think>", "\n", "Hi,", " wö", "rld", "</think>", "\n", "\n", "<tool_call>", "\n", "{\"a\"", ":", " 1}"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if strings.Join(got, "") != "<think>\nHi, wörld</think>\n\n<tool_call>\n{\"a\": 1}" {
		t.Error("pieces lose bytes")
	}
}

func TestEngineLimits(t *testing.T) {
	prompt := RenderChatML(chatRequest(t, `{"messages":[{"role":"user","content":"hi"}]}`), RenderOptions{DisableThinking: true})
	collect := func(req *engine.Request) (string, engine.Finish, string) {
		st, err := NewEngine(nil, 0).Generate(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		var b strings.Builder
		for {
			out, err := st.Next()
			if err == io.EOF {
				t.Fatal("no finish")
			}
			if err != nil {
				t.Fatal(err)
			}
			b.Write(out.Text)
			if out.Finish != engine.FinishNone {
				if out.Usage == nil || out.Usage.CompletionTokens == 0 {
					t.Error("no usage on the last step")
				}
				return b.String(), out.Finish, string(out.StopReason)
			}
		}
	}
	if text, f, _ := collect(&engine.Request{Prompt: prompt, MaxTokens: 3}); text != "Hello! I" || f != engine.FinishLength {
		t.Errorf("max tokens: %q %v", text, f)
	}
	if text, f, s := collect(&engine.Request{Prompt: prompt, MaxTokens: 100, Stop: engine.Stop{Strings: []string{"agentwire"}}}); text != "Hello! I am the " || f != engine.FinishStop || s != "agentwire" {
		t.Errorf("stop: %q %v %q", text, f, s)
	}
	if text, f, _ := collect(&engine.Request{Prompt: prompt, MaxTokens: 100}); !strings.HasSuffix(text, "You said: hi") || f != engine.FinishEOS {
		t.Errorf("eos: %q %v", text, f)
	}
}

func TestExampleArgsValidJSON(t *testing.T) {
	for _, schema := range []string{`{}`, `not json`, `{"type":"object","properties":{"a":{"anyOf":[{"type":"integer"},{"type":"null"}]}},"required":["a","missing"]}`} {
		args := exampleArgs(json.RawMessage(schema), "echo hello", true)
		if !json.Valid([]byte(args)) {
			t.Errorf("%s: %s", schema, args)
		}
	}
}
