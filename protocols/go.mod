module github.com/agentwire/agentwire/protocols

go 1.24
