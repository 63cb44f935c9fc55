package openai_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/testutil"
	"github.com/agentwire/agentwire/protocols/openai"
)

// A request exercising every union and the null/absent distinctions.
const fullChat = `{
 "model":"Qwen/Qwen3-32B","store":false,"reasoning_effort":"high","metadata":{"k":"v"},
 "frequency_penalty":0,"logit_bias":{"576":-100},"logprobs":true,"top_logprobs":0,"max_tokens":0,
 "max_completion_tokens":512,"n":1,"modalities":["text"],"prediction":{"type":"content","content":"x"},
 "presence_penalty":0.5,"response_format":{"type":"json_schema","json_schema":{"name":"out","schema":{"type":"object"},"strict":true}},
 "seed":-9007199254740993,"service_tier":"auto","stop":[576,2],"stream":true,
 "stream_options":{"include_usage":true,"continuous_usage_stats":false},"temperature":0,"top_p":1,
 "tools":[{"type":"function","function":{"name":"get_weather","description":"d","parameters":{"type":"object","properties":{"city":{"type":"string"}}},"strict":false}}],
 "tool_choice":{"type":"function","function":{"name":"get_weather"}},"parallel_tool_calls":false,"user":"u",
 "ignore_eos":false,"min_tokens":0,"top_k":-1,"min_p":0,"repetition_penalty":1.1,"include_stop_str_in_output":false,
 "guided_json":{"type":"object"},"guided_choice":["a","b"],"skip_special_tokens":false,
 "nvext":{"greed_sampling":true,"annotations":["request_id"],"backend_instance_id":7,"agent_hints":{"priority":-2,"osl":128,"speculative_prefill":true},"max_thinking_tokens":100,"cache_salt":"s"},
 "chat_template_kwargs":{"enable_thinking":false},"thinking":{"type":"enabled","budget_tokens":1024},
 "cache_salt":"abc","stop_token_ids":[1,2],"bad_words_token_ids":[[3,4]],"prompt_cache_key":"p",
 "messages":[
  {"role":"system","content":"sys","name":"n"},
  {"role":"developer","content":[{"type":"text","text":""}]},
  {"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"https://x/y.png","detail":"low"},"uuid":"u1"},{"type":"video_url","video_url":{"url":""}}]},
  {"role":"assistant","content":null,"reasoning_content":["seg1",""],"tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"SF\"}"}}]},
  {"role":"tool","tool_call_id":"call_1","content":"sunny"},
  {"role":"assistant","content":"","reasoning":"alias","refusal":null},
  {"role":"user","content":"thanks","custom_field":{"x":1}}
 ],
 "unknown_root":[1,{"a":null}]
}`

func TestChatRequestRoundTrip(t *testing.T) {
	req, err := openai.DecodeChatRequest([]byte(fullChat), openai.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := jsonx.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if d := testutil.JSONDiff(t, []byte(fullChat), out); d != "" {
		t.Errorf("round trip (-in +out):\n%s", d)
	}
	if got := protocols.UnknownFields(req); !cmp.Equal(got, []string{"messages.6.custom_field", "unknown_root"}) {
		t.Errorf("UnknownFields = %v", got)
	}
	// Spot checks of typed access.
	if req.Temperature.Value() != 0 || !req.Temperature.Valid() || req.Store.Or(true) || req.Seed.Value() != -9007199254740993 {
		t.Errorf("scalars: temperature %v store %v seed %v", req.Temperature, req.Store, req.Seed)
	}
	if ids := req.Stop.Value().TokenIDs; !cmp.Equal(ids, []uint32{576, 2}) {
		t.Errorf("stop token ids %v", ids)
	}
	if req.ToolChoice.Value().Function != "get_weather" || req.NvExt.AgentHints.Priority.Value() != -2 {
		t.Errorf("tool_choice %+v nvext %+v", req.ToolChoice, req.NvExt)
	}
	if r := req.Messages[3].ReasoningContent.Value(); !cmp.Equal(r.Array, []string{"seg1", ""}) || !req.Messages[3].Content.IsNull() {
		t.Errorf("assistant message %+v", req.Messages[3])
	}
	if v := req.Messages[5].ReasoningValue().Value(); v.String != "alias" || !req.Messages[5].Refusal.IsNull() {
		t.Errorf("reasoning alias %+v", req.Messages[5])
	}
}

func TestStrictChat(t *testing.T) {
	_, err := openai.DecodeChatRequest([]byte(fullChat), openai.DecodeOptions{Strict: true})
	var apiErr *openai.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v", err)
	}
	if apiErr.Status != 400 || apiErr.Body.Error.Message != "Unsupported parameter(s): `messages.6.custom_field`, `unknown_root`" || apiErr.Body.Error.Type != "invalid_request_error" {
		t.Errorf("got %d %+v", apiErr.Status, apiErr.Body)
	}
	body, _ := jsonx.Marshal(apiErr.Body)
	if d := testutil.JSONDiff(t, body, []byte(`{"error":{"message":"Unsupported parameter(s): `+"`messages.6.custom_field`, `unknown_root`"+`","type":"invalid_request_error","param":null,"code":null}}`)); d != "" {
		t.Error(d)
	}
}

func TestChatDecodeErrors(t *testing.T) {
	for _, tc := range []struct{ name, body, msg string }{
		{"nvext unknown key", `{"messages":[],"nvext":{"greed_sampling":true,"bogus":1}}`, "invalid nvext: unknown field `bogus`"},
		{"nvext agent_context", `{"messages":[],"nvext":{"agent_context":{}}}`, "invalid nvext: agent_context is not accepted in nvext; it is derived from request headers"},
		{"agent_hints unknown key", `{"messages":[],"nvext":{"agent_hints":{"prio":1}}}`, "invalid nvext.agent_hints: unknown field `prio`"},
		{"negative strict_priority", `{"messages":[],"nvext":{"agent_hints":{"strict_priority":-1}}}`, ""},
		{"empty metadata_upload url", `{"messages":[],"nvext":{"metadata_upload":{"url":"  "}}}`, "invalid nvext.metadata_upload: url must not be empty"},
		{"thinking wrong shape", `{"messages":[],"thinking":"yes"}`, "openai: " + openai.MessageThinkingShape},
		{"thinking bad type", `{"messages":[],"thinking":{"type":"maybe"}}`, "openai: " + openai.MessageThinkingShape},
		{"bare integer stop", `{"messages":[],"stop":5}`, ""},
		{"arguments number", `{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":5}}]}]}`, ""},
		{"content number", `{"messages":[{"role":"user","content":5}]}`, ""},
		{"not JSON", `{"messages":[`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := openai.DecodeChatRequest([]byte(tc.body), openai.DecodeOptions{})
			var apiErr *openai.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != 400 {
				t.Fatalf("err = %v, want a 400", err)
			}
			if tc.msg != "" && apiErr.Body.Error.Message != tc.msg {
				t.Errorf("message %q, want %q", apiErr.Body.Error.Message, tc.msg)
			}
		})
	}
}

func TestArgumentsObjectIsCompacted(t *testing.T) {
	req, err := openai.DecodeChatRequest([]byte(`{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":{ "a" : [1, 2] }}}]}]}`), openai.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := req.Messages[0].ToolCalls[0].Function.Arguments; got != `{"a":[1,2]}` {
		t.Errorf("arguments %q", got)
	}
	// A missing type defaults to "function" and is always written.
	out, _ := jsonx.Marshal(req)
	want := `{"messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{\"a\":[1,2]}"}}]}]}`
	if d := testutil.JSONDiff(t, []byte(want), out); d != "" {
		t.Error(d)
	}
}

func TestNormalizeThinking(t *testing.T) {
	cases := []struct {
		name, body string
		want       map[string]string
	}{
		{"bool", `{"messages":[],"thinking":true}`, map[string]string{"thinking": "true"}},
		{"enabled", `{"messages":[],"thinking":{"type":"enabled"}}`, map[string]string{"thinking": "true", "thinking_mode": `"enabled"`}},
		{"disabled", `{"messages":[],"thinking":{"type":"disabled"}}`, map[string]string{"thinking": "false", "thinking_mode": `"disabled"`}},
		{"adaptive", `{"messages":[],"thinking":{"type":"adaptive"}}`, map[string]string{"thinking_mode": `"adaptive"`}},
		{"effort", `{"messages":[],"reasoning_effort":"low"}`, map[string]string{"reasoning_effort": `"low"`, "enable_thinking": "true"}},
		{"effort none", `{"messages":[],"reasoning_effort":"none"}`, map[string]string{"reasoning_effort": `"none"`, "enable_thinking": "false"}},
		{"client value wins", `{"messages":[],"reasoning_effort":"high","chat_template_args":{"enable_thinking":false}}`, map[string]string{"reasoning_effort": `"high"`, "enable_thinking": "false"}},
		{"kwargs merged", `{"messages":[],"thinking":false,"chat_template_kwargs":{"x":1,"thinking":true}}`, map[string]string{"thinking": "true", "x": "1"}},
		{"nothing", `{"messages":[]}`, map[string]string{}},
		// the reasoning object (OpenRouter's shape; Qwen Code sends it)
		{"reasoning effort", `{"messages":[],"reasoning":{"effort":"medium"}}`, map[string]string{"reasoning_effort": `"medium"`, "enable_thinking": "true"}},
		{"reasoning disabled", `{"messages":[],"reasoning":{"enabled":false,"effort":"high"}}`, map[string]string{"reasoning_effort": `"none"`, "enable_thinking": "false"}},
		{"reasoning enabled", `{"messages":[],"reasoning":{"enabled":true}}`, map[string]string{}},
		{"reasoning_effort wins", `{"messages":[],"reasoning_effort":"low","reasoning":{"effort":"high"}}`, map[string]string{"reasoning_effort": `"low"`, "enable_thinking": "true"}},
		{"reasoning null", `{"messages":[],"reasoning":null}`, map[string]string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req, err := openai.DecodeChatRequest([]byte(tc.body), openai.DecodeOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := req.NormalizeThinking(); err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for k, v := range req.ChatTemplateArgs {
				got[k] = string(v)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("chat_template_args (-want +got):\n%s", d)
			}
			if !req.Thinking.IsZero() || req.ChatTemplateKwargs != nil || !req.Reasoning.IsZero() {
				t.Errorf("thinking / kwargs / reasoning not cleared")
			}
		})
	}
}

func TestCompletionsAndTokenize(t *testing.T) {
	for _, body := range []string{
		`{"model":"m","prompt":"hi","echo":false,"logprobs":0,"stream":true}`,
		`{"model":"m","prompt":["a"],"best_of":1}`,
		`{"model":"m","prompt":[1,2,3],"stop":"x"}`,
		`{"model":"m","prompt":[[1,2]],"nvext":{"token_data":[1]}}`,
	} {
		req, err := openai.DecodeCompletionRequest([]byte(body), openai.DecodeOptions{Strict: true})
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		out, _ := jsonx.Marshal(req)
		if d := testutil.JSONDiff(t, []byte(body), out); d != "" {
			t.Errorf("%s: %s", body, d)
		}
		if _, _, err := req.Prompt.Single(); err != nil {
			t.Errorf("%s: Single: %v", body, err)
		}
	}
	req, _ := openai.DecodeCompletionRequest([]byte(`{"prompt":["a","b"]}`), openai.DecodeOptions{})
	if _, _, err := req.Prompt.Single(); err == nil || err.(*openai.APIError).Body.Error.Message != "Batch text input not supported for more than one text in requests (got 2)" {
		t.Errorf("batch prompt: %v", err)
	}
	var tok openai.TokenizeRequest
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}],"add_generation_prompt":true,"return_token_strs":true}`
	if err := jsonx.Unmarshal([]byte(body), &tok); err != nil || !tok.IsChat() {
		t.Fatalf("tokenize: %v", err)
	}
	out, _ := jsonx.Marshal(tok)
	if d := testutil.JSONDiff(t, []byte(body), out); d != "" {
		t.Error(d)
	}
}
