package parsers

// reasoningSpec describes a paired-marker reasoning grammar (GRAMMARS.md §7.1
// to §7.4): text between a start and an end marker is reasoning.
type reasoningSpec struct {
	name       string
	start, end string
	forced     bool     // output starts inside reasoning
	toolStarts []string // tokens that end reasoning and stay in the content stream
}

// The paired-marker reasoning grammars. Every parser of one group shares the
// machine; they differ only in markers, forcing and tool-start tokens.
var (
	thinkPlain  = &reasoningSpec{name: "basic", start: "<think>", end: "</think>"}
	thinkForced = &reasoningSpec{name: "deepseek_r1", start: "<think>", end: "</think>", forced: true}
	kimiK25     = &reasoningSpec{name: "kimi_k25", start: "<think>", end: "</think>", forced: true,
		toolStarts: []string{"<|tool_calls_section_begin|>"}}
	deepseekV4 = &reasoningSpec{name: "deepseek_v4", start: "<think>", end: "</think>",
		toolStarts: []string{"<｜DSML｜tool_calls>", "<｜DSML｜invoke name="}}
	minimaxM2 = &reasoningSpec{name: "minimax_m2", start: "<think>", end: "</think>", forced: true,
		toolStarts: []string{"<minimax:tool_call>", "<invoke name="}}
	kimiThink    = &reasoningSpec{name: "kimi", start: "◁think▷", end: "◁/think▷"}
	mistralThink = &reasoningSpec{name: "mistral", start: "[THINK]", end: "[/THINK]", forced: true}
)

// reasoningMarkers returns the markers the reasoning state recognises.
func (r *reasoningSpec) reasoningMarkers() []marker {
	ms := []marker{{text: r.end, act: actReasonEnd}, {text: r.start, act: actReasonStart}}
	for _, t := range r.toolStarts {
		ms = append(ms, marker{text: t, act: actToolStart})
	}
	return ms
}

// contentMarkers returns the reasoning markers the content state recognises:
// the start marker re-enters reasoning; a stray end marker is dropped.
func (r *reasoningSpec) contentMarkers() []marker {
	return []marker{{text: r.start, act: actReasonStart}, {text: r.end, act: actReasonEnd}}
}
