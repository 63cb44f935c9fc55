package sdktest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
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
	if !errors.As(err, &aerr) || aerr.StatusCode != 400 || !strings.Contains(aerr.Error(), "prompt is too long: 250000 tokens > 200000 maximum") {
		t.Errorf("anthropic: %v", err)
	}

	status, body = awanthropic.ErrorBody(&protocols.Error{Kind: protocols.ErrorOverloaded})
	ac = anthropic.NewClient(aoption.WithBaseURL(answer(t, status, body).URL), aoption.WithAPIKey("t"), aoption.WithMaxRetries(0))
	_, err = ac.Messages.New(context.Background(), anthropic.MessageNewParams{Model: "m", MaxTokens: 1,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("x"))}})
	if !errors.As(err, &aerr) || aerr.StatusCode != 529 || !strings.Contains(aerr.Error(), "overloaded_error") {
		t.Errorf("anthropic overloaded: %v", err)
	}

	status, body = awopenai.ErrorBody(overflow)
	oc := openaisdk.NewClient(ooption.WithBaseURL(answer(t, status, body).URL), ooption.WithAPIKey("t"), ooption.WithMaxRetries(0))
	_, err = oc.Chat.Completions.New(context.Background(), openaisdk.ChatCompletionNewParams{Model: "m",
		Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("x")}})
	var oerr *openaisdk.Error
	if !errors.As(err, &oerr) || oerr.StatusCode != 400 || oerr.Code != "context_length_exceeded" || oerr.Param != "messages" {
		t.Errorf("chat: %v", err)
	}

	status, body = awresponses.ErrorBody(&protocols.Error{Kind: protocols.ErrorRateLimited})
	oc = openaisdk.NewClient(ooption.WithBaseURL(answer(t, status, body).URL), ooption.WithAPIKey("t"), ooption.WithMaxRetries(0))
	_, err = oc.Responses.New(context.Background(), oresponses.ResponseNewParams{Model: "m",
		Input: oresponses.ResponseNewParamsInputUnion{OfString: openaisdk.String("x")}})
	if !errors.As(err, &oerr) || oerr.StatusCode != 429 || oerr.Code != "rate_limit_exceeded" {
		t.Errorf("responses: %v", err)
	}
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
	if err := as.Err(); err == nil || !strings.Contains(err.Error(), "prompt is too long: 250000 tokens > 200000 maximum") {
		t.Errorf("anthropic stream: %v", err)
	}

	srv = serve(t, func() protocols.Emitter { return awopenai.NewEmitter(awopenai.EmitterConfig{Model: "m"}) }, script, nil)
	oc := openaisdk.NewClient(ooption.WithBaseURL(srv.URL), ooption.WithAPIKey("t"), ooption.WithMaxRetries(0))
	cs := oc.Chat.Completions.NewStreaming(context.Background(), openaisdk.ChatCompletionNewParams{Model: "m",
		Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("x")}})
	for cs.Next() {
	}
	if err := cs.Err(); err == nil || !strings.Contains(err.Error(), "maximum context length is 200000") {
		t.Errorf("chat stream: %v", err)
	}

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
	if rs.Err() != nil || failed.Response.Error.Code != "context_length_exceeded" {
		t.Errorf("responses stream: %v %+v", rs.Err(), failed.Response.Error)
	}
}
