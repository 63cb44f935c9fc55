module github.com/agentwire/agentwire/tokenizers/hf

go 1.24

require (
	github.com/agentwire/agentwire/tokenizers v0.1.0
	github.com/daulet/tokenizers v1.24.0
	github.com/google/go-cmp v0.7.0
)

require (
	github.com/dlclark/regexp2 v1.12.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)
