package server_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
)

// A server on the embedded scripted agent answers a chat completion; a
// real deployment passes a server.ModelBackend (a model directory's
// Preprocessor on a vLLM, SGLang or TensorRT-LLM engine) instead.
func Example() {
	s, err := server.New(server.Config{Backend: &scripted.Backend{}, Logger: discardLogger()})
	if err != nil {
		panic(err)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, httptest.NewRequest("POST", "/v1/chat/completions", strings.NewReader(
		`{"model":"agent","messages":[{"role":"user","content":"hi"}]}`)))
	body := w.Body.String()
	fmt.Println(w.Code, strings.Contains(body, `"content":"Hello! I am the agentwire scripted agent. You said: hi"`))
	// Output: 200 true
}
