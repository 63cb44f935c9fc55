package pipeline

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/protocols"
)

// immediate parses guided tool-call output (immediate mode: the
// request forced tool_choice required or named and no marker-based tool
// parser applies): the content after reasoning is the guided JSON itself,
// an array of {"name", "parameters"} objects (required) or the arguments
// object of the named tool.
//
// The named form streams: the call starts at the object's first byte and
// its arguments are sent as they arrive; at the end the call is complete
// if they are one valid JSON object, else abandoned. The array form is
// buffered (bounded by the parser call buffer limit) and emitted as whole
// calls at the end. Content that is not the expected shape is released as
// content, unchanged, so nothing is lost. Under PRE.4 (gate.go) the
// bare-JSON branch goes through it too.
type immediate struct {
	name   string // the named tool; "" for the array form
	limit  int
	buf    []byte
	over   bool // the buffer limit was passed: released as content
	events []parsers.Event
	arena  []byte
	ids    protocols.IDSource
	done   bool
	named  namedState
}

// namedState is where the named form stands.
type namedState uint8

const (
	namedWait namedState = iota // only whitespace so far
	namedCall                   // streaming the call's arguments
	namedText                   // not an object: content
)

func (s namedState) String() string {
	switch s {
	case namedWait:
		return "waiting"
	case namedCall:
		return "in the call"
	case namedText:
		return "content"
	}
	return "namedState(" + strconv.Itoa(int(s)) + ")"
}

func (m *immediate) reset(name string, limit int, ids protocols.IDSource) {
	if limit <= 0 {
		limit = parsers.DefaultMaxCallBuffer
	}
	m.name, m.limit, m.ids = name, limit, ids
	m.buf, m.arena, m.events = m.buf[:0], m.arena[:0], m.events[:0]
	m.over, m.done, m.named = false, false, namedWait
}

// Feed buffers content; past the limit the buffer is released as content.
func (m *immediate) Feed(b []byte) []parsers.Event {
	m.events = m.events[:0]
	if m.done || len(b) == 0 {
		return nil
	}
	if m.name != "" {
		return m.feedNamed(b)
	}
	if m.over {
		m.events = append(m.events, parsers.Event{Kind: parsers.EventContent, Text: b})
		return m.events
	}
	m.buf = append(m.buf, b...)
	if len(m.buf) > m.limit {
		m.over = true
		m.events = append(m.events, parsers.Event{Kind: parsers.EventContent, Text: m.buf})
	}
	return m.events
}

// feedNamed streams the named form.
func (m *immediate) feedNamed(b []byte) []parsers.Event {
	switch m.named {
	case namedText:
		m.events = append(m.events, parsers.Event{Kind: parsers.EventContent, Text: b})
		return m.events
	case namedCall:
		if !m.over {
			if len(m.buf)+len(b) > m.limit {
				m.over = true // too long to validate at the end: abandoned
			} else {
				m.buf = append(m.buf, b...)
			}
		}
		m.events = append(m.events, parsers.Event{Kind: parsers.EventToolCallArgs, Text: b})
		return m.events
	}
	m.buf = append(m.buf, b...)
	t := bytes.TrimLeft(m.buf, " \t\r\n")
	switch {
	case len(t) == 0 && len(m.buf) <= maxHeldSpace:
		return nil
	case len(t) == 0 || t[0] != '{':
		m.named = namedText
		m.events = append(m.events, parsers.Event{Kind: parsers.EventContent, Text: m.buf})
		return m.events
	}
	m.named = namedCall
	m.events = append(m.events,
		parsers.Event{Kind: parsers.EventToolCallStart, ID: m.mintID(), Name: []byte(m.name)},
		parsers.Event{Kind: parsers.EventToolCallArgs, Text: t})
	return m.events
}

func (m *immediate) mintID() []byte {
	start := len(m.arena)
	m.arena = m.ids.AppendHex(m.arena, "call_")
	return m.arena[start:len(m.arena):len(m.arena)]
}

type guidedCall struct {
	Name       string          `json:"name"`
	Parameters json.RawMessage `json:"parameters"`
	Arguments  json.RawMessage `json:"arguments"`
}

// Finish parses the buffered content and returns the calls (or the
// content unchanged when it is not the guided shape).
func (m *immediate) Finish() []parsers.Event {
	m.events = m.events[:0]
	if m.done || m.over {
		m.done = true
		return nil
	}
	m.done = true
	if m.name != "" {
		switch m.named {
		case namedWait:
			if len(m.buf) > 0 {
				m.events = append(m.events, parsers.Event{Kind: parsers.EventContent, Text: m.buf})
			}
		case namedCall:
			kind := parsers.EventToolCallAbandoned
			if t := bytes.TrimSpace(m.buf); !m.over && json.Valid(t) {
				kind = parsers.EventToolCallEnd
			}
			m.events = append(m.events, parsers.Event{Kind: kind})
		}
		return m.events
	}
	text := bytes.TrimSpace(m.buf)
	if len(text) == 0 {
		return nil
	}
	var calls []guidedCall
	switch {
	case text[0] == '[':
		if json.Unmarshal(text, &calls) != nil {
			calls = nil
		}
	case text[0] == '{':
		var c guidedCall
		if json.Unmarshal(text, &c) == nil {
			calls = []guidedCall{c}
		}
	}
	for _, c := range calls {
		if c.Name == "" {
			calls = nil
			break
		}
	}
	if len(calls) == 0 {
		m.events = append(m.events, parsers.Event{Kind: parsers.EventContent, Text: m.buf})
		return m.events
	}
	for i, c := range calls {
		args := c.Parameters
		if len(args) == 0 {
			args = c.Arguments
		}
		var compact bytes.Buffer
		if len(args) == 0 || json.Compact(&compact, args) != nil || compact.Bytes()[0] != '{' {
			compact.Reset()
			compact.WriteString("{}")
		}
		m.events = append(m.events,
			parsers.Event{Kind: parsers.EventToolCallStart, Index: i, ID: m.mintID(), Name: []byte(c.Name)},
			parsers.Event{Kind: parsers.EventToolCallArgs, Index: i, Text: compact.Bytes()},
			parsers.Event{Kind: parsers.EventToolCallEnd, Index: i})
	}
	return m.events
}
