package preprocess

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/protocols/anthropic"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/protocols/openai"
	"github.com/agentwire/agentwire/protocols/responses"
	"github.com/stretchr/testify/require"
)

const tinyDir = "../testdata/models/tiny"

// largeModels are the model directories combined with the large tokenizer
// files of tokenizers/testdata/large (fetched by .ci/setup.d/tokenizers.sh).
var largeModels = []string{"qwen3", "deepseek_v3", "gptoss", "llama3", "kimi_k2"}

// cachedModel is one entry of the large-model cache: its own lock lets
// parallel tests load different models at once.
type cachedModel struct {
	mu sync.Mutex
	m  *Model
}

var (
	modelMu    sync.Mutex
	modelCache = map[string]*cachedModel{}
)

// largeModel loads testdata/models/name with the large tokenizer files, or
// skips the test when they were not fetched. Models are loaded once per
// test binary; a load that failed is tried again by the next caller.
func largeModel(tb testing.TB, name string) *Model {
	tb.Helper()
	modelMu.Lock()
	c := modelCache[name]
	if c == nil {
		c = &cachedModel{}
		modelCache[name] = c
	}
	modelMu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != nil {
		return c.m
	}
	large := filepath.Join("..", "tokenizers", "testdata", "large", name)
	if _, err := os.Stat(filepath.Join(large, "tokenizer_config.json")); err != nil {
		require.NotEqual(tb, "1", os.Getenv("AGENTWIRE_REQUIRE_LARGE_TOKENIZERS"), "%s: large tokenizer files absent (AGENTWIRE_REQUIRE_LARGE_TOKENIZERS=1); run bash .ci/setup.d/tokenizers.sh", name)
		tb.Skipf("%s: large tokenizer files absent; run bash .ci/setup.d/tokenizers.sh", name)
	}
	dir := filepath.Join(tb.TempDir(), name)
	require.NoError(tb, os.MkdirAll(dir, 0o755))
	for _, f := range []string{"tokenizer.json", "tiktoken.model", "tokenizer_config.json"} {
		abs, err := filepath.Abs(filepath.Join(large, f))
		require.NoError(tb, err)
		if _, err := os.Stat(abs); err == nil {
			require.NoError(tb, os.Symlink(abs, filepath.Join(dir, f)))
		}
	}
	small := filepath.Join("..", "testdata", "models", name)
	entries, err := os.ReadDir(small)
	require.NoError(tb, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(small, e.Name()))
		require.NoError(tb, err)
		require.NoError(tb, os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644))
	}
	m, err := LoadModel(dir, ModelOptions{})
	require.NoError(tb, err)
	m.Name = name
	c.m = m
	return m
}

func tinyModel(tb testing.TB, opts ModelOptions) *Model {
	tb.Helper()
	m, err := LoadModel(tinyDir, opts)
	require.NoError(tb, err)
	return m
}

const harnessDir = "testdata/harness/"

func loadMessages(tb testing.TB, file string) *anthropic.MessagesRequest {
	tb.Helper()
	b, err := os.ReadFile(harnessDir + file)
	require.NoError(tb, err)
	var r anthropic.MessagesRequest
	require.NoError(tb, json.Unmarshal(b, &r))
	return &r
}

func loadResponses(tb testing.TB, file string) *responses.Request {
	tb.Helper()
	b, err := os.ReadFile(harnessDir + file)
	require.NoError(tb, err)
	var r responses.Request
	require.NoError(tb, json.Unmarshal(b, &r))
	return &r
}

// conversations are the captured turns; each turn 2 follows its turn 1.
var conversations = []struct {
	name  string
	api   api.API
	turns []string
}{
	{"claude-code A", api.Messages, []string{"claude-code_A-text_0001-POST-v1_messages.body.json"}},
	{"claude-code B", api.Messages, []string{"claude-code_B-bash_0001-POST-v1_messages.body.json", "claude-code_B-bash_0002-POST-v1_messages.body.json"}},
	{"codex A", api.Responses, []string{"codex_A-gpt-5.5_0003-POST-v1_responses.body.json"}},
	{"codex B", api.Responses, []string{"codex_B-gpt-5.5_0004-POST-v1_responses.body.json", "codex_B-gpt-5.5_0005-POST-v1_responses.body.json"}},
}

type chatAlias = openai.ChatRequest

func anthropicToChat(r *anthropic.MessagesRequest, opts convert.AnthropicOptions) (*openai.ChatRequest, any, error) {
	c, a, err := convert.AnthropicToChat(r, opts)
	return c, a, err
}

type chatMessage = openai.Message

func newMessage(role, text string) openai.Message {
	return openai.Message{Role: role, Content: openai.TextContent(text)}
}
