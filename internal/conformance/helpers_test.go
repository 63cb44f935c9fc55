package conformance_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"

	"github.com/agentwire/agentwire/preprocess/server"
	"github.com/agentwire/agentwire/preprocess/server/scripted"
	"github.com/stretchr/testify/require"
)

// testKey is the API key every suite server requires.
const testKey = "test-key"

// newServer serves cfg (the scripted backend when none, testKey, a
// discarded log) on an httptest server closed when the test ends.
func newServer(t *testing.T, cfg server.Config) *httptest.Server {
	t.Helper()
	if cfg.Backend == nil {
		cfg.Backend = &scripted.Backend{}
	}
	if cfg.APIKey == "" {
		cfg.APIKey = testKey
	}
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	s, err := server.New(cfg)
	require.NoError(t, err)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func anthropicClient(ts *httptest.Server, key string) *anthropic.Client {
	c := anthropic.NewClient(aoption.WithBaseURL(ts.URL), aoption.WithAPIKey(key), aoption.WithMaxRetries(0))
	return &c
}

func openaiClient(ts *httptest.Server, key string) *openai.Client {
	c := openai.NewClient(ooption.WithBaseURL(ts.URL+"/v1"), ooption.WithAPIKey(key), ooption.WithMaxRetries(0))
	return &c
}

// ctxT is a context for one SDK exchange, canceled when the test ends.
func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}
