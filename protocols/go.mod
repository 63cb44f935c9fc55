module github.com/agentwire/agentwire/protocols

go 1.24

require (
	github.com/goccy/go-json v0.12.0
	github.com/google/go-cmp v0.7.0
)
