package parsers

import "testing"

func TestDefaultFeedAllocs(t *testing.T) {
	outs := jsonFamilyOutputs("default")
	outs["tagged"] = "Both: <|python_tag|>{\"arguments\": {\"k\": \"v\"}, \"name\": \"b\"}\n<TOOLCALL>[{\"name\": \"c\", \"arguments\": {}}]</TOOLCALL>"
	outs["bare"] = " [{\"name\": \"a\", \"arguments\": {\"x\": 1}}] then {\"name\": \"b\"}"
	assertFeedAllocs(t, Config{ToolParser: "default"}, outs)
}

// FuzzDefault runs Dynamo's default JSON grammar (<TOOLCALL>, <|python_tag|>
// and bare JSON at the start).
func FuzzDefault(f *testing.F) {
	fixtureSeeds(f, "default")
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		jsonFamilyFuzz(t, []string{"default"}, "qwen3", in, seed, sel)
	})
}
