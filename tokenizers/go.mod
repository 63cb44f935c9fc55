module github.com/agentwire/agentwire/tokenizers

go 1.24

require (
	github.com/dlclark/regexp2 v1.12.0
	github.com/google/go-cmp v0.7.0
	golang.org/x/text v0.28.0
)
