package engine_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/agentwire/agentwire/preprocess/engine"
)

// The replay engine streams a recording step by step and applies the
// request's stop strings as an engine would.
func ExampleReplay() {
	rec := engine.RecordText("demo", []string{"The answer", " is 42.", "\n###", "END more"}, engine.FinishEOS)
	eng := &engine.Replay{Select: func(*engine.Request) (engine.Source, error) { return rec, nil }}

	st, err := eng.Generate(context.Background(), &engine.Request{MaxTokens: 100, Stop: engine.Stop{Strings: []string{"###END"}}})
	if err != nil {
		panic(err)
	}
	defer st.Close()
	for {
		out, err := st.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			panic(err)
		}
		fmt.Printf("%q", out.Text)
		if out.Finish != engine.FinishNone {
			fmt.Printf(" finish=%v stop=%q", out.Finish, out.StopReason)
		}
		fmt.Println()
	}
	// Output:
	// "The answer"
	// " is 42."
	// "\n"
	// "" finish=stop stop="###END"
}

// A vLLM adapter against an upstream speaking vLLM's streamed
// /v1/completions.
func ExampleNewVLLM() {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"text":"Hello","token_ids":[9707],"finish_reason":null}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[{"index":0,"text":"!","token_ids":[0],"finish_reason":"stop","stop_reason":null}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2}}`+"\n\n")
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer upstream.Close()

	eng := engine.NewVLLM(engine.VLLMConfig{Config: engine.Config{BaseURL: upstream.URL + "/v1"}})
	st, err := eng.Generate(context.Background(), &engine.Request{Model: "qwen", PromptIDs: []uint32{1, 2, 3, 4, 5}, MaxTokens: 16})
	if err != nil {
		panic(err)
	}
	defer st.Close()
	for {
		out, err := st.Next()
		if err != nil {
			fmt.Println(err)
			break
		}
		fmt.Printf("text=%q ids=%v finish=%v", out.Text, out.TokenIDs, out.Finish)
		if out.Usage != nil {
			fmt.Printf(" usage=%+v", *out.Usage)
		}
		fmt.Println()
	}
	// Output:
	// text="Hello" ids=[9707] finish=none
	// text="!" ids=[0] finish=eos
	// text="" ids=[] finish=none usage={PromptTokens:5 CompletionTokens:2 CachedTokens:0}
	// EOF
}
