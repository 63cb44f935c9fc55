package parsers

import (
	"fmt"
	"strconv"
)

// EventKind says what an Event carries.
type EventKind uint8

const (
	// EventContent is user-visible text (delta.content).
	EventContent EventKind = iota + 1
	// EventReasoning is reasoning text (reasoning_content).
	EventReasoning
	// EventToolCallStart opens tool call Index with its ID and Name. It is
	// emitted once the name is complete; ID and Name never change later.
	EventToolCallStart
	// EventToolCallArgs is a fragment of call Index's arguments, JSON text.
	// The fragments of a call, concatenated, are its final arguments.
	EventToolCallArgs
	// EventToolCallEnd closes call Index: it is complete and its arguments
	// are one valid JSON object.
	EventToolCallEnd
	// EventToolCallAbandoned closes call Index without completing it: the
	// model output can never complete the call (malformed arguments, end of
	// stream inside the call, a buffer limit). Its start and fragments were
	// already emitted; the buffered Result omits it. Never emitted in
	// Config.WholeCalls mode, where abandoned calls are invisible.
	EventToolCallAbandoned
)

var kindNames = [...]string{
	EventContent:           "content",
	EventReasoning:         "reasoning",
	EventToolCallStart:     "tool_call_start",
	EventToolCallArgs:      "tool_call_args",
	EventToolCallEnd:       "tool_call_end",
	EventToolCallAbandoned: "tool_call_abandoned",
}

func (k EventKind) String() string { return enumName(kindNames[:], k, "EventKind") }

// Event is one step of a parsed model output.
//
// The byte slices alias memory owned by the Parser (or the chunk passed to
// Feed) and are valid only until the next call to Feed, Finish or Reset on
// the same Parser, and only while the caller leaves that chunk unmodified.
// Use Clone to keep an event longer.
type Event struct {
	Kind  EventKind
	Index int    // tool call index (0, 1, … within the output) for tool call events
	ID    []byte // EventToolCallStart: the call id
	Name  []byte // EventToolCallStart: the function name
	Text  []byte // EventContent, EventReasoning: text; EventToolCallArgs: JSON fragment
}

// Clone returns a copy of e that owns its memory.
func (e Event) Clone() Event {
	c := e
	c.ID = cloneBytes(e.ID)
	c.Name = cloneBytes(e.Name)
	c.Text = cloneBytes(e.Text)
	return c
}

func cloneBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// String renders the event for tests and debugging.
func (e Event) String() string {
	switch e.Kind {
	case EventContent, EventReasoning:
		return fmt.Sprintf("%s(%q)", e.Kind, e.Text)
	case EventToolCallStart:
		return fmt.Sprintf("%s(%d, %q, %q)", e.Kind, e.Index, e.ID, e.Name)
	case EventToolCallArgs:
		return fmt.Sprintf("%s(%d, %q)", e.Kind, e.Index, e.Text)
	}
	return fmt.Sprintf("%s(%d)", e.Kind, e.Index)
}

// enumName returns names[v], or "typ(v)" for a value without a name; the
// String methods of the package's small enums use it.
func enumName[T ~uint8](names []string, v T, typ string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}
