package preprocess

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/chattemplate"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// testdataTemplates parses every chat template of
// testdata/chattemplate/templates (not features.jinja, which is no chat
// template), keyed by file name.
func testdataTemplates(tb testing.TB) map[string]*Template {
	tb.Helper()
	files, err := filepath.Glob("../testdata/chattemplate/templates/*.jinja")
	require.NoError(tb, err)
	require.NotEmpty(tb, files)
	out := map[string]*Template{}
	for _, f := range files {
		if filepath.Base(f) == "features.jinja" {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(tb, err)
		tm, err := newTemplate(TemplateDefault, string(src), nil)
		require.NoError(tb, err, f)
		out[filepath.Base(f)] = tm
	}
	return out
}

// TestEffortProbe pins what the load-time probe learns from the templates
// whose reasoning_effort handling differs: the values they know, the ones
// they raise on, and where each ladder value lands.
func TestEffortProbe(t *testing.T) {
	all := testdataTemplates(t)
	identity := func() map[string]string {
		m := map[string]string{}
		for _, v := range effortLadder {
			m[v] = v
		}
		return m
	}
	with := func(changes ...string) map[string]string {
		m := identity()
		for i := 0; i < len(changes); i += 2 {
			m[changes[i]] = changes[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		file string
		want effortSupport
	}{
		// raises on anything but none and high: every thinking level is high
		{"Mistral-Medium-3.5-128B-GGUF.jinja", effortSupport{Known: []string{"none", "high"},
			Rejected: []string{"minimal", "low", "medium", "xhigh", "max"},
			To:       with("minimal", "high", "low", "high", "medium", "high", "xhigh", "high", "max", "high")}},
		// knows low/high/max, renders the rest as its default max
		{"Kimi-K3.jinja", effortSupport{Known: []string{"none", "low", "high", "max"},
			To: with("minimal", "low", "medium", "high", "xhigh", "max")}},
		// knows high, renders the rest as its default max ('max' is a literal)
		{"GLM-5.2.jinja", effortSupport{Known: []string{"none", "high", "max"},
			To: with("minimal", "high", "low", "high", "medium", "high", "xhigh", "max")}},
		// max adds a prompt; minimal … xhigh render alike and are named nowhere: unchanged
		{"DeepSeek-V4-Flash.jinja", effortSupport{Known: []string{"none", "max"}, To: identity()}},
		// prints the value: every value is told apart
		{"gpt-oss-20b-Q8_0.jinja", effortSupport{Known: effortLadder, To: identity()}},
		// reads enable_thinking only
		{"Qwen3-8B-Q8_0.jinja", effortSupport{Known: []string{"none"}, To: identity()}},
		// reads neither
		{"Ministral-3-14B-Instruct-2512-Q4_0.jinja", effortSupport{To: identity()}},
	} {
		tm := all[tc.file]
		require.NotNil(t, tm, tc.file)
		if d := cmp.Diff(tc.want, tm.efforts); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.file, d)
		}
	}
	// Every template: a value is given a value the template renders.
	for name, tm := range all {
		for _, v := range effortLadder {
			to, keep := tm.Effort(v)
			if !keep {
				continue
			}
			kw := `{"reasoning_effort":"` + to + `","enable_thinking":` + map[bool]string{true: "true", false: "false"}[v != "none"] + `}`
			_, err := tm.Render(probeInput(kw))
			require.NoError(t, err, "%s: %s → %s", name, v, to)
		}
	}
}

func probeInput(kwargs string) chattemplate.Input {
	return chattemplate.Input{Messages: json.RawMessage(effortProbe), AddGenerationPrompt: true, BOSToken: "<s>", EOSToken: "</s>", Kwargs: json.RawMessage(kwargs)}
}

func TestNearestEffort(t *testing.T) {
	for _, tc := range []struct {
		v     string
		known []string
		want  string
	}{
		{"medium", []string{"none", "high"}, "high"},
		{"low", []string{"none", "high"}, "high"}, // never none for a thinking level
		{"medium", []string{"low", "high"}, "high"},
		{"medium", []string{"low", "max"}, "low"},
		{"xhigh", []string{"high", "max"}, "max"}, // ties go up
		{"none", []string{"low", "high"}, ""},     // none never becomes a thinking level
		{"high", []string{"none"}, ""},
		{"high", nil, ""},
	} {
		got := nearestEffort(tc.v, tc.known)
		require.Equal(t, tc.want, got, "nearestEffort(%q, %q) = %q, want %q", tc.v, tc.known, got, tc.want)
	}
}

// TestEffortsReachTemplate runs every effort control of the three APIs
// through a model serving Mistral Medium 3.5's template, which raises on
// any reasoning_effort but "none" and "high": no request fails, the prompt
// carries the clamped value, and the mistral reasoning parser (gated on
// reasoning_effort) runs exactly when thinking is on.
func TestEffortsReachTemplate(t *testing.T) {
	src, err := os.ReadFile("../testdata/chattemplate/templates/Mistral-Medium-3.5-128B-GGUF.jinja")
	require.NoError(t, err)
	m := tinyModel(t, ModelOptions{ChatTemplate: string(src), ToolParser: "mistral", ReasoningParser: "mistral", ContextLength: 1 << 20})
	p := New(m, Options{PrefixCacheEntries: -1})
	ctx := context.Background()
	settings := func(e string) string { return `[MODEL_SETTINGS]{"reasoning_effort": "` + e + `"}[/MODEL_SETTINGS]` }
	check := func(t *testing.T, prep *Prepared, effort string) {
		t.Helper()
		require.Contains(t, prep.Engine.Prompt, settings(effort))
		if effort == "none" {
			require.Empty(t, prep.Parsers.ReasoningParser, "thinking off: the reasoning gate fires")
			return
		}
		require.Equal(t, "mistral", prep.Parsers.ReasoningParser)
		var extra struct {
			Kwargs struct {
				Args map[string]json.RawMessage `json:"chat_template_kwargs"`
			} `json:"reasoning_parser_kwargs"`
		}
		require.NoError(t, json.Unmarshal(prep.Engine.ExtraArgs, &extra))
		require.Equal(t, `"`+effort+`"`, string(extra.Kwargs.Args["reasoning_effort"]), "the engine's reasoner sees the clamped value")
	}
	want := map[string]string{"none": "none", "minimal": "high", "low": "high", "medium": "high", "high": "high", "xhigh": "high", "max": "high"}
	for _, v := range effortLadder {
		t.Run("chat/"+v, func(t *testing.T) {
			prep, err := p.Chat(ctx, chatReq(t, `{"model":"m","reasoning_effort":"`+v+`","messages":[{"role":"user","content":"hi"}]}`))
			require.NoError(t, err)
			check(t, prep, want[v])
		})
		t.Run("chat_template_kwargs/"+v, func(t *testing.T) {
			prep, err := p.Chat(ctx, chatReq(t, `{"model":"m","chat_template_kwargs":{"reasoning_effort":"`+v+`"},"messages":[{"role":"user","content":"hi"}]}`))
			require.NoError(t, err)
			check(t, prep, want[v])
		})
	}
	t.Run("chat/off the ladder", func(t *testing.T) {
		// chat_template_kwargs speak to the template directly: its own error
		_, err := p.Chat(ctx, chatReq(t, `{"model":"m","chat_template_kwargs":{"reasoning_effort":"extreme"},"messages":[{"role":"user","content":"hi"}]}`))
		var bad *BadRequestError
		require.ErrorAs(t, err, &bad)
		require.ErrorContains(t, err, `reasoning_effort must be either "none" or "high"`)
	})
	// The recorded harness requests: Codex sends reasoning.effort medium
	// (its default), Claude Code thinking adaptive with
	// output_config.effort medium. Both used to render "none" or fail.
	for _, c := range conversations {
		for _, file := range c.turns {
			t.Run(file, func(t *testing.T) {
				check(t, prepareTurn(t, p, c.api, file), "high")
			})
		}
	}
	t.Run("anthropic/disabled", func(t *testing.T) {
		r := loadMessages(t, conversations[0].turns[0])
		r.Thinking.Type = "disabled"
		prep, err := p.Messages(ctx, r)
		require.NoError(t, err)
		check(t, prep, "none")
	})
}

// TestEffortCasesDoc keeps PARSER_CASES.md's effort section equal to
// effortCases over the testdata templates.
func TestEffortCasesDoc(t *testing.T) {
	b, err := os.ReadFile("../PARSER_CASES.md")
	require.NoError(t, err)
	doc := string(b)
	i, j := strings.Index(doc, effortBegin), strings.Index(doc, effortEnd)
	require.True(t, i >= 0 && j > i, "PARSER_CASES.md lacks the effort section markers")
	got := doc[i+len(effortBegin)+1 : j]
	want := effortCases(testdataTemplates(t))
	if *updateCases {
		doc = doc[:i+len(effortBegin)+1] + want + doc[j:]
		require.NoError(t, os.WriteFile("../PARSER_CASES.md", []byte(doc), 0o644))
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PARSER_CASES.md effort section differs (-want +got); run go test ./preprocess -run TestEffortCasesDoc -update-cases:\n%s", diff)
	}
}

// TestThinkingModeReachesTemplate: a thinking object sets thinking_mode to
// its type, which DeepSeek V4.1's template rejects (it knows "thinking"
// and "chat"): Claude Code's thinking {type: adaptive} used to be answered
// with a 400. The rejected value is left out and enable_thinking decides;
// a value the client writes in chat_template_kwargs still reaches the
// template.
func TestThinkingModeReachesTemplate(t *testing.T) {
	src, err := os.ReadFile("../testdata/chattemplate/templates/DeepSeek-V4.1-Flash.jinja")
	require.NoError(t, err)
	m := tinyModel(t, ModelOptions{ChatTemplate: string(src), ContextLength: 1 << 20})
	require.Equal(t, thinkingModes, m.Template(false).RejectedThinkingModes)
	p := New(m, Options{PrefixCacheEntries: -1})
	ctx := context.Background()
	const on, off = "<｜Assistant｜><think>", "<｜Assistant｜></think>"
	for _, tc := range []struct {
		name, body string
		want       string
	}{
		{"thinking enabled", `"thinking":{"type":"enabled"}`, on},
		{"thinking adaptive", `"thinking":{"type":"adaptive"}`, on},
		{"thinking disabled", `"thinking":{"type":"disabled"}`, off},
		{"kwargs thinking_mode chat", `"chat_template_kwargs":{"thinking_mode":"chat"}`, off},
		{"kwargs thinking_mode thinking", `"chat_template_kwargs":{"thinking_mode":"thinking"}`, on},
	} {
		t.Run("chat/"+tc.name, func(t *testing.T) {
			prep, err := p.Chat(ctx, chatReq(t, `{"model":"m",`+tc.body+`,"messages":[{"role":"user","content":"hi"}]}`))
			require.NoError(t, err)
			require.True(t, strings.HasSuffix(prep.Engine.Prompt, tc.want), "prompt ends %q", prep.Engine.Prompt[max(0, len(prep.Engine.Prompt)-40):])
		})
	}
	for _, c := range conversations {
		if c.api != api.Messages {
			continue
		}
		for _, file := range c.turns {
			for typ, want := range map[string]string{"adaptive": on, "enabled": on, "disabled": off} {
				t.Run(file+"/"+typ, func(t *testing.T) {
					r := loadMessages(t, file)
					r.Thinking.Type = typ
					prep, err := p.Messages(ctx, r)
					require.NoError(t, err)
					require.True(t, strings.HasSuffix(prep.Engine.Prompt, want), "prompt ends %q", prep.Engine.Prompt[max(0, len(prep.Engine.Prompt)-40):])
				})
			}
		}
	}
}
