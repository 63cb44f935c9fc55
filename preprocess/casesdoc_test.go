package preprocess

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agentwire/agentwire/protocols/convert"
)

// The generated sections of PARSER_CASES.md: the PRE table rendered from
// the rule table (TestCasesTable) and the effort section rendered from the
// probes of the testdata templates (TestEffortCasesDoc); -update-cases
// rewrites them.

// Markers around the PRE section of PARSER_CASES.md; casesTable renders
// what lies between them.
const (
	casesBegin = "<!-- BEGIN preprocess PRE table (generated from the rule table of preprocess/rules.go; a test keeps it equal) -->"
	casesEnd   = "<!-- END preprocess PRE table -->"
)

// casesTable renders ruleTable as the Markdown section PARSER_CASES.md holds
// between casesBegin and casesEnd.
func casesTable() string {
	var b strings.Builder
	b.WriteString(`## Request decisions per parser (PRE.1–PRE.6)

Package preprocess decides, per request, from the configured tool and reasoning parsers (canonical
names: tool names by their grammar in the parsers registry, reasoning names lower-cased with the
alias table in ` + "`preprocess/rules.go`" + `) and the request:

* **PRE.1** ` + "`skip_special_tokens`" + `: unset → ` + "`false`" + ` when a parser needs special tokens (else ` + "`true`" + `); an explicit
  ` + "`true`" + ` with such a parser is rejected with an error naming the parser and its markers (a lenient
  option overrides it to ` + "`false`" + ` with a warning).
* **PRE.2** the reasoning gate: when it fires no reasoning parser runs and the whole output is content.
* **PRE.3** ` + "`prompt_injected_reasoning`" + `: the rendered prompt, trailing whitespace trimmed, ends with the
  reasoning parser's own opener → the parser starts inside reasoning (` + "`parsers.Config.InReasoning`" + `).
* **PRE.4** under ` + "`tool_choice`" + ` required/named (guided decoding, no structural tag, the engine not
  reasoning-aware): shape detection decides once from the first non-whitespace output byte; ` + "`[`" + ` or
  ` + "`{`" + ` sends the whole output past the reasoning parser.
* **PRE.5** ` + "`ignore_eos`" + ` clears every stop condition and the EOS ids; otherwise the model's EOS ids are
  hidden stop ids. Not parser-specific.
* **PRE.6** when PRE.2 disabled a Nemotron parser (and the request is not guided), one leading
  ` + "`<think>`" + ` of the output is dropped.
* Tool parsing runs when tools are declared, a tool parser is configured and ` + "`tool_choice`" + ` is
  ` + "`auto`" + ` or unset. Under ` + "`required`" + `/named ` + "`tool_choice`" + ` guided decoding makes the output the call
  JSON itself, which no model-format parser recognises: it is parsed as that JSON (immediate mode),
  with or without a configured tool parser, as vLLM does.

| Parser | Kind | PRE.1 special tokens | PRE.2 disabled when | PRE.3 after a tool result | PRE.4 under required/named | PRE.6 |
|---|---|---|---|---|---|---|
`)
	for _, r := range ruleTable {
		kind := "tool"
		switch {
		case r.Tool && r.Reasoning:
			kind = "tool + reasoning"
		case r.Reasoning:
			kind = "reasoning"
		}
		special := r.Special.String()
		if r.SpecialWhy != "" {
			special += ": " + strings.ReplaceAll(r.SpecialWhy, "<", "&lt;")
		}
		gate, after, guided, pre6 := "—", "—", "—", "—"
		if r.Reasoning {
			gate, after, guided = r.Gate.String(), r.AfterTool.String(), r.Guided.String()
			if r.Unforced {
				after += "; starts inside reasoning only when the prompt opened it (a tool call or an answer before `[THINK]` is not reasoning)"
			}
			if r.StripThink {
				guided += " after stripping a leading `[THINK]`"
			}
			if r.StripLeadingThink {
				pre6 = "YES when PRE.2 fires"
			}
		}
		row := []string{"`" + r.Name + "`", kind, special, gate, after, guided, pre6}
		for i := range row {
			row[i] = strings.ReplaceAll(row[i], "|", `\|`)
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	b.WriteString(`
Every registered reasoning parser name resolves to a row (the peers' spellings through the alias
table: ` + "`minimax`" + ` → ` + "`minimax_m2`" + `, ` + "`muse`/`glimmer`" + ` → ` + "`muse_glimmer`" + `, ` + "`hy_v4`/`hunyuan`" + ` → ` + "`hy_v3`" + `,
` + "`cohere`/`cohere_command3`" + ` → ` + "`cohere_command4`" + `, ` + "`step3p5`" + ` → ` + "`step3`" + `, ` + "`mimo`/`poolside_v1`/`exaone4`/`dots`" + ` →
` + "`qwen3`" + `, ` + "`lfm2_thinking`/`telechat4`" + ` → ` + "`basic`" + `, …); tool parsers without a row take the defaults (no
special tokens). How the rows of the 2026 families were decided:

* **PRE.1.** YES where the model's tokenizer declares the markers special, which the peers show by
  turning skipping off for them (vLLM's parsers for Muse Glimmer, Cohere, GigaChat 3 and 3.5, LFM2,
  FunctionGemma, MiniCPM5, InternLM / Intern-S1 and Apertus do); "not stated" where the peers'
  parsers read the markers from the text with skipping left on (HY-V3, K2 Horizon, Solar Open 2)
  or no peer says (Step-3, LongCat, dots, DeepSeek V4.1's DSML, ERNIE 4.5, Olmo 3, whose
  ` + "`<think>`" + ` is ordinary vocabulary). Granite 3.0's ` + "`<|tool_call|>`" + ` is a
  special token, but like ` + "`llama3_json`" + `'s tag the grammar reads the bare JSON list without it.
* **PRE.2.** Only a documented thinking switch gates: DeepSeek V4.1 takes V4's toggle (default on),
  Holo2 reads ` + "`thinking`" + ` (default on, as ` + "`kimi_k25`" + `). The others have none: a model with thinking
  off writes no span (the unforced grammars) or starts with the marker that ends it (Cohere's block
  tokens). DeepSeek V4.1's template raises on a ` + "`thinking_mode`" + ` other than its ` + "`chat`" + ` and ` + "`thinking`" + `;
  a value a load-time probe finds rejected (Anthropic's ` + "`enabled`/`disabled`/`adaptive`" + `, which the
  request's normalisation passes as ` + "`thinking_mode`" + `) is left out of the template's arguments, and
  ` + "`thinking`/`enable_thinking`" + ` carry the switch to the template and to the gate.
* **PRE.3.** The prompt decides for every unforced grammar (` + "`Config.InReasoning`" + ` when the rendered
  prompt ends with the parser's opener: Intern-S1's and HY-V3's ` + "`<think>`" + `, Solar Open 2's
  ` + "`<|think:start|>`" + `, Glimmer's ` + "`to=self<|message|>`" + `); DeepSeek V4.1 keeps the reasoning its template
  seeds after a tool result, as V4 does. Olmo 3 Think's template opens ` + "`<think>`" + ` itself, and its
  grammar is forced.
* **PRE.4.** A forced grammar (Cohere, K2 Horizon, Olmo 3, ERNIE 4.5, LongCat, Step-3 / 3.5, Holo2,
  Qwen3-Thinking) takes shape detection, since it would read bare guided JSON as reasoning; an
  unforced one only when the prompt opened reasoning. A test keeps every forced name so.
* **The jail** is the same for every parser: under ` + "`required`" + `/named the guided JSON is parsed in
  immediate mode (vLLM opts Glimmer and K2 Horizon out of its guided path because its generic
  reader would return their framing as arguments; immediate mode reads the JSON itself).
`)
	return b.String()
}

// Markers around the effort section of PARSER_CASES.md; effortCases renders
// what lies between them.
const (
	effortBegin = "<!-- BEGIN preprocess effort table (generated from the effort probes of preprocess/effort.go; a test keeps it equal) -->"
	effortEnd   = "<!-- END preprocess effort table -->"
)

// effortCases renders the effort and thinking controls as the Markdown
// section PARSER_CASES.md holds between effortBegin and effortEnd: the
// normalisation of the three APIs' controls, the mapping onto a template,
// and what the probe finds on the given templates (by file name).
func effortCases(templates map[string]*Template) string {
	var b strings.Builder
	b.WriteString(`## Effort and thinking controls

Every API's reasoning controls become two chat template arguments, ` + "`reasoning_effort`" + ` (on the
ladder ` + "`" + strings.Join(effortLadder, "` < `") + "`" + `) and ` + "`enable_thinking`" + ` (` + "`reasoning_effort != none`" + `
unless the client set it), which the template, the reasoning gate (PRE.2) and the engine's reasoner
arguments all read:

| API | control | ` + "`reasoning_effort`" + ` |
|---|---|---|
| Chat Completions | ` + "`reasoning_effort`" + `, or ` + "`chat_template_kwargs.reasoning_effort`" + ` (the kwargs win) | the value |
| Responses | ` + "`reasoning.effort`" + ` | the value |
| Anthropic Messages | ` + "`thinking.type: disabled`" + `, or no ` + "`thinking`" + ` unless the server shows thinking by default | ` + "`none`" + ` |
| Anthropic Messages | ` + "`output_config.effort`" + ` (` + "`low`" + ` … ` + "`max`" + `), thinking not disabled | the value |
| Anthropic Messages | ` + "`thinking.type: enabled`" + ` with ` + "`budget_tokens`" + `, no ` + "`output_config.effort`" + ` | by budget: `)
	lo := 0
	for i, r := range convert.ThinkingBudgetEfforts {
		if i > 0 {
			b.WriteString(", ")
		}
		if r.Below == 0 {
			fmt.Fprintf(&b, "≥ %d → `%s`", lo, r.Effort)
			continue
		}
		fmt.Fprintf(&b, "< %d → `%s`", r.Below, r.Effort)
		lo = r.Below
	}
	b.WriteString(` (Claude Code: think 4,000 → ` + "`medium`" + `, think hard 10,000 → ` + "`high`" + `, ultrathink 31,999 → ` + "`xhigh`" + `) |
| Anthropic Messages | ` + "`thinking.type: adaptive`" + `, or ` + "`enabled`" + ` without a budget, no ` + "`output_config.effort`" + ` | ` + "`high`" + ` (Anthropic's default effort) |

Templates know different values, so at load time each template is rendered once per ladder value (one
user turn, the generation prompt, the two arguments as a request would carry them) and the request's
value is mapped onto what the template knows:

* a value whose render raises is **rejected**; values are grouped by rendered prompt; a value alone in
  its group is **known**, and so is a value the template's code spells as a string literal while
  other values render the same prompt as it (the template folds them into that value);
* a known value, ` + "`none`" + ` when accepted, and the values of a group with no known value (the
  template's "no particular effort") are passed as they are;
* any other value (rejected, or folded into a known value) is **clamped** to the nearest known value on
  the ladder, ties going up; a thinking level never becomes ` + "`none`" + ` and ` + "`none`" + ` never a thinking
  level: without a candidate the argument is left out (the template's default; ` + "`enable_thinking`" + `
  still says whether thinking is on). No value the APIs allow is answered with a 400 for the
  template's sake; a value off the ladder in ` + "`chat_template_kwargs`" + ` reaches the template unchanged.

A thinking object (Anthropic's ` + "`thinking`" + `, or the same member on Chat Completions) also sets
` + "`thinking_mode`" + ` to its type (` + "`" + strings.Join(thinkingModes, "`, `") + "`" + `), which some templates read with
values of their own (DeepSeek V4.1: ` + "`thinking`" + `, ` + "`chat`" + `) and raise on any other. The probe renders
each type too; a type the template raises on is left out of the request and its switch passed as
` + "`enable_thinking`" + ` (` + "`true`" + ` unless the type is ` + "`disabled`" + `; a value the request set is kept), which
such templates read by default.

What the probe finds on the templates of ` + "`testdata/chattemplate/templates`" + ` (only values that change
are listed under "mapped"):

| Template | known | rejected | mapped | ` + "`thinking_mode`" + ` left out |
|---|---|---|---|---|
`)
	for _, name := range slices.Sorted(mapsKeys(templates)) {
		e := templates[name].efforts
		var mapped []string
		for _, v := range effortLadder {
			if to, ok := e.To[v]; ok && to != v {
				if to == "" {
					to = "(unset)"
				}
				mapped = append(mapped, v+" → "+to)
			}
		}
		cell := func(vs []string) string {
			if len(vs) == 0 {
				return "—"
			}
			return strings.Join(vs, ", ")
		}
		known := cell(e.Known)
		if e.To == nil {
			known = "(probe failed: values pass unchanged)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s |\n", name, known, cell(e.Rejected), cell(mapped), cell(templates[name].RejectedThinkingModes))
	}
	return b.String()
}
