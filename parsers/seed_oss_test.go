package parsers

import "testing"

// FuzzSeedOSS runs the seed_oss tool parser alone and behind its reasoning
// parser, with and without a typed schema, streaming or whole-call mode, with
// a small buffer limit; seeded from the seed_oss fixtures.
func FuzzSeedOSS(f *testing.F) { paramFuzz(f, "seed_oss", "seed_oss", "seed_oss") }

// TestSeedOSSAllocs: a reused seed_oss Parser streams a reasoning span and a
// typed call without allocating, in any chunk size, in both call modes.
func TestSeedOSSAllocs(t *testing.T) {
	assertNoAllocs(t, Config{ToolParser: "seed_oss", ReasoningParser: "seed_oss", Tools: paramTools},
		"<seed:think>Writing the file.</seed:think>\n<seed:tool_call>\n<function=write_file>\n"+
			"<parameter=path>/tmp/out.txt</parameter>\n<parameter=mode>644</parameter>\n<parameter=content>"+
			paramContent(2<<10)+"</parameter>\n</function>\n</seed:tool_call>")
}
