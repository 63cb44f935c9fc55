package anthropic_test

import (
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/internal/jsonx"
)

// nestedToolResults is a request whose first message holds a tool_result
// whose content holds a tool_result … depth times.
func nestedToolResults(depth int) []byte {
	var b strings.Builder
	b.WriteString(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[`)
	for range depth {
		b.WriteString(`{"type":"tool_result","tool_use_id":"toolu_1","content":[`)
	}
	b.WriteString(`{"type":"text","text":"x"}`)
	for range depth {
		b.WriteString(`]}`)
	}
	b.WriteString(`]}]}`)
	return []byte(b.String())
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func apiError(t *testing.T, err error) *anthropic.APIError {
	t.Helper()
	var e *anthropic.APIError
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *APIError", err, err)
	}
	return e
}

func TestNestedToolResultRejected(t *testing.T) {
	for _, depth := range []int{2, 60, 4000} {
		body := nestedToolResults(depth)
		var err error
		n := allocated(func() { _, err = anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{}) })
		e := apiError(t, err)
		if e.Status != 400 || e.Body.Error.Type != anthropic.ErrorTypeInvalidRequest {
			t.Fatalf("depth %d: %d %s", depth, e.Status, e.Body.Error.Type)
		}
		if depth <= 60 {
			want := "messages.0.content.0.content.0: Input tag 'tool_result' found using 'type' does not match any of the expected tags: 'document', 'image', 'search_result', 'text', 'tool_reference'"
			if e.Body.Error.Message != want {
				t.Errorf("depth %d: message %q, want %q", depth, e.Body.Error.Message, want)
			}
		}
		if n > 64<<10+uint64(4*len(body)) {
			t.Errorf("depth %d (%d bytes): decoding allocated %d bytes", depth, len(body), n)
		}
	}
	// one level is what the API accepts
	if _, err := anthropic.DecodeMessagesRequest(nestedToolResults(1), anthropic.DecodeOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeRejectsDeepNesting(t *testing.T) {
	deep := `{"model":"m","max_tokens":1,"messages":[],"metadata":{"user_id":"u","x":` +
		strings.Repeat("[", protocols.MaxNestingDepth) + strings.Repeat("]", protocols.MaxNestingDepth) + `}}`
	_, err := anthropic.DecodeMessagesRequest([]byte(deep), anthropic.DecodeOptions{})
	if e := apiError(t, err); e.Status != 400 || !strings.Contains(e.Body.Error.Message, "nesting") {
		t.Fatalf("%d %q", e.Status, e.Body.Error.Message)
	}
	if protocols.MaxNestingDepth != jsonx.MaxDepth {
		t.Fatalf("MaxNestingDepth %d, jsonx.MaxDepth %d", protocols.MaxNestingDepth, jsonx.MaxDepth)
	}
}

func TestKeysMatchExactly(t *testing.T) {
	body := []byte(`{"model":"a","MODEL":"b","max_tokens":5,"Max_Tokens":9,"messages":[{"role":"user","ROLE":"x","content":"hi"}]}`)
	req, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if req.Model != "a" || req.MaxTokens.Value() != 5 || req.Messages[0].Role != "user" {
		t.Fatalf("decoded %q %d %q", req.Model, req.MaxTokens.Value(), req.Messages[0].Role)
	}
	if string(req.Extra["MODEL"]) != `"b"` || string(req.Messages[0].Extra["ROLE"]) != `"x"` {
		t.Fatalf("extra %s / %s", req.Extra, req.Messages[0].Extra)
	}
	_, err = anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{Strict: true})
	want := "MODEL: Extra inputs are not permitted; Max_Tokens: Extra inputs are not permitted; messages.0.ROLE: Extra inputs are not permitted"
	if e := apiError(t, err); e.Body.Error.Message != want {
		t.Fatalf("strict: %q", e.Body.Error.Message)
	}
	// the Kelvin sign folds to k in Unicode; it is not "k" either
	if _, err := anthropic.DecodeMessagesRequest([]byte(`{"model":"m","max_\u212Aokens":3,"messages":[]}`), anthropic.DecodeOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestErrorMessagesAreClipped(t *testing.T) {
	huge := strings.Repeat("9", 1<<20)
	for name, body := range map[string]string{
		"number":      `{"model":"m","max_tokens":` + huge + `,"messages":[]}`,
		"string type": `{"model":"m","max_tokens":"` + huge + `","messages":[]}`,
		"bad literal": `{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"` + huge + `x}]}]}`,
		"bool role":   `{"model":"m","max_tokens":1,"messages":[{"role":` + huge + `,"content":"x"}]}`,
	} {
		_, err := anthropic.DecodeMessagesRequest([]byte(body), anthropic.DecodeOptions{})
		if err == nil {
			t.Fatalf("%s: accepted", name)
		}
		e := apiError(t, err)
		if len(e.Body.Error.Message) > 1200 {
			t.Errorf("%s: message of %d bytes", name, len(e.Body.Error.Message))
		}
	}
	keys := make([]string, 0, 1000)
	for i := range 1000 {
		keys = append(keys, `"k`+strings.Repeat("x", 1000)+string(rune('a'+i%26))+`":1`)
	}
	body := `{"model":"m","max_tokens":1,"messages":[],` + strings.Join(keys[:26], ",") + `}`
	_, err := anthropic.DecodeMessagesRequest([]byte(body), anthropic.DecodeOptions{Strict: true})
	if e := apiError(t, err); len(e.Body.Error.Message) > 1200 {
		t.Errorf("strict: message of %d bytes", len(e.Body.Error.Message))
	}
}

func TestBodyLimit(t *testing.T) {
	body := []byte(`{"model":"m","max_tokens":1,"messages":[]}`)
	_, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{MaxBytes: 10})
	if e := apiError(t, err); e.Status != 413 || e.Body.Error.Type != anthropic.ErrorTypeRequestTooLarge {
		t.Fatalf("%d %s", e.Status, e.Body.Error.Type)
	}
	if _, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{MaxBytes: -1}); err != nil {
		t.Fatal(err)
	}
}

// bigToolResult is a request of about n bytes, most of them in one
// tool_result's text (the deepest typed path in a request).
func bigToolResult(n int) []byte {
	return []byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"` +
		strings.Repeat("a\\n", n/3) + `"}]}]}]}`)
}

func TestDecodeMemoryIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates tens of megabytes")
	}
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates")
	}
	if jsonx.Impl != "goccy/go-json" {
		t.Skip("the encoding/json fallback allocates a decoder per scalar")
	}
	const size = 8 << 20
	for _, tc := range []struct {
		name  string
		body  []byte
		bound float64 // bytes allocated per body byte
	}{
		{"one big tool_result", bigToolResult(size), 1.5},
		{"many small messages", manyMessages(size), 5},
		{"empty strings", []byte(`{"model":"m","max_tokens":1,"messages":[],"stop_sequences":[` + strings.Repeat(`"",`, size/3) + `""]}`), 6},
		{"empty text blocks", []byte(`{"model":"m","max_tokens":1,"messages":[{"role":"user","content":[` + strings.Repeat(`{"type":"text","text":""},`, size/26) + `{"type":"text","text":""}]}]}`), 7.5},
		{"empty raw values", []byte(`{"model":"m","max_tokens":1,"messages":[],"metadata":{"z":[` + strings.Repeat(`{},`, size/3) + `{}]}}`), 1.5},
	} {
		var err error
		n := allocated(func() { _, err = anthropic.DecodeMessagesRequest(tc.body, anthropic.DecodeOptions{}) })
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		ratio := float64(n) / float64(len(tc.body))
		t.Logf("%s: %d-byte body, %d bytes allocated (%.1fx)", tc.name, len(tc.body), n, ratio)
		if ratio > tc.bound {
			t.Errorf("%s: decoding allocated %.1fx the body, bound %.1fx", tc.name, ratio, tc.bound)
		}
	}
	// unknown members are capped: a body of thousands is refused cheaply
	var b strings.Builder
	b.WriteString(`{"model":"m","max_tokens":1,"messages":[]`)
	for i := 0; b.Len() < size; i++ {
		b.WriteString(`,"k` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString(`}`)
	var err error
	body := []byte(b.String())
	n := allocated(func() { _, err = anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{}) })
	if e := apiError(t, err); e.Status != 400 || n > 1<<20 {
		t.Errorf("many unknown members: %v, %d bytes allocated", err, n)
	}
}

func manyMessages(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"model":"m","max_tokens":1,"messages":[`)
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"role":"user","content":[{"type":"text","text":"hello there","cache_control":{"type":"ephemeral"}},{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func BenchmarkDecodeManyMessages(b *testing.B) {
	body := manyMessages(1 << 20)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeBigToolResult(b *testing.B) {
	body := bigToolResult(4 << 20)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// The shape that took seconds and gigabytes before decoding was linear: a
// tool_result nested 4,000 deep (~200 KB), rejected.
func BenchmarkDecodeNestedToolResult(b *testing.B) {
	body := nestedToolResults(4000)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := anthropic.DecodeMessagesRequest(body, anthropic.DecodeOptions{}); err == nil {
			b.Fatal("accepted")
		}
	}
}
