package preprocess

import (
	"encoding/json"
	"regexp"
	"slices"

	"github.com/agentwire/agentwire/preprocess/chattemplate"
)

// This file maps a request's reasoning effort to a value the chat
// template accepts. The APIs' controls are normalised into one template
// argument first (openai.ChatRequest.NormalizeThinking, with
// convert.AnthropicToChat and convert.ResponsesToChat feeding it):
// reasoning_effort, plus enable_thinking = (effort != "none"). Templates
// differ in the values they know: Mistral Medium 3.5 raises on anything but
// "none" and "high", Kimi K3 knows low/high/max and silently treats the
// rest as max, GLM-5.2 knows high and defaults to max, gpt-oss prints any
// value. LoadModel probes every template once (probeEfforts) and the
// request's value is clamped to the nearest value the template knows
// (Template.Effort), so that no value the APIs allow is answered with a
// 400 and none silently lands on a far-away level.

// effortLadder is the reasoning-effort ladder of the APIs, lowest first: Chat
// Completions' reasoning_effort and Responses' reasoning.effort take every
// value, Anthropic's output_config.effort low to max.
var effortLadder = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}

// effortSupport is what the load-time probe learnt about a template's
// reasoning_effort variable.
type effortSupport struct {
	// Known are the values the template tells apart (in ladder order): a
	// value whose rendered prompt differs from every other value's, or
	// that the template's code names as a string literal while other
	// values render the same prompt as it.
	Known []string
	// Rejected are the values the template raises on.
	Rejected []string
	// To maps every ladder value to the value the template is given: the
	// value itself, the nearest known value, or "" (the variable is left
	// unset, so the template's own default applies). nil when the probe
	// learnt nothing (the template fails without any effort): values pass
	// unchanged.
	To map[string]string
}

// Effort returns the reasoning_effort to give the template for a
// requested value, and false when the variable is to be left unset.
// Values off the ladder pass unchanged (they come from
// chat_template_kwargs, where the client speaks to the template directly).
func (t *Template) Effort(v string) (string, bool) {
	to, ok := t.efforts.To[v]
	if !ok {
		return v, true
	}
	return to, to != ""
}

// effortProbe is the conversation the probe renders: one user turn, the
// generation prompt, no tools.
const effortProbe = `[{"role":"user","content":"Hello"}]`

// stringLiteral matches a quoted string in template code.
var stringLiteral = regexp.MustCompile(`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"`)

// codeBlock matches a Jinja statement or expression ({% … %}, {{ … }}).
var codeBlock = regexp.MustCompile(`(?s)\{%.*?%\}|\{\{.*?\}\}`)

// templateLiterals returns the string literals of the template's code
// (statements and expressions; not its text or comments).
func templateLiterals(src string) map[string]bool {
	lits := map[string]bool{}
	for _, block := range codeBlock.FindAllString(src, -1) {
		for _, q := range stringLiteral.FindAllString(block, -1) {
			lits[q[1:len(q)-1]] = true
		}
	}
	return lits
}

// probeEfforts renders the probe conversation once per ladder value, with
// the arguments a request normalised from that effort carries
// (reasoning_effort, enable_thinking = effort != "none"), and derives:
//
//   - Rejected: the values whose render fails (raise_exception).
//   - Known: values are grouped by rendered prompt. A value alone in its
//     group is known (the template tells it apart: gpt-oss's "Reasoning:
//     low"). In a group of several, the values the template's code spells
//     as a string literal are known (GLM-5.2 renders "medium" as its
//     default "max"; 'max' is a literal, so "max" is known and "medium"
//     is not); a group without such a value is the template's "no
//     particular effort" and its values stay as they are (DeepSeek V4
//     renders low to xhigh alike and names none of them).
//   - To: a known value, a value of a group without a known value and
//     "none" when accepted map to themselves; any other value — rejected,
//     or folded into a known value's group — maps to the nearest known
//     value on the ladder, ties going up (more reasoning). A value other
//     than "none" never maps to "none" (that would switch thinking off),
//     and "none" never maps to a thinking level: with no candidate the
//     value maps to "" (unset: the template's default; enable_thinking
//     still says whether thinking is on).
//
// If the probe conversation fails to render without any effort, the probe
// learns nothing and To is nil.
func probeEfforts(t *chattemplate.Template) effortSupport {
	var s effortSupport
	render := func(kwargs string) (string, bool) {
		in := chattemplate.Input{Messages: json.RawMessage(effortProbe), AddGenerationPrompt: true,
			BOSToken: "<s>", EOSToken: "</s>"} // placeholders: templates such as Llama 3's print them
		if kwargs != "" {
			in.Kwargs = json.RawMessage(kwargs)
		}
		out, err := t.Render(in)
		return out, err == nil
	}
	if _, ok := render(""); !ok {
		return s
	}
	prompts := make(map[string]string, len(effortLadder))
	groups := map[string][]string{} // prompt → the values rendering it
	for _, v := range effortLadder {
		kw := `{"reasoning_effort":"` + v + `","enable_thinking":` + map[bool]string{true: "true", false: "false"}[v != "none"] + `}`
		out, ok := render(kw)
		if !ok {
			s.Rejected = append(s.Rejected, v)
			continue
		}
		prompts[v] = out
		groups[out] = append(groups[out], v)
	}
	lits := templateLiterals(t.Source())
	known := map[string]bool{}
	named := map[string]bool{} // prompts whose group has a known value
	for _, v := range effortLadder {
		out, ok := prompts[v]
		if !ok {
			continue
		}
		if len(groups[out]) == 1 || lits[v] {
			known[v] = true
			named[out] = true
			s.Known = append(s.Known, v)
		}
	}
	s.To = make(map[string]string, len(effortLadder))
	for _, v := range effortLadder {
		out, accepted := prompts[v]
		switch {
		case known[v], accepted && (v == "none" || !named[out]):
			s.To[v] = v
		default:
			s.To[v] = nearestEffort(v, s.Known)
		}
	}
	return s
}

// nearestEffort returns the value of known nearest to v on the ladder
// (ties go up); "none" only for "none" and never for it; "" when there is
// no candidate.
func nearestEffort(v string, known []string) string {
	at := slices.Index(effortLadder, v)
	best, bestDist := "", len(effortLadder)
	for _, k := range known {
		if (k == "none") != (v == "none") {
			continue
		}
		d := slices.Index(effortLadder, k) - at
		if d < 0 {
			d = -d
		}
		if d < bestDist || d == bestDist && slices.Index(effortLadder, k) > slices.Index(effortLadder, best) {
			best, bestDist = k, d
		}
	}
	return best
}

// clampEffort replaces the request's reasoning_effort argument by the value
// the template is given for it (Template.Effort), or removes it. The
// reasoning gate (PRE.2), the rendered prompt and the engine's reasoner
// arguments all see the clamped value.
func clampEffort(t *Template, args templateArgs) {
	v, ok := args.String("reasoning_effort")
	if !ok {
		return
	}
	to, keep := t.Effort(v)
	switch {
	case !keep:
		delete(args, "reasoning_effort")
	case to != v:
		b, _ := json.Marshal(to)
		args["reasoning_effort"] = b
	}
}
