module github.com/agentwire/agentwire/tokenizers

go 1.24

require (
	github.com/dlclark/regexp2 v1.12.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)
