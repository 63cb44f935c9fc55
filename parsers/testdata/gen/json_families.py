# Fixtures of the JSON tool-call families of PARSER_CASES.md:
# nemotron_deci, jamba, default, llama3_json, mistral, phi4.
#
#   cd parsers/testdata && python3 gen/json_families.py .
#
# Every family gets the shared matrix (the same calls, arguments and text
# around them in the family's wire form) plus its own cases: markers,
# recovery, wire variants and every "Library rule" of its section.
import json, os, sys
from common import Fx

out = sys.argv[1]

W = {"location": "San Francisco, CA", "unit": "fahrenheit"}
weather_tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string"}}, "required": ["location"]}}}]
temp_tools = [{"type": "function", "function": {"name": "set_temp", "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}}}}}]
BIG = "".join("line %04d: the quick brown fox jumps over the lazy dog\\n" % i for i in range(200))  # 11 KB of JSON string text

JSON_NA = {
    "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
    "TOOLCALLING.batch.13.d": "tools are referenced by name, not ordinal",
    "TOOLCALLING.xml.1": "JSON arguments use JSON escapes; there is no entity pass",
    "TOOLCALLING.xml.2": "JSON arguments carry native types; no schema coercion",
    "TOOLCALLING.harmony.1": "Harmony only",
    "TOOLCALLING.harmony.2": "Harmony only",
}


def obj(name, args, key="arguments"):
    return '{"name": "%s", "%s": %s}' % (name, key, args)


class Family:
    """A family's wire form for the shared matrix.

    calls(cs, after_text) renders a call group: cs is a list of (name, args_json);
    after_text says text precedes it (bare-JSON grammars need their tag there).
    single(cs) renders each call as its own group (for text between calls)."""
    markup = False  # content of matrix cases may legitimately contain marker text

    def __init__(self, name):
        self.name = name


def matrix(fx, f):
    C = fx.C
    G = f.calls
    C("single call", "TOOLCALLING.batch.1", G([("get_weather", '{"location": "San Francisco, CA", "unit": "fahrenheit"}')]),
      calls=[("get_weather", W)], tools=weather_tools)
    C("parallel calls in one group", "TOOLCALLING.batch.2.a", G([("get_weather", '{"location": "Boston"}'), ("get_weather", '{"location": "New York"}')]),
      calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "New York"})])
    inp = G([("a", '{"x": 1}'), ("b", '{}')])
    cut = inp.index('{"x": 1') + len('{"x": 1')
    C("two calls closing in one delta", "TOOLCALLING.batch.2.b", inp, chunks=[inp[:cut], inp[cut:]], calls=[("a", {"x": 1}), ("b", {})],
      ref="PARSER_CASES.md (SGLang loses the second call when one increment holds two)")
    inp = G([("a", '{"k": [1, 2]}'), ("b", '{"s": "t"}'), ("c", '{}'), ("d", '{"n": null}')])
    C("four calls in a single delta", "TOOLCALLING.batch.2.b", inp, chunks=[inp], calls=[("a", {"k": [1, 2]}), ("b", {"s": "t"}), ("c", {}), ("d", {"n": None})],
      ref="PARSER_CASES.md: every complete construct of a Feed is emitted")
    C("call group with surrounding content", "TOOLCALLING.batch.2.c",
      "I'll check both.\n" + G([("get_weather", '{"location": "Boston"}'), ("get_weather", '{"location": "New York"}')], True) + "\nDone.",
      content="I'll check both.\n\nDone.", calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "New York"})])
    C("three calls get distinct ids and consecutive indices", "TOOLCALLING.batch.2.d", G([("a", "{}"), ("b", "{}"), ("c", "{}")]), calls=[("a", {}), ("b", {}), ("c", {})])
    C("text only", "TOOLCALLING.batch.3", "The weather is nice today.", content="The weather is nice today.")
    C("literal {}", "TOOLCALLING.batch.6.a", G([("get_time", "{}")]), calls=[("get_time", {})])
    C("whitespace inside empty arguments", "TOOLCALLING.batch.6.b", G([("get_time", "{\n  }")]), calls=[("get_time", {})])
    m = '{"i": 1, "f": -2.5e-3, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}'
    C("scalar and container matrix", "TOOLCALLING.batch.7.a", G([("f", m)]), calls=[("f", m)])
    e = r'{"s": "line1\nline2 \"quoted\" \\ back", "u": "héllo 世界 🎉", "esc": "\u00e9\ud83c\udf89", "html": "<b>bold</b> &amp; &lt;"}'
    C("escapes, unicode and HTML kept verbatim", "TOOLCALLING.batch.7.b", G([("f", e)]), calls=[("f", e)])
    C("raw control characters in strings are escaped", "TOOLCALLING.batch.7.b", G([("write", '{"content": "line1\nline2\tx\x01"}')]),
      calls=[("write", r'{"content": "line1\nline2\tx\u0001"}')], ref="PARSER_CASES.md library rule: raw control characters")
    C("schema mismatch keeps the model's value", "TOOLCALLING.batch.7.c", G([("set_temp", '{"celsius": "20"}')]), calls=[("set_temp", {"celsius": "20"})], tools=temp_tools)
    n = '{"filter": {"and": [{"field": "a", "op": "=", "value": 1}, {"field": "b", "op": "in", "value": [1, 2]}]}, "limit": 10}'
    C("multiple nested arguments", "TOOLCALLING.batch.7.d", G([("query", n)]), calls=[("query", n)])
    d = '{"a": {"b": {"c": {"d": {"e": [[[]]]}}}}, "n": null, "empty": {}, "arr": [], "dup": 1, "dup": 2}'
    C("deep, null, empty nested and duplicate keys", "TOOLCALLING.batch.7.e", G([("f", d)]), calls=[("f", d)])
    big = '{"id": 12345678901234567890123, "x": 1.000000000000000000001, "neg": -9007199254740993}'
    C("integers beyond float64 stay exact", "TOOLCALLING.batch.7.f", G([("f", big)]), calls=[("f", big)])
    a = '{"path": "/tmp/big.txt", "content": "%s"}' % BIG
    C("a 10 KB argument string streams", "TOOLCALLING.stream.1", G([("write_file", a)]), calls=[("write_file", a)],
      tool_parser=f.name, ref="PARSER_CASES.md very long output (≥ 10 KB of JSON); run under the canonical name only")
    C("text before only", "TOOLCALLING.batch.8.a", "Let me look that up.\n\n" + G([("search", '{"q": "go"}')], True),
      content="Let me look that up.\n\n", calls=[("search", {"q": "go"})])
    C("text after only", "TOOLCALLING.batch.8.b", G([("search", '{"q": "go"}')]) + "\nHope that helps.", content="\nHope that helps.", calls=[("search", {"q": "go"})])
    C("text before and after", "TOOLCALLING.batch.8.c", "Before. " + G([("search", '{"q": "go"}')], True) + " After.", content="Before.  After.", calls=[("search", {"q": "go"})])
    C("text between calls", "TOOLCALLING.batch.8.d", "A" + G([("a", "{}")], True) + " B " + G([("b", "{}")], True) + "C", content="A B C", calls=[("a", {}), ("b", {})])
    C("empty output", "TOOLCALLING.batch.9.a", "")
    C("whitespace only is preserved", "TOOLCALLING.batch.9.b", "  \n\t ", content="  \n\t ")
    C("whitespace after the last call is dropped", "TOOLCALLING.batch.9.b", G([("a", "{}")]) + "\n\n", calls=[("a", {})],
      ref="PARSER_CASES.md library rule: whitespace after a call")
    C("duplicate calls", "TOOLCALLING.batch.10", G([("get_weather", '{"location": "Paris"}'), ("get_weather", '{"location": "Paris"}')]),
      calls=[("get_weather", {"location": "Paris"}), ("get_weather", {"location": "Paris"})])
    C("unknown tool is emitted", "TOOLCALLING.batch.13.a", G([("delete_everything", "{}")]), calls=[("delete_everything", {})], tools=weather_tools)
    C("known and unknown mixed", "TOOLCALLING.batch.13.c", G([("get_weather", '{"location": "Rome"}'), ("nope", '{"x": 1}')]),
      calls=[("get_weather", {"location": "Rome"}), ("nope", {"x": 1})], tools=weather_tools)
    C("separators inside strings", "TOOLCALLING.batch.30.a", G([("f", '{"q": "a;b,c", "r": ",", "s": ";{\\"name\\": \\"x\\"}"}')]),
      calls=[("f", {"q": "a;b,c", "r": ",", "s": ";{\"name\": \"x\"}"})])
    C("braces and brackets inside strings", "TOOLCALLING.batch.30.b", G([("f", '{"code": "if (x) { return [1]; } }}]]"}')]),
      calls=[("f", {"code": "if (x) { return [1]; } }}]]"})])
    inp = G([("a", '{"s": "}]; {\\"name\\": \\"x\\", \\"arguments\\": {}}"}'), ("b", "{}")])
    C("separator inside a string before the real separator", "TOOLCALLING.batch.31.a", inp,
      calls=[("a", {"s": "}]; {\"name\": \"x\", \"arguments\": {}}"}), ("b", {})])
    C("structural delimiters inside strings before later calls", "TOOLCALLING.batch.31.b",
      G([("a", '{"s": "]}]}"}'), ("b", '{"t": "[{[{"}'), ("c", '{"u": "}"}')]), calls=[("a", {"s": "]}]}"}), ("b", {"t": "[{[{"}), ("c", {"u": "}"})])
    inp = G([("get_weather", '{"location": "Paris"}')])
    C("whole call in one chunk", "TOOLCALLING.stream.1.a", inp, chunks=[inp], calls=[("get_weather", {"location": "Paris"})])
    step = max(1, len(inp) // 7)
    C("split at significant boundaries", "TOOLCALLING.stream.1.b", inp, chunks=[inp[i:i + step] for i in range(0, len(inp), step)],
      calls=[("get_weather", {"location": "Paris"})], ref="the harness also splits at every single byte")
    inp = G([("a", '{"x": "1"}'), ("b", '{"y": "2"}')])
    q = len(inp) // 4
    C("two calls each spanning chunks", "TOOLCALLING.stream.2", inp, chunks=[inp[:q], inp[q:2 * q], inp[2 * q:3 * q], inp[3 * q:]],
      calls=[("a", {"x": "1"}), ("b", {"y": "2"})])
    C("function-name conventions", "TOOLCALLING.fmt.1",
      G([("get-weather", "{}"), ("tools.search_v2", "{}"), ("天气", "{}"), ("🔧fix", "{}"), ("ns:tool/x", "{}")]),
      calls=[("get-weather", {}), ("tools.search_v2", {}), ("天气", {}), ("🔧fix", {}), ("ns:tool/x", {})], ref="PARSER_CASES.md: Unicode and emoji names")
    C("whole-call mode", "TOOLCALLING.stream.1", G([("a", '{"x": 1}')]) + " text", content=" text", calls=[("a", {"x": 1})], options={"whole_calls": True})


# ---------------------------------------------------------------- wrapped JSON

def wrapped(name, O, Cl, aliases, desc, extra=None, bare_start=False):
    fx = Fx(); C = fx.C
    f = Family(name)
    f.calls = lambda cs, after=False: O + "[" + ", ".join(obj(n, a) for n, a in cs) + "]" + Cl
    matrix(fx, f)
    B = lambda body: O + body + Cl
    C("marker-like text", "TOOLCALLING.batch.3", "a < b, %s is not %s and %s ends <" % (O[:-1], O[:-1] + "s>", Cl[:-2]),
      content="a < b, %s is not %s and %s ends <" % (O[:-1], O[:-1] + "s>", Cl[:-2]))
    # batch.4
    C("garbage body", "TOOLCALLING.batch.4.a", B("this is not json"))
    C("garbage body between text", "TOOLCALLING.batch.4.a", "A " + B('{{{[[["\x00') + " B", content="A  B")
    C("invalid JSON syntax in a well-formed wrapper", "TOOLCALLING.batch.4.b", B('[{"name": "get_weather", "arguments": {"location": "Boston",}}]'), abandoned=1)
    C("missing name key", "TOOLCALLING.batch.4.c", B('[{"arguments": {"a": 1}}]'))
    C("name is not a string", "TOOLCALLING.batch.4.c", B('[{"name": 42, "arguments": {}}]'))
    C("arguments is an array", "TOOLCALLING.batch.4.c", B('[{"name": "a", "arguments": [1, 2]}]'), abandoned=1)
    C("elements that are not calls are skipped", "TOOLCALLING.batch.4.c", B('[1, "x", {"arguments": {}}, {"name": "a", "arguments": {}}, null]'), calls=[("a", {})],
      ref="PARSER_CASES.md: malformed elements are skipped")
    C("unclosed array before the closer", "TOOLCALLING.batch.4.d", B('[{"name": "a", "arguments": {"x": 1}}'), calls=[("a", {"x": 1})],
      ref="the element closed, so its call is complete; the closer inside the unclosed array is a syntax error that drops the rest of the block")
    C("unclosed object before the closer", "TOOLCALLING.batch.4.d", B('[{"name": "a", "arguments": {"x": 1}]'), abandoned=1)
    C("trailing garbage after the body is content", "TOOLCALLING.batch.4.d", B('[{"name": "a", "arguments": {}}]]'), content="]", calls=[("a", {})])
    C("bad fragment followed by a valid call", "TOOLCALLING.batch.4.e",
      B('[{"name": "a", "arguments": oops}]') + "\n" + B('[{"name": "b", "arguments": {"ok": true}}]'), calls=[("b", {"ok": True})], abandoned=1)
    C("broken block resynchronises at the next opener", "TOOLCALLING.batch.4.e",
      O + '[{"name": "a" oops ' + B('[{"name": "b", "arguments": {}}]'), calls=[("b", {})], abandoned=1)
    # batch.5
    C("open fence, close absent, body complete", "TOOLCALLING.batch.5.a", O + '[{"name": "a", "arguments": {"x": 1}}]\n', calls=[("a", {"x": 1})])
    C("EOS inside the closer", "TOOLCALLING.batch.5.a", O + '[{"name": "a", "arguments": {}}]\n' + Cl[:-3], calls=[("a", {})], content="\n" + Cl[:-3],
      ref="a held marker prefix at Finish is text; the whitespace before it is released with it")
    C("close present, open absent", "TOOLCALLING.batch.5.b", "Sure." + Cl + " More text", content="Sure. More text",
      ref="PARSER_CASES.md: orphan closers are markup")
    if bare_start:
        C("body without opener at the start is a bare call, closer removed", "TOOLCALLING.batch.5.b", '[{"name": "a", "arguments": {}}]' + Cl, calls=[("a", {})],
          ref="default accepts bare JSON at the start of the output; the orphan closer after it is markup")
        C("body without opener after text keeps its text, closer removed", "TOOLCALLING.batch.5.b", 'x [{"name": "a", "arguments": {}}]' + Cl,
          content='x [{"name": "a", "arguments": {}}]', allow_markup=True, ref="allow_markup: '[' is the start-of-output opener")
    else:
        C("body without opener keeps its text, closer removed", "TOOLCALLING.batch.5.b", '[{"name": "a", "arguments": {}}]' + Cl, content='[{"name": "a", "arguments": {}}]')
    C("EOS inside the arguments", "TOOLCALLING.batch.5.c", O + '[{"name": "get_weather", "arguments": {"location": "Bos', abandoned=1)
    C("EOS inside the name", "TOOLCALLING.batch.5.c", O + '[{"name": "get_we')
    C("EOS right after the opener", "TOOLCALLING.batch.5.c", "Let me check." + O, content="Let me check.")
    C("prose then a truncated call", "TOOLCALLING.batch.5.c", "Let me check.\n" + O + '[{"name": "a", "argu', content="Let me check.\n", abandoned=1)
    C("unclosed array, last element complete", "TOOLCALLING.batch.5.d", O + '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"y": 2}}',
      calls=[("a", {}), ("b", {"y": 2})], ref="PARSER_CASES.md: every element whose object closed is recovered")
    C("second block complete but unclosed", "TOOLCALLING.batch.5.d", B('[{"name": "a", "arguments": {}}]') + "\n" + O + '[{"name": "b", "arguments": {"y": 2}}]',
      calls=[("a", {}), ("b", {"y": 2})], ref="Dynamo mid version drops b; vLLM/SGLang recover it")
    C("array truncated inside the second element", "TOOLCALLING.batch.5.e", O + '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"y": "tru',
      calls=[("a", {})], abandoned=1)
    # batch.6.c
    C("no arguments key", "TOOLCALLING.batch.6.c", B('[{"name": "get_time"}]'), calls=[("get_time", {})], ref="PARSER_CASES.md: a missing arguments key means {}")
    C("empty array body", "TOOLCALLING.batch.9.c", B("[]"))
    C("closer and opener inside a string", "TOOLCALLING.batch.30.c", B('[{"name": "f", "arguments": {"text": "%s%s[{\\"name\\": \\"evil\\"}]"}}]' % (Cl, O)),
      calls=[("f", {"text": Cl + O + '[{"name": "evil"}]'})], ref="PARSER_CASES.md string-aware scanning")
    C("reasoning markers inside arguments are text", "TOOLCALLING.batch.30.c", B('[{"name": "f", "arguments": {"t": "<think>x</think>"}}]'), calls=[("f", {"t": "<think>x</think>"})])
    C("marker split mid-token", "TOOLCALLING.stream.3", "Hello " + B('[{"name": "a", "arguments": {}}]'),
      chunks=["Hello " + O[:2], O[2:] + '[{"name": "a", "arguments": {}}]' + Cl[:4], Cl[4:]], content="Hello ", calls=[("a", {})])
    C("complete arguments, no end marker, finish", "TOOLCALLING.stream.4.a", O + '[{"name": "a", "arguments": {"k": [1]}}]', calls=[("a", {"k": [1]})])
    C("truncated mid-body at finish", "TOOLCALLING.stream.4.b", O + '[{"name": "a", "arguments": {"k": [1', abandoned=1)
    if bare_start:
        C("inner body without wrapper, repeated closers", "TOOLCALLING.stream.4.c", '[{"name": "a", "arguments": {}}]' + Cl + Cl + "\n" + Cl, calls=[("a", {})],
          ref="a bare body at the start is a call in default; the closers after it are markup")
    else:
        C("inner body without wrapper, repeated closers", "TOOLCALLING.stream.4.c", '[{"name": "a", "arguments": {}}]' + Cl + Cl + "\n" + Cl,
          content='[{"name": "a", "arguments": {}}]\n')
    C("closer spam after a call", "TOOLCALLING.stream.4.c", B('[{"name": "a", "arguments": {}}]') + Cl + "\n" + Cl, calls=[("a", {})])
    C("empty function name is not a call", "TOOLCALLING.fmt.1", B('[{"name": "", "arguments": {"x": 1}}, {"name": "ok", "arguments": {}}]'), calls=[("ok", {})])
    C("escaped name", "TOOLCALLING.fmt.1", B(r'[{"name": "a\"b\u00e9", "arguments": {}}]'), calls=[('a"bé', {})])
    C("whitespace inside and around the body", "TOOLCALLING.fmt.2", O + ' \n\t[ { "name" : "a" , "arguments" : { "x" : 1 } } ,\n{"name":"b","arguments":{}} ]  \n ' + Cl,
      calls=[("a", {"x": 1}), ("b", {})])
    C("a bare call object instead of an array", "TOOLCALLING.fmt.3", B('{"name": "a", "arguments": {"x": 1}}'), calls=[("a", {"x": 1})],
      ref="PARSER_CASES.md: an object is accepted where an array of calls is (Dynamo tries both shapes)")
    C("empty wrapper", "TOOLCALLING.fmt.4", "Before " + B("") + " after", content="Before  after")
    C("empty wrapper with whitespace", "TOOLCALLING.fmt.4", B("\n\n"))
    C("arguments before name (held until the name)", "TOOLCALLING.fmt.5", B('[{"arguments": {"name": "inner", "n": [1, {"a": "b"}]}, "name": "outer"}]'),
      calls=[("outer", {"name": "inner", "n": [1, {"a": "b"}]})])
    C("parameters instead of arguments", "TOOLCALLING.fmt.5", B('[{"name": "a", "parameters": {"x": 1}}, {"parameters": {"y": 2}, "name": "b"}]'), calls=[("a", {"x": 1}), ("b", {"y": 2})])
    C("extra keys are ignored", "TOOLCALLING.fmt.5", B('[{"type": "function", "name": "a", "id": "x", "arguments": {"x": 1}, "extra": [1, {"name": "no"}]}]'), calls=[("a", {"x": 1})],
      ref="no native ids in this grammar: an \"id\" key is an ignored extra key")
    C("arguments as a JSON string are unwrapped", "TOOLCALLING.fmt.5", B(r'[{"name": "a", "arguments": "{\"x\": 1, \"s\": \"q\\\"\"}"}]'), calls=[("a", {"x": 1, "s": "q\""})],
      ref="PARSER_CASES.md")
    C("string arguments that are not an object", "TOOLCALLING.fmt.5", B('[{"name": "a", "arguments": "hello"}]'), abandoned=1)
    C("repeated arguments key: the first wins", "TOOLCALLING.fmt.5", B('[{"name": "a", "arguments": {"x": 1}, "arguments": {"x": 2}}]'), calls=[("a", {"x": 1})])
    C("arguments before name beyond the buffer limit", "TOOLCALLING.batch.4.c", B('[{"arguments": {"big": "%s"}, "name": "a"}]' % ("x" * 64)), options={"max_call_buffer": 32},
      ref="PARSER_CASES.md: past the limit the call is abandoned, nothing of it released")
    C("streamed arguments are not limited", "TOOLCALLING.batch.7.e", B('[{"name": "a", "arguments": {"big": "%s"}}]' % ("x" * 64)), options={"max_call_buffer": 32},
      calls=[("a", {"big": "x" * 64})])
    if extra:
        extra(fx, f)
    na = dict(JSON_NA)
    na["TOOLCALLING.fmt.5.1"] = name + " carries no native call id"
    fx.dump(os.path.join(out, name, name + ".json"), family=name, description=desc, tool_parsers=aliases, not_applicable=na)


def nemotron_extra(fx, f):
    C = fx.C
    call = '<TOOLCALL>[{"name": "get_weather", "arguments": {"location": "Tokyo", "unit": "celsius"}}]</TOOLCALL>'
    C("reasoning then a call", "TOOLCALLING.batch.8.a", "<think>\nThe user wants the weather.\n</think>\n\n" + call, reasoning="\nThe user wants the weather.\n",
      content="\n\n", calls=[("get_weather", {"location": "Tokyo", "unit": "celsius"})], reasoning_parser="nemotron_deci",
      ref="the shape of the vLLM Llama-3.3-Nemotron-Super-49B capture (captures/nemotron_deci.json)")
    C("a call inside reasoning is reasoning text", "TOOLCALLING.batch.8.a", "<think>maybe " + call + "</think>ok", reasoning="maybe " + call, content="ok",
      reasoning_parser="nemotron_deci", allow_markup=True, ref="nemotron_deci reasoning has no tool-start tokens")


wrapped("nemotron_deci", "<TOOLCALL>", "</TOOLCALL>", ["nemotron_deci"],
        "JSON array in <TOOLCALL> wrapper tags: Llama-Nemotron (Deci)", nemotron_extra)
wrapped("jamba", "<tool_calls>", "</tool_calls>", ["jamba"], "JSON array in <tool_calls> wrapper tags: AI21 Jamba")


# ---------------------------------------------------------------- default

def default_extra(fx, f):
    C = fx.C
    TAG = "<|python_tag|>"
    C("python_tag form", "TOOLCALLING.fmt.3", "Both:" + TAG + '{"name": "a", "parameters": {"x": 1}}', content="Both:", calls=[("a", {"x": 1})],
      ref="PARSER_CASES.md: default's second start token; Dynamo keeps the text before it")
    C("python_tag with an array", "TOOLCALLING.fmt.3", TAG + '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {}}]', calls=[("a", {}), ("b", {})])
    C("python_tag calls separated by ';'", "TOOLCALLING.fmt.3", TAG + '{"name": "a", "parameters": {}};{"name": "b", "parameters": {"k": "v"}}', calls=[("a", {}), ("b", {"k": "v"})])
    C("bare call object at the start", "TOOLCALLING.fmt.3", ' \n{"name": "a", "arguments": {"x": 1}}', content=" \n", calls=[("a", {"x": 1})],
      ref="PARSER_CASES.md library rule: bare JSON counts at the start of the output (after whitespace)")
    C("bare array of calls at the start", "TOOLCALLING.fmt.3", '[{"name": "a", "arguments": {}}]', calls=[("a", {})])
    C("JSON in prose is content", "TOOLCALLING.batch.3", 'Use {"name": "a", "arguments": {}} like this.', content='Use {"name": "a", "arguments": {}} like this.', allow_markup=True,
      ref="PARSER_CASES.md library rule (Dynamo slices from the first '{' anywhere and makes this a call); allow_markup: '{' is the start-of-output opener")
    C("bare JSON without the call shape is content", "TOOLCALLING.batch.3", '{"answer": 42, "items": [1, 2]}', content='{"answer": 42, "items": [1, 2]}', allow_markup=True,
      ref="PARSER_CASES.md library rule: only with the call shape")
    C("bare object without an arguments key is content", "TOOLCALLING.batch.3", '{"name": "Bob", "age": 7}', content='{"name": "Bob", "age": 7}', allow_markup=True,
      ref="decision: bare (untagged) JSON needs an arguments/parameters key to be a call (as vLLM's llama3_json requires)")
    C("bare JSON array answer is content", "TOOLCALLING.batch.3", '[1, 2, 3] are the numbers', content='[1, 2, 3] are the numbers', allow_markup=True)
    C("python_tag then non-JSON is content", "TOOLCALLING.batch.4.a", TAG + 'brave_search.call(query="x")', content='brave_search.call(query="x")',
      ref="PARSER_CASES.md library rule: content with the tag removed")
    C("python_tag then JSON that is not a call is markup", "TOOLCALLING.batch.4.c", "A " + TAG + '{"answer": 42} B', content="A  B",
      ref="PARSER_CASES.md")
    C("python_tag body truncated", "TOOLCALLING.batch.5.c", "x " + TAG + '{"name": "a", "parameters": {"q": "hal', content="x ", abandoned=1)
    C("bare call truncated before the arguments is content", "TOOLCALLING.batch.5.c", '{"name": "a", "argu', content='{"name": "a", "argu', allow_markup=True,
      ref="an undecided bare object at the end is content: it never had the call shape")
    C("mixed start tokens", "TOOLCALLING.batch.2.a", '<TOOLCALL>[{"name": "a", "arguments": {}}]</TOOLCALL>\n' + TAG + '{"name": "b", "arguments": {}}', calls=[("a", {}), ("b", {})])


wrapped("default", "<TOOLCALL>", "</TOOLCALL>", ["default"],
        "Dynamo's default JSON parser: <TOOLCALL>[…]</TOOLCALL>, <|python_tag|>{…}, or bare JSON at the start of the output", default_extra, bare_start=True)


# ---------------------------------------------------------------- llama3_json

def llama3():
    fx = Fx(); C = fx.C
    TAG = "<|python_tag|>"
    f = Family("llama3_json")
    f.calls = lambda cs, after=False: (TAG if after else "") + "; ".join(obj(n, a, "parameters") for n, a in cs)
    matrix(fx, f)
    P = lambda n, a: obj(n, a, "parameters")
    C("marker-like text", "TOOLCALLING.batch.3", "a <|python_ is not <|python_tags|>; <| ends <", content="a <|python_ is not <|python_tags|>; <| ends <")
    C("JSON in prose is content", "TOOLCALLING.batch.3", 'Use {"name": "a", "parameters": {}} like this.', content='Use {"name": "a", "parameters": {}} like this.', allow_markup=True,
      ref="a call object counts only at the start of the output; allow_markup: '{' is the start-of-output opener")
    # library rules of §6.2
    C("a JSON answer is delayed, never corrupted", "TOOLCALLING.batch.3", '{"answer": 42, "items": [1, {"name": "x"}]}\nThat is all.',
      content='{"answer": 42, "items": [1, {"name": "x"}]}\nThat is all.', allow_markup=True,
      ref="PARSER_CASES.md: a leading '{' is held until the object closes and released as content without the call shape")
    C("bare object without a parameters key is content", "TOOLCALLING.batch.3", '{"name": "Bob", "age": 7}', content='{"name": "Bob", "age": 7}', allow_markup=True,
      ref="decision: bare JSON needs an arguments/parameters key to be a call (vLLM requires one); after <|python_tag|> a missing key means {}")
    C("bare object with non-object parameters is content", "TOOLCALLING.batch.3", '{"name": "Bob", "parameters": "tall"}', content='{"name": "Bob", "parameters": "tall"}', allow_markup=True)
    C("bare JSON array answer is content", "TOOLCALLING.batch.3", '[1, 2, 3] are the numbers', content='[1, 2, 3] are the numbers', allow_markup=True)
    C("markdown link at the start is content", "TOOLCALLING.batch.3", '[docs](https://x.y) and {braces}', content='[docs](https://x.y) and {braces}', allow_markup=True)
    C("bare object that breaks before the call shape is content", "TOOLCALLING.batch.4.a", '{"name": "a" oops}', content='{"name": "a" oops}', allow_markup=True)
    C("held bare object beyond the limit is content", "TOOLCALLING.batch.3", '{"name": "a", "x": "%s", "parameters": {}}' % ("y" * 40),
      content='{"name": "a", "x": "%s", "parameters": {}}' % ("y" * 40), options={"max_call_buffer": 32}, allow_markup=True,
      ref="PARSER_CASES.md: the hold is bounded by the per-call limit, then released as content")
    C("the limit never cuts a character of released content", "TOOLCALLING.batch.3", '{"0000世界0🎉 x"}', content='{"0000世界0🎉 x"}', options={"max_call_buffer": 16},
      allow_markup=True, ref="fuzz regression (FuzzLlama3JSON): the 16-byte limit falls inside 🎉; its first bytes go back to the text state")
    C("python_tag then non-JSON is content", "TOOLCALLING.batch.4.a", "Searching: " + TAG + 'brave_search.call(query="weather")', content='Searching: brave_search.call(query="weather")',
      ref="PARSER_CASES.md library rule: content with the tag removed (Dynamo returns nothing)")
    C("python_tag then whitespace and non-JSON keeps the whitespace", "TOOLCALLING.batch.4.a", TAG + ' \nwolfram_alpha.call(query="2+2")', content=' \nwolfram_alpha.call(query="2+2")')
    C("python_tag then JSON that is not a call is markup", "TOOLCALLING.batch.4.c", "A " + TAG + '{"answer": 42} B', content="A  B", ref="PARSER_CASES.md")
    C("python_tag then a JSON array that is not calls is markup", "TOOLCALLING.batch.4.c", TAG + '[1, 2]', ref="PARSER_CASES.md")
    C("python_tag body with invalid syntax", "TOOLCALLING.batch.4.b", TAG + '{"name": "get_weather", "parameters": {"location": "Boston",}} and more', abandoned=1,
      ref="decision: a broken tagged body abandons its call and is dropped up to the next <|python_tag|> or the end (there is no closer)")
    C("python_tag name not a string", "TOOLCALLING.batch.4.c", TAG + '{"name": 42, "parameters": {}}')
    C("python_tag parameters is an array", "TOOLCALLING.batch.4.c", TAG + '{"name": "a", "parameters": [1]}', abandoned=1)
    C("broken body resynchronises at the next tag", "TOOLCALLING.batch.4.e", TAG + '{"name": "a", "parameters": oops} ' + TAG + P("b", '{"ok": true}'), calls=[("b", {"ok": True})], abandoned=1)
    C("non-call after a call is content", "TOOLCALLING.batch.4.e", P("a", "{}") + '; {"answer": 1}', content='; {"answer": 1}', calls=[("a", {})], allow_markup=True,
      ref="decision: objects after a call (after ';' or whitespace) are calls only with the call shape, else content with the separator")
    C("trailing garbage after a call is content", "TOOLCALLING.batch.4.d", P("a", "{}") + "}", content="}", calls=[("a", {})])
    # batch.5 (no closer: the end of a call is its object's close)
    C("tagged call at the end", "TOOLCALLING.batch.5.a", TAG + P("a", '{"x": 1}'), calls=[("a", {"x": 1})], ref="no closer in this grammar: a closed object is complete")
    C("call object after text without the tag is content", "TOOLCALLING.batch.5.b", "Here: " + P("a", "{}"), content="Here: " + P("a", "{}"), allow_markup=True,
      ref="no opener: an untagged object counts only at the start of the output")
    C("EOS inside the parameters", "TOOLCALLING.batch.5.c", P("get_weather", '{"location": "Bos'), abandoned=1,
      ref="the call committed when its parameters began; cut by the end it is abandoned")
    C("EOS inside the name of a bare object", "TOOLCALLING.batch.5.c", '{"name": "get_we', content='{"name": "get_we', allow_markup=True,
      ref="undecided bare JSON at the end is content")
    C("EOS right after the tag", "TOOLCALLING.batch.5.c", "Let me check." + TAG, content="Let me check.")
    C("prose then a truncated tagged call", "TOOLCALLING.batch.5.c", "Let me check.\n" + TAG + '{"name": "a", "param', content="Let me check.\n", abandoned=1)
    C("last call complete at the end", "TOOLCALLING.batch.5.d", P("a", "{}") + ";" + P("b", '{"y": 2}'), calls=[("a", {}), ("b", {"y": 2})])
    C("last call truncated inside a value", "TOOLCALLING.batch.5.e", P("a", "{}") + "; " + P("b", '{"y": "tru'), calls=[("a", {})], abandoned=1)
    C("no parameters key after the tag", "TOOLCALLING.batch.6.c", TAG + '{"name": "get_time"}', calls=[("get_time", {})], ref="PARSER_CASES.md: a missing arguments key means {}")
    C("empty array after the tag", "TOOLCALLING.batch.9.c", TAG + "[]")
    C("tag and separator inside a string", "TOOLCALLING.batch.30.c", P("f", '{"text": "<|python_tag|>{\\"name\\": \\"evil\\", \\"parameters\\": {}}; x"}'),
      calls=[("f", {"text": "<|python_tag|>{\"name\": \"evil\", \"parameters\": {}}; x"})])
    C("tag split mid-token", "TOOLCALLING.stream.3", "Hello " + TAG + P("a", "{}"), chunks=["Hello <|py", "thon_t", "ag|>" + P("a", "{}")], content="Hello ", calls=[("a", {})])
    C("complete object at finish", "TOOLCALLING.stream.4.a", P("a", '{"k": [1]}'), calls=[("a", {"k": [1]})])
    C("truncated mid-body at finish", "TOOLCALLING.stream.4.b", TAG + P("a", '{"k": [1'), abandoned=1)
    C("tags after a call", "TOOLCALLING.stream.4.c", P("a", "{}") + TAG + TAG + "\n", calls=[("a", {})], content="\n",
      ref="llama3_json has no closer; repeated tags with no JSON after them are removed, the text after the last one is content")
    C("empty function name is not a call", "TOOLCALLING.fmt.1", TAG + '[{"name": "", "parameters": {"x": 1}}, {"name": "ok", "parameters": {}}]', calls=[("ok", {})])
    C("whitespace around the tag, the separator and inside", "TOOLCALLING.fmt.2", " \n" + TAG + ' \n{ "name" : "a" , "parameters" : { "x" : 1 } }\n ;\n\n{"name":"b","parameters":{}}',
      content=" \n", calls=[("a", {"x": 1}), ("b", {})])
    C("calls separated by whitespace only", "TOOLCALLING.fmt.2", P("a", "{}") + "\n" + P("b", "{}"), calls=[("a", {}), ("b", {})],
      ref="PARSER_CASES.md: whitespace/newlines alone between objects are accepted")
    C("with and without the tag", "TOOLCALLING.fmt.3", TAG + P("a", '{"x": 1}') + ";" + P("b", '{"y": 2}'), calls=[("a", {"x": 1}), ("b", {"y": 2})],
      ref="CASES.md fmt.3: Llama 3 with/without <|python_tag|> (the shared matrix runs the untagged form)")
    C("arguments instead of parameters", "TOOLCALLING.fmt.3", obj("a", '{"x": 1}'), calls=[("a", {"x": 1})])
    C("empty tag", "TOOLCALLING.fmt.4", "Before " + TAG + " after", content="Before  after", ref="non-JSON after the tag is content (here \" after\")")
    C("parameters before name (held until the name)", "TOOLCALLING.fmt.5", '{"parameters": {"name": "inner", "n": [1]}, "name": "outer"}', calls=[("outer", {"name": "inner", "n": [1]})])
    C("parameters as a JSON string are unwrapped", "TOOLCALLING.fmt.5", r'{"name": "a", "parameters": "{\"x\": 1}"}', calls=[("a", {"x": 1})])
    C("extra keys are ignored", "TOOLCALLING.fmt.5", '{"type": "function", "name": "a", "id": "x", "parameters": {"x": 1}}', calls=[("a", {"x": 1})])
    C("repeated parameters key: the first wins", "TOOLCALLING.fmt.5", '{"name": "a", "parameters": {"x": 1}, "arguments": {"x": 2}}', calls=[("a", {"x": 1})])
    C("';' after the last call is dropped", "TOOLCALLING.batch.9.b", P("a", "{}") + ";\n", calls=[("a", {})])
    C("';' then text after a call is content", "TOOLCALLING.batch.8.b", P("a", "{}") + "; done", content="; done", calls=[("a", {})])
    C("tag after whitespace after a call", "TOOLCALLING.batch.2.a", P("a", "{}") + "\n\n" + TAG + P("b", "{}"), calls=[("a", {}), ("b", {})])
    C("parameters before name beyond the buffer limit", "TOOLCALLING.batch.4.c", TAG + '{"parameters": {"big": "%s"}, "name": "a"}' % ("x" * 64), options={"max_call_buffer": 32},
      ref="PARSER_CASES.md: past the limit the call is abandoned, nothing of it released")
    C("streamed parameters are not limited", "TOOLCALLING.batch.7.e", '{"name": "a", "parameters": {"big": "%s"}}' % ("x" * 64), options={"max_call_buffer": 32},
      calls=[("a", {"big": "x" * 64})], ref="the bare call commits at its parameters, within the limit; streamed bytes are not held")
    C("reasoning then a bare call", "TOOLCALLING.batch.8.a", "<think>r</think>\n" + P("a", "{}"), reasoning="r", content="\n", calls=[("a", {})], reasoning_parser="basic",
      ref="the start of the output is judged on content: reasoning before the call does not end it")
    na = dict(JSON_NA)
    na["TOOLCALLING.fmt.5.1"] = "llama3_json carries no native call id"
    fx.dump(os.path.join(out, "llama3_json", "llama3_json.json"), family="llama3_json",
            description="Llama 3.x/4 JSON calls: optional <|python_tag|>, ';'-separated objects, bare JSON only at the start",
            tool_parsers=["llama3_json", "llama4_json", "llama3"], not_applicable=na)


llama3()


# ---------------------------------------------------------------- mistral

def mistral():
    fx = Fx(); C = fx.C
    T = "[TOOL_CALLS]"
    f = Family("mistral")
    f.calls = lambda cs, after=False: "".join(T + n + "[ARGS]" + a for n, a in cs)
    matrix(fx, f)
    V = lambda n, a: T + n + "[ARGS]" + a
    C("marker-like text", "TOOLCALLING.batch.3", "a [TOOL_CALL] is not [TOOL_CALLS and [ARG or [/TOOL_ [", content="a [TOOL_CALL] is not [TOOL_CALLS and [ARG or [/TOOL_ [")
    # wire forms (fmt.3 is required for mistral, PARSER_CASES.md)
    C("v11 with [CALL_ID]", "TOOLCALLING.fmt.3", T + 'get_weather[CALL_ID]abcDEF123[ARGS]{"city": "Zürich"}', calls=[("get_weather", {"city": "Zürich"})],
      ref="PARSER_CASES.md (Mistral-Small-3.2); the model's id is kept verbatim")
    fx.cases[-1]["expected"]["calls"][0]["id"] = "abcDEF123"
    C("v13+ name[ARGS]", "TOOLCALLING.fmt.3", T + 'get_weather[ARGS]{"city": "Zürich"}', calls=[("get_weather", {"city": "Zürich"})], ref="PARSER_CASES.md")
    C("v11+ text without [ARGS]", "TOOLCALLING.fmt.3", T + 'get_weather{"city": "Zürich"}', calls=[("get_weather", {"city": "Zürich"})],
      ref="PARSER_CASES.md: the form Dynamo lists as its production gap")
    C("pre-v11 array", "TOOLCALLING.fmt.3", T + ' [{"name": "get_weather", "arguments": {"city": "Zürich"}, "id": "abcDEF123"}]', calls=[("get_weather", {"city": "Zürich"})],
      ref="PARSER_CASES.md sample (Mistral Nemo); the element's id is the model's id")
    fx.cases[-1]["expected"]["calls"][0]["id"] = "abcDEF123"
    C("pre-v11 array with the closing tag", "TOOLCALLING.fmt.3", T + '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"k": 1}}][/TOOL_CALLS]', calls=[("a", {}), ("b", {"k": 1})])
    C("forms mixed in one output", "TOOLCALLING.fmt.3",
      T + 'a[CALL_ID]x1[ARGS]{}' + T + 'b[ARGS]{"k": 1}' + T + 'c{"k": 2}' + T + '[{"name": "d", "arguments": {"k": 3}, "id": "x4"}]',
      calls=[("a", {}), ("b", {"k": 1}), ("c", {"k": 2}), ("d", {"k": 3})], ref="PARSER_CASES.md: production traffic mixes them")
    fx.cases[-1]["expected"]["calls"][0]["id"] = "x1"
    fx.cases[-1]["expected"]["calls"][3]["id"] = "x4"
    C("EOS token after the last call is markup", "TOOLCALLING.fmt.3", V("a", '{"x": 1}') + "</s>", calls=[("a", {"x": 1})],
      ref="PARSER_CASES.md: output = [text] 1*call [\"</s>\"]; right after a call it is markup")
    C("pre-v11 closing tag then EOS token", "TOOLCALLING.fmt.3", T + '[{"name": "a", "arguments": {}}][/TOOL_CALLS]</s>', calls=[("a", {})])
    C("EOS token elsewhere is text", "TOOLCALLING.batch.3", "Use <s>old</s> new. </s", content="Use <s>old</s> new. </s",
      ref="</s> is markup only right after a call (strike-through HTML in content stays)")
    C("EOS token after text after a call is text", "TOOLCALLING.batch.8.b", V("a", "{}") + " done</s>", content=" done</s>", calls=[("a", {})])
    C("pre-v11 single object", "TOOLCALLING.fmt.3", T + '{"name": "a", "arguments": {"x": 1}}', calls=[("a", {"x": 1})],
      ref="PARSER_CASES.md: an object is accepted where an array of calls is")
    # ids (fmt.5.1)
    C("v11 ids per call", "TOOLCALLING.fmt.5", T + 'a[CALL_ID]AAAAAAAA1[ARGS]{}' + T + 'b[CALL_ID]BBBBBBBB2[ARGS]{}', calls=[("a", {}), ("b", {})])
    fx.cases[-1]["expected"]["calls"][0]["id"] = "AAAAAAAA1"
    fx.cases[-1]["expected"]["calls"][1]["id"] = "BBBBBBBB2"
    C("pre-v11 id before, after and without", "TOOLCALLING.fmt.5",
      T + '[{"id": "first0001", "name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {"y": 2}, "id": "second002"}, {"name": "c", "arguments": {}}]',
      calls=[("a", {"x": 1}), ("b", {"y": 2}), ("c", {})], ref="the start waits for an id written after the arguments (decision, bounded by 1 KiB of arguments); without one an id is minted")
    fx.cases[-1]["expected"]["calls"][0]["id"] = "first0001"
    fx.cases[-1]["expected"]["calls"][1]["id"] = "second002"
    pad = "p" * 1100
    C("pre-v11 id after long arguments is not waited for", "TOOLCALLING.fmt.5", T + '[{"name": "w", "arguments": {"s": "%s"}, "id": "late00001"}]' % pad, calls=[("w", {"s": pad})],
      ref="decision: past 1 KiB of held arguments the call starts with a minted id and streams on; the late id is ignored")
    C("pre-v11 id that is not a string is ignored", "TOOLCALLING.fmt.5", T + '[{"name": "a", "arguments": {}, "id": 7}]', calls=[("a", {})])
    C("empty [CALL_ID] mints an id", "TOOLCALLING.fmt.5", T + 'a[CALL_ID][ARGS]{}', calls=[("a", {})])
    C("[CALL_ID] without [ARGS]", "TOOLCALLING.fmt.5", T + 'a[CALL_ID]id0000001{"x": 1}', calls=[("a", {"x": 1})])
    fx.cases[-1]["expected"]["calls"][0]["id"] = "id0000001"
    C("pre-v11 arguments before name", "TOOLCALLING.fmt.5", T + '[{"arguments": {"name": "inner"}, "name": "outer", "id": "o00000001"}]', calls=[("outer", {"name": "inner"})])
    fx.cases[-1]["expected"]["calls"][0]["id"] = "o00000001"
    C("pre-v11 parameters and string arguments", "TOOLCALLING.fmt.5", T + r'[{"name": "a", "parameters": {"x": 1}}, {"name": "b", "arguments": "{\"y\": 2}"}]', calls=[("a", {"x": 1}), ("b", {"y": 2})])
    # batch.4
    C("garbage after the opener", "TOOLCALLING.batch.4.a", "A " + T + "[[[{{{\x00 B", content="A ",
      ref="decision: a broken call is dropped up to the next [TOOL_CALLS] or the end (there is no closer)")
    C("prose after the opener is not a name", "TOOLCALLING.batch.4.a", "x" + T + "hello world, no call", content="x",
      ref="a name with whitespace inside is malformed: dropped to the next [TOOL_CALLS] or the end")
    C("invalid JSON syntax in the arguments", "TOOLCALLING.batch.4.b", V("get_weather", '{"location": "Boston",}'), abandoned=1)
    C("invalid pre-v11 syntax", "TOOLCALLING.batch.4.b", T + '[{"name": "a", "arguments": {"x": 1,}}]', content="")
    C("[ARGS] not followed by an object", "TOOLCALLING.batch.4.c", V("a", '[1, 2]'), abandoned=1)
    C("string arguments in v11 form are malformed", "TOOLCALLING.batch.4.c", V("a", '"{}"'), abandoned=1)
    C("empty name is not a call", "TOOLCALLING.batch.4.c", T + '[ARGS]{"x": 1}')
    C("pre-v11 element without a name", "TOOLCALLING.batch.4.c", T + '[{"arguments": {}}, {"name": "b", "arguments": {}}]', calls=[("b", {})])
    C("broken call resynchronises at the next opener", "TOOLCALLING.batch.4.e", V("a", '{"x": oops}') + " junk " + V("b", '{"ok": true}'), calls=[("b", {"ok": True})], abandoned=1)
    C("name cut by a new opener", "TOOLCALLING.batch.4.e", T + "get_wea" + V("b", "{}"), calls=[("b", {})])
    C("trailing garbage after the arguments is content", "TOOLCALLING.batch.4.d", V("a", "{}") + "}", content="}", calls=[("a", {})])
    C("pre-v11 unclosed array then [/TOOL_CALLS]", "TOOLCALLING.batch.4.d", T + '[{"name": "a", "arguments": {}}[/TOOL_CALLS]', calls=[("a", {})],
      ref="the element closed; the closing tag inside the unclosed array is a syntax error that drops the rest")
    # batch.5
    C("v11 call at the end", "TOOLCALLING.batch.5.a", V("a", '{"x": 1}'), calls=[("a", {"x": 1})], ref="no closer in the v11+ forms: the object's close ends the call")
    C("pre-v11 without [/TOOL_CALLS]", "TOOLCALLING.batch.5.a", T + '[{"name": "a", "arguments": {"x": 1}}]', calls=[("a", {"x": 1})])
    C("orphan closers are removed", "TOOLCALLING.batch.5.b", "Sure.[/TOOL_CALLS] More [ARGS]text[CALL_ID]", content="Sure. More text",
      ref="PARSER_CASES.md: markers of the family met outside a call are markup")
    C("arguments without opener keep their text", "TOOLCALLING.batch.5.b", 'get_weather[ARGS]{"x": 1}', content='get_weather{"x": 1}')
    C("EOS inside the arguments", "TOOLCALLING.batch.5.c", V("get_weather", '{"location": "Bos'), abandoned=1)
    C("EOS inside the name", "TOOLCALLING.batch.5.c", "Hi" + T + "get_we", content="Hi", ref="a name cut by the end is dropped (markup)")
    C("EOS inside [CALL_ID]'s id", "TOOLCALLING.batch.5.c", T + "a[CALL_ID]abc", content="")
    C("EOS after [ARGS]", "TOOLCALLING.batch.5.c", T + "a[ARGS]  ", abandoned=1, ref="the call started at [ARGS]; no object came")
    C("EOS right after the opener", "TOOLCALLING.batch.5.c", "Let me check." + T, content="Let me check.")
    C("EOS inside a pre-v11 name", "TOOLCALLING.batch.5.c", T + '[{"name": "get_we')
    C("pre-v11 unclosed array, last element complete", "TOOLCALLING.batch.5.d", T + '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"y": 2}}', calls=[("a", {}), ("b", {"y": 2})])
    C("v11 last call complete at the end", "TOOLCALLING.batch.5.d", V("a", "{}") + V("b", '{"y": 2}'), calls=[("a", {}), ("b", {"y": 2})])
    C("pre-v11 truncated inside the second element", "TOOLCALLING.batch.5.e", T + '[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"y": "tru', calls=[("a", {})])
    C("v11 last call truncated inside a value", "TOOLCALLING.batch.5.e", V("a", "{}") + V("b", '{"y": "tru'), calls=[("a", {})], abandoned=1)
    C("no arguments key (pre-v11)", "TOOLCALLING.batch.6.c", T + '[{"name": "get_time"}]', calls=[("get_time", {})])
    C("empty pre-v11 array", "TOOLCALLING.batch.9.c", T + "[]")
    C("markers inside a string", "TOOLCALLING.batch.30.c", V("f", '{"t": "[TOOL_CALLS]x[ARGS]{} [/TOOL_CALLS] [CALL_ID]"}'), calls=[("f", {"t": "[TOOL_CALLS]x[ARGS]{} [/TOOL_CALLS] [CALL_ID]"})])
    C("pre-v11 separators inside strings", "TOOLCALLING.batch.31.a", T + r'[{"name": "a", "arguments": {"s": "}, {\"name\": \"x\""}}, {"name": "b", "arguments": {}}]',
      calls=[("a", {"s": "}, {\"name\": \"x\""}), ("b", {})])
    C("marker split mid-token", "TOOLCALLING.stream.3", "Hello " + V("a", "{}"), chunks=["Hello [TOOL", "_CALLS]a[AR", "GS]{}"], content="Hello ", calls=[("a", {})])
    C("[CALL_ID] split across chunks", "TOOLCALLING.stream.3", T + "a[CALL_ID]i0[ARGS]{}", chunks=[T + "a[CALL", "_ID]i0[", "ARGS]{}"], calls=[("a", {})])
    fx.cases[-1]["expected"]["calls"][0]["id"] = "i0"
    C("complete arguments at finish", "TOOLCALLING.stream.4.a", V("a", '{"k": [1]}'), calls=[("a", {"k": [1]})])
    C("truncated mid-body at finish", "TOOLCALLING.stream.4.b", V("a", '{"k": [1'), abandoned=1)
    C("inner body without opener, repeated closers", "TOOLCALLING.stream.4.c", '[{"name": "a", "arguments": {}}][/TOOL_CALLS][/TOOL_CALLS]\n[/TOOL_CALLS]',
      content='[{"name": "a", "arguments": {}}]\n')
    C("closer spam after a call", "TOOLCALLING.stream.4.c", T + '[{"name": "a", "arguments": {}}][/TOOL_CALLS]\n[/TOOL_CALLS]', calls=[("a", {})])
    C("escaped and empty pre-v11 names", "TOOLCALLING.fmt.1", T + r'[{"name": "a\"b", "arguments": {}}, {"name": "", "arguments": {}}]', calls=[('a"b', {})])
    C("name with brackets", "TOOLCALLING.fmt.1", V("ns[1]", "{}"), calls=[("ns[1]", {})])
    C("whitespace around name, id and arguments", "TOOLCALLING.fmt.2", T + " get_weather [CALL_ID] abc123XYZ [ARGS] \n" + '{ "city" : "Oslo" }' + " \n" + T + "b {}",
      calls=[("get_weather", {"city": "Oslo"}), ("b", {})], ref="PARSER_CASES.md: the name is trimmed; a space before [ARGS] occurs")
    fx.cases[-1]["expected"]["calls"][0]["id"] = "abc123XYZ"
    C("whitespace inside an id is malformed", "TOOLCALLING.fmt.2", T + "a[CALL_ID]ab cd[ARGS]{}")
    C("empty pre-v11 wrapper", "TOOLCALLING.fmt.4", "Before " + T + "[][/TOOL_CALLS] after", content="Before  after")
    C("parallel calls after reasoning", "TOOLCALLING.batch.2.c", "[THINK]two calls[/THINK]" + V("a", "{}") + V("b", "{}"), chunks=["[THINK]two calls[/THINK]", V("a", "{}") + V("b", "{}")],
      reasoning="two calls", calls=[("a", {}), ("b", {})], reasoning_parser="mistral", ref="PARSER_CASES.md: [THINK]…[/THINK] precedes the calls")
    C("tool-call markup inside reasoning is reasoning", "TOOLCALLING.batch.8.a", "[THINK]I could use " + V("a", "{}") + "[/THINK]ok", reasoning="I could use " + V("a", "{}"),
      content="ok", reasoning_parser="mistral", allow_markup=True)
    na = dict(JSON_NA)
    fx.dump(os.path.join(out, "mistral", "mistral.json"), family="mistral",
            description="Mistral: pre-v11 [TOOL_CALLS][…] and the v11+ name[CALL_ID]id[ARGS]{…} forms",
            tool_parsers=["mistral"], not_applicable=na)


mistral()


# ---------------------------------------------------------------- phi4

def phi4():
    fx = Fx(); C = fx.C
    F = "functools"
    f = Family("phi4")
    f.calls = lambda cs, after=False: F + "[" + ", ".join(obj(n, a) for n, a in cs) + "]"
    matrix(fx, f)
    B = lambda body: F + body
    C("greedy detection: funny joke", "TOOLCALLING.batch.3", "funny joke, fun times, functoo", content="funny joke, fun times, functoo",
      ref="PARSER_CASES.md: holding ends as soon as the text diverges")
    C("functools not followed by '[' is content", "TOOLCALLING.batch.3", "import functools\n\nfunctools.reduce(f, xs) and functools  ok", content="import functools\n\nfunctools.reduce(f, xs) and functools  ok",
      allow_markup=True, ref="PARSER_CASES.md library rule; PARSER_CASES.md divergence (Dynamo drops everything)")
    C("functools at the end is content", "TOOLCALLING.batch.3", "use functools \n", content="use functools \n", allow_markup=True, ref="PARSER_CASES.md library rule")
    C("garbage body", "TOOLCALLING.batch.4.a", "A " + B("[oops") + " B", content="A ",
      ref="decision: a broken array is dropped up to the next functools or the end (there is no closer)")
    C("invalid JSON syntax in the array", "TOOLCALLING.batch.4.b", B('[{"name": "get_weather", "arguments": {"location": "Boston",}}]'), abandoned=1)
    C("missing name key", "TOOLCALLING.batch.4.c", B('[{"arguments": {"a": 1}}]'))
    C("arguments is a number", "TOOLCALLING.batch.4.c", B('[{"name": "a", "arguments": 7}]'), abandoned=1)
    C("elements that are not calls are skipped", "TOOLCALLING.batch.4.c", B('[0, {"name": "a", "arguments": {}}]'), calls=[("a", {})])
    C("functools[ with a non-call list is markup", "TOOLCALLING.batch.4.c", "x = functools[0] + 1", content="x =  + 1",
      ref="PARSER_CASES.md: a complete body that is not a call is markup (functools followed by '[' opens a block)")
    C("an object instead of the array is content", "TOOLCALLING.batch.4.d", B('{"name": "a", "arguments": {}}'), content=B('{"name": "a", "arguments": {}}'), allow_markup=True,
      ref="PARSER_CASES.md library rule: functools opens a block only before '['")
    C("trailing garbage after the array is content", "TOOLCALLING.batch.4.d", B('[{"name": "a", "arguments": {}}]]'), content="]", calls=[("a", {})])
    C("broken array resynchronises at the next functools", "TOOLCALLING.batch.4.e", B('[{"name": "a", "arguments": oops}] then ') + B('[{"name": "b", "arguments": {"ok": true}}]'),
      calls=[("b", {"ok": True})], abandoned=1)
    C("unclosed array, elements complete", "TOOLCALLING.batch.5.a", B('[{"name": "a", "arguments": {"x": 1}}'), calls=[("a", {"x": 1})],
      ref="PARSER_CASES.md phi4 end of stream: every closed element is recovered")
    C("array without functools is content", "TOOLCALLING.batch.5.b", '[{"name": "a", "arguments": {}}]', content='[{"name": "a", "arguments": {}}]', ref="no opener, no call")
    C("EOS inside the arguments", "TOOLCALLING.batch.5.c", B('[{"name": "get_weather", "arguments": {"location": "Bos'), abandoned=1)
    C("EOS inside the name", "TOOLCALLING.batch.5.c", B('[{"name": "get_we'))
    C("EOS right after functools[", "TOOLCALLING.batch.5.c", "Let me check. " + B("["), content="Let me check. ")
    C("prose then a truncated call", "TOOLCALLING.batch.5.c", "Let me check.\n" + B('[{"name": "a", "argu'), content="Let me check.\n", abandoned=1)
    C("unclosed array, last element complete", "TOOLCALLING.batch.5.d", B('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"y": 2}}'), calls=[("a", {}), ("b", {"y": 2})])
    C("array truncated inside the second element", "TOOLCALLING.batch.5.e", B('[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"y": "tru'), calls=[("a", {})], abandoned=1,
      ref="PARSER_CASES.md phi4 end of stream")
    C("no arguments key", "TOOLCALLING.batch.6.c", B('[{"name": "get_time"}]'), calls=[("get_time", {})])
    C("empty array", "TOOLCALLING.batch.9.c", "x " + B("[]") + " y", content="x  y")
    C("functools inside a string", "TOOLCALLING.batch.30.c", B('[{"name": "f", "arguments": {"t": "functools[{\\"name\\": \\"evil\\"}]"}}]'), calls=[("f", {"t": "functools[{\"name\": \"evil\"}]"})])
    C("word split mid-token", "TOOLCALLING.stream.3", "Hello " + B('[{"name": "a", "arguments": {}}]'), chunks=["Hello fun", "ctoo", 'ls[{"name": "a", "arguments": {}}]'], content="Hello ", calls=[("a", {})])
    C("complete array at finish", "TOOLCALLING.stream.4.a", B('[{"name": "a", "arguments": {"k": [1]}}]'), calls=[("a", {"k": [1]})])
    C("truncated mid-body at finish", "TOOLCALLING.stream.4.b", B('[{"name": "a", "arguments": {"k": [1'), abandoned=1)
    C("calls then repeated functools words", "TOOLCALLING.stream.4.c", B('[{"name": "a", "arguments": {}}]') + " functools functools", calls=[("a", {})], content=" functools functools", allow_markup=True,
      ref="phi4 has no closer; bare words after a call are content, with the whitespace before them (the word was not an opener)")
    C("functools call group separated by whitespace", "TOOLCALLING.batch.2.a", B('[{"name": "a", "arguments": {}}]') + "\n " + B('[{"name": "b", "arguments": {}}]'), calls=[("a", {}), ("b", {})])
    C("empty function name is not a call", "TOOLCALLING.fmt.1", B('[{"name": "", "arguments": {"x": 1}}, {"name": "ok", "arguments": {}}]'), calls=[("ok", {})])
    C("whitespace between functools and the array, and inside", "TOOLCALLING.fmt.2", F + ' \n [ { "name" : "a" , "arguments" : { "x" : 1 } } ]', calls=[("a", {"x": 1})],
      ref="PARSER_CASES.md: '[' after optional whitespace")
    C("FIREFUNCTION_V2 leading space", "TOOLCALLING.fmt.3", " functools[" + obj("a", "{}") + "]", content=" ", calls=[("a", {})],
      ref="PARSER_CASES.md: llama.cpp's FIREFUNCTION_V2 writes ' functools['; the space is content")
    C("empty list with whitespace", "TOOLCALLING.fmt.4", "Before " + F + "[ \n ] after", content="Before  after")
    C("arguments before name (held until the name)", "TOOLCALLING.fmt.5", B('[{"arguments": {"name": "inner"}, "name": "outer"}]'), calls=[("outer", {"name": "inner"})])
    C("parameters instead of arguments", "TOOLCALLING.fmt.5", B('[{"name": "a", "parameters": {"x": 1}}]'), calls=[("a", {"x": 1})])
    C("arguments as a JSON string are unwrapped", "TOOLCALLING.fmt.5", B(r'[{"name": "a", "arguments": "{\"x\": 1}"}]'), calls=[("a", {"x": 1})])
    C("extra keys are ignored", "TOOLCALLING.fmt.5", B('[{"type": "function", "name": "a", "id": "x", "arguments": {"x": 1}}]'), calls=[("a", {"x": 1})])
    na = dict(JSON_NA)
    na["TOOLCALLING.fmt.5.1"] = "phi4 carries no native call id"
    fx.dump(os.path.join(out, "phi4", "phi4.json"), family="phi4",
            description="Phi-4-mini functools[…]; vLLM phi4_mini_json",
            tool_parsers=["phi4", "phi4_mini_json"], not_applicable=na)


phi4()
