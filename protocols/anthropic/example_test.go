package anthropic_test

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
)

// Reasoning and text become a thinking block (closed with the placeholder
// signature) and a text block, framed as the Messages API streams them.
func ExampleEmitter() {
	e := anthropic.NewEmitter(anthropic.EmitterConfig{MessageID: "msg_1", Model: "qwen3", InputTokens: 24})
	buf := make([]byte, 0, 4096)
	buf = e.Reasoning(buf, []byte("Hmm."))
	buf = e.Content(buf, []byte("Hi!"))
	buf = e.Finish(buf, protocols.FinishStop, protocols.Usage{PromptTokens: 24, CompletionTokens: 5})
	fmt.Print(string(buf))
	// Output:
	// event: message_start
	// data: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","content":[],"model":"qwen3","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":24,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}
	//
	// event: content_block_start
	// data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Hmm."}}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"erased"}}
	//
	// event: content_block_stop
	// data: {"type":"content_block_stop","index":0}
	//
	// event: content_block_start
	// data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}
	//
	// event: content_block_delta
	// data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hi!"}}
	//
	// event: content_block_stop
	// data: {"type":"content_block_stop","index":1}
	//
	// event: message_delta
	// data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"input_tokens":24,"output_tokens":5,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}
	//
	// event: message_stop
	// data: {"type":"message_stop"}
}

// Unknown content block types survive decode → encode; strict mode answers
// with the API's own error.
func ExampleDecodeMessagesRequest() {
	body := []byte(`{"model":"m","max_tokens":8,"messages":[{"role":"user","content":[{"type":"document","source":{"type":"text","data":"x"}}]}],"speed":"fast"}`)
	req, _ := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
	fmt.Println(req.Messages[0].Content.Array[0].Type(), string(req.Extra["speed"]))

	_, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{Strict: true})
	e := err.(*anthropic.APIError)
	fmt.Println(e.Status, e.Body.Error.Type, e.Body.Error.Message)
	// Output:
	// document "fast"
	// 400 invalid_request_error speed: Extra inputs are not permitted
}
