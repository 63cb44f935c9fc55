package anthropic

// ThinkingDisplay says how the model's reasoning reaches an Anthropic
// client.
type ThinkingDisplay uint8

const (
	// ThinkingShown: thinking blocks carry the reasoning text (the zero
	// value, so an EmitterConfig that does not set it keeps showing it).
	ThinkingShown ThinkingDisplay = iota
	// ThinkingOmitted: thinking blocks are sent with empty thinking and a
	// signature (the request's thinking.display is "omitted", as Claude
	// Code sends it).
	ThinkingOmitted
	// ThinkingHidden: no thinking blocks; reasoning the model emits anyway
	// is dropped (its tokens still count in usage.output_tokens).
	ThinkingHidden
)

// ThinkingDisplayFor decides how the answer to req shows reasoning:
//
//   - thinking.type "enabled" or "adaptive": shown, or omitted when
//     thinking.display is "omitted";
//   - thinking.type "disabled": hidden;
//   - no thinking member: hidden, unless the server shows thinking by
//     default (showByDefault).
//
// A hidden answer goes with a prompt that tells the chat template thinking
// is off (convert.AnthropicToChat sets enable_thinking false).
func ThinkingDisplayFor(req *MessagesRequest, showByDefault bool) ThinkingDisplay {
	th := req.Thinking
	if th == nil {
		if showByDefault {
			return ThinkingShown
		}
		return ThinkingHidden
	}
	switch th.Type {
	case "enabled", "adaptive":
		if th.Display == "omitted" {
			return ThinkingOmitted
		}
		return ThinkingShown
	}
	return ThinkingHidden
}

// WantsThinking reports whether the answer to req carries thinking blocks
// (shown or omitted) under ThinkingDisplayFor.
func WantsThinking(req *MessagesRequest, showByDefault bool) bool {
	return ThinkingDisplayFor(req, showByDefault) != ThinkingHidden
}
