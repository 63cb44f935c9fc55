package anthropic

import "github.com/agentwire/agentwire/protocols/internal/jsonx"

// EstimateTokens is Dynamo's count_tokens heuristic, used when the model's
// tokenizer is not at hand (and for message_start's input_tokens): the
// lengths in bytes of the system text; per message 4 (user) or 9
// (assistant) plus its content — text; tool_use name + JSON(input);
// tool_result text; thinking text; redacted data; 256 per image; the JSON
// length of any other block — and per tool its name, description and
// JSON(input_schema); then sum / 3, at least 1 when the request is not
// empty. Apply billing-header stripping to system first if the deployment
// strips it for generation.
func EstimateTokens(system string, messages []Message, tools []Tool) int64 {
	n := int64(len(system))
	for i := range messages {
		m := &messages[i]
		switch m.Role {
		case RoleAssistant:
			n += 9
		default:
			n += 4
		}
		n += contentSize(m.Content)
	}
	for i := range tools {
		t := &tools[i]
		n += int64(len(t.Name) + len(t.Description) + len(t.InputSchema))
	}
	if n == 0 {
		return 0
	}
	return max(n/3, 1)
}

func contentSize(c Content) int64 {
	if !c.IsArray() {
		return int64(len(c.String))
	}
	var n int64
	for i := range c.Array {
		b := &c.Array[i]
		switch {
		case b.OfText != nil:
			n += int64(len(b.OfText.Text))
		case b.OfToolUse != nil:
			n += int64(len(b.OfToolUse.Name) + len(b.OfToolUse.Input))
		case b.OfToolResult != nil:
			if rc, ok := b.OfToolResult.Content.Get(); ok {
				n += contentSize(rc)
			}
		case b.OfThinking != nil:
			n += int64(len(b.OfThinking.Reasoning()))
		case b.OfRedactedThinking != nil:
			n += int64(len(b.OfRedactedThinking.Data))
		case b.OfImage != nil:
			n += 256
		default:
			raw, err := jsonx.Marshal(b)
			if err == nil {
				n += int64(len(raw))
			}
		}
	}
	return n
}

// EstimateTokens estimates the prompt size of a count_tokens request.
func (r *CountTokensRequest) EstimateTokens() int64 {
	return EstimateTokens(SystemText(r.System.Value()), r.Messages, r.Tools)
}

// EstimateTokens estimates the prompt size of a messages request.
func (r *MessagesRequest) EstimateTokens() int64 {
	return EstimateTokens(SystemText(r.System.Value()), r.Messages, r.Tools)
}
