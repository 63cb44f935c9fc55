package pipeline

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/preprocess"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/responses"
	"github.com/stretchr/testify/require"
)

// tokOuts spells toks as token-id outputs, one token per step; the engine
// ends with finish on the last step.
func tokOuts(t testing.TB, finish engine.Finish, toks ...string) []engine.Output {
	v := captureTokenizer(t)
	outs := make([]engine.Output, len(toks))
	for i, s := range toks {
		id, ok := v.ids[s]
		if !ok {
			if s == eosToken {
				id = v.eos
			} else {
				t.Fatalf("token %q not in the vocabulary", s)
			}
		}
		outs[i] = engine.Output{TokenIDs: []uint32{id}}
	}
	outs[len(outs)-1].Finish = finish
	return outs
}

func txtOuts(finish engine.Finish, deltas ...string) []engine.Output {
	outs := textOutputs(deltas, finish)
	outs[len(outs)-1].Usage = nil
	return outs
}

// both serves prep streamed and unary, checks they agree and returns the
// streamed result and body.
func both(t *testing.T, prep *preprocess.Prepared, outs []engine.Output, engs ...engine.Engine) (result, string) {
	t.Helper()
	var eng engine.Engine = newFake(outs)
	if len(engs) > 0 {
		eng = engs[0]
	}
	prep.Stream = true
	w := serve(t, eng, prep)
	require.Equal(t, 200, w.Code, "status %d: %s", w.Code, w.Body)
	sr, err := streamResult(prep.API, w.Body.Bytes())
	require.NoError(t, err, "%s", w.Body)
	body := w.Body.String()
	p2 := *prep
	p2.Stream = false
	if len(engs) == 0 {
		eng = newFake(outs)
	}
	w = serve(t, eng, &p2)
	ur, err := unaryResult(prep.API, w.Body.Bytes())
	require.NoError(t, err, "%s", w.Body)
	if d := cmp.Diff(sr, ur, cmpResult); d != "" {
		t.Errorf("streamed and unary differ (-stream +unary):\n%s\n%s", d, body)
	}
	return sr, body
}

func withTok(t testing.TB, prep *preprocess.Prepared) *preprocess.Prepared {
	v := captureTokenizer(t)
	prep.Response.Tokenizer = v.tok
	prep.Engine.Stop.HiddenIDs = []uint32{v.eos}
	return prep
}

func TestStopHandling(t *testing.T) {
	cases := []struct {
		name    string
		toks    []string
		strs    []string
		include bool
		visible []string
		min     int
		want    string
		finish  string
		notIn   string // must not appear anywhere in the stream
	}{
		{name: "split stop string never partially emitted", toks: []string{"Hello", " world", "\nObs", "ervation:", " more"},
			strs: []string{"\nObservation:"}, want: "Hello world", finish: "stop", notIn: "Obs"},
		{name: "visible stop string", toks: []string{"Hello", " world", "\nObs", "ervation:", " more"},
			strs: []string{"\nObservation:"}, include: true, want: "Hello world\nObservation:", finish: "stop", notIn: "more"},
		{name: "held prefix released when it cannot match", toks: []string{"Hello", "\nObs", " more"},
			strs: []string{"\nObservation:"}, want: "Hello\nObs more", finish: "length"},
		{name: "held prefix flushed at the end", toks: []string{"Hello", "\nObs"},
			strs: []string{"\nObservation:"}, want: "Hello\nObs", finish: "length"},
		{name: "earliest match wins", toks: []string{"Hello", " world", "STOP"},
			strs: []string{"STOP", "world"}, want: "Hello ", finish: "stop"},
		{name: "hidden stop id", toks: []string{"Hello", " world", eosToken, " more"},
			want: "Hello world", finish: "stop", notIn: "more"},
		{name: "visible stop id", toks: []string{"Hello", " world", " more", "Hi"},
			visible: []string{" more"}, want: "Hello world more", finish: "stop", notIn: "Hi"},
		{name: "min_tokens defers stops", toks: []string{"ST", "OP", "Hello", "STOP", " more"},
			strs: []string{"STOP"}, min: 3, want: "STOPHello", finish: "stop", notIn: "more"},
		{name: "split character", toks: []string{"Hello", "\xc3", "\xa9"}, want: "Helloé", finish: "length"},
	}
	v := captureTokenizer(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, a := range []api.API{api.Chat, api.Completions, api.Messages} {
				prep := withTok(t, prepFor(a, true, "", ""))
				prep.Engine.Stop.Strings = tc.strs
				prep.Engine.Stop.IncludeStrings = tc.include
				prep.Engine.MinTokens = tc.min
				for _, s := range tc.visible {
					prep.Engine.Stop.VisibleIDs = append(prep.Engine.Stop.VisibleIDs, v.ids[s])
				}
				if a == api.Messages {
					prep.Response.Anthropic.StopSequences = tc.strs
				}
				got, body := both(t, prep, tokOuts(t, engine.FinishLength, tc.toks...))
				want := result{Content: tc.want, Finish: tc.finish}
				if d := cmp.Diff(want, got, cmpResult); d != "" {
					t.Errorf("%s (-want +got):\n%s\n%s", a, d, body)
				}
				for _, s := range tc.strs {
					body = strings.ReplaceAll(body, strings.ReplaceAll(s, "\n", `\n`), "") // the reported stop_sequence
				}
				require.False(t, tc.notIn != "" && strings.Contains(body, tc.notIn), "%s: %q leaked into the stream:\n%s", a, tc.notIn, body)
			}
		})
	}
}

// TestStopSequenceAnthropic: a matched stop string is reported as
// stop_reason stop_sequence with the string, streamed and unary.
func TestStopSequenceAnthropic(t *testing.T) {
	prep := withTok(t, prepFor(api.Messages, true, "", ""))
	prep.Engine.Stop.Strings = []string{"\nObservation:"}
	prep.Response.Anthropic.StopSequences = prep.Engine.Stop.Strings
	outs := tokOuts(t, engine.FinishLength, "Hello", "\nObs", "ervation:", " more")
	_, body := both(t, prep, outs)
	require.Contains(t, body, `"stop_reason":"stop_sequence","stop_sequence":"\nObservation:"`, "stream:\n%s", body)
	prep.Stream = false
	w := serve(t, newFake(outs), prep)
	require.Contains(t, w.Body.String(), `"stop_reason":"stop_sequence","stop_sequence":"\nObservation:"`, "unary: %s", w.Body)
}

func TestGatesAndFraming(t *testing.T) {
	call := []call{{Name: "get_weather", Args: `{"city":"Paris"}`}}
	cases := []struct {
		name   string
		tool   string
		reason string
		setup  func(*preprocess.Prepared)
		toks   []string
		want   result
	}{
		{name: "PRE.6 strips a split leading <think>", setup: func(p *preprocess.Prepared) { p.Response.StripLeadingThink = true },
			toks: []string{"\n\n", "<th", "ink>", "Hi", " there"}, want: result{Content: "Hi there", Finish: "stop"}},
		{name: "PRE.6 keeps later <think>", setup: func(p *preprocess.Prepared) { p.Response.StripLeadingThink = true },
			toks: []string{"Hi", "<think>", " there"}, want: result{Content: "Hi<think> there", Finish: "stop"}},
		{name: "PRE.6 undecided buffer flushed", setup: func(p *preprocess.Prepared) { p.Response.StripLeadingThink = true },
			toks: []string{"<th"}, want: result{Content: "<th", Finish: "stop"}},
		{name: "PRE.4 bare JSON bypasses reasoning", reason: "qwen3",
			setup: func(p *preprocess.Prepared) {
				p.Parsers.InReasoning = true
				p.Response.ShapeDetect, p.Response.ImmediateTool = true, true
			},
			toks: []string{"\n\n", "[{", `"name": "get_weather", `, `"parameters": {"city": "Paris"}}]`},
			want: result{Calls: call, Finish: "tool"}},
		{name: "PRE.4 reasoning then JSON", reason: "qwen3",
			setup: func(p *preprocess.Prepared) {
				p.Parsers.InReasoning = true
				p.Response.ShapeDetect, p.Response.ImmediateTool = true, true
			},
			toks: []string{"I should call it.", "</think>", "\n\n", "[{", `"name": "get_weather", `, `"parameters": {"city": "Paris"}}]`},
			want: result{Reasoning: "I should call it.", Calls: call, Finish: "tool"}},
		{name: "immediate named tool", setup: func(p *preprocess.Prepared) {
			p.Response.ImmediateTool, p.Response.ImmediateToolName = true, "get_weather"
		},
			toks: []string{`{"city": "Paris"}`}, want: result{Calls: call, Finish: "tool"}},
		{name: "immediate mode falls back to content", setup: func(p *preprocess.Prepared) { p.Response.ImmediateTool = true },
			toks: []string{"Hi", " there"}, want: result{Content: "Hi there", Finish: "stop"}},
		{name: "whitespace before a call is no content block", tool: "hermes", reason: "qwen3",
			toks: []string{"<think>", "Hi", "</think>", "\n\n", "<tool_call>", `{"name": "get_weather", "arguments": {"city": "Paris"}}`, "</tool_call>", "\n\n"},
			want: result{Reasoning: "Hi", Calls: call, Finish: "tool"}},
		{name: "whitespace after reasoning dropped", tool: "hermes", reason: "qwen3",
			toks: []string{"<think>", "Hi", "</think>", "\n\n", "Hello", " world", "\n\n"},
			want: result{Reasoning: "Hi", Content: "Hello world\n\n", Finish: "stop"}},
		{name: "leading whitespace held and emitted in order", tool: "hermes", reason: "qwen3",
			toks: []string{"\n\n", "  ", "Hello"}, want: result{Content: "\n\n  Hello", Finish: "stop"}},
		{name: "whitespace-only turn", tool: "hermes", reason: "qwen3",
			toks: []string{"\n\n", "  "}, want: result{Finish: "stop"}},
		{name: "hidden reasoning is not sent", tool: "hermes", reason: "qwen3",
			setup: func(p *preprocess.Prepared) { p.Response.HideReasoning = true },
			toks:  []string{"<think>", "Hi", "</think>", "\n\n", "Hello"}, want: result{Content: "Hello", Finish: "stop"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, a := range []api.API{api.Chat, api.Messages, api.Responses} {
				prep := withTok(t, prepFor(a, true, tc.tool, tc.reason))
				if tc.setup != nil {
					tc.setup(prep)
				}
				got, body := both(t, prep, tokOuts(t, engine.FinishEOS, tc.toks...))
				if d := cmp.Diff(tc.want, got, cmpResult); d != "" {
					t.Errorf("%s (-want +got):\n%s\n%s", a, d, body)
				}
				// The same through a text engine.
				prep = prepFor(a, true, tc.tool, tc.reason)
				if tc.setup != nil {
					tc.setup(prep)
				}
				got, body = both(t, prep, txtOuts(engine.FinishEOS, tc.toks...))
				if d := cmp.Diff(tc.want, got, cmpResult); d != "" {
					t.Errorf("%s text engine (-want +got):\n%s\n%s", a, d, body)
				}
			}
		})
	}
}

// TestChoices: n > 1 choices interleave in one chat stream, each with its
// finish chunk, then one usage chunk and one [DONE].
func TestChoices(t *testing.T) {
	for _, ap := range []api.API{api.Chat, api.Completions} {
		prep := withTok(t, prepFor(ap, true, "hermes", "qwen3"))
		prep.Engine.N = 2
		a := tokOuts(t, engine.FinishNone, "Hello", " world")
		b := tokOuts(t, engine.FinishLength, "Hi", " there", " more")
		for i := range b {
			b[i].Index = 1
		}
		outs := []engine.Output{a[0], b[0], a[1], b[1], b[2]}
		outs[2].Finish = engine.FinishEOS
		outs = append(outs, engine.Output{Index: -1, Usage: &engine.Usage{PromptTokens: 12, CompletionTokens: 5}})
		w := serve(t, newFake(outs), prep)
		body := w.Body.String()
		r0, err := streamResult(ap, w.Body.Bytes())
		require.NoError(t, err)
		require.Equal(t, "Hello world", r0.Content, "%s choice 0: %+v\n%s", ap, r0, body)
		require.Equal(t, "stop", r0.Finish, "%s choice 0: %+v\n%s", ap, r0, body)
		require.False(t, r0.Usage != [2]int64{12, 5}, "%s choice 0: %+v\n%s", ap, r0, body)
		require.Equal(t, 1, strings.Count(body, "[DONE]"), "%s stream:\n%s", ap, body)
		require.Equal(t, 1, strings.Count(body, `"finish_reason":"length"`), "%s stream:\n%s", ap, body)
		require.Equal(t, 1, strings.Count(body, `"finish_reason":"stop"`), "%s stream:\n%s", ap, body)
		require.Equal(t, 1, strings.Count(body, `"choices":[],"usage"`), "%s stream:\n%s", ap, body)
		prep.Stream = false
		w = serve(t, newFake(outs), prep)
		var m map[string]any
		require.NoError(t, jsonUnmarshal(w.Body.Bytes(), &m))
		chs := m["choices"].([]any)
		require.Len(t, chs, 2, "%s unary: %s", ap, w.Body)
		c1 := chs[1].(map[string]any)
		text := str(path(c1, "message", "content"))
		if ap == api.Completions {
			text = str(c1["text"])
		}
		require.Equal(t, "Hi there more", text, "%s unary choice 1: %v", ap, c1)
		require.False(t, c1["finish_reason"] != "length", "%s unary choice 1: %v", ap, c1)
		require.Equal(t, float64(1), num(c1["index"]), "%s unary choice 1: %v", ap, c1)
	}
}

// TestUsage: completion tokens are counted from ids when the engine does
// not report them; reasoning tokens are estimated.
func TestUsage(t *testing.T) {
	prep := withTok(t, prepFor(api.Chat, true, "hermes", "qwen3"))
	outs := tokOuts(t, engine.FinishEOS, "<think>", "Hi", "</think>", "Hello", " world")
	_, body := both(t, prep, outs)
	require.Contains(t, body, `"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,"completion_tokens_details":{"reasoning_tokens":`, "usage:\n%s", body)
	// Text and ids (vLLM's return_token_ids), no usage: the ids count.
	prep = prepFor(api.Chat, true, "hermes", "qwen3")
	both2 := txtOuts(engine.FinishEOS, "Hello", " world")
	both2[0].TokenIDs, both2[1].TokenIDs = []uint32{1, 2}, []uint32{3}
	_, body = both(t, prep, both2)
	require.Contains(t, body, `"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}`, "text and ids:\n%s", body)
	prep = withTok(t, prepFor(api.Chat, true, "hermes", "qwen3"))
	outs[len(outs)-1].Usage = &engine.Usage{PromptTokens: 30, CompletionTokens: 9, CachedTokens: 16}
	_, body = both(t, prep, outs)
	require.Contains(t, body, `"usage":{"prompt_tokens":30,"completion_tokens":9,"total_tokens":39,"prompt_tokens_details":{"cached_tokens":16}`, "engine usage:\n%s", body)
}

func TestLogprobs(t *testing.T) {
	prep := prepFor(api.Chat, true, "", "")
	prep.Response.Logprobs = true
	outs := txtOuts(engine.FinishEOS, "Hello", " world")
	outs[0].Logprobs = []engine.Logprob{{TokenID: 1, Token: []byte("Hello"), Logprob: -0.5,
		Top: []engine.TopLogprob{{TokenID: 1, Token: []byte("Hello"), Logprob: -0.5}, {TokenID: 2, Token: []byte("Hi"), Logprob: -1.25}}}}
	outs[1].Logprobs = []engine.Logprob{{TokenID: 3, Token: []byte(" world"), Logprob: -0.125}}
	_, body := both(t, prep, outs)
	require.Contains(t, body, `"logprobs":{"content":[{"token":"Hello","logprob":-0.5,"bytes":[72,101,108,108,111],"top_logprobs":[{"token":"Hello","logprob":-0.5,"bytes":[72,101,108,108,111]},{"token":"Hi","logprob":-1.25,"bytes":[72,105]}]}]}`, "stream:\n%s", body)
	prep.Stream = false
	w := serve(t, newFake(outs), prep)
	require.Contains(t, w.Body.String(), `"logprobs":{"content":[{"token":"Hello","logprob":-0.5,"bytes":[72,101,108,108,111],"top_logprobs":[`, "unary: %s", w.Body)
	require.Contains(t, w.Body.String(), `{"token":" world","logprob":-0.125`, "unary: %s", w.Body)
}

// TestPassThrough: an engine that parsed its output itself (reasoning and
// tool_calls deltas) is passed through without re-parsing.
func TestPassThrough(t *testing.T) {
	outs := []engine.Output{
		{Reasoning: []byte("Let me think.")},
		{Text: []byte("\n\n"), HasText: true},
		{ToolCalls: []engine.ToolCallDelta{{Index: 0, ID: []byte("call_1"), Name: []byte("get_weather"), Arguments: []byte(`{"city":`)}}},
		{ToolCalls: []engine.ToolCallDelta{{Index: 0, Arguments: []byte(`"Paris"}`)}}},
		{ToolCalls: []engine.ToolCallDelta{{Index: 1, ID: []byte("call_2"), Name: []byte("get_time"), Arguments: []byte(`{}`)}}},
		{Finish: engine.FinishStop},
	}
	want := result{Reasoning: "Let me think.", Calls: []call{{Name: "get_weather", Args: `{"city":"Paris"}`}, {Name: "get_time", Args: "{}"}}, Finish: "tool"}
	for _, a := range []api.API{api.Chat, api.Messages, api.Responses} {
		// The parsers configured would treat <tool_call> as markup; pass-through never parses.
		got, body := both(t, prepFor(a, true, "hermes", "qwen3"), outs)
		if d := cmp.Diff(want, got, cmpResult); d != "" {
			t.Errorf("%s (-want +got):\n%s\n%s", a, d, body)
		}
	}
}

// TestHeldSpaceBounded: a flood of whitespace is not held without bound:
// past maxHeldSpace it is released as content (a whitespace-only turn of
// normal size is dropped, see TestGatesAndFraming).
func TestHeldSpaceBounded(t *testing.T) {
	ws := strings.Repeat(" \n", maxHeldSpace)
	for _, setup := range []func(*preprocess.Prepared){
		func(p *preprocess.Prepared) {},
		func(p *preprocess.Prepared) { p.Response.StripLeadingThink = true },
		func(p *preprocess.Prepared) { p.Response.ShapeDetect = true },
	} {
		prep := prepFor(api.Chat, true, "hermes", "qwen3")
		setup(prep)
		got, _ := both(t, prep, txtOuts(engine.FinishEOS, ws, ws))
		require.Equal(t, ws+ws, got.Content, "content: %d bytes", len(got.Content))
	}
}

// TestVisibilityAndRoutes: the protocols' reasoning visibility and
// Responses tool routing apply to streamed and unary answers alike.
func TestVisibilityAndRoutes(t *testing.T) {
	toks := []string{"<think>", "Hi", "</think>", "\n\n", "<tool_call>", `{"name": "get_weather", "arguments": {"city": "Paris"}}`, "</tool_call>"}
	type check struct {
		api   api.API
		setup func(*preprocess.Prepared)
		opts  Options
		want  []string // in the stream and in the unary body
		not   []string
	}
	for _, tc := range []check{
		{api: api.Messages, setup: func(p *preprocess.Prepared) { p.Response.Anthropic.Thinking = anthropic.ThinkingOmitted },
			want: []string{`"type":"thinking"`, `"get_weather"`}, not: []string{`"Hi"`}},
		{api: api.Messages, setup: func(p *preprocess.Prepared) { p.Response.Anthropic.Thinking = anthropic.ThinkingHidden },
			want: []string{`"get_weather"`}, not: []string{`"thinking"`, `"Hi"`}},
		{api: api.Responses, setup: func(p *preprocess.Prepared) {
			p.Response.Responses.Tools = responses.ToolRoutes{"get_weather": {Namespace: "weather"}}
		}, want: []string{`"namespace":"weather"`, `"type":"function_call"`}},
		{api: api.Responses, setup: func(p *preprocess.Prepared) {
			p.Response.Responses.Request.Include = []string{"reasoning.encrypted_content"}
			p.Response.Responses.Request.Reasoning = protocols.Some(responses.Reasoning{Summary: "auto"})
		}, want: []string{`"encrypted_content":"` + responses.EncodeReasoning("Hi") + `"`, `"type":"summary_text","text":"Hi"`}, not: []string{`reasoning_text`}},
		{api: api.Responses, opts: Options{Reasoning: responses.ReasoningPolicy{DefaultSummary: true}},
			want: []string{`"type":"summary_text","text":"Hi"`}, not: []string{`reasoning_text`}},
		{api: api.Responses, want: []string{`"type":"reasoning_text","text":"Hi"`}, not: []string{`summary_text`}},
	} {
		for _, stream := range []bool{true, false} {
			prep := prepFor(tc.api, stream, "hermes", "qwen3")
			if tc.setup != nil {
				tc.setup(prep)
			}
			w := httptest.NewRecorder()
			opts := tc.opts
			opts.Now, opts.Seed = fixedNow, 3
			require.NoError(t, ServeWith(context.Background(), w, newFake(txtOuts(engine.FinishEOS, toks...)), prep, opts))
			body := w.Body.String()
			for _, s := range tc.want {
				require.Contains(t, body, s, "%s stream=%v: no %s in\n%s", tc.api, stream, s, body)
			}
			for _, s := range tc.not {
				require.NotContains(t, body, s, "%s stream=%v: %s in\n%s", tc.api, stream, s, body)
			}
		}
	}
}

// TestImmediateNamedStreams: a named tool_choice call streams its
// arguments as they arrive; cut short, it is abandoned.
func TestImmediateNamedStreams(t *testing.T) {
	prep := prepFor(api.Chat, true, "", "")
	prep.Response.ImmediateTool, prep.Response.ImmediateToolName = true, "get_weather"
	got, body := both(t, prep, txtOuts(engine.FinishEOS, "\n", `{"ci`, `ty": "Pa`, `ris"}`))
	if d := cmp.Diff(result{Calls: []call{{Name: "get_weather", Args: `{"city":"Paris"}`}}, Finish: "tool"}, got, cmpResult); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if strings.Count(body, `"arguments":"`) < 4 { // the start and three fragments
		t.Errorf("arguments not streamed:\n%s", body)
	}
	for _, a := range []api.API{api.Chat, api.Messages, api.Responses} {
		prep := prepFor(a, true, "", "")
		prep.Response.ImmediateTool, prep.Response.ImmediateToolName = true, "get_weather"
		got, body := both(t, prep, txtOuts(engine.FinishLength, `{"ci`, `ty": "Pa`))
		require.Len(t, got.Calls, 0, "%s cut short: %+v\n%s", a, got, body)
		require.Equal(t, "", got.Content, "%s cut short: %+v\n%s", a, got, body)
		require.Equal(t, "length", got.Finish, "%s cut short: %+v\n%s", a, got, body)
	}
}

// TestCompletionsLogprobs: completions carry the legacy logprobs object in
// the frame of the step's text, and the unary choice the whole arrays.
func TestCompletionsLogprobs(t *testing.T) {
	prep := prepFor(api.Completions, true, "", "")
	prep.Response.Logprobs = true
	outs := txtOuts(engine.FinishEOS, "Hello", " world")
	outs[0].Logprobs = []engine.Logprob{{Token: []byte("Hello"), Logprob: -0.5,
		Top: []engine.TopLogprob{{Token: []byte("Hello"), Logprob: -0.5}, {Token: []byte("Hi"), Logprob: -1.25}}}}
	outs[1].Logprobs = []engine.Logprob{{Token: []byte(" world"), Logprob: -0.125, Top: []engine.TopLogprob{{Token: []byte(" world"), Logprob: -0.125}}}}
	_, body := both(t, prep, outs)
	for _, want := range []string{
		`"text":"Hello","logprobs":{"tokens":["Hello"],"token_logprobs":[-0.5],"top_logprobs":[{"Hello":-0.5,"Hi":-1.25}],"text_offset":[0]}`,
		`"text":" world","logprobs":{"tokens":[" world"],"token_logprobs":[-0.125],"top_logprobs":[{" world":-0.125}],"text_offset":[5]}`,
	} {
		require.Contains(t, body, want, "no %s in\n%s", want, body)
	}
	prep.Stream = false
	w := serve(t, newFake(outs), prep)
	want := `"logprobs":{"tokens":["Hello"," world"],"token_logprobs":[-0.5,-0.125],"top_logprobs":[{"Hello":-0.5,"Hi":-1.25},{" world":-0.125}],"text_offset":[0,5]}`
	require.Contains(t, w.Body.String(), want, "unary: %s", w.Body)
}

// TestToolCallDispatch: Options.ToolCallDispatch adds the chat stream's
// tool_call_dispatch event for a completed call, and only with the option.
func TestToolCallDispatch(t *testing.T) {
	for _, on := range []bool{false, true} {
		p, err := New(prepFor(api.Chat, true, "hermes", ""), Options{ToolCallDispatch: on})
		require.NoError(t, err)
		buf := p.Start(nil)
		for _, out := range txtOuts(engine.FinishEOS, `<tool_call>{"name":"f",`, `"arguments":{"a":1}}</tool_call>`) {
			if buf, err = p.Step(buf, &out); err != nil {
				t.Fatal(err)
			}
		}
		buf = p.Finish(buf)
		got := strings.Contains(string(buf), "tool_call_dispatch")
		require.Equal(t, on, got, "ToolCallDispatch %v: dispatch event present = %v\n%s", on, got, buf)
		p.Release()
	}
}

// TestStateNames: the gate kinds and the immediate parser's named-form
// states print as what they mean, and an unknown value as its number.
func TestStateNames(t *testing.T) {
	got := []string{gateOff.String(), gateThink.String(), gateShape.String(), gateKind(9).String(),
		namedWait.String(), namedCall.String(), namedText.String(), namedState(9).String()}
	want := []string{"off", "strip <think>", "shape detection", "gateKind(9)",
		"waiting", "in the call", "content", "namedState(9)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
