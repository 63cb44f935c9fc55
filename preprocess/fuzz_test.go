package preprocess

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/agentwire/agentwire/protocols/openai"
)

// FuzzChat prepares arbitrary chat requests on the tiny model: never a
// panic, and a successful preparation always has its prompt's ids and an
// explicit max_tokens.
func FuzzChat(f *testing.F) {
	f.Add([]byte(toolTurn + `}`))
	f.Add([]byte(`{"messages":[{"role":"assistant","content":[{"type":"text","text":"x"}],"reasoning_content":["a",""]}],"tool_choice":"required","tools":[{"function":{"name":"f"}}]}`))
	f.Add([]byte(`{"messages":[{"role":"tool","content":"\u0000"}],"chat_template_kwargs":{"enable_thinking":"yes"},"stop":[1,2]}`))
	m, err := LoadModel(tinyDir, ModelOptions{})
	if err != nil {
		f.Fatal(err)
	}
	p := New(m, Options{})
	f.Fuzz(func(t *testing.T, body []byte) {
		var req openai.ChatRequest
		if json.Unmarshal(body, &req) != nil {
			return
		}
		prep, err := p.Chat(context.Background(), &req)
		if err != nil {
			return
		}
		if prep.Engine.MaxTokens <= 0 || len(prep.Engine.PromptIDs) != prep.Response.PromptTokens {
			t.Fatalf("max_tokens %d, %d ids, %d prompt tokens", prep.Engine.MaxTokens, len(prep.Engine.PromptIDs), prep.Response.PromptTokens)
		}
	})
}

// FuzzTopLevel scans arbitrary bytes as tokenizer.json for the members the
// prefix cache needs: never a panic, and every value found lies inside the
// input.
func FuzzTopLevel(f *testing.F) {
	b, err := os.ReadFile(tinyDir + "/tokenizer.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"added_tokens":[{"content":"<a>","special":true}],"model":{"x":"\"}"}}`))
	f.Add([]byte(`{"a":1,"added_tokens":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for k, v := range topLevel(data, "added_tokens", "normalizer", "pre_tokenizer") {
			if len(v) > len(data) {
				t.Fatalf("%s: value longer than the input", k)
			}
		}
	})
}
