module github.com/agentwire/agentwire

go 1.24

require (
	github.com/agentwire/agentwire/parsers v0.0.0
	github.com/agentwire/agentwire/protocols v0.0.0
	github.com/agentwire/agentwire/tokenizers v0.0.0
	github.com/google/go-cmp v0.7.0
)

replace (
	github.com/agentwire/agentwire/parsers => ./parsers
	github.com/agentwire/agentwire/protocols => ./protocols
	github.com/agentwire/agentwire/tokenizers => ./tokenizers
)
