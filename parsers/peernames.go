package parsers

import (
	"slices"
	"strings"
)

// NameKind says which registry a parser name belongs to.
type NameKind uint8

const (
	ToolName      NameKind = iota // a tool-call parser name (Config.ToolParser)
	ReasoningName                 // a reasoning parser name (Config.ReasoningParser)
)

var nameKindNames = [...]string{"tool", "reasoning"}

func (k NameKind) String() string { return enumName(nameKindNames[:], k, "NameKind") }

// NameInfo describes one parser name: what New runs for it and whom it is
// for. Names lists one per name and kind.
type NameInfo struct {
	Name    string   // the name, lower case
	Kind    NameKind // the registry it belongs to
	Grammar string   // the grammar New runs for it; "" when this build does not accept it
	Models  string   // the models it serves
	// Peers are the serving engines that register this spelling: "vLLM",
	// "SGLang", "Dynamo" (NVIDIA Dynamo's parsers), in that order.
	Peers []string
	// Note says where a spelling no peer registers comes from, or how a
	// spelling the peers read differently is resolved here.
	Note string
}

// Names lists every parser name New accepts and every name vLLM, SGLang or
// NVIDIA Dynamo registers for the same purpose, tool-call names first, each
// kind sorted by name: the grammar each runs here, the models it serves and
// the peers that use the spelling. A peer's name this build does not accept
// has an empty Grammar. PARSER_CASES.md renders the list.
func Names() []NameInfo {
	out := make([]NameInfo, 0, len(peerNames))
	for _, r := range peerNames {
		n := NameInfo{Name: r.name, Kind: r.kind, Models: r.models, Note: r.note}
		if r.kind == ToolName {
			if e, ok := toolRegistry[r.name]; ok {
				n.Grammar = e.info.Grammar
			}
		} else if s, ok := reasoningRegistry[r.name]; ok {
			n.Grammar = s.name
		}
		for p := vllm; p <= dynamo; p <<= 1 {
			if r.peers&p != 0 {
				n.Peers = append(n.Peers, p.String())
			}
		}
		out = append(out, n)
	}
	slices.SortFunc(out, func(a, b NameInfo) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// peer is one serving engine whose parser names New accepts (a set of them
// as a bit mask).
type peer uint8

const (
	vllm   peer = 1 << iota // vLLM: --tool-call-parser, --reasoning-parser
	sglang                  // SGLang: the same flags
	dynamo                  // NVIDIA Dynamo: dynamo-parsers (v1) and its v2 registry
)

// peerNameOf names each peer, indexed by its bit.
var peerNameOf = [...]string{vllm: "vLLM", sglang: "SGLang", dynamo: "Dynamo"}

func (p peer) String() string { return enumName(peerNameOf[:], p, "peer") }

// nameRow is one parser name: its kind, the peers that register the
// spelling, the models it serves and, where needed, a note.
type nameRow struct {
	name   string
	kind   NameKind
	peers  peer
	models string
	note   string
}

// Notes shared by several rows.
const (
	noteKimiK2    = "as a reasoning name vLLM and SGLang mean Kimi K2.5 / K2-Thinking's <think> span, which the section begin also ends (grammar kimi_k25)"
	noteDash      = "the dash spelling of the underscore name (Dynamo registers both for DeepSeek V4); no peer registers it"
	noteNoForceV3 = "vLLM and SGLang read it unforced; here it runs the forced <think> grammar and the request's DeepSeek thinking toggle (PRE.2) turns it off"
)

// peerNames is every parser name the peers register (vLLM's tool and
// reasoning parser managers, SGLang's FunctionCallParser and ReasoningParser
// maps, Dynamo's v1 parser map and v2 registry), plus the library's own
// spellings. Where two peers read one spelling differently the row's note
// says which reading New takes. TestPeerNames holds it to the registry.
var peerNames = []nameRow{
	// Tool-call parser names.
	{"apertus", ToolName, vllm, "Swiss AI Apertus", ""},
	{"apertus2509", ToolName, sglang, "Swiss AI Apertus 2509", ""},
	{"cohere", ToolName, 0, "Cohere Command A, R7B", "ollama's parser name: cohere_command4's grammar"},
	{"glimmer", ToolName, 0, "Meta Muse Glimmer", "ollama's parser name: muse_glimmer's grammar"},
	{"cohere_command3", ToolName, vllm, "Cohere Command R7B, Command A", ""},
	{"cohere_command4", ToolName, vllm | sglang, "Cohere Command A Reasoning", ""},
	{"deepseek-v4", ToolName, dynamo, "DeepSeek V4 (Flash, Pro)", ""},
	{"deepseek-v41", ToolName, 0, "DeepSeek V4.1 (Flash)", noteDash},
	{"deepseek_v3", ToolName, vllm | dynamo, "DeepSeek V3, R1-0528", ""},
	{"deepseek_v31", ToolName, vllm, "DeepSeek V3.1, V3.1-Terminus, V3.2-Exp", ""},
	{"deepseek_v32", ToolName, vllm, "DeepSeek V3.2", ""},
	{"deepseek_v3_1", ToolName, dynamo, "DeepSeek V3.1, V3.1-Terminus, V3.2-Exp", ""},
	{"deepseek_v3_2", ToolName, dynamo, "DeepSeek V3.2", ""},
	{"deepseek_v4", ToolName, vllm | dynamo, "DeepSeek V4 (Flash, Pro)", ""},
	{"deepseek_v41", ToolName, vllm | dynamo, "DeepSeek V4.1 (Flash)", ""},
	{"deepseekv3", ToolName, sglang, "DeepSeek V3, R1-0528", ""},
	{"deepseekv31", ToolName, sglang, "DeepSeek V3.1, V3.1-Terminus, V3.2-Exp", ""},
	{"deepseekv32", ToolName, sglang, "DeepSeek V3.2", ""},
	{"deepseekv4", ToolName, sglang | dynamo, "DeepSeek V4 (Flash, Pro)", ""},
	{"deepseekv41", ToolName, 0, "DeepSeek V4.1 (Flash)", "SGLang's spelling: it ships a V4.1 detector but registers no name for it"},
	{"default", ToolName, dynamo, "Nemotron and Llama JSON (Dynamo's default)", ""},
	{"dots", ToolName, vllm | sglang, "rednote dots.llm", ""},
	{"ernie45", ToolName, vllm, "Baidu ERNIE 4.5", ""},
	{"functiongemma", ToolName, vllm, "Google FunctionGemma", ""},
	{"gemma-4", ToolName, dynamo, "Google Gemma 4", ""},
	{"gemma4", ToolName, vllm | sglang | dynamo, "Google Gemma 4", ""},
	{"gigachat3", ToolName, vllm | sglang, "Sber GigaChat 3", ""},
	{"gigachat35", ToolName, sglang, "Sber GigaChat 3.5", ""},
	{"glm", ToolName, sglang, "Zhipu GLM-4.5, GLM-4.6", ""},
	{"glm45", ToolName, vllm | sglang, "Zhipu GLM-4.5, GLM-4.6", ""},
	{"glm47", ToolName, vllm | sglang | dynamo, "Zhipu GLM-4.7, GLM-5", ""},
	{"gpt-oss", ToolName, sglang, "OpenAI gpt-oss", ""},
	{"granite", ToolName, vllm, "IBM Granite 3.x", ""},
	{"granite_20b_fc", ToolName, 0, "IBM Granite-20B-FunctionCalling", "the underscore spelling of granite-20b-fc (the name preprocess's family table uses)"},
	{"intern-s1", ToolName, 0, "Shanghai AI Lab Intern-S1", "vLLM's reasoning-parser spelling, accepted for the tool parser too"},
	{"lfm2-thinking", ToolName, 0, "Liquid LFM2, LFM2.5 (thinking)", "ollama's parser name for thinking LFM2 models: lfm2's grammar"},
	{"granite-20b-fc", ToolName, vllm, "IBM Granite-20B-FunctionCalling", ""},
	{"granite4", ToolName, vllm, "IBM Granite 4", ""},
	{"harmony", ToolName, dynamo, "OpenAI gpt-oss", ""},
	{"hermes", ToolName, vllm | sglang | dynamo, "Hermes 2 Pro / 3, Qwen2.5, Qwen3, EXAONE 4", ""},
	{"hunyuan", ToolName, sglang, "Tencent Hunyuan-A13B, HY-V3", ""},
	{"hunyuan_a13b", ToolName, vllm, "Tencent Hunyuan-A13B", ""},
	{"hy_v3", ToolName, vllm, "Tencent Hunyuan HY-V3", ""},
	{"hy_v4", ToolName, vllm, "Tencent Hunyuan HY-V4 (preview)", ""},
	{"inkling", ToolName, vllm | sglang | dynamo, "thinkingmachines Inkling", ""},
	{"internlm", ToolName, vllm, "Shanghai AI Lab InternLM 2 / 2.5", ""},
	{"interns1", ToolName, sglang, "Shanghai AI Lab Intern-S1", ""},
	{"jamba", ToolName, vllm | dynamo, "AI21 Jamba", ""},
	{"k2_horizon", ToolName, vllm | sglang, "K2 Horizon", ""},
	{"kimi-k3", ToolName, dynamo, "Moonshot Kimi K3", ""},
	{"kimi_k2", ToolName, vllm | sglang | dynamo, "Moonshot Kimi K2, K2-Thinking, K2.5", ""},
	{"kimi_k3", ToolName, vllm | sglang | dynamo, "Moonshot Kimi K3", ""},
	{"lfm2", ToolName, vllm | sglang, "Liquid LFM2, LFM2.5", ""},
	{"ling3", ToolName, vllm | sglang, "inclusionAI Ling 3, Ring 3", ""},
	{"llama3", ToolName, sglang, "Meta Llama 3.1–3.3, Llama 4 (JSON)", ""},
	{"llama3_json", ToolName, vllm | dynamo, "Meta Llama 3.1–3.3 (JSON)", ""},
	{"llama4_json", ToolName, vllm, "Meta Llama 4 (JSON)", ""},
	{"llama4_pythonic", ToolName, vllm, "Meta Llama 4 (pythonic)", ""},
	{"longcat", ToolName, vllm, "Meituan LongCat-Flash", ""},
	{"mimo", ToolName, vllm | sglang, "Xiaomi MiMo-V2", ""},
	{"minicpm5", ToolName, vllm | sglang, "OpenBMB MiniCPM5", ""},
	{"minimax-m2", ToolName, sglang, "MiniMax M2, M2.1", ""},
	{"minimax-m3", ToolName, sglang | dynamo, "MiniMax M3", ""},
	{"minimax-m3-nom", ToolName, dynamo, "MiniMax M3", ""},
	{"minimax_m2", ToolName, vllm | dynamo, "MiniMax M2, M2.1", ""},
	{"minimax_m3", ToolName, vllm | dynamo, "MiniMax M3", ""},
	{"minimax_m3_nom", ToolName, dynamo, "MiniMax M3", ""},
	{"mistral", ToolName, vllm | sglang | dynamo, "Mistral, Mixtral, Devstral, Magistral, Ministral", ""},
	{"muse", ToolName, sglang, "Meta Muse-Glimmer", ""},
	{"muse_glimmer", ToolName, vllm | dynamo, "Meta Muse-Glimmer", ""},
	{"nemotron_deci", ToolName, dynamo, "NVIDIA Llama-Nemotron (<TOOLCALL>)", ""},
	{"nemotron_nano", ToolName, dynamo, "NVIDIA Nemotron Nano 3", ""},
	{"olmo3", ToolName, vllm, "AllenAI Olmo 3", ""},
	{"openai", ToolName, vllm, "OpenAI gpt-oss", ""},
	{"phi4", ToolName, dynamo, "Microsoft Phi-4-mini", ""},
	{"phi4_mini_json", ToolName, vllm, "Microsoft Phi-4-mini", ""},
	{"poolside_v1", ToolName, vllm | sglang, "poolside Laguna", ""},
	{"pythonic", ToolName, vllm | sglang | dynamo, "Llama 3.2, Llama 4, ToolACE (pythonic)", ""},
	{"qwen", ToolName, sglang, "Qwen2.5, Qwen3", ""},
	{"qwen25", ToolName, sglang | dynamo, "Qwen2.5, Qwen3", ""},
	{"qwen3_coder", ToolName, vllm | sglang | dynamo, "Qwen3-Coder, Qwen3.5", ""},
	{"qwen3_xml", ToolName, vllm, "Qwen3-Coder, Qwen3.5", ""},
	{"seed_oss", ToolName, vllm, "ByteDance Seed-OSS", ""},
	{"solar_open2", ToolName, vllm, "Upstage Solar Open 2", ""},
	{"spark25", ToolName, sglang, "iFlytek Spark 2.5", ""},
	{"step3", ToolName, vllm | sglang, "StepFun Step-3", ""},
	{"step3p5", ToolName, vllm | sglang, "StepFun Step-3.5", ""},
	{"trinity", ToolName, sglang, "Arcee Trinity", ""},
	{"xlam", ToolName, vllm, "Salesforce xLAM", ""},

	// Reasoning parser names.
	{"apertus", ReasoningName, 0, "Swiss AI Apertus", "the name of vLLM's Apertus reasoning parser file; SGLang registers apertus2509"},
	{"intern-s1", ReasoningName, vllm, "Shanghai AI Lab Intern-S1", ""},
	{"intern_s1", ReasoningName, 0, "Shanghai AI Lab Intern-S1", "the underscore spelling (the name preprocess's family table uses)"},
	{"lfm2-thinking", ReasoningName, 0, "Liquid LFM2, LFM2.5 (thinking)", "ollama's parser name: <think> pairs"},
	{"lfm2_thinking", ReasoningName, 0, "Liquid LFM2, LFM2.5 (thinking)", "the underscore spelling (the name preprocess's family table uses)"},
	{"olmo3-think", ReasoningName, 0, "AllenAI Olmo 3 Think", "ollama's parser name: forced <think>"},
	{"olmo3_think", ReasoningName, 0, "AllenAI Olmo 3 Think", "the underscore spelling (the name preprocess's family table uses)"},
	{"apertus2509", ReasoningName, sglang, "Swiss AI Apertus 2509", ""},
	{"basic", ReasoningName, dynamo, "any <think>…</think> model", ""},
	{"cohere", ReasoningName, 0, "Cohere Command A Reasoning", "ollama's parser name: cohere_command4's grammar"},
	{"glimmer", ReasoningName, 0, "Meta Muse Glimmer", "ollama's parser name: muse_glimmer's grammar"},
	{"k2_horizon", ReasoningName, vllm, "IFM K2 Horizon", ""},
	{"cohere_command3", ReasoningName, vllm, "Cohere Command A", ""},
	{"cohere_command4", ReasoningName, vllm | sglang, "Cohere Command A Reasoning", ""},
	{"deepseek-r1", ReasoningName, sglang, "DeepSeek R1, QwQ", ""},
	{"deepseek-v3", ReasoningName, sglang, "DeepSeek V3.1, V3.2", noteNoForceV3},
	{"deepseek-v4", ReasoningName, sglang | dynamo, "DeepSeek V4 (Flash, Pro)", ""},
	{"deepseek-v41", ReasoningName, 0, "DeepSeek V4.1 (Flash)", noteDash},
	{"deepseek_r1", ReasoningName, vllm | dynamo, "DeepSeek R1, QwQ", ""},
	{"deepseek_v3", ReasoningName, vllm | dynamo, "DeepSeek V3.1, V3.2", noteNoForceV3},
	{"deepseek_v3_1", ReasoningName, dynamo, "DeepSeek V3.1", ""},
	{"deepseek_v3_2", ReasoningName, dynamo, "DeepSeek V3.2", ""},
	{"deepseek_v4", ReasoningName, vllm | dynamo, "DeepSeek V4 (Flash, Pro)", ""},
	{"deepseek_v41", ReasoningName, vllm | dynamo, "DeepSeek V4.1 (Flash)", ""},
	{"deepseekv4", ReasoningName, dynamo, "DeepSeek V4 (Flash, Pro)", ""},
	{"deepseekv41", ReasoningName, 0, "DeepSeek V4.1 (Flash)", "the spelling of the deepseekv41 tool-call name"},
	{"dots", ReasoningName, sglang, "rednote dots.llm", "SGLang maps it to its Qwen3 detector: qwen3's grammar"},
	{"ernie45", ReasoningName, vllm, "Baidu ERNIE 4.5", ""},
	{"exaone4", ReasoningName, 0, "LG EXAONE 4.0", "proposed for vLLM (PR #22617) and not merged; EXAONE 4 writes <think> and hermes calls, so it runs qwen3's grammar"},
	{"longcat", ReasoningName, 0, "Meituan LongCat-Flash", "vLLM ships a LongCat reasoning parser without registering a name; this is the tool-call name's spelling"},
	{"gemma-4", ReasoningName, dynamo, "Google Gemma 4", ""},
	{"gemma4", ReasoningName, vllm | sglang | dynamo, "Google Gemma 4", ""},
	{"glm45", ReasoningName, vllm | sglang | dynamo, "Zhipu GLM-4.5, GLM-4.6", ""},
	{"glm47", ReasoningName, vllm, "Zhipu GLM-4.7, GLM-5", ""},
	{"gpt-oss", ReasoningName, sglang, "OpenAI gpt-oss", ""},
	{"gpt_oss", ReasoningName, dynamo, "OpenAI gpt-oss", ""},
	{"granite", ReasoningName, vllm | dynamo, "IBM Granite 3.2, 3.3", ""},
	{"holo2", ReasoningName, vllm, "H Company Holo2", ""},
	{"hunyuan", ReasoningName, sglang, "Tencent Hunyuan-A13B, HY-V3", ""},
	{"hunyuan_a13b", ReasoningName, vllm, "Tencent Hunyuan-A13B", ""},
	{"hy_v3", ReasoningName, vllm, "Tencent Hunyuan HY-V3", ""},
	{"hy_v4", ReasoningName, vllm, "Tencent Hunyuan HY-V4 (preview)", ""},
	{"inkling", ReasoningName, vllm | sglang | dynamo, "thinkingmachines Inkling", ""},
	{"interns1", ReasoningName, sglang, "Shanghai AI Lab Intern-S1", ""},
	{"kimi", ReasoningName, sglang | dynamo, "Moonshot Kimi-VL Thinking, Kimi K1.5 (◁think▷)", ""},
	{"kimi-k3", ReasoningName, dynamo, "Moonshot Kimi K3", ""},
	{"kimi_k2", ReasoningName, vllm | sglang, "Moonshot Kimi K2-Thinking, K2.5", noteKimiK2},
	{"kimi_k25", ReasoningName, dynamo, "Moonshot Kimi K2-Thinking, K2.5", ""},
	{"kimi_k3", ReasoningName, vllm | sglang | dynamo, "Moonshot Kimi K3", ""},
	{"mimo", ReasoningName, vllm | sglang, "Xiaomi MiMo-V2", ""},
	{"minimax", ReasoningName, sglang, "MiniMax M2, M2.1", "SGLang forces a Qwen3-style <think>; here minimax_m2's grammar, whose tool-start tokens also end the span"},
	{"minimax-append-think", ReasoningName, sglang, "MiniMax M2 (think kept in content)", ""},
	{"minimax-m3", ReasoningName, sglang | dynamo, "MiniMax M3", ""},
	{"minimax_append_think", ReasoningName, dynamo, "MiniMax M2 (think kept in content)", ""},
	{"minimax_m2", ReasoningName, vllm | dynamo, "MiniMax M2, M2.1", ""},
	{"minimax_m2_append_think", ReasoningName, vllm, "MiniMax M2 (think kept in content)", ""},
	{"minimax_m3", ReasoningName, vllm | dynamo, "MiniMax M3", ""},
	{"mistral", ReasoningName, vllm | sglang | dynamo, "Mistral Magistral, Small 4, Medium 3.2", ""},
	{"muse", ReasoningName, sglang, "Meta Muse-Glimmer", ""},
	{"muse_glimmer", ReasoningName, dynamo, "Meta Muse-Glimmer", ""},
	{"nemotron3", ReasoningName, dynamo, "NVIDIA Nemotron 3 Nano / Super", ""},
	{"nemotron_3", ReasoningName, sglang, "NVIDIA Nemotron 3 Nano / Super", ""},
	{"nemotron_deci", ReasoningName, dynamo, "NVIDIA Llama-Nemotron", ""},
	{"nemotron_nano", ReasoningName, dynamo, "NVIDIA Nemotron Nano", ""},
	{"nemotron_v3", ReasoningName, vllm | dynamo, "NVIDIA Nemotron 3 Nano / Super", ""},
	{"olmo3", ReasoningName, vllm, "AllenAI Olmo 3 Think", ""},
	{"openai_gptoss", ReasoningName, vllm, "OpenAI gpt-oss", ""},
	{"poolside_v1", ReasoningName, vllm | sglang, "poolside Laguna", "vLLM starts inside the span when thinking is on, SGLang only on a <think>; here the prompt decides (Config.InReasoning, PRE.3)"},
	{"qwen", ReasoningName, 0, "Qwen2.5, Qwen3", "Dynamo's end-to-end tests pass it (its unknown reasoning names fall back to <think>)"},
	{"qwen3", ReasoningName, vllm | sglang | dynamo, "Qwen3, Qwen3.5", ""},
	{"qwen3-thinking", ReasoningName, sglang, "Qwen3-*-Thinking-2507", ""},
	{"qwen3_thinking", ReasoningName, 0, "Qwen3-*-Thinking-2507", "the underscore spelling of qwen3-thinking"},
	{"seed_oss", ReasoningName, vllm, "ByteDance Seed-OSS", ""},
	{"solar_open2", ReasoningName, vllm, "Upstage Solar Open 2", ""},
	{"step3", ReasoningName, vllm | sglang | dynamo, "StepFun Step-3", ""},
	{"step3p5", ReasoningName, vllm | sglang, "StepFun Step-3.5", ""},
	{"telechat4", ReasoningName, sglang, "China Telecom TeleChat4", "SGLang moves an unclosed span to content (force_nonempty_content); here it stays reasoning, as every <think> parser's does"},
}
