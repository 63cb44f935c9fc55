package engine

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// TestSSEReader checks the framing rules, whole and one byte per read.
func TestSSEReader(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string // data; "!" prefix: an "error" event
		err  error
	}{
		{"LF", "data: a\n\ndata: b\n\n", []string{"a", "b"}, nil},
		{"CRLF", "data: a\r\n\r\ndata:b\r\n\r\n", []string{"a", "b"}, nil},
		{"CR", "data: a\r\rdata: b\r\r", []string{"a", "b"}, nil},
		{"multi-line data", "data: a\ndata:  b\ndata\n\n", []string{"a\n b\n"}, nil},
		{"comments and fields", ": ping\nid: 7\nretry: 10\ndata: x\n\n:\n\n", []string{"x"}, nil},
		{"error event", "event: error\ndata: {\"e\":1}\n\nevent: message\ndata: y\n\n", []string{"!{\"e\":1}", "y"}, nil},
		{"event without data is dropped", "event: error\n\ndata: z\n\n", []string{"z"}, nil},
		{"unterminated last event", "data: a\n\ndata: tail", []string{"a", "tail"}, nil},
		{"empty data events are not dispatched", "data:\n\ndata: \n\ndata:\ndata:\n\ndata: a\n\ndata:", []string{"a"}, nil},
		{"ping events are not dispatched", "event: ping\ndata: {\"type\":\"ping\"}\n\nevent: ping\n\ndata: a\n\nevent: ping\ndata: x", []string{"a"}, nil},
		{"line too long", "data: " + strings.Repeat("x", 100) + "\n\n", nil, errLineTooLong},
		{"event too large", strings.Repeat("data: 0123456789\n", 10) + "\n", nil, errEventTooLarge},
	}
	for _, tc := range cases {
		for _, oneByte := range []bool{false, true} {
			var r io.Reader = strings.NewReader(tc.in)
			if oneByte {
				r = iotest.OneByteReader(r)
			}
			var s sseReader
			s.reset(r, 64, 64)
			var got []string
			var err error
			for {
				var data []byte
				var isErr bool
				data, isErr, err = s.next()
				if err != nil {
					break
				}
				d := string(data)
				if isErr {
					d = "!" + d
				}
				got = append(got, d)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("%s (one byte %v): %s", tc.name, oneByte, d)
			}
			want := tc.err
			if want == nil {
				want = io.EOF
			}
			require.ErrorIs(t, err, want, "%s (one byte %v): error %v, want %v", tc.name, oneByte, err, want)
		}
	}
}
