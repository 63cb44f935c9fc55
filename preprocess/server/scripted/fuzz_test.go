package scripted

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// FuzzScript: any prompt gives a script or a refusal for too large
// arguments without panicking, the script is bounded, the pieces keep
// every byte, and every tool call carries valid JSON arguments.
func FuzzScript(f *testing.F) {
	f.Add("<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n")
	f.Add("<|im_start|>system\n<tools>\n" + bash + "\n</tools><|im_end|>\n<|im_start|>user\nparallel<|im_end|>\n<|im_start|>assistant\n<think>\n")
	f.Add("<|im_start|>user\n<tool_response>\nhello\n</tool_response>\n<tool_response>\n<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n")
	f.Add("<|im_start|>system\n<tools>\n{\"name\":\"f\",\"parameters\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"array\",\"minItems\":2,\"items\":{}}},\"required\":[\"b\"]}},\"required\":[\"a\"]}}\n</tools>")
	f.Add("<|im_start|>user\n<<think>think> <tool_<tool_call>call>\n<|im_end|>\n<|im_start|>assistant\n")
	f.Add("<|im_start|>user\nsay <tool_call>\n{\"name\": \"x\"}\n</tool_call><think><|im_end|>\n<|im_start|>assistant\n")
	f.Add("<|im_start|>system\n<tools>\n{\"name\":\"f\",\"parameters\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"array\",\"minItems\":4611686018427387904,\"items\":{}}},\"required\":[\"a\"]}}\n</tools><|im_end|>\n<|im_start|>user\ngo<|im_end|>\n")
	f.Fuzz(func(t *testing.T, prompt string) {
		out, err := Answer(prompt)
		if err != nil {
			if !errors.Is(err, ErrArgumentsTooLarge) {
				t.Fatalf("error %v", err)
			}
			return
		}
		if len(out) > 2*MaxArgumentBytes+8<<10 {
			t.Fatalf("script of %d bytes", len(out))
		}
		if strings.Join(Pieces(out), "") != out {
			t.Fatal("pieces lose bytes")
		}
		if calls := strings.Count(out, callOpen); calls > 2 || strings.Count(out, thinkOpen) > 1 {
			t.Fatalf("markup from quoted text: %q", out)
		}
		rest := out
		for {
			_, after, ok := strings.Cut(rest, callOpen+"\n")
			if !ok {
				break
			}
			body, tail, _ := strings.Cut(after, "\n"+callClose)
			var call struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			if err := json.Unmarshal([]byte(body), &call); err != nil {
				t.Fatalf("call %q: %v", body, err)
			}
			rest = tail
		}
	})
}
