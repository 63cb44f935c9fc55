package parsers

import (
	"strings"
	"testing"
)

// The helpers the tests, fuzz targets and benchmarks of the JSON-family
// grammars share (nemotron_deci, jamba, default, llama3_json, mistral, phi4:
// each reads its calls with jsonCalls). Each grammar's own tests live beside
// it (TestMistralIDs in mistral_test.go, …).

// jsonFamilyCall renders one call to write_file whose "content" argument
// holds size bytes of string data, in the wire form of a JSON-family
// grammar (the benchmarks and allocation tests of nemotron_deci, jamba,
// default, llama3_json, mistral and phi4 feed it).
func jsonFamilyCall(grammar string, size int) string {
	const sentence = "The quick brown fox jumps over the lazy dog; numbers 12345, unicode é 世界. "
	fill := strings.Repeat(sentence, size/len(sentence)+1)[:size]
	args := `{"path": "/tmp/out.txt", "content": "` + fill + `"}`
	obj := `{"name": "write_file", "arguments": ` + args + `}`
	switch grammar {
	case "nemotron_deci", "default":
		return "I'll write the file.\n<TOOLCALL>[" + obj + "]</TOOLCALL>"
	case "jamba":
		return "I'll write the file.\n<tool_calls>[" + obj + "]</tool_calls>"
	case "llama3_json":
		return `{"name": "write_file", "parameters": ` + args + `}`
	case "mistral":
		return "I'll write the file.\n[TOOL_CALLS]write_file[ARGS]" + args
	case "mistral_v3":
		return "I'll write the file.\n[TOOL_CALLS][" + obj + "]"
	case "phi4":
		return "I'll write the file.\nfunctools[" + obj + "]"
	}
	panic("unknown grammar " + grammar)
}

// jsonFamilyOutputs are the outputs the allocation test of grammar streams:
// content with marker-like text, a call with escapes and a raw control
// character, text after it, and a second call.
func jsonFamilyOutputs(grammar string) map[string]string {
	outs := map[string]string{
		"content": benchOutput("content", 2<<10) + " a <TOOLCALL b [TOOL_CALL fun functoo <|python_ [ {",
		"call":    jsonFamilyCall(grammar, 2<<10) + "\nbye " + jsonFamilyCall(grammar, 64),
	}
	switch grammar {
	case "llama3_json":
		outs["tagged"] = "Both: <|python_tag|>{\"parameters\": {\"k\": \"v\\n\u0001\"}, \"name\": \"b\"}; {\"name\": \"c\", \"parameters\": {}}\nbye"
		outs["answer"] = `{"answer": 42, "items": [1, 2, {"name": "x"}]} is the JSON.`
	case "mistral":
		outs["pre-v11"] = jsonFamilyCall("mistral_v3", 2<<10) + `[TOOL_CALLS][{"name": "b", "arguments": {"k": "v\n` + "\u0001" + `"}, "id": "abcDEF123"}]`
		outs["call-id"] = "[TOOL_CALLS]a[CALL_ID]x1[ARGS]{\"k\": 1}[TOOL_CALLS]b{}"
	case "phi4":
		outs["word"] = "import functools\n\nfunctools.reduce(f, xs) and funny functools  ok"
	}
	return outs
}

// jsonFamilyFuzz runs fuzzInvariants for a tool parser, alone or behind a
// reasoning parser, streaming or in whole-call mode, with a small buffer
// limit; sel picks the variant.
func jsonFamilyFuzz(t *testing.T, tools []string, reasoning string, in []byte, seed uint64, sel uint8) {
	cfg := Config{ToolParser: tools[int(sel>>4)%len(tools)], WholeCalls: sel&1 != 0}
	if sel&2 != 0 {
		cfg.ReasoningParser = reasoning
	}
	if sel&4 != 0 {
		cfg.MaxCallBuffer = 16
	}
	fuzzInvariants(t, cfg, in, seed)
}
