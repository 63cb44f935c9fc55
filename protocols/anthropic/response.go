package anthropic

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// Response is a unary message response ({"type":"message"}). It is also the
// message inside message_start.
type Response struct {
	ID           string         `json:"id"`
	Role         string         `json:"role"` // "assistant"
	Model        string         `json:"model"`
	Content      []ContentBlock `json:"content"`
	StopReason   Opt[string]    `json:"stop_reason"`
	StopSequence Opt[string]    `json:"stop_sequence"`
	Usage        Usage          `json:"usage"`
	Container    RawJSON        `json:"container,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// Usage is the Anthropic usage object. Both cache fields are always
// written.
type Usage struct {
	InputTokens              int64   `json:"input_tokens"`
	OutputTokens             int64   `json:"output_tokens"`
	CacheCreationInputTokens int64   `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64   `json:"cache_read_input_tokens"`
	ServiceTier              string  `json:"service_tier,omitzero"`
	ServerToolUse            RawJSON `json:"server_tool_use,omitzero"`
	CacheCreation            RawJSON `json:"cache_creation,omitzero"`

	Extra protocols.Extra `json:"-"`
}

// UsageFrom maps neutral usage: input_tokens = prompt − cached,
// cache_read_input_tokens = min(cached, prompt), cache_creation = 0,
// output_tokens = completion.
func UsageFrom(u protocols.Usage) Usage {
	cached := min(u.CachedTokens, u.PromptTokens)
	return Usage{
		InputTokens:          u.PromptTokens - cached,
		OutputTokens:         u.CompletionTokens,
		CacheReadInputTokens: cached,
	}
}

// MarshalJSON writes {"type":"message",…}.
func (v Response) MarshalJSON() ([]byte, error) {
	type plain Response
	if v.Content == nil {
		v.Content = []ContentBlock{}
	}
	return wire.Marshal("message", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Response) UnmarshalJSON(data []byte) error {
	type plain Response
	return wire.DecodeVariant(data, (*plain)(v), &v.Extra)
}

// MarshalJSON writes the modelled members and Extra.
func (v Usage) MarshalJSON() ([]byte, error) {
	type plain Usage
	return wire.Marshal("", plain(v), v.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (v *Usage) UnmarshalJSON(data []byte) error {
	type plain Usage
	return wire.Decode(data, (*plain)(v), &v.Extra)
}

// SSE event types.
const (
	EventMessageStart      = "message_start"
	EventContentBlockStart = "content_block_start"
	EventContentBlockDelta = "content_block_delta"
	EventContentBlockStop  = "content_block_stop"
	EventMessageDelta      = "message_delta"
	EventMessageStop       = "message_stop"
	EventPing              = "ping"
	EventError             = "error"

	DeltaText      = "text_delta"
	DeltaInputJSON = "input_json_delta"
	DeltaThinking  = "thinking_delta"
	DeltaSignature = "signature_delta"
	DeltaCitations = "citations_delta"
)

// StreamEvent is one Messages SSE event. The concrete types are the
// *Event structs of this package; use a type switch.
type StreamEvent interface {
	// EventType returns the event's "type" (also its SSE event name).
	EventType() string
}

// MessageStartEvent opens the stream with the message envelope.
type MessageStartEvent struct {
	Message Response `json:"message"`
}

// ContentBlockStartEvent opens block Index. Text and thinking blocks start
// empty; a tool_use block starts with "input":{}.
type ContentBlockStartEvent struct {
	Index        int          `json:"index"`
	ContentBlock ContentBlock `json:"content_block"`
}

// ContentBlockDeltaEvent carries one delta of block Index.
type ContentBlockDeltaEvent struct {
	Index int         `json:"index"`
	Delta Delta       `json:"delta"`
	Usage *DeltaUsage `json:"usage,omitzero"` // Dynamo extension, off by default
}

// DeltaUsage is Dynamo's running usage on content_block_delta.
type DeltaUsage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	TotalTokens              int64 `json:"total_tokens"`
}

// Delta is a content block delta; Type selects the member written:
// text_delta (Text), input_json_delta (PartialJSON), thinking_delta
// (Thinking), signature_delta (Signature), citations_delta (Citation).
type Delta struct {
	Type        string
	Text        string
	PartialJSON string
	Thinking    string
	Signature   string
	Citation    RawJSON
}

// MarshalJSON writes the member that Type selects.
func (d Delta) MarshalJSON() ([]byte, error) {
	b := []byte(`{"type":`)
	b = jsonx.AppendString(b, d.Type)
	switch d.Type {
	case DeltaText:
		b = append(b, `,"text":`...)
		b = jsonx.AppendString(b, d.Text)
	case DeltaInputJSON:
		b = append(b, `,"partial_json":`...)
		b = jsonx.AppendString(b, d.PartialJSON)
	case DeltaThinking:
		b = append(b, `,"thinking":`...)
		b = jsonx.AppendString(b, d.Thinking)
	case DeltaSignature:
		b = append(b, `,"signature":`...)
		b = jsonx.AppendString(b, d.Signature)
	case DeltaCitations:
		b = append(b, `,"citation":`...)
		if len(d.Citation) == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, d.Citation...)
		}
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads any delta type.
func (d *Delta) UnmarshalJSON(data []byte) error {
	var v struct {
		Type        string  `json:"type"`
		Text        string  `json:"text"`
		PartialJSON string  `json:"partial_json"`
		Thinking    string  `json:"thinking"`
		Signature   string  `json:"signature"`
		Citation    RawJSON `json:"citation"`
	}
	if err := jsonx.Unmarshal(data, &v); err != nil {
		return err
	}
	*d = Delta(v)
	return nil
}

// ContentBlockStopEvent closes block Index.
type ContentBlockStopEvent struct {
	Index int `json:"index"`
}

// MessageDeltaEvent carries the stop reason and the final usage.
type MessageDeltaEvent struct {
	Delta MessageDelta `json:"delta"`
	Usage Usage        `json:"usage"`
}

// MessageDelta is the delta of message_delta.
type MessageDelta struct {
	StopReason   Opt[string] `json:"stop_reason"`
	StopSequence Opt[string] `json:"stop_sequence"`
}

// MessageStopEvent ends the stream.
type MessageStopEvent struct{}

// PingEvent is a keep-alive; clients ignore it.
type PingEvent struct{}

// ErrorEvent reports an error after the stream started.
type ErrorEvent struct {
	Error ErrorObject `json:"error"`
}

func (MessageStartEvent) EventType() string      { return EventMessageStart }
func (ContentBlockStartEvent) EventType() string { return EventContentBlockStart }
func (ContentBlockDeltaEvent) EventType() string { return EventContentBlockDelta }
func (ContentBlockStopEvent) EventType() string  { return EventContentBlockStop }
func (MessageDeltaEvent) EventType() string      { return EventMessageDelta }
func (MessageStopEvent) EventType() string       { return EventMessageStop }
func (PingEvent) EventType() string              { return EventPing }
func (ErrorEvent) EventType() string             { return EventError }

// MarshalJSON writes the event with its "type".
func (e MessageStartEvent) MarshalJSON() ([]byte, error) {
	type plain MessageStartEvent
	return wire.Marshal(e.EventType(), plain(e), nil)
}

// MarshalJSON writes the event with its "type".
func (e ContentBlockStartEvent) MarshalJSON() ([]byte, error) {
	type plain ContentBlockStartEvent
	return wire.Marshal(e.EventType(), plain(e), nil)
}

// MarshalJSON writes the event with its "type".
func (e ContentBlockDeltaEvent) MarshalJSON() ([]byte, error) {
	type plain ContentBlockDeltaEvent
	return wire.Marshal(e.EventType(), plain(e), nil)
}

// MarshalJSON writes the event with its "type".
func (e ContentBlockStopEvent) MarshalJSON() ([]byte, error) {
	type plain ContentBlockStopEvent
	return wire.Marshal(e.EventType(), plain(e), nil)
}

// MarshalJSON writes the event with its "type".
func (e MessageDeltaEvent) MarshalJSON() ([]byte, error) {
	type plain MessageDeltaEvent
	return wire.Marshal(e.EventType(), plain(e), nil)
}

// MarshalJSON writes the event with its "type".
func (e MessageStopEvent) MarshalJSON() ([]byte, error) {
	return []byte(`{"type":"message_stop"}`), nil
}

// MarshalJSON writes the event with its "type".
func (e PingEvent) MarshalJSON() ([]byte, error) { return []byte(`{"type":"ping"}`), nil }

// MarshalJSON writes the event with its "type".
func (e ErrorEvent) MarshalJSON() ([]byte, error) {
	type plain ErrorEvent
	return wire.Marshal(e.EventType(), plain(e), nil)
}

// DecodeStreamEvent decodes the data of one SSE event by its "type".
// Unknown event types are an error wrapping ErrUnknownEvent.
func DecodeStreamEvent(data []byte) (StreamEvent, error) {
	typ, err := wire.PeekType(data)
	if err != nil {
		return nil, err
	}
	var ev StreamEvent
	switch typ {
	case EventMessageStart:
		var e MessageStartEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventContentBlockStart:
		var e ContentBlockStartEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventContentBlockDelta:
		var e ContentBlockDeltaEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventContentBlockStop:
		var e ContentBlockStopEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventMessageDelta:
		var e MessageDeltaEvent
		err, ev = jsonx.Unmarshal(data, &e), &e
	case EventMessageStop:
		ev = &MessageStopEvent{}
	case EventPing:
		ev = &PingEvent{}
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
var ErrUnknownEvent = fmt.Errorf("anthropic: unknown stream event")
