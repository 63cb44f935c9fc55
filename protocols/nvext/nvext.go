// Package nvext models Dynamo's `nvext` request and response extension and
// its `agent_hints`.
//
// Request nvext is always strict, as in Dynamo: an unknown key is a decode
// error (`invalid nvext: unknown field `x“), because a misspelt routing hint
// that is silently ignored is worse than an error. The response extension
// keeps unknown members like every other protocol type.
package nvext

import (
	"errors"
	"fmt"
	"strings"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/internal/wire"
)

// Opt is protocols.Opt, repeated here for brevity.
type Opt[T any] = protocols.Opt[T]

// Annotation names understood in NvExt.Annotations. A fourth form,
// "query_instance_id:<x>", carries a value.
const (
	AnnotationFormattedPrompt = "formatted_prompt"
	AnnotationTokenIDs        = "token_ids"
	AnnotationRequestID       = "request_id"
	AnnotationQueryInstanceID = "query_instance_id:" // prefix
)

// UnsetDPRank is the data-parallel rank value that means "unset".
const UnsetDPRank = ^uint32(0)

// NvExt is the request extension (newest Dynamo, strict).
type NvExt struct {
	GreedSampling      Opt[bool]           `json:"greed_sampling,omitzero"`      // force greedy sampling
	UseRawPrompt       Opt[bool]           `json:"use_raw_prompt,omitzero"`      // skip the chat template
	Annotations        []string            `json:"annotations,omitzero"`         // side-channel SSE annotations
	BackendInstanceID  Opt[uint64]         `json:"backend_instance_id,omitzero"` // pin a worker
	TokenData          []uint32            `json:"token_data,omitzero"`          // pre-tokenized prompt
	MaxThinkingTokens  Opt[uint32]         `json:"max_thinking_tokens,omitzero"` // reasoning budget
	CacheSalt          Opt[string]         `json:"cache_salt,omitzero"`          // KV-cache salt
	ExtraFields        []string            `json:"extra_fields,omitzero"`        // opt-in response nvext fields
	MetadataUpload     *MetadataUpload     `json:"metadata_upload,omitzero"`     // forwarded upload target
	PrefillWorkerID    Opt[uint64]         `json:"prefill_worker_id,omitzero"`   // disaggregated pinning
	DecodeWorkerID     Opt[uint64]         `json:"decode_worker_id,omitzero"`    // disaggregated pinning
	DPRank             Opt[uint32]         `json:"dp_rank,omitzero"`             // data-parallel rank
	PrefillDPRank      Opt[uint32]         `json:"prefill_dp_rank,omitzero"`     // prefill data-parallel rank
	AgentHints         *AgentHints         `json:"agent_hints,omitzero"`
	RequestTimestampMs Opt[float64]        `json:"request_timestamp_ms,omitzero"` // trace replay / virtual time
	RoutingConstraints *RoutingConstraints `json:"routing_constraints,omitzero"`  // router taints
	Router             *RouterHints        `json:"router,omitzero"`               // router SLO hints
	SessionControl     *SessionControl     `json:"session_control,omitzero"`      // older Dynamo sticky sessions
}

// MetadataUpload is nvext.metadata_upload: exactly one non-empty url.
type MetadataUpload struct {
	URL string `json:"url"`
}

// AgentHints is nvext.agent_hints (strict).
type AgentHints struct {
	Priority           Opt[int32]   `json:"priority,omitzero"`            // higher = more important
	StrictPriority     Opt[uint32]  `json:"strict_priority,omitzero"`     // strict router queue tier
	OSL                Opt[uint32]  `json:"osl,omitzero"`                 // expected output tokens
	SpeculativePrefill Opt[bool]    `json:"speculative_prefill,omitzero"` // warm the next turn's prefix
	LatencySensitivity Opt[float64] `json:"latency_sensitivity,omitzero"` // deprecated router-only priority
}

// RoutingConstraints carries router taints.
type RoutingConstraints struct {
	RequiredTaints  []string           `json:"required_taints,omitzero"`
	PreferredTaints map[string]float32 `json:"preferred_taints,omitzero"`
}

// RouterHints carries router SLO targets in milliseconds.
type RouterHints struct {
	TTFTTarget Opt[float64] `json:"ttft_target,omitzero"`
	ITLTarget  Opt[float64] `json:"itl_target,omitzero"`
}

// SessionControl is the older Dynamo sticky-session control.
type SessionControl struct {
	SessionID string      `json:"session_id"`
	Action    string      `json:"action,omitzero"`  // open | close
	Timeout   Opt[uint64] `json:"timeout,omitzero"` // seconds, default 300
}

// ErrInvalid is wrapped by every nvext validation error.
var ErrInvalid = errors.New("invalid nvext")

// strictDecode decodes data into plain and rejects members known does not
// list, with Dynamo's message.
func strictDecode(data []byte, plain any, known wire.Fields, where string) error {
	extra, err := wire.Unmarshal(data, plain, known)
	if errors.Is(err, ErrInvalid) {
		return err // a nested member's error, already prefixed
	}
	if err != nil {
		return fmt.Errorf("%w%s: %v", ErrInvalid, where, err)
	}
	if len(extra) > 0 {
		keys := extra.Keys()
		return fmt.Errorf("%w%s: unknown field `%s`", ErrInvalid, where, keys[0])
	}
	return nil
}

// UnmarshalJSON decodes strictly. `agent_context` is rejected with its own
// message: agent identity comes from harness headers, not the body.
func (n *NvExt) UnmarshalJSON(data []byte) error {
	type plain NvExt
	var p plain
	if err := strictDecode(data, &p, wire.FieldsOf[plain](), ""); err != nil {
		if strings.Contains(err.Error(), "`agent_context`") {
			return fmt.Errorf("%w: agent_context is not accepted in nvext; it is derived from request headers", ErrInvalid)
		}
		return err
	}
	*n = NvExt(p)
	return nil
}

// UnmarshalJSON decodes strictly and requires a non-empty url.
func (m *MetadataUpload) UnmarshalJSON(data []byte) error {
	type plain MetadataUpload
	var p plain
	if err := strictDecode(data, &p, wire.FieldsOf[plain](), ".metadata_upload"); err != nil {
		return err
	}
	p.URL = strings.TrimSpace(p.URL)
	if p.URL == "" {
		return fmt.Errorf("%w.metadata_upload: url must not be empty", ErrInvalid)
	}
	*m = MetadataUpload(p)
	return nil
}

// UnmarshalJSON decodes strictly.
func (a *AgentHints) UnmarshalJSON(data []byte) error {
	type plain AgentHints
	var p plain
	if err := strictDecode(data, &p, wire.FieldsOf[plain](), ".agent_hints"); err != nil {
		return err
	}
	*a = AgentHints(p)
	return nil
}

// UnmarshalJSON decodes strictly.
func (r *RoutingConstraints) UnmarshalJSON(data []byte) error {
	type plain RoutingConstraints
	var p plain
	if err := strictDecode(data, &p, wire.FieldsOf[plain](), ".routing_constraints"); err != nil {
		return err
	}
	*r = RoutingConstraints(p)
	return nil
}

// UnmarshalJSON decodes strictly.
func (r *RouterHints) UnmarshalJSON(data []byte) error {
	type plain RouterHints
	var p plain
	if err := strictDecode(data, &p, wire.FieldsOf[plain](), ".router"); err != nil {
		return err
	}
	*r = RouterHints(p)
	return nil
}

// RouterPriority is the router's priority_jump: Priority clamped at 0 when
// set, else LatencySensitivity, else 0.
func (a *AgentHints) RouterPriority() float64 {
	if a == nil {
		return 0
	}
	if p, ok := a.Priority.Get(); ok {
		return float64(max(p, 0))
	}
	return a.LatencySensitivity.Or(0)
}

// Response is the response-side nvext (present only when opted in through
// extra_fields). Members it does not model are kept in Extra.
type Response struct {
	WorkerID           *WorkerID        `json:"worker_id,omitzero"`
	Timing             jsonx.RawMessage `json:"timing,omitzero"` // final chunk only; engine-specific
	TokenIDs           []uint32         `json:"token_ids,omitzero"`
	RoutedExperts      jsonx.RawMessage `json:"routed_experts,omitzero"`
	EngineData         jsonx.RawMessage `json:"engine_data,omitzero"`
	StopReason         jsonx.RawMessage `json:"stop_reason,omitzero"`
	MatchedStop        jsonx.RawMessage `json:"matched_stop,omitzero"`
	CompletionTokenIDs []uint32         `json:"completion_token_ids,omitzero"`
	PromptLogprobs     jsonx.RawMessage `json:"prompt_logprobs,omitzero"`
	Extra              protocols.Extra  `json:"-"`
}

// WorkerID names the workers that served a request.
type WorkerID struct {
	PrefillWorkerID Opt[uint64] `json:"prefill_worker_id,omitzero"`
	PrefillDPRank   Opt[uint32] `json:"prefill_dp_rank,omitzero"`
	DecodeWorkerID  Opt[uint64] `json:"decode_worker_id,omitzero"`
	DecodeDPRank    Opt[uint32] `json:"decode_dp_rank,omitzero"`
}

// MarshalJSON writes the modelled members and Extra.
func (r Response) MarshalJSON() ([]byte, error) {
	type plain Response
	return wire.Marshal("", plain(r), r.Extra)
}

// UnmarshalJSON keeps unknown members in Extra.
func (r *Response) UnmarshalJSON(data []byte) error {
	type plain Response
	return wire.Decode(data, (*plain)(r), &r.Extra)
}

// Merge folds a later chunk's nvext into r: completion_token_ids
// concatenate, other members replace.
func (r *Response) Merge(next *Response) {
	if next == nil {
		return
	}
	ids := append(r.CompletionTokenIDs, next.CompletionTokenIDs...)
	extra := r.Extra
	if next.WorkerID != nil {
		r.WorkerID = next.WorkerID
	}
	for _, f := range []struct {
		dst *jsonx.RawMessage
		src jsonx.RawMessage
	}{
		{&r.Timing, next.Timing}, {&r.RoutedExperts, next.RoutedExperts}, {&r.EngineData, next.EngineData},
		{&r.StopReason, next.StopReason}, {&r.MatchedStop, next.MatchedStop}, {&r.PromptLogprobs, next.PromptLogprobs},
	} {
		if f.src != nil {
			*f.dst = f.src
		}
	}
	if next.TokenIDs != nil {
		r.TokenIDs = next.TokenIDs
	}
	for k, v := range next.Extra {
		if extra == nil {
			extra = protocols.Extra{}
		}
		extra[k] = v
	}
	r.CompletionTokenIDs = ids
	r.Extra = extra
}

// UnmarshalJSON decodes strictly (exact member names, unknown ones
// rejected), like the rest of nvext.
func (s *SessionControl) UnmarshalJSON(data []byte) error {
	type plain SessionControl
	var p plain
	if err := strictDecode(data, &p, wire.FieldsOf[plain](), ".session_control"); err != nil {
		return err
	}
	*s = SessionControl(p)
	return nil
}
