package convert_test

import (
	"fmt"

	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// Interleaved thinking and tool_use blocks become reasoning segments aligned
// with the tool calls.
func ExampleAnthropicToChat() {
	body := []byte(`{"model":"m","max_tokens":64,"system":"x-anthropic-billing-header: cc_version=1;\nBe brief.","messages":[
	 {"role":"user","content":"go"},
	 {"role":"assistant","content":[{"type":"thinking","thinking":"plan A","signature":"s"},{"type":"tool_use","id":"toolu_A","name":"a","input":{}},
	                                {"type":"thinking","thinking":"plan B","signature":"s"},{"type":"tool_use","id":"toolu_B","name":"b","input":{"n":1}}]}]}`)
	req, _ := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
	chat, _, _ := convert.AnthropicToChat(req, convert.AnthropicOptions{StripBillingHeader: true})
	for _, m := range chat.Messages {
		b, _ := jsonx.Marshal(m)
		fmt.Println(string(b))
	}
	// Output:
	// {"role":"system","content":"Be brief."}
	// {"role":"user","content":"go"}
	// {"role":"assistant","content":null,"reasoning_content":["plan A","plan B",""],"tool_calls":[{"id":"toolu_A","type":"function","function":{"name":"a","arguments":"{}"}},{"id":"toolu_B","type":"function","function":{"name":"b","arguments":"{\"n\":1}"}}]}
}

func ExampleStripBillingHeader() {
	s, ok := convert.StripBillingHeader("x-anthropic-billing-header: cc_version=2.1.328; cch=ab;\nYou are Claude Code.")
	fmt.Printf("%q %v\n", s, ok)
	// Output:
	// "You are Claude Code." true
}
