package parsers

import "unsafe"

// Result is a whole parsed output. It owns its memory.
type Result struct {
	Content   string
	Reasoning string
	Calls     []ToolCall
}

// ToolCall is one complete tool call.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string // one JSON object
}

// Parse is the buffered ("detect and parse") entry point: the same machine
// as the streaming path, fed text in one chunk and finished. Abandoned calls
// are omitted.
func Parse(cfg Config, text string) (Result, error) {
	return ParseBytes(cfg, unsafe.Slice(unsafe.StringData(text), len(text)))
}

// ParseBytes is Parse for a byte slice; text is only read.
func ParseBytes(cfg Config, text []byte) (Result, error) {
	p, err := New(cfg)
	if err != nil {
		return Result{}, err
	}
	var acc Accumulator
	acc.Add(p.Feed(text))
	acc.Add(p.Finish())
	return acc.Result(), nil
}

// Accumulator collects streamed events into a Result. The zero value is
// ready to use. It copies what it keeps, so events may be reused after Add.
type Accumulator struct {
	content, reasoning []byte
	calls              []accCall
}

type accCall struct {
	index int
	id    string
	name  string
	args  []byte
	state uint8 // 0 open, 1 ended, 2 abandoned
}

// Add records events.
func (a *Accumulator) Add(events []Event) {
	for _, e := range events {
		switch e.Kind {
		case EventContent:
			a.content = append(a.content, e.Text...)
		case EventReasoning:
			a.reasoning = append(a.reasoning, e.Text...)
		case EventToolCallStart:
			a.calls = append(a.calls, accCall{index: e.Index, id: string(e.ID), name: string(e.Name)})
		case EventToolCallArgs:
			if c := a.call(e.Index); c != nil {
				c.args = append(c.args, e.Text...)
			}
		case EventToolCallEnd:
			if c := a.call(e.Index); c != nil {
				c.state = 1
			}
		case EventToolCallAbandoned:
			if c := a.call(e.Index); c != nil {
				c.state = 2
			}
		}
	}
}

func (a *Accumulator) call(index int) *accCall {
	for i := len(a.calls) - 1; i >= 0; i-- {
		if a.calls[i].index == index {
			return &a.calls[i]
		}
	}
	return nil
}

// Result returns what was accumulated: the content, the reasoning and the
// complete calls in order (open and abandoned calls are omitted).
func (a *Accumulator) Result() Result {
	r := Result{Content: string(a.content), Reasoning: string(a.reasoning)}
	for _, c := range a.calls {
		if c.state == 1 {
			r.Calls = append(r.Calls, ToolCall{ID: c.id, Name: c.name, Arguments: string(c.args)})
		}
	}
	return r
}

// Abandoned returns how many calls were started and then abandoned.
func (a *Accumulator) Abandoned() int {
	n := 0
	for _, c := range a.calls {
		if c.state == 2 {
			n++
		}
	}
	return n
}
