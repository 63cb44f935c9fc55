package preprocess

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// TestThinkingModeProbe pins the thinking_mode values the load-time probe
// finds rejected: every template of testdata accepts Anthropic's
// thinking.type values except DeepSeek V4.1's, which takes only its own
// "chat" and "thinking".
func TestThinkingModeProbe(t *testing.T) {
	for name, tm := range testdataTemplates(t) {
		var want []string
		if name == "DeepSeek-V4.1-Flash.jinja" {
			want = thinkingModes
		}
		if diff := cmp.Diff(want, tm.RejectedThinkingModes); diff != "" {
			t.Errorf("%s: rejected thinking modes (-want +got):\n%s", name, diff)
		}
	}
}

// TestClampThinkingMode: a rejected value is left out, the switch the
// other arguments carry stays, and the DeepSeek gate reads the result.
func TestClampThinkingMode(t *testing.T) {
	tm := testdataTemplates(t)["DeepSeek-V4.1-Flash.jinja"]
	tests := []struct {
		name, args, want string
		gated            bool
	}{
		{"adaptive left out", `{"thinking_mode":"adaptive","enable_thinking":true}`, `{"enable_thinking":true}`, false},
		{"disabled left out, thinking=false stays", `{"thinking_mode":"disabled","thinking":false,"enable_thinking":false}`, `{"enable_thinking":false,"thinking":false}`, true},
		{"the template's own value kept", `{"thinking_mode":"chat"}`, `{"thinking_mode":"chat"}`, true},
		{"no thinking_mode", `{"reasoning_effort":"high"}`, `{"reasoning_effort":"high"}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := args(tc.args)
			clampThinkingMode(tm, a)
			require.Equal(t, args(tc.want), a)
			require.Equal(t, tc.gated, reasoningRule("deepseek_v41").Gate.Disabled(a))
		})
	}
}

// FuzzThinkingModeProbe probes arbitrary templates for the thinking_mode
// values they raise on: never a panic; when the template renders without
// the argument, a value renders exactly when the probe did not reject it,
// and the arguments clampThinkingMode leaves always render.
func FuzzThinkingModeProbe(f *testing.F) {
	f.Add(`{%- if thinking_mode is not defined -%}{%- set thinking_mode = "thinking" -%}{%- endif -%}{%- if thinking_mode not in ["chat", "thinking"] -%}{{ raise_exception("bad") }}{%- endif -%}{{ thinking_mode }}`)
	f.Add(`{%- if thinking_mode == 'adaptive' %}{{ raise_exception('no') }}{% endif %}[{{ thinking_mode }}]`)
	f.Add(`{% if thinking_mode == 'disabled' %}off{% else %}on{% endif %}`)
	f.Add(`{{ raise_exception('always') }}`)
	f.Add(`{% for m in messages %}{{ m.content }}{% endfor %}`)
	f.Fuzz(func(t *testing.T, src string) {
		tm, err := newTemplate(TemplateDefault, src, nil)
		if err != nil {
			return
		}
		if _, err := tm.Render(probeInput("")); err != nil {
			require.Empty(t, tm.RejectedThinkingModes)
			return
		}
		for _, v := range thinkingModes {
			_, err := tm.Render(probeInput(`{"thinking_mode":"` + v + `"}`))
			rejected := slices.Contains(tm.RejectedThinkingModes, v)
			require.Equal(t, (err != nil), rejected, "%q: rejected %v, render error %v", v, rejected, err)
			a := templateArgs{"thinking_mode": json.RawMessage(`"` + v + `"`)}
			clampThinkingMode(tm, a)
			kw, _ := json.Marshal(a)
			if _, err := tm.Render(probeInput(string(kw))); err != nil {
				t.Fatalf("%q clamped to %s does not render: %v", v, kw, err)
			}
		}
	})
}
