# Kimi K3 XTML fixtures: the kimi_k3 tool parser (kimi_k3/kimi_k3.json) and the
# kimi_k3 reasoning parser (kimi_k3/reasoning.json).   python3 gen/kimi_k3.py .
import json, sys, os
from common import Fx
out = sys.argv[1]
O, CL, SEP, EOM = "<|open|>", "<|close|>", "<|sep|>", "<|end_of_msg|>"
def op(t): return O + t + SEP
def cl(t): return CL + t + SEP
def resp(t): return op("response") + t + cl("response")
def think(t): return op("think") + t + cl("think")
def arg(k, v, typ="string"): return op('argument key="%s" type="%s"' % (k, typ)) + v + cl("argument")
def call(tool, body, index="1"): return op('call tool="%s" index="%s"' % (tool, index)) + body + cl("call")
def tools(*calls): return op("tools") + "".join(calls) + cl("tools")
END = cl("message") + EOM
W = {"city": "Paris", "days": 3}
wcall = call("get_weather", arg("city", "Paris") + arg("days", "3", "number"))
def wid(i=0): return "get_weather:%d" % i

fx = Fx(); C = fx.C
def K(name, case, input, calls=(), **kw):
    # calls: (name, args, id) triples; ids are the model's
    fx.C(name, case, input, calls=[(n, a) for n, a, _ in calls], **kw)
    for c, (_, _, i) in zip(fx.cases[-1]["expected"]["calls"], calls):
        if i is not None: c["id"] = i
sample = resp("I'll check.") + tools(wcall) + END
K("single call, sample from the spec", "TOOLCALLING.batch.1", sample, content="I'll check.", calls=[("get_weather", W, "get_weather:0")], ref="PARSER_CASES.md sample; id tool:(index-1)")
K("parallel calls in one section", "TOOLCALLING.batch.2.a", tools(call("a", arg("x", "1", "integer"), "1"), call("b", arg("y", "two"), "2")) + END,
  calls=[("a", {"x": 1}, "a:0"), ("b", {"y": "two"}, "b:1")])
two = tools(call("a", "", "1"), call("b", arg("k", "v"), "2"))
K("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:30], two[30:]], calls=[("a", {}, "a:0"), ("b", {"k": "v"}, "b:1")])
K("call group with surrounding content", "TOOLCALLING.batch.2.c", resp("Checking.") + tools(call("a", "", "1"), call("b", "", "2")) + resp(" Done.") + END,
  content="Checking. Done.", calls=[("a", {}, "a:0"), ("b", {}, "b:1")])
K("distinct ids from indices", "TOOLCALLING.batch.2.d", tools(call("f", "", "1"), call("f", "", "2"), call("f", "", "3")), calls=[("f", {}, "f:0"), ("f", {}, "f:1"), ("f", {}, "f:2")])
K("text only in a response", "TOOLCALLING.batch.3", resp("Hello there.") + END, content="Hello there.")
K("plain unwrapped text passes through", "TOOLCALLING.batch.3", "No framing at all < | > <|op", content="No framing at all < | > <|op")
K("garbage inside a call body", "TOOLCALLING.batch.4.a", tools(call("f", "garbage {{{ <| >", "1")), calls=[("f", {}, "f:0")],
  ref="text between a call's elements is markup; the closed call has no arguments")
K("invalid JSON in a json element", "TOOLCALLING.batch.4.b", tools(call("f", op("json") + '{"a": 1,}' + cl("json"))) + resp("after"), content="after", abandoned=1,
  ref="library rule: the raw json form must be valid JSON (Dynamo does not validate it)")
K("call without a tool attribute", "TOOLCALLING.batch.4.c", tools(op('call index="1"') + arg("x", "1") + cl("call"), call("ok", "", "2")), calls=[("ok", {}, "ok:1")],
  ref="PARSER_CASES.md: consumed, no call")
K("argument without a key is skipped", "TOOLCALLING.batch.4.c", tools(call("f", op('argument type="string"') + "lost" + cl("argument") + arg("k", "v"))), calls=[("f", {"k": "v"}, "f:0")])
K("json element that is not an object", "TOOLCALLING.batch.4.c", tools(call("f", op("json") + "[1, 2]" + cl("json"))), abandoned=1)
K("unknown and orphan tags are removed", "TOOLCALLING.batch.4.d", "a" + op("weird x=1") + "b" + cl("call") + "c" + SEP + "d", content="abcd")
K("json mixed with argument elements", "TOOLCALLING.batch.4.d", tools(call("f", arg("k", "v") + op("json") + "{}" + cl("json"))), abandoned=1)
K("bad call followed by a valid call", "TOOLCALLING.batch.4.e", tools(call("f", op("json") + "nope" + cl("json")), call("g", arg("k", "v"), "2")), calls=[("g", {"k": "v"}, "g:1")], abandoned=1)
K("call complete, section and message close absent", "TOOLCALLING.batch.5.a", op("tools") + wcall, calls=[("get_weather", W, wid())])
K("call close absent, body ends with a complete argument", "TOOLCALLING.batch.5.a", op("tools") + op('call tool="get_weather" index="1"') + arg("city", "Paris") + arg("days", "3", "number"),
  calls=[("get_weather", W, wid())], ref="PARSER_CASES.md end of stream: delimiter-terminated elements")
K("close tags without openers", "TOOLCALLING.batch.5.b", "Sure." + cl("call") + cl("tools") + " more", content="Sure. more")
K("value cut by end of stream", "TOOLCALLING.batch.5.c", resp("x") + op("tools") + op('call tool="get_weather" index="1"') + op('argument key="city" type="string"') + "Par",
  content="x", abandoned=1)
K("end of stream inside the call tag", "TOOLCALLING.batch.5.c", op("tools") + O + 'call tool="get_wea', ref="an unfinished tag is dropped")
K("empty call body at end of stream", "TOOLCALLING.batch.5.c", op("tools") + op('call tool="f" index="1"'), abandoned=1, ref="nothing delimits the body: not provably complete")
K("last call complete without its close", "TOOLCALLING.batch.5.d", op("tools") + call("a", "", "1") + op('call tool="b" index="2"') + arg("y", "2", "integer"),
  calls=[("a", {}, "a:0"), ("b", {"y": 2}, "b:1")])
K("last call truncated inside a value", "TOOLCALLING.batch.5.e", op("tools") + call("a", "", "1") + op('call tool="b" index="2"') + op('argument key="y" type="string"') + "tr",
  calls=[("a", {}, "a:0")], abandoned=1)
K("empty call body", "TOOLCALLING.batch.6.a", tools(call("get_time", "")), calls=[("get_time", {}, "get_time:0")], ref="PARSER_CASES.md: an empty call body is {}")
K("empty json object", "TOOLCALLING.batch.6.a", tools(call("get_time", op("json") + "{}" + cl("json"))), calls=[("get_time", {}, "get_time:0")])
K("whitespace-only call body", "TOOLCALLING.batch.6.b", tools(call("get_time", "\n  \n")), calls=[("get_time", {}, "get_time:0")])
K("json element with whitespace", "TOOLCALLING.batch.6.b", tools(call("get_time", op("json") + "\n{\n}\n" + cl("json"))), calls=[("get_time", "{\n}", "get_time:0")])
K("no argument elements at all", "TOOLCALLING.batch.6.c", tools(op('call tool="get_time" index="1"') + cl("call")), calls=[("get_time", {}, "get_time:0")])
K("typed values", "TOOLCALLING.batch.7.a", tools(call("f", arg("i", "1", "integer") + arg("f", " 2.50 ", "number") + arg("b", "true", "boolean") + arg("n", "null", "null") +
  arg("l", '[1, "two", false]', "array") + arg("o", '{"k": "v"}', "object"))),
  calls=[("f", '{"i":1,"f":2.50,"b":true,"n":null,"l":[1,"two",false],"o":{"k":"v"}}', "f:0")], ref="other types: the raw value if it is JSON, lexically compacted (1.0 stays 1.0)")
K("string values verbatim, escaped for JSON", "TOOLCALLING.batch.7.b", tools(call("f", arg("s", 'a "q" \\ b\n\tc') + arg("u", "Zürich 東京 🌆") + arg("h", "<b>&amp;</b>"))),
  calls=[("f", {"s": 'a "q" \\ b\n\tc', "u": "Zürich 東京 🌆", "h": "<b>&amp;</b>"}, "f:0")], ref="no entity decoding of values; string values are not trimmed")
K("typed value that is not JSON becomes a string", "TOOLCALLING.batch.7.c", tools(call("set_temp", arg("celsius", "twenty", "integer"))), calls=[("set_temp", {"celsius": "twenty"}, "set_temp:0")])
K("string-typed digits stay a string", "TOOLCALLING.batch.7.c", tools(call("set_temp", arg("celsius", "20"))), calls=[("set_temp", {"celsius": "20"}, "set_temp:0")])
K("nested object value", "TOOLCALLING.batch.7.d", tools(call("f", arg("a", '{"b": {"c": [1, {"d": [2, 3]}]}}', "object") + arg("e", "x"))),
  calls=[("f", {"a": {"b": {"c": [1, {"d": [2, 3]}]}}, "e": "x"}, "f:0")])
K("repeated key emitted again, last wins", "TOOLCALLING.batch.7.e", tools(call("f", arg("k", "1", "integer") + arg("j", "x") + arg("k", "2", "integer"))),
  calls=[("f", '{"k":1,"j":"x","k":2}', "f:0")], ref="Dynamo keeps the first position with the last value; the library streams and emits the key again (decoders resolve last-wins: the same value), as for GLM-4.7")
K("empty containers, null and empty string", "TOOLCALLING.batch.7.e", tools(call("f", arg("o", "{}", "object") + arg("a", "[]", "array") + arg("n", "null", "string") + arg("e", ""))),
  calls=[("f", {"o": {}, "a": [], "n": "null", "e": ""}, "f:0")])
K("large integers exact", "TOOLCALLING.batch.7.f", tools(call("f", arg("id", "12345678901234567890123", "integer") + arg("x", "-9007199254740993", "number"))),
  calls=[("f", '{"id":12345678901234567890123,"x":-9007199254740993}', "f:0")])
K("text before the section", "TOOLCALLING.batch.8.a", resp("Let me look.") + tools(wcall), content="Let me look.", calls=[("get_weather", W, wid())])
K("text after the section", "TOOLCALLING.batch.8.b", tools(wcall) + resp("Here you go."), content="Here you go.", calls=[("get_weather", W, wid())])
K("text around the section", "TOOLCALLING.batch.8.c", "plain " + tools(wcall) + " tail", content="plain  tail", calls=[("get_weather", W, wid())])
K("text between sections", "TOOLCALLING.batch.8.d", tools(call("a", "")) + resp("between") + tools(call("b", "", "2")), content="between", calls=[("a", {}, "a:0"), ("b", {}, "b:1")])
K("empty output", "TOOLCALLING.batch.9.a", "")
K("whitespace only", "TOOLCALLING.batch.9.b", "\n \n", content="\n \n")
K("empty tools section", "TOOLCALLING.batch.9.c", resp("x") + tools() + END, content="x")
K("the same call twice", "TOOLCALLING.batch.10", tools(call("get_weather", arg("city", "Paris"), "1"), call("get_weather", arg("city", "Paris"), "2")),
  calls=[("get_weather", {"city": "Paris"}, "get_weather:0"), ("get_weather", {"city": "Paris"}, "get_weather:1")])
K("unknown tool is emitted", "TOOLCALLING.batch.13.a", tools(call("not_declared", "")), calls=[("not_declared", {}, "not_declared:0")],
  tools=[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}])
K("known and unknown mixed", "TOOLCALLING.batch.13.c", tools(wcall, call("other", "", "2")), calls=[("get_weather", W, wid()), ("other", {}, "other:1")],
  tools=[{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}])
K("separators inside a value", "TOOLCALLING.batch.30.a", tools(call("f", arg("s", "a; b, c"))), calls=[("f", {"s": "a; b, c"}, "f:0")])
K("braces inside a value", "TOOLCALLING.batch.30.b", tools(call("f", arg("s", "} ] { ["))), calls=[("f", {"s": "} ] { ["}, "f:0")])
K("other tags inside a value are text", "TOOLCALLING.batch.30.c", tools(call("f", arg("s", cl("call") + cl("tools") + EOM + O + "x"))),
  calls=[("f", {"s": cl("call") + cl("tools") + EOM + O + "x"}, "f:0")], ref="PARSER_CASES.md: a value ends only at its own close tag")
K("markers inside a json string", "TOOLCALLING.batch.30.c", tools(call("f", op("json") + '{"s": "<|close|>json<|sep|>"}' + cl("json"))), calls=[("f", {"s": "<|close|>json<|sep|>"}, "f:0")],
  ref="the json element's object is scanned string-aware (DESIGN.md invariant 4)")
K("separator in the first call before the second", "TOOLCALLING.batch.31.a", tools(call("f", arg("s", "x, y")), call("g", arg("t", ";"), "2")), calls=[("f", {"s": "x, y"}, "f:0"), ("g", {"t": ";"}, "g:1")])
K("close-call text in a value before a later call", "TOOLCALLING.batch.31.b", tools(call("f", arg("s", cl("call"))), call("g", "", "2")), calls=[("f", {"s": cl("call")}, "f:0"), ("g", {}, "g:1")])
K("whole call in one chunk", "TOOLCALLING.stream.1.a", sample, chunks=[sample], content="I'll check.", calls=[("get_weather", W, wid())])
K("split at every boundary", "TOOLCALLING.stream.1.b", sample, chunks=[O, "response", SEP, "I'll check.", CL, "response", SEP, O, "tools", SEP, O, 'call tool="get_', 'weather" index="1"', SEP,
  O, 'argument key="city" type="string"', SEP, "Pa", "ris", CL, "argument", SEP, O, 'argument key="days" type="number"', SEP, "3", CL, "argument", SEP, CL, "call", SEP, CL, "tools", SEP, CL, "message", SEP, EOM],
  content="I'll check.", calls=[("get_weather", W, wid())])
big = ("line of file content é世界\n" * 340)
bc = tools(call("write_file", arg("path", "/tmp/a") + arg("content", big)))
assert len(bc.encode()) > 10000
K("argument of more than 10 KB", "TOOLCALLING.stream.1.b", bc, calls=[("write_file", {"path": "/tmp/a", "content": big}, "write_file:0")], reasoning_parser="-")
bj = tools(call("write_file", op("json") + json.dumps({"path": "/tmp/b", "content": big}, ensure_ascii=False) + cl("json")))
K("json element of more than 10 KB", "TOOLCALLING.stream.1.b", bj, calls=[("write_file", {"path": "/tmp/b", "content": big}, "write_file:0")], reasoning_parser="-")
t2 = tools(call("a", arg("k", "one")), call("b", arg("k", "two"), "2"))
K("two calls over many chunks", "TOOLCALLING.stream.2", t2, chunks=[t2[i:i+5] for i in range(0, len(t2), 5)], calls=[("a", {"k": "one"}, "a:0"), ("b", {"k": "two"}, "b:1")])
K("markers split mid-token", "TOOLCALLING.stream.3", sample, chunks=[sample[:3], sample[3:40], sample[40:47], sample[47:120], sample[120:200], sample[200:]], content="I'll check.", calls=[("get_weather", W, wid())])
K("complete arguments, no close, end of stream", "TOOLCALLING.stream.4.a", op("tools") + op('call tool="f" index="1"') + arg("k", "v"), calls=[("f", {"k": "v"}, "f:0")])
K("truncated mid-body", "TOOLCALLING.stream.4.b", op("tools") + op('call tool="f" index="1"') + op("json") + '{"k": [1', abandoned=1)
K("arguments without call wrapper, then repeated closes", "TOOLCALLING.stream.4.c", arg("k", "v") + cl("call") + cl("call") + cl("tools"), chunks=[arg("k", "v"), cl("call"), cl("call") + cl("tools")],
  content="v", ref="an argument outside a call is not a call: its tags are removed, its text is content; orphan closes removed")
K("names with hyphens and dots", "TOOLCALLING.fmt.1", tools(call("mcp__portal__search-documents", ""), call("ns.tool_v2", "", "2")),
  calls=[("mcp__portal__search-documents", {}, "mcp__portal__search-documents:0"), ("ns.tool_v2", {}, "ns.tool_v2:1")])
K("unicode names and escaped attributes", "TOOLCALLING.fmt.1", tools(call("天気", ""), op('call tool="say &quot;hi&quot; &amp;quot;" index="2"') + cl("call")),
  calls=[("天気", {}, "天気:0"), ('say "hi" &quot;', {}, 'say "hi" &quot;:1')], ref="PARSER_CASES.md: attribute values unescape &quot; then &amp;")
K("ids without or with a non-integer index", "TOOLCALLING.fmt.1", tools(op('call tool="a"') + cl("call"), op('call tool="b" index="x7"') + cl("call")),
  calls=[("a", {}, "a"), ("b", {}, "b:x7")], ref="PARSER_CASES.md: tool when absent, tool:raw when not an integer")
K("spaced tag variants", "TOOLCALLING.fmt.2", "<|open|> tools <|sep|><|open|> call tool=\"f\" index=\"1\" <|sep|><|open|> argument key=\"k\" type=\"string\" <|sep|>v<|close|> argument <|sep|><|close|> call <|sep|><|close|> tools <|sep|>",
  calls=[("f", {"k": "v"}, "f:0")], ref="PARSER_CASES.md: spaced variants are normalised")
K("whitespace between elements", "TOOLCALLING.fmt.2", op("tools") + "\n" + op('call tool="f" index="1"') + "\n  " + arg("k", "v") + "\n" + cl("call") + "\n" + cl("tools"), calls=[("f", {"k": "v"}, "f:0")])
K("json form and argument form", "TOOLCALLING.fmt.3", tools(call("f", op("json") + '{"k": "v", "n": 1.0}' + cl("json")), call("g", arg("k", "v") + arg("n", "1.0", "number"), "2")),
  calls=[("f", '{"k": "v", "n": 1.0}', "f:0"), ("g", '{"k":"v","n":1.0}', "g:1")], ref="the json element keeps the model's bytes; argument elements build compact JSON")
K("bare call without a tools section", "TOOLCALLING.fmt.3", resp("x") + call("f", arg("k", "v")), content="x", calls=[("f", {"k": "v"}, "f:0")])
K("empty response and tools", "TOOLCALLING.fmt.4", "a" + resp("") + tools() + "b", content="ab")
K("native id preserved", "TOOLCALLING.fmt.5", tools(call("get_weather", arg("city", "Paris"), "7")), calls=[("get_weather", {"city": "Paris"}, "get_weather:6")],
  ref="fmt.5 (1): the model's index gives the id; (2)/(3) name/arguments envelopes do not exist in XTML")
K("leading message tag stripped, epilogue dropped", "TOOLCALLING.batch.3", op('message role="assistant"') + resp("Hi.") + END + "epilogue text", content="Hi.",
  ref="PARSER_CASES.md: a leading <|open|>message…<|sep|> is stripped; text after the message end is dropped")
K("text after end_of_msg is dropped", "TOOLCALLING.batch.8.b", resp("a") + EOM + "junk" + tools(call("f", "")), content="a", ref="everything after the message end is epilogue")
K("open tools closed by the message end", "TOOLCALLING.batch.5.d", op("tools") + call("a", "") + op('call tool="b" index="2"') + arg("k", "v") + END,
  calls=[("a", {}, "a:0"), ("b", {"k": "v"}, "b:1")], ref="the message close delimits the open call like the end of stream")
K("typed value over the buffer limit abandons the call", "TOOLCALLING.batch.4.d", tools(call("f", arg("o", '{"k": "' + "x" * 100 + '"}', "object"))), abandoned=1, options={"max_call_buffer": 64},
  ref="PARSER_CASES.md: typed values are buffered up to the per-call limit")
fx.dump(os.path.join(out, "kimi_k3", "kimi_k3.json"), family="kimi_k3",
  description="Kimi K3 XTML, tool side; every case runs with the kimi_k3 tool parser alone and with the kimi_k3 reasoning parser: one machine",
  tool_parsers=["kimi_k3", "kimi-k3"], reasoning_parsers=["-", "kimi_k3", "kimi-k3"],
  not_applicable={
    "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
    "TOOLCALLING.batch.13.d": "the index attribute numbers calls, it does not reference tools",
    "TOOLCALLING.xml.1": "XTML values are taken verbatim (no entity pass; only attribute values unescape &quot; and &amp;, pinned under fmt.1)",
    "TOOLCALLING.xml.2": "argument elements carry their own type attribute; the schema is not consulted",
    "TOOLCALLING.harmony.1": "gpt-oss only", "TOOLCALLING.harmony.2": "gpt-oss only",
  })

# ---------------------------------------------------------------- reasoning
fx = Fx(); C = fx.C
sec = tools(wcall)
C("empty input", "REASONING.batch.1.a", "")
C("plain text", "REASONING.batch.1.b", "Hello", content="Hello")
C("whitespace only", "REASONING.batch.1.c", " \n", content=" \n")
C("think only", "REASONING.batch.2.a", think("pondering") + END, reasoning="pondering")
C("text before the span", "REASONING.batch.2.b", resp("Hi. ") + think("hmm"), content="Hi. ", reasoning="hmm")
C("span then answer", "REASONING.batch.2.c", think("hmm") + resp("Answer.") + END, reasoning="hmm", content="Answer.")
C("text on both sides", "REASONING.batch.2.d", "a " + think("b") + " c", content="a  c", reasoning="b")
C("empty span", "REASONING.batch.2.e", think("") + resp("x"), content="x")
cx = "Multi\n\nparagraph `code <think>` 東京 🌆 <|op and <|clo ."
C("complex body", "REASONING.batch.2.f", think(cx) + resp("ok"), reasoning=cx, content="ok")
C("closed reasoning then a tools section, raw", "REASONING.batch.3.a", think("r") + sec + END, reasoning="r", content=sec, allow_markup=True,
  ref="library rule: the kimi_k3 reasoning parser without the tool parser forwards tools sections raw to content, for a downstream kimi_k3 tool parser (as gpt_oss does)")
C("closed reasoning then a call, with the tool parser", "REASONING.batch.3.a", think("r") + sec + END, reasoning="r", calls=[("get_weather", W)], tool_parser="kimi_k3")
C("open reasoning interrupted by a tools section", "REASONING.batch.3.b", op("think") + "r" + sec, reasoning="r", content=sec, allow_markup=True,
  ref="PARSER_CASES.md: <|open|> ends reasoning")
C("open reasoning interrupted by a tools section, tool parser", "REASONING.batch.3.b", op("think") + "r" + sec, reasoning="r", calls=[("get_weather", W)], tool_parser="kimi_k3")
C("open reasoning ended by end_of_msg", "REASONING.batch.3.b", op("think") + "r" + EOM + "x", reasoning="r")
C("dangling close is stripped", "REASONING.batch.4", "text" + cl("think") + "more", content="textmore",
  ref="library rule: a close without an open is markup; reasoning opened by the prompt is Config.InReasoning (PRE.3), which replaces Dynamo's dangling-end recovery")
C("spaced reasoning close ends reasoning as a tag", "REASONING.batch.4", op("think") + "r" + "<|close|> think <|sep|>" + "after", reasoning="r", content="after",
  ref="the reasoning close counts only in canonical form, but any <|close|> ends reasoning; the spaced tag is then an orphan close")
C("nested think open dropped", "REASONING.batch.4", op("think") + "a" + op("think") + "b" + cl("think"), reasoning="ab")
C("unterminated reasoning", "REASONING.batch.5", op("think") + "still going", reasoning="still going")
C("template-opened reasoning", "REASONING.batch.5", "thinking" + cl("think") + resp("done"), reasoning="thinking", content="done", options={"in_reasoning": True})
C("two spans concatenated", "REASONING.batch.6.a", think("a") + resp("x") + think("b"), reasoning="ab", content="x")
C("later span unterminated", "REASONING.batch.6.b", think("a") + op("think") + "b", reasoning="ab")
C("empty chunks", "REASONING.stream.1.a", think("r") + resp("c"), chunks=["", think("r"), "", resp("c"), ""], reasoning="r", content="c")
C("marker-free stream", "REASONING.stream.1.b", "one two", chunks=["one", " two"], content="one two")
C("one span over chunks", "REASONING.stream.2.a", think("abc"), chunks=[O, "think", SEP, "a", "b", "c", CL, "think", SEP], reasoning="abc")
C("several spans over chunks", "REASONING.stream.2.b", think("a") + resp("x") + think("b"), chunks=[think("a")[:10], think("a")[10:] + resp("x"), think("b")], reasoning="ab", content="x")
C("start marker split", "REASONING.stream.3.a", think("r"), chunks=["<|op", "en|>thi", "nk<|sep|>r" + cl("think")], reasoning="r")
C("end marker split", "REASONING.stream.3.b", think("r") + resp("c"), chunks=[op("think") + "r<|close|>thi", "nk<|sep|>" + resp("c")], reasoning="r", content="c")
C("held prefix that is not a marker", "REASONING.stream.3.c", think("a <|clo") + "b <|o", chunks=[op("think") + "a <|clo", cl("think") + "b <|o"], reasoning="a <|clo", content="b <|o")
C("end split after the lone <", "REASONING.stream.3.d", think("r") + sec, chunks=[op("think") + "r<", cl("think")[1:] + sec], reasoning="r", calls=[("get_weather", W)], tool_parser="kimi_k3")
C("re-entry split at the lone <", "REASONING.stream.3.e", think("a") + resp("x") + think("b"), chunks=[think("a") + resp("x") + "<", think("b")[1:]], reasoning="ab", content="x")
C("tool-start token split across chunks", "REASONING.stream.4.a", op("think") + "r" + sec, chunks=[op("think") + "r<|op", "en|>tools<|sep|>" + sec[len(op("tools")):]],
  reasoning="r", calls=[("get_weather", W)], tool_parser="kimi_k3")
fx.dump(os.path.join(out, "kimi_k3", "reasoning.json"), family="kimi_k3",
  description="Kimi K3 XTML, reasoning side: without the tool parser tools sections are forwarded raw to content; cases with tool_parser kimi_k3 run the same machine with calls",
  reasoning_parsers=["kimi_k3", "kimi-k3"],
  not_applicable={"REASONING.batch.1.d": "null upstream content is wrapper-level: a Parser is fed bytes; nil and empty chunks are the same no-op (stream.1.a)",
    "REASONING.batch.3.c": "Harmony only", "REASONING.batch.3.d": "Harmony only", "REASONING.batch.3.e": "Harmony only", "REASONING.batch.3.f": "Harmony only"})
