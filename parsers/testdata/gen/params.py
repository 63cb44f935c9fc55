"""Fixtures of the parameter grammars: qwen3_coder, minimax_m2, glm47 and DSML
(deepseek_v3_2, deepseek_v4). Usage: python3 gen/params.py .  (from parsers/testdata)

Arguments are compared as JSON values unless a case pins the exact text
(a string in `calls`, compared after json.Compact: key order, duplicate keys and
number spelling must match)."""
import json, os, sys
from common import Fx

out = sys.argv[1] if len(sys.argv) > 1 else "."

NA_COMMON = {
    "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted (glm47: never, when tools are declared)",
    "TOOLCALLING.batch.13.d": "tools are referenced by name, not ordinal",
    "TOOLCALLING.fmt.5": "no JSON envelope: the name is a tag attribute and the arguments are built from parameters, so key order, arguments/parameters and native ids do not arise",
    "TOOLCALLING.harmony.1": "Harmony only",
    "TOOLCALLING.harmony.2": "Harmony only",
}


def fn_tool(name, props, required=None):
    p = {"type": "object", "properties": props}
    if required:
        p["required"] = required
    return {"type": "function", "function": {"name": name, "parameters": p}}


WEATHER = [fn_tool("get_weather", {"location": {"type": "string"}, "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]}, "days": {"type": "integer"}}, ["location"]),
           fn_tool("get_time", {"timezone": {"type": "string"}})]

# A matrix schema for typing cases (PARSER_CASES.md / §5.3).
MATRIX = [fn_tool("set", {
    "s": {"type": "string"},
    "i": {"type": "integer"},
    "n": {"type": "number"},
    "b": {"type": "boolean"},
    "o": {"type": "object"},
    "a": {"type": "array"},
    "z": {"type": "null"},
    "ns": {"anyOf": [{"type": "string"}, {"type": "null"}]},          # Pydantic Optional[str]
    "ni": {"type": ["integer", "null"]},
    "nb": {"type": "boolean", "nullable": True},
    "u": {"oneOf": [{"type": "integer"}, {"type": "boolean"}]},
    "us": {"anyOf": [{"type": "integer"}, {"type": "string"}]},          # string preferred in unions
    "r": {"$ref": "#/$defs/Count"},
    "rr": {"$ref": "#/$defs/Alias"},
    "al": {"allOf": [{"type": ["integer", "string"]}, {"type": "integer"}]},
    "e": {"enum": [1, 2, 3]},
    "en": {"enum": ["a", "b"]},
    "f": {},
    "py": {"type": "dict"},
    "l": {"type": "List[int]"},
    "ui": {"type": "uint64"},
    "fl": {"type": "float"},
    "t": {"type": "tuple"},
    "pl": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}], "default": None, "title": "Tags"},  # Pydantic Optional[List[str]]
    "pc": {"anyOf": [{"$ref": "#/$defs/Cfg"}, {"type": "null"}]},                                                             # Pydantic Optional[Cfg]
})]
MATRIX[0]["function"]["parameters"]["$defs"] = {"Count": {"type": "integer", "minimum": 0}, "Alias": {"$ref": "#/$defs/Count"},
                                                "Cfg": {"type": "object", "properties": {"k": {"type": "integer"}}, "title": "Cfg"}}

FILL = "The quick brown fox jumps over the lazy dog; unicode é 世界 🚀. "


def big(n):
    return (FILL * (n // len(FILL) + 1))[:n]


CODE = "def main():\n    if x < 3 and y > 2:\n        print(\"hi\\n\")  # it's\n\treturn {'a': [1, 2]}\n\n"


# ---------------------------------------------------------------- qwen3_coder
def q3_fn(name, params, nl=True):
    s = "<function=%s>\n" % name
    for k, v in params:
        s += "<parameter=%s>\n%s\n</parameter>\n" % (k, v)
    return s + "</function>"


def q3(name, params):
    return "<tool_call>\n" + q3_fn(name, params) + "\n</tool_call>"


def gen_qwen3_coder():
    fx = Fx(); C = fx.C
    W = [("location", "San Francisco"), ("unit", "celsius"), ("days", "7")]
    WA = {"location": "San Francisco", "unit": "celsius", "days": 7}
    C("single call", "TOOLCALLING.batch.1", q3("get_weather", W), calls=[("get_weather", WA)], tools=WEATHER,
      ref="PARSER_CASES.md sample; days typed integer from the schema (§5.2 parity example)")
    C("two functions in one wrapper", "TOOLCALLING.batch.2.a",
      "<tool_call>\n" + q3_fn("get_weather", [("location", "Boston")]) + "\n" + q3_fn("get_weather", [("location", "New York")]) + "\n</tool_call>",
      calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "New York"})], tools=WEATHER)
    C("two wrappers", "TOOLCALLING.batch.2.a", q3("get_weather", [("location", "Boston")]) + "\n" + q3("get_time", [("timezone", "EST")]),
      calls=[("get_weather", {"location": "Boston"}), ("get_time", {"timezone": "EST"})], tools=WEATHER)
    two = q3("get_weather", [("location", "Paris"), ("days", "2")]) + q3("get_time", [("timezone", "CET")])
    C("two calls closing in one delta, all parameters in one delta", "TOOLCALLING.batch.2.b", two,
      chunks=[two[:20], two[20:]], calls=[("get_weather", {"location": "Paris", "days": 2}), ("get_time", {"timezone": "CET"})], tools=WEATHER,
      ref="PARSER_CASES.md (vLLM Qwen3-Coder PR #35615: all parameters in one delta)")
    C("call group with surrounding content", "TOOLCALLING.batch.2.c",
      "I'll check both.\n" + q3("get_weather", [("location", "Boston")]) + "\n" + q3("get_weather", [("location", "Rome")]) + "\nDone.",
      content="I'll check both.\n\nDone.", calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "Rome"})], tools=WEATHER)
    C("three calls get distinct ids and consecutive indices", "TOOLCALLING.batch.2.d",
      q3("a", []) + q3("b", []) + q3("c", []), calls=[("a", {}), ("b", {}), ("c", {})])
    C("text only", "TOOLCALLING.batch.3", "The weather is nice today.", content="The weather is nice today.")
    C("text with marker-like fragments", "TOOLCALLING.batch.3", "a <tool b <function c <param d </para e < f <tool_calls>",
      content="a <tool b <function c <param d </para e < f <tool_calls>")
    C("garbage in a wrapper", "TOOLCALLING.batch.4.a", "A <tool_call>this is not a function</tool_call> B", content="A  B",
      ref="PARSER_CASES.md: a complete wrapper whose body is not a call is markup")
    C("JSON body (hermes style) in a qwen3_coder wrapper", "TOOLCALLING.batch.4.a", '<tool_call>{"name": "f", "arguments": {}}</tool_call>',
      ref="PARSER_CASES.md: no <function= in the wrapper, not a call")
    C("object parameter with invalid JSON stays a string", "TOOLCALLING.batch.4.b",
      q3("set", [("o", '{"a": 1,}')]), calls=[("set", {"o": '{"a": 1,}'})], tools=MATRIX,
      ref="PARSER_CASES.md: conversion failure keeps the string")
    C("empty function name skips the call", "TOOLCALLING.batch.4.c", q3("", [("x", "1")]) + "ok", content="ok",
      ref="PARSER_CASES.md: an empty function name skips the call")
    C("parameter without a function", "TOOLCALLING.batch.4.c", "<tool_call>\n<parameter=x>\n1\n</parameter>\n</tool_call>after", content="after",
      ref="library decision: a parameter outside a function is dropped up to the function/wrapper close")
    C("function tag without its '>'", "TOOLCALLING.batch.4.d",
      "<tool_call>\n<function=get_weather\n<parameter=location>\nParis\n</parameter>\n</function>\n</tool_call>tail", content="tail",
      ref="library decision: a broken tag drops the function up to </function>")
    C("wrapper closes before the function", "TOOLCALLING.batch.4.d",
      "<tool_call>\n<function=get_weather>\n<parameter=location>\nParis\n</parameter>\n</tool_call>tail", content="tail", abandoned=1)
    C("bad function followed by a valid call", "TOOLCALLING.batch.4.e",
      "<tool_call>\n<function=a\n</function>\n" + q3_fn("b", [("k", "v")]) + "\n</tool_call>", calls=[("b", {"k": "v"})])
    C("function opener inside an unclosed function abandons it", "TOOLCALLING.batch.4.e",
      "<tool_call>\n<function=a>\n<parameter=k>\nv\n</parameter>\n" + q3_fn("b", [("k", "w")]) + "\n</tool_call>",
      calls=[("b", {"k": "w"})], abandoned=1)
    C("wrapper closer missing", "TOOLCALLING.batch.5.a", "<tool_call>\n" + q3_fn("get_time", [("timezone", "UTC")]),
      calls=[("get_time", {"timezone": "UTC"})], tools=WEATHER, ref="PARSER_CASES.md: </tool_call> may be missing")
    C("function without the wrapper (back-off)", "TOOLCALLING.batch.5.b", "Sure.\n" + q3_fn("get_time", [("timezone", "UTC")]) + "\n</tool_call>",
      content="Sure.\n", calls=[("get_time", {"timezone": "UTC"})], tools=WEATHER,
      ref="PARSER_CASES.md back-off (TOOLCALLING.batch.5.b: Dynamo and vLLM recover it; §9.4 calls missing <tool_call>)")
    C("orphan closers in text", "TOOLCALLING.batch.5.b", "one</tool_call> two</function> three</parameter> four", content="one two three four",
      ref="PARSER_CASES.md: orphan closers are markup, text on both sides kept")
    C("end of stream inside a value", "TOOLCALLING.batch.5.c", "<tool_call>\n<function=get_weather>\n<parameter=location>\nNY",
      abandoned=1, tools=WEATHER, ref="library: the value is not provably complete; Dynamo v1, vLLM and SGLang recover {\"location\": \"NY\"} (registered divergence, PARSER_CASES.md)")
    C("end of stream inside the function name", "TOOLCALLING.batch.5.c", "Checking <tool_call>\n<function=get_wea", content="Checking ")
    C("end of stream after a complete parameter", "TOOLCALLING.batch.5.c",
      "<tool_call>\n<function=get_weather>\n<parameter=location>\nNY\n</parameter>\n", abandoned=1, tools=WEATHER,
      ref="PARSER_CASES.md library rule: a function whose </function> never came is abandoned, even if its last parameter closed")
    C("last call complete but its wrapper unclosed", "TOOLCALLING.batch.5.d",
      q3("get_time", [("timezone", "UTC")]) + "\n<tool_call>\n" + q3_fn("get_time", [("timezone", "CET")]),
      calls=[("get_time", {"timezone": "UTC"}), ("get_time", {"timezone": "CET"})], tools=WEATHER)
    C("last call truncated inside a value", "TOOLCALLING.batch.5.e",
      q3("get_time", [("timezone", "UTC")]) + "\n<tool_call>\n<function=get_weather>\n<parameter=location>\nBer",
      calls=[("get_time", {"timezone": "UTC"})], abandoned=1, tools=WEATHER,
      ref="registered divergence: Dynamo v1 recovers the value cut by EOF")
    C("function with no parameters", "TOOLCALLING.batch.6.a", q3("get_time", []), calls=[("get_time", "{}")], tools=WEATHER)
    C("function with only whitespace inside", "TOOLCALLING.batch.6.b", "<tool_call>\n<function=get_time>\n\n  \t\n</function>\n</tool_call>",
      calls=[("get_time", "{}")], tools=WEATHER)
    C("compact function with no parameters", "TOOLCALLING.batch.6.c", "<tool_call><function=get_time></function></tool_call>",
      calls=[("get_time", "{}")], tools=WEATHER)
    C("scalar and container matrix", "TOOLCALLING.batch.7.a",
      q3("set", [("s", "text"), ("i", "-12"), ("n", "3.25"), ("b", "false"), ("o", '{"k": [1, {"x": null}]}'), ("a", '[1, "two", 3.0]'), ("z", "null")]),
      calls=[("set", '{"s":"text","i":-12,"n":3.25,"b":false,"o":{"k":[1,{"x":null}]},"a":[1,"two",3.0],"z":null}')], tools=MATRIX)
    C("escapes, unicode and HTML in a string value", "TOOLCALLING.batch.7.b",
      q3("write", [("content", 'He said "hi" \\ back\\slash\t<b>bold</b> é 世界 🚀')]),
      calls=[("write", {"content": 'He said "hi" \\ back\\slash\t<b>bold</b> é 世界 🚀'})],
      ref="no \\uXXXX re-encoding of non-ASCII; HTML that is not an entity is kept")
    C("schema mismatch keeps the string", "TOOLCALLING.batch.7.c",
      q3("set", [("i", "twenty"), ("b", "yes"), ("n", "NaN"), ("o", "not json")]),
      calls=[("set", {"i": "twenty", "b": "yes", "n": "NaN", "o": "not json"})], tools=MATRIX,
      ref="PARSER_CASES.md library rule: booleans accept true/false/1/0 only ('yes' stays a string, never silently false); Dynamo: false")
    C("nested objects and several parameters", "TOOLCALLING.batch.7.d",
      q3("set", [("o", '{\n  "user": {"name": "Ada", "tags": ["x", "y"]},\n  "n": 1\n}'), ("s", "a"), ("a", "[[1], [2, [3]]]")]),
      calls=[("set", '{"o":{"user":{"name":"Ada","tags":["x","y"]},"n":1},"s":"a","a":[[1],[2,[3]]]}')], tools=MATRIX,
      ref="JSON values are lexically compacted: key order and number spelling kept")
    C("explicit null, empty containers and a repeated parameter", "TOOLCALLING.batch.7.e",
      q3("set", [("ns", "null"), ("o", "{}"), ("a", "[]"), ("s", "first"), ("s", "second")]),
      calls=[("set", '{"ns":null,"o":{},"a":[],"s":"first","s":"second"}')], tools=MATRIX,
      ref="a repeated parameter is emitted again (duplicate key; decoders keep the last value)")
    big_q3 = q3("write_file", [("path", "/tmp/big.txt"), ("content", big(12000))])
    C("12 KB string value streamed", "TOOLCALLING.batch.7.e", big_q3, calls=[("write_file", {"path": "/tmp/big.txt", "content": big(12000)})],
      ref="PARSER_CASES.md: a call of >= 10 KB; PARSER_CASES.md (SGLang buffered large values until </parameter>)")
    C("integers beyond 2^53 are exact", "TOOLCALLING.batch.7.f",
      q3("set", [("i", "123456789012345678901234567890"), ("ui", "+18446744073709551615"), ("n", "9007199254740993")]),
      calls=[("set", '{"i":123456789012345678901234567890,"ui":18446744073709551615,"n":9007199254740993}')], tools=MATRIX,
      ref="PARSER_CASES.md library rule: arbitrary-precision integers (no 64-bit parse), '+' dropped")
    C("text before the call", "TOOLCALLING.batch.8.a", "Let me look.\n\n" + q3("get_time", []), content="Let me look.\n\n", calls=[("get_time", {})])
    C("text after the call", "TOOLCALLING.batch.8.b", q3("get_time", []) + "\nAnything else?", content="\nAnything else?", calls=[("get_time", {})],
      ref="library keeps text after calls (vLLM drops it; Dynamo keeps and trims)")
    C("text before and after", "TOOLCALLING.batch.8.c", "A. " + q3("get_time", []) + " B.", content="A.  B.", calls=[("get_time", {})],
      ref="PARSER_CASES.md sample (Dynamo: \"A.  B.\" after its trim)")
    C("text between calls", "TOOLCALLING.batch.8.d", q3("a", []) + "\nthen\n" + q3("b", []), content="\nthen\n", calls=[("a", {}), ("b", {})])
    C("empty output", "TOOLCALLING.batch.9.a", "")
    C("whitespace only", "TOOLCALLING.batch.9.b", " \n\t ", content=" \n\t ")
    C("empty wrapper", "TOOLCALLING.batch.9.c", "<tool_call>\n</tool_call>")
    C("the same call twice", "TOOLCALLING.batch.10", q3("get_time", [("timezone", "UTC")]) * 2,
      calls=[("get_time", {"timezone": "UTC"}), ("get_time", {"timezone": "UTC"})], tools=WEATHER)
    C("unknown tool is emitted, values stay strings", "TOOLCALLING.batch.13.a", q3("search", [("q", "go"), ("limit", "5"), ("x", "null")]),
      calls=[("search", {"q": "go", "limit": "5", "x": None})], tools=WEATHER,
      ref="PARSER_CASES.md: no schema, values are strings; an unconstrained parameter admits null (§5.2 library rule)")
    C("known and unknown tools mixed", "TOOLCALLING.batch.13.c", q3("search", [("limit", "5")]) + q3("get_weather", [("days", "5")]),
      calls=[("search", {"limit": "5"}), ("get_weather", {"days": 5})], tools=WEATHER)
    C("separators inside a value", "TOOLCALLING.batch.30.a", q3("f", [("s", "a, b; c")]), calls=[("f", {"s": "a, b; c"})])
    C("brackets inside a string value", "TOOLCALLING.batch.30.b", q3("f", [("s", "{not: json]} [")]), calls=[("f", {"s": "{not: json]} ["})])
    MARKERS = '<tool_call><function=x><parameter=y></tool_call> <minimax:tool_call><invoke name="z"></invoke> <arg_key>k</arg_key> <｜DSML｜tool_calls> <think></think> </parameter'
    C("other markers inside a value are text", "TOOLCALLING.batch.30.c", q3("write", [("content", MARKERS)]), calls=[("write", {"content": MARKERS})],
      ref="PARSER_CASES.md/§4.3: only the value's close tags end it (qwen3_coder: </parameter>, or </function> when </parameter> is missing)")
    C("marker text in a value before a second call", "TOOLCALLING.batch.31.a",
      q3("write", [("content", "</tool_call><tool_call>")]) + q3("get_time", []),
      calls=[("write", {"content": "</tool_call><tool_call>"}), ("get_time", {})])
    C("partial close tags in values before later calls", "TOOLCALLING.batch.31.b",
      q3("a", [("s", "x </param y </function z")]) + "\n" + q3("b", [("s", "<parameter=q>")]),
      calls=[("a", {"s": "x </param y </function z"}), ("b", {"s": "<parameter=q>"})])
    one = q3("get_weather", W)
    C("whole call in one chunk", "TOOLCALLING.stream.1.a", one, chunks=[one], calls=[("get_weather", WA)], tools=WEATHER)
    C("split at every significant boundary", "TOOLCALLING.stream.1.b", one,
      chunks=["<tool_", "call>\n<func", "tion=get_", "weather>", "\n<parameter=loc", "ation>\nSan Fran", "cisco\n</param", "eter>\n<parameter=unit>\ncelsius\n", "</parameter>\n<parameter=days>\n7", "\n</parameter>\n</function", ">\n</tool_call>"],
      calls=[("get_weather", WA)], tools=WEATHER)
    C("two calls across chunks", "TOOLCALLING.stream.2", two, chunks=[two[i:i + 7] for i in range(0, len(two), 7)],
      calls=[("get_weather", {"location": "Paris", "days": 2}), ("get_time", {"timezone": "CET"})], tools=WEATHER)
    C("markers split mid-token", "TOOLCALLING.stream.3", "ok" + one,
      chunks=["ok<", "tool_call", ">\n<", "function=get_weather>\n<", "parameter=location>\nSan Francisco\n<", "/parameter>\n<parameter=unit>\ncelsius\n</parameter>\n<parameter=days>\n7\n</parameter>\n</functi", "on>\n</tool_call>"],
      content="ok", calls=[("get_weather", WA)], tools=WEATHER)
    C("complete parameters but no </function>", "TOOLCALLING.stream.4.a",
      "<tool_call>\n<function=get_time>\n<parameter=timezone>\nUTC\n</parameter>\n</tool_call>", abandoned=1, tools=WEATHER,
      ref="a function needs </function>; Dynamo emits no call either")
    C("truncated mid-body", "TOOLCALLING.stream.4.b", "Sure. <tool_call>\n<function=get_time>\n<parameter=time", content="Sure. ", abandoned=1)
    C("bare function then repeated close markers", "TOOLCALLING.stream.4.c",
      q3_fn("get_time", [("timezone", "UTC")]) + "\n</tool_call></tool_call>\n</tool_call>",
      calls=[("get_time", {"timezone": "UTC"})], tools=WEATHER, ref="orphan markers never leak (TOOLCALLING.stream.4.c)")
    C("unicode, dots, hyphens and emoji in names", "TOOLCALLING.fmt.1",
      q3("天气.get-weather_v2", [("城市", "北京")]) + q3("🔧tool", [("k-1.x", "v")]),
      calls=[("天气.get-weather_v2", {"城市": "北京"}), ("🔧tool", {"k-1.x": "v"})], ref="PARSER_CASES.md: Unicode function names")
    C("quoted names and keys", "TOOLCALLING.fmt.1", "<tool_call>\n<function=\"get_time\">\n<parameter='timezone'>\nUTC\n</parameter>\n</function>\n</tool_call>",
      calls=[("get_time", {"timezone": "UTC"})], tools=WEATHER, ref="PARSER_CASES.md: surrounding quotes are stripped")
    C("spaces in tags, no newlines, CRLF framing", "TOOLCALLING.fmt.2",
      "<tool_call><function= get_weather ><parameter= location >Paris</parameter><parameter=unit>\r\ncelsius\r\n</parameter></function></tool_call>",
      calls=[("get_weather", {"location": "Paris", "unit": "celsius"})], tools=WEATHER,
      ref="names and keys trimmed; one framing newline (\\n or \\r\\n) stripped on each side")
    C("with and without the wrapper", "TOOLCALLING.fmt.3", q3("a", []) + "\n" + q3_fn("b", []),
      calls=[("a", {}), ("b", {})], ref="the same grammar under qwen3_coder, nemotron_nano (Dynamo) and qwen3_xml (vLLM)")
    C("empty wrapper between text", "TOOLCALLING.fmt.4", "A <tool_call></tool_call> B", content="A  B")
    C("entities are decoded", "TOOLCALLING.xml.1", q3("write", [("content", "&lt;div class=&quot;x&quot;&gt;it&#x27;s &amp; it&#39;s&lt;/div&gt;")]),
      calls=[("write", {"content": "<div class=\"x\">it's & it's</div>"})], ref="PARSER_CASES.md step 1 (kept for parity, §9.10 pitfall)")
    C("entities decode in Dynamo's order", "TOOLCALLING.xml.1", q3("write", [("content", "&amp;quot; &amp;lt; &amp;amp; &amp;#39; &unknown; & &amp")]),
      calls=[("write", {"content": "\" &lt; &amp; ' &unknown; & &amp"})],
      ref="§5.2: plain replacements in order &lt; &gt; &amp; &quot; &#x27; &#39; — &amp;quot; decodes twice, &amp;lt; once")
    C("typed by the schema", "TOOLCALLING.xml.2",
      q3("set", [("i", " 007 "), ("n", "42.0"), ("b", "TRUE"), ("nb", "0"), ("ni", "NULL"), ("z", "null"), ("s", "null"), ("en", "b"), ("e", "2"),
                 ("r", "5"), ("rr", "6"), ("al", "7"), ("py", "{'a': True, 'b': None}"), ("l", "[1, 2]"), ("ui", "3"), ("fl", "+.5"), ("t", "[1, 'x']"), ("fl", "1E3")]),
      calls=[("set", '{"i":7,"n":42.0,"b":true,"nb":false,"ni":null,"z":null,"s":"null","en":"b","e":2,"r":5,"rr":6,"al":7,"py":{"a":true,"b":null},"l":[1,2],"ui":3,"fl":0.5,"t":[1,"x"],"fl":1E3}')],
      tools=MATRIX, ref="PARSER_CASES.md library rules: typed values trimmed; 42.0 kept (Dynamo: 42); 'null' is null only where the schema permits it; type arrays, nullable, $ref chains, allOf; literal_eval emulation for dict/list/tuple")
    C("unions prefer string, nullable strings", "TOOLCALLING.xml.2",
      q3("set", [("us", "42"), ("ns", "null"), ("ns", "nullable"), ("u", "1"), ("u", "true"), ("u", "maybe"), ("f", "null"), ("f", "{\"a\": 1}")]),
      calls=[("set", '{"us":"42","ns":null,"ns":"nullable","u":1,"u":true,"u":"maybe","f":null,"f":"{\\"a\\": 1}"}')],
      tools=MATRIX, ref="§5.2: a union containing string is a string; otherwise the first of integer, number, boolean, object/array that fits; an unconstrained parameter is a string that admits null")
    C("Pydantic optional list and model, without double encoding", "TOOLCALLING.xml.2",
      q3("set", [("pl", '["a", "b"]'), ("pc", '{"k": 1}'), ("pl", "null"), ("pc", "None")]),
      calls=[("set", '{"pl":["a","b"],"pc":{"k":1},"pl":null,"pc":"None"}')], tools=MATRIX,
      ref="PARSER_CASES.md (vLLM PR #36032): anyOf/nullable with $ref typed as JSON, not a JSON-encoded string; only 'null' is null")
    C("file contents keep indentation and trailing newlines", "TOOLCALLING.xml.2",
      q3("write_file", [("content", "\n    indented\n\n" + CODE)]), calls=[("write_file", {"content": "\n    indented\n\n" + CODE})],
      ref="PARSER_CASES.md library rule: exactly one framing newline stripped each side (Dynamo trims fully; registered divergence)")
    C("values without framing newlines, lone CR kept", "TOOLCALLING.xml.2",
      "<tool_call><function=f><parameter=a>x</parameter><parameter=b>\r</parameter><parameter=c>\n\n</parameter><parameter=d>\r\n\r\ny\r\n\r\n</parameter></function></tool_call>",
      calls=[("f", {"a": "x", "b": "\r", "c": "", "d": "\r\ny\r\n"})])
    C("missing </parameter>: the value ends at </function>", "TOOLCALLING.xml.2",
      "<tool_call>\n<function=get_weather>\n<parameter=location>\nOslo\n<parameter=days>\n3\n</function>\n</tool_call>",
      calls=[("get_weather", {"location": "Oslo\n<parameter=days>\n3"})], tools=WEATHER,
      ref="PARSER_CASES.md (§9.4: calls missing a closing </parameter>); the next <parameter= is value text (XML values have no escaping)")
    C("typed value whose </parameter> is missing", "TOOLCALLING.xml.2",
      "<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</function>", calls=[("get_weather", {"days": 3})], tools=WEATHER)
    C("nemotron_nano reasoning then a call", "TOOLCALLING.batch.8.a", "I need the time.</think>\n\n" + q3("get_time", []),
      reasoning="I need the time.", content="\n\n", calls=[("get_time", {})], reasoning_parser="nemotron_nano",
      ref="Nemotron Nano pairs the forced <think> reasoning parser with this grammar")
    fx.dump(os.path.join(out, "qwen3_coder", "qwen3_coder.json"), family="qwen3_coder",
            description="Qwen3-Coder XML: <tool_call><function=N><parameter=K>V</parameter></function></tool_call>, values typed by schema",
            tool_parsers=["qwen3_coder", "nemotron_nano", "qwen3_xml"], not_applicable=NA_COMMON)


# ----------------------------------------------------------------- minimax_m2
def mm_inv(name, params, q='"'):
    s = "<invoke name=%s%s%s>\n" % (q, name, q)
    for k, v in params:
        s += "<parameter name=%s%s%s>%s</parameter>\n" % (q, k, q, v)
    return s + "</invoke>"


def mm(name, params):
    return "<minimax:tool_call>\n" + mm_inv(name, params) + "\n</minimax:tool_call>"


def gen_minimax_m2():
    fx = Fx(); C = fx.C
    W = [("location", "San Francisco"), ("unit", "celsius"), ("days", "7")]
    WA = {"location": "San Francisco", "unit": "celsius", "days": 7}
    C("single call", "TOOLCALLING.batch.1", mm("get_weather", W), calls=[("get_weather", WA)], tools=WEATHER, ref="PARSER_CASES.md sample")
    C("two invokes in one wrapper", "TOOLCALLING.batch.2.a",
      "<minimax:tool_call>\n" + mm_inv("get_weather", [("location", "Boston")]) + "\n" + mm_inv("get_weather", [("location", "New York")]) + "\n</minimax:tool_call>",
      calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "New York"})], tools=WEATHER)
    two = mm("get_weather", [("location", "Paris"), ("days", "2")]) + mm("get_time", [("timezone", "CET")])
    C("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:30], two[30:]],
      calls=[("get_weather", {"location": "Paris", "days": 2}), ("get_time", {"timezone": "CET"})], tools=WEATHER,
      ref="PARSER_CASES.md (a MiniMax-M2 call vanished under char-by-char streaming in SGLang #35564)")
    C("call group with surrounding content", "TOOLCALLING.batch.2.c",
      "Checking.\n" + mm("get_weather", [("location", "Boston")]) + "\n" + mm("get_weather", [("location", "Rome")]) + "\nDone.",
      content="Checking.\n\nDone.", calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "Rome"})], tools=WEATHER)
    C("three calls get distinct ids and consecutive indices", "TOOLCALLING.batch.2.d", mm("a", []) + mm("b", []) + mm("c", []),
      calls=[("a", {}), ("b", {}), ("c", {})])
    C("text only", "TOOLCALLING.batch.3", "No tools needed.", content="No tools needed.")
    C("text with marker-like fragments", "TOOLCALLING.batch.3", "a <minimax b <invoke c <invoke name d <param e </inv <",
      content="a <minimax b <invoke c <invoke name d <param e </inv <")
    C("garbage in a wrapper", "TOOLCALLING.batch.4.a", "A <minimax:tool_call>nonsense</minimax:tool_call> B", content="A  B")
    C("object parameter with invalid JSON stays a string", "TOOLCALLING.batch.4.b", mm("set", [("o", "{'a': 1,}")]), calls=[("set", {"o": "{'a': 1,}"})],
      tools=MATRIX)
    C("empty invoke name skips the call", "TOOLCALLING.batch.4.c", mm("", [("x", "1")]) + "ok", content="ok")
    C("parameter without an invoke", "TOOLCALLING.batch.4.c", "<parameter name=\"x\">1</parameter>\n</invoke>rest", content="rest",
      ref="library decision: a parameter outside an invoke is dropped up to </invoke>")
    C("invoke tag without its '>'", "TOOLCALLING.batch.4.d",
      "<minimax:tool_call>\n<invoke name=\"get_weather\"\n<parameter name=\"location\">Paris</parameter>\n</invoke>\n</minimax:tool_call>tail", content="tail")
    C("wrapper closes inside the invoke", "TOOLCALLING.batch.4.d",
      "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"location\">Paris</parameter>\n</minimax:tool_call>tail", content="tail", abandoned=1)
    C("bad invoke followed by a valid call", "TOOLCALLING.batch.4.e",
      "<minimax:tool_call>\n<invoke name=\"a\"\n</invoke>\n" + mm_inv("b", [("k", "v")]) + "\n</minimax:tool_call>", calls=[("b", {"k": "v"})])
    C("wrapper closer missing", "TOOLCALLING.batch.5.a", "<minimax:tool_call>\n" + mm_inv("get_time", [("timezone", "UTC")]),
      calls=[("get_time", {"timezone": "UTC"})], tools=WEATHER, ref="PARSER_CASES.md: a missing wrapper close is fine")
    C("bare invoke without the wrapper", "TOOLCALLING.batch.5.b", "Sure. " + mm_inv("get_time", [("timezone", "UTC")]) + "\n</minimax:tool_call>",
      content="Sure. ", calls=[("get_time", {"timezone": "UTC"})], tools=WEATHER, ref="PARSER_CASES.md back-off")
    C("orphan closers in text", "TOOLCALLING.batch.5.b", "one</minimax:tool_call> two</invoke> three</parameter> four", content="one two three four")
    C("end of stream inside a value", "TOOLCALLING.batch.5.c", "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"location\">NY",
      abandoned=1, tools=WEATHER, ref="registered divergence: Dynamo v1 recovers NY")
    C("end of stream after complete parameters", "TOOLCALLING.batch.5.c",
      "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"location\">NY</parameter>\n", abandoned=1, tools=WEATHER,
      ref="PARSER_CASES.md: an invoke without </invoke> is abandoned (MiniMax requires the fence, §1 goal 5)")
    C("last call complete but its wrapper unclosed", "TOOLCALLING.batch.5.d",
      mm("get_time", [("timezone", "UTC")]) + "\n<minimax:tool_call>\n" + mm_inv("get_time", [("timezone", "CET")]),
      calls=[("get_time", {"timezone": "UTC"}), ("get_time", {"timezone": "CET"})], tools=WEATHER)
    C("last call truncated inside a value", "TOOLCALLING.batch.5.e",
      mm("get_time", [("timezone", "UTC")]) + "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"location\">Ber",
      calls=[("get_time", {"timezone": "UTC"})], abandoned=1, tools=WEATHER)
    C("invoke with no parameters", "TOOLCALLING.batch.6.a", mm("get_time", []), calls=[("get_time", "{}")], tools=WEATHER)
    C("invoke with only whitespace inside", "TOOLCALLING.batch.6.b", "<minimax:tool_call><invoke name=\"get_time\">\n \t\n</invoke></minimax:tool_call>",
      calls=[("get_time", "{}")], tools=WEATHER)
    C("compact invoke with no parameters", "TOOLCALLING.batch.6.c", "<invoke name=get_time></invoke>", calls=[("get_time", "{}")], tools=WEATHER)
    C("scalar and container matrix", "TOOLCALLING.batch.7.a",
      mm("set", [("s", " text "), ("i", "-12"), ("n", "3.25"), ("b", "1"), ("o", '{"k": [1, {"x": null}]}'), ("a", '[1, "two", 3.0]'), ("z", "null")]),
      calls=[("set", '{"s":"text","i":-12,"n":3.25,"b":true,"o":{"k":[1,{"x":null}]},"a":[1,"two",3.0],"z":null}')], tools=MATRIX)
    C("escapes, unicode and HTML in a string value", "TOOLCALLING.batch.7.b", mm("write", [("content", 'He said "hi" \\ back\\slash\t<b>x</b> é 世界 🚀')]),
      calls=[("write", {"content": 'He said "hi" \\ back\\slash\t<b>x</b> é 世界 🚀'})])
    C("schema mismatch keeps the string", "TOOLCALLING.batch.7.c", mm("set", [("i", "20.5"), ("b", "no"), ("a", "x, y")]),
      calls=[("set", {"i": "20.5", "b": "no", "a": "x, y"})], tools=MATRIX)
    C("nested objects and several parameters", "TOOLCALLING.batch.7.d",
      mm("set", [("o", '{\n  "user": {"name": "Ada"},\n  "n": 1.50\n}'), ("s", "a")]), calls=[("set", '{"o":{"user":{"name":"Ada"},"n":1.50},"s":"a"}')], tools=MATRIX)
    C("explicit null, empty containers and a repeated parameter", "TOOLCALLING.batch.7.e",
      mm("set", [("ns", "NULL"), ("o", "{}"), ("a", "[ ]"), ("s", "first"), ("s", "second")]),
      calls=[("set", '{"ns":null,"o":{},"a":[],"s":"first","s":"second"}')], tools=MATRIX)
    C("12 KB string value streamed", "TOOLCALLING.batch.7.e", mm("write_file", [("path", "/tmp/big.txt"), ("content", big(12000))]),
      calls=[("write_file", {"path": "/tmp/big.txt", "content": big(12000).strip()})], ref="PARSER_CASES.md: a call of >= 10 KB")
    C("integers beyond 2^53 are exact", "TOOLCALLING.batch.7.f", mm("set", [("i", "-00123456789012345678901234567890")]),
      calls=[("set", '{"i":-123456789012345678901234567890}')], tools=MATRIX)
    C("text before the call", "TOOLCALLING.batch.8.a", "Let me look.\n" + mm("get_time", []), content="Let me look.\n", calls=[("get_time", {})])
    C("text after the call", "TOOLCALLING.batch.8.b", mm("get_time", []) + "\nDone", content="\nDone", calls=[("get_time", {})])
    C("text before and after", "TOOLCALLING.batch.8.c", "A. " + mm("get_time", []) + " B.", content="A.  B.", calls=[("get_time", {})])
    C("text between calls", "TOOLCALLING.batch.8.d", mm("a", []) + " then " + mm("b", []), content=" then ", calls=[("a", {}), ("b", {})])
    C("empty output", "TOOLCALLING.batch.9.a", "")
    C("whitespace only", "TOOLCALLING.batch.9.b", "\n \n", content="\n \n")
    C("empty wrapper", "TOOLCALLING.batch.9.c", "<minimax:tool_call>\n</minimax:tool_call>")
    C("the same call twice", "TOOLCALLING.batch.10", mm("get_time", [("timezone", "UTC")]) * 2,
      calls=[("get_time", {"timezone": "UTC"}), ("get_time", {"timezone": "UTC"})], tools=WEATHER)
    C("unknown tool is emitted", "TOOLCALLING.batch.13.a", mm("search", [("q", " go "), ("limit", "5")]), calls=[("search", {"q": "go", "limit": "5"})],
      tools=WEATHER)
    C("known and unknown tools mixed", "TOOLCALLING.batch.13.c", mm("search", [("limit", "5")]) + mm("get_weather", [("days", "5")]),
      calls=[("search", {"limit": "5"}), ("get_weather", {"days": 5})], tools=WEATHER)
    C("separators inside a value", "TOOLCALLING.batch.30.a", mm("f", [("s", "a, b; c")]), calls=[("f", {"s": "a, b; c"})])
    C("brackets inside a string value", "TOOLCALLING.batch.30.b", mm("f", [("s", "{not: json]}")]), calls=[("f", {"s": "{not: json]}"})])
    MARKERS = '</invoke><invoke name="x"></minimax:tool_call> <tool_call><function=f> <arg_value>v</arg_value> <｜DSML｜invoke name="y"> </parameter'
    C("other markers inside a value are text", "TOOLCALLING.batch.30.c", mm("write", [("content", MARKERS)]), calls=[("write", {"content": MARKERS})],
      ref="PARSER_CASES.md strict: only </parameter> ends a value, so </invoke> inside one is text (the family section wins over §4.8)")
    C("marker text in a value before a second call", "TOOLCALLING.batch.31.a", mm("write", [("content", "</invoke>")]) + mm("get_time", []),
      calls=[("write", {"content": "</invoke>"}), ("get_time", {})])
    C("partial close tags in values before later calls", "TOOLCALLING.batch.31.b",
      mm("a", [("s", "x </param y </parameter z")]) + mm("b", []),
      calls=[("a", {"s": "x </param y </parameter z"}), ("b", {})], ref="prefixes of the close tag inside a value are value text")
    one = mm("get_weather", W)
    C("whole call in one chunk", "TOOLCALLING.stream.1.a", one, chunks=[one], calls=[("get_weather", WA)], tools=WEATHER)
    C("split at every significant boundary", "TOOLCALLING.stream.1.b", one,
      chunks=["<minimax:", "tool_call>\n<invoke", " name=\"get_", "weather\">", "\n<parameter name=\"loc", "ation\">San Fran", "cisco</param", "eter>\n<parameter name=\"unit\">celsius", "</parameter>\n<parameter name=\"days\">7", "</parameter>\n</inv", "oke>\n</minimax:tool_call>"],
      calls=[("get_weather", WA)], tools=WEATHER)
    C("two calls across chunks", "TOOLCALLING.stream.2", two, chunks=[two[i:i + 5] for i in range(0, len(two), 5)],
      calls=[("get_weather", {"location": "Paris", "days": 2}), ("get_time", {"timezone": "CET"})], tools=WEATHER)
    C("markers split mid-token", "TOOLCALLING.stream.3", "ok" + one, chunks=["ok<", "minimax:tool_call>\n<", "invoke name=\"get_weather\">\n<", "parameter name=\"location\">San Francisco<", "/parameter>\n<parameter name=\"unit\">celsius</parameter>\n<parameter name=\"days\">7</parameter>\n</in", "voke>\n</minimax:tool_call>"],
      content="ok", calls=[("get_weather", WA)], tools=WEATHER)
    C("complete parameters but no </invoke>", "TOOLCALLING.stream.4.a",
      "<minimax:tool_call>\n<invoke name=\"get_time\">\n<parameter name=\"timezone\">UTC</parameter>\n</minimax:tool_call>", abandoned=1, tools=WEATHER)
    C("truncated mid-body", "TOOLCALLING.stream.4.b", "Sure. <minimax:tool_call>\n<invoke name=\"get_time\">\n<parameter name=\"time", content="Sure. ",
      abandoned=1)
    C("bare invoke then repeated close markers", "TOOLCALLING.stream.4.c",
      mm_inv("get_time", [("timezone", "UTC")]) + "\n</minimax:tool_call></minimax:tool_call>\n</invoke>", calls=[("get_time", {"timezone": "UTC"})], tools=WEATHER)
    C("unicode, dots, hyphens and emoji in names", "TOOLCALLING.fmt.1", mm("天气.get-weather_v2", [("城市", "北京")]) + mm("🔧tool", [("k-1.x", "v")]),
      calls=[("天气.get-weather_v2", {"城市": "北京"}), ("🔧tool", {"k-1.x": "v"})])
    C("double-quoted, single-quoted and bare names", "TOOLCALLING.fmt.1",
      "<invoke name=\"a\"></invoke><invoke name='b'><parameter name='k'>1</parameter></invoke><invoke name= c ><parameter name=k>2</parameter></invoke>",
      calls=[("a", {}), ("b", {"k": "1"}), ("c", {"k": "2"})], ref="PARSER_CASES.md: quotes stripped, the result trimmed")
    C("whitespace around tags and values", "TOOLCALLING.fmt.2",
      "<minimax:tool_call><invoke name=\" get_weather \"><parameter name=\"location\">\n  Paris \n</parameter></invoke></minimax:tool_call>",
      calls=[("get_weather", {"location": "Paris"})], tools=WEATHER, ref="minimax_m2 string values are fully trimmed")
    C("with and without the wrapper", "TOOLCALLING.fmt.3", mm("a", []) + mm_inv("b", []), calls=[("a", {}), ("b", {})],
      ref="the same grammar under minimax_m2 and minimax-m2 (SGLang)")
    C("empty wrapper between text", "TOOLCALLING.fmt.4", "A <minimax:tool_call></minimax:tool_call> B", content="A  B")
    C("entities are decoded", "TOOLCALLING.xml.1", mm("write", [("content", "&lt;p&gt;&quot;a&quot; &amp; &#x27;b&#39;&lt;/p&gt; &amp;quot;")]),
      calls=[("write", {"content": "<p>\"a\" & 'b'</p> \""})])
    C("typed by the schema", "TOOLCALLING.xml.2",
      mm("set", [("i", " 007 "), ("n", "42.0"), ("b", "False"), ("ni", "null"), ("s", "null"), ("us", "7"), ("u", "0"), ("r", "3"), ("py", "{'a': False}"), ("f", "null")]),
      calls=[("set", '{"i":7,"n":42.0,"b":false,"ni":null,"s":"null","us":"7","u":0,"r":3,"py":{"a":false},"f":null}')], tools=MATRIX,
      ref="PARSER_CASES.md library rules (minimax_m2 shares them)")
    C("trailing whitespace inside a value is held and released", "TOOLCALLING.xml.2",
      mm("write", [("content", "  line 1  \n\n  line 2 \t\n  ")]), calls=[("write", {"content": "line 1  \n\n  line 2"})],
      ref="full trim of string values: inner whitespace runs are released when text follows them")
    C("missing </parameter>: the value runs on and the call is abandoned", "TOOLCALLING.xml.2",
      "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"location\">Oslo\n</invoke>\n</minimax:tool_call>", abandoned=1, tools=WEATHER,
      ref="PARSER_CASES.md: </parameter> is required (strict); §4.8's fallback to the invoke close does not apply to minimax_m2")
    C("reasoning ends at the wrapper", "TOOLCALLING.batch.8.a", "Need the time." + mm("get_time", []),
      reasoning="Need the time.", calls=[("get_time", {})], reasoning_parser="minimax_m2",
      ref="PARSER_CASES.md: the forced minimax_m2 reasoning parser ends at <minimax:tool_call>, which reaches the tool parser")
    fx.dump(os.path.join(out, "minimax_m2", "tools.json"), family="minimax_m2",
            description="MiniMax-M2 invoke XML: <minimax:tool_call><invoke name=N><parameter name=K>V</parameter></invoke>, values typed by schema (§5.2, full trim)",
            tool_parsers=["minimax_m2", "minimax-m2"], not_applicable=NA_COMMON)


# ---------------------------------------------------------------------- glm47
def glm(name, pairs, nl=False):
    sep = "\n" if nl else ""
    s = "<tool_call>" + name
    for k, v in pairs:
        s += sep + "<arg_key>%s</arg_key>%s<arg_value>%s</arg_value>" % (k, sep, v)
    return s + sep + "</tool_call>"


def gen_glm47():
    fx = Fx(); C = fx.C
    W = [("location", "Beijing"), ("days", "3")]
    WA = {"location": "Beijing", "days": 3}
    C("single call", "TOOLCALLING.batch.1", glm("get_weather", W), calls=[("get_weather", WA)], tools=WEATHER, ref="PARSER_CASES.md sample (GLM-4.7, compact)")
    C("consecutive blocks", "TOOLCALLING.batch.2.a", glm("get_weather", [("location", "Beijing")]) + "\n" + glm("get_weather", [("location", "Shanghai")], nl=True),
      calls=[("get_weather", {"location": "Beijing"}), ("get_weather", {"location": "Shanghai"})], tools=WEATHER)
    two = glm("get_weather", W) + glm("get_time", [("timezone", "UTC")])
    C("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:25], two[25:]],
      calls=[("get_weather", WA), ("get_time", {"timezone": "UTC"})], tools=WEATHER,
      ref="PARSER_CASES.md (SGLang glm/glm45 lose the second call of one increment)")
    C("call group with surrounding content", "TOOLCALLING.batch.2.c", "Checking.\n" + glm("get_time", []) + "\n" + glm("get_time", [("timezone", "UTC")]) + "\nDone.",
      content="Checking.\n\nDone.", calls=[("get_time", {}), ("get_time", {"timezone": "UTC"})], tools=WEATHER)
    C("three calls get distinct ids and consecutive indices", "TOOLCALLING.batch.2.d", glm("a", []) + glm("b", []) + glm("c", []),
      calls=[("a", {}), ("b", {}), ("c", {})], ref="no declared tools: every name is accepted")
    C("text only", "TOOLCALLING.batch.3", "Nothing to call.", content="Nothing to call.")
    C("text with marker-like fragments", "TOOLCALLING.batch.3", "a <tool b <arg_ c </tool_cal d <arg_valu e <", content="a <tool b <arg_ c </tool_cal d <arg_valu e <")
    C("garbage in a block", "TOOLCALLING.batch.4.a", "A <tool_call>this is not a call</tool_call> B", content="A  B",
      ref="library decision: a name with inner whitespace is not a name; the block is dropped")
    C("JSON body without spaces is not a name", "TOOLCALLING.batch.4.a", 'A <tool_call>{"name":"get_time","arguments":{}}</tool_call> B', content="A  B",
      ref="library decision: a name with braces, brackets or quotes is rejected (as DeepSeek's parsers do, PARSER_CASES.md)")
    C("garbage in a block, tools declared", "TOOLCALLING.batch.4.a", "A <tool_call>{\"name\": \"get_time\"}</tool_call> B", content="A  B", tools=WEATHER)
    C("object value with invalid JSON stays the raw string", "TOOLCALLING.batch.4.b", glm("set", [("o", ' {"a": 1,} ')]), calls=[("set", {"o": ' {"a": 1,} '})],
      tools=MATRIX, ref="PARSER_CASES.md: JSON-looking text that does not parse falls through; object is not in the type table: raw string, untrimmed")
    C("empty name is not a call", "TOOLCALLING.batch.4.c", "<tool_call><arg_key>k</arg_key><arg_value>v</arg_value></tool_call>ok", content="ok",
      ref="PARSER_CASES.md: empty name → malformed")
    C("empty key abandons the call", "TOOLCALLING.batch.4.c", glm("f", [("", "v")]) + "ok", content="ok", abandoned=1)
    C("text between key and value", "TOOLCALLING.batch.4.d", "<tool_call>f<arg_key>k</arg_key>oops<arg_value>v</arg_value></tool_call>ok", content="ok", abandoned=1)
    C("key containing '<'", "TOOLCALLING.batch.4.d", "<tool_call>f<arg_key>a<b</arg_key><arg_value>v</arg_value></tool_call>ok", content="ok", abandoned=1,
      ref="PARSER_CASES.md: KEY has no '<'")
    C("bad block followed by a valid call", "TOOLCALLING.batch.4.e", "<tool_call>f<arg_key>k</arg_key>x<arg_value>v</arg_value></tool_call>" + glm("g", [("k", "v")]),
      calls=[("g", {"k": "v"})], abandoned=1)
    C("block without its closer", "TOOLCALLING.batch.5.a", "Sure." + glm("get_time", [("timezone", "UTC")])[:-len("</tool_call>")], content="Sure.", abandoned=1,
      tools=WEATHER, ref="PARSER_CASES.md/§6.9: no recovery for GLM (Dynamo never enables it: 'match vLLM/SGLang: drop the call')")
    C("bare body without <tool_call>", "TOOLCALLING.batch.5.b", "Let me check. get_time<arg_key>timezone</arg_key><arg_value>UTC</arg_value></tool_call> ok",
      content="Let me check. get_time ok", tools=WEATHER,
      ref="divergence: newest Dynamo recovers a bare body when NAME is an identifier; streaming cannot take back the name already emitted as content, so the library drops the arguments (never glued into content) and keeps the text")
    C("orphan closers in text", "TOOLCALLING.batch.5.b", "one</tool_call> two</arg_key> three</arg_value> four", content="one two three four")
    C("end of stream inside a value", "TOOLCALLING.batch.5.c", "<tool_call>get_weather<arg_key>location</arg_key><arg_value>Bei", abandoned=1, tools=WEATHER)
    C("end of stream inside the name", "TOOLCALLING.batch.5.c", "Hm <tool_call>get_wea", content="Hm ", tools=WEATHER)
    C("last call complete but without its closer", "TOOLCALLING.batch.5.d", glm("get_time", []) + glm("get_time", [("timezone", "UTC")])[:-len("</tool_call>")],
      calls=[("get_time", {})], abandoned=1, tools=WEATHER, ref="no EOF recovery for GLM, even for a complete last pair")
    C("last call truncated inside a value", "TOOLCALLING.batch.5.e", glm("get_time", []) + "<tool_call>get_weather<arg_key>location</arg_key><arg_value>Be",
      calls=[("get_time", {})], abandoned=1, tools=WEATHER)
    C("call without arguments", "TOOLCALLING.batch.6.a", glm("get_time", []), calls=[("get_time", "{}")], tools=WEATHER,
      ref="PARSER_CASES.md: with no arguments the whole body is the name")
    C("call without arguments, newline spelling", "TOOLCALLING.batch.6.b", "<tool_call>get_time\n</tool_call>", calls=[("get_time", "{}")], tools=WEATHER)
    C("name with surrounding spaces", "TOOLCALLING.batch.6.c", "<tool_call> get_time </tool_call>", calls=[("get_time", "{}")], tools=WEATHER)
    C("scalar and container matrix", "TOOLCALLING.batch.7.a",
      glm("set", [("s", " text "), ("i", "-12"), ("n", "3.25"), ("b", "Yes"), ("o", ' {"k": [1, {"x": null}]} '), ("a", "x, y ,z"), ("z", "None")]),
      calls=[("set", '{"s":" text ","i":-12,"n":3.25,"b":true,"o":{"k":[1,{"x":null}]},"a":["x","y","z"],"z":null}')], tools=MATRIX,
      ref="PARSER_CASES.md: strings verbatim (untrimmed); yes → true; array falls back to comma split; null type accepts None")
    C("escapes, unicode and HTML in a string value", "TOOLCALLING.batch.7.b", glm("write", [("content", 'He said "hi" \\ back\\slash\t<b>x</b> é 世界 🚀')]),
      calls=[("write", {"content": 'He said "hi" \\ back\\slash\t<b>x</b> é 世界 🚀'})])
    C("schema mismatch keeps the raw string", "TOOLCALLING.batch.7.c", glm("set", [("i", " twenty "), ("b", "maybe"), ("z", "x")]),
      calls=[("set", {"i": " twenty ", "b": "maybe", "z": "x"})], tools=MATRIX, ref="PARSER_CASES.md fallbacks: raw string (untrimmed)")
    C("nested values and several arguments", "TOOLCALLING.batch.7.d", glm("set", [("o", '{\n "u": {"n": "Ada"},\n "x": 1.50\n}'), ("a", "[[1], [2]]"), ("s", "a")], nl=True),
      calls=[("set", '{"o":{"u":{"n":"Ada"},"x":1.50},"a":[[1],[2]],"s":"a"}')], tools=MATRIX)
    C("repeated keys are emitted again", "TOOLCALLING.batch.7.e", glm("set", [("s", "first"), ("i", "1"), ("s", "second")]),
      calls=[("set", '{"s":"first","i":1,"s":"second"}')], tools=MATRIX,
      ref="PARSER_CASES.md library rule: a repeated key is emitted again when streaming (decoders keep the last value, as Dynamo does)")
    C("explicit null and empty containers", "TOOLCALLING.batch.7.e", glm("set", [("ni", "null"), ("o", "{}"), ("a", "[]"), ("z", "")]),
      calls=[("set", '{"ni":null,"o":{},"a":[],"z":null}')], tools=MATRIX)
    C("12 KB string value streamed", "TOOLCALLING.batch.7.e", glm("write_file", [("path", "/tmp/big.txt"), ("content", big(12000))]),
      calls=[("write_file", {"path": "/tmp/big.txt", "content": big(12000)})], ref="PARSER_CASES.md: a call of >= 10 KB")
    C("integers beyond 2^53 are exact", "TOOLCALLING.batch.7.f", glm("set", [("i", "123456789012345678901234567890"), ("n", "-9007199254740993")]),
      calls=[("set", '{"i":123456789012345678901234567890,"n":-9007199254740993}')], tools=MATRIX, ref="PARSER_CASES.md: integer literal, arbitrary length kept")
    C("text before the call", "TOOLCALLING.batch.8.a", "Let me look.\n" + glm("get_time", []), content="Let me look.\n", calls=[("get_time", {})], tools=WEATHER)
    C("text after the call", "TOOLCALLING.batch.8.b", glm("get_time", []) + "\nDone", content="\nDone", calls=[("get_time", {})], tools=WEATHER,
      ref="library keeps text after calls (newest Dynamo keeps only the text before the first call)")
    C("text before and after", "TOOLCALLING.batch.8.c", "A. " + glm("get_time", []) + " B.", content="A.  B.", calls=[("get_time", {})], tools=WEATHER)
    C("text between calls", "TOOLCALLING.batch.8.d", glm("get_time", []) + " then " + glm("get_time", []), content=" then ", calls=[("get_time", {}), ("get_time", {})],
      tools=WEATHER)
    C("empty output", "TOOLCALLING.batch.9.a", "")
    C("whitespace only", "TOOLCALLING.batch.9.b", "\n\n ", content="\n\n ")
    C("empty block", "TOOLCALLING.batch.9.c", "<tool_call></tool_call>")
    C("the same call twice", "TOOLCALLING.batch.10", glm("get_time", [("timezone", "UTC")]) * 2,
      calls=[("get_time", {"timezone": "UTC"}), ("get_time", {"timezone": "UTC"})], tools=WEATHER)
    C("undeclared tool is not a call", "TOOLCALLING.batch.13.a", "A " + glm("search", [("q", "</tool_call>")]) + " B", content="A  B", tools=WEATHER,
      ref="PARSER_CASES.md library rule: with declared tools an undeclared name is not a call and the block is dropped without leaking (the newest frontend-crates passes it through: registered divergence)")
    C("any name is a call when no tools are declared", "TOOLCALLING.batch.13.a", glm("search", [("q", "go"), ("n", "5"), ("x", "null"), ("j", "[1]")]),
      calls=[("search", {"q": "go", "n": "5", "x": None, "j": [1]})], ref="§5.3 without a schema: raw strings, JSON-looking text is JSON, null admitted")
    C("declared and undeclared tools mixed", "TOOLCALLING.batch.13.c", glm("search", [("q", "x")]) + glm("get_weather", W) + glm("get_weather_v2", []),
      calls=[("get_weather", WA)], tools=WEATHER)
    C("separators inside a value", "TOOLCALLING.batch.30.a", glm("f", [("s", "a, b; c")]), calls=[("f", {"s": "a, b; c"})])
    C("brackets inside a string value", "TOOLCALLING.batch.30.b", glm("f", [("s", "{not: json]} [")]), calls=[("f", {"s": "{not: json]} ["})], tools=[fn_tool("f", {"s": {"type": "string"}})])
    MARKERS = '</tool_call><tool_call>x<arg_key>k</arg_key><arg_value>v</arg_value_ <function=f> <invoke name="y"> <｜DSML｜tool_calls> </think>'
    C("other markers inside a value are text", "TOOLCALLING.batch.30.c", glm("write", [("content", MARKERS)]), calls=[("write", {"content": MARKERS})],
      ref="PARSER_CASES.md: only </arg_value> ends a value")
    C("marker text in a value before a second call", "TOOLCALLING.batch.31.a", glm("write", [("content", "</tool_call>")]) + glm("get_time", []),
      calls=[("write", {"content": "</tool_call>"}), ("get_time", {})])
    C("partial close tags in values before later calls", "TOOLCALLING.batch.31.b", glm("a", [("s", "x </arg_val y </tool_call z")]) + "\n" + glm("b", []),
      calls=[("a", {"s": "x </arg_val y </tool_call z"}), ("b", {})])
    one = glm("get_weather", W)
    C("whole call in one chunk", "TOOLCALLING.stream.1.a", one, chunks=[one], calls=[("get_weather", WA)], tools=WEATHER)
    C("split at every significant boundary", "TOOLCALLING.stream.1.b", one,
      chunks=["<tool_", "call>get", "_weather<arg_", "key>loc", "ation</arg_key><arg_", "value>Bei", "jing</arg_val", "ue><arg_key>days</arg_key><arg_value>3", "</arg_value></tool_", "call>"],
      calls=[("get_weather", WA)], tools=WEATHER)
    C("a declared name that is a prefix of another is not started early", "TOOLCALLING.stream.1.b", glm("get_weather", W),
      chunks=["<tool_call>get", "_weather", "<arg_key>location</arg_key><arg_value>Beijing</arg_value><arg_key>days</arg_key><arg_value>3</arg_value></tool_call>"],
      calls=[("get_weather", WA)], tools=WEATHER + [fn_tool("get", {})],
      ref="PARSER_CASES.md: never emit a name that is still a prefix of a longer name; the call starts only when the name is complete")
    C("two calls across chunks", "TOOLCALLING.stream.2", two, chunks=[two[i:i + 6] for i in range(0, len(two), 6)],
      calls=[("get_weather", WA), ("get_time", {"timezone": "UTC"})], tools=WEATHER)
    C("markers split mid-token", "TOOLCALLING.stream.3", "ok" + one, chunks=["ok<", "tool_call>get_weather<", "arg_key>location<", "/arg_key><", "arg_value>Beijing<", "/arg_value><arg_key>days</arg_key><arg_value>3</arg_value><", "/tool_call>"],
      content="ok", calls=[("get_weather", WA)], tools=WEATHER)
    C("complete arguments but no </tool_call>", "TOOLCALLING.stream.4.a", glm("get_time", [("timezone", "UTC")])[:-len("</tool_call>")], abandoned=1, tools=WEATHER,
      ref="no EOF recovery for GLM (vLLM/SGLang drop it too)")
    C("truncated mid-body", "TOOLCALLING.stream.4.b", "Sure. <tool_call>get_time<arg_key>time", content="Sure. ", abandoned=1, tools=WEATHER)
    C("bare body then repeated close markers", "TOOLCALLING.stream.4.c", "get_time<arg_key>timezone</arg_key><arg_value>UTC</arg_value></tool_call></tool_call>\n</tool_call>",
      content="get_time", tools=WEATHER, ref="close-marker spam after a bare body never leaks; the bare body itself is not recovered (see batch.5.b)")
    C("unicode, dots, hyphens and emoji in names", "TOOLCALLING.fmt.1", glm("天气.get-weather_v2", [("城市", "北京")]) + glm("🔧tool", [("k-1.x", "v")]),
      calls=[("天气.get-weather_v2", {"城市": "北京"}), ("🔧tool", {"k-1.x": "v"})])
    C("declared unicode name", "TOOLCALLING.fmt.1", glm("天气", [("城市", "北京")]), calls=[("天气", {"城市": "北京"})], tools=[fn_tool("天气", {"城市": {"type": "string"}})])
    C("newline spelling (GLM-4.5/4.6)", "TOOLCALLING.fmt.2", glm("get_weather", W, nl=True), calls=[("get_weather", WA)], tools=WEATHER,
      ref="PARSER_CASES.md: both spellings are the same grammar")
    C("whitespace around keys and between tags", "TOOLCALLING.fmt.2", "<tool_call>get_weather \n <arg_key> location </arg_key> \n\t <arg_value>Beijing</arg_value>\n\n</tool_call>",
      calls=[("get_weather", {"location": "Beijing"})], tools=WEATHER)
    C("compact and newline spellings mixed", "TOOLCALLING.fmt.3", glm("get_time", []) + glm("get_weather", W, nl=True),
      calls=[("get_time", {}), ("get_weather", WA)], tools=WEATHER, ref="the same grammar under glm47, glm45 and glm")
    C("empty block between text", "TOOLCALLING.fmt.4", "A <tool_call></tool_call> B", content="A  B")
    C("entities are decoded", "TOOLCALLING.xml.1", glm("write", [("content", "&lt;a href=&quot;x&quot;&gt;&apos;b&apos; &amp; c&lt;/a&gt; &#39; &amp;lt;")]),
      calls=[("write", {"content": "<a href=\"x\">'b' & c</a> &#39; &lt;"})], ref="PARSER_CASES.md: XML entities &lt; &gt; &amp; &quot; &apos;, one pass")
    C("typed by the schema", "TOOLCALLING.xml.2",
      glm("set", [("s", '{"a": 1}'), ("s", "null"), ("ns", "null"), ("ns", " x "), ("i", " 7 "), ("n", "5"), ("fl", "2.50"), ("b", "No"), ("nb", "null"), ("us", "42"), ("u", "1"), ("u", "true"),
                  ("r", "4"), ("a", '["p", 1]'), ("f", ' "quoted" '), ("f", " plain "), ("f", "NULL"), ("z", "none")]),
      calls=[("set", '{"s":"{\\"a\\": 1}","s":"null","ns":null,"ns":" x ","i":7,"n":5,"fl":2.50,"b":false,"nb":null,"us":"42","u":1,"u":true,"r":4,"a":["p",1],"f":"quoted","f":" plain ","f":null,"z":"none"}')],
      tools=MATRIX, ref="PARSER_CASES.md: string → raw even when JSON-looking; a bare null only where the schema permits it; unions with string → string; $ref followed; no type → JSON-looking text is JSON, else raw")
    C("file contents keep indentation and newlines", "TOOLCALLING.xml.2", glm("write_file", [("content", "\n    indented\n" + CODE)]),
      calls=[("write_file", {"content": "\n    indented\n" + CODE})], tools=[fn_tool("write_file", {"content": {"type": "string"}})],
      ref="PARSER_CASES.md: schema type string → the raw value verbatim, untrimmed")
    C("glm45 reasoning then a call", "TOOLCALLING.batch.8.a", "<think>Need the time.</think>" + glm("get_time", []),
      reasoning="Need the time.", calls=[("get_time", {})], tools=WEATHER, reasoning_parser="glm45")
    fx.dump(os.path.join(out, "glm47", "glm47.json"), family="glm47",
            description="GLM-4.5/4.6/4.7: <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value></tool_call>, values per §5.3",
            tool_parsers=["glm47", "glm45", "glm"], not_applicable=NA_COMMON)


# ----------------------------------------------------------------------- DSML
D = "｜DSML｜"


def ds_inv(name, params):
    s = '<%sinvoke name="%s">\n' % (D, name)
    for k, v, st in params:
        attr = "" if st is None else ' string="%s"' % ("true" if st else "false")
        s += '<%sparameter name="%s"%s>%s</%sparameter>\n' % (D, k, attr, v, D)
    return s + "</%sinvoke>" % D


def gen_dsml(block, names, reasoning, family):
    OPEN, CLOSE = "<%s%s>" % (D, block), "</%s%s>" % (D, block)

    def ds(*invokes):
        return OPEN + "\n" + "\n".join(ds_inv(n, p) for n, p in invokes) + "\n" + CLOSE

    fx = Fx(); C = fx.C
    W = [("location", "San Francisco", True), ("days", "7", False)]
    WA = {"location": "San Francisco", "days": 7}
    C("single call after text", "TOOLCALLING.batch.1", "Let me check the weather.\n\n" + ds(("get_weather", W)), content="Let me check the weather.",
      calls=[("get_weather", WA)], ref="PARSER_CASES.md sample; the \\n\\n separator before the block is part of the opener (library rule)")
    C("two invokes in one block", "TOOLCALLING.batch.2.a", ds(("get_weather", [("location", "Beijing", True)]), ("get_weather", [("location", "Shanghai", True)])),
      calls=[("get_weather", {"location": "Beijing"}), ("get_weather", {"location": "Shanghai"})])
    two = ds(("get_weather", W)) + "\n\n" + ds(("get_time", [("timezone", "UTC", True)]))
    C("two blocks closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:40], two[40:]], calls=[("get_weather", WA), ("get_time", {"timezone": "UTC"})])
    C("call group with surrounding content", "TOOLCALLING.batch.2.c",
      "Checking both.\n\n" + ds(("get_time", []), ("get_time", [("timezone", "UTC", True)])) + "\n\nDone.",
      content="Checking both.\n\nDone.", calls=[("get_time", {}), ("get_time", {"timezone": "UTC"})],
      ref="library keeps text after the block (newest Dynamo keeps only the prefix, aligned with vLLM)")
    C("three calls get distinct ids and consecutive indices", "TOOLCALLING.batch.2.d", ds(("a", []), ("b", []), ("c", [])), calls=[("a", {}), ("b", {}), ("c", {})])
    C("text only", "TOOLCALLING.batch.3", "Plain answer.\n\nSecond paragraph.", content="Plain answer.\n\nSecond paragraph.")
    C("text with marker-like fragments", "TOOLCALLING.batch.3", "a <｜DSML b <｜DSML｜invok c </｜DSML｜para d <｜ e \n\n<｜DSM f",
      content="a <｜DSML b <｜DSML｜invok c </｜DSML｜para d <｜ e \n\n<｜DSM f")
    C("garbage in a block", "TOOLCALLING.batch.4.a", "A" + OPEN + "garbage" + CLOSE + "B", content="AB",
      ref="PARSER_CASES.md: a block opener with no parseable invoke: the markup is suppressed (library keeps the text after it)")
    C("invalid JSON value is kept as the string written", "TOOLCALLING.batch.4.b", ds(("set", [("o", ' {"a": 1,} ', False)])), calls=[("set", {"o": ' {"a": 1,} '})],
      ref="PARSER_CASES.md: string=\"false\" → JSON, else the string (library: as written, untrimmed)")
    C("empty invoke name skips the call", "TOOLCALLING.batch.4.c", ds(("", [("x", "1", False)])) + "ok", content="ok")
    C("parameter without an invoke", "TOOLCALLING.batch.4.c", '<%sparameter name="x" string="true">1</%sparameter>\n</%sinvoke>rest' % (D, D, D), content="rest",
      ref="PARSER_CASES.md: orphan DSML markers and what follows them are never content (the orphan parameter is dropped up to the invoke close)")
    C("invoke tag without its '>'", "TOOLCALLING.batch.4.d", OPEN + '\n<%sinvoke name="get_weather"\n<%sparameter name="location" string="true">Paris</%sparameter>\n</%sinvoke>\n' % (D, D, D, D) + CLOSE + "tail",
      content="tail")
    C("block closes inside the invoke", "TOOLCALLING.batch.4.d", OPEN + '\n<%sinvoke name="f">\n<%sparameter name="k" string="true">v</%sparameter>\n' % (D, D, D) + CLOSE + "tail",
      content="tail", abandoned=1)
    C("bad invoke followed by a valid call", "TOOLCALLING.batch.4.e", OPEN + '\n<%sinvoke name="a"\n</%sinvoke>\n' % (D, D) + ds_inv("b", [("k", "v", True)]) + "\n" + CLOSE,
      calls=[("b", {"k": "v"})])
    C("block close missing", "TOOLCALLING.batch.5.a", OPEN + "\n" + ds_inv("get_time", [("timezone", "UTC", True)]), calls=[("get_time", {"timezone": "UTC"})],
      ref="PARSER_CASES.md: the block close may be missing")
    C("bare invoke without the block opener", "TOOLCALLING.batch.5.b", "Sure. " + ds_inv("get_time", [("timezone", "UTC", True)]) + "\n" + CLOSE,
      content="Sure. ", calls=[("get_time", {"timezone": "UTC"})], ref="PARSER_CASES.md: bare invokes are recovered when complete")
    C("orphan closers in text", "TOOLCALLING.batch.5.b", "one" + CLOSE + " two</%sinvoke> three</%sparameter> four" % (D, D), content="one two three four",
      ref="PARSER_CASES.md: orphan closers are removed, text kept")
    C("end of stream inside a value", "TOOLCALLING.batch.5.c", OPEN + '\n<%sinvoke name="get_weather">\n<%sparameter name="location" string="true">NY' % (D, D), abandoned=1,
      ref="PARSER_CASES.md: an invoke needs its close")
    C("end of stream after complete parameters", "TOOLCALLING.batch.5.c", OPEN + '\n<%sinvoke name="get_weather">\n<%sparameter name="location" string="true">NY</%sparameter>\n' % (D, D, D),
      abandoned=1, ref="Dynamo: a trailing unclosed invoke is dropped")
    C("last invoke complete, block unclosed", "TOOLCALLING.batch.5.d", ds(("get_time", [])) + "\n\n" + OPEN + "\n" + ds_inv("get_time", [("timezone", "UTC", True)]) + "\n",
      calls=[("get_time", {}), ("get_time", {"timezone": "UTC"})], ref="Dynamo with recovery: a missing outer block end still recovers every complete invoke")
    C("last invoke truncated inside a value", "TOOLCALLING.batch.5.e", OPEN + "\n" + ds_inv("get_time", []) + '\n<%sinvoke name="get_weather">\n<%sparameter name="days" string="false">1' % (D, D),
      calls=[("get_time", {})], abandoned=1)
    C("invoke with no parameters", "TOOLCALLING.batch.6.a", ds(("get_time", [])), calls=[("get_time", "{}")], ref="PARSER_CASES.md: an invoke with no parameters has arguments {}")
    C("invoke with blank lines inside", "TOOLCALLING.batch.6.b", OPEN + '\n<%sinvoke name="get_time">\n\n</%sinvoke>\n' % (D, D) + CLOSE, calls=[("get_time", "{}")],
      ref="engine-streams deepseek-v4 no_params capture")
    C("compact invoke with no parameters", "TOOLCALLING.batch.6.c", '%s<%sinvoke name="get_time"></%sinvoke>%s' % (OPEN, D, D, CLOSE), calls=[("get_time", "{}")])
    C("scalar and container matrix", "TOOLCALLING.batch.7.a",
      ds(("set", [("s", "text", True), ("i", "-12", False), ("n", "3.25", False), ("b", "false", False), ("o", '{"k": [1, {"x": null}]}', False),
                  ("a", '[1, "two", 3.0]', False), ("z", "null", False), ("q", '"quoted"', False)])),
      calls=[("set", '{"s":"text","i":-12,"n":3.25,"b":false,"o":{"k":[1,{"x":null}]},"a":[1,"two",3.0],"z":null,"q":"quoted"}')],
      ref="PARSER_CASES.md: string=\"false\" values are JSON, lexically compacted")
    C("escapes, unicode and HTML taken verbatim", "TOOLCALLING.batch.7.b", ds(("write", [("content", 'He said "hi" \\ path\\x\t<b>&lt;</b> é 世界 🚀', True)])),
      calls=[("write", {"content": 'He said "hi" \\ path\\x\t<b>&lt;</b> é 世界 🚀'})], ref="no entity decoding for DSML")
    C("string attribute decides, not the schema", "TOOLCALLING.batch.7.c", ds(("get_weather", [("days", "20", True)])), calls=[("get_weather", {"days": "20"})], tools=WEATHER,
      ref="CASES.md batch.7.c: the value is preserved as the string (vLLM's deepseek_v32 coerces)")
    C("nested JSON keeps key order and number spelling", "TOOLCALLING.batch.7.d",
      ds(("set", [("o", '\n {\n  "z": 1.0,\n  "a": {"m": [1e3, -0.50, "x y"]}\n }\n', False), ("s", "a", True)])),
      calls=[("set", '{"o":{"z":1.0,"a":{"m":[1e3,-0.50,"x y"]}},"s":"a"}')],
      ref="PARSER_CASES.md library rule: JSON values trimmed and lexically compacted, never re-parsed into a map")
    C("null, empty containers and a repeated parameter", "TOOLCALLING.batch.7.e",
      ds(("set", [("n", "null", False), ("o", "{ }", False), ("a", "[]", False), ("s", "one", True), ("s", "two", True)])),
      calls=[("set", '{"n":null,"o":{},"a":[],"s":"one","s":"two"}')], ref="a repeated parameter is emitted again")
    C("12 KB string value streamed", "TOOLCALLING.batch.7.e", ds(("write_file", [("path", "/tmp/big.txt", True), ("content", big(12000), True)])),
      calls=[("write_file", {"path": "/tmp/big.txt", "content": big(12000)})], ref="PARSER_CASES.md: a call of >= 10 KB")
    C("integers beyond 2^53 are exact", "TOOLCALLING.batch.7.f", ds(("set", [("i", "123456789012345678901234567890", False), ("j", "9007199254740993", None)])),
      calls=[("set", '{"i":123456789012345678901234567890,"j":9007199254740993}')])
    C("text before the block without a separator", "TOOLCALLING.batch.8.a", "Let me look." + ds(("get_time", [])), content="Let me look.", calls=[("get_time", {})],
      ref="engine-streams deepseek-v4 content_before_tool capture")
    C("text after the block", "TOOLCALLING.batch.8.b", ds(("get_time", [])) + "\n\nThe time is coming.", content="\n\nThe time is coming.", calls=[("get_time", {})],
      ref="library keeps text after blocks (§1 goal 6; newest Dynamo drops it)")
    C("text before and after", "TOOLCALLING.batch.8.c", "A.\n\n" + ds(("get_time", [])) + " B.", content="A. B.", calls=[("get_time", {})])
    C("text between blocks", "TOOLCALLING.batch.8.d", ds(("a", [])) + "\nthen\n\n" + ds(("b", [])), content="\nthen", calls=[("a", {}), ("b", {})],
      ref="library rule: text before, between and after blocks is kept; the \\n\\n before the second opener is separator markup")
    C("empty output", "TOOLCALLING.batch.9.a", "")
    C("whitespace only", "TOOLCALLING.batch.9.b", "\n\n \n", content="\n\n \n")
    C("empty block", "TOOLCALLING.batch.9.c", OPEN + "\n" + CLOSE)
    C("the same call twice", "TOOLCALLING.batch.10", ds(("get_time", [("timezone", "UTC", True)]), ("get_time", [("timezone", "UTC", True)])),
      calls=[("get_time", {"timezone": "UTC"}), ("get_time", {"timezone": "UTC"})])
    C("unknown tool is emitted", "TOOLCALLING.batch.13.a", ds(("search", [("q", "go", True)])), calls=[("search", {"q": "go"})], tools=WEATHER)
    C("known and unknown tools mixed", "TOOLCALLING.batch.13.c", ds(("search", [("q", "go", True)]), ("get_weather", W)), calls=[("search", {"q": "go"}), ("get_weather", WA)], tools=WEATHER)
    C("separators inside a value", "TOOLCALLING.batch.30.a", ds(("f", [("s", "a, b; c", True)])), calls=[("f", {"s": "a, b; c"})])
    C("brackets inside a value", "TOOLCALLING.batch.30.b", ds(("f", [("s", "{not: json]} [", True), ("j", '{"s": "}]"}', False)])), calls=[("f", {"s": "{not: json]} [", "j": {"s": "}]"}})])
    MARKERS = "</%sinvoke>%s<%sinvoke name=\"x\"> <%sparameter name=\"y\"> <tool_call><function=f> <minimax:tool_call> <arg_key>k</arg_key> <think></think> </%sparameter" % (D, OPEN, D, D, D)
    C("other markers inside a value are text", "TOOLCALLING.batch.30.c", ds(("write", [("content", MARKERS, True)])), calls=[("write", {"content": MARKERS})],
      ref="PARSER_CASES.md: only the parameter close ends a value")
    C("marker text in a value before a second call", "TOOLCALLING.batch.31.a", ds(("write", [("content", CLOSE, True)]), ("get_time", [])),
      calls=[("write", {"content": CLOSE}), ("get_time", {})])
    C("partial close tags in values before later calls", "TOOLCALLING.batch.31.b", ds(("a", [("s", "x </%sparam y </%sinvoke z" % (D, D), True)]), ("b", [])),
      calls=[("a", {"s": "x </%sparam y </%sinvoke z" % (D, D)}), ("b", {})])
    one = ds(("get_weather", W))
    C("whole call in one chunk", "TOOLCALLING.stream.1.a", one, chunks=[one], calls=[("get_weather", WA)])
    cut = [0, 3, len(OPEN) - 2, len(OPEN) + 12, len(OPEN) + 30, len(OPEN) + 60, len(OPEN) + 95, len(one) - 25, len(one) - 5, len(one)]
    C("split at every significant boundary", "TOOLCALLING.stream.1.b", one, chunks=[one[a:b] for a, b in zip(cut, cut[1:])], calls=[("get_weather", WA)],
      ref="the harness also splits at every byte, including inside the full-width bar")
    C("two blocks across chunks", "TOOLCALLING.stream.2", two, chunks=[two[i:i + 9] for i in range(0, len(two), 9)], calls=[("get_weather", WA), ("get_time", {"timezone": "UTC"})])
    C("markers split mid-token", "TOOLCALLING.stream.3", "ok\n\n" + one, chunks=["ok\n", "\n<｜DS", "ML｜" + block + ">\n<｜", "DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"location\" string=\"true\">San Francisco</", "｜DSML｜parameter>\n<｜DSML｜parameter name=\"days\" string=\"false\">7</｜DSML｜parameter>\n</｜DSML｜inv", "oke>\n" + CLOSE],
      content="ok", calls=[("get_weather", WA)])
    C("complete parameters but no invoke close", "TOOLCALLING.stream.4.a", OPEN + '\n<%sinvoke name="get_time">\n<%sparameter name="timezone" string="true">UTC</%sparameter>\n' % (D, D, D) + CLOSE,
      abandoned=1)
    C("truncated mid-body", "TOOLCALLING.stream.4.b", "Sure.\n\n" + OPEN + '\n<%sinvoke name="get_time">\n<%sparameter name="ti' % (D, D), content="Sure.", abandoned=1)
    C("bare invoke then repeated close markers", "TOOLCALLING.stream.4.c", ds_inv("get_time", [("timezone", "UTC", True)]) + "\n" + CLOSE + CLOSE + "\n" + CLOSE,
      calls=[("get_time", {"timezone": "UTC"})])
    C("unicode, dots, hyphens and emoji in names", "TOOLCALLING.fmt.1", ds(("天气.get-weather_v2", [("城市", "北京", True)]), ("🔧tool", [("k-1.x", "v", True)])),
      calls=[("天气.get-weather_v2", {"城市": "北京"}), ("🔧tool", {"k-1.x": "v"})])
    C("whitespace in tags, attribute spellings", "TOOLCALLING.fmt.2",
      OPEN + "\n\n  <%sinvoke name= \" get_weather \" >\n\t<%sparameter name=\"location\"   string='true' >Paris</%sparameter><%sparameter name=\"days\">3</%sparameter>  </%sinvoke>\n" % (D, D, D, D, D, D) + CLOSE,
      calls=[("get_weather", {"location": "Paris", "days": 3})], ref="names and keys trimmed; no string attribute means JSON (optional in newest Dynamo)")
    C("with and without the separator and the block", "TOOLCALLING.fmt.3", "A\n\n" + ds(("a", [])) + "\n" + ds_inv("b", []) + "\nB" + OPEN + "\n" + ds_inv("c", []) + CLOSE,
      content="A\nB", calls=[("a", {}), ("b", {}), ("c", {})], ref="the same grammar under " + ", ".join(names))
    C("empty block between text", "TOOLCALLING.fmt.4", "A " + OPEN + CLOSE + " B", content="A  B")
    C("file contents keep leading indentation and trailing newlines", "TOOLCALLING.batch.7.b", ds(("write_file", [("content", "\n    indented\n\n" + CODE, True)])),
      calls=[("write_file", {"content": "\n    indented\n\n" + CODE})], ref="PARSER_CASES.md library rule: string=\"true\" values are taken verbatim, untrimmed (Dynamo trims)")
    C("value that is not JSON without a string attribute", "TOOLCALLING.batch.7.c", ds(("f", [("s", "San Francisco", None), ("n", " 5 ", None)])),
      calls=[("f", {"s": "San Francisco", "n": 5})], ref="PARSER_CASES.md: no attribute → JSON, else the string")
    r_cfg = dict(reasoning_parser=reasoning, options={"in_reasoning": True}) if reasoning == "deepseek_v4" else dict(reasoning_parser=reasoning)
    C("reasoning, then text and a call", "TOOLCALLING.batch.8.a", "Thinking.</think>Checking.\n\n" + ds(("get_time", [])),
      reasoning="Thinking.", content="Checking.", calls=[("get_time", {})], **r_cfg,
      ref="reasoning parser %s%s" % (reasoning, " with the template-opened <think> (PRE.3)" if reasoning == "deepseek_v4" else " (forced)"))
    na = dict(NA_COMMON)
    na["TOOLCALLING.xml.1"] = "DSML has no entity pass: string=\"true\" values are verbatim and other values are JSON"
    na["TOOLCALLING.xml.2"] = "the string= attribute carries the type, the schema is not consulted"
    fx.dump(os.path.join(out, family, "tools.json"), family=family,
            description="DeepSeek DSML, block %s: <｜DSML｜invoke name=N><｜DSML｜parameter name=K string=…>V</｜DSML｜parameter></｜DSML｜invoke>, values per §5.4" % block,
            tool_parsers=names, not_applicable=na)


gen_qwen3_coder()
gen_minimax_m2()
gen_glm47()
gen_dsml("function_calls", ["deepseek_v3_2", "deepseek_v32", "deepseekv32"], "deepseek_v3_2", "deepseek_v3_2")
gen_dsml("tool_calls", ["deepseek_v4", "deepseek-v4", "deepseekv4"], "deepseek_v4", "deepseek_v4")
