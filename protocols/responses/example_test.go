package responses_test

import (
	"bytes"
	"fmt"
	"time"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/responses"
	"github.com/agentwire/agentwire/protocols/sse"
)

// One output item at a time, in generation order, every event numbered.
func ExampleEmitter() {
	req := &responses.Request{Model: "gpt-oss-120b"}
	e := responses.NewEmitter(responses.EmitterConfig{
		Response: responses.ResponseFrom(req),
		IDs:      protocols.NewSeededIDSource(1),
		Now:      func() time.Time { return time.Unix(1767225600, 0) },
	})
	buf := e.Reasoning(nil, []byte("Need weather."))
	buf = e.ToolCallStart(buf, 0, []byte("call_1"), []byte("get_weather"))
	buf = e.ToolCallArgs(buf, 0, []byte(`{"city":"SF"}`))
	buf = e.ToolCallEnd(buf, 0)
	buf = e.Finish(buf, protocols.FinishStop, protocols.Usage{PromptTokens: 12, CompletionTokens: 9})
	r := sse.NewReader(bytes.NewReader(buf), 0)
	for {
		ev, err := r.Next()
		if err != nil {
			break
		}
		fmt.Println(string(ev.Name))
	}
	// Output:
	// response.created
	// response.in_progress
	// response.output_item.added
	// response.content_part.added
	// response.reasoning_text.delta
	// response.reasoning_text.done
	// response.content_part.done
	// response.output_item.done
	// response.output_item.added
	// response.function_call_arguments.delta
	// response.function_call_arguments.done
	// response.output_item.done
	// response.completed
}
