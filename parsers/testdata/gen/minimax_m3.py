# MiniMax M3 fixtures: the minimax_m3 tool parser (minimax_m3/minimax_m3.json) and
# the minimax_m3 reasoning parser (minimax_m3/reasoning.json).   python3 gen/minimax_m3.py .
import json, sys, os
from common import Fx
out = sys.argv[1]
NS = "]<]minimax[>["
def o(t): return NS + "<" + t + ">"
def c(t): return NS + "</" + t + ">"
def p(k, v): return o(k) + v + c(k)
def inv(name, body, q='"'): return NS + "<invoke name=" + q + name + q + ">" + body + c("invoke")
def blk(*invs, nl=False): sep = "\n" if nl else ""; return o("tool_call") + sep + sep.join(invs) + sep + c("tool_call")
def tool(name, props, **extra):
    d = {"type": "object", "properties": props}; d.update(extra)
    return {"type": "function", "function": {"name": name, "parameters": d}}
S = {"type": "string"}; I = {"type": "integer"}; N = {"type": "number"}; B = {"type": "boolean"}
weather = [tool("get_weather", {"city": S, "days": I})]
W = {"city": "Paris", "days": 3}
wi = inv("get_weather", p("city", "Paris") + p("days", "3"))
order_tools = [tool("create_order", {"shipping": {"type": "object", "properties": {"city": S, "zip": I}}, "items": {"type": "array", "items": {"type": "object", "properties": {"sku": S, "qty": I}}}, "note": {"type": ["string", "null"]}})]

fx = Fx(); C = fx.C
sample = o("tool_call") + "\n" + NS + '<invoke name="create_order">' + "\n" + o("shipping") + p("city", "Singapore") + p("zip", "18956") + c("shipping") + "\n" + c("invoke") + "\n" + c("tool_call")
C("spec sample, nested tags typed by the schema", "TOOLCALLING.batch.1", sample, calls=[("create_order", {"shipping": {"city": "Singapore", "zip": 18956}})], tools=order_tools, ref="PARSER_CASES.md sample")
C("spec sample without a schema", "TOOLCALLING.batch.1", sample, calls=[("create_order", {"shipping": {"city": "Singapore", "zip": "18956"}})], ref="no schema: leaves are strings verbatim")
C("parallel invokes in one block", "TOOLCALLING.batch.2.a", blk(wi, inv("get_weather", p("city", "Rome") + p("days", "1")), nl=True), calls=[("get_weather", W), ("get_weather", {"city": "Rome", "days": 1})], tools=weather)
two = blk(inv("a", ""), inv("b", p("k", "v")))
C("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:40], two[40:]], calls=[("a", {}), ("b", {"k": "v"})])
C("call group with surrounding content", "TOOLCALLING.batch.2.c", "Checking.\n" + blk(inv("a", "")) + "\n" + blk(inv("b", "")) + "\nDone.", content="Checking.\n\nDone.", calls=[("a", {}), ("b", {})],
  ref="Dynamo keeps only the prefix before the block; the library keeps all text")
C("distinct ids", "TOOLCALLING.batch.2.d", blk(inv("f", ""), inv("f", ""), inv("f", "")), calls=[("f", {}), ("f", {}), ("f", {})])
C("text only", "TOOLCALLING.batch.3", "Plain answer with ] and <tags> and ]<]mini", content="Plain answer with ] and <tags> and ]<]mini")
C("namespace token without a tag in text", "TOOLCALLING.batch.3", "x " + NS + "y", content="x " + NS + "y", allow_markup=True, ref="only the block and invoke tags are markers in content")
C("garbage inside the block is markup", "TOOLCALLING.batch.4.a", "A" + o("tool_call") + "junk {{" + NS + "oops" + c("tool_call") + "B", content="AB")
C("typed value that does not convert stays a string", "TOOLCALLING.batch.4.b", blk(inv("get_weather", p("city", "Paris") + p("days", "three"))), calls=[("get_weather", {"city": "Paris", "days": "three"})], tools=weather)
C("invoke without a name", "TOOLCALLING.batch.4.c", blk(NS + "<invoke>" + p("k", "v") + c("invoke"), inv("ok", "")), calls=[("ok", {})], ref="consumed without a call")
C("invoke with an empty name", "TOOLCALLING.batch.4.c", blk(inv("", p("k", "v"))))
C("unclosed invoke before the block close", "TOOLCALLING.batch.4.d", blk(NS + '<invoke name="f">' + p("k", "v")) + "after", content="after", abandoned=1, ref="MiniMax requires </invoke>")
C("bad invoke then a good one", "TOOLCALLING.batch.4.e", blk(NS + '<invoke name="f">' + p("k", "v") + inv("g", p("x", "1"))), calls=[("g", {"x": "1"})], abandoned=1,
  ref="a new invoke tag abandons the unclosed one")
C("block close missing", "TOOLCALLING.batch.5.a", o("tool_call") + wi, calls=[("get_weather", W)], tools=weather, ref="PARSER_CASES.md: a missing block close is fine")
C("block close without an opener", "TOOLCALLING.batch.5.b", "Sure." + c("tool_call") + " more" + c("invoke"), content="Sure. more", ref="library rule: orphan closers removed, text kept (Dynamo cuts content at the first orphan marker)")
C("bare invoke with the block close", "TOOLCALLING.batch.5.b", wi + c("tool_call"), calls=[("get_weather", W)], tools=weather, ref="PARSER_CASES.md: bare invokes are recovered")
C("bare invoke at end of stream", "TOOLCALLING.batch.5.b", "x" + wi, content="x", calls=[("get_weather", W)], tools=weather)
C("EOS inside a value", "TOOLCALLING.batch.5.c", blk(NS + '<invoke name="get_weather">' + o("city") + "Par")[:-len(c("tool_call"))], abandoned=1)
C("EOS after the last value, invoke unclosed", "TOOLCALLING.batch.5.c", o("tool_call") + NS + '<invoke name="get_weather">' + p("city", "Paris"), abandoned=1,
  ref="PARSER_CASES.md goal 5: MiniMax's spec requires </invoke>")
C("EOS inside the invoke tag", "TOOLCALLING.batch.5.c", "t" + o("tool_call") + NS + '<invoke name="get_wea', content="t")
C("last invoke unclosed after a complete one", "TOOLCALLING.batch.5.d", o("tool_call") + inv("a", "") + NS + '<invoke name="b">' + p("y", "2"), calls=[("a", {})], abandoned=1)
C("last invoke truncated in a value", "TOOLCALLING.batch.5.e", o("tool_call") + inv("a", "") + NS + '<invoke name="b">' + o("y") + "tr", calls=[("a", {})], abandoned=1)
C("no parameters", "TOOLCALLING.batch.6.a", blk(inv("get_time", "")), calls=[("get_time", {})])
C("whitespace-only invoke body", "TOOLCALLING.batch.6.b", blk(inv("get_time", "\n  \n")), calls=[("get_time", {})])
C("empty object and array values", "TOOLCALLING.batch.6.c", blk(inv("f", p("o", "") + p("a", " "))), calls=[("f", {"o": {}, "a": []})], tools=[tool("f", {"o": {"type": "object"}, "a": {"type": "array"}})],
  ref="PARSER_CASES.md: object/array empty value → {}/[]")
mt = [tool("f", {"i": I, "n": N, "b": B, "o": {"type": "object"}, "l": {"type": "array"}, "s": S, "z": {"type": ["integer", "null"]}})]
C("schema matrix", "TOOLCALLING.batch.7.a", blk(inv("f", p("i", " 42 ") + p("n", "2.50") + p("b", "1") + p("o", '{"k": [1, 2]}') + p("l", '[1, "x"]') + p("s", " keep ") + p("z", "null"))),
  calls=[("f", '{"i":42,"n":2.50,"b":true,"o":{"k":[1,2]},"l":[1,"x"],"s":" keep ","z":null}')], tools=mt)
C("entities, unicode and escapes in strings", "TOOLCALLING.batch.7.b", blk(inv("f", p("s", 'a &lt;b&gt; &amp;amp; "q" \\ 東京 🌆\n'))), calls=[("f", {"s": 'a <b> &amp; "q" \\ 東京 🌆\n'})],
  tools=[tool("f", {"s": S})], ref="§5.2 entities decoded once (plain replacement order); strings streamed untrimmed")
C("schema mismatch kept as string", "TOOLCALLING.batch.7.c", blk(inv("set_temp", p("celsius", "twenty"))), calls=[("set_temp", {"celsius": "twenty"})], tools=[tool("set_temp", {"celsius": I})])
C("nested object, repeated tags and items", "TOOLCALLING.batch.7.d", blk(inv("create_order", p("items", p("item", p("sku", "A1") + p("qty", "2")) + p("item", p("sku", "B2") + p("qty", "1"))) + p("shipping", p("city", "Oslo") + p("zip", "0150")))),
  calls=[("create_order", {"items": [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}], "shipping": {"city": "Oslo", "zip": 150}})], tools=order_tools,
  ref="PARSER_CASES.md: schema array with NS<item> children → array elements; integers normalised")
C("repeated tags without a schema become an array, mixed text under $text", "TOOLCALLING.batch.7.e", blk(inv("f", p("tags", "lead " + p("t", "a") + p("t", "b") + " tail"))),
  calls=[("f", {"tags": {"$text": "lead  tail", "t": ["a", "b"]}})])
C("null only where the schema permits it", "TOOLCALLING.batch.7.e", blk(inv("create_order", p("note", "null")), inv("grep", p("pattern", "null"))),
  calls=[("create_order", {"note": None}), ("grep", {"pattern": "null"})], tools=order_tools + [tool("grep", {"pattern": S})],
  ref="PARSER_CASES.md library rule (newer Dynamo MiniMax M3): a string-typed 'null' stays a string")
C("integers beyond 2^53", "TOOLCALLING.batch.7.f", blk(inv("f", p("i", "123456789012345678901234567890"))), calls=[("f", '{"i":123456789012345678901234567890}')], tools=[tool("f", {"i": I})])
C("text before", "TOOLCALLING.batch.8.a", "Let me check. " + blk(wi), content="Let me check. ", calls=[("get_weather", W)], tools=weather)
C("text after", "TOOLCALLING.batch.8.b", blk(wi) + " It is sunny.", content=" It is sunny.", calls=[("get_weather", W)], tools=weather, ref="Dynamo keeps only the prefix; the library keeps all")
C("text around", "TOOLCALLING.batch.8.c", "a" + blk(wi) + "b", content="ab", calls=[("get_weather", W)], tools=weather)
C("text between blocks", "TOOLCALLING.batch.8.d", blk(inv("a", "")) + " mid " + blk(inv("b", "")), content=" mid ", calls=[("a", {}), ("b", {})])
C("empty output", "TOOLCALLING.batch.9.a", "")
C("whitespace only", "TOOLCALLING.batch.9.b", "\n\t ", content="\n\t ")
C("empty block", "TOOLCALLING.batch.9.c", "x" + blk() + "y", content="xy")
C("same call twice", "TOOLCALLING.batch.10", blk(wi, wi), calls=[("get_weather", W), ("get_weather", W)], tools=weather)
C("unknown tool, values stay strings", "TOOLCALLING.batch.13.a", blk(inv("nope", p("n", "1"))), calls=[("nope", {"n": "1"})], tools=weather)
C("known and unknown", "TOOLCALLING.batch.13.c", blk(wi, inv("nope", p("n", "1"))), calls=[("get_weather", W), ("nope", {"n": "1"})], tools=weather)
C("separators in a value", "TOOLCALLING.batch.30.a", blk(inv("f", p("s", "a; b, c"))), calls=[("f", {"s": "a; b, c"})])
C("brackets in a value", "TOOLCALLING.batch.30.b", blk(inv("f", p("s", "} ] { [ <x> </x>"))), calls=[("f", {"s": "} ] { [ <x> </x>"})])
C("other closers inside a string value", "TOOLCALLING.batch.30.c", blk(inv("f", p("s", c("tool_call") + " and " + o("tool_call")))), calls=[("f", {"s": c("tool_call") + " and " + o("tool_call")})],
  tools=[tool("f", {"s": S})], ref="PARSER_CASES.md: a value ends only at its own close tag (or the invoke close)")
C("separator before the next call", "TOOLCALLING.batch.31.a", blk(inv("f", p("s", "x, y")), inv("g", p("t", ";"))), calls=[("f", {"s": "x, y"}), ("g", {"t": ";"})])
C("structural text before a later call", "TOOLCALLING.batch.31.b", blk(inv("f", p("s", "}]>")), inv("g", "")), calls=[("f", {"s": "}]>"}), ("g", {})])
C("whole call in one chunk", "TOOLCALLING.stream.1.a", blk(wi), chunks=[blk(wi)], calls=[("get_weather", W)], tools=weather)
C("split at boundaries", "TOOLCALLING.stream.1.b", blk(wi), chunks=[NS, "<tool_call>", NS, '<invoke name="get_', 'weather">', NS, "<city>", "Pa", "ris", NS, "</city>", NS + "<days>3", NS + "</days>", NS, "</invoke>", NS, "</tool_call>"],
  calls=[("get_weather", W)], tools=weather)
big = "print('東京')\n" * 800
bc = blk(inv("write_file", p("path", "/tmp/a.py") + p("content", big)))
assert len(bc.encode()) > 10000
C("string value of more than 10 KB, streamed", "TOOLCALLING.stream.1.b", bc, calls=[("write_file", {"path": "/tmp/a.py", "content": big})], tools=[tool("write_file", {"path": S, "content": S})])
t2 = blk(inv("a", p("k", "one")), inv("b", p("k", "two")))
C("two calls over many chunks", "TOOLCALLING.stream.2", t2, chunks=[t2[i:i+5] for i in range(0, len(t2), 5)], calls=[("a", {"k": "one"}), ("b", {"k": "two"})])
C("namespace token split", "TOOLCALLING.stream.3", blk(wi), chunks=["]<]mini", "max[>[<tool_", "call>]<", "]minimax[>[<invoke name=\"get_weather\">]<]minimax[", ">[<city>Paris]<]", "minimax[>[</city>]<]minimax[>[<days>3]<]minimax[>[</days>]<]minimax[>[</invoke>]<]minimax[>[</tool_call>"],
  calls=[("get_weather", W)], tools=weather)
C("entity split across chunks", "TOOLCALLING.stream.3", blk(inv("f", p("s", "a &amp;quot; b &lt;"))), chunks=[o("tool_call") + NS + '<invoke name="f">' + o("s") + "a &am", "p;quo", "t; b &l", "t;" + c("s") + c("invoke") + c("tool_call")],
  calls=[("f", {"s": 'a " b <'})], tools=[tool("f", {"s": S})])
C("invoke complete, block close missing, end of stream", "TOOLCALLING.stream.4.a", o("tool_call") + inv("f", p("k", "v")), calls=[("f", {"k": "v"})])
C("truncated mid-body", "TOOLCALLING.stream.4.b", o("tool_call") + NS + '<invoke name="f">' + o("k") + "va", abandoned=1)
C("parameters without invoke, then repeated closers", "TOOLCALLING.stream.4.c", p("k", "v") + c("invoke") + c("tool_call") + c("tool_call"), chunks=[p("k", "v"), c("invoke"), c("tool_call") + c("tool_call")],
  content=p("k", "v"), allow_markup=True, ref="parameter tags outside an invoke are text (NS alone is not a content marker); the orphan closers are removed")
C("names with hyphens, dots, unicode", "TOOLCALLING.fmt.1", blk(inv("mcp__x.search-docs", ""), inv("天気", ""), inv("t🌆", "")), calls=[("mcp__x.search-docs", {}), ("天気", {}), ("t🌆", {})])
C("name quoting: single quotes, bare word, spaces", "TOOLCALLING.fmt.1", blk(inv("a", "", q="'"), NS + "<invoke name=b>" + c("invoke"), NS + '<invoke  name=" c " >' + c("invoke")), calls=[("a", {}), ("b", {}), ("c", {})],
  ref="PARSER_CASES.md: double, single quotes or a bare word; trimmed")
C("newlines between tags", "TOOLCALLING.fmt.2", o("tool_call") + "\n" + NS + '<invoke name="get_weather">' + "\n" + p("city", "Paris") + "\n" + p("days", "3") + "\n" + c("invoke") + "\n" + c("tool_call"), calls=[("get_weather", W)], tools=weather)
C("aliases and bare invoke", "TOOLCALLING.fmt.3", wi + "\n" + wi, calls=[("get_weather", W), ("get_weather", W)], tools=weather)
C("empty block and empty invoke", "TOOLCALLING.fmt.4", "a" + blk() + blk(inv("f", "")) + "b", content="ab", calls=[("f", {})])
C("parameter named name", "TOOLCALLING.fmt.5", blk(inv("create_user", p("name", "Ada") + p("arguments", "x"))), calls=[("create_user", {"name": "Ada", "arguments": "x"})],
  ref="fmt.5 (2): parameter names never clash with the call's name; (1)/(3) have no meaning in XML")
C("entity decoding", "TOOLCALLING.xml.1", blk(inv("f", p("s", "&lt;div class=&quot;x&quot;&gt;&#x27;a&#39; &amp;lt;&lt;/div&gt;"))), calls=[("f", {"s": "<div class=\"x\">'a' &lt;</div>"})],
  ref="PARSER_CASES.md step 1: &lt; &gt; &amp; &quot; &#x27; &#39; by plain replacement in that order")
C("entity decoding in a buffered value", "TOOLCALLING.xml.1", blk(inv("f", p("s", "&amp;quot;x&amp;quot;"))), calls=[("f", {"s": '"x"'})])
C("schema coercion with unions and refs", "TOOLCALLING.xml.2", blk(inv("f", p("a", "7") + p("b", "7") + p("c", "true") + p("d", "{\"k\": 1}"))),
  calls=[("f", {"a": 7, "b": "7", "c": True, "d": {"k": 1}})],
  tools=[tool("f", {"a": {"anyOf": [{"type": "integer"}, {"type": "null"}]}, "b": {"type": ["string", "integer"]}, "c": {"$ref": "#/$defs/flag"}, "d": {"oneOf": [{"type": "object"}]}}, **{"$defs": {"flag": {"type": "boolean"}}})],
  ref="§8.2: type arrays and anyOf/oneOf honoured; a union with string prefers string; local $ref followed")
C("booleans accept 1/0, nothing else", "TOOLCALLING.xml.2", blk(inv("f", p("a", "0") + p("b", "yes"))), calls=[("f", {"a": False, "b": "yes"})], tools=[tool("f", {"a": B, "b": B})],
  ref="never silently false (§5.2 library rule)")
C("value buffered past the limit abandons the call", "TOOLCALLING.batch.4.d", blk(inv("f", p("o", '{"k": "' + "x" * 80 + '"}'))), abandoned=1, options={"max_call_buffer": 48}, tools=[tool("f", {"o": {"type": "object"}})])
C("reasoning then a call", "TOOLCALLING.batch.8.a", "<mm:think>plan</mm:think>" + blk(wi), reasoning="plan", calls=[("get_weather", W)], tools=weather, reasoning_parser="minimax_m3")
fx.dump(os.path.join(out, "minimax_m3", "minimax_m3.json"), family="minimax_m3",
  description="MiniMax M3 namespaced XML, tool side, values typed from the schemas",
  tool_parsers=["minimax_m3", "minimax-m3", "minimax_m3_nom", "minimax-m3-nom"],
  not_applicable={
    "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
    "TOOLCALLING.batch.13.d": "MiniMax M3 names tools, never by ordinal",
    "TOOLCALLING.harmony.1": "gpt-oss only", "TOOLCALLING.harmony.2": "gpt-oss only",
  })

# ---------------------------------------------------------------- reasoning
fx = Fx(); C = fx.C
T0, T1 = "<mm:think>", "</mm:think>"
bw = blk(wi)
C("empty input", "REASONING.batch.1.a", "")
C("plain text", "REASONING.batch.1.b", "Hello", content="Hello")
C("whitespace only", "REASONING.batch.1.c", "\n ", content="\n ")
C("span only", "REASONING.batch.2.a", T0 + "hmm" + T1, reasoning="hmm")
C("text before", "REASONING.batch.2.b", "Hi " + T0 + "hmm" + T1, content="Hi ", reasoning="hmm")
C("span then answer", "REASONING.batch.2.c", T0 + "hmm" + T1 + "\nAnswer", reasoning="hmm", content="\nAnswer")
C("both sides", "REASONING.batch.2.d", "a " + T0 + "b" + T1 + " c", content="a  c", reasoning="b")
C("empty span", "REASONING.batch.2.e", T0 + T1 + "x", content="x")
cx = "lines\n\n<think>not ours</think> 東京 🌆 <mm:thin"
C("complex body", "REASONING.batch.2.f", T0 + cx + T1 + "ok", reasoning=cx, content="ok")
C("closed reasoning then a block stays for the tool parser", "REASONING.batch.3.a", T0 + "r" + T1 + bw, reasoning="r", content=bw, allow_markup=True)
C("closed reasoning then a call, with the tool parser", "REASONING.batch.3.a", T0 + "r" + T1 + bw, reasoning="r", calls=[("get_weather", W)], tools=weather, tool_parser="minimax_m3")
C("open reasoning interrupted by the namespace token", "REASONING.batch.3.b", T0 + "r " + bw, reasoning="r ", calls=[("get_weather", W)], tools=weather, tool_parser="minimax_m3",
  ref="PARSER_CASES.md / §7.3: implicit tool-start recovery at ]<]minimax[>[")
C("open reasoning interrupted, no tool parser", "REASONING.batch.3.b", T0 + "r " + bw, reasoning="r ", content=bw, allow_markup=True)
C("dangling close", "REASONING.batch.4", "text" + T1 + " more", content="text more",
  ref="library rule: the stray close is markup; reasoning opened by the prompt is Config.InReasoning (PRE.3 detects <mm:think>), which replaces dangling-end recovery")
C("foreign think markers are text", "REASONING.batch.4", "<think>x</think>", content="<think>x</think>")
C("unterminated span", "REASONING.batch.5", T0 + "going", reasoning="going")
C("template-opened span", "REASONING.batch.5", "deep" + T1 + "out", reasoning="deep", content="out", options={"in_reasoning": True})
C("two spans", "REASONING.batch.6.a", T0 + "a" + T1 + "x" + T0 + "b" + T1, reasoning="ab", content="x")
C("later span unterminated", "REASONING.batch.6.b", T0 + "a" + T1 + T0 + "b", reasoning="ab")
C("empty chunks", "REASONING.stream.1.a", T0 + "r" + T1 + "c", chunks=["", T0 + "r", "", T1 + "c", ""], reasoning="r", content="c")
C("marker-free stream", "REASONING.stream.1.b", "one two", chunks=["one", " two"], content="one two")
C("span over chunks", "REASONING.stream.2.a", T0 + "abc" + T1, chunks=[T0, "a", "b", "c", T1], reasoning="abc")
C("spans over chunks", "REASONING.stream.2.b", T0 + "a" + T1 + "x" + T0 + "b" + T1, chunks=[T0 + "a", T1 + "x" + T0, "b" + T1], reasoning="ab", content="x")
C("start split", "REASONING.stream.3.a", T0 + "r" + T1, chunks=["<mm:th", "ink>r" + T1], reasoning="r")
C("end split", "REASONING.stream.3.b", T0 + "r" + T1 + "c", chunks=[T0 + "r</mm:", "think>c"], reasoning="r", content="c")
C("held prefix not a marker", "REASONING.stream.3.c", T0 + "a </mm:x" + T1 + "b <mm:", chunks=[T0 + "a </mm:", "x" + T1 + "b <mm:"], reasoning="a </mm:x", content="b <mm:")
C("end split after the lone <", "REASONING.stream.3.d", T0 + "r" + T1 + bw, chunks=[T0 + "r<", T1[1:] + bw], reasoning="r", calls=[("get_weather", W)], tools=weather, tool_parser="minimax_m3")
C("re-entry split at the lone <", "REASONING.stream.3.e", T0 + "a" + T1 + "x" + T0 + "b" + T1, chunks=[T0 + "a" + T1 + "x<", T0[1:] + "b" + T1], reasoning="ab", content="x")
C("namespace token split inside reasoning", "REASONING.stream.4.a", T0 + "r" + bw, chunks=[T0 + "r]<]mini", "max[>[" + bw[len(NS):]], reasoning="r", calls=[("get_weather", W)], tools=weather, tool_parser="minimax_m3")
fx.dump(os.path.join(out, "minimax_m3", "reasoning.json"), family="minimax_m3",
  description="MiniMax M3 <mm:think> reasoning: not forced; the namespace token ends open reasoning",
  reasoning_parsers=["minimax_m3", "minimax-m3"],
  not_applicable={"REASONING.batch.1.d": "null upstream content is wrapper-level: a Parser is fed bytes; nil and empty chunks are the same no-op (stream.1.a)",
    "REASONING.batch.3.c": "Harmony only", "REASONING.batch.3.d": "Harmony only", "REASONING.batch.3.e": "Harmony only", "REASONING.batch.3.f": "Harmony only"})
