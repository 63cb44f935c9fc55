package sdktest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	openaisdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	oresponses "github.com/openai/openai-go/v3/responses"

	"github.com/agentwire/agentwire/protocols"
	awanthropic "github.com/agentwire/agentwire/protocols/anthropic"
	awopenai "github.com/agentwire/agentwire/protocols/openai"
	awresponses "github.com/agentwire/agentwire/protocols/responses"
	"github.com/stretchr/testify/require"
)

func answer(t *testing.T, status int, body []byte) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

var overflow = &protocols.Error{Kind: protocols.ErrorContextLength, PromptTokens: 250000, MaxContext: 200000}

// The SDKs read each API's error answers as the real APIs' errors.
func TestSDKsReadErrorBodies(t *testing.T) {
	status, body := awanthropic.ErrorBody(overflow)
	ac := anthropic.NewClient(aoption.WithBaseURL(answer(t, status, body).URL), aoption.WithAPIKey("t"), aoption.WithMaxRetries(0))
	_, err := ac.Messages.New(context.Background(), anthropic.MessageNewParams{Model: "m", MaxTokens: 1,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("x"))}})
	var aerr *anthropic.Error
	require.True(t, errors.As(err, &aerr), "anthropic: %v", err)
	require.Equal(t, 400, aerr.StatusCode, "anthropic: %v", err)
	require.Contains(t, aerr.Error(), "prompt is too long: 250000 tokens > 200000 maximum", "anthropic: %v", err)

	status, body = awanthropic.ErrorBody(&protocols.Error{Kind: protocols.ErrorOverloaded})
	ac = anthropic.NewClient(aoption.WithBaseURL(answer(t, status, body).URL), aoption.WithAPIKey("t"), aoption.WithMaxRetries(0))
	_, err = ac.Messages.New(context.Background(), anthropic.MessageNewParams{Model: "m", MaxTokens: 1,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("x"))}})
	require.True(t, errors.As(err, &aerr), "anthropic overloaded: %v", err)
	require.Equal(t, 529, aerr.StatusCode, "anthropic overloaded: %v", err)
	require.Contains(t, aerr.Error(), "overloaded_error", "anthropic overloaded: %v", err)

	status, body = awopenai.ErrorBody(overflow)
	oc := openaisdk.NewClient(ooption.WithBaseURL(answer(t, status, body).URL), ooption.WithAPIKey("t"), ooption.WithMaxRetries(0))
	_, err = oc.Chat.Completions.New(context.Background(), openaisdk.ChatCompletionNewParams{Model: "m",
		Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("x")}})
	var oerr *openaisdk.Error
	require.True(t, errors.As(err, &oerr), "chat: %v", err)
	require.Equal(t, 400, oerr.StatusCode, "chat: %v", err)
	require.Equal(t, "context_length_exceeded", oerr.Code, "chat: %v", err)
	require.Equal(t, "messages", oerr.Param, "chat: %v", err)

	status, body = awresponses.ErrorBody(&protocols.Error{Kind: protocols.ErrorRateLimited})
	oc = openaisdk.NewClient(ooption.WithBaseURL(answer(t, status, body).URL), ooption.WithAPIKey("t"), ooption.WithMaxRetries(0))
	_, err = oc.Responses.New(context.Background(), oresponses.ResponseNewParams{Model: "m",
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openaisdk.String("x")}})
	require.True(t, errors.As(err, &oerr), "responses: %v", err)
	require.Equal(t, 429, oerr.StatusCode, "responses: %v", err)
	require.Equal(t, "rate_limit_exceeded", oerr.Code, "responses: %v", err)
}

// In-stream errors end the SDKs' streams with the error.
func TestSDKsReadStreamErrors(t *testing.T) {
	fail := func(e protocols.Emitter, dst []byte) []byte {
		switch em := e.(type) {
		case *awanthropic.Emitter:
			return em.FailError(dst, overflow)
		case *awopenai.Emitter:
			return em.FailError(dst, overflow)
		case *awresponses.Emitter:
			return em.FailError(dst, overflow)
		}
		return dst
	}
	script := []event{content("partial "), fail}

	srv := serve(t, func() protocols.Emitter { return awanthropic.NewEmitter(awanthropic.EmitterConfig{Model: "m"}) }, script, nil)
	ac := anthropic.NewClient(aoption.WithBaseURL(srv.URL), aoption.WithAPIKey("t"), aoption.WithMaxRetries(0))
	as := ac.Messages.NewStreaming(context.Background(), anthropic.MessageNewParams{Model: "m", MaxTokens: 1,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("x"))}})
	for as.Next() {
	}
	err := as.Err()
	require.Error(t, err, "anthropic stream: %v", err)
	require.ErrorContains(t, err, "prompt is too long: 250000 tokens > 200000 maximum", "anthropic stream: %v", err)

	srv = serve(t, func() protocols.Emitter { return awopenai.NewEmitter(awopenai.EmitterConfig{Model: "m"}) }, script, nil)
	oc := openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("t"), ooption.WithMaxRetries(0))
	cs := oc.Chat.Completions.NewStreaming(context.Background(), openaisdk.ChatCompletionNewParams{Model: "m",
		Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("x")}})
	for cs.Next() {
	}
	require.ErrorContains(t, cs.Err(), "maximum context length is 200000", "chat stream")

	srv = serve(t, func() protocols.Emitter { return awresponses.NewEmitter(awresponses.EmitterConfig{}) }, script, nil)
	oc = openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("t"), ooption.WithMaxRetries(0))
	rs := oc.Responses.NewStreaming(context.Background(), oresponses.ResponseNewParams{Model: "m",
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openaisdk.String("x")}})
	var failed oresponses.ResponseFailedEvent
	for rs.Next() {
		if f, ok := rs.Current().AsAny().(oresponses.ResponseFailedEvent); ok {
			failed = f
		}
	}
	require.NoError(t, rs.Err(), "responses stream: %v %+v", rs.Err(), failed.Response.Error)
	require.Equal(t, oresponses.ResponseErrorCode("context_length_exceeded"), failed.Response.Error.Code, "responses stream: %v %+v", rs.Err(), failed.Response.Error)
}
