package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

const (
	chattemplateData = "../../testdata/chattemplate"
	qwen3            = chattemplateData + "/templates/qwen3.jinja"
)

func TestRun(t *testing.T) {
	dateTmpl := filepath.Join(t.TempDir(), "date.jinja")
	require.NoError(t, os.WriteFile(dateTmpl, []byte(
		`{{ bos_token }}|{{ eos_token }}|{{ tools }}|{{ extra }}|{{ messages[0].n }}|{{ strftime_now('%d %b %Y %H:%M') }}`+
			`{% if messages | length > 1 %}{{ raise_exception('only one message, please') }}{% endif %}`), 0o644))
	badTmpl := filepath.Join(t.TempDir(), "bad.jinja")
	require.NoError(t, os.WriteFile(badTmpl, []byte(`{% if true %}never closed`), 0o644))
	tests := []struct {
		name   string
		args   []string
		input  string
		want   string
		status int
	}{
		{
			name:  "raw template",
			args:  []string{"-template", qwen3},
			input: `{"messages":[{"role":"user","content":"Hi"}],"add_generation_prompt":true}` + "\n",
			want:  `{"prompt":"<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"}` + "\n",
		},
		{
			name: "kwargs override tokens, numbers keep their type, -now, null tools, raise_exception",
			args: []string{"-template", dateTmpl, "-now", "2026-03-04"},
			input: `{"messages":[{"n":1.0}],"tools":null,"bos_token":"<s>","eos_token":null,"kwargs":{"bos_token":"[B]","extra":[1,2.50,{"b":1,"a":null}]}}` + "\n" +
				"\n" + // blank lines are skipped
				`{"messages":[{"n":1},{"n":2}]}` + "\n" +
				`not json`,
			want: `{"prompt":"[B]||None|[1, 2.5, {'b': 1, 'a': None}]|1.0|04 Mar 2026 00:00"}` + "\n" +
				`{"error":"only one message, please"}` + "\n" +
				`{"error":"bad line: invalid character 'o' in literal null (expecting 'u')"}` + "\n",
		},
		{
			name:  "tokenizer_config.json with named templates uses default",
			args:  []string{"-template", "testdata/named_tokenizer_config.json"},
			input: `{"messages":[{"role":"user","content":"Hi"}],"add_generation_prompt":true}` + "\n",
			want:  `{"prompt":"[user] Hi\n[assistant]"}` + "\n",
		},
		{
			name:   "missing file",
			args:   []string{"-template", "nope.jinja"},
			want:   `{"error":"open nope.jinja: no such file or directory"}` + "\n",
			status: 1,
		},
		{
			name:   "template that does not compile",
			args:   []string{"-template", badTmpl},
			want:   `{"error":"chattemplate: jinja parse: TemplateSyntaxError: line 1: unclosed if block (expected 'elif' or 'else' or 'endif')"}` + "\n",
			status: 1,
		},
		{
			name:   "no template",
			want:   `{"error":"missing -template FILE"}` + "\n",
			status: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(tt.args, strings.NewReader(tt.input), &out, &errOut)
			require.Equal(t, tt.status, status, "exit status; stderr %s", errOut.String())
			if diff := cmp.Diff(tt.want, out.String()); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunGoldens runs the runner over every template of testdata/chattemplate
// with conversations.jsonl and compares each output line with the oracle's
// golden line: the same prompt, or an error on both sides (the same message
// when the template raised it).
func TestRunGoldens(t *testing.T) {
	convs, err := os.ReadFile(filepath.Join(chattemplateData, "conversations.jsonl"))
	require.NoError(t, err)
	files, err := filepath.Glob(filepath.Join(chattemplateData, "templates", "*.jinja"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".jinja")
		var out bytes.Buffer
		require.Equal(t, 0, run([]string{"-template", f, "-now", "2026-01-02"}, bytes.NewReader(convs), &out, os.Stderr))
		gold, err := os.ReadFile(filepath.Join(chattemplateData, "golden", name+".jsonl"))
		require.NoError(t, err)
		got, want := lines(t, out.Bytes()), lines(t, gold)
		require.Len(t, got, len(want), name)
		for i := range want {
			var g, w struct {
				Prompt *string
				Error  *string
				Raised bool
			}
			require.NoError(t, json.Unmarshal(got[i], &g))
			require.NoError(t, json.Unmarshal(want[i], &w))
			switch {
			case w.Prompt != nil:
				if g.Prompt == nil {
					t.Errorf("%s line %d: oracle renders, runner says %s", name, i+1, *g.Error)
				} else if diff := cmp.Diff(*w.Prompt, *g.Prompt); diff != "" {
					t.Errorf("%s line %d (-oracle +runner):\n%s", name, i+1, diff)
				}
			case g.Error == nil:
				t.Errorf("%s line %d: oracle fails (%s), runner renders", name, i+1, *w.Error)
			case w.Raised && *g.Error != *w.Error:
				t.Errorf("%s line %d: raise_exception message: oracle %q, runner %q", name, i+1, *w.Error, *g.Error)
			}
		}
	}
}

func lines(t *testing.T, data []byte) [][]byte {
	t.Helper()
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			out = append(out, append([]byte(nil), sc.Bytes()...))
		}
	}
	require.NoError(t, sc.Err())
	return out
}
