package responses_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/agentwire/agentwire/protocols/responses"
)

// nestedNamespaces is a request whose first tool is a namespace holding a
// namespace … depth times.
func nestedNamespaces(depth int) []byte {
	var b strings.Builder
	b.WriteString(`{"model":"m","input":"x","tools":[{"type":"function","name":"top"},`)
	for range depth {
		b.WriteString(`{"type":"namespace","name":"n","tools":[{"type":"function","name":"f"},`)
	}
	b.WriteString(`{"type":"function","name":"g"}`)
	for range depth {
		b.WriteString(`]}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestNestedNamespaceRejected(t *testing.T) {
	for _, depth := range []int{2, 60, 4000} {
		body := nestedNamespaces(depth)
		var err error
		n := allocated(func() { _, err = responses.DecodeRequest(body, responses.DecodeOptions{}) })
		var e *responses.APIError
		if !errors.As(err, &e) {
			t.Fatalf("depth %d: %v", depth, err)
		}
		if e.Status != 400 || e.Body.Error.Type != "invalid_request_error" {
			t.Fatalf("depth %d: %d %s", depth, e.Status, e.Body.Error.Type)
		}
		if depth <= 60 {
			if got, want := e.Body.Error.Message, "Invalid value: 'namespace'. Supported values are: 'function' and 'custom'."; got != want {
				t.Errorf("message %q, want %q", got, want)
			}
			if got := e.Body.Error.Param.Value(); got != "tools[1].tools[1].type" {
				t.Errorf("param %q", got)
			}
			if got := e.Body.Error.Code.Value(); got != "invalid_value" {
				t.Errorf("code %q", got)
			}
		}
		if n > 64<<10+uint64(4*len(body)) {
			t.Errorf("depth %d (%d bytes): decoding allocated %d bytes", depth, len(body), n)
		}
	}
	req, err := responses.DecodeRequest(nestedNamespaces(1), responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Tools) != 2 || len(req.Tools[1].Tools) != 2 {
		t.Fatalf("tools %+v", req.Tools)
	}
}

func TestResponsesKeysMatchExactly(t *testing.T) {
	body := []byte(`{"model":"a","MODEL":"b","input":[{"type":"message","role":"user","Role":"x","content":"y"}]}`)
	req, err := responses.DecodeRequest(body, responses.DecodeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if req.Model != "a" || req.Input.Value().Array[0].OfMessage.Role != "user" {
		t.Fatalf("decoded %+v", req)
	}
	_, err = responses.DecodeRequest(body, responses.DecodeOptions{Strict: true})
	if err == nil || !strings.Contains(err.Error(), "`MODEL`, `input.0.Role`") {
		t.Fatalf("strict: %v", err)
	}
}

func TestResponsesBodyLimit(t *testing.T) {
	_, err := responses.DecodeRequest([]byte(`{"input":"xxxxxxxx"}`), responses.DecodeOptions{MaxBytes: 8})
	var e *responses.APIError
	if !errors.As(err, &e) || e.Status != 413 {
		t.Fatalf("%v", err)
	}
}
