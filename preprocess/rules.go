package preprocess

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentwire/agentwire/parsers"
)

// This file is the per-parser decision table PRE.1–PRE.6 as data: one rule
// per canonical parser name, and the functions that apply it to a request.
// PARSER_CASES.md shows the same table (rendered by casesTable in
// casesdoc_test.go; TestCasesTable keeps them equal).

// specialTokens says whether a parser needs special tokens in the output (PRE.1).
type specialTokens uint8

const (
	specialNo       specialTokens = iota // its markers are ordinary (special:false) tokens or text
	specialYes                           // some marker is a special token: skip_special_tokens must be false
	specialUnstated                      // not stated upstream; the markers are special:false, so treated as no
)

// reasoningGate is PRE.2: when a request's template arguments disable the
// reasoning parser (the whole output is then content).
type reasoningGate uint8

const (
	gateNever       reasoningGate = iota
	gateKimi                      // thinking == false (kimi_k25, holo2)
	gateNemotron                  // enable_thinking == false or force_nonempty_content == true
	gateDeepSeekOff               // the DeepSeek toggle resolves to off; default off (opt-in)
	gateDeepSeekOn                // the DeepSeek toggle resolves to off; default on
	gateGemma4                    // enable_thinking (else thinking) resolves to false; default on
	gateMistral                   // unless reasoning_effort is present and not "none"
	gateMiniMaxM3                 // thinking_mode == "disabled"
	gateMiniMaxM2                 // thinking == false or enable_thinking == false
)

// afterToolRule is PRE.3's rule when the last message is a tool result.
type afterToolRule uint8

const (
	afterToolNormal afterToolRule = iota // prompt_injected_reasoning decides, as for any turn
	afterToolOff                         // no reasoning parsing after a tool result, unless thinking == true (kimi_k25)
	afterToolKeep                        // the injected reasoning is kept after tools (the formatter seeds the opener; deepseek_v4)
)

// guidedRule is PRE.4: what tool_choice required/named does to reasoning.
type guidedRule uint8

const (
	guidedNormal          guidedRule = iota // parse normally
	guidedShape                             // shape detection: a leading '[' or '{' bypasses the reasoning parser
	guidedShapeIfInjected                   // shape detection only when the prompt opened reasoning
	guidedLegacyOff                         // reasoning parsing off for the request
)

// The String forms are the cells of PARSER_CASES.md's PRE table.

func (s specialTokens) String() string {
	return [...]string{"no", "YES", "not stated (markers are special:false) → no"}[s]
}

func (g reasoningGate) String() string {
	return [...]string{
		"never",
		"`thinking=false`",
		"`enable_thinking=false` or `force_nonempty_content=true`",
		"DeepSeek toggle off (`thinking`/`enable_thinking`, else `thinking_mode`); default **off**",
		"DeepSeek toggle off (`thinking`/`enable_thinking`, else `thinking_mode`); default on",
		"`enable_thinking` (else `thinking`) `=false`; default on",
		"unless `reasoning_effort` is present and not `none`",
		"`thinking_mode=disabled`",
		"`thinking=false` or `enable_thinking=false`",
	}[g]
}

func (a afterToolRule) String() string {
	return [...]string{"as any turn", "OFF (unless `thinking=true`)", "stays ON (the template seeds the opener after tools)"}[a]
}

func (g guidedRule) String() string {
	return [...]string{"parse normally", "shape detection", "shape detection only if prompt-injected", "reasoning OFF (legacy)"}[g]
}

// rule is one row of the table, keyed by canonical parser name.
type rule struct {
	Name string
	// Tool and Reasoning say which registry the name is canonical in.
	Tool, Reasoning bool

	Special specialTokens
	// SpecialWhy names the markers that are special tokens (PRE.1's error
	// quotes it).
	SpecialWhy string

	Gate      reasoningGate
	AfterTool afterToolRule
	Guided    guidedRule
	// StripThink: shape detection strips a complete leading [THINK] first.
	StripThink bool
	// StripLeadingThink is PRE.6: when Gate fired, one leading <think> of
	// the output is dropped.
	StripLeadingThink bool
	// Unforced (PRE.3): the parser starts inside reasoning only when the
	// prompt opened it; otherwise the model writes its opener itself when
	// it thinks, and what comes before one (a tool call, a plain answer)
	// is not reasoning. mistral: an effort control switches the parser on
	// for every Mistral model, and Ministral 3 answers
	// [TOOL_CALLS]Bash[ARGS]{…} without [THINK].
	Unforced bool
}

// ruleTable is the PRE.1–PRE.6 table. Rows are in the order PARSER_CASES.md
// shows them; every name is canonical (see canonicalToolParser and
// canonicalReasoningParser). Every registered reasoning parser name
// resolves to a row (a test keeps it so); tool parsers without a row have
// no special decisions (PRE.1 no).
var ruleTable = []rule{
	{Name: "harmony", Tool: true, Special: specialYes, SpecialWhy: "<|channel|>, <|message|>, <|call|>, <|end|> are special tokens"},
	{Name: "gpt_oss", Reasoning: true, Special: specialYes, SpecialWhy: "<|channel|>analysis<|message|> … <|end|> are special tokens"},
	{Name: "gemma4", Tool: true, Reasoning: true, Special: specialYes, SpecialWhy: `<|channel>, <channel|>, <|tool_call>, <tool_call|>, <|"|> are special tokens`, Gate: gateGemma4},
	{Name: "kimi_k2", Tool: true, Special: specialYes, SpecialWhy: "<|tool_calls_section_begin|> / <|tool_calls_section_end|> are special tokens"},
	{Name: "kimi_k25", Reasoning: true, Special: specialYes, SpecialWhy: "</think> is a special token", Gate: gateKimi, AfterTool: afterToolOff, Guided: guidedShape},
	{Name: "kimi", Reasoning: true},
	{Name: "deepseek_r1", Reasoning: true, Gate: gateDeepSeekOn, Guided: guidedShape},
	{Name: "deepseek_v3", Reasoning: true, Special: specialUnstated, Gate: gateDeepSeekOff, Guided: guidedShape},
	{Name: "deepseek_v3_1", Reasoning: true, Special: specialUnstated, Gate: gateDeepSeekOff, Guided: guidedShape},
	{Name: "deepseek_v3_2", Reasoning: true, Special: specialUnstated, Gate: gateDeepSeekOn, Guided: guidedShape},
	{Name: "deepseek_v4", Tool: true, Reasoning: true, Special: specialUnstated, Gate: gateDeepSeekOn, AfterTool: afterToolKeep, Guided: guidedShapeIfInjected},
	{Name: "nemotron_nano", Reasoning: true, Special: specialUnstated, Gate: gateNemotron, Guided: guidedShape, StripLeadingThink: true},
	{Name: "nemotron3", Reasoning: true, Special: specialUnstated, Gate: gateNemotron, Guided: guidedShape, StripLeadingThink: true},
	{Name: "nemotron_v3", Reasoning: true, Special: specialUnstated, Gate: gateNemotron, Guided: guidedShape, StripLeadingThink: true},
	{Name: "nemotron_deci", Tool: true, Reasoning: true, Special: specialUnstated},
	{Name: "mistral", Tool: true, Reasoning: true, Special: specialYes, SpecialWhy: "[THINK], [/THINK], [TOOL_CALLS], [ARGS], [CALL_ID] are special tokens", Gate: gateMistral, Guided: guidedShape, StripThink: true, Unforced: true},
	{Name: "minimax_m2", Tool: true, Reasoning: true, Gate: gateMiniMaxM2, Guided: guidedShape},
	{Name: "minimax_m3", Tool: true, Reasoning: true, Special: specialYes, SpecialWhy: "the ]<]minimax[>[ namespace token and <mm:think> are special tokens", Gate: gateMiniMaxM3, Guided: guidedShapeIfInjected},
	{Name: "minimax_append_think", Reasoning: true, Guided: guidedLegacyOff},
	{Name: "glm45", Reasoning: true, Guided: guidedShapeIfInjected},
	{Name: "glm47", Tool: true},
	{Name: "qwen3", Reasoning: true},
	{Name: "basic", Reasoning: true},
	{Name: "step3", Tool: true, Reasoning: true, Special: specialUnstated, Guided: guidedShape},
	{Name: "granite", Tool: true, Reasoning: true, SpecialWhy: "<|tool_call|> (Granite 3.0) is a special token: with skip_special_tokens only the bare JSON list at the start of the output is recognised"},
	{Name: "kimi_k3", Tool: true, Reasoning: true, Special: specialYes, SpecialWhy: "the reserved control tokens <|open|>, <|sep|>, <|close|> are special tokens"},
	{Name: "inkling", Tool: true, Reasoning: true, Special: specialYes, SpecialWhy: "<|content_thinking|>, <|content_invoke_tool_json|>, <|end_message|> are special tokens"},
	{Name: "llama3_json", Tool: true, SpecialWhy: "<|python_tag|> is a special token in Llama 3.1+ tokenizers: with skip_special_tokens only tag-less JSON at the start of the output is recognised"},
	{Name: "hermes", Tool: true},
	{Name: "qwen3_coder", Tool: true},
	{Name: "pythonic", Tool: true},
	{Name: "phi4", Tool: true},
	{Name: "jamba", Tool: true},

	// The families of 2026 (PARSER_CASES.md, "Families of the 2026 models"):
	// a forced grammar gets shape detection under guided decoding (its
	// output would otherwise be read as reasoning), an unforced one only
	// when the prompt opened reasoning; none is gated unless its template
	// has a documented thinking switch.
	{Name: "deepseek_v41", Tool: true, Reasoning: true, Special: specialUnstated, Gate: gateDeepSeekOn, AfterTool: afterToolKeep, Guided: guidedShapeIfInjected},
	{Name: "muse_glimmer", Tool: true, Reasoning: true, Special: specialYes, SpecialWhy: "<|start|>, <|message|>, <|eom|>, <|eot|> are special tokens", Guided: guidedShapeIfInjected},
	{Name: "cohere_command4", Tool: true, Reasoning: true, Special: specialYes, SpecialWhy: "<|START_THINKING|>, <|END_THINKING|>, <|START_ACTION|>, <|END_ACTION|>, <|START_RESPONSE|>, <|START_TEXT|> are special tokens", Guided: guidedShape},
	{Name: "hy_v3", Tool: true, Reasoning: true, Special: specialUnstated, Guided: guidedShapeIfInjected},
	{Name: "hunyuan_a13b", Reasoning: true, Special: specialUnstated, Guided: guidedShapeIfInjected},
	{Name: "k2_horizon", Tool: true, Reasoning: true, Special: specialUnstated, Guided: guidedShape},
	{Name: "gigachat3", Tool: true, Special: specialYes, SpecialWhy: "<|function_call|>, <|role_sep|>, <|message_sep|> are special tokens"},
	{Name: "gigachat35", Tool: true, Special: specialYes, SpecialWhy: "the <｜GCML｜…> call tags and <|message_sep|> are special tokens"},
	{Name: "lfm2", Tool: true, Special: specialYes, SpecialWhy: "<|tool_call_start|>, <|tool_call_end|> are special tokens"},
	{Name: "olmo3", Tool: true, Reasoning: true, Special: specialUnstated, Guided: guidedShape},
	{Name: "functiongemma", Tool: true, Special: specialYes, SpecialWhy: "<start_function_call>, <end_function_call>, <escape> are special tokens"},
	{Name: "minicpm5", Tool: true, Special: specialYes, SpecialWhy: "MiniCPM5's tool-call tags are special tokens"},
	{Name: "granite_20b_fc", Tool: true, Special: specialUnstated},
	{Name: "internlm", Tool: true, Special: specialYes, SpecialWhy: "<|action_start|>, <|plugin|>, <|action_end|> are special tokens"},
	{Name: "interns1", Reasoning: true, Special: specialUnstated, Guided: guidedShapeIfInjected},
	{Name: "xlam", Tool: true},
	{Name: "apertus", Tool: true, Reasoning: true, Special: specialYes, SpecialWhy: "<|tools_prefix|>, <|tools_suffix|>, <|inner_prefix|>, <|inner_suffix|> are special tokens", Guided: guidedShapeIfInjected},
	{Name: "ernie45", Reasoning: true, Special: specialUnstated, Guided: guidedShape},
	{Name: "longcat", Tool: true, Reasoning: true, Special: specialUnstated, Guided: guidedShape},
	{Name: "dots", Tool: true, Special: specialUnstated},
	{Name: "solar_open2", Tool: true, Reasoning: true, Special: specialUnstated, Guided: guidedShapeIfInjected},
	{Name: "holo2", Reasoning: true, Gate: gateKimi, Guided: guidedShape},
	{Name: "qwen3_thinking", Reasoning: true, Guided: guidedShape},
	{Name: "seed_oss", Tool: true, Reasoning: true, Special: specialUnstated},
}

var (
	toolRules      = map[string]*rule{}
	reasoningRules = map[string]*rule{}
)

func init() {
	for i := range ruleTable {
		r := &ruleTable[i]
		if r.Tool {
			toolRules[r.Name] = r
		}
		if r.Reasoning {
			reasoningRules[r.Name] = r
		}
	}
}

// reasoningAliases maps reasoning parser names (lower case, '-' as '_') to
// the canonical name their rules are keyed by where the registry's own
// name differs.
var reasoningAliases = map[string]string{
	"deepseekv4":              "deepseek_v4",
	"openai_gptoss":           "gpt_oss",
	"minimax_m2_append_think": "minimax_append_think",
	"nemotron_3":              "nemotron3",
	"kimi_k2":                 "kimi_k25",
	"qwen":                    "qwen3",
	"glm47":                   "glm45",
	"minimax_m3_nom":          "minimax_m3",
	"gemma_4":                 "gemma4",

	// Peer spellings of grammars with a row of their own.
	"deepseekv41":     "deepseek_v41",
	"minimax":         "minimax_m2", // SGLang's name: minimax_m2's gate
	"muse":            "muse_glimmer",
	"glimmer":         "muse_glimmer",
	"hy_v4":           "hy_v3",
	"hunyuan":         "hy_v3",
	"cohere":          "cohere_command4",
	"cohere_command3": "cohere_command4",
	"olmo3_think":     "olmo3",
	"intern_s1":       "interns1",
	"apertus2509":     "apertus",
	"step3p5":         "step3",
	// <think> grammars without decisions of their own: qwen3's row (not
	// forced, the prompt decides) and basic's.
	"mimo":          "qwen3",
	"poolside_v1":   "qwen3",
	"exaone4":       "qwen3",
	"dots":          "qwen3",
	"lfm2_thinking": "basic",
	"telechat4":     "basic",
}

// canonicalToolParser returns the canonical name of a registered tool
// parser name (its grammar's name in the parsers registry: "gpt-oss" and
// "openai" → "harmony", "qwen" → "hermes"), or false if it is not
// registered.
func canonicalToolParser(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	info, ok := parsers.ToolParser(name)
	if !ok {
		return "", false
	}
	return info.Grammar, true
}

// canonicalReasoningParser returns the canonical name of a registered
// reasoning parser name: lower case, '-' read as '_', then the alias
// table ("deepseekv4" → "deepseek_v4", "kimi_k2" → "kimi_k25", …). The
// reasoning registry shares grammars between parsers whose decisions
// differ (nemotron_v3 runs deepseek_r1's grammar but has its own gate), so
// the canonical name is not the grammar's name.
func canonicalReasoningParser(name string) (string, bool) {
	if name == "" {
		return "", false
	}
	if _, ok := parsers.ReasoningParser(name); !ok {
		return "", false
	}
	n := strings.ReplaceAll(strings.ToLower(name), "-", "_")
	if a, ok := reasoningAliases[n]; ok {
		n = a
	}
	return n, true
}

// toolRule and reasoningRule return the rule of a (possibly aliased)
// parser name; parsers without a row get the zero rule with their
// canonical name.
func toolRule(name string) rule {
	c, _ := canonicalToolParser(name)
	if r := toolRules[c]; r != nil {
		return *r
	}
	return rule{Name: c, Tool: true}
}

func reasoningRule(name string) rule {
	c, _ := canonicalReasoningParser(name)
	if r := reasoningRules[c]; r != nil {
		return *r
	}
	return rule{Name: c, Reasoning: true}
}

// skipSpecialError is PRE.1's rejection: the request set
// skip_special_tokens=true but a configured parser needs special tokens.
type skipSpecialError struct {
	Needs []specialNeed // the parsers that need them (tool first)
}

// specialNeed is one parser that needs special tokens.
type specialNeed struct {
	Parser string // the parser name as configured
	Kind   string // "tool" or "reasoning"
	Why    string // which markers are special tokens
}

func (e *skipSpecialError) Error() string {
	var b strings.Builder
	b.WriteString("skip_special_tokens=true cannot be used with ")
	for i, n := range e.Needs {
		if i > 0 {
			b.WriteString(" or ")
		}
		fmt.Fprintf(&b, "the %s parser %q (%s)", n.Kind, n.Parser, n.Why)
	}
	b.WriteString(": with them skipped, tool calls and reasoning would arrive as plain content; send skip_special_tokens=false or omit it")
	return b.String()
}

// decideSkipSpecial is PRE.1. requested is the request's
// skip_special_tokens (set says whether it was sent). When a configured
// parser needs special tokens, unset → false and an explicit true is a
// *skipSpecialError, or with lenient false and a warning. Without such a
// parser the request's value is kept and unset means true (the engines'
// default: a template's control tokens are not shown).
func decideSkipSpecial(toolParser, reasoningParser string, requested, set, lenient bool) (skip bool, warning string, err error) {
	var needs []specialNeed
	if toolParser != "" {
		if r := toolRule(toolParser); r.Special == specialYes {
			needs = append(needs, specialNeed{toolParser, "tool", r.SpecialWhy})
		}
	}
	if reasoningParser != "" {
		if r := reasoningRule(reasoningParser); r.Special == specialYes {
			needs = append(needs, specialNeed{reasoningParser, "reasoning", r.SpecialWhy})
		}
	}
	switch {
	case needs == nil && set:
		return requested, "", nil
	case needs == nil:
		return true, "", nil
	case !set || !requested:
		return false, "", nil
	case lenient:
		e := &skipSpecialError{Needs: needs}
		return false, "skip_special_tokens overridden to false: " + e.Error(), nil
	}
	return false, "", &skipSpecialError{Needs: needs}
}

// templateArgs are a request's chat template arguments (chat_template_kwargs
// merged with the API's thinking options), as raw JSON values.
type templateArgs map[string]json.RawMessage

// Bool returns the argument as a boolean when it is one.
func (a templateArgs) Bool(key string) (v, ok bool) {
	switch string(a[key]) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// String returns the argument as a string when it is one.
func (a templateArgs) String(key string) (string, bool) {
	raw := a[key]
	if len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// deepSeekThinking resolves the DeepSeek toggle: thinking (or its vLLM
// alias enable_thinking) wins; else thinking_mode chat → off, thinking →
// on; else def.
func deepSeekThinking(a templateArgs, def bool) bool {
	if v, ok := a.Bool("thinking"); ok {
		return v
	}
	if v, ok := a.Bool("enable_thinking"); ok {
		return v
	}
	switch m, _ := a.String("thinking_mode"); m {
	case "chat":
		return false
	case "thinking":
		return true
	}
	return def
}

// Disabled is PRE.2: whether the request's arguments turn this reasoning
// parser off.
func (g reasoningGate) Disabled(a templateArgs) bool {
	switch g {
	case gateKimi:
		v, ok := a.Bool("thinking")
		return ok && !v
	case gateNemotron:
		e, eok := a.Bool("enable_thinking")
		f, _ := a.Bool("force_nonempty_content")
		return (eok && !e) || f
	case gateDeepSeekOff:
		return !deepSeekThinking(a, false)
	case gateDeepSeekOn:
		return !deepSeekThinking(a, true)
	case gateGemma4:
		if v, ok := a.Bool("enable_thinking"); ok {
			return !v
		}
		v, ok := a.Bool("thinking")
		return ok && !v
	case gateMistral:
		e, ok := a.String("reasoning_effort")
		return !ok || e == "none"
	case gateMiniMaxM3:
		m, _ := a.String("thinking_mode")
		return m == "disabled"
	case gateMiniMaxM2:
		t, tok := a.Bool("thinking")
		e, eok := a.Bool("enable_thinking")
		return (tok && !t) || (eok && !e)
	}
	return false
}

// promptInjectedReasoning is the input of PRE.3: the rendered prompt, with
// trailing whitespace trimmed, ends with the reasoning parser's own opener
// (<think>, <mm:think>, [THINK], ◁think▷, <|open|>think<|sep|> …).
func promptInjectedReasoning(prompt, reasoningParser string) bool {
	info, ok := parsers.ReasoningParser(reasoningParser)
	if !ok {
		return false
	}
	tail := strings.TrimRight(prompt, " \t\r\n")
	for _, s := range info.Starts {
		if s != "" && strings.HasSuffix(tail, s) {
			return true
		}
	}
	return false
}

// decision is what the table decides for one request.
type decision struct {
	// ToolParser and ReasoningParser are the parsers that run ("" when
	// off: the jail for tools, PRE.2/PRE.3/PRE.4 for reasoning).
	ToolParser, ReasoningParser string

	SkipSpecialTokens bool   // PRE.1
	Warning           string // PRE.1 lenient override, tool_choice auto without a parser

	Injected    bool // prompt_injected_reasoning
	InReasoning bool // PRE.3
	// Unforced: the reasoning parser does not start inside reasoning by
	// itself (rule.Unforced, and the prompt did not open reasoning).
	Unforced bool
	Gated    bool // PRE.2 fired

	ShapeDetect, StripThinkFirst bool // PRE.4
	StripLeadingThink            bool // PRE.6

	// ImmediateTool is immediate mode (the output is the guided call JSON); ImmediateToolName the named
	// tool ("" for required).
	ImmediateTool     bool
	ImmediateToolName string
}

// situation is the request-side input of decide.
type situation struct {
	ToolParser, ReasoningParser string // configured (model or caller)

	// SkipSpecial/SkipSpecialSet: the request's skip_special_tokens.
	SkipSpecial, SkipSpecialSet bool
	Lenient                     bool // PRE.1 lenient mode

	Args       templateArgs
	Prompt     string // the rendered prompt (PRE.3)
	LastIsTool bool   // the last message is a tool result

	HasTools       bool
	ToolChoice     string // "", "none", "auto", "required", or "function" for a named tool
	ToolChoiceName string // the named tool
	StructuralTag  bool   // guided decoding uses a structural tag

	// ReasoningAwareGuided: the engine delays the grammar until reasoning
	// ends (vLLM/SGLang capability); PRE.4 shape detection is then not
	// needed.
	ReasoningAwareGuided bool
}

// decide applies PRE.1–PRE.6 and the tool-parsing jail to one request.
func decide(s situation) (decision, error) {
	var d decision
	var err error
	d.SkipSpecialTokens, d.Warning, err = decideSkipSpecial(s.ToolParser, s.ReasoningParser, s.SkipSpecial, s.SkipSpecialSet, s.Lenient)
	if err != nil {
		return d, err
	}

	// Whether the tool parser runs (the "jail" decision).
	guided := s.HasTools && (s.ToolChoice == "required" || s.ToolChoice == "function")
	switch {
	case !s.HasTools:
	case guided:
		// Guided decoding makes the output the call JSON itself, which no
		// model-format tool parser recognises: immediate mode parses it,
		// whether or not a tool parser is configured.
		d.ImmediateTool = true
		d.ImmediateToolName = s.ToolChoiceName
	case s.ToolParser != "":
		if s.ToolChoice != "none" {
			d.ToolParser = s.ToolParser
		}
	case s.ToolChoice == "auto":
		d.Warning = join(d.Warning, "Tool choice 'auto' specified but no tool parser configured; proceeding without jailing")
	}

	if s.ReasoningParser == "" {
		return d, nil
	}
	r := reasoningRule(s.ReasoningParser)
	d.Injected = promptInjectedReasoning(s.Prompt, s.ReasoningParser)
	d.ReasoningParser = s.ReasoningParser

	// PRE.2
	if r.Gate.Disabled(s.Args) {
		d.Gated = true
		d.ReasoningParser = ""
		d.StripLeadingThink = r.StripLeadingThink && !guided
		return d, nil
	}
	// PRE.3
	if r.AfterTool == afterToolOff && s.LastIsTool {
		if v, ok := s.Args.Bool("thinking"); !ok || !v {
			d.ReasoningParser = ""
			return d, nil
		}
	}
	d.InReasoning = d.Injected
	d.Unforced = r.Unforced && !d.Injected
	// PRE.4
	if guided && !s.StructuralTag && !s.ReasoningAwareGuided {
		switch r.Guided {
		case guidedShape:
			d.ShapeDetect = true
		case guidedShapeIfInjected:
			d.ShapeDetect = d.Injected
		case guidedLegacyOff:
			d.ReasoningParser = ""
			d.InReasoning = false
		}
		d.StripThinkFirst = d.ShapeDetect && r.StripThink
	}
	return d, nil
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
