package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

const tiny = "../../tokenizers/testdata/tiny/tokenizer.json"

func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		input  string
		want   string
		status int
	}{
		{
			name:  "encode",
			args:  []string{"-tokenizer", tiny},
			input: `{"text":"<|im_start|>Hello world"}` + "\n" + `{"text":"","add_special_tokens":true}` + "\n",
			want:  `{"ids":[296,280,269,279]}` + "\n" + `{"ids":[]}` + "\n",
		},
		{
			name:  "decode",
			args:  []string{"-tokenizer", tiny, "-decode"},
			input: `{"ids":[296,280,269,279],"skip_special_tokens":true}` + "\n" + `{"ids":[296,280],"skip_special_tokens":false}`,
			want:  `{"text":"Hello world"}` + "\n" + `{"text":"<|im_start|>He"}` + "\n",
		},
		{
			name:  "decode of a cut character",
			args:  []string{"-tokenizer", tiny, "-decode"},
			input: `{"ids":[228]}` + "\n",
			want:  `{"text":"�"}` + "\n",
		},
		{
			name:  "bad lines get an error and the rest goes on",
			args:  []string{"-tokenizer", tiny},
			input: "not json\n{\"ids\":[1]}\n{\"text\":\"Hello\"}\n",
			want: `{"error":"bad line: invalid character 'o' in literal null (expecting 'u')"}` + "\n" +
				`{"error":"bad line: no \"text\""}` + "\n" + `{"ids":[280,269]}` + "\n",
		},
		{
			name:  "bad ids",
			args:  []string{"-tokenizer", tiny, "-decode"},
			input: `{"ids":[-1]}` + "\n",
			want:  `{"error":"bad line: json: cannot unmarshal number -1 into Go struct field decodeIn.ids of type uint32"}` + "\n",
		},
		{
			name:   "missing file",
			args:   []string{"-tokenizer", "nope.json"},
			want:   `{"error":"tokenizers: open nope.json: no such file or directory"}` + "\n",
			status: 1,
		},
		{
			name:   "unsupported file type",
			args:   []string{"-tokenizer", "x.bin"},
			want:   `{"error":"tokenizers: unsupported tokenizer file type: \".bin\" (want tokenizer.json, tiktoken.model or *.tiktoken)"}` + "\n",
			status: 1,
		},
		{
			name:   "no tokenizer",
			args:   nil,
			want:   `{"error":"missing -tokenizer FILE"}` + "\n",
			status: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(tc.args, strings.NewReader(tc.input), &out, &errOut)
			require.Equal(t, tc.status, status, "status = %d, want %d (stderr %q)", status, tc.status, errOut.String())
			if diff := cmp.Diff(tc.want, out.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}
