package preprocess

import (
	"slices"
	"strings"
)

// familyRow is one row of the model-family table: how to recognise a model
// and the parsers it is served with.
type familyRow struct {
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

// familyTable is the model-family table, most specific rows first: the first
// row that matches wins. Choices where serving stacks differ:
//   - MiniMax M2 uses the minimax_m2 reasoning parser (reasoning separated;
//     vLLM's minimax_m2_append_think keeps it in the content instead).
//   - DeepSeek V3 (not V3.1) and Qwen3-Coder have no reasoning parser; the
//     Qwen3.5 generation calls tools in the Qwen3-Coder XML format.
//   - Kimi K2 Instruct has no reasoning parser, K2 Thinking and K2.5 do.
//   - Models that share a config with another family are told apart by
//     the directory name: xLAM (Llama, Qwen2 or Mistral configs),
//     FunctionGemma (gemma3_text), GigaChat 3 (DeepSeek V3's config),
//     Granite-20B-FunctionCalling (gpt_bigcode), Holo2 (Qwen3-VL).
//   - Granite: a name with "granite-3" (or "granite3") is Granite 3.x —
//     <|tool_call|> JSON lists (tool parser granite) and the "Here's my
//     thought process:" reasoning of 3.2/3.3; granitemoehybrid and every
//     other granite/granitemoe model is Granite 4, which writes hermes
//     calls and does not reason. Granite-20B-FunctionCalling is its own row.
//   - A thinking variant that shares its config with a non-thinking one
//     (Olmo 3 Think, ERNIE 4.5 Thinking, LongCat-Flash-Thinking, LFM2.5
//     Thinking) is told apart by "think" in the directory name: only it
//     gets the reasoning parser, because the forced ones (olmo3, ernie45,
//     longcat) would read a plain answer as reasoning.
//   - Cohere Command A, R7B and Command A Reasoning (cohere2, cohere2_moe)
//     all run cohere_command4 (vLLM's cohere_command3 is the same grammar
//     here); Solar Open 2 and HY-V4 are recognised by name only (their
//     config.json model_type was not found published).
//   - DeepSeek V4.1 (spaced DSML) is told from V4 by its model_type
//     deepseek_v41, or by its name on V4's config, as V3.1 from V3.
var familyTable = []familyRow{
	// Rows keyed by a name hint on another family's config come first.
	{Name: "xLAM", ModelTypes: []string{"llama", "qwen2", "mistral", "mixtral"}, NameHints: []string{"xlam"}, ToolParser: "xlam"},
	{Name: "xLAM", NameHints: []string{"xlam"}, ToolParser: "xlam"},
	{Name: "FunctionGemma", ModelTypes: []string{"gemma3_text", "gemma3"}, NameHints: []string{"functiongemma"}, ToolParser: "functiongemma"},
	{Name: "FunctionGemma", NameHints: []string{"functiongemma"}, ToolParser: "functiongemma"},
	{Name: "GigaChat 3.5", ModelTypes: []string{"deepseek_v3"}, NameHints: []string{"gigachat3.5", "gigachat-3.5", "gigachat3_5", "gigachat35"}, ToolParser: "gigachat35"},
	{Name: "GigaChat 3.5", NameHints: []string{"gigachat3.5", "gigachat-3.5", "gigachat3_5", "gigachat35"}, ToolParser: "gigachat35"},
	{Name: "GigaChat 3", ModelTypes: []string{"deepseek_v3"}, NameHints: []string{"gigachat"}, ToolParser: "gigachat3"},
	{Name: "GigaChat 3", NameHints: []string{"gigachat"}, ToolParser: "gigachat3"},
	{Name: "Granite-20B-FunctionCalling", ModelTypes: []string{"gpt_bigcode"}, NameHints: []string{"granite-20b-functioncalling", "granite-20b-fc", "granite_20b_fc"}, ToolParser: "granite_20b_fc"},
	{Name: "Granite-20B-FunctionCalling", NameHints: []string{"granite-20b-functioncalling", "granite-20b-fc", "granite_20b_fc"}, ToolParser: "granite_20b_fc"},
	{Name: "Holo2", ModelTypes: []string{"qwen3_vl", "qwen3_vl_moe", "qwen3", "qwen3_moe"}, NameHints: []string{"holo2"}, ToolParser: "hermes", ReasoningParser: "holo2"},
	{Name: "Holo2", NameHints: []string{"holo2"}, ToolParser: "hermes", ReasoningParser: "holo2"},

	{Name: "gpt-oss", ModelTypes: []string{"gpt_oss"}, ToolParser: "harmony", ReasoningParser: "gpt_oss"},
	{Name: "gpt-oss", NameHints: []string{"gpt-oss", "gpt_oss"}, ToolParser: "harmony", ReasoningParser: "gpt_oss"},

	{Name: "Qwen3-Coder", ModelTypes: []string{"qwen3", "qwen3_moe", "qwen3_next"}, NameHints: []string{"coder"}, ToolParser: "qwen3_coder"},
	{Name: "Qwen3-Coder", NameHints: []string{"qwen3-coder", "qwen3_coder"}, ToolParser: "qwen3_coder"},
	{Name: "Qwen3.5", ModelTypes: []string{"qwen3_5", "qwen3_5_moe", "qwen3_5_text", "qwen3_5_moe_text"}, ToolParser: "qwen3_coder", ReasoningParser: "qwen3"},
	{Name: "Qwen3.5", NameHints: []string{"qwen3.5", "qwen3.6", "qwen3_5"}, ToolParser: "qwen3_coder", ReasoningParser: "qwen3"},
	{Name: "Qwen3", ModelTypes: []string{"qwen3", "qwen3_moe", "qwen3_next", "qwen3_vl", "qwen3_vl_moe"}, ToolParser: "hermes", ReasoningParser: "qwen3"},
	{Name: "Qwen3", NameHints: []string{"qwen3"}, ToolParser: "hermes", ReasoningParser: "qwen3"},
	{Name: "Qwen2.5", ModelTypes: []string{"qwen2", "qwen2_moe"}, ToolParser: "hermes"},

	{Name: "DeepSeek V4.1", ModelTypes: []string{"deepseek_v41"}, ToolParser: "deepseek_v41", ReasoningParser: "deepseek_v41"},
	{Name: "DeepSeek V4.1", ModelTypes: []string{"deepseek_v4"}, NameHints: []string{"v4.1", "v4_1", "v41"}, ToolParser: "deepseek_v41", ReasoningParser: "deepseek_v41"},
	{Name: "DeepSeek V4.1", NameHints: []string{"deepseek-v4.1", "deepseek_v41", "deepseek-v41", "deepseek_v4_1"}, ToolParser: "deepseek_v41", ReasoningParser: "deepseek_v41"},
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

	{Name: "Granite 4", ModelTypes: []string{"granitemoehybrid"}, ToolParser: "granite4"},
	{Name: "Granite 3.x", ModelTypes: []string{"granite", "granitemoe", "granitemoeshared"}, NameHints: []string{"granite-3", "granite3"}, ToolParser: "granite", ReasoningParser: "granite"},
	{Name: "Granite 4", ModelTypes: []string{"granite", "granitemoe", "granitemoeshared"}, ToolParser: "granite4"},
	{Name: "Granite 3.x", NameHints: []string{"granite-3", "granite3"}, ToolParser: "granite", ReasoningParser: "granite"},
	{Name: "Granite 4", NameHints: []string{"granite"}, ToolParser: "granite4"},

	{Name: "Step 3.5", ModelTypes: []string{"step3p5"}, Architectures: []string{"Step3p5ForCausalLM"}, ToolParser: "step3p5", ReasoningParser: "step3p5"},
	{Name: "Step 3.5", NameHints: []string{"step-3.5", "step3.5", "step3p5"}, ToolParser: "step3p5", ReasoningParser: "step3p5"},
	{Name: "Step 3", ModelTypes: []string{"step3_vl", "step3"}, ToolParser: "step3", ReasoningParser: "step3"},
	{Name: "Rnj-1", NameHints: []string{"rnj-1", "rnj_1"}, ToolParser: "hermes"},
	{Name: "Phi-4", ModelTypes: []string{"phi3"}, NameHints: []string{"phi-4"}, ToolParser: "phi4"},
	{Name: "Jamba", ModelTypes: []string{"jamba"}, ToolParser: "jamba"},
	{Name: "Inkling", NameHints: []string{"inkling"}, ToolParser: "inkling", ReasoningParser: "inkling"},

	// The families of 2026 (PARSER_CASES.md, "Families of the 2026 models").
	{Name: "Muse Glimmer", ModelTypes: []string{"muse_glimmer"}, Architectures: []string{"MuseGlimmerFor"}, ToolParser: "muse_glimmer", ReasoningParser: "muse_glimmer"},
	{Name: "Muse Glimmer", NameHints: []string{"muse-glimmer", "muse_glimmer", "glimmer"}, ToolParser: "muse_glimmer", ReasoningParser: "muse_glimmer"},
	{Name: "Hunyuan HY-V3", ModelTypes: []string{"hy_v3"}, Architectures: []string{"HYV3ForCausalLM"}, ToolParser: "hy_v3", ReasoningParser: "hy_v3"},
	{Name: "Hunyuan HY-V4", NameHints: []string{"hy-v4", "hy_v4", "hunyuan-v4"}, ToolParser: "hy_v4", ReasoningParser: "hy_v4"},
	{Name: "Hunyuan HY-V3", NameHints: []string{"hy-v3", "hy_v3", "hunyuan-v3"}, ToolParser: "hy_v3", ReasoningParser: "hy_v3"},
	{Name: "Hunyuan-A13B", ModelTypes: []string{"hunyuan_v1_moe"}, Architectures: []string{"HunYuanMoEV1ForCausalLM"}, ToolParser: "hunyuan_a13b", ReasoningParser: "hunyuan_a13b"},
	{Name: "Hunyuan-A13B", NameHints: []string{"hunyuan-a13b", "hunyuan_a13b"}, ToolParser: "hunyuan_a13b", ReasoningParser: "hunyuan_a13b"},
	{Name: "Cohere Command", ModelTypes: []string{"cohere2_moe", "cohere2"}, Architectures: []string{"Cohere2MoeForCausalLM", "Cohere2ForCausalLM"}, ToolParser: "cohere_command4", ReasoningParser: "cohere_command4"},
	{Name: "Cohere Command", NameHints: []string{"command-a", "command-r7b", "c4ai-command"}, ToolParser: "cohere_command4", ReasoningParser: "cohere_command4"},
	{Name: "K2 Horizon", ModelTypes: []string{"k2_horizon"}, Architectures: []string{"K2HorizonForCausalLM"}, ToolParser: "k2_horizon", ReasoningParser: "k2_horizon"},
	{Name: "K2 Horizon", NameHints: []string{"k2-horizon", "k2_horizon"}, ToolParser: "k2_horizon", ReasoningParser: "k2_horizon"},
	{Name: "LFM2 Thinking", ModelTypes: []string{"lfm2", "lfm2_moe", "lfm2_vl"}, NameHints: []string{"think"}, ToolParser: "lfm2", ReasoningParser: "lfm2_thinking"},
	{Name: "LFM2", ModelTypes: []string{"lfm2", "lfm2_moe", "lfm2_vl"}, Architectures: []string{"Lfm2ForCausalLM", "Lfm2MoeForCausalLM"}, ToolParser: "lfm2"},
	{Name: "LFM2", NameHints: []string{"lfm2"}, ToolParser: "lfm2"},
	{Name: "Olmo 3 Think", ModelTypes: []string{"olmo3"}, NameHints: []string{"think"}, ToolParser: "olmo3", ReasoningParser: "olmo3_think"},
	{Name: "Olmo 3", ModelTypes: []string{"olmo3"}, Architectures: []string{"Olmo3ForCausalLM"}, ToolParser: "olmo3"},
	{Name: "Olmo 3 Think", NameHints: []string{"olmo-3-think", "olmo3-think", "olmo-3-32b-think", "olmo-3-7b-think"}, ToolParser: "olmo3", ReasoningParser: "olmo3_think"},
	{Name: "Olmo 3", NameHints: []string{"olmo-3", "olmo3"}, ToolParser: "olmo3"},
	{Name: "MiniCPM5", ModelTypes: []string{"minicpm5"}, Architectures: []string{"MiniCPM5ForCausalLM"}, ToolParser: "minicpm5"},
	{Name: "MiniCPM5", NameHints: []string{"minicpm5", "minicpm-5"}, ToolParser: "minicpm5"},
	{Name: "Intern-S1", ModelTypes: []string{"interns1"}, Architectures: []string{"InternS1ForConditionalGeneration"}, ToolParser: "interns1", ReasoningParser: "intern_s1"},
	{Name: "Intern-S1", NameHints: []string{"intern-s1", "intern_s1", "interns1"}, ToolParser: "interns1", ReasoningParser: "intern_s1"},
	{Name: "InternLM", ModelTypes: []string{"internlm2", "internlm3"}, Architectures: []string{"InternLM2ForCausalLM", "InternLM3ForCausalLM"}, ToolParser: "internlm"},
	{Name: "InternLM", NameHints: []string{"internlm"}, ToolParser: "internlm"},
	{Name: "Apertus", ModelTypes: []string{"apertus"}, Architectures: []string{"ApertusForCausalLM"}, ToolParser: "apertus", ReasoningParser: "apertus"},
	{Name: "Apertus", NameHints: []string{"apertus"}, ToolParser: "apertus", ReasoningParser: "apertus"},
	{Name: "ERNIE 4.5 Thinking", ModelTypes: []string{"ernie4_5_moe", "ernie4_5", "ernie4_5_moe_vl"}, NameHints: []string{"think"}, ToolParser: "ernie45", ReasoningParser: "ernie45"},
	{Name: "ERNIE 4.5", ModelTypes: []string{"ernie4_5_moe", "ernie4_5", "ernie4_5_moe_vl"}, ToolParser: "ernie45"},
	{Name: "ERNIE 4.5 Thinking", NameHints: []string{"ernie-4.5-21b-a3b-thinking", "ernie-4.5-vl-28b-a3b-thinking"}, ToolParser: "ernie45", ReasoningParser: "ernie45"},
	{Name: "ERNIE 4.5", NameHints: []string{"ernie-4.5", "ernie4.5", "ernie4_5"}, ToolParser: "ernie45"},
	{Name: "LongCat-Flash-Thinking", ModelTypes: []string{"longcat_flash"}, NameHints: []string{"think"}, ToolParser: "longcat", ReasoningParser: "longcat"},
	{Name: "LongCat-Flash", ModelTypes: []string{"longcat_flash"}, Architectures: []string{"LongcatFlashForCausalLM"}, ToolParser: "longcat"},
	{Name: "LongCat-Flash-Thinking", NameHints: []string{"longcat-flash-thinking"}, ToolParser: "longcat", ReasoningParser: "longcat"},
	{Name: "LongCat-Flash", NameHints: []string{"longcat"}, ToolParser: "longcat"},
	{Name: "dots", ModelTypes: []string{"dots1"}, Architectures: []string{"Dots1ForCausalLM"}, ToolParser: "dots", ReasoningParser: "dots"},
	{Name: "dots", NameHints: []string{"dots.llm", "dots-llm", "dots1"}, ToolParser: "dots", ReasoningParser: "dots"},
	{Name: "Trinity", ModelTypes: []string{"afmoe"}, Architectures: []string{"AfmoeForCausalLM"}, ToolParser: "trinity", ReasoningParser: "qwen3"},
	{Name: "Trinity", NameHints: []string{"trinity"}, ToolParser: "trinity", ReasoningParser: "qwen3"},
	{Name: "Solar Open 2", NameHints: []string{"solar-open-2", "solar-open2", "solar_open2", "solar_open_2"}, ToolParser: "solar_open2", ReasoningParser: "solar_open2"},
	{Name: "Laguna", ModelTypes: []string{"laguna", "poolside_v1"}, Architectures: []string{"LagunaForCausalLM"}, ToolParser: "poolside_v1", ReasoningParser: "poolside_v1"},
	{Name: "Laguna", NameHints: []string{"laguna"}, ToolParser: "poolside_v1", ReasoningParser: "poolside_v1"},
	{Name: "Ling 3", ModelTypes: []string{"ling3"}, Architectures: []string{"Ling3ForCausalLM"}, ToolParser: "ling3"},
	{Name: "Ling 3", NameHints: []string{"ling-3", "ling3"}, ToolParser: "ling3"},
	{Name: "MiMo-V2", ModelTypes: []string{"mimo_v2", "mimo_v2_flash"}, Architectures: []string{"MiMoV2ForCausalLM", "MiMoV2FlashForCausalLM"}, ToolParser: "mimo", ReasoningParser: "mimo"},
	{Name: "MiMo-V2", NameHints: []string{"mimo-v2", "mimo_v2"}, ToolParser: "mimo", ReasoningParser: "mimo"},
	{Name: "EXAONE 4", ModelTypes: []string{"exaone4"}, Architectures: []string{"Exaone4ForCausalLM"}, ToolParser: "hermes", ReasoningParser: "exaone4"},
	{Name: "EXAONE 4", NameHints: []string{"exaone-4", "exaone4"}, ToolParser: "hermes", ReasoningParser: "exaone4"},
}

// lookupFamily returns the family of a model: the first row of familyTable
// whose config.json model_type or architectures match (and one of its
// NameHints, when it has any); failing that, the first row without config
// keys whose NameHints match the directory name.
func lookupFamily(modelType string, architectures []string, dirName string) (familyRow, bool) {
	mt := strings.ToLower(modelType)
	name := strings.ToLower(dirName)
	hinted := func(f *familyRow) bool {
		for _, h := range f.NameHints {
			if strings.Contains(name, h) {
				return true
			}
		}
		return false
	}
	for i := range familyTable {
		f := &familyTable[i]
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
	for i := range familyTable {
		f := &familyTable[i]
		if len(f.ModelTypes) == 0 && len(f.Architectures) == 0 && hinted(f) {
			return *f, true
		}
	}
	return familyRow{}, false
}
