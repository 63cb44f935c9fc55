# Inkling fixtures: the inkling tool parser (inkling/inkling.json) and the inkling
# reasoning parser (inkling/reasoning.json).   python3 gen/inkling.py .
import json, sys, os
from common import Fx
out = sys.argv[1]
MM, TH, TX, INV, IMG, AUD, END, EOT = ("<|message_model|>", "<|content_thinking|>", "<|content_text|>", "<|content_invoke_tool_json|>",
    "<|content_image|>", "<|content_audio_input|>", "<|end_message|>", "<|content_model_end_sampling|>")
def think(t, hdr=True): return (MM if hdr else "") + TH + t + END
def text(t, hdr=True): return (MM if hdr else "") + TX + t + END
def tool(name, body, hdr=True, end=END): return (MM if hdr else "") + name + INV + body + end
def cj(name, args): return json.dumps({"name": name, "args": args}, ensure_ascii=False)
W = {"location": "Paris"}
wc = tool("get_weather", cj("get_weather", W))

fx = Fx(); C = fx.C
sample = think("Let me look this up.", hdr=False) + text("Checking now.") + wc + EOT
C("spec sample", "TOOLCALLING.batch.1", sample, reasoning="Let me look this up.", content="Checking now.", calls=[("get_weather", W)], ref="PARSER_CASES.md sample")
C("parallel calls back to back", "TOOLCALLING.batch.2.a", tool("a", cj("a", {"x": 1}), hdr=False) + tool("b", cj("b", {"y": 2})), calls=[("a", {"x": 1}), ("b", {"y": 2})])
two = tool("a", cj("a", {}), hdr=False) + tool("b", cj("b", {"k": "v"}))
C("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:20], two[20:]], calls=[("a", {}), ("b", {"k": "v"})])
C("call group with surrounding text", "TOOLCALLING.batch.2.c", text("Both.", hdr=False) + tool("a", cj("a", {})) + tool("b", cj("b", {})) + text("Done."),
  content="Both.Done.", calls=[("a", {}), ("b", {})], ref="text blocks are not joined (no separator in the grammar)")
C("three calls, distinct ids", "TOOLCALLING.batch.2.d", tool("f", cj("f", {}), hdr=False) + tool("f", cj("f", {})) + tool("f", cj("f", {})), calls=[("f", {}), ("f", {}), ("f", {})])
C("text block only", "TOOLCALLING.batch.3", text("Hello.", hdr=False) + EOT, content="Hello.")
C("marker-less text stays content", "TOOLCALLING.batch.3", "Plain answer, no blocks <| <|end <", content="Plain answer, no blocks <| <|end <",
  ref="PARSER_CASES.md: plain marker-less text stays content; at Finish a held '<' is text")
C("a name-like first word is content", "TOOLCALLING.batch.3", "book_flight", content="book_flight", ref="held as a possible header, released at Finish")
C("garbage tool body", "TOOLCALLING.batch.4.a", tool("f", "not json {{", hdr=False) + text("after"), content="after")
C("invalid JSON in a tool block", "TOOLCALLING.batch.4.b", tool("f", '{"name": "f", "args": {"a": 1,}}', hdr=False), abandoned=1)
C("missing name", "TOOLCALLING.batch.4.c", tool("f", '{"args": {"a": 1}}', hdr=False))
C("empty name is not a call", "TOOLCALLING.batch.4.c", tool("", '{"name": "", "args": {}}', hdr=False), ref="PARSER_CASES.md")
C("args is not an object", "TOOLCALLING.batch.4.c", tool("f", '{"name": "f", "args": [1]}', hdr=False), abandoned=1)
C("bytes after the object are dropped", "TOOLCALLING.batch.4.d", tool("f", cj("f", {}) + " trailing}", hdr=False) + text("x"), content="x", calls=[("f", {})])
C("empty tool block", "TOOLCALLING.batch.4.d", tool("f", "", hdr=False) + text("x"), content="x")
C("bad call then a valid one", "TOOLCALLING.batch.4.e", tool("f", "{oops", hdr=False) + tool("g", cj("g", {"ok": True})), calls=[("g", {"ok": True})])
C("complete body without its block end", "TOOLCALLING.batch.5.a", text("x", hdr=False) + tool("f", cj("f", {"k": 1}), end=""), content="x", calls=[("f", {"k": 1})],
  ref="PARSER_CASES.md: the closing } is the delimiter")
C("block end without a block", "TOOLCALLING.batch.5.b", "Sure." + END + " more" + END, content="Sure. more")
C("EOS inside the arguments", "TOOLCALLING.batch.5.c", tool("f", '{"name": "f", "args": {"a": "tru', hdr=False, end=""), abandoned=1)
C("EOS inside a marker", "TOOLCALLING.batch.5.c", text("x", hdr=False) + "<|message_mo", content="x", ref="library rule: a held prefix longer than '<|' is the parser's and dropped")
C("last call complete without its block end", "TOOLCALLING.batch.5.d", tool("a", cj("a", {}), hdr=False) + tool("b", cj("b", {"y": 2}), end=""), calls=[("a", {}), ("b", {"y": 2})])
C("last call truncated inside a value", "TOOLCALLING.batch.5.e", tool("a", cj("a", {}), hdr=False) + tool("b", '{"name": "b", "args": {"y": "x', end=""), calls=[("a", {})], abandoned=1)
C("empty args", "TOOLCALLING.batch.6.a", tool("f", '{"name": "f", "args": {}}', hdr=False), calls=[("f", {})])
C("args with whitespace", "TOOLCALLING.batch.6.b", tool("f", '{"name": "f", "args": {\n}}', hdr=False), calls=[("f", "{\n}")])
C("no args key", "TOOLCALLING.batch.6.c", tool("f", '{"name": "f"}', hdr=False), calls=[("f", {})], ref="PARSER_CASES.md: missing args → {}")
C("scalar and container matrix", "TOOLCALLING.batch.7.a", tool("f", '{"name": "f", "args": {"i": 1, "f": 2.5, "b": true, "n": null, "l": [1, "x"], "o": {"k": "v"}}}', hdr=False),
  calls=[("f", '{"i": 1, "f": 2.5, "b": true, "n": null, "l": [1, "x"], "o": {"k": "v"}}')], ref="args bytes kept verbatim")
C("escapes, unicode, HTML", "TOOLCALLING.batch.7.b", tool("f", '{"name": "f", "args": {"s": "a\\"b\\n\\u00e9", "u": "東京 🌆", "h": "<b>&amp;</b>", "raw": "x\ny"}}', hdr=False),
  calls=[("f", '{"s": "a\\"b\\n\\u00e9", "u": "東京 🌆", "h": "<b>&amp;</b>", "raw": "x\\ny"}')])
C("schema mismatch kept", "TOOLCALLING.batch.7.c", tool("set_temp", '{"name": "set_temp", "args": {"celsius": "20"}}', hdr=False), calls=[("set_temp", {"celsius": "20"})],
  tools=[{"type": "function", "function": {"name": "set_temp", "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}}}}}])
C("nested", "TOOLCALLING.batch.7.d", tool("f", cj("f", {"a": {"b": [1, {"c": [2]}]}, "d": "x"}), hdr=False), calls=[("f", {"a": {"b": [1, {"c": [2]}]}, "d": "x"})])
C("duplicate keys, null, empty", "TOOLCALLING.batch.7.e", tool("f", '{"name": "f", "args": {"k": 1, "k": 2, "n": null, "e": {}}}', hdr=False), calls=[("f", '{"k": 1, "k": 2, "n": null, "e": {}}')])
C("big integers", "TOOLCALLING.batch.7.f", tool("f", '{"name": "f", "args": {"id": 123456789012345678901234567890}}', hdr=False), calls=[("f", '{"id": 123456789012345678901234567890}')])
C("text before", "TOOLCALLING.batch.8.a", text("Let me check.", hdr=False) + wc, content="Let me check.", calls=[("get_weather", W)])
C("text after", "TOOLCALLING.batch.8.b", tool("get_weather", cj("get_weather", W), hdr=False) + text("Sunny."), content="Sunny.", calls=[("get_weather", W)])
C("text around", "TOOLCALLING.batch.8.c", text("a", hdr=False) + wc + text("b"), content="ab", calls=[("get_weather", W)])
C("text between", "TOOLCALLING.batch.8.d", tool("a", cj("a", {}), hdr=False) + text("mid") + tool("b", cj("b", {})), content="mid", calls=[("a", {}), ("b", {})])
C("empty output", "TOOLCALLING.batch.9.a", "")
C("whitespace only", "TOOLCALLING.batch.9.b", " \n", content=" \n")
C("empty blocks", "TOOLCALLING.batch.9.c", text("", hdr=False) + think("") + EOT)
C("same call twice", "TOOLCALLING.batch.10", tool("f", cj("f", {"a": 1}), hdr=False) + tool("f", cj("f", {"a": 1})), calls=[("f", {"a": 1}), ("f", {"a": 1})])
C("unknown tool", "TOOLCALLING.batch.13.a", tool("zz", cj("zz", {}), hdr=False), calls=[("zz", {})], tools=[{"type": "function", "function": {"name": "get_weather", "parameters": {}}}])
C("known and unknown", "TOOLCALLING.batch.13.c", tool("get_weather", cj("get_weather", W), hdr=False) + tool("zz", cj("zz", {})), calls=[("get_weather", W), ("zz", {})],
  tools=[{"type": "function", "function": {"name": "get_weather", "parameters": {}}}])
C("separators in a string", "TOOLCALLING.batch.30.a", tool("f", cj("f", {"s": "a; b, c"}), hdr=False), calls=[("f", {"s": "a; b, c"})])
C("braces in a string", "TOOLCALLING.batch.30.b", tool("f", cj("f", {"s": "}]{["}), hdr=False), calls=[("f", {"s": "}]{["})])
C("block end inside a string", "TOOLCALLING.batch.30.c", tool("f", cj("f", {"s": END + MM + TX + "x"}), hdr=False) + text("ok"), content="ok", calls=[("f", {"s": END + MM + TX + "x"})],
  ref="PARSER_CASES.md: block boundaries of tool blocks are JSON-aware")
C("separator before the next call", "TOOLCALLING.batch.31.a", tool("f", cj("f", {"s": "x, y"}), hdr=False) + tool("g", cj("g", {"t": ";"})), calls=[("f", {"s": "x, y"}), ("g", {"t": ";"})])
C("structural text before the next call", "TOOLCALLING.batch.31.b", tool("f", cj("f", {"s": "}" + END}), hdr=False) + tool("g", cj("g", {})), calls=[("f", {"s": "}" + END}), ("g", {})])
C("whole call in one chunk", "TOOLCALLING.stream.1.a", sample, chunks=[sample], reasoning="Let me look this up.", content="Checking now.", calls=[("get_weather", W)])
C("split at boundaries", "TOOLCALLING.stream.1.b", sample, chunks=[TH, "Let me look this up.", END, MM, TX, "Checking now.", END, MM, "get_", "weather", INV, '{"name": "get_weather"', ', "args": {"location": "Par', 'is"}}', END, EOT],
  reasoning="Let me look this up.", content="Checking now.", calls=[("get_weather", W)])
big = "def f():\n    return '東京'\n" * 400
bt = tool("write_file", cj("write_file", {"path": "/tmp/x.py", "content": big}), hdr=False)
assert len(bt.encode()) > 10000
C("call of more than 10 KB", "TOOLCALLING.stream.1.b", bt, calls=[("write_file", {"path": "/tmp/x.py", "content": big})], reasoning_parser="-")
t2 = tool("a", cj("a", {"k": "one"}), hdr=False) + tool("b", cj("b", {"k": "two"}))
C("two calls over many chunks", "TOOLCALLING.stream.2", t2, chunks=[t2[i:i+6] for i in range(0, len(t2), 6)], calls=[("a", {"k": "one"}), ("b", {"k": "two"})])
C("markers split mid-token", "TOOLCALLING.stream.3", sample, chunks=["<|content_thi", "nking|>Let me look this up.<|end_mes", "sage|><|message_model|><|content_text|>Checking now.<|end_message|><|mess",
  "age_model|>get_weather<|content_invoke", "_tool_json|>" + cj("get_weather", W) + "<|end_message|><|content_model_end_", "sampling|>"], reasoning="Let me look this up.", content="Checking now.", calls=[("get_weather", W)])
C("complete object, no block end, end of stream", "TOOLCALLING.stream.4.a", tool("f", cj("f", {"a": 1}), hdr=False, end=""), chunks=["f" + INV, cj("f", {"a": 1})], calls=[("f", {"a": 1})])
C("truncated mid-body", "TOOLCALLING.stream.4.b", tool("f", '{"name": "f", "args": {"a": [1', hdr=False, end=""), abandoned=1)
C("body without the invoke marker, then repeated block ends", "TOOLCALLING.stream.4.c", cj("f", {}) + END + END + EOT, chunks=[cj("f", {}), END, END + EOT], content=cj("f", {}),
  ref="without the invoke marker the JSON is text; orphan framing tokens are removed")
C("names with hyphens, dots, unicode", "TOOLCALLING.fmt.1", tool("mcp__x.search-docs", cj("mcp__x.search-docs", {}), hdr=False) + tool("天気", cj("天気", {})) + tool("t🌆", cj("t🌆", {})),
  calls=[("mcp__x.search-docs", {}), ("天気", {}), ("t🌆", {})], ref="the call name is the JSON name; the NAME header is a redundant header")
C("header name differs from the JSON name", "TOOLCALLING.fmt.1", tool("other", cj("f", {}), hdr=False), calls=[("f", {})], ref="library rule: the header is markup whether or not it matches; the JSON name wins")
C("whitespace around the object", "TOOLCALLING.fmt.2", tool("f", "\n " + cj("f", {"a": 1}) + " \n", hdr=False), calls=[("f", {"a": 1})])
C("first block with and without a header", "TOOLCALLING.fmt.3", MM + wc[len(MM):], calls=[("get_weather", W)], ref="the generation prompt usually consumes the first header; an explicit one is accepted")
C("arguments key accepted", "TOOLCALLING.fmt.3", tool("f", '{"name": "f", "arguments": {"a": 1}}', hdr=False), calls=[("f", {"a": 1})],
  ref="library rule: §5.1 lists Inkling among the JSON families; args is Inkling's key, arguments is accepted too")
C("empty text block between content", "TOOLCALLING.fmt.4", text("a", hdr=False) + text("") + text("b"), content="ab")
C("args before name, arguments named name", "TOOLCALLING.fmt.5", tool("f", '{"args": {"name": "x"}, "name": "f"}', hdr=False), calls=[("f", {"name": "x"})])
C("placeholder blocks dropped", "TOOLCALLING.batch.3", text("a", hdr=False) + MM + IMG + "binary-ish" + END + MM + AUD + "…" + END + text("b"), content="ab", ref="PARSER_CASES.md: image/audio placeholders are discarded")
fx.dump(os.path.join(out, "inkling", "inkling.json"), family="inkling",
  description="thinkingmachines Inkling blocks, tool side; every case runs with the inkling tool parser alone and with the inkling reasoning parser: one machine",
  tool_parsers=["inkling"], reasoning_parsers=["-", "inkling"],
  not_applicable={
    "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
    "TOOLCALLING.batch.13.d": "Inkling names tools, never by ordinal",
    "TOOLCALLING.xml.1": "arguments are JSON (JSON escapes)", "TOOLCALLING.xml.2": "arguments are JSON with native types",
    "TOOLCALLING.harmony.1": "gpt-oss only", "TOOLCALLING.harmony.2": "gpt-oss only",
  })

fx = Fx(); C = fx.C
C("empty input", "REASONING.batch.1.a", "")
C("plain text", "REASONING.batch.1.b", "Hello there", content="Hello there")
C("whitespace only", "REASONING.batch.1.c", "\n\n", content="\n\n")
C("thinking only", "REASONING.batch.2.a", think("hmm", hdr=False) + EOT, reasoning="hmm")
C("text before thinking", "REASONING.batch.2.b", text("Hi.", hdr=False) + think("hmm"), content="Hi.", reasoning="hmm")
C("thinking then text", "REASONING.batch.2.c", think("hmm", hdr=False) + text("Answer.") + EOT, reasoning="hmm", content="Answer.")
C("text on both sides", "REASONING.batch.2.d", text("a", hdr=False) + think("b") + text("c"), reasoning="b", content="ac")
C("empty thinking", "REASONING.batch.2.e", think("", hdr=False) + text("x"), content="x")
cx = "Lines\n\n```\ncode <think> <|end\n```\n東京 🌆"
C("complex body", "REASONING.batch.2.f", think(cx, hdr=False) + text("ok"), reasoning=cx, content="ok")
C("thinking then a tool block, passed through", "REASONING.batch.3.a", think("r", hdr=False) + wc, reasoning="r", content=wc, allow_markup=True,
  ref="PARSER_CASES.md: without the tool parser tool blocks pass through verbatim")
C("thinking then a headerless tool block, header re-inserted", "REASONING.batch.3.a", think("r", hdr=False) + "get_weather" + INV + cj("get_weather", W) + END, reasoning="r",
  content=MM + "get_weather" + INV + cj("get_weather", W) + END, allow_markup=True, ref="PARSER_CASES.md: the reasoning parser re-inserts the header once the block is confirmed structured")
C("thinking then a call, with the tool parser", "REASONING.batch.3.a", think("r", hdr=False) + wc, reasoning="r", calls=[("get_weather", W)], tool_parser="inkling")
C("unterminated thinking interrupted by a tool block", "REASONING.batch.3.b", TH + "r" + wc, reasoning="r", calls=[("get_weather", W)], tool_parser="inkling",
  ref="a block header ends the open block")
C("stray framing tokens stripped", "REASONING.batch.4", "a" + END + TX + "b" + EOT + EOT, content="ab")
C("invalid content type is text", "REASONING.batch.4", MM + "<|content_bogus|>x" + END, content="<|content_bogus|>x", allow_markup=True, ref="only the listed block types are markers")
C("unterminated thinking", "REASONING.batch.5", TH + "still", reasoning="still")
C("template-opened thinking", "REASONING.batch.5", "deep" + END + text("out"), reasoning="deep", content="out", options={"in_reasoning": True})
C("several thinking blocks", "REASONING.batch.6.a", think("a", hdr=False) + think("b"), reasoning="ab", ref="blocks are concatenated without a separator")
C("later block unterminated", "REASONING.batch.6.b", think("a", hdr=False) + MM + TH + "b", reasoning="ab")
C("empty chunks", "REASONING.stream.1.a", think("r", hdr=False) + text("c"), chunks=["", think("r", hdr=False), "", text("c"), ""], reasoning="r", content="c")
C("marker-free stream", "REASONING.stream.1.b", "one two", chunks=["one", " two"], content="one two")
C("one block over chunks", "REASONING.stream.2.a", think("abc", hdr=False), chunks=[TH, "a", "b", "c", END], reasoning="abc")
C("several blocks over chunks", "REASONING.stream.2.b", think("a", hdr=False) + text("x") + think("b"), chunks=[TH + "a", END + MM + TX + "x" + END, MM + TH + "b" + END], reasoning="ab", content="x")
C("start marker split", "REASONING.stream.3.a", think("r", hdr=False), chunks=["<|content_th", "inking|>r" + END], reasoning="r")
C("end marker split", "REASONING.stream.3.b", think("r", hdr=False) + text("c"), chunks=[TH + "r<|end_", "message|>" + text("c")], reasoning="r", content="c")
C("held prefix that is not a marker", "REASONING.stream.3.c", think("a <|end_messy", hdr=False) + "b", chunks=[TH + "a <|end_mes", "sy" + END + "b"], reasoning="a <|end_messy", content="b")
C("end split after the lone <", "REASONING.stream.3.d", think("r", hdr=False) + wc, chunks=[TH + "r<", END[1:] + wc], reasoning="r", calls=[("get_weather", W)], tool_parser="inkling")
C("re-entry split at the lone <", "REASONING.stream.3.e", think("a", hdr=False) + text("x") + think("b"), chunks=[think("a", hdr=False) + text("x") + "<", think("b")[1:]], reasoning="ab", content="x")
C("tool block marker split", "REASONING.stream.4.a", think("r", hdr=False) + wc, chunks=[think("r", hdr=False) + MM + "get_weather<|content_invoke_to", "ol_json|>" + cj("get_weather", W) + END],
  reasoning="r", calls=[("get_weather", W)], tool_parser="inkling")
fx.dump(os.path.join(out, "inkling", "reasoning.json"), family="inkling",
  description="thinkingmachines Inkling blocks, reasoning side: without the tool parser tool blocks pass through verbatim (header re-inserted)",
  reasoning_parsers=["inkling"],
  not_applicable={"REASONING.batch.1.d": "null upstream content is wrapper-level: a Parser is fed bytes; nil and empty chunks are the same no-op (stream.1.a)",
    "REASONING.batch.3.c": "Harmony only", "REASONING.batch.3.d": "Harmony only", "REASONING.batch.3.e": "Harmony only", "REASONING.batch.3.f": "Harmony only"})
