package responses

// ReasoningPolicy is the server's side of reasoning visibility on the
// Responses API. The emitter always sends the model's reasoning as a
// reasoning item with reasoning_text content; what the policy decides is
// whether the same text is also delivered as summary_text (summary parts
// and reasoning_summary_text events), which is what clients such as Codex
// display.
//
//   - A request that sets reasoning.summary ("auto", "concise",
//     "detailed") gets summaries.
//   - A request whose reasoning.summary is "none" does not.
//   - A request that does not set it gets DefaultSummary: Codex's default
//     models send an effort but no summary, so their users see no
//     reasoning unless the server turns this on.
//
// Encrypted passback (EmitterConfig.ReasoningPassback) follows the request:
// include ["reasoning.encrypted_content"] (WantsEncryptedReasoning), for
// streamed and unary answers alike.
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

// Summary decides whether the answer to req carries reasoning summaries.
func (p ReasoningPolicy) Summary(req *Request) bool {
	r := req.Reasoning.Value()
	if r.Summary == "none" || r.Summary == "" && r.GenerateSummary == "none" {
		return false
	}
	return WantsSummary(req) || p.DefaultSummary
}
