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
// Encrypted passback (EmitterConfig.ReasoningPassback) follows the request:
// include ["reasoning.encrypted_content"] (WantsEncryptedReasoning), for
// streamed and unary answers alike, on either channel.
type ReasoningPolicy struct {
	DefaultSummary bool
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
