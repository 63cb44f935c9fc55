package scripted

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/stretchr/testify/require"
)

func chatRequest(t *testing.T, body string) *openai.ChatRequest {
	t.Helper()
	r, err := openai.DecodeChatRequest([]byte(body), openai.DecodeOptions{})
	require.NoError(t, err)
	return r
}

const bash = `{"type":"function","function":{"name":"Bash","parameters":{"type":"object","properties":{"command":{"type":"string"},"timeout":{"type":"number"},"description":{"type":"string"}},"required":["command"]}}}`

// Qwen Code's agent and shell tools (their names and required
// parameters as Qwen Code declares them).
const (
	qwenAgent = `{"type":"function","function":{"name":"agent","description":"Launch a new agent to handle complex, multi-step tasks autonomously.","parameters":{"type":"object","properties":{"description":{"type":"string"},"prompt":{"type":"string"},"subagent_type":{"type":"string"}},"required":["description","prompt"]}}}`
	qwenShell = `{"type":"function","function":{"name":"run_shell_command","description":"Executes a given shell command.","parameters":{"type":"object","properties":{"command":{"type":"string"},"is_background":{"type":"boolean"},"description":{"type":"string"}},"required":["command","is_background"]}}}`
)

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
		name: "Qwen Code: run_shell_command, not the agent tool declared first",
		body: `{"messages":[{"role":"user","content":"list the files"}],"tools":[` + qwenAgent + `,` + qwenShell + `]}`,
		want: "<think>\nThe user wants me to act. I will call the run_shell_command tool.\n</think>\n\n<tool_call>\n{\"name\": \"run_shell_command\", \"arguments\": {\"command\":\"echo hello\",\"is_background\":false}}\n</tool_call>",
	}, {
		name: "a reminder's parallel is not the user's",
		body: `{"messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>\nMake independent tool calls in parallel.\n</system-reminder>"},{"type":"text","text":"list the files"}]}],"tools":[` + qwenShell + `]}`,
		want: "<think>\nThe user wants me to act. I will call the run_shell_command tool.\n</think>\n\n<tool_call>\n{\"name\": \"run_shell_command\", \"arguments\": {\"command\":\"echo hello\",\"is_background\":false}}\n</tool_call>",
	}, {
		name: "a turn of reminders only: the user's words are in the turn before",
		body: `{"messages":[{"role":"user","content":"hi"},{"role":"user","content":"<system-reminder>use parallel calls</system-reminder>"}]}`,
		want: "<think>\nThe user said hello. I will greet them back.\n</think>\n\nHello! I am the agentwire scripted agent. You said: hi",
	}, {
		name: "agent tools are not called unasked",
		body: `{"messages":[{"role":"user","content":"go"}],"tools":[` + qwenAgent + `,{"type":"function","function":{"name":"Task","description":"Launch a new agent to handle complex tasks","parameters":{"type":"object"}}}]}`,
		want: "<think>\nEvery tool I was given starts another agent, and the user did not ask for one.\n</think>\n\nI can only start another agent with the tools I have; say so if you want one.",
	}, {
		name: "an agent tool the user asks for",
		body: `{"messages":[{"role":"user","content":"start a subagent"}],"tools":[` + qwenAgent + `]}`,
		want: "<think>\nThe user wants me to act. I will call the agent tool.\n</think>\n\n<tool_call>\n{\"name\": \"agent\", \"arguments\": {\"description\":\"Print hello\",\"prompt\":\"hello\"}}\n</tool_call>",
	}, {
		name: "Codex: exec_command over spawn_agent",
		body: `{"messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"spawn_agent","parameters":{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}}},{"type":"function","function":{"name":"exec_command","parameters":{"type":"object","properties":{"cmd":{"type":"string"}},"required":["cmd"]}}}]}`,
		want: "<think>\nThe user wants me to act. I will call the exec_command tool.\n</think>\n\n<tool_call>\n{\"name\": \"exec_command\", \"arguments\": {\"cmd\":\"echo hello\"}}\n</tool_call>",
	}, {
		name: "OpenCode: a non-agent tool over task when there is no shell",
		body: `{"messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"task","parameters":{"type":"object"}}},{"type":"function","function":{"name":"read","parameters":{"type":"object","properties":{"filePath":{"type":"string"}},"required":["filePath"]}}}]}`,
		want: "<think>\nThe user wants me to act. I will call the read tool.\n</think>\n\n<tool_call>\n{\"name\": \"read\", \"arguments\": {\"filePath\":\"hello\"}}\n</tool_call>",
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
	require.Equal(t, "<think>\nHi, wörld</think>\n\n<tool_call>\n{\"a\": 1}", strings.Join(got, ""), "pieces lose bytes")
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
		args, err := exampleArgs(json.RawMessage(schema), "echo hello", true)
		require.NoError(t, err, "%s: %s %v", schema, args, err)
		require.True(t, json.Valid([]byte(args)), "%s: %s %v", schema, args, err)
	}
}

// nestArrays returns an object schema whose required member "a" is an
// array of minItems arrays, depth levels deep, of strings.
func nestArrays(minItems string, depth int) string {
	item := `{"type":"string"}`
	for range depth {
		item = `{"type":"array","minItems":` + minItems + `,"items":` + item + `}`
	}
	return `{"type":"object","properties":{"a":` + item + `},"required":["a"]}`
}

// TestExampleArgsBounded: a schema is client input; the arguments built
// from it stay within MaxArgumentBytes or are refused, quickly and
// without a panic (minItems 2^62 used to panic the handler, 1e8 to run
// the server out of memory).
func TestExampleArgsBounded(t *testing.T) {
	deepObject := `{"type":"string"}`
	for range 100 {
		deepObject = `{"type":"object","properties":{"o":` + deepObject + `},"required":["o"]}`
	}
	big := `"` + strings.Repeat("x", 1000) + `"`
	tests := []struct {
		name, schema string
		refused      bool
	}{
		{"minItems 2^62", nestArrays("4611686018427387904", 1), true},
		{"minItems 1e8", nestArrays("1e8", 1), true},
		{"minItems 1e6", nestArrays("1000000", 1), true},
		{"minItems 64 four deep", nestArrays("64", 4), true},
		{"minItems 3 twice", nestArrays("3", 2), false},
		{"negative minItems", nestArrays("-5", 1), false},
		{"large default repeated", `{"type":"object","properties":{"a":{"type":"array","minItems":100,"items":{"default":` + big + `}}},"required":["a"]}`, true},
		{"objects nested 100 deep", deepObject, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Bounded in what it builds, not in wall-clock time (which
			// measures the machine): a refused schema stops at the bound.
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			args, err := exampleArgs(json.RawMessage(tt.schema), "echo hello", false)
			runtime.ReadMemStats(&m1)
			alloc := m1.TotalAlloc - m0.TotalAlloc
			require.LessOrEqual(t, alloc, uint64(64<<20), "allocated %d bytes", alloc)
			if tt.refused {
				require.ErrorIs(t, err, ErrArgumentsTooLarge, "got %d bytes, error %v; want ErrArgumentsTooLarge", len(args), err)
				require.Equal(t, "", args, "got %d bytes, error %v; want ErrArgumentsTooLarge", len(args), err)
				return
			}
			require.NoError(t, err, "%.200s (%d bytes): %v", args, len(args), err)
			require.True(t, json.Valid([]byte(args)), "%.200s (%d bytes): %v", args, len(args), err)
			require.LessOrEqual(t, len(args), MaxArgumentBytes, "%.200s (%d bytes): %v", args, len(args), err)
		})
	}
}

// TestAnswerRefusal: the agent's refusal is an engine bad request (the
// API's 400), and Script reports it as text.
func TestAnswerRefusal(t *testing.T) {
	body := `{"messages":[{"role":"user","content":"go"}],"tools":[{"type":"function","function":{"name":"f","parameters":` + nestArrays("1e8", 1) + `}}]}`
	prompt := RenderChatML(chatRequest(t, body), RenderOptions{})
	_, err := Answer(prompt)
	var ee *engine.Error
	require.True(t, errors.As(err, &ee), "%#v", err)
	require.Equal(t, engine.ErrorBadRequest, ee.Kind, "%#v", err)
	require.Equal(t, 400, ee.Status, "%#v", err)
	require.ErrorIs(t, err, ErrArgumentsTooLarge, "%#v", err)
	got := Script(prompt)
	require.Equal(t, err.Error(), got, "Script = %q", got)
	st, err := NewEngine(nil, 0).Generate(context.Background(), &engine.Request{Prompt: prompt, MaxTokens: 10})
	require.False(t, st != nil, "engine: %v %v", st, err)
	require.True(t, errors.As(err, &ee), "engine: %v %v", st, err)
	require.Equal(t, engine.ErrorBadRequest, ee.Kind, "engine: %v %v", st, err)
}
