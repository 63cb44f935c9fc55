package anthropic_test

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
)

func ExampleErrorBody() {
	err := &protocols.Error{Kind: protocols.ErrorContextLength, PromptTokens: 250000, MaxContext: 200000}
	status, body := anthropic.ErrorBody(err)
	fmt.Println(status, string(body))
	fmt.Print(string(anthropic.AppendErrorEvent(nil, &protocols.Error{Kind: protocols.ErrorOverloaded})))
	// Output:
	// 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 250000 tokens > 200000 maximum"}}
	// event: error
	// data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}
}

func ExampleThinkingDisplayFor() {
	for _, body := range []string{
		`{"model":"m","max_tokens":8,"messages":[],"thinking":{"type":"adaptive","display":"omitted"}}`,
		`{"model":"m","max_tokens":8,"messages":[],"thinking":{"type":"enabled","budget_tokens":1024}}`,
		`{"model":"m","max_tokens":8,"messages":[]}`,
	} {
		req, _ := anthropic.DecodeMessagesRequest([]byte(body), anthropic.DecodeOptions{})
		fmt.Println(anthropic.ThinkingDisplayFor(req, false) == anthropic.ThinkingOmitted,
			anthropic.WantsThinking(req, false))
	}
	// Output:
	// true true
	// false true
	// false false
}
