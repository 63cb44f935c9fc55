package preprocess

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/agentwire/agentwire/parsers"
)

func TestLoadModelTiny(t *testing.T) {
	m := tinyModel(t, ModelOptions{})
	require.Equal(t, "tiny", m.Name)
	require.Equal(t, "<|im_end|>", m.EOS)
	require.Empty(t, m.BOS)
	require.Equal(t, []uint32{263, 261}, m.EOSIDs)
	require.Equal(t, 2048, m.ContextLength)
	require.Equal(t, "qwen3", m.ModelType)
	require.Equal(t, "Qwen3", m.Family)
	require.Equal(t, "hermes", m.ToolParser)
	require.Equal(t, "qwen3", m.ReasoningParser)
	tm := m.Template(true)
	require.NotNil(t, tm)
	require.True(t, tm.HandlesReasoning)
	require.True(t, tm.ArgumentsAsString)

	m = tinyModel(t, ModelOptions{ToolParser: "qwen3_coder", ReasoningParser: "none", ContextLength: 100})
	require.Equal(t, "qwen3_coder", m.ToolParser)
	require.Empty(t, m.ReasoningParser)
	require.Equal(t, 100, m.ContextLength)

	_, err := LoadModel(tinyDir, ModelOptions{ToolParser: "no_such_parser"})
	require.ErrorContains(t, err, "unknown tool parser")
	_, err = LoadModel(t.TempDir(), ModelOptions{})
	require.Error(t, err, "a directory without a tokenizer")
}

// TestLoadModelConfigForms covers the alternative shapes of the
// configuration files: a list of named templates, AddedToken objects,
// chat_template.jinja, an int eos_token_id and text_config's length.
func TestLoadModelConfigForms(t *testing.T) {
	dir := t.TempDir()
	tok, err := os.ReadFile(filepath.Join(tinyDir, "tokenizer.json"))
	require.NoError(t, err)
	write := func(name, body string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644))
	}
	write("tokenizer.json", string(tok))
	write("tokenizer_config.json", `{"bos_token":{"content":"<|endoftext|>","special":true},"eos_token":{"content":"<|im_end|>"},
		"chat_template":[{"name":"default","template":"D{{ messages|length }}"},{"name":"tool_use","template":"T{{ tools|length }}{{ reasoning_content }}"}]}`)
	write("generation_config.json", `{"eos_token_id": 261}`)
	write("config.json", `{"model_type":"some_vl","architectures":["X"],"text_config":{"max_position_embeddings":777}}`)
	m, err := LoadModel(dir, ModelOptions{})
	require.NoError(t, err)
	require.Equal(t, "<|endoftext|>", m.BOS)
	require.Equal(t, []uint32{261, 263}, m.EOSIDs)
	require.Equal(t, 777, m.ContextLength)
	require.Equal(t, TemplateToolUse, m.Template(true).Name)
	require.Equal(t, TemplateDefault, m.Template(false).Name)
	require.True(t, m.Template(true).HandlesReasoning)
	require.False(t, m.Template(false).HandlesReasoning)
	require.Empty(t, m.Family)

	write("chat_template.jinja", "J")
	m, err = LoadModel(dir, ModelOptions{})
	require.NoError(t, err)
	require.Equal(t, "J", m.Template(false).Source())

	write("config.json", `{`)
	_, err = LoadModel(dir, ModelOptions{})
	require.ErrorContains(t, err, "config.json")
}

func TestLoadModelLarge(t *testing.T) {
	t.Parallel()
	want := map[string]struct {
		family, tool, reasoning string
		eos                     []uint32
		ctx                     int
	}{
		"qwen3":       {"Qwen3", "hermes", "qwen3", []uint32{151645, 151643}, 40960},
		"deepseek_v3": {"DeepSeek V3", "deepseek_v3", "", []uint32{1}, 163840},
		"gptoss":      {"gpt-oss", "harmony", "gpt_oss", []uint32{200002, 199999, 200012}, 131072},
		"llama3":      {"Llama 3", "llama3_json", "", []uint32{128001, 128009}, 8192},
		"kimi_k2":     {"Kimi K2", "kimi_k2", "", []uint32{163586, 163585}, 131072},
	}
	for _, name := range largeModels {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := largeModel(t, name)
			w := want[name]
			got := []any{m.Family, m.ToolParser, m.ReasoningParser, m.EOSIDs, m.ContextLength}
			if diff := cmp.Diff([]any{w.family, w.tool, w.reasoning, w.eos, w.ctx}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			require.NotNil(t, m.Template(false), "no chat template")
		})
	}
}

// TestLoadModelParserPair: a tool parser and a reasoning parser that
// cannot run together (a framing grammar with another family's reasoning
// parser) are refused at load, naming both, instead of failing every
// request with tools; every pair of the family table loads.
func TestLoadModelParserPair(t *testing.T) {
	t.Parallel()
	_, err := LoadModel(tinyDir, ModelOptions{ToolParser: "harmony", ReasoningParser: "qwen3"})
	require.ErrorIs(t, err, parsers.ErrParserCombination)
	require.ErrorContains(t, err, `"harmony"`)
	require.ErrorContains(t, err, `"qwen3"`)
	_, err = LoadModel(tinyDir, ModelOptions{ToolParser: "hermes", ReasoningParser: "gpt_oss"})
	require.ErrorIs(t, err, parsers.ErrParserCombination)
	for _, f := range familyTable {
		_, err := LoadModel(tinyDir, ModelOptions{ToolParser: orNone(f.ToolParser), ReasoningParser: orNone(f.ReasoningParser)})
		require.NoError(t, err, "family %s", f.Name)
	}
}

func orNone(name string) string {
	if name == "" {
		return "none"
	}
	return name
}
