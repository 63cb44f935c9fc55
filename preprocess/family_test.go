package preprocess

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// TestLookupFamily looks up a model directory (config.json model_type and
// architectures, the directory name) per row of familyTable, and checks that
// every row is reached by a case: a row no case reaches is shadowed by an
// earlier one or untested.
func TestLookupFamily(t *testing.T) {
	type want struct{ Name, Tool, Reasoning string }
	tests := []struct {
		modelType string
		arch      []string
		dir       string
		want      want
	}{
		{"gpt_oss", nil, "x", want{"gpt-oss", "harmony", "gpt_oss"}},
		{"", nil, "gpt-oss-20b", want{"gpt-oss", "harmony", "gpt_oss"}},
		{"qwen3_moe", nil, "Qwen3-Coder-30B-A3B-Instruct", want{"Qwen3-Coder", "qwen3_coder", ""}},
		{"", nil, "Qwen3-Coder-480B-A35B-Instruct", want{"Qwen3-Coder", "qwen3_coder", ""}},
		{"qwen3_5_moe", nil, "Qwen3.5-35B-A3B", want{"Qwen3.5", "qwen3_coder", "qwen3"}},
		{"", nil, "Qwen3.6-35B-A3B", want{"Qwen3.5", "qwen3_coder", "qwen3"}},
		{"qwen3_moe", nil, "Qwen3-30B-A3B", want{"Qwen3", "hermes", "qwen3"}},
		{"", nil, "Qwen3-8B", want{"Qwen3", "hermes", "qwen3"}},
		{"qwen2", nil, "Qwen2.5-7B-Instruct", want{"Qwen2.5", "hermes", ""}},
		{"deepseek_v4", nil, "DeepSeek-V4-Flash", want{"DeepSeek V4", "deepseek_v4", "deepseek_v4"}},
		{"", nil, "DeepSeek-V4-Pro", want{"DeepSeek V4", "deepseek_v4", "deepseek_v4"}},
		{"deepseek_v32", nil, "DeepSeek-V3.2-Exp", want{"DeepSeek V3.2", "deepseek_v32", "deepseek_v3_2"}},
		{"", nil, "DeepSeek-V3.2", want{"DeepSeek V3.2", "deepseek_v32", "deepseek_v3_2"}},
		{"deepseek_v3", nil, "DeepSeek-V3.1-Terminus", want{"DeepSeek V3.1", "deepseek_v31", "deepseek_v3_1"}},
		{"", nil, "DeepSeek-V3.1", want{"DeepSeek V3.1", "deepseek_v31", "deepseek_v3_1"}},
		{"deepseek_v3", nil, "DeepSeek-R1-0528", want{"DeepSeek R1", "deepseek_v3", "deepseek_r1"}},
		{"", nil, "DeepSeek-R1", want{"DeepSeek R1", "deepseek_v3", "deepseek_r1"}},
		{"kimi_k25", nil, "Kimi-K2.5", want{"Kimi K2.5", "kimi_k2", "kimi_k25"}},
		{"", nil, "Kimi-K2.5", want{"Kimi K2.5", "kimi_k2", "kimi_k25"}},
		{"kimi_k2", []string{"DeepseekV3ForCausalLM"}, "Kimi-K2-Thinking", want{"Kimi K2 Thinking", "kimi_k2", "kimi_k2"}},
		{"kimi_k2", []string{"DeepseekV3ForCausalLM"}, "Kimi-K2-Instruct-0905", want{"Kimi K2", "kimi_k2", ""}},
		{"kimi_k3", nil, "Kimi-K3", want{"Kimi K3", "kimi_k3", "kimi_k3"}},
		{"", nil, "Kimi-K3", want{"Kimi K3", "kimi_k3", "kimi_k3"}},
		{"", nil, "Kimi-K2-Instruct", want{"Kimi K2", "kimi_k2", ""}},
		{"deepseek_v3", nil, "DeepSeek-V3-0324", want{"DeepSeek V3", "deepseek_v3", ""}},
		{"", nil, "DeepSeek-V3-0324", want{"DeepSeek V3", "deepseek_v3", ""}},
		{"glm4_moe", nil, "GLM-4.7", want{"GLM-4.7", "glm47", "glm45"}},
		{"glm4_moe", nil, "GLM-4.5-Air", want{"GLM-4.5", "glm45", "glm45"}},
		{"", nil, "GLM-5", want{"GLM-4.7", "glm47", "glm45"}},
		{"", nil, "GLM-4.6", want{"GLM-4.5", "glm45", "glm45"}},
		{"minimax_m3", nil, "MiniMax-M3", want{"MiniMax M3", "minimax_m3", "minimax_m3"}},
		{"", nil, "MiniMax-M3", want{"MiniMax M3", "minimax_m3", "minimax_m3"}},
		{"minimax_m2", nil, "MiniMax-M2", want{"MiniMax M2", "minimax_m2", "minimax_m2"}},
		{"", nil, "MiniMax-M2.1", want{"MiniMax M2", "minimax_m2", "minimax_m2"}},
		{"gemma4", nil, "gemma-4-26b", want{"Gemma 4", "gemma4", "gemma4"}},
		{"", nil, "gemma-4-26b", want{"Gemma 4", "gemma4", "gemma4"}},
		{"nemotron_h", nil, "NVIDIA-Nemotron-3-Nano-30B-A3B", want{"Nemotron 3", "nemotron_nano", "nemotron_v3"}},
		{"", nil, "NVIDIA-Nemotron-3-Super", want{"Nemotron 3", "nemotron_nano", "nemotron_v3"}},
		{"nemotron-nas", []string{"DeciLMForCausalLM"}, "Llama-3_3-Nemotron-Super-49B-v1", want{"Nemotron (DeciLM)", "nemotron_deci", "nemotron_deci"}},
		{"mistral3", nil, "Devstral-Small-2507", want{"Mistral", "mistral", "mistral"}},
		{"", nil, "Magistral-Small-2509", want{"Mistral", "mistral", "mistral"}},
		{"llama4", nil, "Llama-4-Scout-17B-16E-Instruct", want{"Llama 4", "llama4_pythonic", ""}},
		{"llama", nil, "Meta-Llama-3.1-8B-Instruct", want{"Llama 3", "llama3_json", ""}},
		{"", nil, "Llama-3.2-1B-Instruct", want{"Llama 3", "llama3_json", ""}},
		{"phi3", nil, "Phi-4-mini-instruct", want{"Phi-4", "phi4", ""}},
		{"gemma3_text", []string{"Gemma3ForCausalLM"}, "rnj-1-instruct", want{"Rnj-1", "hermes", ""}},
		{"jamba", nil, "AI21-Jamba-1.5-Mini", want{"Jamba", "jamba", ""}},
		{"", nil, "Inkling-7B", want{"Inkling", "inkling", "inkling"}},
		{"some_new_arch", nil, "my-model", want{}},

		// Rows keyed by a name on another family's config.
		{"llama", []string{"LlamaForCausalLM"}, "Llama-xLAM-2-8b-fc-r", want{"xLAM", "xlam", ""}},
		{"qwen2", nil, "xLAM-2-32b-fc-r", want{"xLAM", "xlam", ""}},
		{"", nil, "xLAM-1b-fc-r", want{"xLAM", "xlam", ""}},
		{"gemma3_text", []string{"Gemma3ForCausalLM"}, "functiongemma-270m-it", want{"FunctionGemma", "functiongemma", ""}},
		{"", nil, "functiongemma-270m-it", want{"FunctionGemma", "functiongemma", ""}},
		{"deepseek_v3", []string{"DeepseekV3ForCausalLM"}, "GigaChat3-702B-A36B-preview", want{"GigaChat 3", "gigachat3", ""}},
		{"", nil, "GigaChat3-10B-A1.8B", want{"GigaChat 3", "gigachat3", ""}},
		{"deepseek_v3", []string{"DeepseekV3ForCausalLM"}, "GigaChat3.5-Lightning", want{"GigaChat 3.5", "gigachat35", ""}},
		{"", nil, "GigaChat3.5-Lightning", want{"GigaChat 3.5", "gigachat35", ""}},
		{"gpt_bigcode", []string{"GPTBigCodeForCausalLM"}, "granite-20b-functioncalling", want{"Granite-20B-FunctionCalling", "granite_20b_fc", ""}},
		{"", nil, "granite-20b-functioncalling", want{"Granite-20B-FunctionCalling", "granite_20b_fc", ""}},
		{"qwen3_vl", nil, "Holo2-8B", want{"Holo2", "hermes", "holo2"}},
		{"", nil, "Holo2-30B-A3B", want{"Holo2", "hermes", "holo2"}},

		// Granite 3.x against Granite 4.
		{"granitemoehybrid", nil, "granite-4.0-h-small", want{"Granite 4", "granite4", ""}},
		{"granite", []string{"GraniteForCausalLM"}, "granite-3.1-8b-instruct", want{"Granite 3.x", "granite", "granite"}},
		{"granite", []string{"GraniteForCausalLM"}, "granite-4.0-micro", want{"Granite 4", "granite4", ""}},
		{"", nil, "granite-3.3-8b-instruct", want{"Granite 3.x", "granite", "granite"}},
		{"", nil, "granite-4.0-tiny", want{"Granite 4", "granite4", ""}},

		{"step3p5", []string{"Step3p5ForCausalLM"}, "Step-3.5-Flash", want{"Step 3.5", "step3p5", "step3p5"}},
		{"", nil, "Step-3.5-Flash", want{"Step 3.5", "step3p5", "step3p5"}},
		{"step3_vl", nil, "step3", want{"Step 3", "step3", "step3"}},

		// The families of 2026, by config and by name.
		{"deepseek_v41", []string{"DeepseekV41ForCausalLM"}, "DeepSeek-V4.1-Flash", want{"DeepSeek V4.1", "deepseek_v41", "deepseek_v41"}},
		{"", nil, "DeepSeek-V4.1-Flash", want{"DeepSeek V4.1", "deepseek_v41", "deepseek_v41"}},
		{"deepseek_v4", []string{"DeepseekV4ForCausalLM"}, "DeepSeek-V4.1-Flash", want{"DeepSeek V4.1", "deepseek_v41", "deepseek_v41"}},
		{"muse_glimmer", []string{"MuseGlimmerForConditionalGeneration"}, "Muse-Glimmer-30B", want{"Muse Glimmer", "muse_glimmer", "muse_glimmer"}},
		{"", nil, "Muse-Glimmer-30B", want{"Muse Glimmer", "muse_glimmer", "muse_glimmer"}},
		{"hy_v3", []string{"HYV3ForCausalLM"}, "HY-V3", want{"Hunyuan HY-V3", "hy_v3", "hy_v3"}},
		{"", nil, "HY-V4-preview", want{"Hunyuan HY-V4", "hy_v4", "hy_v4"}},
		{"", nil, "Tencent-HY-V3", want{"Hunyuan HY-V3", "hy_v3", "hy_v3"}},
		{"hunyuan_v1_moe", []string{"HunYuanMoEV1ForCausalLM"}, "Hunyuan-A13B-Instruct", want{"Hunyuan-A13B", "hunyuan_a13b", "hunyuan_a13b"}},
		{"", nil, "Hunyuan-A13B-Instruct", want{"Hunyuan-A13B", "hunyuan_a13b", "hunyuan_a13b"}},
		{"cohere2_moe", []string{"Cohere2MoeForCausalLM"}, "command-a-plus", want{"Cohere Command", "cohere_command4", "cohere_command4"}},
		{"cohere2", []string{"Cohere2ForCausalLM"}, "c4ai-command-r7b-12-2024", want{"Cohere Command", "cohere_command4", "cohere_command4"}},
		{"", nil, "command-a-reasoning-08-2025", want{"Cohere Command", "cohere_command4", "cohere_command4"}},
		{"k2_horizon", []string{"K2HorizonForCausalLM"}, "K2-Horizon-7B", want{"K2 Horizon", "k2_horizon", "k2_horizon"}},
		{"", nil, "K2-Horizon-MoVA-36B-A4B", want{"K2 Horizon", "k2_horizon", "k2_horizon"}},
		{"lfm2", []string{"Lfm2ForCausalLM"}, "LFM2.5-1.2B-Thinking", want{"LFM2 Thinking", "lfm2", "lfm2_thinking"}},
		{"lfm2_moe", []string{"Lfm2MoeForCausalLM"}, "LFM2-8B-A1B", want{"LFM2", "lfm2", ""}},
		{"", nil, "LFM2.5-VL-1.6B", want{"LFM2", "lfm2", ""}},
		{"olmo3", []string{"Olmo3ForCausalLM"}, "Olmo-3-32B-Think", want{"Olmo 3 Think", "olmo3", "olmo3_think"}},
		{"olmo3", []string{"Olmo3ForCausalLM"}, "Olmo-3-7B-Instruct", want{"Olmo 3", "olmo3", ""}},
		{"", nil, "Olmo-3-7B-Think", want{"Olmo 3 Think", "olmo3", "olmo3_think"}},
		{"", nil, "Olmo-3-7B-Instruct", want{"Olmo 3", "olmo3", ""}},
		{"minicpm5", []string{"MiniCPM5ForCausalLM"}, "MiniCPM5-1B", want{"MiniCPM5", "minicpm5", ""}},
		{"", nil, "MiniCPM5-1B", want{"MiniCPM5", "minicpm5", ""}},
		{"interns1", []string{"InternS1ForConditionalGeneration"}, "Intern-S1-mini", want{"Intern-S1", "interns1", "intern_s1"}},
		{"", nil, "Intern-S1", want{"Intern-S1", "interns1", "intern_s1"}},
		{"internlm2", []string{"InternLM2ForCausalLM"}, "internlm2_5-7b-chat", want{"InternLM", "internlm", ""}},
		{"", nil, "internlm2-chat-7b", want{"InternLM", "internlm", ""}},
		{"apertus", []string{"ApertusForCausalLM"}, "Apertus-8B-Instruct-2509", want{"Apertus", "apertus", "apertus"}},
		{"", nil, "Apertus-70B-Instruct-2509", want{"Apertus", "apertus", "apertus"}},
		{"ernie4_5_moe", []string{"Ernie4_5_MoeForCausalLM"}, "ERNIE-4.5-21B-A3B-Thinking", want{"ERNIE 4.5 Thinking", "ernie45", "ernie45"}},
		{"ernie4_5_moe", []string{"Ernie4_5_MoeForCausalLM"}, "ERNIE-4.5-21B-A3B-PT", want{"ERNIE 4.5", "ernie45", ""}},
		{"", nil, "ERNIE-4.5-21B-A3B-Thinking", want{"ERNIE 4.5 Thinking", "ernie45", "ernie45"}},
		{"", nil, "ERNIE-4.5-0.3B-PT", want{"ERNIE 4.5", "ernie45", ""}},
		{"longcat_flash", []string{"LongcatFlashForCausalLM"}, "LongCat-Flash-Thinking", want{"LongCat-Flash-Thinking", "longcat", "longcat"}},
		{"longcat_flash", []string{"LongcatFlashForCausalLM"}, "LongCat-Flash-Chat", want{"LongCat-Flash", "longcat", ""}},
		{"", nil, "LongCat-Flash-Thinking-FP8", want{"LongCat-Flash-Thinking", "longcat", "longcat"}},
		{"", nil, "LongCat-Flash-Chat-FP8", want{"LongCat-Flash", "longcat", ""}},
		{"dots1", []string{"Dots1ForCausalLM"}, "dots.llm1.inst", want{"dots", "dots", "dots"}},
		{"", nil, "dots.llm1.inst", want{"dots", "dots", "dots"}},
		{"afmoe", []string{"AfmoeForCausalLM"}, "Trinity-Mini", want{"Trinity", "trinity", "qwen3"}},
		{"", nil, "Trinity-Large-Preview", want{"Trinity", "trinity", "qwen3"}},
		{"", nil, "Solar-Open-2-100B", want{"Solar Open 2", "solar_open2", "solar_open2"}},
		{"laguna", []string{"LagunaForCausalLM"}, "Laguna-XS", want{"Laguna", "poolside_v1", "poolside_v1"}},
		{"", nil, "laguna-m", want{"Laguna", "poolside_v1", "poolside_v1"}},
		{"ling3", []string{"Ling3ForCausalLM"}, "Ling-3.0-tiny", want{"Ling 3", "ling3", ""}},
		{"", nil, "Ling-3.0-flash", want{"Ling 3", "ling3", ""}},
		{"mimo_v2_flash", []string{"MiMoV2FlashForCausalLM"}, "MiMo-V2-Flash", want{"MiMo-V2", "mimo", "mimo"}},
		{"", nil, "MiMo-V2.5-Pro", want{"MiMo-V2", "mimo", "mimo"}},
		{"exaone4", []string{"Exaone4ForCausalLM"}, "EXAONE-4.0-32B", want{"EXAONE 4", "hermes", "exaone4"}},
		{"", nil, "EXAONE-4.0-1.2B", want{"EXAONE 4", "hermes", "exaone4"}},
	}
	reached := make([]bool, len(familyTable))
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s %v %s", tc.modelType, tc.arch, tc.dir), func(t *testing.T) {
			f, ok := lookupFamily(tc.modelType, tc.arch, tc.dir)
			require.Equal(t, tc.want != want{}, ok)
			if diff := cmp.Diff(tc.want, want{f.Name, f.ToolParser, f.ReasoningParser}); diff != "" {
				t.Errorf("LookupFamily (-want +got):\n%s", diff)
			}
			for i := range familyTable {
				if ok && cmp.Equal(f, familyTable[i]) {
					reached[i] = true
					break
				}
			}
		})
	}
	for i, f := range familyTable {
		require.True(t, reached[i], "row %d (%s, model types %v, architectures %v, hints %v) is reached by no case", i, f.Name, f.ModelTypes, f.Architectures, f.NameHints)
	}
}

// TestFamilyParsersRegistered keeps every parser name of the table
// resolvable by the registry and by the PRE table's canonical names.
func TestFamilyParsersRegistered(t *testing.T) {
	for _, f := range familyTable {
		if f.ToolParser != "" {
			_, ok := canonicalToolParser(f.ToolParser)
			require.True(t, ok, "%s: tool parser %s", f.Name, f.ToolParser)
		}
		if f.ReasoningParser != "" {
			_, ok := canonicalReasoningParser(f.ReasoningParser)
			require.True(t, ok, "%s: reasoning parser %s", f.Name, f.ReasoningParser)
		}
	}
}
