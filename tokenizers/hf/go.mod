module github.com/agentwire/agentwire/tokenizers/hf

go 1.24

require (
	github.com/agentwire/agentwire/tokenizers v0.1.0
	github.com/daulet/tokenizers v1.24.0
	github.com/google/go-cmp v0.7.0
)
