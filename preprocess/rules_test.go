package preprocess

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/parsers"
	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// TestRulesCanonical checks that every row of the table is a registered
// parser under its canonical name, in the registries the row claims.
func TestRulesCanonical(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules {
		require.False(t, seen[r.Name], "duplicate row %s", r.Name)
		seen[r.Name] = true
		require.True(t, r.Tool || r.Reasoning, r.Name)
		if r.Tool {
			c, ok := CanonicalToolParser(r.Name)
			require.True(t, ok, "tool %s not registered", r.Name)
			require.Equal(t, r.Name, c, "tool row must use the canonical name")
		}
		if r.Reasoning {
			c, ok := CanonicalReasoningParser(r.Name)
			require.True(t, ok, "reasoning %s not registered", r.Name)
			require.Equal(t, r.Name, c)
		}
		if r.Special == SpecialYes {
			require.NotEmpty(t, r.SpecialWhy, r.Name)
		}
	}
	// Every registered alias resolves to a canonical name that is itself
	// registered.
	for _, n := range parsers.ReasoningParsers() {
		c, ok := CanonicalReasoningParser(n)
		require.True(t, ok)
		_, ok = parsers.ReasoningParser(c)
		require.True(t, ok, "%s → %s is not registered", n, c)
	}
	for _, n := range parsers.ToolParsers() {
		_, ok := CanonicalToolParser(n)
		require.True(t, ok, n)
	}
}

func TestAliases(t *testing.T) {
	for in, want := range map[string]string{
		"gemma-4": "gemma4", "deepseek-v4": "deepseek_v4", "DeepSeekV4": "deepseek_v4", "kimi_k2": "kimi_k25",
		"nemotron_3": "nemotron3", "minimax-m3": "minimax_m3", "openai_gptoss": "gpt_oss", "gpt-oss": "gpt_oss",
	} {
		got, ok := CanonicalReasoningParser(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for in, want := range map[string]string{"gpt-oss": "harmony", "openai": "harmony", "qwen": "hermes", "minimax-m3-nom": "minimax_m3", "glm45": "glm47"} {
		got, ok := CanonicalToolParser(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	_, ok := CanonicalReasoningParser("nope")
	require.False(t, ok)
}

func TestSkipSpecial(t *testing.T) {
	tests := []struct {
		name                    string
		tool, reasoning         string
		requested, set, lenient bool
		want                    bool
		err                     bool
	}{
		{"no parser unset", "hermes", "qwen3", false, false, false, true, false},
		{"no parser explicit false", "hermes", "qwen3", false, true, false, false, false},
		{"harmony unset", "harmony", "gpt_oss", false, false, false, false, false},
		{"harmony explicit true", "harmony", "", true, true, false, false, true},
		{"alias explicit true", "gpt-oss", "", true, true, false, false, true},
		{"kimi_k25 reasoning", "hermes", "kimi_k2", true, true, false, false, true},
		{"lenient", "mistral", "mistral", true, true, true, false, false},
		{"explicit false with harmony", "harmony", "gpt_oss", false, true, false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, warn, err := DecideSkipSpecial(tc.tool, tc.reasoning, tc.requested, tc.set, tc.lenient)
			if tc.err {
				var se *SkipSpecialError
				require.True(t, errors.As(err, &se), "err = %v", err)
				require.Contains(t, err.Error(), "parser")
				require.Contains(t, err.Error(), "special token")
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.lenient, warn != "")
		})
	}
}

func args(s string) Args {
	var a Args
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		panic(err)
	}
	return a
}

func TestGates(t *testing.T) {
	tests := []struct {
		parser, args string
		disabled     bool
	}{
		{"qwen3", `{"enable_thinking":false}`, false},
		{"kimi_k25", `{"thinking":false}`, true},
		{"kimi_k25", `{}`, false},
		{"nemotron_v3", `{"enable_thinking":false}`, true},
		{"nemotron3", `{"force_nonempty_content":true}`, true},
		{"nemotron_nano", `{}`, false},
		{"deepseek_v3", `{}`, true},
		{"deepseek_v3_1", `{"thinking":true}`, false},
		{"deepseek_v3", `{"thinking_mode":"thinking"}`, false},
		{"deepseek_r1", `{}`, false},
		{"deepseek_v3_2", `{"thinking_mode":"chat"}`, true},
		{"deepseek_v4", `{"enable_thinking":false}`, true},
		{"deepseek-v4", `{"thinking":false,"thinking_mode":"thinking"}`, true},
		{"gemma4", `{}`, false},
		{"gemma-4", `{"enable_thinking":false}`, true},
		{"mistral", `{}`, true},
		{"mistral", `{"reasoning_effort":"none"}`, true},
		{"mistral", `{"reasoning_effort":"high"}`, false},
		{"minimax_m3", `{"thinking_mode":"disabled"}`, true},
		{"minimax_m2", `{"enable_thinking":false}`, true},
		{"gpt_oss", `{"thinking":false}`, false},
	}
	for _, tc := range tests {
		got := ReasoningRule(tc.parser).Gate.Disabled(args(tc.args))
		require.Equal(t, tc.disabled, got, "%s %s", tc.parser, tc.args)
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		s    Situation
		want Decision
	}{
		{"qwen3 injected", Situation{ToolParser: "hermes", ReasoningParser: "qwen3", Prompt: "<|im_start|>assistant\n<think>\n", HasTools: true},
			Decision{ToolParser: "hermes", ReasoningParser: "qwen3", SkipSpecialTokens: true, Injected: true, InReasoning: true}},
		{"tool_choice none jails", Situation{ToolParser: "hermes", ReasoningParser: "qwen3", HasTools: true, ToolChoice: "none"},
			Decision{ReasoningParser: "qwen3", SkipSpecialTokens: true}},
		{"no tools no tool parsing", Situation{ToolParser: "hermes"},
			Decision{SkipSpecialTokens: true}},
		{"immediate required", Situation{HasTools: true, ToolChoice: "required"},
			Decision{SkipSpecialTokens: true, ImmediateTool: true}},
		{"immediate named", Situation{HasTools: true, ToolChoice: "function", ToolChoiceName: "f"},
			Decision{SkipSpecialTokens: true, ImmediateTool: true, ImmediateToolName: "f"}},
		{"auto without parser warns", Situation{HasTools: true, ToolChoice: "auto"},
			Decision{SkipSpecialTokens: true, Warning: "Tool choice 'auto' specified but no tool parser configured; proceeding without jailing"}},
		{"kimi_k25 after tool", Situation{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25", Prompt: "x<think>", LastIsTool: true, HasTools: true},
			Decision{ToolParser: "kimi_k2", Injected: true}},
		{"kimi_k25 after tool thinking=true", Situation{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25", Prompt: "x<think>", LastIsTool: true, HasTools: true, Args: args(`{"thinking":true}`)},
			Decision{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25", Injected: true, InReasoning: true}},
		{"deepseek_v4 after tool keeps", Situation{ToolParser: "deepseek_v4", ReasoningParser: "deepseek_v4", Prompt: "x<think>", LastIsTool: true, HasTools: true},
			Decision{ToolParser: "deepseek_v4", ReasoningParser: "deepseek_v4", SkipSpecialTokens: true, Injected: true, InReasoning: true}},
		{"nemotron gated strips", Situation{ToolParser: "nemotron_nano", ReasoningParser: "nemotron_v3", Args: args(`{"enable_thinking":false}`)},
			Decision{SkipSpecialTokens: true, Gated: true, StripLeadingThink: true}},
		{"nemotron gated guided", Situation{ToolParser: "nemotron_nano", ReasoningParser: "nemotron_v3", Args: args(`{"enable_thinking":false}`), HasTools: true, ToolChoice: "required"},
			Decision{ImmediateTool: true, SkipSpecialTokens: true, Gated: true}},
		{"shape detect mistral", Situation{ToolParser: "mistral", ReasoningParser: "mistral", Args: args(`{"reasoning_effort":"high"}`), HasTools: true, ToolChoice: "required"},
			Decision{ImmediateTool: true, ReasoningParser: "mistral", Unforced: true, ShapeDetect: true, StripThinkFirst: true}},
		// An effort control switches the mistral parser on; a prompt
		// without [THINK] leaves the start outside reasoning (Ministral 3
		// answers [TOOL_CALLS]… without thinking).
		{"mistral unforced", Situation{ToolParser: "mistral", ReasoningParser: "mistral", Prompt: "[INST]x[/INST]", Args: args(`{"reasoning_effort":"medium"}`), HasTools: true},
			Decision{ToolParser: "mistral", ReasoningParser: "mistral", Unforced: true}},
		{"shape detect only injected glm45", Situation{ToolParser: "glm47", ReasoningParser: "glm45", HasTools: true, ToolChoice: "function", ToolChoiceName: "f"},
			Decision{ImmediateTool: true, ImmediateToolName: "f", ReasoningParser: "glm45", SkipSpecialTokens: true}},
		{"shape detect injected glm45", Situation{ToolParser: "glm47", ReasoningParser: "glm45", Prompt: "<think>  \n", HasTools: true, ToolChoice: "function", ToolChoiceName: "f"},
			Decision{ImmediateTool: true, ImmediateToolName: "f", ReasoningParser: "glm45", SkipSpecialTokens: true, Injected: true, InReasoning: true, ShapeDetect: true}},
		{"reasoning-aware engine", Situation{ToolParser: "hermes", ReasoningParser: "deepseek_r1", HasTools: true, ToolChoice: "required", ReasoningAwareGuided: true},
			Decision{ImmediateTool: true, ReasoningParser: "deepseek_r1", SkipSpecialTokens: true}},
		{"legacy append_think", Situation{ToolParser: "minimax_m2", ReasoningParser: "minimax_append_think", HasTools: true, ToolChoice: "required"},
			Decision{ImmediateTool: true, SkipSpecialTokens: true}},
		{"mistral opener", Situation{ReasoningParser: "mistral", Prompt: "[INST]x[/INST][THINK]", Args: args(`{"reasoning_effort":"low"}`)},
			Decision{ReasoningParser: "mistral", Injected: true, InReasoning: true}},
		{"minimax_m3 opener", Situation{ReasoningParser: "minimax_m3", Prompt: "…<mm:think>\n"},
			Decision{ReasoningParser: "minimax_m3", Injected: true, InReasoning: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Decide(tc.s)
			require.NoError(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Decide (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCasesTable keeps PARSER_CASES.md's PRE section equal to Rules.
func TestCasesTable(t *testing.T) {
	b, err := os.ReadFile("../PARSER_CASES.md")
	require.NoError(t, err)
	doc := string(b)
	i, j := strings.Index(doc, CasesBegin), strings.Index(doc, CasesEnd)
	require.True(t, i >= 0 && j > i, "PARSER_CASES.md lacks the PRE section markers; regenerate with go test ./preprocess -run TestCasesTable -update-cases")
	got := doc[i+len(CasesBegin)+1 : j]
	want := CasesTable()
	if *updateCases {
		doc = doc[:i+len(CasesBegin)+1] + want + doc[j:]
		require.NoError(t, os.WriteFile("../PARSER_CASES.md", []byte(doc), 0o644))
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PARSER_CASES.md PRE section differs from preprocess.Rules (-want +got); run go test ./preprocess -run TestCasesTable -update-cases:\n%s", diff)
	}
}
