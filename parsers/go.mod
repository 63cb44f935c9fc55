module github.com/agentwire/agentwire/parsers

go 1.24
