# Harmony (gpt-oss) fixtures: the harmony tool parser (harmony/harmony.json), the gpt_oss
# reasoning parser (gpt_oss/reasoning.json) and the gpt-oss-20b engine captures
# (captures/gpt-oss-20b.json). PARSER_CASES.md.
#   python3 gen/harmony.py .   (from parsers/testdata; captures need ../shared/testdata or ENGINE_STREAMS)
import json, sys, os, glob
from common import Fx
out = sys.argv[1]

S, CH, M, CO, E, R, CA = "<|start|>", "<|channel|>", "<|message|>", "<|constrain|>", "<|end|>", "<|return|>", "<|call|>"
A = S + "assistant"
def an(t, lead=True):  # analysis message
    return (A if lead else "") + CH + "analysis" + M + t + E
def first_an(t):  # the first message: the prompt already wrote <|start|>assistant
    return CH + "analysis" + M + t + E
def com(t, end=E):  # recipientless commentary (preamble)
    return A + CH + "commentary" + M + t + end
def fin(t, end=R, lead=True):
    return (A if lead else "") + CH + "final" + M + t + end
def call(name, args, ch="commentary", ct=" " + CO + "json", end=CA, lead=True):
    return (A if lead else "") + CH + ch + " to=functions." + name + ct + M + args + end

W = {"location": "San Francisco", "unit": "celsius"}
WJ = '{"location":"San Francisco","unit":"celsius"}'
weather_tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}, "unit": {"type": "string"}}, "required": ["location"]}}}]
int_tools = [{"type": "function", "function": {"name": "set_temp", "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}}}}}]

# ---------------------------------------------------------------- tool parser
fx = Fx(); C = fx.C
r1 = "Need to use function get_weather."
C("single call after analysis", "TOOLCALLING.batch.1", first_an(r1) + call("get_weather", WJ), reasoning=r1, calls=[("get_weather", W)], tools=weather_tools,
  ref="PARSER_CASES.md sample")
# batch.2
C("parallel calls, one message each", "TOOLCALLING.batch.2.a", call("a", '{"x":1}', lead=False) + call("b", '{"y":2}'), calls=[("a", {"x": 1}), ("b", {"y": 2})])
two = call("get_weather", '{"location":"Boston"}', lead=False) + call("get_weather", '{"location":"New York"}')
C("two calls closing in one delta", "TOOLCALLING.batch.2.b", first_an("two") + two,
  chunks=[first_an("two") + two[:60], two[60:]], reasoning="two", calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "New York"})],
  ref="PARSER_CASES.md: every complete construct in one Feed")
C("call group with preamble and final answer", "TOOLCALLING.batch.2.c",
  first_an("plan") + com("Checking both cities.") + call("get_weather", '{"location":"Boston"}') + call("get_weather", '{"location":"NYC"}') + fin("Both are sunny."),
  reasoning="plan", content="Checking both cities.\nBoth are sunny.", calls=[("get_weather", {"location": "Boston"}), ("get_weather", {"location": "NYC"})],
  ref="PARSER_CASES.md: content messages are joined with \\n")
C("three calls get distinct ids and consecutive indices", "TOOLCALLING.batch.2.d", call("a", "{}", lead=False) + call("b", "{}") + call("c", "{}"), calls=[("a", {}), ("b", {}), ("c", {})])
# batch.3
C("final answer only", "TOOLCALLING.batch.3", first_an("Simple.") + fin("It is sunny."), reasoning="Simple.", content="It is sunny.")
C("text with marker-like fragments", "TOOLCALLING.batch.3", "a <| b <|chan ce <|end <|start| x |> <|", content="a <| b <|chan ce <|end <|start| x |> <|")
C("output without any header is content", "TOOLCALLING.batch.3", "Just text, no Harmony framing.", content="Just text, no Harmony framing.",
  ref="PARSER_CASES.md Harmony text outside any message is content")
C("special tokens skipped by the engine: plain text", "TOOLCALLING.batch.3", 'analysisNeed weather.assistantcommentary to=functions.get_weather json{"location":"SF"}',
  content='analysisNeed weather.assistantcommentary to=functions.get_weather json{"location":"SF"}',
  ref="PARSER_CASES.md / PRE.1: without the special tokens (skip_special_tokens=true) nothing marks a message; the text is content. The engine must keep special tokens for gpt-oss")
# batch.4
C("garbage body", "TOOLCALLING.batch.4.a", call("a", "this is not json", lead=False), abandoned=1)
C("garbage with orphan markers between text", "TOOLCALLING.batch.4.a", "A " + M + CO + "}{" + CA + " B" + E + R, content="A }{ B",
  ref="orphan markers are removed, text kept")
C("invalid JSON syntax in a well-formed envelope", "TOOLCALLING.batch.4.b", call("get_weather", '{"location": "Boston",}', lead=False), abandoned=1)
C("invalid JSON then final answer", "TOOLCALLING.batch.4.b", call("a", '{"x": tru}', lead=False) + fin("Sorry."), content="Sorry.", abandoned=1)
C("recipient without a function name", "TOOLCALLING.batch.4.c", CH + "commentary to=functions. json" + M + '{"x":1}' + CA + fin("ok"), content="ok",
  ref="an empty name is not a call: the message is dropped")
C("recipient functions without a dot", "TOOLCALLING.batch.4.c", CH + "commentary to=functions json" + M + '{"x":1}' + CA, ref="not functions.*: dropped (§6.11 other recipients)")
C("body is an array", "TOOLCALLING.batch.4.c", call("a", "[1, 2]", lead=False), abandoned=1, ref="arguments must be an object")
C("body is a string", "TOOLCALLING.batch.4.c", call("a", '"{\\"x\\":1}"', lead=False), abandoned=1, ref="the body is the arguments value itself; a string is malformed")
C("header ended by an end marker", "TOOLCALLING.batch.4.d", CH + "commentary to=functions.a json" + CA + "after", content="after", ref="a header without <|message|> is dropped with its message")
C("bytes after the object are dropped", "TOOLCALLING.batch.4.d", call("a", '{"x":1}}} junk', lead=False) + "tail", content="tail", calls=[("a", {"x": 1})],
  ref="library rule: the call ends when its object closes; the rest of the body up to the end marker is markup")
C("unclosed object before the end marker", "TOOLCALLING.batch.4.d", call("a", '{"x": 1', lead=False) + fin("done"), content="done", abandoned=1,
  ref="the end marker is outside a string, so the object is cut there: abandoned")
C("bad call followed by a valid call", "TOOLCALLING.batch.4.e", call("a", "oops", lead=False) + call("b", '{"ok":true}'), calls=[("b", {"ok": True})], abandoned=1)
C("broken body resynchronises at the next header", "TOOLCALLING.batch.4.e", call("a", '{"x" 1', end="", lead=False) + call("b", "{}"), calls=[("b", {})], abandoned=1)
# batch.5
C("complete object, <|call|> missing at end of stream", "TOOLCALLING.batch.5.a", first_an("r") + call("get_weather", WJ, end=""), reasoning="r", calls=[("get_weather", W)],
  ref="PARSER_CASES.md / §9.6: <|call|> is an EOS token and may be hidden by stop handling (Dynamo PR #9778)")
C("end marker present, header absent", "TOOLCALLING.batch.5.b", "Sure." + CA + " More text", content="Sure. More text")
C("body without header keeps its text, end marker removed", "TOOLCALLING.batch.5.b", '{"x": 1}' + CA, content='{"x": 1}')
C("EOS inside the arguments", "TOOLCALLING.batch.5.c", call("get_weather", '{"location": "Bos', end="", lead=False), abandoned=1)
C("EOS inside the header", "TOOLCALLING.batch.5.c", "Hi" + CH + "commentary to=functions.get_wea", content="Hi")
C("EOS right after <|message|>", "TOOLCALLING.batch.5.c", call("a", "", end="", lead=False), abandoned=1, ref="the call started at <|message|>; an empty unterminated body is not a call")
C("last call complete but missing its end marker", "TOOLCALLING.batch.5.d", call("a", "{}", lead=False) + call("b", '{"y":2}', end=""), calls=[("a", {}), ("b", {"y": 2})])
C("last call truncated inside a value", "TOOLCALLING.batch.5.e", call("a", "{}", lead=False) + call("b", '{"y":"tru', end=""), calls=[("a", {})], abandoned=1)
# batch.6
C("empty object", "TOOLCALLING.batch.6.a", call("get_time", "{}", lead=False), calls=[("get_time", {})])
C("object with whitespace inside", "TOOLCALLING.batch.6.b", call("get_time", "{\n}", lead=False), calls=[("get_time", "{\n}")])
C("empty body closed by <|call|>", "TOOLCALLING.batch.6.c", call("get_time", "", lead=False), calls=[("get_time", {})],
  ref="library rule: a directed message whose body is empty and closed by an end marker is a call with {}")
C("whitespace body closed by <|call|>", "TOOLCALLING.batch.6.c", call("get_time", " \n ", lead=False), calls=[("get_time", {})])
# batch.7
C("scalar and container matrix", "TOOLCALLING.batch.7.a", call("f", '{"i": 1, "f": 2.5, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}', lead=False),
  calls=[("f", '{"i": 1, "f": 2.5, "b": true, "n": null, "l": [1, "two", false], "o": {"k": "v"}}')])
C("escapes, unicode and HTML kept verbatim", "TOOLCALLING.batch.7.b", call("f", '{"s": "a\\"b\\\\c\\n\\u00e9", "u": "Zürich 東京 🌆", "h": "<b>&amp;</b>"}', lead=False),
  calls=[("f", '{"s": "a\\"b\\\\c\\n\\u00e9", "u": "Zürich 東京 🌆", "h": "<b>&amp;</b>"}')])
C("raw newline inside a string is escaped", "TOOLCALLING.batch.7.b", call("write", '{"code": "a\n\tb"}', lead=False), calls=[("write", '{"code": "a\\n\\tb"}')],
  ref="PARSER_CASES.md library rule: raw control characters")
C("schema mismatch preserved", "TOOLCALLING.batch.7.c", call("set_temp", '{"celsius": "20"}', lead=False), calls=[("set_temp", {"celsius": "20"})], tools=int_tools)
C("nested arguments", "TOOLCALLING.batch.7.d", call("f", '{"a": {"b": {"c": [1, {"d": [2, 3]}]}}, "e": "x"}', lead=False), calls=[("f", {"a": {"b": {"c": [1, {"d": [2, 3]}]}}, "e": "x"})])
C("large, deep, null, empty and duplicate keys kept", "TOOLCALLING.batch.7.e", call("f", '{"k": 1, "k": 2, "n": null, "e": {}, "a": [], "d": [[[[[[[[]]]]]]]]}', lead=False),
  calls=[("f", '{"k": 1, "k": 2, "n": null, "e": {}, "a": [], "d": [[[[[[[[]]]]]]]]}')])
C("integers beyond 2^53 exact", "TOOLCALLING.batch.7.f", call("f", '{"id": 12345678901234567890123, "neg": -9007199254740993, "e": 1.0e400}', lead=False),
  calls=[("f", '{"id": 12345678901234567890123, "neg": -9007199254740993, "e": 1.0e400}')])
# batch.8
C("commentary preamble before the call", "TOOLCALLING.batch.8.a", first_an("r") + com("Let me check.") + call("get_weather", WJ), reasoning="r", content="Let me check.", calls=[("get_weather", W)])
C("text outside messages before the call", "TOOLCALLING.batch.8.a", "Hello " + call("get_weather", WJ, lead=False), content="Hello ", calls=[("get_weather", W)],
  ref="PARSER_CASES.md: text before the first header is content")
C("final answer after the call survives", "TOOLCALLING.batch.8.b", call("get_weather", WJ, lead=False) + fin("It is 18°C."), content="It is 18°C.", calls=[("get_weather", W)],
  ref="PARSER_CASES.md: SGLang suppresses final text after a call; the library keeps it")
C("text outside messages after the call", "TOOLCALLING.batch.8.b", call("get_weather", WJ, lead=False) + "\ntrailing", content="\ntrailing", calls=[("get_weather", W)])
C("preamble, call and final", "TOOLCALLING.batch.8.c", com("Checking.") + call("get_weather", WJ) + fin("Done."), content="Checking.\nDone.", calls=[("get_weather", W)])
C("commentary between calls", "TOOLCALLING.batch.8.d", call("a", "{}", lead=False) + com("Now the second.") + call("b", "{}"), content="Now the second.", calls=[("a", {}), ("b", {})])
# batch.9
C("empty output", "TOOLCALLING.batch.9.a", "")
C("whitespace only", "TOOLCALLING.batch.9.b", " \n\t ", content=" \n\t ", ref="text outside messages is content, untrimmed")
C("empty final message", "TOOLCALLING.batch.9.c", first_an("") + fin(""), ref="the empty container of Harmony is an empty message")
# batch.10
C("the same call twice", "TOOLCALLING.batch.10", call("get_weather", WJ, lead=False) + call("get_weather", WJ), calls=[("get_weather", W), ("get_weather", W)])
# batch.13
C("unknown tool is emitted", "TOOLCALLING.batch.13.a", call("not_declared", '{"q":1}', lead=False), calls=[("not_declared", {"q": 1})], tools=weather_tools)
C("known and unknown tools mixed", "TOOLCALLING.batch.13.c", call("get_weather", WJ, lead=False) + call("other", "{}"), calls=[("get_weather", W), ("other", {})], tools=weather_tools)
# batch.30 / 31
C("separators inside a string", "TOOLCALLING.batch.30.a", call("f", '{"s": "a; b, c"}', lead=False), calls=[("f", {"s": "a; b, c"})])
C("braces inside a string", "TOOLCALLING.batch.30.b", call("f", '{"s": "} ] { [ }}"}', lead=False), calls=[("f", {"s": "} ] { [ }}"})])
C("Harmony markers inside a string are text", "TOOLCALLING.batch.30.c", call("f", '{"s": "<|call|><|end|><|start|>assistant<|channel|>final<|message|>x"}', lead=False) + fin("ok"),
  content="ok", calls=[("f", {"s": "<|call|><|end|><|start|>assistant<|channel|>final<|message|>x"})], ref="DESIGN.md invariant 4: the arguments scan is string-aware")
C("separator in the first call before the second", "TOOLCALLING.batch.31.a", call("f", '{"s": "x, y"}', lead=False) + call("g", '{"t": ";"}'), calls=[("f", {"s": "x, y"}), ("g", {"t": ";"})])
C("structural text in a string before later calls", "TOOLCALLING.batch.31.b", call("f", '{"s": "}<|call|>{"}', lead=False) + call("g", "{}"), calls=[("f", {"s": "}<|call|>{"}), ("g", {})])
# stream
one = first_an("r") + call("get_weather", WJ)
C("whole call in one chunk", "TOOLCALLING.stream.1.a", one, chunks=[one], reasoning="r", calls=[("get_weather", W)])
C("split at every significant boundary", "TOOLCALLING.stream.1.b", one,
  chunks=[CH, "analysis", M, "r", E, S, "assistant", CH, "commentary", " to", "=functions", ".get", "_weather", " ", CO, "json", M, '{"', "location", '":"San Francisco","unit":"celsius"', "}", CA],
  reasoning="r", calls=[("get_weather", W)])
big = "x" * 6000 + "é世界" * 600 + "y" * 1000
bigcall = call("write_file", json.dumps({"path": "/tmp/a", "content": big}, ensure_ascii=False), lead=False)
assert len(bigcall.encode()) > 10000
C("call with more than 10 KB of arguments", "TOOLCALLING.stream.1.b", bigcall, calls=[("write_file", {"path": "/tmp/a", "content": big})], reasoning_parser="-",
  ref="PARSER_CASES.md: a single call of ≥ 10 KB streamed incrementally")
two2 = call("a", '{"k":"one"}', lead=False) + call("b", '{"k":"two"}')
C("two calls over many chunks", "TOOLCALLING.stream.2", two2, chunks=[two2[i:i+7] for i in range(0, len(two2), 7)], calls=[("a", {"k": "one"}), ("b", {"k": "two"})])
sp = call("get_weather", WJ, lead=False)
C("markers split mid-token", "TOOLCALLING.stream.3", sp, chunks=["<|chan", "nel|>commentary to=func", "tions.get_weather <|constr", "ain|>json<|mes", "sage|>", WJ, "<|ca", "ll|>"], calls=[("get_weather", W)])
C("complete arguments, no end marker, end of stream", "TOOLCALLING.stream.4.a", call("a", '{"x":1}', end="", lead=False), chunks=[call("a", "", end="", lead=False), '{"x":', "1}"], calls=[("a", {"x": 1})],
  ref="Dynamo's regex fallback recovers this on finalize; the library recovers it (the object's close is its delimiter)")
C("truncated mid-body", "TOOLCALLING.stream.4.b", call("a", '{"x": [1, 2', end="", lead=False), abandoned=1)
C("body without envelope, then repeated end markers", "TOOLCALLING.stream.4.c", '{"x": 1}' + CA + CA + E + R, chunks=['{"x": 1}', CA, CA + E, R], content='{"x": 1}',
  ref="orphan end markers are removed, the text stays content")
# fmt
C("hyphens, dots and underscores in names", "TOOLCALLING.fmt.1", call("mcp__portal__search-documents", "{}", lead=False) + call("ns.tool_v2", "{}"),
  calls=[("mcp__portal__search-documents", {}), ("ns.tool_v2", {})], ref="name = text after functions. (Dynamo: after the first '.')")
C("unicode and emoji names", "TOOLCALLING.fmt.1", call("天気", "{}", lead=False) + call("tool_🌆", "{}"), calls=[("天気", {}), ("tool_🌆", {})])
C("extra whitespace in the header", "TOOLCALLING.fmt.2", CH + "commentary  to=functions.get_weather   " + CO + "json " + M + "\n " + WJ + " \n" + CA, calls=[("get_weather", W)],
  ref="header tokens are separated by any whitespace; whitespace around the body's object is markup")
C("<|constrain|> glued to the recipient", "TOOLCALLING.fmt.2", CH + "commentary to=functions.get_weather" + CO + "json" + M + WJ + CA, calls=[("get_weather", W)])
C("recipient in the role header", "TOOLCALLING.fmt.3", first_an("r") + S + "assistant to=functions.get_weather" + CH + "commentary json" + M + WJ + CA, reasoning="r", calls=[("get_weather", W)],
  ref="PARSER_CASES.md: both header positions are accepted (llama.cpp handles both)")
C("content type without <|constrain|>", "TOOLCALLING.fmt.3", call("get_weather", WJ, ct=" json", lead=False), calls=[("get_weather", W)])
C("no content type", "TOOLCALLING.fmt.3", call("get_weather", WJ, ct="", lead=False), calls=[("get_weather", W)])
C("call closed by <|end|> or <|return|>", "TOOLCALLING.fmt.3", call("a", "{}", end=E, lead=False) + call("b", "{}", end=R), calls=[("a", {}), ("b", {})])
C("empty messages", "TOOLCALLING.fmt.4", "before " + com("") + fin("") + " after", content="before  after", ref="empty messages add nothing; surrounding text kept")
C("envelope-looking body is the arguments verbatim", "TOOLCALLING.fmt.5", call("f", '{"name": "g", "arguments": {"x": 1}}', lead=False), calls=[("f", {"name": "g", "arguments": {"x": 1}})],
  ref="Harmony has no name/arguments envelope: the body is the arguments object, so fmt.5's key-order and arguments/parameters axes reduce to this (no unwrapping)")
C("arguments with a key called name", "TOOLCALLING.fmt.5", call("create_user", '{"name": "Ada", "parameters": []}', lead=False), calls=[("create_user", {"name": "Ada", "parameters": []})])
# harmony.1 routing
C("routing: analysis, commentary, final", "TOOLCALLING.harmony.1", first_an("think") + com("preamble") + call("get_weather", WJ) + fin("answer"),
  reasoning="think", content="preamble\nanswer", calls=[("get_weather", W)], ref="PARSER_CASES.md routing table")
C("analysis-channel call is a tool call", "TOOLCALLING.harmony.1", first_an("r") + call("get_weather", WJ, ch="analysis"), reasoning="r", calls=[("get_weather", W)],
  ref="PARSER_CASES.md: ~47% of GPT-OSS-120B calls arrive on analysis (Dynamo PR #10366)")
C("other recipients are dropped", "TOOLCALLING.harmony.1", A + CH + "commentary to=browser.search json" + M + '{"q":"x"}' + CA + A + " to=python" + CH + "analysis" + M + "print(1)" + CA + fin("ok"),
  content="ok", ref="PARSER_CASES.md: only functions.* recipients are calls; the rest is a documented drop")
C("several analysis messages are joined with a newline", "TOOLCALLING.harmony.1", first_an("one") + an("two") + fin("a") + fin("b"), reasoning="one\ntwo", content="a\nb")
C("unknown channel is content", "TOOLCALLING.harmony.1", CH + "summary" + M + "visible" + E, content="visible")
# harmony.2 envelopes
C("complete envelope with <|start|>assistant", "TOOLCALLING.harmony.2", A + CH + "analysis" + M + "r" + E + call("f", "{}"), reasoning="r", calls=[("f", {})])
C("second message without <|start|>assistant", "TOOLCALLING.harmony.2", first_an("r") + call("f", '{"a":1}', lead=False), reasoning="r", calls=[("f", {"a": 1})])
C("output starts with a bare <|channel|>commentary", "TOOLCALLING.harmony.2", call("get_weather", WJ, lead=False) + fin("ok"), content="ok", calls=[("get_weather", W)],
  ref="PARSER_CASES.md (Dynamo PR #9897)")
C("missing <|call|> before the next message", "TOOLCALLING.harmony.2", call("a", '{"x":1}', end="", lead=False) + fin("after"), content="after", calls=[("a", {"x": 1})])
C("reasoning and tool in one turn, chunk splits in the header", "TOOLCALLING.harmony.2", one,
  chunks=[CH + "analysis" + M + "r" + E + S + "assistant" + CH + "commentary to=functions.get_", "weather <|cons", "train|>js", "on<|message", "|>" + WJ + CA],
  reasoning="r", calls=[("get_weather", W)])
C("header longer than the buffer limit drops the message", "TOOLCALLING.harmony.2", call("get_weather", WJ, lead=False) + fin("ok"), content="ok", options={"max_call_buffer": 40},
  ref="PARSER_CASES.md: the header is buffered up to the per-call limit; past it the message is dropped")
fx.dump(os.path.join(out, "harmony", "harmony.json"), family="harmony",
  description="gpt-oss Harmony, tool side; every case runs with the harmony tool parser alone and with the gpt_oss reasoning parser: one machine",
  tool_parsers=["harmony", "openai", "gpt-oss"], reasoning_parsers=["-", "gpt_oss", "openai_gptoss", "gpt-oss"],
  not_applicable={
    "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
    "TOOLCALLING.batch.13.d": "Harmony names tools, it never references them by ordinal",
    "TOOLCALLING.xml.1": "arguments are JSON (JSON escapes, no entity pass)",
    "TOOLCALLING.xml.2": "arguments are JSON with native types",
  })

# ---------------------------------------------------------------- reasoning parser
fx = Fx(); C = fx.C
env = call("get_weather", WJ)
C("empty input", "REASONING.batch.1.a", "")
C("plain text, no markers", "REASONING.batch.1.b", "Hello world", content="Hello world", ref="PARSER_CASES.md: text outside any message is content")
C("whitespace only", "REASONING.batch.1.c", "\n \n", content="\n \n")
C("analysis only", "REASONING.batch.2.a", first_an("Let me think."), reasoning="Let me think.")
C("visible preamble before the analysis", "REASONING.batch.2.b", CH + "commentary" + M + "Hmm." + E + an("thinking"), content="Hmm.", reasoning="thinking")
C("text outside messages before the analysis", "REASONING.batch.2.b", "lead " + first_an("thinking"), content="lead ", reasoning="thinking")
C("analysis then final", "REASONING.batch.2.c", first_an("Simple.") + fin("It is 4."), reasoning="Simple.", content="It is 4.")
C("visible text on both sides", "REASONING.batch.2.d", CH + "commentary" + M + "before" + E + an("mid") + fin("after"), content="before\nafter", reasoning="mid")
C("empty analysis", "REASONING.batch.2.e", first_an("") + fin("x"), content="x")
cx = "Step 1:\n\n```go\nfmt.Println(\"<think>\")\n```\nZürich 東京 🌆 — a <|chan ce and <|end of it |> done."
C("complex body", "REASONING.batch.2.f", first_an(cx) + fin("ok"), reasoning=cx, content="ok")
C("closed reasoning then a directed message: envelope forwarded raw", "REASONING.batch.3.a", first_an("r") + env, reasoning="r", content=env, allow_markup=True,
  ref="PARSER_CASES.md gpt_oss without a tool parser: the directed message reaches content as its raw envelope bytes, for a downstream harmony tool parser")
C("closed reasoning then a call, with the harmony tool parser", "REASONING.batch.3.a", first_an("r") + env, reasoning="r", calls=[("get_weather", W)], tool_parser="harmony")
C("open analysis interrupted by a directed message", "REASONING.batch.3.b", CH + "analysis" + M + "r" + env, reasoning="r", calls=[("get_weather", W)], tool_parser="harmony",
  ref="a header ends an unterminated message")
C("open analysis interrupted by a directed message, raw", "REASONING.batch.3.b", CH + "analysis" + M + "r" + env, reasoning="r", content=env, allow_markup=True)
C("recipientless commentary stays visible", "REASONING.batch.3.c", first_an("r") + com("Let me look that up."), reasoning="r", content="Let me look that up.")
C("directed commentary is suppressed from visible text", "REASONING.batch.3.d", first_an("r") + com("Looking.") + env, reasoning="r", content="Looking.", calls=[("get_weather", W)], tool_parser="harmony")
C("directed commentary reaches content only as its raw envelope", "REASONING.batch.3.d", first_an("r") + com("Looking.") + env, reasoning="r", content="Looking." + env, allow_markup=True)
aenv = call("get_weather", WJ, ch="analysis")
C("directed analysis message is a tool call, not reasoning", "REASONING.batch.3.e", first_an("r") + aenv, reasoning="r", calls=[("get_weather", W)], tool_parser="harmony",
  ref="CASES.md REASONING.batch.3.e (supersedes Dynamo #10111; Dynamo PR #10366)")
C("directed analysis message forwarded raw, not reasoning", "REASONING.batch.3.e", first_an("r") + aenv, reasoning="r", content=aenv, allow_markup=True)
C("reasoning, directed call, final answer", "REASONING.batch.3.f", first_an("r") + env + fin("Sunny."), reasoning="r", content="Sunny.", calls=[("get_weather", W)], tool_parser="harmony")
C("reasoning, directed call, final answer, raw", "REASONING.batch.3.f", first_an("r") + env + fin("Sunny."), reasoning="r", content=env + "Sunny.", allow_markup=True,
  ref="the raw envelope is forwarded as written; the \\n separator joins content messages only")
C("dangling end marker", "REASONING.batch.4", "answer" + E + " more", content="answer more")
C("invalid channel is content", "REASONING.batch.4", CH + "bogus" + M + "text" + E, content="text", ref="only analysis is reasoning; an unknown channel is visible text")
C("foreign markers are text", "REASONING.batch.4", first_an("a <think> b") + fin("</think> c"), reasoning="a <think> b", content="</think> c")
C("orphan <|message|> and <|constrain|> are removed", "REASONING.batch.4", "x" + M + "y" + CO + "z", content="xyz")
C("unterminated analysis at end of stream", "REASONING.batch.5", CH + "analysis" + M + "still thinking", reasoning="still thinking",
  ref="a message cut by the end of stream keeps its channel")
C("header cut at end of stream", "REASONING.batch.5", first_an("r") + S + "assistant" + CH + "fin", reasoning="r")
C("several analysis messages joined", "REASONING.batch.6.a", first_an("one") + an("two") + an("three"), reasoning="one\ntwo\nthree", ref="Dynamo inserts \\n between analysis messages")
C("later analysis message unterminated", "REASONING.batch.6.b", first_an("one") + A + CH + "analysis" + M + "two", reasoning="one\ntwo")
C("empty chunks are no-ops", "REASONING.stream.1.a", first_an("r") + fin("c"), chunks=["", first_an("r"), "", "", fin("c"), ""], reasoning="r", content="c")
C("marker-free stream", "REASONING.stream.1.b", "just some words", chunks=["just ", "some ", "words"], content="just some words")
C("one span over many chunks", "REASONING.stream.2.a", first_an("thinking hard"), chunks=[CH, "analysis", M, "think", "ing", " hard", E], reasoning="thinking hard")
C("several spans over chunks", "REASONING.stream.2.b", first_an("a") + fin("b") + an("c"), chunks=[first_an("a")[:9], first_an("a")[9:] + fin("b")[:20], fin("b")[20:] + an("c")], reasoning="a\nc", content="b")
C("start marker split", "REASONING.stream.3.a", first_an("r"), chunks=["<|chan", "nel|>analysis<|message|>r<|end|>"], reasoning="r")
C("end marker split", "REASONING.stream.3.b", first_an("r") + fin("c"), chunks=[CH + "analysis" + M + "r<|en", "d|>" + fin("c")], reasoning="r", content="c")
C("held prefix that is not a marker", "REASONING.stream.3.c", first_an("a <|sta") + "b<|mes", chunks=[CH + "analysis" + M + "a <|sta", "<|end|>b<|mes"], reasoning="a <|sta", content="b<|mes",
  ref="a prefix is released on the current channel once it diverges; at Finish held bytes are text")
C("end marker split after the lone <", "REASONING.stream.3.d", first_an("r") + env, chunks=[CH + "analysis" + M + "r<", "|end|>" + env], reasoning="r", calls=[("get_weather", W)], tool_parser="harmony")
C("re-entry split at the lone <", "REASONING.stream.3.e", first_an("a") + fin("x") + an("b"), chunks=[first_an("a") + fin("x") + "<", an("b")[1:]], reasoning="a\nb", content="x")
C("<|channel|> split across chunks", "REASONING.stream.4.a", first_an("r") + fin("c"), chunks=["<|", "channel", "|>analysis<|message|>r<|end|><|start|>assistant<|chan", "nel|>final<|message|>c<|return|>"], reasoning="r", content="c")
C("to=functions.NAME split; envelope reaches the tool parser", "REASONING.stream.4.b", first_an("r") + env,
  chunks=[first_an("r") + A + CH + "commentary to", "=func", "tions.get_wea", "ther <|constrain|>json<|message|>" + WJ + CA], reasoning="r", calls=[("get_weather", W)], tool_parser="harmony")
C("to=functions.NAME split; raw envelope intact", "REASONING.stream.4.b", first_an("r") + env,
  chunks=[first_an("r") + A + CH + "commentary to", "=func", "tions.get_wea", "ther <|constrain|>json<|message|>" + WJ + CA], reasoning="r", content=env, allow_markup=True)
C("<|chan that becomes chance", "REASONING.stream.4.c", fin("take a <|chance on it"), chunks=[A + CH + "final" + M + "take a <|chan", "ce on it" + R], content="take a <|chance on it")
C("directed analysis call, <|call|> in a later chunk", "REASONING.stream.4.d", first_an("r") + aenv, chunks=[first_an("r") + aenv[:-len(CA)], CA], reasoning="r", calls=[("get_weather", W)], tool_parser="harmony",
  ref="Dynamo persists channel and recipient across chunks; the single machine needs no reconstruction")
fx.dump(os.path.join(out, "gpt_oss", "reasoning.json"), family="gpt_oss",
  description="gpt-oss Harmony, reasoning side: without a tool parser directed messages are forwarded raw to content; cases with tool_parser harmony run the same machine with calls",
  reasoning_parsers=["gpt_oss", "openai_gptoss", "gpt-oss"],
  not_applicable={"REASONING.batch.1.d": "null upstream content is wrapper-level: a Parser is fed bytes; nil and empty chunks are the same no-op (stream.1.a)"})

# ---------------------------------------------------------------- captures
src = os.environ.get("ENGINE_STREAMS", os.path.join(os.path.dirname(__file__), "../../../../shared/testdata/engine-streams"))
fx = Fx()
n = 0
for engine in ("vllm", "sglang"):
    for path in sorted(glob.glob(f"{src}/{engine}/gpt-oss-20b/*.json")):
        d = json.load(open(path))
        s = d.get("data") or d.get("input_stream")
        chunks = []
        for c in s:
            ch = c["data"].get("choices") or []
            if ch:
                dl = ch[0]["delta"]
                assert not dl.get("reasoning_content") and not dl.get("tool_calls"), path
                t = dl.get("content") or ""
                if t: chunks.append(t)
        text = "".join(chunks)
        assert CH in text and M in text, path + ": special tokens missing; the capture cannot be parsed from text alone"
        exp = d.get("expected_output") or {k: d.get(k) for k in ("normal_content", "reasoning_content", "tool_calls")}
        base = os.path.basename(path)
        calls = [(tc["function"]["name"], json.loads(tc["function"]["arguments"])) for tc in (exp.get("tool_calls") or [])]
        case = "TOOLCALLING.harmony.1" if calls else "REASONING.batch.2.c"
        fx.C(f"{engine} gpt-oss-20b {base[:-5]}", case, text, chunks=chunks, content=exp.get("normal_content") or "", reasoning=exp.get("reasoning_content") or "", calls=calls,
             ref=f"engine-streams/{engine}/gpt-oss-20b/{base} (NVIDIA Dynamo test data, Apache-2.0); every delta carries the Harmony special tokens as text, so the capture parses from text alone")
        n += 1
if not n:
    print("no gpt-oss-20b captures under", src, "(set ENGINE_STREAMS): captures/gpt-oss-20b.json not written", file=sys.stderr)
else:
    fx.dump(os.path.join(out, "captures", "gpt-oss-20b.json"), family="captures",
      description="Real gpt-oss-20b streams captured from vLLM and SGLang (one delta per token, special tokens kept), run with the harmony tool parser and the gpt_oss reasoning parser",
      tool_parsers=["harmony"], reasoning_parsers=["gpt_oss"], not_applicable={})
