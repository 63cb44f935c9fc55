package sdktest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"
	openaisdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"

	"github.com/agentwire/agentwire/protocols"
	awanthropic "github.com/agentwire/agentwire/protocols/anthropic"
	awopenai "github.com/agentwire/agentwire/protocols/openai"
	"github.com/stretchr/testify/require"
)

var cards = []protocols.ModelCard{
	{ID: "Qwen/Qwen3-32B", Created: time.Unix(1767225600, 0), ContextWindow: 131072},
	{ID: "openai/gpt-oss-120b", Created: time.Unix(1767225601, 0), MaxOutputTokens: 32768},
	{ID: "claude-opus-5-5", DisplayName: "Opus (local)"},
}

// modelsServer answers the models endpoints as a server built on the
// builders would: the shape by the anthropic-version header, slashed ids.
func modelsServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		anth := protocols.WantsAnthropicModels(r.Header)
		id, one := protocols.ModelIDFromPath(r.URL.Path)
		if !one {
			if anth {
				q, err := awanthropic.ParseListQuery(r.URL.Query())
				if err != nil {
					w.WriteHeader(400)
					return
				}
				_, _ = w.Write(awanthropic.ModelsBody(cards, q))
				return
			}
			_, _ = w.Write(awopenai.ModelsBody(cards))
			return
		}
		for _, c := range cards {
			if c.ID == id {
				if anth {
					_, _ = w.Write(awanthropic.ModelBody(c))
				} else {
					_, _ = w.Write(awopenai.ModelBody(c))
				}
				return
			}
		}
		nf := &protocols.Error{Kind: protocols.ErrorNotFound, Model: id}
		status, body := awopenai.ErrorBody(nf)
		if anth {
			status, body = awanthropic.ErrorBody(nf)
		}
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestSDKsListModels(t *testing.T) {
	srv := modelsServer(t)
	oc := openaisdk.NewClient(ooption.WithBaseURL(srv.URL+"/v1/"), ooption.WithAPIKey("t"), ooption.WithMaxRetries(0))
	page, err := oc.Models.List(context.Background())
	require.NoError(t, err)
	var ids []string
	for _, m := range page.Data {
		ids = append(ids, m.ID)
	}
	if d := cmp.Diff([]string{"Qwen/Qwen3-32B", "openai/gpt-oss-120b", "claude-opus-5-5"}, ids); d != "" {
		t.Errorf("openai list (-want +got):\n%s", d)
	}
	m, err := oc.Models.Get(context.Background(), "Qwen/Qwen3-32B")
	require.NoError(t, err, "openai get: %+v %v", m, err)
	require.Equal(t, "Qwen/Qwen3-32B", m.ID, "openai get: %+v %v", m, err)
	require.Equal(t, int64(1767225600), m.Created, "openai get: %+v %v", m, err)
	require.Equal(t, "agentwire", m.OwnedBy, "openai get: %+v %v", m, err)
	_, err = oc.Models.Get(context.Background(), "no/such")
	var oerr *openaisdk.Error
	require.True(t, errors.As(err, &oerr), "openai unknown: %v", err)
	require.Equal(t, 404, oerr.StatusCode, "openai unknown: %v", err)
	require.Equal(t, "model_not_found", oerr.Code, "openai unknown: %v", err)

	ac := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("t"), aoption.WithMaxRetries(0))
	ap, err := ac.Models.List(context.Background(), anthropic.ModelListParams{Limit: anthropic.Int(2)})
	require.NoError(t, err)
	ids = nil
	for _, m := range ap.Data {
		ids = append(ids, m.ID+"|"+m.DisplayName)
	}
	if d := cmp.Diff([]string{"Qwen/Qwen3-32B|Qwen/Qwen3-32B", "openai/gpt-oss-120b|openai/gpt-oss-120b"}, ids); d != "" || !ap.HasMore || ap.LastID != "openai/gpt-oss-120b" {
		t.Errorf("anthropic list (-want +got):\n%s has_more %v last %q", d, ap.HasMore, ap.LastID)
	}
	next, err := ac.Models.List(context.Background(), anthropic.ModelListParams{AfterID: anthropic.String(ap.LastID)})
	require.NoError(t, err, "anthropic page 2: %+v %v", next, err)
	require.Len(t, next.Data, 1, "anthropic page 2: %+v %v", next, err)
	require.Equal(t, "Opus (local)", next.Data[0].DisplayName, "anthropic page 2: %+v %v", next, err)
	require.False(t, next.HasMore, "anthropic page 2: %+v %v", next, err)
	am, err := ac.Models.Get(context.Background(), "Qwen/Qwen3-32B", anthropic.ModelGetParams{})
	require.NoError(t, err, "anthropic get: %+v %v", am, err)
	require.Equal(t, "Qwen/Qwen3-32B", am.ID, "anthropic get: %+v %v", am, err)
	require.Equal(t, int64(1767225600), am.CreatedAt.Unix(), "anthropic get: %+v %v", am, err)
	_, err = ac.Models.Get(context.Background(), "no/such", anthropic.ModelGetParams{})
	var aerr *anthropic.Error
	require.True(t, errors.As(err, &aerr), "anthropic unknown: %v", err)
	require.Equal(t, 404, aerr.StatusCode, "anthropic unknown: %v", err)
}
