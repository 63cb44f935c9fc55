package preprocess

import (
	"slices"
	"strings"
)

// Family is one row of the model-family table: how to recognise a model
// and the parsers it is served with.
type Family struct {
	Name string

	// ModelTypes are config.json model_type values (exact, lower case).
	// Architectures are substrings of config.json architectures entries.
	// NameHints are substrings of the lower-cased directory name; with
	// ModelTypes or Architectures they narrow the match (a row needs one
	// hint to match too), alone they are the fallback for a directory
	// without config.json.
	ModelTypes    []string
	Architectures []string
	NameHints     []string

	ToolParser, ReasoningParser string
}

// Families is the model-family table, most specific rows first: the first
// row that matches wins. Choices where serving stacks differ:
//   - MiniMax M2 uses the minimax_m2 reasoning parser (reasoning separated;
//     vLLM's minimax_m2_append_think keeps it in the content instead).
//   - DeepSeek V3 (not V3.1) and Qwen3-Coder have no reasoning parser; the
//     Qwen3.5 generation calls tools in the Qwen3-Coder XML format.
//   - Kimi K2 Instruct has no reasoning parser, K2 Thinking and K2.5 do.
//   - DeepSeek V4.1 (spaced DSML) is told from V4 by its name, as V3.1
//     from V3; Laguna (poolside) runs the GLM-4.7 tags under the name
//     poolside_v1; LFM2/LFM2.5 have no reasoning parser (ollama's
//     lfm2-thinking is for the thinking variants).
var Families = []Family{
	{Name: "gpt-oss", ModelTypes: []string{"gpt_oss"}, ToolParser: "harmony", ReasoningParser: "gpt_oss"},
	{Name: "gpt-oss", NameHints: []string{"gpt-oss", "gpt_oss"}, ToolParser: "harmony", ReasoningParser: "gpt_oss"},

	{Name: "Qwen3-Coder", ModelTypes: []string{"qwen3", "qwen3_moe", "qwen3_next"}, NameHints: []string{"coder"}, ToolParser: "qwen3_coder"},
	{Name: "Qwen3-Coder", NameHints: []string{"qwen3-coder", "qwen3_coder"}, ToolParser: "qwen3_coder"},
	{Name: "Qwen3.5", ModelTypes: []string{"qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text"}, ToolParser: "qwen3_coder", ReasoningParser: "qwen3"},
	{Name: "Qwen3.5", NameHints: []string{"qwen3.5", "qwen3.6", "qwen3_5"}, ToolParser: "qwen3_coder", ReasoningParser: "qwen3"},
	{Name: "Qwen3", ModelTypes: []string{"qwen3", "qwen3_moe", "qwen3_next", "qwen3_vl", "qwen3_vl_moe"}, ToolParser: "hermes", ReasoningParser: "qwen3"},
	{Name: "Qwen3", NameHints: []string{"qwen3"}, ToolParser: "hermes", ReasoningParser: "qwen3"},
	{Name: "Qwen2.5", ModelTypes: []string{"qwen2", "qwen2_moe"}, ToolParser: "hermes"},

	{Name: "DeepSeek V4.1", ModelTypes: []string{"deepseek_v4"}, NameHints: []string{"v4.1", "v4_1", "v41"}, ToolParser: "deepseek_v41", ReasoningParser: "deepseek_v41"},
	{Name: "DeepSeek V4.1", NameHints: []string{"deepseek-v4.1", "deepseek_v4_1", "deepseek-v41"}, ToolParser: "deepseek_v41", ReasoningParser: "deepseek_v41"},
	{Name: "DeepSeek V4", ModelTypes: []string{"deepseek_v4"}, ToolParser: "deepseek_v4", ReasoningParser: "deepseek_v4"},
	{Name: "DeepSeek V4", NameHints: []string{"deepseek-v4", "deepseek_v4"}, ToolParser: "deepseek_v4", ReasoningParser: "deepseek_v4"},
	{Name: "DeepSeek V3.2", ModelTypes: []string{"deepseek_v32"}, ToolParser: "deepseek_v32", ReasoningParser: "deepseek_v3_2"},
	{Name: "DeepSeek V3.2", NameHints: []string{"deepseek-v3.2", "deepseek_v3_2", "deepseek-v32"}, ToolParser: "deepseek_v32", ReasoningParser: "deepseek_v3_2"},
	{Name: "DeepSeek V3.1", ModelTypes: []string{"deepseek_v3"}, NameHints: []string{"v3.1", "v3_1", "v31"}, ToolParser: "deepseek_v31", ReasoningParser: "deepseek_v3_1"},
	{Name: "DeepSeek V3.1", NameHints: []string{"deepseek-v3.1", "deepseek_v3_1"}, ToolParser: "deepseek_v31", ReasoningParser: "deepseek_v3_1"},
	{Name: "DeepSeek R1", ModelTypes: []string{"deepseek_v3"}, NameHints: []string{"r1"}, ToolParser: "deepseek_v3", ReasoningParser: "deepseek_r1"},
	{Name: "DeepSeek R1", NameHints: []string{"deepseek-r1", "deepseek_r1"}, ToolParser: "deepseek_v3", ReasoningParser: "deepseek_r1"},

	{Name: "Kimi K2.5", ModelTypes: []string{"kimi_k25"}, ToolParser: "kimi_k2", ReasoningParser: "kimi_k25"},
	{Name: "Kimi K2.5", NameHints: []string{"kimi-k2.5", "kimi_k25", "kimi-k25"}, ToolParser: "kimi_k2", ReasoningParser: "kimi_k25"},
	{Name: "Kimi K2 Thinking", ModelTypes: []string{"kimi_k2"}, NameHints: []string{"thinking"}, ToolParser: "kimi_k2", ReasoningParser: "kimi_k2"},
	{Name: "Kimi K2", ModelTypes: []string{"kimi_k2"}, ToolParser: "kimi_k2"},
	{Name: "Kimi K3", ModelTypes: []string{"kimi_k3"}, ToolParser: "kimi_k3", ReasoningParser: "kimi_k3"},
	{Name: "Kimi K3", NameHints: []string{"kimi-k3", "kimi_k3"}, ToolParser: "kimi_k3", ReasoningParser: "kimi_k3"},
	{Name: "Kimi K2", NameHints: []string{"kimi-k2", "kimi_k2"}, ToolParser: "kimi_k2"},

	{Name: "DeepSeek V3", ModelTypes: []string{"deepseek_v3"}, ToolParser: "deepseek_v3"},
	{Name: "DeepSeek V3", NameHints: []string{"deepseek-v3", "deepseek_v3"}, ToolParser: "deepseek_v3"},

	{Name: "GLM-4.7", ModelTypes: []string{"glm4_moe", "glm_moe_dsa", "glm5"}, NameHints: []string{"4.7", "glm-5", "glm5"}, ToolParser: "glm47", ReasoningParser: "glm45"},
	{Name: "GLM-4.5", ModelTypes: []string{"glm4_moe", "glm4v_moe"}, ToolParser: "glm45", ReasoningParser: "glm45"},
	{Name: "GLM-4.7", NameHints: []string{"glm-4.7", "glm-5"}, ToolParser: "glm47", ReasoningParser: "glm45"},
	{Name: "GLM-4.5", NameHints: []string{"glm-4.5", "glm-4.6"}, ToolParser: "glm45", ReasoningParser: "glm45"},

	{Name: "MiniMax M3", ModelTypes: []string{"minimax_m3"}, ToolParser: "minimax_m3", ReasoningParser: "minimax_m3"},
	{Name: "MiniMax M3", NameHints: []string{"minimax-m3", "minimax_m3"}, ToolParser: "minimax_m3", ReasoningParser: "minimax_m3"},
	{Name: "MiniMax M2", ModelTypes: []string{"minimax_m2"}, Architectures: []string{"MiniMaxM2"}, ToolParser: "minimax_m2", ReasoningParser: "minimax_m2"},
	{Name: "MiniMax M2", NameHints: []string{"minimax-m2", "minimax_m2"}, ToolParser: "minimax_m2", ReasoningParser: "minimax_m2"},

	{Name: "Gemma 4", ModelTypes: []string{"gemma4", "gemma4_text"}, ToolParser: "gemma4", ReasoningParser: "gemma4"},
	{Name: "Gemma 4", NameHints: []string{"gemma-4", "gemma4"}, ToolParser: "gemma4", ReasoningParser: "gemma4"},

	{Name: "Nemotron 3", ModelTypes: []string{"nemotron_h"}, ToolParser: "nemotron_nano", ReasoningParser: "nemotron_v3"},
	{Name: "Nemotron 3", NameHints: []string{"nemotron-3", "nemotron-nano", "nemotron_3"}, ToolParser: "nemotron_nano", ReasoningParser: "nemotron_v3"},
	{Name: "Nemotron (DeciLM)", ModelTypes: []string{"nemotron-nas"}, Architectures: []string{"DeciLM"}, ToolParser: "nemotron_deci", ReasoningParser: "nemotron_deci"},

	{Name: "Mistral", ModelTypes: []string{"mistral", "mistral3", "ministral", "ministral3", "pixtral"}, ToolParser: "mistral", ReasoningParser: "mistral"},
	{Name: "Mistral", NameHints: []string{"mistral", "ministral", "magistral", "devstral"}, ToolParser: "mistral", ReasoningParser: "mistral"},

	{Name: "Llama 4", ModelTypes: []string{"llama4"}, ToolParser: "llama4_pythonic"},
	{Name: "Llama 3", ModelTypes: []string{"llama"}, ToolParser: "llama3_json"},
	{Name: "Llama 3", NameHints: []string{"llama-3", "llama3"}, ToolParser: "llama3_json"},

	{Name: "Laguna", ModelTypes: []string{"laguna"}, ToolParser: "poolside_v1", ReasoningParser: "poolside_v1"},
	{Name: "Laguna", NameHints: []string{"laguna"}, ToolParser: "poolside_v1", ReasoningParser: "poolside_v1"},
	{Name: "LFM2", ModelTypes: []string{"lfm2", "lfm2_moe", "lfm2_vl"}, ToolParser: "lfm2"},
	{Name: "LFM2", NameHints: []string{"lfm2"}, ToolParser: "lfm2"},

	{Name: "Granite", ModelTypes: []string{"granite", "granitemoe", "granitemoehybrid"}, ToolParser: "granite4", ReasoningParser: "granite"},
	{Name: "Step 3", ModelTypes: []string{"step3_vl", "step3"}, ReasoningParser: "step3"},
	{Name: "Phi-4", ModelTypes: []string{"phi3"}, NameHints: []string{"phi-4"}, ToolParser: "phi4"},
	{Name: "Jamba", ModelTypes: []string{"jamba"}, ToolParser: "jamba"},
	{Name: "Inkling", NameHints: []string{"inkling"}, ToolParser: "inkling", ReasoningParser: "inkling"},
}

// LookupFamily returns the family of a model: the first row of Families
// whose config.json model_type or architectures match (and one of its
// NameHints, when it has any); failing that, the first row without config
// keys whose NameHints match the directory name.
func LookupFamily(modelType string, architectures []string, dirName string) (Family, bool) {
	mt := strings.ToLower(modelType)
	name := strings.ToLower(dirName)
	hinted := func(f *Family) bool {
		for _, h := range f.NameHints {
			if strings.Contains(name, h) {
				return true
			}
		}
		return false
	}
	for i := range Families {
		f := &Families[i]
		byConfig := mt != "" && slices.Contains(f.ModelTypes, mt)
		for _, a := range f.Architectures {
			for _, have := range architectures {
				byConfig = byConfig || strings.Contains(have, a)
			}
		}
		if byConfig && (len(f.NameHints) == 0 || hinted(f)) {
			return *f, true
		}
	}
	for i := range Families {
		f := &Families[i]
		if len(f.ModelTypes) == 0 && len(f.Architectures) == 0 && hinted(f) {
			return *f, true
		}
	}
	return Family{}, false
}
