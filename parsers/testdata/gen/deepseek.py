"""DeepSeek V3 and V3.1 tool-call fixtures.

    python3 gen/deepseek.py .     # writes deepseek_v3/deepseek_v3.json and deepseek_v3_1/deepseek_v3_1.json
"""
import os, sys
from common import Fx

SB, SE = "<｜tool▁calls▁begin｜>", "<｜tool▁calls▁end｜>"
CB, CE = "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>"
SEP = "<｜tool▁sep｜>"

NA = {
    "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
    "TOOLCALLING.batch.13.d": "tools are referenced by name, not ordinal",
    "TOOLCALLING.fmt.5.1": "DeepSeek V3/V3.1 carry no native call id",
    "TOOLCALLING.fmt.5.3": "no envelope: the arguments follow the separator, there is no arguments/parameters key",
    "TOOLCALLING.xml.2": "JSON arguments carry native types; no schema coercion",
    "TOOLCALLING.harmony.1": "Harmony only", "TOOLCALLING.harmony.2": "Harmony only",
}
W = {"location": "Tokyo"}


def gen(v3):
    fx = Fx(); C = fx.C

    def call(name, args, typ="function", fence="json"):
        if v3:
            return CB + typ + SEP + name + "\n```" + fence + "\n" + args + "\n```" + CE
        return CB + name + SEP + args + CE

    def sec(*calls):
        return SB + "".join(calls) + SE

    big = "".join("line %04d: the quick brown fox jumps over the lazy dog\\n" % i for i in range(200))
    # batch.1
    C("single call", "TOOLCALLING.batch.1", sec(call("get_weather", '{"location": "Tokyo"}')), calls=[("get_weather", W)],
      ref="PARSER_CASES.md sample")
    # batch.2
    C("parallel calls in one section", "TOOLCALLING.batch.2.a",
      sec(call("get_weather", '{"location": "Beijing"}'), call("get_weather", '{"location": "Shanghai"}')),
      calls=[("get_weather", {"location": "Beijing"}), ("get_weather", {"location": "Shanghai"})])
    two = sec(call("a", '{"x": 1}'), call("b", "{}"))
    k = two.index('1}') + 1
    C("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:k], two[k:]], calls=[("a", {"x": 1}), ("b", {})],
      ref="PARSER_CASES.md: every complete construct of a delta surfaces")
    C("call group with surrounding content", "TOOLCALLING.batch.2.c",
      "I'll check both.\n" + sec(call("get_weather", '{"location": "Boston"}'), call("get_weather", '{"location": "NYC"}')) + "\nDone.",
      content="I'll check both.\n\nDone.", calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "NYC"})])
    C("three calls: distinct ids, consecutive indices", "TOOLCALLING.batch.2.d", sec(call("a", "{}"), call("b", "{}"), call("c", "{}")),
      calls=[("a", {}), ("b", {}), ("c", {})])
    C("two sections in a row", "TOOLCALLING.batch.2.a", sec(call("a", "{}")) + "\n" + sec(call("b", "{}")), calls=[("a", {}), ("b", {})],
      ref="whitespace between call blocks is markup")
    # batch.3
    C("text only", "TOOLCALLING.batch.3", "The weather in Beijing today is sunny.", content="The weather in Beijing today is sunny.")
    C("text with marker-like fragments", "TOOLCALLING.batch.3", "a <｜tool b <｜tool▁call c ｜> d ▁▁ e <｜tool▁calls▁beg",
      content="a <｜tool b <｜tool▁call c ｜> d ▁▁ e <｜tool▁calls▁beg", ref="a held marker prefix at Finish is text")
    # batch.4
    C("garbage inside a section", "TOOLCALLING.batch.4.a", "A " + SB + "this is not a call" + SE + " B", content="A  B",
      ref="text inside a section outside calls is markup (PARSER_CASES.md: a wrapper whose body is not a call)")
    C("garbage arguments", "TOOLCALLING.batch.4.a", sec(call("f", "{{{[[[\"\"\x00")), abandoned=1)
    C("invalid JSON in a well-formed call", "TOOLCALLING.batch.4.b", sec(call("get_weather", '{"location": "Tokyo",}')), abandoned=1,
      ref="PARSER_CASES.md library rule: malformed arguments abandon the call")
    C("empty name", "TOOLCALLING.batch.4.c", sec(call("", '{"x": 1}')), ref="an empty name is rejected; the call never started")
    C("arguments are an array", "TOOLCALLING.batch.4.c", sec(call("f", "[1, 2]")), abandoned=1, ref="arguments must be a JSON object")
    C("arguments are a string", "TOOLCALLING.batch.4.c", sec(call("f", '"{\\"x\\": 1}"')), abandoned=1)
    C("bad fragment followed by a valid call", "TOOLCALLING.batch.4.e",
      sec(call("a", '{"x": oops}'), call("b", '{"ok": true}')), calls=[("b", {"ok": True})], abandoned=1)
    C("call end missing, the next call begins", "TOOLCALLING.batch.4.e",
      SB + call("a", '{"x": 1}')[:-len(CE)] + call("b", "{}") + SE, calls=[("b", {})], abandoned=1,
      ref="a structural marker where it does not belong ends the current call, which did not complete")
    # batch.5
    C("section end absent, call complete", "TOOLCALLING.batch.5.a", SB + call("get_weather", '{"location": "Tokyo"}'), calls=[("get_weather", W)],
      ref="PARSER_CASES.md: the outer end may be missing (newer Dynamo recovers)")
    C("closers present, openers absent", "TOOLCALLING.batch.5.b", "Sure." + CE + SE + " More text", content="Sure. More text",
      ref="PARSER_CASES.md: orphan closers are markup, the text on both sides kept")
    C("stray separator in content", "TOOLCALLING.batch.5.b", "a" + SEP + "b", content="ab", ref="decision: a separator met in content is markup")
    C("EOS inside the arguments", "TOOLCALLING.batch.5.c", SB + call("get_weather", '{"location": "Tok')[:-len("\n```" + CE) if v3 else -len(CE)],
      abandoned=1)
    C("EOS inside the header", "TOOLCALLING.batch.5.c", "Let me check. " + SB + CB + ("function" + SEP + "get_wea" if v3 else "get_wea"),
      content="Let me check. ", ref="nothing of a truncated call reaches content")
    C("EOS right after the section opener", "TOOLCALLING.batch.5.c", "Checking." + SB, content="Checking.")
    C("last call complete but missing its end marker", "TOOLCALLING.batch.5.d",
      SB + call("a", "{}") + call("b", '{"y": 2}')[:-len(CE)], calls=[("a", {})], abandoned=1,
      ref="PARSER_CASES.md: a call needs <｜tool▁call▁end｜>" + (" (and the closing fence)" if v3 else ""))
    C("last call truncated inside a value", "TOOLCALLING.batch.5.e",
      SB + call("a", "{}") + CB + ("function" + SEP + "b\n```json\n" if v3 else "b" + SEP) + '{"y": "tru', calls=[("a", {})], abandoned=1)
    # batch.6
    C("literal {}", "TOOLCALLING.batch.6.a", sec(call("get_time", "{}")), calls=[("get_time", {})])
    C("whitespace inside empty arguments", "TOOLCALLING.batch.6.b", sec(call("get_time", "{\n  }")), calls=[("get_time", {})])
    C("no arguments at all", "TOOLCALLING.batch.6.c", sec(call("get_time", "")), abandoned=1,
      ref="decision: the arguments must be one JSON object; nothing is not {} (Dynamo's JSON parse fails the same way)")
    # batch.7
    C("scalar and container matrix", "TOOLCALLING.batch.7.a", sec(call("f", '{"i": 1, "f": -2.5e-3, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}')),
      calls=[("f", '{"i": 1, "f": -2.5e-3, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}')])
    C("escapes, unicode and HTML kept verbatim", "TOOLCALLING.batch.7.b",
      sec(call("f", r'{"s": "line1\nline2 \"q\" \\ b", "u": "héllo 世界 🎉", "esc": "\u00e9\ud83c\udf89", "html": "<b>x</b> &amp;"}')),
      calls=[("f", r'{"s": "line1\nline2 \"q\" \\ b", "u": "héllo 世界 🎉", "esc": "\u00e9\ud83c\udf89", "html": "<b>x</b> &amp;"}')])
    C("raw control characters are escaped, lines untouched", "TOOLCALLING.batch.7.b",
      sec(call("write_file", '{"content": "def f():\n    return 1\n\tx\x01"}')),
      calls=[("write_file", r'{"content": "def f():\n    return 1\n\tx\u0001"}')],
      ref="PARSER_CASES.md library rule: raw control characters are escaped; Dynamo's DeepSeek retry left-trims every line and joins with spaces (\"def f(): return 1 x\")")
    C("schema mismatch keeps the model's value", "TOOLCALLING.batch.7.c", sec(call("set_temp", '{"celsius": "20"}')), calls=[("set_temp", {"celsius": "20"})],
      tools=[{"type": "function", "function": {"name": "set_temp", "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}}}}}])
    C("nested arguments", "TOOLCALLING.batch.7.d", sec(call("query", '{"filter": {"and": [{"f": "a", "v": 1}, {"f": "b", "v": [1, 2]}]}, "limit": 10}')),
      calls=[("query", '{"filter": {"and": [{"f": "a", "v": 1}, {"f": "b", "v": [1, 2]}]}, "limit": 10}')])
    C("deep, null, empty nested and duplicate keys", "TOOLCALLING.batch.7.e", sec(call("f", '{"a": {"b": {"c": [[[]]]}}, "n": null, "e": {}, "dup": 1, "dup": 2}')),
      calls=[("f", '{"a": {"b": {"c": [[[]]]}}, "n": null, "e": {}, "dup": 1, "dup": 2}')])
    C("integers beyond float64 stay exact", "TOOLCALLING.batch.7.f", sec(call("f", '{"id": 12345678901234567890123, "neg": -9007199254740993, "x": 1.000000000000000000001}')),
      calls=[("f", '{"id": 12345678901234567890123, "neg": -9007199254740993, "x": 1.000000000000000000001}')])
    # batch.8
    C("text before only, untrimmed", "TOOLCALLING.batch.8.a", "Let me get the information: " + sec(call("search", '{"q": "go"}')),
      content="Let me get the information: ", calls=[("search", {"q": "go"})], ref="PARSER_CASES.md: the trailing space is kept (Dynamo too)")
    C("text after only", "TOOLCALLING.batch.8.b", sec(call("search", '{"q": "go"}')) + "\nHope that helps.", content="\nHope that helps.",
      calls=[("search", {"q": "go"})], ref="library rule §4.6: text after the section is content (Dynamo drops it)")
    C("text before and after", "TOOLCALLING.batch.8.c", "Before. " + sec(call("search", '{"q": "go"}')) + " After.", content="Before.  After.",
      calls=[("search", {"q": "go"})])
    C("text between sections", "TOOLCALLING.batch.8.d", "A" + sec(call("a", "{}")) + " B " + sec(call("b", "{}")) + "C", content="A B C",
      calls=[("a", {}), ("b", {})])
    C("text between calls inside a section is markup", "TOOLCALLING.batch.8.d", SB + call("a", "{}") + " and then " + call("b", "{}") + SE,
      calls=[("a", {}), ("b", {})], ref="decision: inside a section everything but calls is markup (the section runs to its end marker)")
    # batch.9
    C("empty output", "TOOLCALLING.batch.9.a", "")
    C("whitespace only", "TOOLCALLING.batch.9.b", "  \n\t ", content="  \n\t ")
    C("whitespace after the section is dropped", "TOOLCALLING.batch.9.b", sec(call("a", "{}")) + "\n\n", calls=[("a", {})],
      ref="PARSER_CASES.md whitespace after a call")
    C("empty section", "TOOLCALLING.batch.9.c", SB + SE)
    # batch.10
    C("duplicate calls", "TOOLCALLING.batch.10", sec(call("get_weather", '{"location": "Paris"}'), call("get_weather", '{"location": "Paris"}')),
      calls=[("get_weather", {"location": "Paris"}), ("get_weather", {"location": "Paris"})])
    # batch.13
    wt = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}}]
    C("unknown tool is emitted", "TOOLCALLING.batch.13.a", sec(call("rm_rf", "{}")), calls=[("rm_rf", {})], tools=wt)
    C("known and unknown mixed", "TOOLCALLING.batch.13.c", sec(call("get_weather", '{"location": "Rome"}'), call("nope", '{"x": 1}')),
      calls=[("get_weather", {"location": "Rome"}), ("nope", {"x": 1})], tools=wt)
    # batch.30/31
    C("separators inside strings", "TOOLCALLING.batch.30.a", sec(call("f", '{"q": "a;b,c", "r": ","}')), calls=[("f", {"q": "a;b,c", "r": ","})])
    C("braces, brackets and fences inside strings", "TOOLCALLING.batch.30.b", sec(call("f", '{"code": "if (x) { return [1]; } }}]] ```"}')),
      calls=[("f", {"code": "if (x) { return [1]; } }}]] ```"})])
    inner = CE + SE + CB + "evil" + SEP
    C("markers inside an argument string", "TOOLCALLING.batch.30.c", sec(call("f", '{"text": "%s{}"}' % inner)), calls=[("f", {"text": inner + "{}"})],
      ref="DESIGN.md invariant 4: markers inside JSON strings are text", allow_markup=False)
    C("separator inside a string before the next call", "TOOLCALLING.batch.31.a",
      sec(call("a", '{"s": "}, {\\"x\\": 1"}'), call("b", "{}")), calls=[("a", {"s": "}, {\"x\": 1"}), ("b", {})])
    C("structural markers inside strings before later calls", "TOOLCALLING.batch.31.b",
      sec(call("a", '{"s": "%s"}' % CE), call("b", '{"t": "%s"}' % (SEP + SE))), calls=[("a", {"s": CE}), ("b", {"t": SEP + SE})])
    # stream
    one = sec(call("get_weather", '{"location": "Tokyo"}'))
    C("whole call in one chunk", "TOOLCALLING.stream.1.a", one, chunks=[one], calls=[("get_weather", W)])
    if v3:
        ch = ["<｜tool▁calls", "▁begin｜><｜tool▁call▁begin｜>func", "tion<｜tool", "▁sep｜>get_", "weather\n``", "`json\n{\"loc", "ation\": \"Tokyo\"}\n`", "``<｜tool▁call", "▁end｜><｜tool▁calls▁end｜>"]
    else:
        ch = ["<｜tool▁calls", "▁begin｜><｜tool▁call▁begin｜>get_", "weather<｜tool", "▁sep｜>{\"loc", "ation\": \"Tokyo\"}<｜tool▁call", "▁end｜><｜tool▁calls▁end｜>"]
    C("split at significant boundaries", "TOOLCALLING.stream.1.b", one, chunks=ch, calls=[("get_weather", W)],
      ref="every byte split, including inside the three-byte ｜ and ▁, is run by the harness")
    C("a 10 KB argument string streams", "TOOLCALLING.stream.1", sec(call("write_file", '{"path": "/tmp/big.txt", "content": "%s"}' % big)),
      calls=[("write_file", '{"path": "/tmp/big.txt", "content": "%s"}' % big)], tool_parser="deepseek_v3" if v3 else "deepseek_v3_1",
      ref="PARSER_CASES.md very long output; run under one name (every split point of 10 KB is slow)")
    two = sec(call("a", '{"x": "1"}'), call("b", '{"y": "2"}'))
    n = len(two)
    C("two calls each spanning chunks", "TOOLCALLING.stream.2", two, chunks=[two[:n // 4], two[n // 4:n // 2], two[n // 2:3 * n // 4], two[3 * n // 4:]],
      calls=[("a", {"x": "1"}), ("b", {"y": "2"})])
    C("markers split mid-token", "TOOLCALLING.stream.3", "Hello " + one, chunks=["Hello <｜", "tool▁calls▁begin｜>" + one[len(SB):-8], one[-8:]],
      content="Hello ", calls=[("get_weather", W)])
    C("complete arguments, no call end, finish", "TOOLCALLING.stream.4.a", SB + call("a", '{"k": [1]}')[:-len(CE)], abandoned=1,
      ref="PARSER_CASES.md: a call needs <｜tool▁call▁end｜>; Dynamo emits no call (TOOLCALLING.stream.4.a)")
    C("truncated mid-body at finish", "TOOLCALLING.stream.4.b", "ok " + SB + call("a", '{"k": [1')[:-len(("\n```" if v3 else "") + CE)],
      content="ok ", abandoned=1, ref="no raw markup is echoed on recovery")
    C("inner call without the section, repeated call ends", "TOOLCALLING.stream.4.c",
      call("get_weather", '{"location": "Tokyo"}') + CE + CE + "\n" + CE, chunks=[call("get_weather", '{"location": "Tokyo"}'), CE, CE + "\n", CE],
      calls=[("get_weather", W)], ref="PARSER_CASES.md: a bare inner call is recovered, orphan end markers dropped (finish_reason=length)")
    # fmt
    C("function-name conventions", "TOOLCALLING.fmt.1",
      sec(call("get-weather", "{}"), call("tools.search_v2", "{}"), call("mcp__portal__search-documents", "{}"), call("天气", "{}"), call("🔧fix", "{}")),
      calls=[("get-weather", {}), ("tools.search_v2", {}), ("mcp__portal__search-documents", {}), ("天气", {}), ("🔧fix", {})])
    C("a name with a brace is rejected", "TOOLCALLING.fmt.1", sec(call("get{weather}", "{}"), call("ok", "{}")), calls=[("ok", {})],
      ref="PARSER_CASES.md: a name containing { } [ ] is malformed (the call never started)")
    if v3:
        C("whitespace around the name and the fences", "TOOLCALLING.fmt.2",
          SB + "\n" + CB + "function" + SEP + "  get_weather \n\n```json\n  {\"location\": \"Tokyo\"}  \n  ```  " + CE + "\n" + SE,
          calls=[("get_weather", W)], ref="decision: whitespace is tolerated around the name (trimmed), the fences and the JSON")
        C("the call type is ignored", "TOOLCALLING.fmt.3", sec(call("get_weather", '{"location": "Tokyo"}', typ="tool")), calls=[("get_weather", W)],
          ref="PARSER_CASES.md: the text before the separator is the call type and is ignored")
        C("fence language tag variants", "TOOLCALLING.fmt.3", sec(call("a", "{}", fence=""), call("b", "{}", fence="JSON")), calls=[("a", {}), ("b", {})],
          ref="decision: any ASCII language tag (or none) after the opening fence")
        C("missing fence", "TOOLCALLING.batch.4.d", SB + CB + "function" + SEP + "f\n{\"x\": 1}" + CE + SE, abandoned=1,
          ref="PARSER_CASES.md: the arguments are the body of the fence")
        C("missing closing fence", "TOOLCALLING.batch.4.d", SB + CB + "function" + SEP + "f\n```json\n{\"x\": 1}\n" + CE + SE, abandoned=1)
        C("V3.1 layout under the V3 parser", "TOOLCALLING.batch.4.d", SB + CB + "get_weather" + SEP + '{"location": "Tokyo"}' + CE + SE,
          ref="the name runs to the first newline: here the call end comes first, so the call never starts")
    else:
        C("whitespace around the name and the JSON", "TOOLCALLING.fmt.2",
          SB + "\n" + CB + " get_weather\n" + SEP + "\n {\"location\": \"Tokyo\"} \n" + CE + "\n" + SE,
          calls=[("get_weather", W)], ref="decision: whitespace around the name is trimmed; around the JSON it is markup")
        C("name with inner spaces is kept", "TOOLCALLING.fmt.1", sec(call("get weather", "{}")), calls=[("get weather", {})],
          ref="only empty names and names with braces/brackets are rejected")
        C("V3 layout under the V3.1 parser", "TOOLCALLING.batch.4.d",
          SB + CB + "function" + SEP + "get_weather\n```json\n{}\n```" + CE + SE, abandoned=1,
          ref="the call 'function' starts at the separator; its arguments are not JSON, so it is abandoned")
    C("bare call without the section", "TOOLCALLING.fmt.3", "x " + call("a", "{}") + " y", content="x  y", calls=[("a", {})],
      ref="PARSER_CASES.md: <｜tool▁call▁begin｜> without the section is accepted; every case also runs under the SGLang/vLLM aliases")
    C("empty section keeps surrounding text", "TOOLCALLING.fmt.4", "Before " + SB + SE + " after", content="Before  after")
    C("empty section with whitespace", "TOOLCALLING.fmt.4", SB + "\n\n" + SE)
    C("arguments with keys called name and arguments", "TOOLCALLING.fmt.5",
      sec(call("outer", '{"name": "inner", "arguments": {"a": 1}}')), calls=[("outer", {"name": "inner", "arguments": {"a": 1}})],
      ref="no envelope: every key of the object is an argument")
    C("entities in JSON strings are not decoded", "TOOLCALLING.xml.1", sec(call("f", '{"html": "&lt;b&gt; &amp;"}')), calls=[("f", {"html": "&lt;b&gt; &amp;"})],
      ref="pinned: JSON families use JSON escapes only")
    # options
    C("whole-call mode", "TOOLCALLING.stream.1", sec(call("a", '{"x": 1}')) + "text", content="text", calls=[("a", {"x": 1})], options={"whole_calls": True})
    C("a name past the buffer limit is malformed", "TOOLCALLING.batch.4.c", sec(call("n" * 40, "{}"), call("ok", "{}")), calls=[("ok", {})],
      options={"max_call_buffer": 32}, ref="PARSER_CASES.md: the header is held, bounded by the per-call limit")
    C("streamed arguments are not limited", "TOOLCALLING.batch.7.e", sec(call("a", '{"big": "%s"}' % ("x" * 64))), calls=[("a", {"big": "x" * 64})],
      options={"max_call_buffer": 32})
    return fx


out = sys.argv[1]
for v3, fam, names, desc in ((True, "deepseek_v3", ["deepseek_v3", "deepseekv3"], "DeepSeek V3 / R1-0528: function<｜tool▁sep｜>NAME + ```json fence"),
                             (False, "deepseek_v3_1", ["deepseek_v3_1", "deepseek_v31", "deepseekv31"], "DeepSeek V3.1 / V3.1-Terminus: NAME<｜tool▁sep｜>{json}")):
    fx = gen(v3)
    os.makedirs(os.path.join(out, fam), exist_ok=True)
    fx.dump(os.path.join(out, fam, fam + ".json"), family=fam, description=desc, tool_parsers=names, not_applicable=NA)

# forced deepseek reasoning + the tool parsers
fx = Fx()
for v3, tp in ((True, "deepseek_v3"), (False, "deepseek_v3_1")):
    def call(name, args):
        if v3:
            return CB + "function" + SEP + name + "\n```json\n" + args + "\n```" + CE
        return CB + name + SEP + args + CE
    one = SB + call("get_weather", '{"location": "Tokyo"}') + SE
    fx.C(tp + ": forced reasoning, then a section", "REASONING.batch.3.a", "Need weather.</think>" + one, reasoning="Need weather.",
         calls=[("get_weather", W)], tool_parser=tp, reasoning_parser=tp, ref="PARSER_CASES.md: forced <think>; a leading <think> is dropped")
    fx.C(tp + ": section markup inside open reasoning is reasoning text", "REASONING.batch.5", "<think>maybe " + one,
         reasoning="maybe " + one, tool_parser=tp, reasoning_parser=tp, allow_markup=True,
         ref="deepseek reasoning parsers have no tool-start tokens: unterminated reasoning keeps the markup as text")
    fx.C(tp + ": end marker split before the section", "REASONING.stream.3.d", "r</think>" + one, chunks=["r<", "/think>" + one[:5], one[5:]],
         reasoning="r", calls=[("get_weather", W)], tool_parser=tp, reasoning_parser=tp)
    fx.C(tp + ": think markers inside arguments are text", "TOOLCALLING.batch.30.c", "</think>" + SB + call("f", '{"t": "<think>x</think>"}') + SE,
         calls=[("f", {"t": "<think>x</think>"})], tool_parser=tp, reasoning_parser=tp)
os.makedirs(os.path.join(out, "compose"), exist_ok=True)
fx.dump(os.path.join(out, "compose", "deepseek_v3.json"), family="compose",
        description="DeepSeek V3/V3.1: the forced deepseek_v3 / deepseek_v3_1 reasoning parsers feeding the matching tool parser",
        tool_parsers=["deepseek_v3", "deepseek_v3_1"], reasoning_parsers=["deepseek_v3", "deepseek_v3_1"], not_applicable={})
