module github.com/agentwire/agentwire/tokenizers

go 1.24
