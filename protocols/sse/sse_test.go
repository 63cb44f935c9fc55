package sse_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentwire/agentwire/protocols/sse"
)

type ev struct {
	Name, Data, ID string
	Comments       []string
}

func read(t *testing.T, in string, maxLine int) ([]ev, error) {
	t.Helper()
	r := sse.NewReader(strings.NewReader(in), maxLine)
	var out []ev
	for {
		e, err := r.Next()
		if err != nil {
			if err == io.EOF {
				return out, nil
			}
			return out, err
		}
		var cs []string
		for _, c := range e.Comments {
			cs = append(cs, string(c))
		}
		out = append(out, ev{string(e.Name), string(e.Data), string(e.ID), cs})
	}
}

func TestReader(t *testing.T) {
	in := ": keep-alive\n\nevent: message_start\ndata: {\"a\":1}\n\n" +
		"data: line1\r\ndata: line2\r\nid: 7\r\n\r\n" +
		": {\"x\":1}\n: second\nevent: token_ids\ndata:no-space\n\n" +
		"data: [DONE]"
	got, err := read(t, in, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []ev{
		{Name: "message_start", Data: `{"a":1}`, Comments: []string{"keep-alive"}},
		{Data: "line1\nline2", ID: "7"},
		{Name: "token_ids", Data: "no-space", Comments: []string{`{"x":1}`, "second"}},
		{Data: "[DONE]"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestReaderLineLimit(t *testing.T) {
	_, err := read(t, "data: "+strings.Repeat("x", 100)+"\n\n", 50)
	if !errors.Is(err, sse.ErrLineTooLong) {
		t.Errorf("err = %v", err)
	}
}

func TestAnnotationRoundTrip(t *testing.T) {
	b := sse.AppendAnnotation(nil, "request_id", `"req-1"`)
	b = sse.AppendEvent(b, "", `{"id":"x"}`)
	got, err := read(t, string(b), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []ev{{Name: "request_id", Comments: []string{`"req-1"`}}, {Data: `{"id":"x"}`}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
