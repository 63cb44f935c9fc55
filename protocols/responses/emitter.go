package responses

import (
	"bytes"
	"encoding/base64"
	"strings"
	"time"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
	"github.com/agentwire/agentwire/protocols/sse"
)

// EmitterConfig configures an Emitter for one stream.
type EmitterConfig struct {
	// Response is the envelope echoed in response.created, in_progress and
	// the terminal event: id (minted "resp_…" when empty), model,
	// created_at (now when zero), and the echoed request settings (see
	// ResponseFrom). Status, Output, Usage, Error, IncompleteDetails and
	// CompletedAt are set by the emitter.
	Response Response
	// Summary selects the one channel reasoning is delivered on. True:
	// as summary_text (reasoning_summary_part / reasoning_summary_text
	// events, the item's summary; the item has no content), for requests
	// that ask for a summary (ReasoningPolicy.Summary). False: as
	// reasoning_text (content_part / reasoning_text events, the item's
	// content; its summary is empty). Never both: clients that merge the
	// two channels would show every token twice.
	Summary bool
	// ReasoningPassback also writes each reasoning item's text, encoded
	// with EncodeReasoning, as its encrypted_content, so that a client that
	// keeps no server state (store:false) and asks for
	// include:["reasoning.encrypted_content"] — Codex — sends the reasoning
	// back verbatim on the next turn (convert.ResponsesToChat decodes it).
	// See WantsEncryptedReasoning. It is an encoding, not encryption.
	ReasoningPassback bool
	// Done writes `data: [DONE]` after the terminal event (Dynamo parity;
	// the official API does not).
	Done bool
	// IDs mints the response and item ids; the zero value means a source
	// seeded from crypto/rand (set a seeded one for reproducible output).
	IDs protocols.IDSource
	// Now returns the current time (for created_at / completed_at); nil
	// means time.Now.
	Now func() time.Time
	// Tools maps the function names the engine calls back to the
	// Responses tools they stand for (convert.ResponsesContext.Tools): a
	// namespaced function's call carries its namespace, and a custom
	// (freeform) tool's call becomes a custom_tool_call whose input is the
	// "input" string of the call's arguments. Names not listed are plain
	// function calls.
	Tools ToolRoutes
}

// ToolRoute says which Responses tool a chat function name stands for.
type ToolRoute struct {
	Namespace string // the namespace that declares the tool, "" for a top-level tool
	Custom    bool   // a custom (freeform) tool: arguments {"input": "<free text>"}
}

// ToolRoutes maps chat function names to Responses tools. See
// EmitterConfig.Tools and convert.ResponsesToChat.
type ToolRoutes map[string]ToolRoute

type itemKind uint8

const (
	itemReasoning itemKind = iota + 1
	itemMessage
	itemCall
	itemCustom // a custom_tool_call
)

// Decoding states of a custom tool call's input (itemState.cstate).
const (
	customPrefix   uint8 = iota // before the "input" string's opening quote
	customString                // inside it: input is streamed as it is decoded
	customClosed                // after its closing quote
	customFallback              // arguments of another shape: decoded at the end
)

type itemState struct {
	kind   itemKind
	id     []byte
	ref    []byte // `,"item_id":"…","output_index":N`, written by every item event
	text   []byte // reasoning text, message text, or call arguments
	callID []byte
	name   []byte
	index  int // tool call index (itemCall)
	status string

	namespace []byte // itemCall, itemCustom
	input     []byte // itemCustom: the decoded input so far
	pend      []byte // itemCustom: argument bytes not decoded yet
	scratch   []byte // itemCustom: the input decoded at the end
	cstate    uint8  // itemCustom: customPrefix …
}

// Emitter writes the Responses event stream. At most one output item is
// open at a time: an item is finished (its done events sent) when the next
// one starts, so events never interleave across items; output_index values
// follow first appearance. Every event carries a sequence number starting
// at 0.
//
// It implements protocols.Emitter. Methods append to the caller's dst and
// return it; no reference to dst or to byte-slice arguments is kept. The
// per-token events (text, reasoning and argument deltas) and the item
// events do not allocate after warm-up; the envelope events are encoded
// with jsonx and allocate. Not safe for concurrent use; reuse with Reset.
type Emitter struct {
	cfg EmitterConfig
	ids protocols.IDSource

	started   bool
	finished  bool
	seq       int64
	items     []itemState
	open      int // index in items of the open item, -1 if none
	scratch   []byte
	completed int
	abandoned bool
}

var _ protocols.Emitter = (*Emitter)(nil)

// NewEmitter returns an emitter for one stream.
func NewEmitter(cfg EmitterConfig) *Emitter {
	e := &Emitter{ids: protocols.NewIDSource()}
	e.Reset(cfg)
	return e
}

// Reset prepares e for a new stream, keeping its buffers.
func (e *Emitter) Reset(cfg EmitterConfig) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if !cfg.IDs.IsZero() {
		e.ids = cfg.IDs
	}
	if cfg.Response.ID == "" {
		cfg.Response.ID = e.ids.New("resp_")
	}
	if cfg.Response.CreatedAt == 0 {
		cfg.Response.CreatedAt = cfg.Now().Unix()
	}
	cfg.Response.Object = ObjectResponse
	*e = Emitter{cfg: cfg, ids: e.ids, items: e.items[:0], open: -1, scratch: e.scratch[:0]}
}

// ResponseID returns the response id of the current stream.
func (e *Emitter) ResponseID() string { return e.cfg.Response.ID }

// head writes `event: <typ>\ndata: {"type":"<typ>","sequence_number":N`.
func (e *Emitter) head(dst []byte, typ string) []byte {
	dst = append(dst, "event: "...)
	dst = append(dst, typ...)
	dst = append(dst, "\ndata: {\"type\":\""...)
	dst = append(dst, typ...)
	dst = append(dst, `","sequence_number":`...)
	dst = jsonx.AppendInt(dst, e.seq)
	e.seq++
	return dst
}

func end(dst []byte) []byte { return append(dst, "}\n\n"...) }

// itemRef writes `,"item_id":"…","output_index":N` (made once per item).
func (e *Emitter) itemRef(dst []byte, i int) []byte {
	return append(dst, e.items[i].ref...)
}

func (e *Emitter) envelope(dst []byte, typ string, r *Response) []byte {
	b, err := jsonx.Marshal(ResponseEvent{Type: typ, SequenceNumber: e.seq, Response: *r})
	if err != nil {
		// Only a caller-supplied RawJSON in the template can fail to
		// encode; report it in-band rather than writing invalid JSON.
		b = []byte(`{"type":"error","sequence_number":` + itoa(e.seq) + `,"code":"server_error","message":"responses: cannot encode the response envelope","param":null}`)
		typ = EventError
	}
	e.seq++
	return sse.AppendEvent(dst, typ, b)
}

func itoa(n int64) string { return string(jsonx.AppendInt(nil, n)) }

// Start appends response.created and response.in_progress if not yet
// written. Every other method calls it first.
func (e *Emitter) Start(dst []byte) []byte {
	if e.started {
		return dst
	}
	e.started = true
	r := e.cfg.Response
	r.Status = StatusInProgress
	r.Output = []Item{}
	r.Usage = protocols.Null[Usage]()
	dst = e.envelope(dst, EventCreated, &r)
	return e.envelope(dst, EventInProgress, &r)
}

// newItem closes the open item and opens a new one of kind k.
func (e *Emitter) newItem(dst []byte, k itemKind, prefix string) ([]byte, int) {
	dst = e.closeItem(dst)
	if len(e.items) < cap(e.items) {
		e.items = e.items[:len(e.items)+1]
	} else {
		e.items = append(e.items, itemState{})
	}
	i := len(e.items) - 1
	it := &e.items[i]
	*it = itemState{kind: k, id: e.ids.AppendHex(it.id[:0], prefix), ref: it.ref[:0], text: it.text[:0], callID: it.callID[:0], name: it.name[:0],
		namespace: it.namespace[:0], input: it.input[:0], pend: it.pend[:0], scratch: it.scratch[:0], status: StatusInProgress}
	it.ref = append(it.ref, `,"item_id":`...)
	it.ref = jsonx.AppendString(it.ref, it.id)
	it.ref = append(it.ref, `,"output_index":`...)
	it.ref = jsonx.AppendInt(it.ref, int64(i))
	e.open = i
	return dst, i
}

// Reasoning appends a reasoning delta on the configured channel
// (EmitterConfig.Summary: a reasoning_summary_text delta, else a
// reasoning_text delta), opening a reasoning item first if needed.
func (e *Emitter) Reasoning(dst, text []byte) []byte {
	if len(text) == 0 || e.finished {
		return dst
	}
	dst = e.Start(dst)
	i := e.open
	if i < 0 || e.items[i].kind != itemReasoning {
		dst, i = e.newItem(dst, itemReasoning, "rs_")
		dst = e.head(dst, EventOutputItemAdded)
		dst = append(dst, `,"output_index":`...)
		dst = jsonx.AppendInt(dst, int64(i))
		dst = append(dst, `,"item":{"type":"reasoning","id":`...)
		dst = jsonx.AppendString(dst, e.items[i].id)
		if e.cfg.Summary {
			dst = append(dst, `,"summary":[]}`...)
			dst = end(dst)
			dst = e.head(dst, EventReasoningSummaryAdded)
			dst = e.itemRef(dst, i)
			dst = append(dst, `,"summary_index":0,"part":{"type":"summary_text","text":""}`...)
		} else {
			dst = append(dst, `,"summary":[],"content":[]}`...)
			dst = end(dst)
			dst = e.head(dst, EventContentPartAdded)
			dst = e.itemRef(dst, i)
			dst = append(dst, `,"content_index":0,"part":{"type":"reasoning_text","text":""}`...)
		}
		dst = end(dst)
	}
	it := &e.items[i]
	it.text = append(it.text, text...)
	if e.cfg.Summary {
		dst = e.head(dst, EventReasoningSummaryDelta)
		dst = e.itemRef(dst, i)
		dst = append(dst, `,"summary_index":0,"delta":`...)
	} else {
		dst = e.head(dst, EventReasoningTextDelta)
		dst = e.itemRef(dst, i)
		dst = append(dst, `,"content_index":0,"delta":`...)
	}
	dst = jsonx.AppendString(dst, text)
	return end(dst)
}

// Content appends an output_text delta, opening a message item first if
// needed.
func (e *Emitter) Content(dst, text []byte) []byte {
	if len(text) == 0 || e.finished {
		return dst
	}
	dst = e.Start(dst)
	i := e.open
	if i < 0 || e.items[i].kind != itemMessage {
		dst, i = e.newItem(dst, itemMessage, "msg_")
		dst = e.head(dst, EventOutputItemAdded)
		dst = append(dst, `,"output_index":`...)
		dst = jsonx.AppendInt(dst, int64(i))
		dst = append(dst, `,"item":{"type":"message","id":`...)
		dst = jsonx.AppendString(dst, e.items[i].id)
		dst = append(dst, `,"role":"assistant","status":"in_progress","content":[]}`...)
		dst = end(dst)
		dst = e.head(dst, EventContentPartAdded)
		dst = e.itemRef(dst, i)
		dst = append(dst, `,"content_index":0,"part":{"type":"output_text","text":"","annotations":[],"logprobs":[]}`...)
		dst = end(dst)
	}
	it := &e.items[i]
	it.text = append(it.text, text...)
	dst = e.head(dst, EventOutputTextDelta)
	dst = e.itemRef(dst, i)
	dst = append(dst, `,"content_index":0,"delta":`...)
	dst = jsonx.AppendString(dst, text)
	dst = append(dst, `,"logprobs":[]`...)
	return end(dst)
}

// ToolCallStart opens a function_call item (call_id is the parser's call
// id; the item id is a fresh fc_ id), or a custom_tool_call item (ctc_) when
// Tools routes name to a custom tool; either carries the tool's namespace
// when Tools gives one.
func (e *Emitter) ToolCallStart(dst []byte, index int, id, name []byte) []byte {
	if e.finished {
		return dst
	}
	dst = e.Start(dst)
	route := e.cfg.Tools[string(name)] // no allocation for the lookup
	kind, prefix := itemCall, "fc_"
	if route.Custom {
		kind, prefix = itemCustom, "ctc_"
	}
	dst, i := e.newItem(dst, kind, prefix)
	it := &e.items[i]
	it.callID = append(it.callID, id...)
	it.name = append(it.name, name...)
	it.namespace = append(it.namespace, route.Namespace...)
	it.index = index
	dst = e.head(dst, EventOutputItemAdded)
	dst = append(dst, `,"output_index":`...)
	dst = jsonx.AppendInt(dst, int64(i))
	dst = append(dst, `,"item":`...)
	dst = e.appendCall(dst, it)
	return end(dst)
}

// appendCall writes a function_call or custom_tool_call item.
func (e *Emitter) appendCall(dst []byte, it *itemState) []byte {
	if it.kind == itemCustom {
		dst = append(dst, `{"type":"custom_tool_call","id":`...)
	} else {
		dst = append(dst, `{"type":"function_call","id":`...)
	}
	dst = jsonx.AppendString(dst, it.id)
	dst = append(dst, `,"call_id":`...)
	dst = jsonx.AppendString(dst, it.callID)
	dst = append(dst, `,"name":`...)
	dst = jsonx.AppendString(dst, it.name)
	if len(it.namespace) > 0 {
		dst = append(dst, `,"namespace":`...)
		dst = jsonx.AppendString(dst, it.namespace)
	}
	if it.kind == itemCustom {
		dst = append(dst, `,"input":`...)
		dst = jsonx.AppendString(dst, it.input)
	} else {
		dst = append(dst, `,"arguments":`...)
		dst = jsonx.AppendString(dst, it.text)
	}
	dst = append(dst, `,"status":`...)
	dst = jsonx.AppendString(dst, it.status)
	return append(dst, '}')
}

func (e *Emitter) openCall(index int) int {
	if e.open >= 0 && e.items[e.open].index == index {
		if k := e.items[e.open].kind; k == itemCall || k == itemCustom {
			return e.open
		}
	}
	return -1
}

// ToolCallArgs appends a function_call_arguments delta, or for a custom
// tool a custom_tool_call_input delta with the part of the "input" string
// that fragment completes.
func (e *Emitter) ToolCallArgs(dst []byte, index int, fragment []byte) []byte {
	i := e.openCall(index)
	if len(fragment) == 0 || e.finished || i < 0 {
		return dst
	}
	it := &e.items[i]
	it.text = append(it.text, fragment...)
	if it.kind == itemCustom {
		return e.customArgs(dst, i, fragment)
	}
	dst = e.head(dst, EventFunctionArgsDelta)
	dst = e.itemRef(dst, i)
	dst = append(dst, `,"delta":`...)
	dst = jsonx.AppendString(dst, fragment)
	return end(dst)
}

// customArgs decodes the custom tool's input out of its streamed
// arguments: once they have begun `{"input":"`, each fragment's share of the
// string is sent as a delta; arguments of any other shape are decoded when
// the call ends.
func (e *Emitter) customArgs(dst []byte, i int, fragment []byte) []byte {
	it := &e.items[i]
	switch it.cstate {
	case customPrefix:
		it.pend = append(it.pend, fragment...)
		rest, ok := inputPrefix(it.pend)
		if !ok {
			if rest == nil {
				it.cstate = customFallback
			}
			return dst // wait for more
		}
		it.pend = append(it.pend[:0], rest...)
		it.cstate = customString
	case customString:
		it.pend = append(it.pend, fragment...)
	default:
		return dst
	}
	before := len(it.input)
	var n int
	var st jsonx.UnquoteState
	it.input, n, st = jsonx.AppendUnquoted(it.input, it.pend)
	it.pend = append(it.pend[:0], it.pend[n:]...)
	switch st {
	case jsonx.UnquoteClosed:
		it.cstate = customClosed
	case jsonx.UnquoteInvalid:
		it.cstate = customFallback
		it.input = it.input[:before]
	}
	if len(it.input) == before {
		return dst
	}
	return e.customDelta(dst, i, it.input[before:])
}

func (e *Emitter) customDelta(dst []byte, i int, delta []byte) []byte {
	dst = e.head(dst, EventCustomInputDelta)
	dst = e.itemRef(dst, i)
	dst = append(dst, `,"delta":`...)
	dst = jsonx.AppendString(dst, delta)
	return end(dst)
}

// inputPrefix matches `{ "input" : "` (JSON space allowed) at the start of
// b and returns what follows. ok false with a non-nil rest means b may
// still become the prefix; a nil rest means it cannot.
func inputPrefix(b []byte) (rest []byte, ok bool) {
	const want = `{"input":"`
	j := 0
	for k := 0; k < len(b); k++ {
		c := b[k]
		if j <= 1 || j >= 8 { // outside the key: space allowed
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				continue
			}
		}
		if c != want[j] {
			return nil, false
		}
		j++
		if j == len(want) {
			return b[k+1:], true
		}
	}
	return b[:0], false
}

// ToolCallEnd finishes the call's item (arguments done, item done).
func (e *Emitter) ToolCallEnd(dst []byte, index int) []byte {
	if e.finished || e.openCall(index) < 0 {
		return dst
	}
	e.completed++
	return e.closeItem(dst)
}

// ToolCallAbandoned finishes the call's item with status incomplete; the
// response then ends incomplete (max_output_tokens).
func (e *Emitter) ToolCallAbandoned(dst []byte, index int) []byte {
	i := e.openCall(index)
	if e.finished || i < 0 {
		return dst
	}
	e.abandoned = true
	e.items[i].status = StatusIncomplete
	return e.closeItem(dst)
}

// closeItem sends the done events of the open item.
func (e *Emitter) closeItem(dst []byte) []byte {
	i := e.open
	if i < 0 {
		return dst
	}
	e.open = -1
	it := &e.items[i]
	switch it.kind {
	case itemReasoning:
		it.status = StatusCompleted
		if e.cfg.Summary {
			dst = e.head(dst, EventReasoningSummaryTxtDone)
			dst = e.itemRef(dst, i)
			dst = append(dst, `,"summary_index":0,"text":`...)
			dst = jsonx.AppendString(dst, it.text)
			dst = end(dst)
			dst = e.head(dst, EventReasoningSummaryDone)
			dst = e.itemRef(dst, i)
			dst = append(dst, `,"summary_index":0,"part":{"type":"summary_text","text":`...)
		} else {
			dst = e.head(dst, EventReasoningTextDone)
			dst = e.itemRef(dst, i)
			dst = append(dst, `,"content_index":0,"text":`...)
			dst = jsonx.AppendString(dst, it.text)
			dst = end(dst)
			dst = e.head(dst, EventContentPartDone)
			dst = e.itemRef(dst, i)
			dst = append(dst, `,"content_index":0,"part":{"type":"reasoning_text","text":`...)
		}
		dst = jsonx.AppendString(dst, it.text)
		dst = append(dst, '}')
		dst = end(dst)
		dst = e.head(dst, EventOutputItemDone)
		dst = append(dst, `,"output_index":`...)
		dst = jsonx.AppendInt(dst, int64(i))
		dst = append(dst, `,"item":`...)
		dst = e.appendReasoning(dst, it)
	case itemMessage:
		it.status = StatusCompleted
		dst = e.head(dst, EventOutputTextDone)
		dst = e.itemRef(dst, i)
		dst = append(dst, `,"content_index":0,"text":`...)
		dst = jsonx.AppendString(dst, it.text)
		dst = append(dst, `,"logprobs":[]`...)
		dst = end(dst)
		dst = e.head(dst, EventContentPartDone)
		dst = e.itemRef(dst, i)
		dst = append(dst, `,"content_index":0,"part":{"type":"output_text","text":`...)
		dst = jsonx.AppendString(dst, it.text)
		dst = append(dst, `,"annotations":[],"logprobs":[]}`...)
		dst = end(dst)
		dst = e.head(dst, EventOutputItemDone)
		dst = append(dst, `,"output_index":`...)
		dst = jsonx.AppendInt(dst, int64(i))
		dst = append(dst, `,"item":`...)
		dst = e.appendMessage(dst, it)
	case itemCustom:
		if it.status != StatusIncomplete {
			it.status = StatusCompleted
			switch it.cstate {
			case customPrefix, customFallback:
				// arguments not of the streamed shape: decode them whole
				// and send what the deltas have not (all of it, unless an
				// invalid escape stopped the streaming part way)
				sent := len(it.input)
				it.scratch = CustomToolInput(it.scratch[:0], it.text)
				if !bytes.HasPrefix(it.scratch, it.input) {
					sent = 0
				}
				it.input = append(it.input[:0], it.scratch...)
				if len(it.input) > sent {
					dst = e.customDelta(dst, i, it.input[sent:])
				}
			}
			it.cstate = customClosed
			dst = e.head(dst, EventCustomInputDone)
			dst = e.itemRef(dst, i)
			dst = append(dst, `,"input":`...)
			dst = jsonx.AppendString(dst, it.input)
			dst = end(dst)
		}
		dst = e.head(dst, EventOutputItemDone)
		dst = append(dst, `,"output_index":`...)
		dst = jsonx.AppendInt(dst, int64(i))
		dst = append(dst, `,"item":`...)
		dst = e.appendCall(dst, it)
	case itemCall:
		if it.status != StatusIncomplete {
			it.status = StatusCompleted
			dst = e.head(dst, EventFunctionArgsDone)
			dst = e.itemRef(dst, i)
			dst = append(dst, `,"name":`...)
			dst = jsonx.AppendString(dst, it.name)
			dst = append(dst, `,"arguments":`...)
			dst = jsonx.AppendString(dst, it.text)
			dst = end(dst)
		}
		dst = e.head(dst, EventOutputItemDone)
		dst = append(dst, `,"output_index":`...)
		dst = jsonx.AppendInt(dst, int64(i))
		dst = append(dst, `,"item":`...)
		dst = e.appendCall(dst, it)
	}
	return end(dst)
}

func (e *Emitter) appendReasoning(dst []byte, it *itemState) []byte {
	dst = append(dst, `{"type":"reasoning","id":`...)
	dst = jsonx.AppendString(dst, it.id)
	if e.cfg.Summary {
		dst = append(dst, `,"summary":[{"type":"summary_text","text":`...)
		dst = jsonx.AppendString(dst, it.text)
		dst = append(dst, `}]`...)
	} else {
		dst = append(dst, `,"summary":[],"content":[{"type":"reasoning_text","text":`...)
		dst = jsonx.AppendString(dst, it.text)
		dst = append(dst, `}]`...)
	}
	if e.cfg.ReasoningPassback {
		dst = append(dst, `,"encrypted_content":"`...)
		e.scratch = append(append(e.scratch[:0], reasoningPrefix...), it.text...)
		dst = base64.StdEncoding.AppendEncode(dst, e.scratch)
		dst = append(dst, '"')
	}
	return append(dst, '}')
}

func (e *Emitter) appendMessage(dst []byte, it *itemState) []byte {
	dst = append(dst, `{"type":"message","id":`...)
	dst = jsonx.AppendString(dst, it.id)
	dst = append(dst, `,"role":"assistant","status":"completed","content":[{"type":"output_text","text":`...)
	dst = jsonx.AppendString(dst, it.text)
	return append(dst, `,"annotations":[]}]}`...)
}

// Output returns the output items produced so far as typed values (new
// memory; for the terminal event and for unary responses built by
// streaming internally).
func (e *Emitter) Output() []Item {
	out := make([]Item, 0, len(e.items))
	for i := range e.items {
		it := &e.items[i]
		switch it.kind {
		case itemReasoning:
			r := NewReasoningItem(string(it.id), string(it.text), e.cfg.Summary)
			if e.cfg.ReasoningPassback {
				r.EncryptedContent = protocols.Some(EncodeReasoning(string(it.text)))
			}
			out = append(out, Item{OfReasoning: r})
		case itemMessage:
			out = append(out, Item{OfMessage: &MessageItem{ID: string(it.id), Role: "assistant", Status: it.status,
				Content: protocols.Array(ContentPart{Type: PartOutputText, Text: string(it.text)})}})
		case itemCall:
			out = append(out, Item{OfFunctionCall: &FunctionCallItem{ID: string(it.id), CallID: string(it.callID),
				Name: string(it.name), Namespace: string(it.namespace), Arguments: string(it.text), Status: it.status}})
		case itemCustom:
			out = append(out, Item{OfCustomToolCall: &CustomToolCallItem{ID: string(it.id), CallID: string(it.callID),
				Name: string(it.name), Namespace: string(it.namespace), Input: string(it.input), Status: it.status}})
		}
	}
	return out
}

// Finish closes the open item and appends the terminal event:
// response.completed, or response.incomplete (finish length or an abandoned
// call → max_output_tokens; content_filter), with the full output and usage.
func (e *Emitter) Finish(dst []byte, reason protocols.FinishReason, usage protocols.Usage) []byte {
	if e.finished {
		return dst
	}
	dst = e.Start(dst)
	dst = e.closeItem(dst)
	e.finished = true
	r := e.cfg.Response
	r.Output = e.Output()
	r.Usage = protocols.Some(UsageFrom(usage))
	r.CompletedAt = protocols.Some(e.cfg.Now().Unix())
	typ := EventCompleted
	switch {
	case reason == protocols.FinishLength || e.abandoned:
		r.Status, typ = StatusIncomplete, EventIncomplete
		r.IncompleteDetails = protocols.Some(IncompleteDetails{Reason: "max_output_tokens"})
	case reason == protocols.FinishContentFilter:
		r.Status, typ = StatusIncomplete, EventIncomplete
		r.IncompleteDetails = protocols.Some(IncompleteDetails{Reason: "content_filter"})
	default:
		r.Status = StatusCompleted
	}
	if r.Status == StatusIncomplete {
		// Only the terminal item is marked incomplete.
		if n := len(r.Output); n > 0 {
			markIncomplete(&r.Output[n-1])
		}
	}
	dst = e.envelope(dst, typ, &r)
	if e.cfg.Done {
		dst = append(dst, sse.Done...)
	}
	return dst
}

// FinishChoice is Finish: a response has one output and no stop
// sequence.
func (e *Emitter) FinishChoice(dst []byte, reason protocols.FinishReason, _ []byte, usage protocols.Usage) []byte {
	return e.Finish(dst, reason, usage)
}

// Done appends nothing: Finish wrote the terminal event.
func (e *Emitter) Done(dst []byte, _ protocols.Usage) []byte { return dst }

// SetUsage does nothing: response.created carries no usage.
func (e *Emitter) SetUsage(protocols.Usage) {}

// SetLogprobs does nothing: the pipeline's Responses answers carry no log
// probabilities.
func (e *Emitter) SetLogprobs([]protocols.Logprob) {}

// FlushLogprobs appends nothing.
func (e *Emitter) FlushLogprobs(dst []byte) []byte { return dst }

func markIncomplete(it *Item) {
	switch {
	case it.OfMessage != nil:
		it.OfMessage.Status = StatusIncomplete
	case it.OfFunctionCall != nil:
		it.OfFunctionCall.Status = StatusIncomplete
	case it.OfCustomToolCall != nil:
		it.OfCustomToolCall.Status = StatusIncomplete
	case it.OfReasoning != nil:
		it.OfReasoning.Status = StatusIncomplete
	}
}

// Fail closes the stream with response.failed carrying error{code:
// "server_error", message}.
func (e *Emitter) Fail(dst []byte, message string) []byte {
	return e.fail(dst, "server_error", message)
}

func (e *Emitter) fail(dst []byte, code, message string) []byte {
	if e.finished {
		return dst
	}
	dst = e.Start(dst)
	e.finished = true
	r := e.cfg.Response
	r.Status = StatusFailed
	r.Output = e.Output()
	r.Error = protocols.Some(ErrorObject{Code: code, Message: message})
	dst = e.envelope(dst, EventFailed, &r)
	if e.cfg.Done {
		dst = append(dst, sse.Done...)
	}
	return dst
}

// reasoningPrefix marks encrypted_content written by ReasoningPassback.
const reasoningPrefix = "agentwire.reasoning.v1:"

// EncodeReasoning returns the encrypted_content value ReasoningPassback
// writes for text.
func EncodeReasoning(text string) string {
	return base64.StdEncoding.EncodeToString([]byte(reasoningPrefix + text))
}

// DecodeReasoning returns the reasoning text of an encrypted_content value
// written by EncodeReasoning, and false for anything else (such as a real
// provider's encrypted reasoning).
func DecodeReasoning(encrypted string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(encrypted)
	if err != nil || !strings.HasPrefix(string(b), reasoningPrefix) {
		return "", false
	}
	return string(b[len(reasoningPrefix):]), true
}

// WantsEncryptedReasoning reports whether req asks for
// reasoning.encrypted_content in include (set ReasoningPassback then).
func WantsEncryptedReasoning(req *Request) bool {
	for _, s := range req.Include {
		if s == "reasoning.encrypted_content" {
			return true
		}
	}
	return false
}

// CustomToolInput appends to dst the input of a custom tool call whose chat
// arguments are args: the "input" string of an object (the mapping
// convert.ResponsesToChat declares), a JSON string's value, or else args
// itself (a model that wrote the free text directly).
func CustomToolInput(dst, args []byte) []byte {
	switch jsonx.Kind(args) {
	case '{':
		var val []byte
		if jsonx.Check(args, jsonx.MaxDepth) != nil {
			break
		}
		_ = jsonx.Members(args, func(k, v []byte) error {
			if string(k) == "input" && jsonx.Kind(v) == '"' {
				val = v
			}
			return nil
		})
		if val != nil {
			out, _, _ := jsonx.AppendUnquoted(dst, val[1:])
			return out
		}
	case '"':
		if jsonx.Check(args, jsonx.MaxDepth) == nil {
			out, _, _ := jsonx.AppendUnquoted(dst, bytes.TrimLeft(args, " \t\r\n")[1:])
			return out
		}
	}
	return append(dst, args...)
}
