package parsers

import "slices"

// reasoningSpec describes a reasoning grammar run by the Parser's own
// reasoning state (PARSER_CASES.md): text between an opener and a closer is
// reasoning. The fields cover every marker-delimited variant; grammars that
// frame the whole output (Harmony) are registered with registerFraming.
type reasoningSpec struct {
	name       string   // canonical name
	starts     []string // openers; starts[0] is the canonical one
	ends       []string // closers
	forced     bool     // the output starts inside reasoning
	toolStarts []string // tokens that end reasoning and stay in the content stream
	// toolOpeners end reasoning like toolStarts, but only when the
	// configured tool parser opens calls with them (qwen3's <tool_call>).
	toolOpeners []string

	label     string // stripped right after an opener when the span starts with it (gemma4 "thought\n")
	atStart   bool   // openers count only at the start of the output, after whitespace (granite)
	strayText bool   // a closer met outside reasoning is ordinary text (granite)
	once      bool   // at most one span; later openers are text (granite)
	prepend   bool   // never split: starts[0] is prepended and everything is content (minimax_append_think)

	// framing, when set, is the grammar that owns the whole output stream
	// (content, reasoning and calls); the fields above only describe it
	// for the registry. Set by registerFraming.
	framing *framingSpec
}

// The marker-delimited reasoning grammars. Every parser of one group shares
// the machine; they differ only in markers, forcing and tool-start tokens.
var (
	thinkPlain = &reasoningSpec{name: "basic", starts: []string{"<think>"}, ends: []string{"</think>"}}
	qwen3Think = &reasoningSpec{name: "qwen3", starts: []string{"<think>"}, ends: []string{"</think>"},
		toolOpeners: []string{"<tool_call>"}}
	// qwen3ThinkForced is qwen3 for the thinking-only checkpoints
	// (Qwen3-*-Thinking-2507): the template always opens the span.
	qwen3ThinkForced = &reasoningSpec{name: "qwen3_thinking", starts: []string{"<think>"}, ends: []string{"</think>"},
		forced: true, toolOpeners: []string{"<tool_call>"}}
	thinkForced = &reasoningSpec{name: "deepseek_r1", starts: []string{"<think>"}, ends: []string{"</think>"}, forced: true}
	kimiK25     = &reasoningSpec{name: "kimi_k25", starts: []string{"<think>"}, ends: []string{"</think>"}, forced: true,
		toolStarts: []string{"<|tool_calls_section_begin|>"}}
	deepseekV4 = &reasoningSpec{name: "deepseek_v4", starts: []string{"<think>"}, ends: []string{"</think>"},
		toolStarts: []string{"<｜DSML｜tool_calls>", "<｜DSML｜invoke name="}}
	minimaxM2 = &reasoningSpec{name: "minimax_m2", starts: []string{"<think>"}, ends: []string{"</think>"}, forced: true,
		toolStarts: []string{"<minimax:tool_call>", "<invoke name="}}
	kimiThink    = &reasoningSpec{name: "kimi", starts: []string{"◁think▷"}, ends: []string{"◁/think▷"}}
	mistralThink = &reasoningSpec{name: "mistral", starts: []string{"[THINK]"}, ends: []string{"[/THINK]"}, forced: true}
	gemma4Think  = &reasoningSpec{name: "gemma4", starts: []string{"<|channel>"}, ends: []string{"<channel|>"}, label: "thought\n"}
	graniteThink = &reasoningSpec{name: "granite",
		starts:  []string{"Here's my thought process:", "Here is my thought process:"},
		ends:    []string{"Here's my response:", "Here is my response:"},
		atStart: true, strayText: true, once: true}
	minimaxAppendThink = &reasoningSpec{name: "minimax_append_think", starts: []string{"<think>"}, ends: []string{"</think>"}, prepend: true}
)

// The names, with the peers' spellings; peernames.go says which peer
// registers which, for which models, and how a spelling two peers give
// different meanings is resolved.
func init() {
	registerReasoning(thinkPlain, "basic", "qwen", "nemotron_deci", "glm45", "glm47",
		"telechat4") // SGLang: the template opens the span (Config.InReasoning)
	registerReasoning(qwen3Think, "qwen3",
		"mimo",        // vLLM, SGLang
		"poolside_v1", // vLLM, SGLang
		"exaone4")     // EXAONE 4's <think> with hermes calls
	registerReasoning(qwen3ThinkForced, "qwen3_thinking",
		"qwen3-thinking") // SGLang
	registerReasoning(thinkForced, "deepseek_r1", "deepseek-r1", "deepseek_v3", "deepseek_v3_1", "deepseek_v3_2",
		"step3", "nemotron_nano", "nemotron3", "nemotron_v3", "nemotron_3",
		"deepseek-v3", // SGLang (not forced there: here the PRE.2 toggle of deepseek_v3 decides)
		"holo2",       // vLLM: DeepSeek V3 with thinking on
		"step3p5")     // vLLM, SGLang
	registerReasoning(deepseekV4, "deepseek_v4", "deepseek-v4", "deepseekv4")
	registerReasoning(kimiThink, "kimi")
	registerReasoning(kimiK25, "kimi_k25", "kimi_k2")
	registerReasoning(mistralThink, "mistral")
	registerReasoning(minimaxM2, "minimax_m2",
		"minimax") // SGLang: forced <think> for MiniMax M2
	registerReasoning(gemma4Think, "gemma4", "gemma-4")
	registerReasoning(graniteThink, "granite")
	registerReasoning(minimaxAppendThink, "minimax_append_think", "minimax_m2_append_think", "minimax-append-think")
}

// reasoningMarkers returns the markers the reasoning state recognises: a
// closer ends the span, an opener inside reasoning is markup (dropped), a
// tool-start token ends the span without being consumed — and so does a
// toolOpeners token that tool (the configured tool grammar, or nil) opens
// calls with.
func (r *reasoningSpec) reasoningMarkers(tool toolGrammar) []marker {
	var ms []marker
	if tool != nil {
		for _, t := range r.toolOpeners {
			if slices.ContainsFunc(tool.textMarkers(), func(m marker) bool { return m.act == actToolOpen && m.text == t && !m.atStart }) {
				ms = append(ms, marker{text: t, act: actToolStart})
			}
		}
	}
	ms = appendMarkers(ms, r.ends, actReasonEnd, 0)
	ms = appendMarkers(ms, r.starts, actReasonStart, 0)
	return appendMarkers(ms, r.toolStarts, actToolStart, 0)
}

// contentMarkers returns the reasoning markers the content state recognises:
// an opener enters reasoning (when openers are legal); a stray closer is
// dropped (unless closers outside reasoning are text).
func (r *reasoningSpec) contentMarkers(openers bool) []marker {
	var ms []marker
	if openers {
		for _, t := range r.starts {
			ms = append(ms, marker{text: t, act: actReasonStart, atStart: r.atStart})
		}
	}
	if !r.strayText {
		ms = appendMarkers(ms, r.ends, actReasonEnd, 0)
	}
	return ms
}
