package testutil

import "github.com/agentwire/agentwire/protocols"

// Step is one neutral event fed to an emitter.
type Step struct {
	Kind   StepKind
	Index  int
	ID     string
	Name   string
	Text   string
	Reason protocols.FinishReason
	Usage  protocols.Usage
}

// StepKind selects the Emitter method a Step calls.
type StepKind uint8

// Step kinds.
const (
	Content StepKind = iota
	Reasoning
	Start
	Args
	End
	Abandon
	Finish
	Fail
)

// Script shorthands.
func C(s string) Step               { return Step{Kind: Content, Text: s} }
func R(s string) Step               { return Step{Kind: Reasoning, Text: s} }
func S(i int, id, name string) Step { return Step{Kind: Start, Index: i, ID: id, Name: name} }
func A(i int, frag string) Step     { return Step{Kind: Args, Index: i, Text: frag} }
func E(i int) Step                  { return Step{Kind: End, Index: i} }
func X(i int) Step                  { return Step{Kind: Abandon, Index: i} }
func F(r protocols.FinishReason, u protocols.Usage) Step {
	return Step{Kind: Finish, Reason: r, Usage: u}
}
func Err(msg string) Step { return Step{Kind: Fail, Text: msg} }

// Run feeds steps to e and returns everything it wrote.
func Run(e protocols.Emitter, steps []Step) []byte {
	var out []byte
	for _, s := range steps {
		out = Apply(e, out, s)
	}
	return out
}

// Apply feeds one step.
func Apply(e protocols.Emitter, dst []byte, s Step) []byte {
	switch s.Kind {
	case Content:
		return e.Content(dst, []byte(s.Text))
	case Reasoning:
		return e.Reasoning(dst, []byte(s.Text))
	case Start:
		return e.ToolCallStart(dst, s.Index, []byte(s.ID), []byte(s.Name))
	case Args:
		return e.ToolCallArgs(dst, s.Index, []byte(s.Text))
	case End:
		return e.ToolCallEnd(dst, s.Index)
	case Abandon:
		return e.ToolCallAbandoned(dst, s.Index)
	case Finish:
		return e.Finish(dst, s.Reason, s.Usage)
	case Fail:
		return e.Fail(dst, s.Text)
	}
	return dst
}
