package openai

import "github.com/agentwire/agentwire/protocols/internal/jsonx"

// NormalizeThinking applies the `thinking` / `reasoning_effort`
// normalisation to r before preprocessing:
//
//   - chat_template_kwargs is merged into chat_template_args (args win) and
//     cleared, so there is one map of template arguments;
//   - thinking: true|false → chat_template_args.thinking = true|false;
//   - thinking: {"type": enabled|disabled|adaptive} → thinking = true|false
//     (not for adaptive) and thinking_mode = the type;
//   - reasoning {"effort": E} → reasoning_effort = E, and {"enabled":
//     false} → reasoning_effort = "none", unless reasoning_effort is set
//     (ChatReasoning); the reasoning member is then cleared;
//   - reasoning_effort → chat_template_args.reasoning_effort = the value and
//     enable_thinking = (effort != "none") unless already set;
//   - the raw thinking member is then cleared.
//
// Values the client already put in chat_template_args are not overwritten.
// A malformed thinking member is rejected at decode time (MessageThinkingShape).
func (r *ChatRequest) NormalizeThinking() error {
	if len(r.ChatTemplateKwargs) > 0 {
		if r.ChatTemplateArgs == nil {
			r.ChatTemplateArgs = make(map[string]RawJSON, len(r.ChatTemplateKwargs))
		}
		for k, v := range r.ChatTemplateKwargs {
			if _, ok := r.ChatTemplateArgs[k]; !ok {
				r.ChatTemplateArgs[k] = v
			}
		}
		r.ChatTemplateKwargs = nil
	}
	set := func(k string, v RawJSON) {
		if r.ChatTemplateArgs == nil {
			r.ChatTemplateArgs = map[string]RawJSON{}
		}
		if _, ok := r.ChatTemplateArgs[k]; !ok {
			r.ChatTemplateArgs[k] = v
		}
	}
	if th, ok := r.Thinking.Get(); ok {
		switch {
		case th.Bool.Valid():
			set("thinking", jsonx.AppendBool(nil, th.Bool.Value()))
		case th.Type == "enabled" || th.Type == "disabled":
			set("thinking", jsonx.AppendBool(nil, th.Type == "enabled"))
			set("thinking_mode", jsonx.AppendString(nil, th.Type))
		case th.Type == "adaptive":
			set("thinking_mode", jsonx.AppendString(nil, th.Type))
		default:
			return BadRequest(MessageThinkingShape)
		}
	} else if r.Thinking.IsNull() {
		return BadRequest(MessageThinkingShape)
	}
	r.Thinking = Opt[Thinking]{}
	if rs, ok := r.Reasoning.Get(); ok && r.ReasoningEffort == "" {
		r.ReasoningEffort = rs.effort()
	}
	r.Reasoning = Opt[ChatReasoning]{}
	if e := r.ReasoningEffort; e != "" {
		set("reasoning_effort", jsonx.AppendString(nil, e))
		set("enable_thinking", jsonx.AppendBool(nil, e != "none"))
	}
	return nil
}
