package parsers

import (
	"strings"
	"testing"
)

// TestHarmonyCombinations pins what each pairing of the Harmony parsers does
// (PARSER_CASES.md): one machine serves both roles; gpt_oss without a
// tool parser forwards directed messages raw to content; Harmony does not
// combine with another family's parser.
func TestHarmonyCombinations(t *testing.T) {
	const out = "<|channel|>analysis<|message|>r<|end|>" +
		"<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\":1}<|call|>" +
		"<|start|>assistant<|channel|>final<|message|>done<|return|>"
	const env = "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"a\":1}<|call|>"
	checkCombinations(t, out, []combination{
		{"harmony", "", "done", 1, nil},
		{"openai", "gpt_oss", "done", 1, nil},
		{"gpt-oss", "openai_gptoss", "done", 1, nil},
		{"", "gpt_oss", env + "done", 0, nil},
		{"", "gpt-oss", env + "done", 0, nil},
		{"hermes", "gpt_oss", "", 0, ErrParserCombination},
		{"harmony", "qwen3", "", 0, ErrParserCombination},
		{"nope", "gpt_oss", "", 0, ErrUnknownParser},
	})
}

// TestHarmonyHeaderBound checks that a header that never reaches <|message|>
// is held only up to the buffer limit (bounded memory), then dropped.
func TestHarmonyHeaderBound(t *testing.T) {
	p, err := New(Config{ToolParser: "harmony", MaxCallBuffer: 64})
	if err != nil {
		t.Fatal(err)
	}
	h := p.tool.(*harmony)
	p.Feed([]byte("<|channel|>commentary to=functions.f"))
	for range 100 {
		p.Feed([]byte(strings.Repeat("x", 100)))
	}
	if len(h.hdr) > 64 {
		t.Fatalf("header buffer grew to %d bytes, limit 64", len(h.hdr))
	}
	p.Feed([]byte("<|message|>{}<|call|>after"))
	var acc Accumulator
	acc.Add(p.Finish())
	if r := acc.Result(); len(r.Calls) != 0 {
		t.Fatalf("overflowed header produced calls %v", r.Calls)
	}
}

// TestHarmonyFeedAllocs asserts zero allocations after warm-up for the
// Harmony machine streaming reasoning, content, calls (minted ids, escapes,
// separators) and raw envelopes.
func TestHarmonyFeedAllocs(t *testing.T) {
	out := harmonyBenchOutput(2 << 10)
	for _, cfg := range []Config{
		{ToolParser: "harmony"},
		{ToolParser: "harmony", WholeCalls: true},
		{ReasoningParser: "gpt_oss"},
	} {
		checkFeedAllocs(t, "", cfg, out)
	}
}

// FuzzHarmony runs the Harmony machine as the tool parser (with and without
// gpt_oss), as gpt_oss alone (raw envelopes), in streaming and whole-call
// mode, with small buffer limits, with and without declared tools.
func FuzzHarmony(f *testing.F) {
	fixtureSeeds(f, "harmony", "gpt_oss")
	for _, ff := range seedFiles(f) {
		if ff.Family == "captures" && strings.Contains(ff.path, "gpt-oss") {
			for _, c := range ff.Cases {
				f.Add([]byte(c.Input), uint64(len(c.Input)), uint8(len(c.Name)))
			}
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: "harmony", WholeCalls: sel&1 != 0}
		switch sel >> 1 & 3 {
		case 1:
			cfg.ReasoningParser = "gpt_oss"
		case 2:
			cfg.ToolParser, cfg.ReasoningParser = "", "gpt_oss"
		}
		if sel&8 != 0 {
			cfg.MaxCallBuffer = 24
		}
		if sel&16 != 0 {
			cfg.Tools = harmonyFuzzTools // recipients that name a declared tool are calls
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// harmonyFuzzTools are declared tools whose names the harmony fixtures use
// as bare recipients.
var harmonyFuzzTools = []Tool{{Name: "math.sum"}, {Name: "container.exec"}, {Name: "get_weather"}}
