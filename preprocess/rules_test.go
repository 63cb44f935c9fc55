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
	for _, r := range ruleTable {
		require.False(t, seen[r.Name], "duplicate row %s", r.Name)
		seen[r.Name] = true
		require.True(t, r.Tool || r.Reasoning, r.Name)
		if r.Tool {
			c, ok := canonicalToolParser(r.Name)
			require.True(t, ok, "tool %s not registered", r.Name)
			require.Equal(t, r.Name, c, "tool row must use the canonical name")
		}
		if r.Reasoning {
			c, ok := canonicalReasoningParser(r.Name)
			require.True(t, ok, "reasoning %s not registered", r.Name)
			require.Equal(t, r.Name, c)
		}
		if r.Special == specialYes {
			require.NotEmpty(t, r.SpecialWhy, r.Name)
		}
	}
	// Every registered alias resolves to a canonical name that is itself
	// registered.
	for _, n := range parsers.ReasoningParsers() {
		c, ok := canonicalReasoningParser(n)
		require.True(t, ok)
		_, ok = parsers.ReasoningParser(c)
		require.True(t, ok, "%s → %s is not registered", n, c)
	}
	for _, n := range parsers.ToolParsers() {
		_, ok := canonicalToolParser(n)
		require.True(t, ok, n)
	}
}

// TestReasoningNamesDecided keeps every registered reasoning parser name
// (the peers' spellings included) resolvable to a row of ruleTable, so that no
// name reaches a request with undecided PRE rows.
func TestReasoningNamesDecided(t *testing.T) {
	for _, n := range parsers.ReasoningParsers() {
		c, ok := canonicalReasoningParser(n)
		require.True(t, ok, n)
		require.NotNil(t, reasoningRules[c], "reasoning parser %q (canonical %q) has no row in Rules", n, c)
		// A forced grammar reads bare guided JSON as reasoning unless PRE.4
		// shape detection sends it past the parser.
		if info, _ := parsers.ReasoningParser(n); info.Forced {
			require.Equal(t, guidedShape, reasoningRules[c].Guided, "forced reasoning parser %q (canonical %q) without shape detection", n, c)
		}
	}
}

// TestNewFamilyRules pins the decisions of the 2026 families' parsers,
// reached through the names the peers register.
func TestNewFamilyRules(t *testing.T) {
	type decided struct {
		Name          string
		Special       specialTokens
		Gate          reasoningGate
		AfterTool     afterToolRule
		Guided        guidedRule
		NeedsWhy      bool
		GrammarForced bool
	}
	tests := []struct {
		name      string
		reasoning bool
		want      decided
	}{
		{"deepseek_v41", true, decided{"deepseek_v41", specialUnstated, gateDeepSeekOn, afterToolKeep, guidedShapeIfInjected, false, false}},
		{"deepseekv41", true, decided{"deepseek_v41", specialUnstated, gateDeepSeekOn, afterToolKeep, guidedShapeIfInjected, false, false}},
		{"deepseek-v41", true, decided{"deepseek_v41", specialUnstated, gateDeepSeekOn, afterToolKeep, guidedShapeIfInjected, false, false}},
		{"muse", true, decided{"muse_glimmer", specialYes, gateNever, afterToolNormal, guidedShapeIfInjected, true, false}},
		{"glimmer", false, decided{"muse_glimmer", specialYes, gateNever, afterToolNormal, guidedShapeIfInjected, true, false}},
		{"cohere_command3", true, decided{"cohere_command4", specialYes, gateNever, afterToolNormal, guidedShape, true, true}},
		{"cohere", false, decided{"cohere_command4", specialYes, gateNever, afterToolNormal, guidedShape, true, false}},
		{"hunyuan", true, decided{"hy_v3", specialUnstated, gateNever, afterToolNormal, guidedShapeIfInjected, false, false}},
		{"hy_v4", false, decided{"hy_v3", specialUnstated, gateNever, afterToolNormal, guidedShapeIfInjected, false, false}},
		{"hunyuan_a13b", true, decided{"hunyuan_a13b", specialUnstated, gateNever, afterToolNormal, guidedShapeIfInjected, false, false}},
		{"k2_horizon", true, decided{"k2_horizon", specialUnstated, gateNever, afterToolNormal, guidedShape, false, true}},
		{"gigachat3", false, decided{"gigachat3", specialYes, gateNever, afterToolNormal, guidedNormal, true, false}},
		{"gigachat35", false, decided{"gigachat35", specialYes, gateNever, afterToolNormal, guidedNormal, true, false}},
		{"lfm2-thinking", false, decided{"lfm2", specialYes, gateNever, afterToolNormal, guidedNormal, true, false}},
		{"lfm2-thinking", true, decided{"basic", specialNo, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"olmo3-think", true, decided{"olmo3", specialUnstated, gateNever, afterToolNormal, guidedShape, false, true}},
		{"functiongemma", false, decided{"functiongemma", specialYes, gateNever, afterToolNormal, guidedNormal, true, false}},
		{"minicpm5", false, decided{"minicpm5", specialYes, gateNever, afterToolNormal, guidedNormal, true, false}},
		{"granite", false, decided{"granite", specialNo, gateNever, afterToolNormal, guidedNormal, true, false}},
		{"granite-20b-fc", false, decided{"granite_20b_fc", specialUnstated, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"intern-s1", false, decided{"internlm", specialYes, gateNever, afterToolNormal, guidedNormal, true, false}},
		{"intern-s1", true, decided{"interns1", specialUnstated, gateNever, afterToolNormal, guidedShapeIfInjected, false, false}},
		{"xlam", false, decided{"xlam", specialNo, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"apertus2509", true, decided{"apertus", specialYes, gateNever, afterToolNormal, guidedShapeIfInjected, true, false}},
		{"ernie45", true, decided{"ernie45", specialUnstated, gateNever, afterToolNormal, guidedShape, false, true}},
		{"ernie45", false, decided{"hermes", specialNo, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"longcat", true, decided{"longcat", specialUnstated, gateNever, afterToolNormal, guidedShape, false, true}},
		{"dots", false, decided{"dots", specialUnstated, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"dots", true, decided{"qwen3", specialNo, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"step3", false, decided{"step3", specialUnstated, gateNever, afterToolNormal, guidedShape, false, false}},
		{"step3p5", true, decided{"step3", specialUnstated, gateNever, afterToolNormal, guidedShape, false, true}},
		{"solar_open2", true, decided{"solar_open2", specialUnstated, gateNever, afterToolNormal, guidedShapeIfInjected, false, false}},
		{"holo2", true, decided{"holo2", specialNo, gateKimi, afterToolNormal, guidedShape, false, true}},
		{"qwen3-thinking", true, decided{"qwen3_thinking", specialNo, gateNever, afterToolNormal, guidedShape, false, true}},
		{"minimax", true, decided{"minimax_m2", specialNo, gateMiniMaxM2, afterToolNormal, guidedShape, false, true}},
		{"mimo", true, decided{"qwen3", specialNo, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"poolside_v1", true, decided{"qwen3", specialNo, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"exaone4", true, decided{"qwen3", specialNo, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"telechat4", true, decided{"basic", specialNo, gateNever, afterToolNormal, guidedNormal, false, false}},
		{"seed_oss", true, decided{"seed_oss", specialUnstated, gateNever, afterToolNormal, guidedNormal, false, false}},
	}
	for _, tc := range tests {
		r := toolRule(tc.name)
		if tc.reasoning {
			r = reasoningRule(tc.name)
		}
		got := decided{r.Name, r.Special, r.Gate, r.AfterTool, r.Guided, r.SpecialWhy != "", false}
		if tc.reasoning {
			info, ok := parsers.ReasoningParser(tc.name)
			require.True(t, ok, tc.name)
			got.GrammarForced = info.Forced
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (reasoning %v) (-want +got):\n%s", tc.name, tc.reasoning, diff)
		}
	}
}

func TestAliases(t *testing.T) {
	for in, want := range map[string]string{
		"gemma-4": "gemma4", "deepseek-v4": "deepseek_v4", "DeepSeekV4": "deepseek_v4", "kimi_k2": "kimi_k25",
		"nemotron_3": "nemotron3", "minimax-m3": "minimax_m3", "openai_gptoss": "gpt_oss", "gpt-oss": "gpt_oss",
		"minimax": "minimax_m2", "muse": "muse_glimmer", "Glimmer": "muse_glimmer", "hy_v4": "hy_v3", "hunyuan": "hy_v3",
		"cohere": "cohere_command4", "cohere_command3": "cohere_command4", "mimo": "qwen3", "poolside_v1": "qwen3",
		"exaone4": "qwen3", "DeepSeekV41": "deepseek_v41", "deepseek-v41": "deepseek_v41", "olmo3-think": "olmo3",
		"intern-s1": "interns1", "qwen3-thinking": "qwen3_thinking", "step3p5": "step3", "deepseek-v3": "deepseek_v3",
	} {
		got, ok := canonicalReasoningParser(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	for in, want := range map[string]string{"gpt-oss": "harmony", "openai": "harmony", "qwen": "hermes", "minimax-m3-nom": "minimax_m3", "glm45": "glm47"} {
		got, ok := canonicalToolParser(in)
		require.True(t, ok, in)
		require.Equal(t, want, got, in)
	}
	_, ok := canonicalReasoningParser("nope")
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
		{"muse_glimmer unset", "muse_glimmer", "muse_glimmer", false, false, false, false, false},
		{"muse explicit true", "", "muse", true, true, false, false, true},
		{"cohere_command3 explicit true", "cohere_command3", "", true, true, false, false, true},
		{"lfm2 explicit true", "lfm2", "lfm2-thinking", true, true, false, false, true},
		{"internlm alias explicit true", "intern-s1", "intern-s1", true, true, false, false, true},
		{"apertus reasoning explicit true", "", "apertus2509", true, true, false, false, true},
		{"gigachat35 lenient", "gigachat35", "", true, true, true, false, false},
		{"k2_horizon unset", "k2_horizon", "k2_horizon", false, false, false, true, false},
		{"granite explicit true", "granite", "granite", true, true, false, true, false},
		{"hy_v3 unset", "hy_v3", "hy_v3", false, false, false, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, warn, err := decideSkipSpecial(tc.tool, tc.reasoning, tc.requested, tc.set, tc.lenient)
			if tc.err {
				var se *skipSpecialError
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

func args(s string) templateArgs {
	var a templateArgs
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
		{"holo2", `{"thinking":false}`, true},
		{"holo2", `{}`, false},
		{"deepseek_v41", `{}`, false},
		{"deepseekv41", `{"thinking_mode":"chat"}`, true},
		{"cohere_command4", `{"enable_thinking":false}`, false},
		{"olmo3", `{"enable_thinking":false}`, false},
	}
	for _, tc := range tests {
		got := reasoningRule(tc.parser).Gate.Disabled(args(tc.args))
		require.Equal(t, tc.disabled, got, "%s %s", tc.parser, tc.args)
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		name string
		s    situation
		want decision
	}{
		{"qwen3 injected", situation{ToolParser: "hermes", ReasoningParser: "qwen3", Prompt: "<|im_start|>assistant\n<think>\n", HasTools: true},
			decision{ToolParser: "hermes", ReasoningParser: "qwen3", SkipSpecialTokens: true, Injected: true, InReasoning: true}},
		{"tool_choice none jails", situation{ToolParser: "hermes", ReasoningParser: "qwen3", HasTools: true, ToolChoice: "none"},
			decision{ReasoningParser: "qwen3", SkipSpecialTokens: true}},
		{"no tools no tool parsing", situation{ToolParser: "hermes"},
			decision{SkipSpecialTokens: true}},
		{"immediate required", situation{HasTools: true, ToolChoice: "required"},
			decision{SkipSpecialTokens: true, ImmediateTool: true}},
		{"immediate named", situation{HasTools: true, ToolChoice: "function", ToolChoiceName: "f"},
			decision{SkipSpecialTokens: true, ImmediateTool: true, ImmediateToolName: "f"}},
		{"auto without parser warns", situation{HasTools: true, ToolChoice: "auto"},
			decision{SkipSpecialTokens: true, Warning: "Tool choice 'auto' specified but no tool parser configured; proceeding without jailing"}},
		{"kimi_k25 after tool", situation{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25", Prompt: "x<think>", LastIsTool: true, HasTools: true},
			decision{ToolParser: "kimi_k2", Injected: true}},
		{"kimi_k25 after tool thinking=true", situation{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25", Prompt: "x<think>", LastIsTool: true, HasTools: true, Args: args(`{"thinking":true}`)},
			decision{ToolParser: "kimi_k2", ReasoningParser: "kimi_k25", Injected: true, InReasoning: true}},
		{"deepseek_v4 after tool keeps", situation{ToolParser: "deepseek_v4", ReasoningParser: "deepseek_v4", Prompt: "x<think>", LastIsTool: true, HasTools: true},
			decision{ToolParser: "deepseek_v4", ReasoningParser: "deepseek_v4", SkipSpecialTokens: true, Injected: true, InReasoning: true}},
		{"nemotron gated strips", situation{ToolParser: "nemotron_nano", ReasoningParser: "nemotron_v3", Args: args(`{"enable_thinking":false}`)},
			decision{SkipSpecialTokens: true, Gated: true, StripLeadingThink: true}},
		{"nemotron gated guided", situation{ToolParser: "nemotron_nano", ReasoningParser: "nemotron_v3", Args: args(`{"enable_thinking":false}`), HasTools: true, ToolChoice: "required"},
			decision{ImmediateTool: true, SkipSpecialTokens: true, Gated: true}},
		{"shape detect mistral", situation{ToolParser: "mistral", ReasoningParser: "mistral", Args: args(`{"reasoning_effort":"high"}`), HasTools: true, ToolChoice: "required"},
			decision{ImmediateTool: true, ReasoningParser: "mistral", Unforced: true, ShapeDetect: true, StripThinkFirst: true}},
		// An effort control switches the mistral parser on; a prompt
		// without [THINK] leaves the start outside reasoning (Ministral 3
		// answers [TOOL_CALLS]… without thinking).
		{"mistral unforced", situation{ToolParser: "mistral", ReasoningParser: "mistral", Prompt: "[INST]x[/INST]", Args: args(`{"reasoning_effort":"medium"}`), HasTools: true},
			decision{ToolParser: "mistral", ReasoningParser: "mistral", Unforced: true}},
		{"shape detect only injected glm45", situation{ToolParser: "glm47", ReasoningParser: "glm45", HasTools: true, ToolChoice: "function", ToolChoiceName: "f"},
			decision{ImmediateTool: true, ImmediateToolName: "f", ReasoningParser: "glm45", SkipSpecialTokens: true}},
		{"shape detect injected glm45", situation{ToolParser: "glm47", ReasoningParser: "glm45", Prompt: "<think>  \n", HasTools: true, ToolChoice: "function", ToolChoiceName: "f"},
			decision{ImmediateTool: true, ImmediateToolName: "f", ReasoningParser: "glm45", SkipSpecialTokens: true, Injected: true, InReasoning: true, ShapeDetect: true}},
		{"reasoning-aware engine", situation{ToolParser: "hermes", ReasoningParser: "deepseek_r1", HasTools: true, ToolChoice: "required", ReasoningAwareGuided: true},
			decision{ImmediateTool: true, ReasoningParser: "deepseek_r1", SkipSpecialTokens: true}},
		{"legacy append_think", situation{ToolParser: "minimax_m2", ReasoningParser: "minimax_append_think", HasTools: true, ToolChoice: "required"},
			decision{ImmediateTool: true, SkipSpecialTokens: true}},
		{"mistral opener", situation{ReasoningParser: "mistral", Prompt: "[INST]x[/INST][THINK]", Args: args(`{"reasoning_effort":"low"}`)},
			decision{ReasoningParser: "mistral", Injected: true, InReasoning: true}},
		{"minimax_m3 opener", situation{ReasoningParser: "minimax_m3", Prompt: "…<mm:think>\n"},
			decision{ReasoningParser: "minimax_m3", Injected: true, InReasoning: true}},
		// DeepSeek V4.1 keeps the reasoning its template seeds after a
		// tool result, as V4 does.
		{"deepseek_v41 after tool keeps", situation{ToolParser: "deepseek_v41", ReasoningParser: "deepseekv41", Prompt: "x<think>", LastIsTool: true, HasTools: true},
			decision{ToolParser: "deepseek_v41", ReasoningParser: "deepseekv41", SkipSpecialTokens: true, Injected: true, InReasoning: true}},
		{"deepseek_v41 chat mode gated", situation{ToolParser: "deepseek_v41", ReasoningParser: "deepseek_v41", Args: args(`{"thinking":false}`), HasTools: true},
			decision{ToolParser: "deepseek_v41", SkipSpecialTokens: true, Gated: true}},
		// Solar Open 2: the template opens the span for the default and
		// higher efforts; the prompt decides.
		{"solar_open2 opened", situation{ToolParser: "solar_open2", ReasoningParser: "solar_open2", Prompt: "<|begin|>assistant<|think:start|>", HasTools: true},
			decision{ToolParser: "solar_open2", ReasoningParser: "solar_open2", SkipSpecialTokens: true, Injected: true, InReasoning: true}},
		{"solar_open2 closed", situation{ToolParser: "solar_open2", ReasoningParser: "solar_open2", Prompt: "<|begin|>assistant<|think:start|><|think:end|>", HasTools: true},
			decision{ToolParser: "solar_open2", ReasoningParser: "solar_open2", SkipSpecialTokens: true}},
		{"olmo3 think opened", situation{ToolParser: "olmo3", ReasoningParser: "olmo3", Prompt: "<|im_start|>assistant\n<think>", HasTools: true},
			decision{ToolParser: "olmo3", ReasoningParser: "olmo3", SkipSpecialTokens: true, Injected: true, InReasoning: true}},
		{"cohere guided shape", situation{ToolParser: "cohere_command4", ReasoningParser: "cohere_command4", HasTools: true, ToolChoice: "required"},
			decision{ImmediateTool: true, ReasoningParser: "cohere_command4", ShapeDetect: true}},
		{"glimmer guided not opened", situation{ToolParser: "muse_glimmer", ReasoningParser: "muse_glimmer", Prompt: "<|start|>assistant", HasTools: true, ToolChoice: "required"},
			decision{ImmediateTool: true, ReasoningParser: "muse_glimmer"}},
		{"glimmer guided opened", situation{ToolParser: "muse_glimmer", ReasoningParser: "muse_glimmer", Prompt: "<|start|>assistant to=self<|message|>", HasTools: true, ToolChoice: "function", ToolChoiceName: "f"},
			decision{ImmediateTool: true, ImmediateToolName: "f", ReasoningParser: "muse_glimmer", Injected: true, InReasoning: true, ShapeDetect: true}},
		{"holo2 thinking off", situation{ToolParser: "hermes", ReasoningParser: "holo2", Args: args(`{"thinking":false}`), HasTools: true},
			decision{ToolParser: "hermes", SkipSpecialTokens: true, Gated: true}},
		{"k2_horizon guided shape", situation{ToolParser: "k2_horizon", ReasoningParser: "k2_horizon", HasTools: true, ToolChoice: "required"},
			decision{ImmediateTool: true, ReasoningParser: "k2_horizon", SkipSpecialTokens: true, ShapeDetect: true}},
		{"interns1 guided opened", situation{ToolParser: "interns1", ReasoningParser: "interns1", Prompt: "<|im_start|>assistant\n<think>", HasTools: true, ToolChoice: "required"},
			decision{ImmediateTool: true, ReasoningParser: "interns1", Injected: true, InReasoning: true, ShapeDetect: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decide(tc.s)
			require.NoError(t, err)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Decide (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCasesTable keeps PARSER_CASES.md's PRE section equal to ruleTable.
func TestCasesTable(t *testing.T) {
	b, err := os.ReadFile("../PARSER_CASES.md")
	require.NoError(t, err)
	doc := string(b)
	i, j := strings.Index(doc, casesBegin), strings.Index(doc, casesEnd)
	require.True(t, i >= 0 && j > i, "PARSER_CASES.md lacks the PRE section markers; regenerate with go test ./preprocess -run TestCasesTable -update-cases")
	got := doc[i+len(casesBegin)+1 : j]
	want := casesTable()
	if *updateCases {
		doc = doc[:i+len(casesBegin)+1] + want + doc[j:]
		require.NoError(t, os.WriteFile("../PARSER_CASES.md", []byte(doc), 0o644))
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PARSER_CASES.md PRE section differs from the rule table (-want +got); run go test ./preprocess -run TestCasesTable -update-cases:\n%s", diff)
	}
}
