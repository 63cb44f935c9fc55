package preprocess

import (
	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess/api"
	"github.com/agentwire/agentwire/preprocess/engine"
	"github.com/agentwire/agentwire/protocols/convert"
	"github.com/agentwire/agentwire/tokenizers"
)

// This file is the contract between the request half (this package: model
// directory, chat template, PRE.1–PRE.6, tokenization) and the response
// half (the pipeline that turns engine output into API bytes). The request
// half fills a Prepared; the response half reads it and nothing else.
// Fields are only ever added, never renamed, so both halves can grow.

// Prepared is everything the request half decided for one request.
type Prepared struct {
	// API is the harness API the client speaks (package api): it writes
	// the answer and its errors. Stream says whether the client asked for
	// a stream (the engine is always streamed; unary answers are
	// aggregated from the same events).
	API    api.API
	Stream bool

	// Engine is the request for the engine adapter.
	Engine engine.Request

	// Parsers configures the parser for every choice. ToolParser is "" when
	// tool parsing is off for this request (the "jail" decision:
	// tool_choice none, no tools); InReasoning is the PRE.3 decision.
	Parsers parsers.Config

	// Response holds the response-side decisions.
	Response ResponsePlan
}

// ResponsePlan holds what the response pipeline needs beyond the parser
// configuration.
type ResponsePlan struct {
	// Model is the model name echoed in responses (the name the client
	// asked for, which may differ from Engine.Model).
	Model string

	// PromptTokens is the prompt length in tokens (usage when the engine
	// does not report it); CachedTokens the prefix-cache hits if known.
	PromptTokens int
	CachedTokens int

	// Tokenizer decodes generated token ids when the engine sends ids
	// without text (token-in/token-out engines, the replay engine). nil
	// when the engine always sends text. Shared and read-only: the
	// response pipeline builds one DecodeStream per choice on it.
	Tokenizer tokenizers.Tokenizer

	// ShapeDetect is PRE.4: decide once from the first non-whitespace
	// output byte; '[' or '{' sends the whole stream past the reasoning
	// parser. StripThinkFirst strips a complete leading [THINK] first
	// (mistral).
	ShapeDetect     bool
	StripThinkFirst bool

	// StripLeadingThink is PRE.6: drop one leading "<think>" (Nemotron with
	// thinking disabled).
	StripLeadingThink bool

	// ImmediateTool is immediate mode (tool_choice required or named, so
	// guided decoding made the output the call JSON itself): an array of
	// {"name","parameters"} (ImmediateToolName "") or the arguments object
	// of ImmediateToolName.
	ImmediateTool     bool
	ImmediateToolName string

	// HideReasoning: reasoning the model emits is not sent to the client
	// (Anthropic without thinking enabled, Responses without a summary and
	// no server default); it is still counted in usage.
	HideReasoning bool

	// IncludeUsage: send the usage chunk (chat stream_options.include_usage).
	IncludeUsage bool

	// Logprobs: pass logprobs through (chat).
	Logprobs bool

	// Anthropic and Responses are the translation contexts of requests
	// that arrived on those APIs (nil otherwise): the emitters and the
	// unary converters need them (model, tool declarations, namespaces,
	// reasoning passback).
	Anthropic *convert.AnthropicContext
	Responses *convert.ResponsesContext

	// ToolArgs, when not nil (Anthropic Messages:
	// api.Translation.ReplayToolArgs), receives the argument text emitted
	// for each tool_use id the response mints, so the next turn can replay
	// the model's own bytes (see ToolArgs).
	ToolArgs *ToolArgs
}
