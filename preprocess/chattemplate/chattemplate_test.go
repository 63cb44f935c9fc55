package chattemplate

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func render(t *testing.T, src string, in Input) (string, error) {
	t.Helper()
	tmpl, err := Parse(src, Options{Now: goldenNow})
	require.NoError(t, err)
	return tmpl.Render(in)
}

func TestInputJSON(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"key order kept", `{"z": 1, "a": 2, "m": 3}`, `{'z': 1, 'a': 2, 'm': 3}|{"z": 1, "a": 2, "m": 3}`},
		{"int and float kept", `[1, 1.0, -0, -0.0, 1e3, 1E-7, 12345678901234567890]`, `[1, 1.0, 0, -0.0, 1000.0, 1e-07, 1.2345678901234567e+19]|[1, 1.0, 0, -0.0, 1000.0, 1e-07, 1.2345678901234567e+19]`},
		{"repeated key keeps first place, last value", `{"a": 1, "b": 2, "a": 3}`, `{'a': 3, 'b': 2}|{"a": 3, "b": 2}`},
		{"escapes (a lone surrogate becomes U+FFFD)", `["\"\\\/\b\f\n\r\t\u00e9\ud83e\udd80\ud800"]`, "['\"\\\\/\\x08\\x0c\\n\\r\\té🦀\ufffd']|[\"\\\"\\\\/\\b\\f\\n\\r\\té🦀\ufffd\"]"},
		{"literals", `[true, false, null, "", [], {}]`, `[True, False, None, '', [], {}]|[true, false, null, "", [], {}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := render(t, `{{ extra }}|{{ extra | tojson }}`, Input{Kwargs: json.RawMessage(`{"extra": ` + tt.json + `}`)})
			require.NoError(t, err)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestInputJSONErrors(t *testing.T) {
	for _, bad := range []string{`[1,]`, `{"a" 1}`, `01`, `1.`, `-`, `"abc`, `"\x"`, `[1] 2`, `{"a":1`, `tru`, "\"\x01\"", strings.Repeat("[", 600) + strings.Repeat("]", 600)} {
		_, err := render(t, `{{ messages }}`, Input{Messages: json.RawMessage(bad)})
		require.Error(t, err, "input %q", bad)
	}
}

func TestContext(t *testing.T) {
	src := `{{ messages | length }}|{{ tools }}|{{ documents }}|{{ add_generation_prompt }}|{{ bos_token is defined }}|{{ eos_token }}|{{ unk_token }}|{{ enable_thinking }}`
	got, err := render(t, src, Input{
		Messages:  json.RawMessage(`[{"role":"user","content":"x"}]`),
		Tools:     json.RawMessage(`null`),
		EOSToken:  "</s>",
		UnkToken:  "<unk>",
		Kwargs:    json.RawMessage(`{"enable_thinking": false, "unk_token": "[U]"}`),
		Documents: nil,
	})
	require.NoError(t, err)
	require.Equal(t, "1|None|None|False|False|</s>|[U]|False", got)

	_, err = render(t, src, Input{Kwargs: json.RawMessage(`[1]`)})
	require.ErrorContains(t, err, "kwargs must be a JSON object")
}

func TestTemplateError(t *testing.T) {
	_, err := render(t, `{% if messages[0].role != 'user' %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}`,
		Input{Messages: json.RawMessage(`[{"role":"assistant"}]`)})
	var te *TemplateError
	require.ErrorAs(t, err, &te)
	require.Equal(t, "Conversation roles must alternate user/assistant/user/assistant/...", te.Message)

	// An engine error is not a TemplateError.
	_, err = render(t, `{{ 'a' + 1 }}`, Input{})
	require.Error(t, err)
	require.False(t, errors.As(err, &te))
}

func TestLimits(t *testing.T) {
	tests := map[string]string{
		"steps":     `{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}`,
		"output":    `{% for i in range(100000) %}{{ 'x' * 1000 }}{% endfor %}`,
		"doubling":  `{% set ns = namespace(s='ab') %}{% for i in range(100) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}`,
		"repeat":    `{{ 'x' * 10000000000 }}`,
		"recursion": `{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}`,
		"copying":   `{% set big = 'x' * 60000 %}{% for i in range(1000) %}{% set y = big ~ i %}{% endfor %}`,
		"filtering": `{% set big = 'x' * 60000 %}{% for i in range(1000) %}{% set y = big | upper %}{% endfor %}`,
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			// Small limits keep the test fast; the defaults are tested
			// on the cheap cases.
			tmpl, err := Parse(src, Options{MaxSteps: 10000, MaxBytes: 1 << 16})
			require.NoError(t, err)
			_, err = tmpl.Render(Input{})
			require.ErrorIs(t, err, ErrLimit)
			if name == "repeat" || name == "recursion" {
				_, err = render(t, src, Input{})
				require.ErrorIs(t, err, ErrLimit)
			}
		})
	}
}

// TestRangeLimit: as in jinja2's sandbox, a range of more than 100000
// items is an OverflowError (not a render limit: Python fails the same way).
func TestRangeLimit(t *testing.T) {
	_, err := render(t, `{{ range(10000000000) | length }}`, Input{})
	require.ErrorContains(t, err, "OverflowError")
	require.NotErrorIs(t, err, ErrLimit)
	got, err := render(t, `{{ range(100000) | length }}`, Input{})
	require.NoError(t, err)
	require.Equal(t, "100000", got)
}

func TestStrftimeNow(t *testing.T) {
	tmpl, err := Parse(`{{ strftime_now('%Y-%m-%d %H:%M:%S %A %-d %B') }}`, Options{Now: func() time.Time { return time.Date(2025, 7, 4, 9, 5, 3, 0, time.UTC) }})
	require.NoError(t, err)
	got, err := tmpl.Render(Input{})
	require.NoError(t, err)
	require.Equal(t, "2025-07-04 09:05:03 Friday 4 July", got)

	tmpl, err = Parse(`{{ strftime_now('%Y') }}`, Options{})
	require.NoError(t, err)
	got, err = tmpl.Render(Input{})
	require.NoError(t, err)
	require.Equal(t, time.Now().Format("2006"), got)
}

func TestFromTokenizerConfig(t *testing.T) {
	src, names, err := FromTokenizerConfig([]byte(`{"chat_template": "{{ x }}"}`), "")
	require.NoError(t, err)
	require.Equal(t, "{{ x }}", src)
	require.Nil(t, names)

	cfg := []byte(`{"chat_template": [{"name": "default", "template": "D"}, {"name": "tool_use", "template": "T"}]}`)
	src, names, err = FromTokenizerConfig(cfg, "tool_use")
	require.NoError(t, err)
	require.Equal(t, "T", src)
	require.Equal(t, []string{"default", "tool_use"}, names)
	src, _, err = FromTokenizerConfig(cfg, "")
	require.NoError(t, err)
	require.Equal(t, "D", src)

	_, _, err = FromTokenizerConfig(cfg, "rag")
	require.ErrorIs(t, err, ErrNoTemplate)
	_, _, err = FromTokenizerConfig([]byte(`{"bos_token": "<s>"}`), "")
	require.ErrorIs(t, err, ErrNoTemplate)
	_, _, err = FromTokenizerConfig([]byte(`{"chat_template": 3}`), "")
	require.Error(t, err)
}

// TestConcurrentRender renders one template from many goroutines (run with
// -race).
func TestConcurrentRender(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testdataDir, "templates", "qwen3.jinja"))
	require.NoError(t, err)
	tmpl, err := Parse(string(src), Options{Now: goldenNow})
	require.NoError(t, err)
	convs := readJSONLines[line](t, filepath.Join(testdataDir, "conversations.jsonl"))
	want := make([]string, len(convs))
	for i, c := range convs {
		want[i], _ = tmpl.Render(c.input())
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, c := range convs {
				got, _ := tmpl.Render(c.input())
				if got != want[i] {
					t.Errorf("conversation %d: concurrent render differs", i)
				}
			}
		}()
	}
	wg.Wait()
}

// TestClaudeCodeSteps shows the default limits leave real requests a wide
// margin: the 49 KB Claude Code request renders with the Qwen3 template
// within a hundredth of MaxSteps.
func TestClaudeCodeSteps(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testdataDir, "templates", "qwen3.jinja"))
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(testdataDir, "claude-code", "request.jsonl"))
	require.NoError(t, err)
	var l line
	require.NoError(t, json.Unmarshal(data, &l))
	tmpl, err := Parse(string(src), Options{MaxSteps: MaxSteps / 100})
	require.NoError(t, err)
	_, err = tmpl.Render(l.input())
	require.NoError(t, err)
}

func TestNestingBounded(t *testing.T) {
	for name, src := range map[string]string{
		"parentheses": "{{ " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + " }}",
		"unary":       "{{ " + strings.Repeat("- ", 100000) + "1 }}",
		"not":         "{{ " + strings.Repeat("not ", 100000) + "1 }}",
		"blocks":      strings.Repeat("{% if true %}", 100000) + strings.Repeat("{% endif %}", 100000),
	} {
		_, err := Parse(src, Options{})
		require.ErrorContains(t, err, "nesting deeper than", name)
	}
	// Real nesting is far below the bound.
	_, err := Parse(strings.Repeat("{% if true %}", 50)+"x"+strings.Repeat("{% endif %}", 50), Options{})
	require.NoError(t, err)
}

func TestPlainRun(t *testing.T) {
	// Every position of every special byte, in strings longer than a word.
	for _, special := range []byte{'"', '\\', 0, 0x1f, '\n'} {
		for n := 0; n < 20; n++ {
			for at := 0; at <= n; at++ {
				b := []byte(strings.Repeat("aé~\x7f\x20", 5))[:n]
				want := len(b)
				if at < n {
					b[at] = special
					want = at
					for k := 0; k < at; k++ {
						if c := b[k]; c == '"' || c == '\\' || c < 0x20 {
							want = k
							break
						}
					}
				}
				require.Equal(t, want, plainRunOf(b), "special %q at %d in %q", special, at, b)
			}
		}
	}
}

func plainRunOf(b []byte) int { d := jsonDecoder{data: b}; return d.plainRun(0) }

// TestToolsCache renders the same tools through the cache from many
// goroutines (run with -race) and checks a cached render equals an uncached
// one, and that the cache keeps at most its size.
func TestToolsCache(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testdataDir, "templates", "qwen3.jinja"))
	require.NoError(t, err)
	cached, err := Parse(string(src), Options{Now: goldenNow, ToolsCache: 2})
	require.NoError(t, err)
	plain, err := Parse(string(src), Options{Now: goldenNow, ToolsCache: -1})
	require.NoError(t, err)
	require.Nil(t, plain.tools)
	convs := readJSONLines[line](t, filepath.Join(testdataDir, "conversations.jsonl"))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, c := range convs {
				in := c.input()
				// Pad the tools so they are worth caching, differently per
				// conversation.
				if len(in.Tools) > 2 {
					in.Tools = json.RawMessage(strings.Replace(string(in.Tools), "Get the current weather", "Get the current weather"+strings.Repeat(" ", 1024+len(c.Name)), 1))
				}
				want, wantErr := plain.Render(in)
				got, err := cached.Render(in)
				if want != got || (wantErr == nil) != (err == nil) {
					t.Errorf("%s: cached render differs", c.Name)
				}
			}
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, len(cached.tools.entries), 2)
}

// TestToolsCacheMutation: jinja2's sandbox lets a template call list.pop()
// and list.clear(), so a template that may do so gets no tools cache and
// every render sees the tools it is given; other templates keep the cache.
func TestToolsCacheMutation(t *testing.T) {
	tools := json.RawMessage(`[` + strings.Repeat(`{"type": "function", "function": {"name": "f", "description": "`+strings.Repeat("x", 100)+`"}}, `, 20) + `{"type": "function"}]`)
	tests := []struct {
		src    string
		cached bool
		want   string
	}{
		{`{% set _ = tools.pop() %}{{ tools | length }}`, false, "20"},
		{`{{ tools.clear() }}{{ tools | length }}`, false, "None0"},
		{`{% set p = tools | attr('pop') %}{{ p() is mapping }}{{ tools | length }}`, false, "True20"},
		{`{% set name = 'po' ~ 'p' %}{{ (tools | attr(name))() is mapping }}{{ tools | length }}`, false, "True20"},
		{`{{ tools | length }}{{ tools[0].function.name }}`, true, "21f"},
	}
	for _, tt := range tests {
		tmpl, err := Parse(tt.src, Options{})
		require.NoError(t, err)
		require.Equal(t, tt.cached, tmpl.tools != nil, "%s: cache", tt.src)
		for i := 0; i < 3; i++ {
			got, err := tmpl.Render(Input{Tools: tools})
			require.NoError(t, err)
			require.Equal(t, tt.want, got, "%s: render %d", tt.src, i)
		}
	}
}
