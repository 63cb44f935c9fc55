package parsers

// DeepSeek V4.1 writes DSML (dsml.go) with a space after the bar of every
// tag and the block named " calls":
//
//	<think>…</think>Let me check.
//
//	<｜DSML｜ calls>
//	<｜DSML｜ invoke name="get_weather">
//	<｜DSML｜ parameter name="location" string="true">San Francisco</｜DSML｜ parameter>
//	<｜DSML｜ parameter name="days" string="false">7</｜DSML｜ parameter>
//	</｜DSML｜ invoke>
//	</｜DSML｜ calls>
//
// It is DeepSeek V4's grammar with those markers and nothing else: values
// typed by the string= attribute, never by the schema (the peers' "no type
// coercion"); an invoke body that starts with '{' is the arguments object
// (the form SGLang's V4.1 guided decoding writes); a bare invoke without the
// block is a call; the "\n\n" before the block is part of the opener. The
// unspaced V4 markers are ordinary text here, as the V4.1 markers are for the
// deepseek_v4 parser. Unlike the peers, text after a block stays content and
// arguments are the model's values as compact JSON (not re-serialised with
// Python's json.dumps spacing).
//
// Reasoning comes in <think>…</think> (reasoning parser deepseek_v41; not
// forced: the template opens the span in the prompt when thinking is on,
// Config.InReasoning). The block opener, or a bare invoke opener, ends an
// unclosed span and stays for the tool parser.
var deepseekV41Think = &reasoningSpec{name: "deepseek_v41", starts: []string{"<think>"}, ends: []string{"</think>"},
	toolStarts: []string{"<｜DSML｜ calls>", "<｜DSML｜ invoke name="}}

func init() {
	registerTool(dsmlInfo, func(out *sink) toolGrammar { return newTagCalls(out, dsmlV41Spec) },
		"deepseek_v41", // vLLM, Dynamo
		"deepseek-v41", // the dash spelling, as deepseek-v4
		"deepseekv41",  // SGLang's spelling (its detector is not registered)
	)
	registerReasoning(deepseekV41Think, "deepseek_v41", "deepseek-v41", "deepseekv41")
}
