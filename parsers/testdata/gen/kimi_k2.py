"""Kimi K2 tool-call fixtures and the kimi_k25 + kimi_k2 composition.

    python3 gen/kimi_k2.py .     # writes kimi_k2/kimi_k2.json and compose/kimi_k25_kimi_k2.json
"""
import os, sys
from common import Fx

SB, SE = "<|tool_calls_section_begin|>", "<|tool_calls_section_end|>"
SB1, SE1 = "<|tool_call_section_begin|>", "<|tool_call_section_end|>"
CB, CE = "<|tool_call_begin|>", "<|tool_call_end|>"
AB = "<|tool_call_argument_begin|>"


def call(id, args):
    return CB + id + AB + args + CE


def sec(*calls):
    return SB + "".join(calls) + SE


def K(name, args, id=None):
    """An expected call with its pinned id."""
    return (name, args, id)


fx = Fx()


def C(name, case, input, calls=(), **kw):
    fx.C(name, case, input, calls=[(n, a) for n, a, _ in calls], **kw)
    ids = [i for _, _, i in calls]
    for c, i in zip(fx.cases[-1]["expected"]["calls"], ids):
        if i is not None:
            c["id"] = i


W = {"location": "NYC"}
big = "".join("line %04d: the quick brown fox jumps over the lazy dog\\n" % i for i in range(200))
# batch.1
C("single call, id kept verbatim", "TOOLCALLING.batch.1", sec(call("functions.get_weather:0", '{"location": "NYC"}')),
  calls=[K("get_weather", W, "functions.get_weather:0")], ref="PARSER_CASES.md sample; vLLM PR #32768 (id preserved)")
# batch.2
C("parallel calls in one section", "TOOLCALLING.batch.2.a",
  sec(call("functions.get_weather:0", '{"location": "NYC"}'), call("functions.get_time:1", "{}")),
  calls=[K("get_weather", W, "functions.get_weather:0"), K("get_time", {}, "functions.get_time:1")], ref="PARSER_CASES.md sample")
two = sec(call("functions.a:0", '{"x": 1}'), call("functions.b:1", "{}"))
k = two.index("1}") + 1
C("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:k], two[k:]],
  calls=[K("a", {"x": 1}, "functions.a:0"), K("b", {}, "functions.b:1")], ref="PARSER_CASES.md")
C("call group with surrounding content", "TOOLCALLING.batch.2.c",
  "Let me check both.\n" + sec(call("functions.get_weather:0", '{"location": "Boston"}'), call("functions.get_weather:1", '{"location": "NYC"}')) + "\nDone.",
  content="Let me check both.\n\nDone.", calls=[K("get_weather", {"location": "Boston"}), K("get_weather", W)])
C("three calls: distinct ids, consecutive indices", "TOOLCALLING.batch.2.d",
  sec(call("functions.a:0", "{}"), call("functions.b:1", "{}"), call("functions.c:2", "{}")),
  calls=[K("a", {}, "functions.a:0"), K("b", {}, "functions.b:1"), K("c", {}, "functions.c:2")])
# batch.3
C("text only", "TOOLCALLING.batch.3", "It is sunny in NYC.", content="It is sunny in NYC.")
C("text with marker-like fragments", "TOOLCALLING.batch.3", "a <|tool b <|tool_call c |> d <|tool_calls_section_beg",
  content="a <|tool b <|tool_call c |> d <|tool_calls_section_beg")
# batch.4
C("garbage inside a section", "TOOLCALLING.batch.4.a", "A " + SB + "no calls here" + SE + " B", content="A  B",
  ref="text inside a section outside calls is markup")
C("garbage arguments", "TOOLCALLING.batch.4.a", sec(call("functions.f:0", "{{{[[[\"\"\x00")), abandoned=1)
C("invalid JSON abandons the call", "TOOLCALLING.batch.4.b", sec(call("functions.get_weather:0", '{"location": "NYC",}')), abandoned=1,
  ref="library rule: Dynamo keeps invalid JSON as the raw argument string; the library abandons the call")
C("unquoted keys are invalid JSON", "TOOLCALLING.batch.4.b", sec(call("functions.f:0", "{location: NYC}")), abandoned=1,
  ref="library rule: the library never emits arguments that are not valid JSON")
C("empty id skips the call", "TOOLCALLING.batch.4.c", sec(call("", "{}"), call("functions.ok:1", "{}")), calls=[K("ok", {}, "functions.ok:1")],
  ref="PARSER_CASES.md: an empty name skips the call")
C("arguments are an array", "TOOLCALLING.batch.4.c", sec(call("functions.f:0", "[1, 2]")), abandoned=1, ref="arguments must be a JSON object")
C("no argument separator", "TOOLCALLING.batch.4.d", sec(CB + "functions.f:0" + '{"x": 1}' + CE), ref="the call starts at <|tool_call_argument_begin|>; without it the call never starts")
C("bad call followed by a valid call", "TOOLCALLING.batch.4.e", sec(call("functions.a:0", '{"x": oops}'), call("functions.b:1", '{"ok": true}')),
  calls=[K("b", {"ok": True}, "functions.b:1")], abandoned=1)
C("call end missing, the next call begins", "TOOLCALLING.batch.4.e", SB + CB + "functions.a:0" + AB + '{"x": 1}' + call("functions.b:1", "{}") + SE,
  calls=[K("b", {}, "functions.b:1")], abandoned=1)
# batch.5
C("section end absent, calls complete", "TOOLCALLING.batch.5.a", SB + call("functions.get_weather:0", '{"location": "NYC"}'),
  calls=[K("get_weather", W, "functions.get_weather:0")], ref="PARSER_CASES.md: the section runs to the end; complete inner calls are recovered (Dynamo PR #8208)")
C("closers present, openers absent", "TOOLCALLING.batch.5.b", "Sure." + CE + SE + SE1 + " More" + AB + " text", content="Sure. More text",
  ref="PARSER_CASES.md: orphan markers are markup, the text on both sides kept")
C("section truncated mid-call", "TOOLCALLING.batch.5.c", SB + CB + "functions.get_weather:0" + AB + '{"location": "N', abandoned=1,
  ref="PARSER_CASES.md: no call and empty content (newer Dynamo 'Kimi leak fix'; older versions echoed the raw section)")
C("prose then a section truncated in the id", "TOOLCALLING.batch.5.c", "Checking the weather. " + SB + CB + "functions.get_wea",
  content="Checking the weather. ")
C("EOS right after the section opener", "TOOLCALLING.batch.5.c", "x" + SB, content="x")
C("last call complete but missing its end marker", "TOOLCALLING.batch.5.d",
  SB + call("functions.a:0", "{}") + CB + "functions.b:1" + AB + '{"y": 2}', calls=[K("a", {}, "functions.a:0")], abandoned=1,
  ref="PARSER_CASES.md: a call without <|tool_call_end|> is dropped even with complete JSON (Dynamo; vLLM/SGLang may recover it)")
C("last call truncated inside a value", "TOOLCALLING.batch.5.e",
  SB + call("functions.a:0", "{}") + CB + "functions.b:1" + AB + '{"y": "tru', calls=[K("a", {}, "functions.a:0")], abandoned=1)
# batch.6
C("literal {}", "TOOLCALLING.batch.6.a", sec(call("functions.get_time:0", "{}")), calls=[K("get_time", {}, "functions.get_time:0")])
C("whitespace inside empty arguments", "TOOLCALLING.batch.6.b", sec(call("functions.get_time:0", "{\n }")), calls=[K("get_time", {})])
C("no arguments at all", "TOOLCALLING.batch.6.c", sec(call("functions.get_time:0", "")), abandoned=1,
  ref="decision: the arguments must be one JSON object; nothing is not {}")
# batch.7
C("scalar and container matrix", "TOOLCALLING.batch.7.a", sec(call("functions.f:0", '{"i": 1, "f": -2.5e-3, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}')),
  calls=[K("f", '{"i": 1, "f": -2.5e-3, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}')])
C("escapes, unicode and HTML kept verbatim", "TOOLCALLING.batch.7.b",
  sec(call("functions.f:0", r'{"s": "a\nb \"q\" \\", "u": "héllo 世界 🎉", "esc": "\u00e9", "html": "<b>x</b>"}')),
  calls=[K("f", r'{"s": "a\nb \"q\" \\", "u": "héllo 世界 🎉", "esc": "\u00e9", "html": "<b>x</b>"}')])
C("raw control characters are escaped", "TOOLCALLING.batch.7.b", sec(call("functions.write:0", '{"c": "x\ny\tz"}')),
  calls=[K("write", r'{"c": "x\ny\tz"}')], ref="PARSER_CASES.md library rule: raw control characters")
C("schema mismatch keeps the model's value", "TOOLCALLING.batch.7.c", sec(call("functions.set_temp:0", '{"celsius": "20"}')), calls=[K("set_temp", {"celsius": "20"})],
  tools=[{"type": "function", "function": {"name": "set_temp", "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}}}}}])
C("nested arguments", "TOOLCALLING.batch.7.d", sec(call("functions.q:0", '{"filter": {"and": [{"f": "a"}, {"v": [1, 2]}]}, "limit": 10}')),
  calls=[K("q", '{"filter": {"and": [{"f": "a"}, {"v": [1, 2]}]}, "limit": 10}')])
C("deep, null, empty nested and duplicate keys", "TOOLCALLING.batch.7.e", sec(call("functions.f:0", '{"a": {"b": [[[]]]}, "n": null, "e": {}, "d": 1, "d": 2}')),
  calls=[K("f", '{"a": {"b": [[[]]]}, "n": null, "e": {}, "d": 1, "d": 2}')])
C("integers beyond float64 stay exact", "TOOLCALLING.batch.7.f", sec(call("functions.f:0", '{"id": 12345678901234567890123, "neg": -9007199254740993}')),
  calls=[K("f", '{"id": 12345678901234567890123, "neg": -9007199254740993}')])
# batch.8
C("text before only", "TOOLCALLING.batch.8.a", "Let me look that up. " + sec(call("functions.search:0", '{"q": "go"}')), content="Let me look that up. ",
  calls=[K("search", {"q": "go"})])
C("text after only", "TOOLCALLING.batch.8.b", sec(call("functions.search:0", '{"q": "go"}')) + "\nHope that helps.", content="\nHope that helps.",
  calls=[K("search", {"q": "go"})], ref="PARSER_CASES.md: text outside sections is kept")
C("text before and after", "TOOLCALLING.batch.8.c", "Before. " + sec(call("functions.search:0", '{"q": "go"}')) + " After.", content="Before.  After.",
  calls=[K("search", {"q": "go"})])
C("text between sections", "TOOLCALLING.batch.8.d", "A" + sec(call("functions.a:0", "{}")) + " B " + sec(call("functions.b:1", "{}")) + "C", content="A B C",
  calls=[K("a", {}), K("b", {})])
C("text between calls inside a section is markup", "TOOLCALLING.batch.8.d", SB + call("functions.a:0", "{}") + " then " + call("functions.b:1", "{}") + SE,
  calls=[K("a", {}), K("b", {})], ref="PARSER_CASES.md: text outside sections is kept; inside a section everything but calls is markup")
# batch.9
C("empty output", "TOOLCALLING.batch.9.a", "")
C("whitespace only", "TOOLCALLING.batch.9.b", " \n ", content=" \n ")
C("whitespace after the section is dropped", "TOOLCALLING.batch.9.b", sec(call("functions.a:0", "{}")) + "\n", calls=[K("a", {})])
C("empty section", "TOOLCALLING.batch.9.c", SB + SE)
# batch.10
C("duplicate calls keep their own ids", "TOOLCALLING.batch.10",
  sec(call("functions.get_weather:0", '{"location": "Paris"}'), call("functions.get_weather:1", '{"location": "Paris"}')),
  calls=[K("get_weather", {"location": "Paris"}, "functions.get_weather:0"), K("get_weather", {"location": "Paris"}, "functions.get_weather:1")],
  ref="ids are the model's; a repeated id is kept (TestKimiRepeatedID)")
# batch.13
wt = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}}]
C("unknown tool is emitted", "TOOLCALLING.batch.13.a", sec(call("functions.rm_rf:0", "{}")), calls=[K("rm_rf", {}, "functions.rm_rf:0")], tools=wt)
C("known and unknown mixed", "TOOLCALLING.batch.13.c", sec(call("functions.get_weather:0", '{"location": "Rome"}'), call("functions.nope:1", '{"x": 1}')),
  calls=[K("get_weather", {"location": "Rome"}), K("nope", {"x": 1})], tools=wt)
# batch.30/31
C("separators inside strings", "TOOLCALLING.batch.30.a", sec(call("functions.f:0", '{"q": "a;b,c:0", "r": ","}')), calls=[K("f", {"q": "a;b,c:0", "r": ","})])
C("braces and brackets inside strings", "TOOLCALLING.batch.30.b", sec(call("functions.f:0", '{"code": "{ [1]; } }}]]"}')), calls=[K("f", {"code": "{ [1]; } }}]]"})])
inner = CE + SE + CB + "functions.evil:9" + AB
C("markers inside an argument string", "TOOLCALLING.batch.30.c", sec(call("functions.f:0", '{"text": "%s{}"}' % inner)), calls=[K("f", {"text": inner + "{}"})],
  ref="DESIGN.md invariant 4")
C("separator inside a string before the next call", "TOOLCALLING.batch.31.a", sec(call("functions.a:0", '{"s": "}, {\\"x\\": 1"}'), call("functions.b:1", "{}")),
  calls=[K("a", {"s": "}, {\"x\": 1"}), K("b", {})])
C("structural markers inside strings before later calls", "TOOLCALLING.batch.31.b",
  sec(call("functions.a:0", '{"s": "%s"}' % CE), call("functions.b:1", '{"t": "%s"}' % (AB + SE))), calls=[K("a", {"s": CE}), K("b", {"t": AB + SE})])
# stream
one = sec(call("functions.get_weather:0", '{"location": "NYC"}'))
C("whole call in one chunk", "TOOLCALLING.stream.1.a", one, chunks=[one], calls=[K("get_weather", W, "functions.get_weather:0")])
C("split at significant boundaries", "TOOLCALLING.stream.1.b", one,
  chunks=["<|tool_calls_sec", "tion_begin|><|tool_call_begin|>functions.get_", "weather:0<|tool_call_arg", "ument_begin|>{\"loc", "ation\": \"NYC\"}<|tool_call", "_end|><|tool_calls_section_end|>"],
  calls=[K("get_weather", W, "functions.get_weather:0")])
C("a 10 KB argument string streams", "TOOLCALLING.stream.1", sec(call("functions.write_file:0", '{"path": "/tmp/big.txt", "content": "%s"}' % big)),
  calls=[K("write_file", '{"path": "/tmp/big.txt", "content": "%s"}' % big)], tool_parser="kimi_k2",
  ref="PARSER_CASES.md very long output; run under one name (every split point of 10 KB is slow)")
two = sec(call("functions.a:0", '{"x": "1"}'), call("functions.b:1", '{"y": "2"}'))
n = len(two)
C("two calls each spanning chunks", "TOOLCALLING.stream.2", two, chunks=[two[:n // 4], two[n // 4:n // 2], two[n // 2:3 * n // 4], two[3 * n // 4:]],
  calls=[K("a", {"x": "1"}), K("b", {"y": "2"})])
C("section marker split mid-token", "TOOLCALLING.stream.3", "Hi " + one, chunks=["Hi <|tool_", "calls_section_begin|>" + one[len(SB):-5], one[-5:]],
  content="Hi ", calls=[K("get_weather", W)], ref="SGLang leaks the raw section when a marker is split (parity PARSER.stream.3)")
C("complete JSON, no call end, finish", "TOOLCALLING.stream.4.a", SB + CB + "functions.a:0" + AB + '{"k": [1]}', abandoned=1,
  ref="TOOLCALLING.stream.4.a: Dynamo emits no call (vLLM/SGLang may recover); <|tool_call_end|> is the call delimiter")
C("truncated mid-body at finish", "TOOLCALLING.stream.4.b", "ok " + SB + CB + "functions.a:0" + AB + '{"k": [1', content="ok ", abandoned=1,
  ref="no raw markup echoed on recovery")
C("call without a section, repeated end markers", "TOOLCALLING.stream.4.c",
  call("functions.get_weather:0", '{"location": "NYC"}') + CE + CE + "\n" + SE, chunks=[call("functions.get_weather:0", '{"location": "NYC"}'), CE, CE + "\n", SE],
  calls=[K("get_weather", W, "functions.get_weather:0")], ref="<|tool_call_begin|> is accepted without a section opener; orphan closers are dropped")
# fmt
C("function-name conventions", "TOOLCALLING.fmt.1",
  sec(call("functions.get-weather:0", "{}"), call("functions.tools.search_v2:1", "{}"), call("functions.mcp__portal__search-documents:2", "{}"),
      call("functions.天气:3", "{}"), call("get_time:4", "{}")),
  calls=[K("get-weather", {}, "functions.get-weather:0"), K("tools.search_v2", {}, "functions.tools.search_v2:1"),
         K("mcp__portal__search-documents", {}, "functions.mcp__portal__search-documents:2"), K("天气", {}, "functions.天气:3"), K("get_time", {}, "get_time:4")],
  ref="PARSER_CASES.md: NAME between an optional functions. and the last ':' (word characters, '.', '-'; Unicode letters are word characters)")
C("ids without the pattern are the name", "TOOLCALLING.fmt.1",
  sec(call("get_weather", "{}"), call("functions.🔧fix:0", "{}"), call("functions.f:x", "{}")),
  calls=[K("get_weather", {}, "get_weather"), K("functions.🔧fix:0", {}, "functions.🔧fix:0"), K("functions.f:x", {}, "functions.f:x")],
  ref="PARSER_CASES.md: an id that does not match [functions.]NAME:DIGITS is used whole as the name")
C("whitespace around the id and the JSON", "TOOLCALLING.fmt.2",
  SB + "\n" + CB + "\n  functions.get_weather:0 \n" + AB + "\n  {\"location\": \"NYC\"}  \n" + CE + "\n" + SE,
  calls=[K("get_weather", W, "functions.get_weather:0")], ref="decision: whitespace around the id is trimmed; around the JSON and between markers it is markup")
C("singular section spelling", "TOOLCALLING.fmt.3", "x " + SB1 + call("functions.get_weather:0", '{"location": "NYC"}') + SE1 + " y",
  content="x  y", calls=[K("get_weather", W, "functions.get_weather:0")], ref="TOOLCALLING.fmt.3: singular and plural section tokens")
C("mixed spellings", "TOOLCALLING.fmt.3", SB1 + call("functions.a:0", "{}") + SE + SB + call("functions.b:1", "{}") + SE1,
  calls=[K("a", {}), K("b", {})])
C("call without a section", "TOOLCALLING.fmt.3", "x " + call("functions.a:0", "{}") + " y", content="x  y", calls=[K("a", {}, "functions.a:0")],
  ref="PARSER_CASES.md: <|tool_call_begin|> also accepted without a section opener")
C("empty section keeps surrounding text", "TOOLCALLING.fmt.4", "Before " + SB + SE + " after", content="Before  after")
C("empty section with whitespace", "TOOLCALLING.fmt.4", SB1 + "\n \n" + SE1)
C("native id preserved; arguments with keys called name and arguments", "TOOLCALLING.fmt.5",
  sec(call("functions.outer:7", '{"name": "inner", "arguments": {"a": 1}}')), calls=[K("outer", {"name": "inner", "arguments": {"a": 1}}, "functions.outer:7")],
  ref="fmt.5 (1): the native id; no envelope, every key is an argument")
C("entities in JSON strings are not decoded", "TOOLCALLING.xml.1", sec(call("functions.f:0", '{"html": "&lt;b&gt; &amp;"}')), calls=[K("f", {"html": "&lt;b&gt; &amp;"})],
  ref="pinned: Kimi arguments are JSON; no entity pass")
# options
C("whole-call mode", "TOOLCALLING.stream.1", sec(call("functions.a:0", '{"x": 1}')) + "text", content="text", calls=[K("a", {"x": 1}, "functions.a:0")],
  options={"whole_calls": True})
C("an id past the buffer limit is malformed", "TOOLCALLING.batch.4.c", sec(call("functions." + "n" * 40 + ":0", "{}"), call("functions.ok:1", "{}")),
  calls=[K("ok", {})], options={"max_call_buffer": 32}, ref="PARSER_CASES.md: the id is held, bounded by the per-call limit")
C("streamed arguments are not limited", "TOOLCALLING.batch.7.e", sec(call("functions.a:0", '{"big": "%s"}' % ("x" * 64))), calls=[K("a", {"big": "x" * 64})],
  options={"max_call_buffer": 32})

out = sys.argv[1]
os.makedirs(os.path.join(out, "kimi_k2"), exist_ok=True)
fx.dump(os.path.join(out, "kimi_k2", "kimi_k2.json"), family="kimi_k2",
        description="Kimi K2 / K2-Instruct / K2-Thinking / K2.5 tool calls", tool_parsers=["kimi_k2"],
        not_applicable={
            "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
            "TOOLCALLING.batch.13.d": "tools are referenced by name (the index counts calls, it is not a tool ordinal)",
            "TOOLCALLING.fmt.5.3": "no envelope: the arguments follow <|tool_call_argument_begin|>, there is no arguments/parameters key",
            "TOOLCALLING.xml.2": "JSON arguments carry native types; no schema coercion",
            "TOOLCALLING.harmony.1": "Harmony only", "TOOLCALLING.harmony.2": "Harmony only"})

# kimi_k25 reasoning + kimi_k2 tools
fx = Fx()
C = None


def C(name, case, input, calls=(), **kw):
    fx.C(name, case, input, calls=[(n, a) for n, a, _ in calls], **kw)
    for c, (_, _, i) in zip(fx.cases[-1]["expected"]["calls"], calls):
        if i is not None:
            c["id"] = i


one = sec(call("functions.get_weather:0", '{"location": "NYC"}'))
C("the section token ends open reasoning and reaches the tool parser", "REASONING.batch.3.b", "I need the weather." + one,
  reasoning="I need the weather.", calls=[K("get_weather", W, "functions.get_weather:0")], ref="PARSER_CASES.md: the tool-start token is not consumed")
C("closed reasoning, then a section", "REASONING.batch.3.a", "<think>thinking</think>Sure. " + one, reasoning="thinking", content="Sure. ",
  calls=[K("get_weather", W)])
C("section token split across chunks at the boundary", "REASONING.stream.4", "plan" + one,
  chunks=["plan<|tool_calls", "_section_be", "gin|>" + one[len(SB):]], reasoning="plan", calls=[K("get_weather", W)])
C("singular section inside reasoning stays reasoning", "REASONING.batch.3.b", "a " + SB1 + "b</think>c",
  reasoning="a " + SB1 + "b", content="c", allow_markup=True,
  ref="only the plural section token ends reasoning; the singular spelling is reasoning text")
C("bare call markers inside reasoning stay reasoning", "REASONING.batch.3.b", "r " + call("functions.x:0", "{}") + "</think>" + one,
  reasoning="r " + call("functions.x:0", "{}"), calls=[K("get_weather", W)], allow_markup=True)
C("reasoning markers inside arguments are argument text", "TOOLCALLING.batch.30.c", "x</think>" + sec(call("functions.f:0", '{"t": "<think>y</think>"}')),
  reasoning="x", calls=[K("f", {"t": "<think>y</think>"})])
C("text after the section is content", "REASONING.batch.3.b", "r" + one + " done", reasoning="r", content=" done", calls=[K("get_weather", W)])
C("truncated section after reasoning", "TOOLCALLING.stream.4.b", "r" + SB + CB + "functions.a:0" + AB + '{"k": ', reasoning="r", abandoned=1)
os.makedirs(os.path.join(out, "compose"), exist_ok=True)
fx.dump(os.path.join(out, "compose", "kimi_k25_kimi_k2.json"), family="compose",
        description="Kimi K2.5: the kimi_k25 reasoning parser (forced <think>, the section token ends reasoning) feeding kimi_k2",
        tool_parsers=["kimi_k2"], reasoning_parsers=["kimi_k25", "kimi_k2"], not_applicable={})
