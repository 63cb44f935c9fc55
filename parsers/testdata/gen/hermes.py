import json, sys
from common import Fx
fx = Fx()
cases = fx.cases
C = fx.C

W = {"location": "San Francisco, CA", "unit": "fahrenheit"}
def tc(name, args_json):  # hermes block body
    return '{"name": "%s", "arguments": %s}' % (name, args_json)
def blk(body, nl=True):
    return "<tool_call>\n" + body + "\n</tool_call>" if nl else "<tool_call>" + body + "</tool_call>"

weather_tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string"}}, "required": ["location"]}}}]

# batch.1
C("single call", "TOOLCALLING.batch.1", blk(tc("get_weather", '{"location": "San Francisco, CA", "unit": "fahrenheit"}')), calls=[("get_weather", W)], tools=weather_tools)
# batch.2
C("parallel calls in separate blocks", "TOOLCALLING.batch.2.a", blk(tc("get_weather", '{"location": "Boston"}')) + "\n" + blk(tc("get_weather", '{"location": "New York"}')), calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "New York"})])
C("two calls closing in one delta", "TOOLCALLING.batch.2.b",
  '<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n</tool_call>\n<tool_call>\n{"name": "b", "arguments": {}}\n</tool_call>',
  chunks=['<tool_call>\n{"name": "a", "arguments": {"x": 1', '}}\n</tool_call>\n<tool_call>\n{"name": "b", "arguments": {}}\n</tool_call>'],
  calls=[("a", {"x": 1}), ("b", {})], ref="PARSER_CASES.md (SGLang loses the second call)")
C("call group with surrounding content", "TOOLCALLING.batch.2.c",
  "I'll check both.\n" + blk(tc("get_weather", '{"location": "Boston"}')) + "\n" + blk(tc("get_weather", '{"location": "New York"}')) + "\nDone.",
  content="I'll check both.\n\nDone.", calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "New York"})])
C("three calls get distinct ids and consecutive indices", "TOOLCALLING.batch.2.d",
  blk(tc("a", '{}')) + blk(tc("b", '{}')) + blk(tc("c", '{}')), calls=[("a", {}), ("b", {}), ("c", {})])
C("array of calls in one block", "TOOLCALLING.batch.2.a",
  '<tool_call>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"k": "v"}}]</tool_call>', calls=[("a", {}), ("b", {"k": "v"})])
# batch.3
C("text only", "TOOLCALLING.batch.3", "The weather is nice today.", content="The weather is nice today.")
C("text with marker-like fragments", "TOOLCALLING.batch.3", "a < b, <tool is not <tool_calls> and </tool_ ends here <", content="a < b, <tool is not <tool_calls> and </tool_ ends here <")
# batch.4
C("garbage body", "TOOLCALLING.batch.4.a", "<tool_call>this is not json</tool_call>")
C("garbage body between text", "TOOLCALLING.batch.4.a", "A <tool_call>{{{[[[\"\"\x00</tool_call> B", content="A  B")
C("invalid JSON syntax in a well-formed wrapper", "TOOLCALLING.batch.4.b", '<tool_call>{"name": "get_weather", "arguments": {"location": "Boston",}}</tool_call>', abandoned=1)
C("missing name key", "TOOLCALLING.batch.4.c", '<tool_call>{"arguments": {"a": 1}}</tool_call>')
C("name is not a string", "TOOLCALLING.batch.4.c", '<tool_call>{"name": 42, "arguments": {}}</tool_call>')
C("unclosed object before the closer", "TOOLCALLING.batch.4.d", '<tool_call>{"name": "a", "arguments": {"x": 1}</tool_call>', abandoned=1)
C("bad fragment followed by a valid call", "TOOLCALLING.batch.4.e",
  '<tool_call>{"name": "a", "arguments": oops}</tool_call>\n<tool_call>{"name": "b", "arguments": {"ok": true}}</tool_call>', calls=[("b", {"ok": True})], abandoned=1)
C("broken block resynchronises at the next opener", "TOOLCALLING.batch.4.e",
  '<tool_call>{"name": "a", "argu<tool_call>{"name": "b", "arguments": {}}</tool_call>', calls=[], abandoned=1,
  ref="the opener is inside the unterminated key string, so it is string content: block a ends in a syntax error at '>'? no: the scanner sees the key string end at the next quote")
cases.pop()  # (replaced below with a precise case)
C("broken block resynchronises at the next opener", "TOOLCALLING.batch.4.e",
  '<tool_call>{"name": "a" oops <tool_call>{"name": "b", "arguments": {}}</tool_call>', calls=[("b", {})], abandoned=1)
C("arguments is an array", "TOOLCALLING.batch.4.c", '<tool_call>{"name": "a", "arguments": [1, 2]}</tool_call>', abandoned=1)
C("arguments is a number", "TOOLCALLING.batch.4.c", '<tool_call>{"name": "a", "arguments": 7}</tool_call>', abandoned=1)
C("arguments before a non-string name", "TOOLCALLING.batch.4.c", '<tool_call>{"arguments": {"x": 1}, "name": null}</tool_call>')
C("trailing garbage after the body is content", "TOOLCALLING.batch.4.d", '<tool_call>{"name": "a", "arguments": {}}}</tool_call>', content="}", calls=[("a", {})])
# batch.5
C("open fence, close absent, body complete", "TOOLCALLING.batch.5.a", '<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n', calls=[("a", {"x": 1})])
C("close present, open absent", "TOOLCALLING.batch.5.b", "Sure.</tool_call> More text", content="Sure. More text")
C("body without opener keeps its text, closer removed", "TOOLCALLING.batch.5.b", '{"name": "a", "arguments": {}}</tool_call>', content='{"name": "a", "arguments": {}}')
C("EOS inside the arguments", "TOOLCALLING.batch.5.c", '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Bos', abandoned=1)
C("EOS inside the name", "TOOLCALLING.batch.5.c", '<tool_call>\n{"name": "get_we')
C("EOS right after the opener", "TOOLCALLING.batch.5.c", 'Let me check.<tool_call>', content="Let me check.")
C("prose then a truncated call", "TOOLCALLING.batch.5.c", 'Let me check.\n<tool_call>{"name": "a", "argu', content="Let me check.\n", abandoned=1)
C("last call complete but missing its end marker", "TOOLCALLING.batch.5.d",
  '<tool_call>{"name": "a", "arguments": {}}</tool_call>\n<tool_call>{"name": "b", "arguments": {"y": 2}}', calls=[("a", {}), ("b", {"y": 2})], ref="Dynamo mid version drops b; vLLM/SGLang recover it")
C("last call truncated inside a value", "TOOLCALLING.batch.5.e",
  '<tool_call>{"name": "a", "arguments": {}}</tool_call>\n<tool_call>{"name": "b", "arguments": {"y": "tru', calls=[("a", {})], abandoned=1)
C("array truncated inside the second element", "TOOLCALLING.batch.5.e",
  '<tool_call>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"y": ', calls=[("a", {})], abandoned=1)
C("EOS inside the closer", "TOOLCALLING.batch.5.a", '<tool_call>{"name": "a", "arguments": {}}\n</tool_', calls=[("a", {})], content="\n</tool_",
  ref="a held marker prefix at Finish is text; the whitespace before it is released with it")
# batch.6
C("literal {}", "TOOLCALLING.batch.6.a", blk(tc("get_time", "{}")), calls=[("get_time", {})])
C("whitespace inside empty arguments", "TOOLCALLING.batch.6.b", blk(tc("get_time", "{\n  }")), calls=[("get_time", {})])
C("no arguments key", "TOOLCALLING.batch.6.c", blk('{"name": "get_time"}'), calls=[("get_time", {})])
# batch.7
C("scalar and container matrix", "TOOLCALLING.batch.7.a", blk(tc("f", '{"i": 1, "f": -2.5e-3, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}')),
  calls=[("f", '{"i": 1, "f": -2.5e-3, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}')])
C("escapes, unicode and HTML kept verbatim", "TOOLCALLING.batch.7.b",
  blk(tc("f", r'{"s": "line1\nline2 \"quoted\" \\ back", "u": "héllo 世界 🎉", "esc": "\u00e9\ud83c\udf89", "html": "<b>bold</b> &amp; &lt;"}')),
  calls=[("f", r'{"s": "line1\nline2 \"quoted\" \\ back", "u": "héllo 世界 🎉", "esc": "\u00e9\ud83c\udf89", "html": "<b>bold</b> &amp; &lt;"}')])
C("schema mismatch keeps the model's value", "TOOLCALLING.batch.7.c", blk(tc("set_temp", '{"celsius": "20"}')), calls=[("set_temp", {"celsius": "20"})],
  tools=[{"type": "function", "function": {"name": "set_temp", "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}}}}}])
C("multiple nested arguments", "TOOLCALLING.batch.7.d", blk(tc("query", '{"filter": {"and": [{"field": "a", "op": "=", "value": 1}, {"field": "b", "op": "in", "value": [1, 2]}]}, "limit": 10}')),
  calls=[("query", '{"filter": {"and": [{"field": "a", "op": "=", "value": 1}, {"field": "b", "op": "in", "value": [1, 2]}]}, "limit": 10}')])
C("deep, null, empty nested and duplicate keys", "TOOLCALLING.batch.7.e", blk(tc("f", '{"a": {"b": {"c": {"d": {"e": [[[]]]}}}}, "n": null, "empty": {}, "arr": [], "dup": 1, "dup": 2}')),
  calls=[("f", '{"a": {"b": {"c": {"d": {"e": [[[]]]}}}}, "n": null, "empty": {}, "arr": [], "dup": 1, "dup": 2}')])
C("integers beyond float64 stay exact", "TOOLCALLING.batch.7.f", blk(tc("f", '{"id": 12345678901234567890123, "x": 1.000000000000000000001, "neg": -9007199254740993}')),
  calls=[("f", '{"id": 12345678901234567890123, "x": 1.000000000000000000001, "neg": -9007199254740993}')])
C("raw control characters in strings are escaped", "TOOLCALLING.batch.7.b", blk(tc("write", '{"content": "line1\nline2\tx\x01"}')),
  calls=[("write", r'{"content": "line1\nline2\tx\u0001"}')], ref="PARSER_CASES.md library rule: raw control characters")
big = "".join("line %04d: the quick brown fox jumps over the lazy dog\\n" % i for i in range(200))
C("a 10 KB argument string streams", "TOOLCALLING.stream.1", blk(tc("write_file", '{"path": "/tmp/big.txt", "content": "%s"}' % big)),
  calls=[("write_file", '{"path": "/tmp/big.txt", "content": "%s"}' % big)], tool_parser="hermes", ref="PARSER_CASES.md very long output")
# batch.8
C("text before only", "TOOLCALLING.batch.8.a", "Let me look that up.\n\n" + blk(tc("search", '{"q": "go"}')), content="Let me look that up.\n\n", calls=[("search", {"q": "go"})])
C("text after only", "TOOLCALLING.batch.8.b", blk(tc("search", '{"q": "go"}')) + "\nHope that helps.", content="\nHope that helps.", calls=[("search", {"q": "go"})])
C("text before and after", "TOOLCALLING.batch.8.c", "Before. " + blk(tc("search", '{"q": "go"}'), nl=False) + " After.", content="Before.  After.", calls=[("search", {"q": "go"})])
C("text between calls", "TOOLCALLING.batch.8.d", "A" + blk(tc("a", "{}"), nl=False) + " B " + blk(tc("b", "{}"), nl=False) + "C", content="A B C", calls=[("a", {}), ("b", {})])
# batch.9
C("empty output", "TOOLCALLING.batch.9.a", "")
C("whitespace only is preserved", "TOOLCALLING.batch.9.b", "  \n\t ", content="  \n\t ")
C("empty array body", "TOOLCALLING.batch.9.c", "<tool_call>[]</tool_call>")
C("whitespace after the last call is dropped", "TOOLCALLING.batch.9.b", blk(tc("a", "{}")) + "\n\n", calls=[("a", {})])
# batch.10
C("duplicate calls", "TOOLCALLING.batch.10", blk(tc("get_weather", '{"location": "Paris"}')) + "\n" + blk(tc("get_weather", '{"location": "Paris"}')),
  calls=[("get_weather", {"location": "Paris"}), ("get_weather", {"location": "Paris"})])
# batch.13
C("unknown tool is emitted", "TOOLCALLING.batch.13.a", blk(tc("delete_everything", "{}")), calls=[("delete_everything", {})], tools=weather_tools)
C("known and unknown mixed", "TOOLCALLING.batch.13.c", blk(tc("get_weather", '{"location": "Rome"}')) + blk(tc("nope", '{"x": 1}')), calls=[("get_weather", {"location": "Rome"}), ("nope", {"x": 1})], tools=weather_tools)
# batch.30/31
C("separators inside strings", "TOOLCALLING.batch.30.a", blk(tc("f", '{"q": "a;b,c", "r": ","}')), calls=[("f", {"q": "a;b,c", "r": ","})])
C("braces and brackets inside strings", "TOOLCALLING.batch.30.b", blk(tc("f", '{"code": "if (x) { return [1]; } }}]]"}')), calls=[("f", {"code": "if (x) { return [1]; } }}]]"})])
C("closer and opener inside a string", "TOOLCALLING.batch.30.c", blk(tc("f", r'{"text": "</tool_call><tool_call>{\"name\": \"evil\"}"}')), calls=[("f", {"text": "</tool_call><tool_call>{\"name\": \"evil\"}"})],
  ref="vLLM PR #45310")
C("separator inside a string before the real separator", "TOOLCALLING.batch.31.a",
  r'<tool_call>[{"name": "a", "arguments": {"s": "}, {\"name\": \"x\""}}, {"name": "b", "arguments": {}}]</tool_call>', calls=[("a", {"s": "}, {\"name\": \"x\""}), ("b", {})])
C("structural delimiters inside strings before later calls", "TOOLCALLING.batch.31.b",
  blk(tc("a", '{"s": "]}</tool_call>"}')) + blk(tc("b", '{"t": "[{"}')), calls=[("a", {"s": "]}</tool_call>"}), ("b", {"t": "[{"})])
# stream
inp = blk(tc("get_weather", '{"location": "Paris"}'), nl=True)
C("whole call in one chunk", "TOOLCALLING.stream.1.a", inp, chunks=[inp], calls=[("get_weather", {"location": "Paris"})])
C("split at significant boundaries", "TOOLCALLING.stream.1.b", inp,
  chunks=["<tool_", "call>\n{\"na", "me\": \"get_weather\"", ", \"arguments\": {\"loc", "ation\": \"Paris\"}}", "\n</tool_", "call>"], calls=[("get_weather", {"location": "Paris"})])
inp2 = blk(tc("a", '{"x": "1"}')) + "\n" + blk(tc("b", '{"y": "2"}'))
C("two calls each spanning chunks", "TOOLCALLING.stream.2", inp2, chunks=[inp2[:20], inp2[20:45], inp2[45:70], inp2[70:]], calls=[("a", {"x": "1"}), ("b", {"y": "2"})])
inp3 = "Hello <tool_call>" + tc("a", "{}") + "</tool_call>"
C("marker split mid-token", "TOOLCALLING.stream.3", inp3, chunks=["Hello <", "tool_call>" + tc("a", "{}") + "</tool", "_call>"], content="Hello ", calls=[("a", {})])
C("complete arguments, no end marker, finish", "TOOLCALLING.stream.4.a", '<tool_call>{"name": "a", "arguments": {"k": [1]}}', calls=[("a", {"k": [1]})])
C("truncated mid-body at finish", "TOOLCALLING.stream.4.b", '<tool_call>{"name": "a", "arguments": {"k": [1', abandoned=1)
C("inner body without wrapper, repeated closers", "TOOLCALLING.stream.4.c", '{"name": "a", "arguments": {}}</tool_call></tool_call>\n</tool_call>', content='{"name": "a", "arguments": {}}\n')
C("closer spam after a call", "TOOLCALLING.stream.4.c", blk(tc("a", "{}")) + "</tool_call>\n</tool_call>", calls=[("a", {})])
# fmt
C("function-name conventions", "TOOLCALLING.fmt.1",
  blk(tc("get-weather", "{}")) + blk(tc("tools.search_v2", "{}")) + blk(tc("天气", "{}")) + blk(tc("🔧fix", "{}")) + blk(tc(r"a\"b", "{}")),
  calls=[("get-weather", {}), ("tools.search_v2", {}), ("天气", {}), ("🔧fix", {}), ('a"b', {})])
C("empty function name is not a call", "TOOLCALLING.fmt.1", blk('{"name": "", "arguments": {"x": 1}}'))
C("whitespace inside and around the body", "TOOLCALLING.fmt.2", '<tool_call>  \n\t{ "name" : "a" , "arguments" : { "x" : 1 } }  \n </tool_call>', calls=[("a", {"x": 1})])
C("arguments before name (held until the name)", "TOOLCALLING.fmt.5", blk('{"arguments": {"name": "inner", "n": [1, {"a": "b"}]}, "name": "outer"}'), calls=[("outer", {"name": "inner", "n": [1, {"a": "b"}]})])
C("parameters instead of arguments", "TOOLCALLING.fmt.5", blk('{"name": "a", "parameters": {"x": 1}}'), calls=[("a", {"x": 1})])
C("extra keys are ignored", "TOOLCALLING.fmt.5", blk('{"type": "function", "name": "a", "id": "x", "arguments": {"x": 1}, "extra": [1, {"name": "no"}]}'), calls=[("a", {"x": 1})])
C("repeated arguments key: the first wins", "TOOLCALLING.fmt.5", blk('{"name": "a", "arguments": {"x": 1}, "arguments": {"x": 2}}'), calls=[("a", {"x": 1})])
C("arguments as a JSON string are unwrapped", "TOOLCALLING.fmt.5", blk(r'{"name": "a", "arguments": "{\"x\": 1, \"s\": \"q\\\"\"}"}'), calls=[("a", {"x": 1, "s": "q\""})], ref="Granite 4, PARSER_CASES.md")
C("string arguments before the name", "TOOLCALLING.fmt.5", blk(r'{"arguments": " {\"x\": [true]} ", "name": "a"}'), calls=[("a", {"x": [True]})])
C("string arguments that are not an object", "TOOLCALLING.fmt.5", blk('{"name": "a", "arguments": "hello"}'), abandoned=1)
C("empty wrapper", "TOOLCALLING.fmt.4", "Before <tool_call></tool_call> after", content="Before  after")
C("empty wrapper with whitespace", "TOOLCALLING.fmt.4", "<tool_call>\n\n</tool_call>")
C("entities in JSON strings are not decoded", "TOOLCALLING.xml.1", blk(tc("f", '{"html": "&lt;b&gt; &amp;"}')), calls=[("f", {"html": "&lt;b&gt; &amp;"})],
  ref="pinned: JSON families use JSON escapes only")
C("qwen25 alias: the same grammar", "TOOLCALLING.fmt.3", blk(tc("get_weather", '{"location": "Oslo"}')), calls=[("get_weather", {"location": "Oslo"})], tool_parser="qwen25",
  ref="PARSER_CASES.md: qwen25 (Dynamo), granite4 (vLLM) and qwen (SGLang) are hermes; every case of this file runs under each name")
# options
C("whole-call mode", "TOOLCALLING.stream.1", blk(tc("a", '{"x": 1}')) + "text", content="text", calls=[("a", {"x": 1})], options={"whole_calls": True})
C("arguments before name beyond the buffer limit", "TOOLCALLING.batch.4.c", blk('{"arguments": {"big": "%s"}, "name": "a"}' % ("x" * 64)), options={"max_call_buffer": 32},
  ref="PARSER_CASES.md: past the limit the call is abandoned, nothing of it released")
C("streamed arguments are not limited", "TOOLCALLING.batch.7.e", blk('{"name": "a", "arguments": {"big": "%s"}}' % ("x" * 64)), options={"max_call_buffer": 32}, calls=[("a", {"big": "x" * 64})])
C("whitespace after a call beyond the limit is content", "TOOLCALLING.batch.8.b", blk(tc("a", "{}"), nl=False) + " " * 40 + "x", content=" " * 40 + "x", options={"max_call_buffer": 32}, calls=[("a", {})])

f = {"family": "hermes", "description": "JSON in <tool_call> wrapper tags: hermes and its aliases",
     "tool_parsers": ["hermes", "qwen25", "granite4", "qwen"],
     "not_applicable": {
        "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
        "TOOLCALLING.batch.13.d": "tools are referenced by name, not ordinal",
        "TOOLCALLING.fmt.5.1": "hermes carries no native call id",
        "TOOLCALLING.xml.2": "JSON arguments carry native types; no schema coercion",
        "TOOLCALLING.harmony.1": "Harmony only", "TOOLCALLING.harmony.2": "Harmony only"},
     "cases": cases}
json.dump(f, open(sys.argv[1], "w"), indent=1, ensure_ascii=False)
print(len(cases))
