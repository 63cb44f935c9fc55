package preprocess

import (
	"strings"
)

// Markers around the PRE section of PARSER_CASES.md; CasesTable renders
// what lies between them.
const (
	CasesBegin = "<!-- BEGIN preprocess PRE table (generated from preprocess.Rules; a test keeps it equal) -->"
	CasesEnd   = "<!-- END preprocess PRE table -->"
)

func (s Special) String() string {
	return [...]string{"no", "YES", "not stated (markers are special:false) → no"}[s]
}

func (g Gate) String() string {
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

func (a AfterTool) String() string {
	return [...]string{"as any turn", "OFF (unless `thinking=true`)", "stays ON (the template seeds the opener after tools)"}[a]
}

func (g Guided) String() string {
	return [...]string{"parse normally", "shape detection", "shape detection only if prompt-injected", "reasoning OFF (legacy)"}[g]
}

// CasesTable renders Rules as the Markdown section PARSER_CASES.md holds
// between CasesBegin and CasesEnd.
func CasesTable() string {
	var b strings.Builder
	b.WriteString(`## Request decisions per parser (PRE.1–PRE.6)

Package preprocess decides, per request, from the configured tool and reasoning parsers (canonical
names: tool names by their grammar in the parsers registry, reasoning names lower-cased with the
alias table of ` + "`preprocess.CanonicalReasoningParser`" + `) and the request:

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
	for _, r := range Rules {
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
