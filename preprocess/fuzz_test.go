package preprocess

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/stretchr/testify/require"
)

// FuzzChat prepares arbitrary chat requests on the tiny model: never a
// panic, and a successful preparation always has its prompt's ids and an
// explicit max_tokens.
func FuzzChat(f *testing.F) {
	f.Add([]byte(toolTurn + `}`))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"text","text":"x"}],"reasoning_content":["a",""]}],"tool_choice":"required","tools":[{"function":{"name":"f"}}]}`))
	f.Add([]byte(`{"messages":[{"role":"tool","content":"\u0000"}],"chat_template_kwargs":{"enable_thinking":"yes"},"stop":[1,2]}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":"x"}],"reasoning_effort":"medium","chat_template_kwargs":{"reasoning_effort":"none"}}`))
	m, err := LoadModel(tinyDir, ModelOptions{})
	require.NoError(f, err)
	p := New(m, Options{})
	f.Fuzz(func(t *testing.T, body []byte) {
		var req openai.ChatRequest
		if json.Unmarshal(body, &req) != nil {
			return
		}
		prep, err := p.Chat(context.Background(), &req)
		if err != nil {
			return
		}
		require.Greater(t, prep.Engine.MaxTokens, 0, "max_tokens %d, %d ids, %d prompt tokens", prep.Engine.MaxTokens, len(prep.Engine.PromptIDs), prep.Response.PromptTokens)
		require.Len(t, prep.Engine.PromptIDs, prep.Response.PromptTokens, "max_tokens %d, %d ids, %d prompt tokens", prep.Engine.MaxTokens, len(prep.Engine.PromptIDs), prep.Response.PromptTokens)
	})
}

// FuzzEffortProbe probes arbitrary templates for the reasoning efforts
// they know: never a panic; every ladder value maps to itself, to a known
// value or to "" (unset), a thinking level never to "none" and "none"
// never to a thinking level; and every value the template is given renders.
func FuzzEffortProbe(f *testing.F) {
	f.Add(`{%- if reasoning_effort not in ['none', 'high'] %}{{ raise_exception('bad') }}{% endif %}[{{ reasoning_effort }}]`)
	f.Add(`{%- set e = 'high' if reasoning_effort == 'high' else 'max' -%}{% if enable_thinking %}{{ e }}{% endif %}`)
	f.Add(`{%- if reasoning_effort in ['low', 'high', 'max'] %}{{ reasoning_effort }}{% elif reasoning_effort == 'none' %}off{% else %}max{% endif %}`)
	f.Add(`Reasoning: {{ reasoning_effort }}`)
	f.Add(`{% for m in messages %}{{ m.content }}{% endfor %}`)
	f.Add(`{{ raise_exception('always') }}`)
	f.Add(`{%- if thinking_mode is defined and thinking_mode not in ['chat', 'thinking'] %}{{ raise_exception('bad') }}{% endif %}{{ enable_thinking }}`)
	f.Fuzz(func(t *testing.T, src string) {
		tm, err := newTemplate(TemplateDefault, src, nil)
		if err != nil {
			return
		}
		// Every thinking_mode the request normalisation writes is kept
		// exactly when the probe did not see the template raise on it,
		// and a kept one renders wherever the template renders without
		// one.
		_, baseErr := tm.Render(probeInput("{}"))
		for _, v := range thinkingModes {
			args := templateArgs{"thinking_mode": json.RawMessage(strconv.Quote(v))}
			clampThinkingMode(tm, args)
			kw, _ := json.Marshal(args)
			_, err := tm.Render(probeInput(string(kw)))
			rejected := slices.Contains(tm.RejectedThinkingModes, v)
			_, kept := args["thinking_mode"]
			require.NotEqual(t, rejected, kept, "thinking_mode %q: kept %v, rejected %v", v, kept, rejected)
			require.False(t, baseErr == nil && !rejected && err != nil, "thinking_mode %q is not rejected but does not render: %v", v, err)
		}
		e := tm.efforts
		if e.To == nil {
			return
		}
		for _, v := range effortLadder {
			to, ok := e.To[v]
			require.True(t, ok, "%q has no mapping", v)
			switch {
			case to == "":
				continue
			case to != v && !slices.Contains(e.Known, to):
				t.Fatalf("%q maps to %q, which is not known (%q)", v, to, e.Known)
			case (to == "none") != (v == "none"):
				t.Fatalf("%q maps to %q", v, to)
			}
			kw := `{"reasoning_effort":"` + to + `","enable_thinking":` + map[bool]string{true: "true", false: "false"}[v != "none"] + `}`
			if _, err := tm.Render(probeInput(kw)); err != nil {
				t.Fatalf("%q → %q does not render: %v", v, to, err)
			}
		}
	})
}
