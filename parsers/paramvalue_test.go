package parsers

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// The parameter grammars: qwen3_coder, minimax_m2, glm47 and DSML
// (deepseek_v3_2, deepseek_v4), and seed_oss, whose values paramValue reads
// (with the schema typing of schema.go). Their fuzz targets live beside
// each grammar (FuzzQwen3Coder in qwen3_coder_test.go, …); the helpers they
// share, and the tests that run all four, are here.

// paramTools is a schema with every kind of parameter type, so fuzzing and
// allocation tests go through typed conversion as well as streamed strings.
var paramTools = func() []Tool {
	tools, err := ToolsFromJSON([]byte(`[
	 {"type":"function","function":{"name":"set","parameters":{"type":"object","properties":{
	   "s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},
	   "o":{"type":"object"},"a":{"type":"array"},"z":{"type":"null"},
	   "ns":{"anyOf":[{"type":"string"},{"type":"null"}]},"u":{"oneOf":[{"type":"integer"},{"type":"boolean"}]},
	   "r":{"$ref":"#/$defs/C"},"f":{},"py":{"type":"dict"}},"$defs":{"C":{"type":"integer"}}}}},
	 {"type":"function","function":{"name":"write_file","parameters":{"type":"object","properties":{
	   "path":{"type":"string"},"content":{"type":"string"},"mode":{"type":"integer"}}}}},
	 {"type":"function","function":{"name":"get_weather","parameters":{"type":"object","properties":{
	   "location":{"type":"string"},"days":{"type":"integer"}}}}}]`))
	if err != nil {
		panic(err)
	}
	return tools
}()

// paramFuzz runs one parameter grammar under fuzzInvariants, with the typed
// schema or none, streaming or whole calls, a reasoning parser in front, and
// a small buffer limit.
func paramFuzz(f *testing.F, tool, reasoning string, families ...string) {
	fixtureSeeds(f, families...)
	f.Fuzz(func(t *testing.T, in []byte, seed uint64, sel uint8) {
		cfg := Config{ToolParser: tool, WholeCalls: sel&1 != 0}
		if sel&2 != 0 {
			cfg.Tools = paramTools
		}
		if sel&4 != 0 {
			cfg.ReasoningParser = reasoning
			cfg.InReasoning = sel&16 != 0
		}
		if sel&8 != 0 {
			cfg.MaxCallBuffer = 16
		}
		fuzzInvariants(t, cfg, in, seed)
	})
}

// paramCall renders a call of family with one string parameter holding
// content (and a typed one), as the model writes it.
func paramCall(family, content string) string {
	switch family {
	case "qwen3_coder":
		return "I'll write it.\n<tool_call>\n<function=write_file>\n<parameter=path>\n/tmp/out.txt\n</parameter>\n<parameter=mode>\n644\n</parameter>\n<parameter=content>\n" +
			content + "\n</parameter>\n</function>\n</tool_call>"
	case "minimax_m2":
		return "I'll write it.\n<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">/tmp/out.txt</parameter>\n<parameter name=\"mode\">644</parameter>\n<parameter name=\"content\">" +
			content + "</parameter>\n</invoke>\n</minimax:tool_call>"
	case "glm47":
		return "I'll write it.\n<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>/tmp/out.txt</arg_value>\n<arg_key>mode</arg_key>\n<arg_value>644</arg_value>\n<arg_key>content</arg_key>\n<arg_value>" +
			content + "</arg_value>\n</tool_call>"
	case "deepseek_v4":
		return "I'll write it.\n\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"write_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">/tmp/out.txt</｜DSML｜parameter>\n<｜DSML｜parameter name=\"mode\" string=\"false\">644</｜DSML｜parameter>\n<｜DSML｜parameter name=\"content\" string=\"true\">" +
			content + "</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"
	case "deepseek_v41":
		return "I'll write it.\n\n<｜DSML｜ calls>\n<｜DSML｜ invoke name=\"write_file\">\n<｜DSML｜ parameter name=\"path\" string=\"true\">/tmp/out.txt</｜DSML｜ parameter>\n<｜DSML｜ parameter name=\"mode\" string=\"false\">644</｜DSML｜ parameter>\n<｜DSML｜ parameter name=\"content\" string=\"true\">" +
			content + "</｜DSML｜ parameter>\n</｜DSML｜ invoke>\n</｜DSML｜ calls>"
	}
	panic("unknown family " + family)
}

var paramFamilies = []string{"qwen3_coder", "minimax_m2", "glm47", "deepseek_v4", "deepseek_v41"}

// paramContent is a file-like string value: indentation, quotes, escapes,
// entities-looking text, unicode, other families' markers, newlines.
func paramContent(size int) string {
	const line = "    if a < b && c > \"d\" { return '\\n' } // é 世界 🚀 </tool_call> <invoke name=\"x\"> <arg_key>\n"
	return strings.Repeat(line, size/len(line)+1)[:size]
}

// TestParamStreaming pins PARSER_CASES.md, "A call starts when its name is
// complete": a large string value is
// streamed while it is generated (never buffered until its close tag),
// typed values come whole at their close, and the fragments concatenate to
// the buffered result.
func TestParamStreaming(t *testing.T) {
	content := paramContent(16 << 10)
	for _, fam := range paramFamilies {
		t.Run(fam, func(t *testing.T) {
			out := paramCall(fam, content)
			p, err := New(Config{ToolParser: fam, Tools: paramTools})
			if err != nil {
				t.Fatal(err)
			}
			start := strings.Index(out, content)
			var args bytes.Buffer
			var mode []byte
			for off := 0; off < len(out); off += 4 {
				end := min(off+4, len(out))
				for _, e := range p.Feed([]byte(out[off:end])) {
					if e.Kind != EventToolCallArgs {
						continue
					}
					args.Write(e.Text)
					if bytes.Contains(e.Text, []byte(`"mode":`)) {
						mode = append(mode[:0], args.Bytes()...)
					}
				}
				// Inside the content value, everything but a bounded tail
				// must already be out (escaped, so at least as long).
				if off > start+64 && end < start+len(content) {
					if streamed := args.Len() - bytes.Index(args.Bytes(), []byte(`"content":"`)); streamed < end-start-64 {
						t.Fatalf("at byte %d of the value only %d bytes of it were streamed", end-start, streamed)
					}
				}
			}
			for _, e := range p.Finish() {
				if e.Kind == EventToolCallArgs {
					args.Write(e.Text)
				}
			}
			if !bytes.HasSuffix(mode, []byte(`"mode":`)) {
				t.Errorf("the typed value was not held to its close: args up to the mode key: %q", mode)
			}
			var got map[string]any
			if err := json.Unmarshal(args.Bytes(), &got); err != nil {
				t.Fatalf("arguments: %v", err)
			}
			want := content
			if fam == "minimax_m2" {
				want = strings.TrimSpace(content)
			}
			if got["content"] != want || got["mode"] != float64(644) || got["path"] != "/tmp/out.txt" {
				t.Errorf("arguments differ: path %v, mode %v, content equal %v", got["path"], got["mode"], got["content"] == want)
			}
		})
	}
}

// TestParamFeedAllocs extends TestFeedAllocs to the parameter grammars: a
// reused Parser allocates nothing while streaming string values, converting
// typed values, decoding entities and holding tag prefixes, in any chunk
// size and in both call modes.
func TestParamFeedAllocs(t *testing.T) {
	typed := map[string]string{
		"qwen3_coder": "<tool_call>\n<function=set>\n<parameter=i>\n 12345678901234567890 \n</parameter>\n<parameter=o>\n{\"a\": [1, 2.0]}\n</parameter>\n<parameter=py>\n{'k': True}\n</parameter>\n<parameter=ns>\nnull\n</parameter>\n<parameter=s>\n&lt;x&gt; &amp;quot;\n</parameter>\n</function>\n</tool_call>",
		"minimax_m2":  "<minimax:tool_call><invoke name=\"set\"><parameter name=\"b\">TRUE</parameter><parameter name=\"u\">1</parameter><parameter name=\"s\">  a  b  </parameter></invoke></minimax:tool_call>",
		"glm47":       "<tool_call>set<arg_key>a</arg_key><arg_value>x, y</arg_value><arg_key>f</arg_key><arg_value>[1, {\"k\": null}]</arg_value><arg_key>r</arg_key><arg_value>7</arg_value></tool_call>",
		"deepseek_v4": "<｜DSML｜tool_calls><｜DSML｜invoke name=\"set\"><｜DSML｜parameter name=\"o\" string=\"false\"> {\"a\": [1, 2.0]} </｜DSML｜parameter><｜DSML｜parameter name=\"s\">plain</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜tool_calls>",
		"deepseek_v41": "<｜DSML｜ calls><｜DSML｜ invoke name=\"set\"><｜DSML｜ parameter name=\"o\" string=\"false\"> {\"a\": [1, 2.0]} <｜DSML｜ parameter name=\"s\">plain</｜DSML｜ parameter></｜DSML｜ calls>" +
			"<｜DSML｜ invoke name=\"j\">\n{\"k\": [true, null]}\n</｜DSML｜ invoke>",
	}
	for _, fam := range paramFamilies {
		out := paramCall(fam, paramContent(2<<10)) + "\n" + typed[fam] + "\nbye"
		assertFeedAllocs(t, Config{ToolParser: fam, Tools: paramTools}, map[string]string{fam: out})
	}
}

// TestParamLimit pins PARSER_CASES.md for the parameter grammars: a typed
// value (or a held whitespace run) past Config.MaxCallBuffer abandons the
// call; streamed strings are not limited.
func TestParamLimit(t *testing.T) {
	long := strings.Repeat("x", 100)
	for _, c := range []struct {
		tool, in  string
		calls, ab int
	}{
		{"qwen3_coder", "<tool_call><function=set><parameter=i>" + strings.Repeat("1", 100) + "</parameter></function></tool_call>", 0, 1},
		{"qwen3_coder", "<tool_call><function=set><parameter=s>" + long + "</parameter></function></tool_call>", 1, 0},
		{"minimax_m2", "<invoke name=\"set\"><parameter name=\"s\">a" + strings.Repeat(" ", 100) + "b</parameter></invoke>", 0, 1},
		{"minimax_m2", "<invoke name=\"set\"><parameter name=\"s\">" + strings.Repeat(" a  ", 100) + "</parameter></invoke>", 1, 0},
		{"glm47", "<tool_call>set<arg_key>f</arg_key><arg_value>[" + long + "]</arg_value></tool_call>", 0, 1},
		{"deepseek_v4", "<｜DSML｜invoke name=\"set\"><｜DSML｜parameter name=\"o\">\"" + long + "\"</｜DSML｜parameter></｜DSML｜invoke>", 0, 1},
		{"deepseek_v4", "<｜DSML｜invoke name=\"" + long + "\"></｜DSML｜invoke>", 0, 0},
	} {
		p, err := New(Config{ToolParser: c.tool, Tools: paramTools, MaxCallBuffer: 32})
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 7, len(c.in)} {
			p.Reset()
			var acc Accumulator
			for _, chunk := range chunksOf(c.in, size) {
				acc.Add(p.Feed(chunk))
			}
			acc.Add(p.Finish())
			if r := acc.Result(); len(r.Calls) != c.calls || acc.Abandoned() != c.ab || r.Content != "" {
				t.Errorf("%s %.60q chunk=%d: %d calls, %d abandoned, content %q; want %d, %d, none", c.tool, c.in, size, len(r.Calls), acc.Abandoned(), r.Content, c.calls, c.ab)
			}
		}
	}
}
