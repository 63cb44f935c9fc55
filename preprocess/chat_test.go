package preprocess

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/chattemplate"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func chatReq(tb testing.TB, s string) *openai.ChatRequest {
	tb.Helper()
	var r openai.ChatRequest
	require.NoError(tb, json.Unmarshal([]byte(s), &r))
	return &r
}

const toolTurn = `{"model":"m","messages":[
	{"role":"system","content":"be brief"},
	{"role":"user","content":[{"type":"text","text":"list"},{"type":"text","text":"files"}]},
	{"role":"assistant","content":null,"reasoning_content":"I should run ls","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"cmd\": \"ls\"}"}}]},
	{"role":"tool","tool_call_id":"c1","content":"a.txt"}],
	"tools":[{"type":"function","function":{"name":"bash","description":"run","parameters":{"type":"object","properties":{"cmd":{"type":"string"}}}}}]`

func TestChatTiny(t *testing.T) {
	p := New(tinyModel(t, ModelOptions{}), Options{})
	prep, err := p.Chat(context.Background(), chatReq(t, toolTurn+`,"stop":["END"],"temperature":0.5,"top_k":20,"seed":7,"stream":true}`))
	require.NoError(t, err)
	e := prep.Engine
	want := "<|im_start|>system\nbe brief\n\n# Tools\n"
	require.True(t, strings.HasPrefix(e.Prompt, want), e.Prompt)
	// Qwen3's template reads reasoning_content and branches on `arguments
	// is string`: both pass through natively.
	require.Contains(t, e.Prompt, "<|im_start|>user\nlist\nfiles<|im_end|>")
	require.Contains(t, e.Prompt, "<think>\nI should run ls\n</think>\n\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"cmd\": \"ls\"}}\n</tool_call>")
	require.Contains(t, e.Prompt, "<tool_response>\na.txt\n</tool_response>")
	require.True(t, strings.HasSuffix(e.Prompt, "<|im_start|>assistant\n"))

	ids, _ := p.Model().Tokenizer.Encode(e.Prompt, false)
	require.Equal(t, ids, e.PromptIDs)
	require.Equal(t, len(ids), prep.Response.PromptTokens)
	require.Equal(t, 2048-len(ids), e.MaxTokens)
	require.Equal(t, engine.Stop{Strings: []string{"END"}, HiddenIDs: []uint32{263, 261}}, e.Stop)
	require.True(t, e.SkipSpecialTokens)
	require.Equal(t, 0.5, *e.Sampling.Temperature)
	require.Equal(t, 20, *e.Sampling.TopK)
	require.Equal(t, int64(7), *e.Sampling.Seed)
	require.Nil(t, e.Sampling.TopP)
	require.Equal(t, "tiny", e.Model)
	require.True(t, prep.Stream)
	require.Equal(t, "hermes", prep.Parsers.ToolParser)
	require.Equal(t, "qwen3", prep.Parsers.ReasoningParser)
	require.False(t, prep.Parsers.InReasoning)
	require.Len(t, prep.Parsers.Tools, 1)
	require.Nil(t, e.Guided)
	require.Same(t, p.Model().Tokenizer, prep.Response.Tokenizer)
}

// TestReasoningReplay covers the fallback for templates that do not read
// reasoning_content: the parser's own markers, one block per segment,
// prefixed to the content.
func TestReasoningReplay(t *testing.T) {
	const tmpl = `{% for m in messages %}[{{ m.role }}]{{ m.content }}{% if m.tool_calls %}{% for c in m.tool_calls %}<call {{ c.function.arguments | tojson }}>{% endfor %}{% endif %}{% endfor %}`
	msgs := `{"model":"m","messages":[{"role":"user","content":"q"},
		{"role":"assistant","content":"answer","reasoning_content":["one","","two"]},
		{"role":"assistant","content":null,"reasoning_content":"r","tool_calls":[{"id":"x","function":{"name":"f","arguments":"{\"b\": [1, 2]}"}}]},
		{"role":"user","content":"z"}]}`
	for _, tc := range []struct{ reasoning, want string }{
		{"qwen3", "[user]q[assistant]<think>one</think><think>two</think>answer[assistant]<think>r</think><call {\"b\": [1, 2]}>[user]z"},
		{"mistral", "[user]q[assistant][THINK]one[/THINK][THINK]two[/THINK]answer[assistant][THINK]r[/THINK]<call {\"b\": [1, 2]}>[user]z"},
		{"minimax_m3", "[user]q[assistant]<mm:think>one</mm:think><mm:think>two</mm:think>answer[assistant]<mm:think>r</mm:think><call {\"b\": [1, 2]}>[user]z"},
	} {
		p := New(tinyModel(t, ModelOptions{ChatTemplate: tmpl, ReasoningParser: tc.reasoning, ToolParser: "none"}), Options{LenientSkipSpecial: true})
		prep, err := p.Chat(context.Background(), chatReq(t, msgs))
		require.NoError(t, err)
		if diff := cmp.Diff(tc.want, prep.Engine.Prompt); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.reasoning, diff)
		}
	}
}

func TestContextLength(t *testing.T) {
	p := New(tinyModel(t, ModelOptions{ContextLength: 50}), Options{})
	long := strings.Repeat("word ", 100)
	_, err := p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"`+long+`"}]}`))
	var ee *engine.Error
	require.True(t, errors.As(err, &ee), "err = %v", err)
	require.Equal(t, engine.ErrorContextLength, ee.Kind)
	require.Equal(t, 50, ee.MaxContext)
	require.Greater(t, ee.PromptTokens, 50)
	require.Contains(t, ee.Error(), "prompt is too long: ")
	require.Contains(t, ee.Error(), " tokens > 50 maximum")

	// An explicit max_tokens is clamped to the room left.
	p = New(tinyModel(t, ModelOptions{ContextLength: 200}), Options{})
	prep, err := p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"hi"}],"max_tokens":100000}`))
	require.NoError(t, err)
	require.Equal(t, 200-len(prep.Engine.PromptIDs), prep.Engine.MaxTokens)
	prep, err = p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"hi"}],"max_completion_tokens":10}`))
	require.NoError(t, err)
	require.Equal(t, 10, prep.Engine.MaxTokens)
}

func TestStopsAndEOS(t *testing.T) {
	p := New(tinyModel(t, ModelOptions{}), Options{})
	prep, err := p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"hi"}],"stop":"x","stop_token_ids":[5,263],"include_stop_str_in_output":true,"min_tokens":3}`))
	require.NoError(t, err)
	require.Equal(t, engine.Stop{Strings: []string{"x"}, IncludeStrings: true, HiddenIDs: []uint32{263, 261, 5}}, prep.Engine.Stop)
	require.Equal(t, 3, prep.Engine.MinTokens)

	// PRE.5: ignore_eos clears everything.
	prep, err = p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"hi"}],"stop":"x","stop_token_ids":[5],"ignore_eos":true}`))
	require.NoError(t, err)
	require.Equal(t, engine.Stop{}, prep.Engine.Stop)
	require.True(t, prep.Engine.IgnoreEOS)

	// Tool end tokens stay visible: a tool parser's end token that is an EOS id becomes visible
	// (here </tool_call> is made an EOS id through the request: it must
	// stay hidden, the request's stop ids win) …
	p = New(tinyModel(t, ModelOptions{}), Options{})
	prep, err = p.Chat(context.Background(), chatReq(t, toolTurn+`,"stop_token_ids":[258]}`))
	require.NoError(t, err)
	require.Contains(t, prep.Engine.Stop.HiddenIDs, uint32(258))
	require.Empty(t, prep.Engine.Stop.VisibleIDs)
}

// TestToolEndVisible: gpt-oss's <|call|> and <|return|> are EOS ids and
// Harmony end markers, so they stop the engine visibly.
func TestToolEndVisible(t *testing.T) {
	t.Parallel()
	m := largeModel(t, "gptoss")
	p := New(m, Options{})
	prep, err := p.Chat(context.Background(), chatReq(t, toolTurn+`}`))
	require.NoError(t, err)
	require.Equal(t, []uint32{200012, 200002}, prep.Engine.Stop.VisibleIDs)
	require.Equal(t, []uint32{199999}, prep.Engine.Stop.HiddenIDs)
	require.False(t, prep.Engine.SkipSpecialTokens, "PRE.1: harmony needs special tokens")
	_, err = p.Chat(context.Background(), chatReq(t, toolTurn+`,"skip_special_tokens":true}`))
	var bad *BadRequestError
	require.True(t, errors.As(err, &bad))
	require.ErrorContains(t, err, `"harmony"`)
	var oe *openai.APIError
	require.True(t, errors.As(err, &oe), "a BadRequestError unwraps to the API's own error")
	require.Equal(t, 400, oe.Status)
	// Without tools the tool parser does not run and <|call|> stays hidden.
	prep, err = p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"hi"}]}`))
	require.NoError(t, err)
	require.Empty(t, prep.Engine.Stop.VisibleIDs)
	require.Empty(t, prep.Parsers.ToolParser)
}

func TestGuidedToolChoice(t *testing.T) {
	p := New(tinyModel(t, ModelOptions{ToolParser: "none"}), Options{})
	prep, err := p.Chat(context.Background(), chatReq(t, toolTurn+`,"tool_choice":"required"}`))
	require.NoError(t, err)
	require.True(t, prep.Response.ImmediateTool)
	require.Empty(t, prep.Response.ImmediateToolName)
	require.JSONEq(t, `{"type":"array","minItems":1,"items":{"anyOf":[{"type":"object","properties":{"name":{"type":"string","enum":["bash"]},"parameters":{"type":"object","properties":{"cmd":{"type":"string"}}}},"required":["name","parameters"]}]}}`,
		string(prep.Engine.Guided.JSONSchema))

	prep, err = p.Chat(context.Background(), chatReq(t, toolTurn+`,"tool_choice":{"type":"function","function":{"name":"bash"}}}`))
	require.NoError(t, err)
	require.Equal(t, "bash", prep.Response.ImmediateToolName)
	require.JSONEq(t, `{"type":"object","properties":{"cmd":{"type":"string"}}}`, string(prep.Engine.Guided.JSONSchema))

	_, err = p.Chat(context.Background(), chatReq(t, toolTurn+`,"tool_choice":{"type":"function","function":{"name":"nope"}}}`))
	var bad *BadRequestError
	require.True(t, errors.As(err, &bad))

	// tool_choice none with ExcludeToolsWhenNone: no tools in the prompt.
	p = New(tinyModel(t, ModelOptions{}), Options{ExcludeToolsWhenNone: true})
	prep, err = p.Chat(context.Background(), chatReq(t, toolTurn+`,"tool_choice":"none"}`))
	require.NoError(t, err)
	require.NotContains(t, prep.Engine.Prompt, "# Tools")
	require.Empty(t, prep.Parsers.ToolParser)
}

func TestThinkingKwargs(t *testing.T) {
	p := New(tinyModel(t, ModelOptions{}), Options{})
	prep, err := p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"hi"}],"reasoning_effort":"none"}`))
	require.NoError(t, err)
	// Qwen3's template closes an empty think block when enable_thinking is false.
	require.True(t, strings.HasSuffix(prep.Engine.Prompt, "<|im_start|>assistant\n<think>\n\n</think>\n\n"), prep.Engine.Prompt)
	require.False(t, prep.Parsers.InReasoning)

	// Deployment defaults apply first; the request wins.
	p = New(tinyModel(t, ModelOptions{}), Options{ThinkingDefaults: templateArgs{"enable_thinking": json.RawMessage("false")}})
	prep, err = p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"hi"}],"chat_template_kwargs":{"enable_thinking":true}}`))
	require.NoError(t, err)
	require.True(t, strings.HasSuffix(prep.Engine.Prompt, "<|im_start|>assistant\n"))
}

func TestMessagesAndCount(t *testing.T) {
	p := New(tinyModel(t, ModelOptions{}), Options{})
	var req anthropic.MessagesRequest
	require.NoError(t, json.Unmarshal([]byte(`{"model":"claude","max_tokens":64,"system":"sys","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","budget_tokens":1024}}`), &req))
	prep, err := p.Messages(context.Background(), &req)
	require.NoError(t, err)
	require.Equal(t, api.Messages, prep.API)
	require.NotNil(t, prep.Response.Anthropic)
	require.False(t, prep.Response.HideReasoning)
	require.Equal(t, "claude", prep.Response.Model)
	require.Equal(t, 64, prep.Engine.MaxTokens)

	var cr anthropic.CountTokensRequest
	require.NoError(t, json.Unmarshal([]byte(`{"model":"claude","system":"sys","messages":[{"role":"user","content":"hi"}],"thinking":{"type":"enabled","budget_tokens":1024}}`), &cr))
	n, err := p.CountTokens(context.Background(), &cr)
	require.NoError(t, err)
	require.Equal(t, int64(len(prep.Engine.PromptIDs)), n)
}

func TestCompletion(t *testing.T) {
	p := New(tinyModel(t, ModelOptions{}), Options{})
	var req openai.CompletionRequest
	require.NoError(t, json.Unmarshal([]byte(`{"model":"m","prompt":"a\u0000b<|im_end|>","max_tokens":5,"stop":["q"]}`), &req))
	prep, err := p.Completion(context.Background(), &req)
	require.NoError(t, err)
	ids, _ := p.Model().Tokenizer.Encode("ab<|im_end|>", false)
	require.Equal(t, ids, prep.Engine.PromptIDs, "NUL bytes are stripped before tokenizing")
	require.Equal(t, 5, prep.Engine.MaxTokens)
	require.Equal(t, []string{"q"}, prep.Engine.Stop.Strings)

	require.NoError(t, json.Unmarshal([]byte(`{"model":"m","prompt":[1,2,3]}`), &req))
	prep, err = p.Completion(context.Background(), &req)
	require.NoError(t, err)
	require.Equal(t, []uint32{1, 2, 3}, prep.Engine.PromptIDs)
	require.Equal(t, 2045, prep.Engine.MaxTokens)
}

func TestLegacyAndParts(t *testing.T) {
	const tmpl = `{% for m in messages %}[{{ m.role }}]{{ m.content }}{% for c in m.tool_calls or [] %}<{{ c.function.name }} {{ c.function.arguments | tojson }}>{% endfor %}{% endfor %}`
	var warnings []string
	p := New(tinyModel(t, ModelOptions{ChatTemplate: tmpl}), Options{Warn: func(s string) { warnings = append(warnings, s) }})
	prep, err := p.Chat(context.Background(), chatReq(t, `{"messages":[
		{"role":"user","content":[{"type":"text","text":"see"},{"type":"video_url","video_url":{"url":"https://x/v.mp4"}}]},
		{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{\"x\": 1}"}}]}`))
	require.NoError(t, err)
	require.Equal(t, `[user]see[assistant]<f {"x": 1}>`, prep.Engine.Prompt)
	require.Len(t, warnings, 1)
	require.Contains(t, warnings[0], "video_url")

	// An image is never dropped: a text-only model refuses it.
	_, err = p.Chat(context.Background(), chatReq(t, `{"messages":[
		{"role":"user","content":[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"https://x/a.png"}}]}]}`))
	require.ErrorIs(t, err, engine.ErrNoImages)
	var oe *openai.APIError
	require.ErrorAs(t, err, &oe)
	require.Equal(t, 400, oe.Status)
}

// TestRenderLimit: a request that drives the chat template past its
// bounds is the API's 400 with a message that names the bound, not the
// template's internals (it used to be a 500).
func TestRenderLimit(t *testing.T) {
	t.Parallel()
	// Six messages × 2 × 99,999 iterations pass chattemplate.MaxSteps (a
	// million); each range stays under the sandbox's MAX_RANGE (100,000),
	// whose OverflowError is the template's own error, not a bound. The
	// loop runs only on this test's messages ("limit"), so the probes
	// LoadModel renders stay cheap (they used to take three seconds).
	m := tinyModel(t, ModelOptions{ChatTemplate: `{% for m in messages %}{% if m.content == "limit" %}{% for i in range(99999) %}{% for j in range(2) %}{{ m.content }}{% endfor %}{% endfor %}{% endif %}{% endfor %}`})
	p := New(m, Options{})
	_, err := p.Chat(context.Background(), chatReq(t, `{"messages":[{"role":"user","content":"limit"},{"role":"user","content":"limit"},{"role":"user","content":"limit"},{"role":"user","content":"limit"},{"role":"user","content":"limit"},{"role":"user","content":"limit"}]}`))
	var bad *BadRequestError
	require.ErrorAs(t, err, &bad)
	require.ErrorIs(t, err, ErrRenderLimit)
	require.ErrorIs(t, err, chattemplate.ErrLimit)
	var oe *openai.APIError
	require.ErrorAs(t, err, &oe)
	require.Equal(t, 400, oe.Status)
	require.Equal(t, ErrRenderLimit.Error(), oe.Body.Error.Message)
	require.NotContains(t, err.Error(), "jinja")
}

// TestOutputLimit: one rule for max_tokens and the context check, used by
// the Preprocessor and the embedded engines.
func TestOutputLimit(t *testing.T) {
	for _, tc := range []struct {
		prompt, ctx, requested, def int
		want                        int
		tooLong                     bool
	}{
		{prompt: 100, ctx: 1000, want: 900},                        // what the context leaves
		{prompt: 100, ctx: 1000, requested: 50, want: 50},          // the request's, within it
		{prompt: 100, ctx: 1000, requested: 5000, want: 900},       // never past the context
		{prompt: 100, ctx: 1000, def: 300, want: 300},              // a default caps the rest
		{prompt: 900, ctx: 1000, def: 300, want: 100},              // within what is left
		{prompt: 100, ctx: 0, def: 4096, want: 4096},               // unknown context: the default
		{prompt: 100, ctx: 0, requested: 7, def: 4096, want: 7},    // or the request's
		{prompt: 100, ctx: 0, want: 0},                             // neither: none
		{prompt: 1000, ctx: 1000, requested: 1, tooLong: true},     // no room at all
		{prompt: 100, ctx: 1000, requested: -1, def: 10, want: 10}, // a request without a limit
	} {
		got, err := OutputLimit(tc.prompt, tc.ctx, tc.requested, tc.def)
		var ee *engine.Error
		require.Equal(t, errors.As(err, &ee), tc.tooLong, "%+v: error %v", tc, err)
		require.False(t, tc.tooLong && (ee.Kind != engine.ErrorContextLength || ee.PromptTokens != tc.prompt || ee.MaxContext != tc.ctx), "%+v: error %v", tc, err)
		require.Equal(t, tc.want, got, "%+v: %d", tc, got)
	}
}
