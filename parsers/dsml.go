package parsers

// DSML is DeepSeek's markup for tool calls (PARSER_CASES.md): V3.2 writes
// the block as function_calls, V4 as tool_calls, V4.1 (deepseek_v41.go)
// spells every tag with a space after the bar and the block as " calls".
//
//	<｜DSML｜tool_calls>
//	<｜DSML｜invoke name="get_weather">
//	<｜DSML｜parameter name="location" string="true">San Francisco</｜DSML｜parameter>
//	<｜DSML｜parameter name="days" string="false">7</｜DSML｜parameter>
//	</｜DSML｜invoke>
//	</｜DSML｜tool_calls>
//
// string="true" values are strings taken verbatim (no trimming, no entity
// decoding); other values are JSON, trimmed and lexically compacted, or the
// string as written when they are not JSON. An invoke whose body starts
// with '{' carries its arguments as one JSON object instead of parameters.
// DeepSeek's encoder writes "\n\n" between the text and the block; it is
// part of the opener, so it does not surface as trailing content. A bare
// invoke (no block opener) is a call. A value whose close tag is missing
// ends at the next parameter opener; an invoke whose close tag is missing
// is complete when the block closer follows while no value is open, or when
// the stream ends after its last value (or JSON body) closed.
func dsmlSpec(sp, block string) *tagSpec {
	tag := "<｜DSML｜" + sp
	end := "</｜DSML｜" + sp
	open := tag + block + ">"
	return &tagSpec{
		blockOpen:     []string{open, "\n\n" + open},
		blockClose:    end + block + ">",
		fnOpen:        tag + "invoke name=",
		fnClose:       end + "invoke>",
		parOpen:       tag + "parameter name=",
		parClose:      end + "parameter>",
		parEndsVal:    true,
		implicitClose: true,
		jsonBody:      true,
		dsml:          true,
		trim:          trimNone,
		conv:          convDSML,
	}
}

var (
	dsmlV32Spec = dsmlSpec("", "function_calls")
	dsmlV4Spec  = dsmlSpec("", "tool_calls")
	dsmlV41Spec = dsmlSpec(" ", "calls")
)

// dsmlInfo describes every DSML registration.
var dsmlInfo = ToolInfo{
	Malformed: "(the \\n\\n the encoder writes before a block opener is part of the opener) a block without an invoke is markup (dropped up to its closer); an invoke whose name or parameter " +
		"tag lacks its '>' is abandoned and dropped up to its close; an empty name parses and drops the invoke; a " +
		"parameter outside an invoke is dropped up to the invoke close; a non-string value that is not JSON is " +
		"kept as the string written; an invoke body that starts with '{' is the arguments object: JSON that breaks, " +
		"or anything but the invoke close after it, abandons the call",
	Truncated: "a value without its parameter close ends at the next parameter opener; an invoke without its close " +
		"is complete when the block close follows while no value is open, or when the stream ends after its last " +
		"value (or JSON body) closed; one cut inside a value or tag is abandoned; the block close may be missing",
}

func init() {
	registerTool(dsmlInfo, func(out *sink) toolGrammar { return newTagCalls(out, dsmlV32Spec) },
		"deepseek_v3_2",
		"deepseek_v32", // vLLM
		"deepseekv32",  // SGLang
	)
	registerTool(dsmlInfo, func(out *sink) toolGrammar { return newTagCalls(out, dsmlV4Spec) },
		"deepseek_v4",
		"deepseek-v4", // Dynamo
		"deepseekv4",  // Dynamo, SGLang
	)
}
