package responses

import "github.com/agentwire/agentwire/protocols"

// ReasoningPolicy is the server's side of reasoning visibility on the
// Responses API. The model's reasoning is delivered on exactly one
// channel per request, never both (clients such as Qwen Code and pi merge
// the two channels into one display, and would show every token twice):
//
//   - as a summary (reasoning_summary_part / reasoning_summary_text
//     events; the reasoning item carries summary_text parts and no
//     content) when the request asks for one: reasoning.summary "auto",
//     "concise" or "detailed" (or the deprecated generate_summary). No
//     summariser runs: the summary is the reasoning text itself. This is
//     the channel OpenAI's own API streams, and the one Codex displays.
//   - as reasoning text (content_part / reasoning_text events; the item
//     carries reasoning_text content and an empty summary) otherwise:
//     reasoning.summary "none" or absent. This is how open-weight servers
//     stream raw reasoning; Codex shows it only with
//     show_raw_agent_reasoning.
//   - A request that does not set reasoning.summary is answered as if it
//     had asked for "auto" when DefaultSummary is set: Codex sends no
//     summary for models it does not know, so its users would otherwise
//     see no reasoning. "none" always means reasoning text.
//
// Encrypted passback (EmitterConfig.ReasoningPassback) follows the request
// — include ["reasoning.encrypted_content"] (WantsEncryptedReasoning) — or
// is always on with DefaultPassback, for streamed and unary answers alike,
// on either channel.
type ReasoningPolicy struct {
	// DefaultSummary answers a request that sets no reasoning.summary as
	// if it had asked for "auto".
	DefaultSummary bool
	// DefaultPassback gives every reasoning item its encrypted_content,
	// asked for or not. Stateless clients that do not ask for it cannot
	// send the reasoning back as reasoning on the next turn: Qwen Code
	// (0.24) replays it as a visible assistant message, OpenCode (1.18,
	// the AI SDK's OpenAI provider with store:false) drops it, and the
	// next prompt loses the model's reasoning either way (and with it the
	// engine's prefix cache). With the encoding they send the item back
	// and convert.ResponsesToChat restores the exact text. The official
	// API writes encrypted_content only when asked; clients that do not
	// use it ignore the member.
	DefaultPassback bool
}

// WantsSummary reports whether req sets reasoning.summary to a summary
// kind (anything but "" and "none").
func WantsSummary(req *Request) bool {
	s := req.Reasoning.Value().Summary
	if s == "" {
		s = req.Reasoning.Value().GenerateSummary // the deprecated spelling
	}
	return s != "" && s != "none"
}

// Summary decides the channel of the answer to req: true for summaries,
// false for reasoning text.
func (p ReasoningPolicy) Summary(req *Request) bool {
	r := req.Reasoning.Value()
	if r.Summary == "none" || r.Summary == "" && r.GenerateSummary == "none" {
		return false
	}
	return WantsSummary(req) || p.DefaultSummary
}

// Passback reports whether the answer to req carries each reasoning
// item's text as its encrypted_content (EmitterConfig.ReasoningPassback):
// when the request includes reasoning.encrypted_content, or always with
// DefaultPassback.
func (p ReasoningPolicy) Passback(req *Request) bool {
	return p.DefaultPassback || WantsEncryptedReasoning(req)
}

// NewReasoningItem returns the completed reasoning item for text on the
// channel summary selects (see ReasoningPolicy): one summary_text part and
// no content, or one reasoning_text content part and an empty summary.
// The Emitter's items and unary answers (convert.ChatToResponses) are built
// the same way.
func NewReasoningItem(id, text string, summary bool) *ReasoningItem {
	if summary {
		return &ReasoningItem{ID: id, Summary: []ContentPart{{Type: PartSummaryText, Text: text}}}
	}
	return &ReasoningItem{ID: id, Summary: []ContentPart{},
		Content: protocols.Some([]ContentPart{{Type: PartReasoningText, Text: text}})}
}
