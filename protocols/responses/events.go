package responses

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// Stream event types.
const (
	EventCreated                 = "response.created"
	EventInProgress              = "response.in_progress"
	EventCompleted               = "response.completed"
	EventIncomplete              = "response.incomplete"
	EventFailed                  = "response.failed"
	EventQueued                  = "response.queued"
	EventOutputItemAdded         = "response.output_item.added"
	EventOutputItemDone          = "response.output_item.done"
	EventContentPartAdded        = "response.content_part.added"
	EventContentPartDone         = "response.content_part.done"
	EventOutputTextDelta         = "response.output_text.delta"
	EventOutputTextDone          = "response.output_text.done"
	EventRefusalDelta            = "response.refusal.delta"
	EventRefusalDone             = "response.refusal.done"
	EventReasoningTextDelta      = "response.reasoning_text.delta"
	EventReasoningTextDone       = "response.reasoning_text.done"
	EventReasoningSummaryAdded   = "response.reasoning_summary_part.added"
	EventReasoningSummaryDone    = "response.reasoning_summary_part.done"
	EventReasoningSummaryDelta   = "response.reasoning_summary_text.delta"
	EventReasoningSummaryTxtDone = "response.reasoning_summary_text.done"
	EventFunctionArgsDelta       = "response.function_call_arguments.delta"
	EventFunctionArgsDone        = "response.function_call_arguments.done"
	EventCustomInputDelta        = "response.custom_tool_call_input.delta"
	EventCustomInputDone         = "response.custom_tool_call_input.done"
	EventError                   = "error"
)

// StreamEvent is one Responses stream event; the concrete types are the
// *Event structs of this package. Every event has a type and a sequence
// number.
type StreamEvent interface {
	EventType() string
	Sequence() int64
}

// ResponseEvent is response.created / in_progress / completed / incomplete
// / failed / queued: the response envelope.
type ResponseEvent struct {
	Type           string   `json:"type"`
	SequenceNumber int64    `json:"sequence_number"`
	Response       Response `json:"response"`
}

// OutputItemEvent is response.output_item.added / done.
type OutputItemEvent struct {
	Type           string `json:"type"`
	SequenceNumber int64  `json:"sequence_number"`
	OutputIndex    int    `json:"output_index"`
	Item           Item   `json:"item"`
}

// ContentPartEvent is response.content_part.added / done.
type ContentPartEvent struct {
	Type           string      `json:"type"`
	SequenceNumber int64       `json:"sequence_number"`
	ItemID         string      `json:"item_id"`
	OutputIndex    int         `json:"output_index"`
	ContentIndex   int         `json:"content_index"`
	Part           ContentPart `json:"part"`
}

// TextDeltaEvent is response.output_text.delta, response.reasoning_text.delta
// and response.refusal.delta. Logprobs is written ([] when empty) only for
// output_text.
type TextDeltaEvent struct {
	Type           string
	SequenceNumber int64
	ItemID         string
	OutputIndex    int
	ContentIndex   int
	Delta          string
	Logprobs       []RawJSON
}

// TextDoneEvent is response.output_text.done, response.reasoning_text.done
// and response.refusal.done (whose member is "refusal", not "text").
type TextDoneEvent struct {
	Type           string
	SequenceNumber int64
	ItemID         string
	OutputIndex    int
	ContentIndex   int
	Text           string
	Logprobs       []RawJSON
}

// SummaryPartEvent is response.reasoning_summary_part.added / done.
type SummaryPartEvent struct {
	Type           string      `json:"type"`
	SequenceNumber int64       `json:"sequence_number"`
	ItemID         string      `json:"item_id"`
	OutputIndex    int         `json:"output_index"`
	SummaryIndex   int         `json:"summary_index"`
	Part           ContentPart `json:"part"`
}

// SummaryTextEvent is response.reasoning_summary_text.delta (Delta) and
// .done (Text).
type SummaryTextEvent struct {
	Type           string `json:"type"`
	SequenceNumber int64  `json:"sequence_number"`
	ItemID         string `json:"item_id"`
	OutputIndex    int    `json:"output_index"`
	SummaryIndex   int    `json:"summary_index"`
	Delta          string `json:"delta,omitzero"`
	Text           string `json:"text,omitzero"`
}

// ArgumentsDeltaEvent is response.function_call_arguments.delta (and the
// custom tool input delta).
type ArgumentsDeltaEvent struct {
	Type           string `json:"type"`
	SequenceNumber int64  `json:"sequence_number"`
	ItemID         string `json:"item_id"`
	OutputIndex    int    `json:"output_index"`
	Delta          string `json:"delta"`
}

// ArgumentsDoneEvent is response.function_call_arguments.done (Name,
// Arguments) and response.custom_tool_call_input.done (Input).
type ArgumentsDoneEvent struct {
	Type           string `json:"type"`
	SequenceNumber int64  `json:"sequence_number"`
	ItemID         string `json:"item_id"`
	OutputIndex    int    `json:"output_index"`
	Name           string `json:"name,omitzero"`
	Arguments      string `json:"arguments,omitzero"`
	Input          string `json:"input,omitzero"`
}

// ErrorEvent is the stream-level error event.
type ErrorEvent struct {
	Type           string      `json:"type"` // "error"
	SequenceNumber int64       `json:"sequence_number"`
	Code           Opt[string] `json:"code"`
	Message        string      `json:"message"`
	Param          Opt[string] `json:"param"`
}

func (e ResponseEvent) EventType() string       { return e.Type }
func (e OutputItemEvent) EventType() string     { return e.Type }
func (e ContentPartEvent) EventType() string    { return e.Type }
func (e TextDeltaEvent) EventType() string      { return e.Type }
func (e TextDoneEvent) EventType() string       { return e.Type }
func (e SummaryPartEvent) EventType() string    { return e.Type }
func (e SummaryTextEvent) EventType() string    { return e.Type }
func (e ArgumentsDeltaEvent) EventType() string { return e.Type }
func (e ArgumentsDoneEvent) EventType() string  { return e.Type }
func (e ErrorEvent) EventType() string          { return e.Type }

func (e ResponseEvent) Sequence() int64       { return e.SequenceNumber }
func (e OutputItemEvent) Sequence() int64     { return e.SequenceNumber }
func (e ContentPartEvent) Sequence() int64    { return e.SequenceNumber }
func (e TextDeltaEvent) Sequence() int64      { return e.SequenceNumber }
func (e TextDoneEvent) Sequence() int64       { return e.SequenceNumber }
func (e SummaryPartEvent) Sequence() int64    { return e.SequenceNumber }
func (e SummaryTextEvent) Sequence() int64    { return e.SequenceNumber }
func (e ArgumentsDeltaEvent) Sequence() int64 { return e.SequenceNumber }
func (e ArgumentsDoneEvent) Sequence() int64  { return e.SequenceNumber }
func (e ErrorEvent) Sequence() int64          { return e.SequenceNumber }

type textEventJSON struct {
	Type           string    `json:"type"`
	SequenceNumber int64     `json:"sequence_number"`
	ItemID         string    `json:"item_id"`
	OutputIndex    int       `json:"output_index"`
	ContentIndex   int       `json:"content_index"`
	Delta          *string   `json:"delta,omitempty"`
	Text           *string   `json:"text,omitempty"`
	Refusal        *string   `json:"refusal,omitempty"`
	Logprobs       []RawJSON `json:"logprobs,omitempty"`
}

// MarshalJSON writes logprobs ([] when empty) for output_text only.
func (e TextDeltaEvent) MarshalJSON() ([]byte, error) {
	v := textEventJSON{Type: e.Type, SequenceNumber: e.SequenceNumber, ItemID: e.ItemID, OutputIndex: e.OutputIndex, ContentIndex: e.ContentIndex, Delta: &e.Delta}
	return marshalText(v, e.Type == EventOutputTextDelta, e.Logprobs)
}

// UnmarshalJSON reads any of the text delta events.
func (e *TextDeltaEvent) UnmarshalJSON(data []byte) error {
	var v textEventJSON
	if err := jsonx.Unmarshal(data, &v); err != nil {
		return err
	}
	*e = TextDeltaEvent{Type: v.Type, SequenceNumber: v.SequenceNumber, ItemID: v.ItemID, OutputIndex: v.OutputIndex, ContentIndex: v.ContentIndex, Logprobs: v.Logprobs}
	if v.Delta != nil {
		e.Delta = *v.Delta
	}
	return nil
}

// MarshalJSON writes "text" ("refusal" for refusal.done) and logprobs for
// output_text.
func (e TextDoneEvent) MarshalJSON() ([]byte, error) {
	v := textEventJSON{Type: e.Type, SequenceNumber: e.SequenceNumber, ItemID: e.ItemID, OutputIndex: e.OutputIndex, ContentIndex: e.ContentIndex}
	if e.Type == EventRefusalDone {
		v.Refusal = &e.Text
	} else {
		v.Text = &e.Text
	}
	return marshalText(v, e.Type == EventOutputTextDone, e.Logprobs)
}

// UnmarshalJSON reads any of the text done events.
func (e *TextDoneEvent) UnmarshalJSON(data []byte) error {
	var v textEventJSON
	if err := jsonx.Unmarshal(data, &v); err != nil {
		return err
	}
	*e = TextDoneEvent{Type: v.Type, SequenceNumber: v.SequenceNumber, ItemID: v.ItemID, OutputIndex: v.OutputIndex, ContentIndex: v.ContentIndex, Logprobs: v.Logprobs}
	switch {
	case v.Text != nil:
		e.Text = *v.Text
	case v.Refusal != nil:
		e.Text = *v.Refusal
	}
	return nil
}

func marshalText(v textEventJSON, withLogprobs bool, logprobs []RawJSON) ([]byte, error) {
	b, err := jsonx.Marshal(v)
	if err != nil || !withLogprobs {
		return b, err
	}
	lp := []byte("[]")
	if len(logprobs) > 0 {
		if lp, err = jsonx.Marshal(logprobs); err != nil {
			return nil, err
		}
	}
	b = append(b[:len(b)-1], `,"logprobs":`...)
	b = append(b, lp...)
	return append(b, '}'), nil
}

// DecodeStreamEvent decodes the data of one event by its "type". Unknown
// types are an error wrapping ErrUnknownEvent.
func DecodeStreamEvent(data []byte) (StreamEvent, error) {
	typ, err := wire.PeekType(data)
	if err != nil {
		return nil, err
	}
	var ev StreamEvent
	switch typ {
	case EventCreated, EventInProgress, EventCompleted, EventIncomplete, EventFailed, EventQueued:
		var e ResponseEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventOutputItemAdded, EventOutputItemDone:
		var e OutputItemEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventContentPartAdded, EventContentPartDone:
		var e ContentPartEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventOutputTextDelta, EventReasoningTextDelta, EventRefusalDelta:
		var e TextDeltaEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventOutputTextDone, EventReasoningTextDone, EventRefusalDone:
		var e TextDoneEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventReasoningSummaryAdded, EventReasoningSummaryDone:
		var e SummaryPartEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventReasoningSummaryDelta, EventReasoningSummaryTxtDone:
		var e SummaryTextEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventFunctionArgsDelta, EventCustomInputDelta:
		var e ArgumentsDeltaEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventFunctionArgsDone, EventCustomInputDone:
		var e ArgumentsDoneEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventError:
		var e ErrorEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknownEvent, typ)
	}
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// ErrUnknownEvent is wrapped by DecodeStreamEvent for unknown event types.
var ErrUnknownEvent = fmt.Errorf("responses: unknown stream event")
