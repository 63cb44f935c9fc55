"""gemma4 tool-call fixtures (PARSER_CASES.md "gemma4 bare body") and the
gemma4 reasoning + gemma4 tools composition.

    python3 gen/gemma4_tools.py .     # writes gemma4/tools.json and compose/gemma4_gemma4.json
"""
import os, sys
from common import Fx

O, E, Q = "<|tool_call>", "<tool_call|>", '<|"|>'
S, SE = "<|channel>", "<channel|>"


def s(x):
    return Q + x + Q


def call(name, body):
    return O + "call:" + name + "{" + body + "}" + E


fx = Fx()


def C(name, case, input, content="", **kw):
    if "call:" in content or Q in content:
        kw["allow_markup"] = True
    fx.C(name, case, input, content=content, **kw)


W = {"location": "Tokyo"}
sample = O + "call:get_weather{location:" + s("Tokyo") + ",count:42,opts:{deep:true},tags:[" + s("a") + "," + s("b") + "]}" + E
SA = {"location": "Tokyo", "count": 42, "opts": {"deep": True}, "tags": ["a", "b"]}
big = "".join("line %04d: the quick brown fox jumps over the lazy dog\n" % i for i in range(200))
# batch.1
C("single call", "TOOLCALLING.batch.1", sample, calls=[("get_weather", SA)], ref="PARSER_CASES.md sample")
# batch.2
C("consecutive calls", "TOOLCALLING.batch.2.a", call("get_weather", "location:" + s("Tokyo")) + call("get_weather", "location:" + s("Paris")),
  calls=[("get_weather", W), ("get_weather", {"location": "Paris"})], ref="calls are concatenated with nothing between them")
two = call("a", "x:1") + call("b", "")
k = two.index("x:1") + 3
C("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=[two[:k], two[k:]], calls=[("a", {"x": 1}), ("b", {})])
C("call group with surrounding content", "TOOLCALLING.batch.2.c", "Checking both.\n" + call("t", "tz:" + s("UTC")) + "\n" + call("t", "tz:" + s("CET")) + "\nDone.",
  content="Checking both.\n\nDone.", calls=[("t", {"tz": "UTC"}), ("t", {"tz": "CET"})])
C("three calls: distinct ids, consecutive indices", "TOOLCALLING.batch.2.d", call("a", "") + call("b", "") + call("c", ""), calls=[("a", {}), ("b", {}), ("c", {})])
# batch.3
C("text only", "TOOLCALLING.batch.3", "It is sunny in Tokyo.", content="It is sunny in Tokyo.")
C("text with marker-like fragments", "TOOLCALLING.batch.3", "a <|tool b <tool_call c <|\" d |> recall:x{y} e <|tool_ca",
  content="a <|tool b <tool_call c <|\" d |> recall:x{y} e <|tool_ca")
C("the word call: in prose", "TOOLCALLING.batch.3", "I made a call: the plumber{ish} came.\ncall: me", content="I made a call: the plumber{ish} came.\ncall: me",
  ref="a bare call: not followed by NAME{ is released as content at once")
# batch.4
C("garbage body", "TOOLCALLING.batch.4.a", "A " + O + "this is not a call" + E + " B", content="A  B",
  ref="PARSER_CASES.md: a wrapper whose body is not a call is markup")
C("argument parse error abandons the call", "TOOLCALLING.batch.4.b", call("f", "a:1x,b:2"), abandoned=1,
  ref="library rule §5.5: Dynamo emits the call with {}; the library abandons it")
C("missing comma between entries", "TOOLCALLING.batch.4.b", call("f", "a:" + s("x") + " b:1"), abandoned=1)
C("unquoted string value", "TOOLCALLING.batch.4.b", call("f", "city:Tokyo"), abandoned=1, ref="a bare word that is not a literal is an error (grammar §5.5)")
C("trailing comma", "TOOLCALLING.batch.4.b", call("f", "a:1,") + call("g", "l:[1,]"), abandoned=2, ref="pinned: the grammar has no trailing commas")
C("no name", "TOOLCALLING.batch.4.c", O + "call:{a:1}" + E, ref="not a call: markup")
C("no call: prefix", "TOOLCALLING.batch.4.c", O + "get_weather{location:" + s("Tokyo") + "}" + E, ref="PARSER_CASES.md: no call: prefix, markup")
C("text between the object and the closer", "TOOLCALLING.batch.4.d", call("f", "a:1")[:-len(E)] + " oops" + E + "x", content="x", abandoned=1,
  ref="trailing garbage after the top-level object is an error")
C("unbalanced object", "TOOLCALLING.batch.4.d", O + "call:f{a:{b:1}" + E + " tail", content=" tail", abandoned=1)
C("bad call followed by a valid call", "TOOLCALLING.batch.4.e", call("a", "x:oops") + call("b", "ok:true"), calls=[("b", {"ok": True})], abandoned=1)
C("broken call resynchronises at the next opener", "TOOLCALLING.batch.4.e", O + "call:a{x:?" + call("b", ""), calls=[("b", {})], abandoned=1)
C("closer inside a string of a broken call is skipped", "TOOLCALLING.batch.4.e", O + "call:a{x:1 y:" + s(E) + "}" + E + "z", content="z", abandoned=1,
  ref="the skip after an error is string-aware too")
# batch.5
C("closer absent, object closed", "TOOLCALLING.batch.5.a", "ok " + O + "call:f{a:1}", content="ok ", calls=[("f", {"a": 1})],
  ref="library rule §6.13: an unclosed call whose object closed is recovered (Dynamo echoes the raw call into content)")
C("orphan closer", "TOOLCALLING.batch.5.b", "Sure." + E + " More" + Q + " text", content="Sure. More text", ref="PARSER_CASES.md: orphan markers are markup")
C("bare body at the start of the output", "TOOLCALLING.batch.5.b", "call:get_weather{location:" + s("Tokyo") + "}" + E, calls=[("get_weather", W)],
  ref="PARSER_CASES.md gemma4 bare body: held, a call once the object closes and <tool_call|> follows")
C("EOS inside the arguments", "TOOLCALLING.batch.5.c", "x " + O + "call:f{a:" + s("Tok"), content="x ", abandoned=1,
  ref="library rule: abandoned, markup dropped (Dynamo echoes it)")
C("EOS inside the name", "TOOLCALLING.batch.5.c", "x " + O + "call:get_wea", content="x ")
C("EOS inside call:", "TOOLCALLING.batch.5.c", O + "cal")
C("last call complete but unclosed", "TOOLCALLING.batch.5.d", call("a", "") + O + "call:b{y:2}", calls=[("a", {}), ("b", {"y": 2})])
C("last call truncated inside a value", "TOOLCALLING.batch.5.e", call("a", "") + O + "call:b{y:tru", calls=[("a", {})], abandoned=1)
C("EOS inside the closer", "TOOLCALLING.batch.5.a", O + "call:f{a:1} <tool_", calls=[("f", {"a": 1})], content=" <tool_",
  ref="a held marker prefix at Finish is text; the call is complete")
# batch.6
C("empty arguments", "TOOLCALLING.batch.6.a", call("get_time", ""), calls=[("get_time", {})])
C("whitespace inside empty arguments", "TOOLCALLING.batch.6.b", O + "call:get_time{ \n }" + E, calls=[("get_time", {})])
C("no argument object", "TOOLCALLING.batch.6.c", O + "call:get_time" + E, ref="decision: call:NAME needs its {…}; without it the body is not a call (markup)")
# batch.7
C("scalar and container matrix", "TOOLCALLING.batch.7.a",
  call("f", "s:" + s("x") + ",i:42,n:-3,f:2.50,t:true,F:FALSE,nu:null,no:None,ni:nil,o:{k:" + s("v") + "},l:[1," + s("two") + ",false],e:,z:0"),
  calls=[("f", '{"s":"x","i":42,"n":-3,"f":2.50,"t":true,"F":false,"nu":null,"no":null,"ni":null,"o":{"k":"v"},"l":[1,"two",false],"e":"","z":0}')],
  ref="PARSER_CASES.md: literals case-insensitive, none/nil are null, an empty value is \"\"")
C("strings: quotes, backslashes, control characters, unicode, HTML", "TOOLCALLING.batch.7.b",
  call("f", "a:" + s('say "hi" \\ <b>x</b> & <|x <| <') + ",b:" + s("line1\nline2\ttab") + ",c:" + s("héllo 世界 🎉")),
  calls=[("f", r'{"a":"say \"hi\" \\ <b>x</b> & <|x <| <","b":"line1\nline2\ttab","c":"héllo 世界 🎉"}')],
  ref="strings are raw between the delimiters; converted to JSON strings (no \\uXXXX re-encoding)")
C("schema mismatch keeps the model's value", "TOOLCALLING.batch.7.c", call("set_temp", "celsius:" + s("20")), calls=[("set_temp", {"celsius": "20"})],
  tools=[{"type": "function", "function": {"name": "set_temp", "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}}}}}])
C("nested arguments", "TOOLCALLING.batch.7.d", call("q", "filter:{and:[{f:" + s("a") + ",v:1},{f:" + s("b") + ",v:[1,2]}]},limit:10"),
  calls=[("q", '{"filter":{"and":[{"f":"a","v":1},{"f":"b","v":[1,2]}]},"limit":10}')])
C("deep, empty nested and duplicate keys", "TOOLCALLING.batch.7.e", call("f", "a:{b:{c:[[[]]]}},e:{},l:[],d:1,d:2,k.x-y_z:1"),
  calls=[("f", '{"a":{"b":{"c":[[[]]]}},"e":{},"l":[],"d":1,"d":2,"k.x-y_z":1}')])
C("numbers: exact, leading zeros removed", "TOOLCALLING.batch.7.f", call("f", "id:12345678901234567890123,a:007,b:-00.50,c:00.5,d:-0,e:1.000000000000000000001"),
  calls=[("f", '{"id":12345678901234567890123,"a":7,"b":-0.50,"c":0.5,"d":-0,"e":1.000000000000000000001}')],
  ref="library rule §5.5: the literal normalised to valid JSON, no float round trip (Dynamo: 64-bit int or float)")
C("numbers and literals are word-bounded", "TOOLCALLING.batch.7.a", call("f", "a:truex") + call("g", "b:1e5") + call("h", "c:1.") + call("i", "d:-"), abandoned=4)
# batch.8
C("text before only", "TOOLCALLING.batch.8.a", "Let me check. " + call("search", "q:" + s("go")), content="Let me check. ", calls=[("search", {"q": "go"})])
C("text after only", "TOOLCALLING.batch.8.b", call("search", "q:" + s("go")) + "\nHope that helps.", content="\nHope that helps.", calls=[("search", {"q": "go"})])
C("text before and after", "TOOLCALLING.batch.8.c", "Before. " + call("search", "q:" + s("go")) + " After.", content="Before.  After.", calls=[("search", {"q": "go"})])
C("text between calls", "TOOLCALLING.batch.8.d", "A" + call("a", "") + " B " + call("b", "") + "C", content="A B C", calls=[("a", {}), ("b", {})])
# batch.9
C("empty output", "TOOLCALLING.batch.9.a", "")
C("whitespace only", "TOOLCALLING.batch.9.b", "  \n ", content="  \n ")
C("whitespace after the last call is dropped", "TOOLCALLING.batch.9.b", call("a", "") + "\n\n", calls=[("a", {})])
C("empty wrapper", "TOOLCALLING.batch.9.c", O + E)
# batch.10
C("duplicate calls", "TOOLCALLING.batch.10", call("get_weather", "location:" + s("Paris")) * 2,
  calls=[("get_weather", {"location": "Paris"}), ("get_weather", {"location": "Paris"})])
# batch.13
wt = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"location": {"type": "string"}}}}}]
C("unknown tool is emitted", "TOOLCALLING.batch.13.a", call("rm_rf", ""), calls=[("rm_rf", {})], tools=wt)
C("known and unknown mixed", "TOOLCALLING.batch.13.c", call("get_weather", "location:" + s("Rome")) + call("nope", "x:1"),
  calls=[("get_weather", {"location": "Rome"}), ("nope", {"x": 1})], tools=wt)
# batch.30/31
C("separators inside strings", "TOOLCALLING.batch.30.a", call("f", "q:" + s("a,b:c}d") + ",r:" + s(",")), calls=[("f", {"q": "a,b:c}d", "r": ","})],
  ref="TOOLCALLING.batch.30: Gemma's , : } inside <|\"|>…<|\"|> are text")
C("braces and brackets inside strings", "TOOLCALLING.batch.30.b", call("f", "code:" + s("if (x) { return [1]; } }}]]")), calls=[("f", {"code": "if (x) { return [1]; } }}]]"})])
C("closer and opener inside a string", "TOOLCALLING.batch.30.c", call("f", "t:" + s(E + O + "call:x{}")) + "after",
  content="after", calls=[("f", {"t": E + O + "call:x{}"})],
  ref="library rule §6.13: the closer is found string-aware (Dynamo and upstream vLLM truncate at the first <tool_call|>)")
C("separator inside a string before the next call", "TOOLCALLING.batch.31.a", call("a", "s:" + s("},{x:1")) + call("b", ""), calls=[("a", {"s": "},{x:1"}), ("b", {})])
C("structural delimiters inside strings before later calls", "TOOLCALLING.batch.31.b", call("a", "s:" + s("]}" + E)) + call("b", "t:" + s("[{")),
  calls=[("a", {"s": "]}" + E}), ("b", {"t": "[{"})])
# stream
C("whole call in one chunk", "TOOLCALLING.stream.1.a", sample, chunks=[sample], calls=[("get_weather", SA)])
C("split at significant boundaries", "TOOLCALLING.stream.1.b", sample,
  chunks=["<|tool_", "call>ca", "ll:get_", "weather{loca", "tion:<|\"", "|>Tok", "yo<|", "\"|>,count:4", "2,opts:{deep:tr", "ue},tags:[<|\"|>a<|\"|>,<|\"|>b<|\"|>]}<tool_c", "all|>"],
  calls=[("get_weather", SA)])
C("a 10 KB argument string streams", "TOOLCALLING.stream.1", call("write_file", "path:" + s("/tmp/big.txt") + ",content:" + s(big)),
  calls=[("write_file", {"path": "/tmp/big.txt", "content": big})], tool_parser="gemma4",
  ref="PARSER_CASES.md very long output; run under one name (every split point of 10 KB is slow)")
two = call("a", "x:" + s("1")) + call("b", "y:" + s("2"))
n = len(two)
C("two calls each spanning chunks", "TOOLCALLING.stream.2", two, chunks=[two[:n // 4], two[n // 4:n // 2], two[n // 2:3 * n // 4], two[3 * n // 4:]],
  calls=[("a", {"x": "1"}), ("b", {"y": "2"})])
C("markers split mid-token", "TOOLCALLING.stream.3", "Hi " + call("f", "a:" + s("b")), chunks=["Hi <|to", "ol_call>call:f{a:<|", "\"|>b<|\"", "|>}<tool_call", "|>"],
  content="Hi ", calls=[("f", {"a": "b"})])
C("complete arguments, no closer, finish", "TOOLCALLING.stream.4.a", O + "call:f{k:[1]}", calls=[("f", {"k": [1]})],
  ref="library rule §6.13: recovered when the argument object closed")
C("truncated mid-body at finish", "TOOLCALLING.stream.4.b", "ok " + O + "call:f{k:[1", content="ok ", abandoned=1, ref="no raw markup echoed")
C("bare body, then repeated closers", "TOOLCALLING.stream.4.c", "call:f{a:1}" + E + E + "\n" + E, chunks=["call:f{a:1}", E, E + "\n", E], calls=[("f", {"a": 1})],
  ref="PARSER_CASES.md: the bare body is a call, the orphan closers are dropped")
# fmt
C("function-name conventions", "TOOLCALLING.fmt.1", call("get_weather_v2", "") + call("tools.search", "") + call("get-weather", "") + call("mcp__a__b-c", ""),
  calls=[("get_weather_v2", {}), ("tools.search", {}), ("get-weather", {}), ("mcp__a__b-c", {})], ref="NAME = [A-Za-z0-9_.-]+")
C("non-ASCII names are not calls", "TOOLCALLING.fmt.1", call("天气", "") + call("🔧fix", "") + call("ok", ""), calls=[("ok", {})],
  ref="PARSER_CASES.md: NAME is [A-Za-z0-9_.-]+; any other body is markup")
C("whitespace around tokens", "TOOLCALLING.fmt.2", O + "\n call:get_weather {\n location : " + s("Tokyo") + " ,\n n : [ 1 , 2 ] \n} " + E,
  calls=[("get_weather", {"location": "Tokyo", "n": [1, 2]})], ref="decision: whitespace tolerated after the opener, before '{' and around the argument tokens")
C("bare body after whitespace in text", "TOOLCALLING.fmt.3", "Sure.\ncall:f{a:1}" + E + " ok", content="Sure.\n ok", calls=[("f", {"a": 1})],
  ref="PARSER_CASES.md gemma4 bare body: at the start of the output or after whitespace; every case also runs as gemma-4")
C("bare body after a call and whitespace", "TOOLCALLING.fmt.3", call("a", "") + "\ncall:b{}" + E, calls=[("a", {}), ("b", {})])
C("call: right after a call is text", "TOOLCALLING.fmt.3", call("a", "") + "call:b{x:1}" + E, content="call:b{x:1}", calls=[("a", {})],
  ref="not at the start of the output nor after whitespace: text; the orphan closer is removed")
C("bare body not after whitespace is text", "TOOLCALLING.fmt.3", "recall:f{a:1}" + E + "x", content="recall:f{a:1}x",
  ref="the closer is an orphan and removed")
C("bare body followed by text is content", "TOOLCALLING.fmt.3", "call:f{a:" + s("x") + "} and more", content="call:f{a:" + s("x") + "} and more",
  ref="decision: a byte other than whitespace after the object proves it is not a call: released as content verbatim")
C("bare body with a parse error is content", "TOOLCALLING.fmt.3", "call:f{a:1x}" + E, content="call:f{a:1x}")
C("bare body cut by the end of the stream is content", "TOOLCALLING.fmt.3", "call:f{a:1}", content="call:f{a:1}", ref="never proven a call")
C("bare body past the buffer limit is content", "TOOLCALLING.fmt.3", "call:f{a:" + s("x" * 40) + "}" + E + " " + call("g", ""),
  content="call:f{a:" + s("x" * 40) + "} ", calls=[("g", {})], options={"max_call_buffer": 32},
  ref="PARSER_CASES.md: held bounded by the per-call limit; past it, released as content")
C("empty wrapper keeps surrounding text", "TOOLCALLING.fmt.4", "Before " + O + E + " after", content="Before  after")
C("keys called name and arguments", "TOOLCALLING.fmt.5", call("outer", "name:" + s("inner") + ",arguments:{a:1}"),
  calls=[("outer", {"name": "inner", "arguments": {"a": 1}})], ref="no envelope: every key is an argument")
C("entities are not decoded", "TOOLCALLING.xml.1", call("f", "html:" + s("&lt;b&gt; &amp;")), calls=[("f", {"html": "&lt;b&gt; &amp;"})], ref="pinned: no entity pass")
# options
C("whole-call mode", "TOOLCALLING.stream.1", call("a", "x:1") + "text", content="text", calls=[("a", {"x": 1})], options={"whole_calls": True})
C("a name past the buffer limit is not a call", "TOOLCALLING.batch.4.c", call("n" * 40, "") + call("ok", ""), calls=[("ok", {})], options={"max_call_buffer": 32})
C("streamed arguments are not limited", "TOOLCALLING.batch.7.e", call("a", "big:" + s("x" * 64)), calls=[("a", {"big": "x" * 64})], options={"max_call_buffer": 32})

out = sys.argv[1]
fx.dump(os.path.join(out, "gemma4", "tools.json"), family="gemma4",
        description="Gemma 4 tool calls <|tool_call>call:NAME{k:<|\"|>v<|\"|>}<tool_call|>",
        tool_parsers=["gemma4", "gemma-4"],
        not_applicable={
            "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
            "TOOLCALLING.batch.13.d": "tools are referenced by name, not ordinal",
            "TOOLCALLING.fmt.5.1": "Gemma 4 carries no native call id",
            "TOOLCALLING.fmt.5.3": "no envelope: the object after the name is the arguments",
            "TOOLCALLING.xml.2": "values carry their own types; no schema coercion",
            "TOOLCALLING.harmony.1": "Harmony only", "TOOLCALLING.harmony.2": "Harmony only"})

# gemma4 reasoning + gemma4 tools
fx = Fx()
C = fx.C
one = call("get_weather", "location:" + s("Tokyo"))
C("reasoning then a call", "REASONING.batch.3.a", S + "thought\nneed the weather" + E.replace(E, SE) + one, reasoning="need the weather",
  calls=[("get_weather", W)], ref="PARSER_CASES.md + §6.13")
C("reasoning, answer, call, answer", "REASONING.batch.3.a", S + "thought\nplan" + SE + "Let me check. " + one + " Done.", reasoning="plan",
  content="Let me check.  Done.", calls=[("get_weather", W)])
C("channel markers inside argument strings are text", "TOOLCALLING.batch.30.c", one[:-len(E) - 1] + ",note:" + s(S + "thought\nx" + SE) + "}" + E,
  calls=[("get_weather", {"location": "Tokyo", "note": S + "thought\nx" + SE})], ref="markers are recognised only where legal")
C("call markup inside reasoning is reasoning text", "REASONING.batch.3.a", S + "thought\nmaybe " + one + SE + "ok",
  reasoning="maybe " + one, content="ok", allow_markup=True)
C("reasoning again after a call", "REASONING.batch.6.a", one + "\n" + S + "thought\nmore" + SE + "answer", reasoning="more", content="\nanswer",
  calls=[("get_weather", W)])
C("bare body right after reasoning", "REASONING.batch.3.a", S + "thought\nx" + SE + "call:f{a:1}" + E, reasoning="x", calls=[("f", {"a": 1})],
  ref="no content yet: still the start of the output for the bare-body rule")
C("bare body after reasoning that follows whitespace", "REASONING.batch.3.a", "Hi. " + S + "thought\nx" + SE + "call:f{a:1}" + E, reasoning="x",
  content="Hi. ", calls=[("f", {"a": 1})], ref="after whitespace = the last content byte is whitespace; markup between does not count")
C("call: after reasoning that follows a word is text", "REASONING.batch.3.a", "Hi." + S + "thought\nx" + SE + "call:f{a:1}" + E, reasoning="x",
  content="Hi.call:f{a:1}", allow_markup=True, ref="not after whitespace: text; the orphan closer is removed")
C("stray channel closer between calls", "REASONING.batch.4", one + SE + one, calls=[("get_weather", W), ("get_weather", W)],
  ref="a stray <channel|> is dropped; it ends the call group, the next opener starts a new one")
C("markers split across chunks at the boundary", "REASONING.stream.3.b", S + "thought\nr" + SE + one,
  chunks=[S + "thought\nr<chan", "nel|><|tool", "_call>call:get_weather{location:<|\"|>Tokyo<|\"|>}<tool_call|>"], reasoning="r", calls=[("get_weather", W)])
fx.dump(os.path.join(out, "compose", "gemma4_gemma4.json"), family="compose",
        description="Gemma 4: the gemma4 reasoning parser (<|channel>thought\\n…<channel|>) feeding the gemma4 tool parser",
        tool_parsers=["gemma4", "gemma-4"], reasoning_parsers=["gemma4", "gemma-4"], not_applicable={})
