"""pythonic tool-call fixtures.

    python3 gen/pythonic.py .     # writes pythonic/pythonic.json

Content that holds a '[' is marker text for the harness (the '[' opener), so those cases set
allow_markup.
"""
import os, sys
from common import Fx

PS, PE = "<|python_start|>", "<|python_end|>"
fx = Fx()


def C(name, case, input, content="", **kw):
    if "[" in content or "<|python" in content:
        kw["allow_markup"] = True
    fx.C(name, case, input, content=content, **kw)


W = {"city": "San Francisco", "days": 3}
big = "".join("line %04d: the quick brown fox jumps over the lazy dog\\n" % i for i in range(200))
# batch.1
C("single call", "TOOLCALLING.batch.1", '[get_weather(city="San Francisco", days=3)]', calls=[("get_weather", W)], ref="PARSER_CASES.md sample")
# batch.2
C("parallel calls in one list", "TOOLCALLING.batch.2.a", '[get_weather(city="San Francisco", days=3), get_time(tz=\'UTC\')]',
  calls=[("get_weather", W), ("get_time", {"tz": "UTC"})], ref="PARSER_CASES.md sample")
two = "[a(x=1), b()]"
C("two calls closing in one delta", "TOOLCALLING.batch.2.b", two, chunks=["[a(x=1", "), b()]"], calls=[("a", {"x": 1}), ("b", {})])
C("call group with surrounding content", "TOOLCALLING.batch.2.c", "Checking both.\n[get_time(tz='UTC'), get_time(tz='CET')]\nDone.",
  content="Checking both.\n\nDone.", calls=[("get_time", {"tz": "UTC"}), ("get_time", {"tz": "CET"})],
  ref="whitespace between a list and text that follows is content; before the list it is text")
C("three calls: distinct ids, consecutive indices", "TOOLCALLING.batch.2.d", "[a(), b(), c()]", calls=[("a", {}), ("b", {}), ("c", {})])
C("every complete list is parsed", "TOOLCALLING.batch.2.a", "[a(x=1)]\n[b(y=2)] and [c()]", content=" and ", calls=[("a", {"x": 1}), ("b", {"y": 2}), ("c", {})],
  ref="library rule: Dynamo parses only the first list and drops the rest")
# batch.3
C("text only", "TOOLCALLING.batch.3", "The weather is nice.", content="The weather is nice.")
C("brackets in prose are content", "TOOLCALLING.batch.3", "Arrays [1, 2], links [docs](https://x.y), boxes [x] [ ], calls f(x) and [len(x) for x in y].",
  content="Arrays [1, 2], links [docs](https://x.y), boxes [x] [ ], calls f(x) and [len(x) for x in y].",
  ref="a '[' is only a candidate, released the moment it cannot be a call list")
C("empty list is content", "TOOLCALLING.batch.3", "[] and [ ]", content="[] and [ ]")
# batch.4
C("mismatched brackets", "TOOLCALLING.batch.4.a", "[f(a=1]] x", content="[f(a=1]] x", ref="library rule §5.6: a list that does not parse as calls is content")
C("garbage after a call", "TOOLCALLING.batch.4.a", "[f(a=1) garbage]", content="[f(a=1) garbage]")
C("empty argument value", "TOOLCALLING.batch.4.b", "[f(a=)]", content="[f(a=)]", ref="a Python syntax error (Dynamo: Err): content")
C("unterminated string on its line", "TOOLCALLING.batch.4.b", "[f(a=\"oops\n)]", content="[f(a=\"oops\n)]")
C("bad hex escape", "TOOLCALLING.batch.4.b", r'[f(a="\xZZ")]', content=r'[f(a="\xZZ")]')
C("double comma", "TOOLCALLING.batch.4.b", "[f(a=1,,b=2)]", content="[f(a=1,,b=2)]")
C("positional arguments are ignored, the call kept", "TOOLCALLING.batch.4.c", '[f("x", 1, *rest, k=2, **kw)]', calls=[("f", {"k": 2})],
  ref="PARSER_CASES.md (Dynamo): only keyword arguments; positional, *args and **kwargs skipped")
C("keyword values outside the literal subset are skipped", "TOOLCALLING.batch.4.c",
  '[f(a=x, b=1+2, c=g(1), d=[i for i in y], e={1, 2}, f=f"s{x}", g=b"raw", h="\\N{BULLET}", i=1 if x else 2, j=[1, y], k=3)]',
  calls=[("f", {"k": 3})], ref="PARSER_CASES.md (Dynamo): an argument whose value is another expression is skipped, the call kept")
C("a comparison is positional", "TOOLCALLING.batch.4.c", "[f(a == 1, b=2)]", calls=[("f", {"b": 2})])
C("dotted callee is not a call", "TOOLCALLING.batch.4.c", '[os.system(cmd="rm")]', content='[os.system(cmd="rm")]',
  ref="PARSER_CASES.md: NAME is a plain identifier")
C("an element that is not a call", "TOOLCALLING.batch.4.d", "[f(a=1), 5] tail", content="[f(a=1), 5] tail",
  ref="library rule: the list does not parse as calls, so it is content (Dynamo keeps f)")
C("a call without parentheses", "TOOLCALLING.batch.4.d", "[f, g()]", content="[f, g()]")
C("bad list followed by a valid list", "TOOLCALLING.batch.4.e", "[f(a=1), 5]\n[g(b=2)]", content="[f(a=1), 5]\n", calls=[("g", {"b": 2})])
C("nested bracket that fails restarts at the failing byte", "TOOLCALLING.batch.4.e", "[[g()]]", content="[]", calls=[("g", {})],
  ref="the outer '[' fails at the inner '[', which is scanned again as a candidate")
# batch.5
C("python_start without python_end", "TOOLCALLING.batch.5.a", PS + "[f(a=1)]", calls=[("f", {"a": 1})], ref="the tags are optional markup")
C("python_end without python_start", "TOOLCALLING.batch.5.b", "done" + PE + " more", content="done more", ref="PARSER_CASES.md: orphan closers are markup")
C("closing bracket without an opening one", "TOOLCALLING.batch.5.b", "f(a=1)]", content="f(a=1)]")
C("EOS inside a call", "TOOLCALLING.batch.5.c", "Sure [f(a=1", content="Sure [f(a=1", ref="PARSER_CASES.md: an unclosed list is content")
C("EOS inside a string", "TOOLCALLING.batch.5.c", '[f(a="<|python_end|> x', content='[f(a="<|python_end|> x',
  ref="the candidate is verbatim content, including marker text inside its strings")
C("last call complete but the list unclosed", "TOOLCALLING.batch.5.d", "[f(a=1), g(b=2)", content="[f(a=1), g(b=2)",
  ref="the list is the call delimiter: never proven a call list")
C("last call truncated inside a value", "TOOLCALLING.batch.5.e", '[f(a=1), g(b="tru', content='[f(a=1), g(b="tru')
# batch.6
C("no arguments", "TOOLCALLING.batch.6.a", "[get_time()]", calls=[("get_time", {})])
C("whitespace inside the parentheses", "TOOLCALLING.batch.6.b", "[get_time( )][get_time(\n)]", calls=[("get_time", {}), ("get_time", {})],
  ref="PARSER_CASES.md: get_time( ) is a call")
C("only positional arguments", "TOOLCALLING.batch.6.c", '[get_time("UTC")]', calls=[("get_time", {})], ref="no keyword arguments: {}")
# batch.7
C("scalar and container matrix", "TOOLCALLING.batch.7.a",
  "[f(i=1, f=-2.5e-3, t=True, n=None, l=[1, 'two', False], d={'k': 'v'}, tup=(1, 2), one=(1,), empty=(), paren=(3), neg=-7, pos=+4)]",
  calls=[("f", '{"i":1,"f":-2.5e-3,"t":true,"n":null,"l":[1,"two",false],"d":{"k":"v"},"tup":[1,2],"one":[1],"empty":[],"paren":3,"neg":-7,"pos":4}')],
  ref="PARSER_CASES.md: None→null, True/False→booleans; tuples are arrays, (x) is x; unary minus/plus accepted (library rule)")
C("number spellings", "TOOLCALLING.batch.7.a", "[f(a=.5, b=5., c=1_000, d=0x1F, e=0o17, f=0b101, g=007, h=1e5, i=1.5E-3, j=-.25, k=0.0)]",
  calls=[("f", '{"a":0.5,"b":5.0,"c":1000,"d":31,"e":15,"f":5,"g":7,"h":1e5,"i":1.5E-3,"j":-0.25,"k":0.0}')],
  ref="normalised to JSON spelling without a float round trip")
C("string escapes, quotes and unicode", "TOOLCALLING.batch.7.b",
  r'[f(a="line1\nline2\ttab", b=' + r"'it\'s " + '"q"' + r"'" + r', c="\u00e9\x41\101\U0001F389", d="héllo 世界 🎉", e=r"C:\dir\n", f='
  + '"""multi\nline "quoted" text""", g=' + "'''x'''" + ' "y" ' + "'z'" + r', h="<b>x</b> &amp;", i="back\\slash", j="a\
b", k="\q")]',
  calls=[("f", r'{"a":"line1\nline2\ttab","b":"it' + "'" + r's \"q\"","c":"éAA🎉","d":"héllo 世界 🎉","e":"C:\\dir\\n","f":"multi\nline \"quoted\" text","g":"xyz","h":"<b>x</b> &amp;","i":"back\\slash","j":"ab","k":"\\q"}')],
  ref="Python quoting and escapes; raw and triple-quoted strings; adjacent literals concatenated; unknown escapes keep the backslash")
C("raw control characters in triple-quoted strings are escaped", "TOOLCALLING.batch.7.b", '[write(content="""a\tb\x01\nc""")]',
  calls=[("write", r'{"content":"a\tb\u0001\nc"}')])
C("schema mismatch keeps the model's value", "TOOLCALLING.batch.7.c", '[set_temp(celsius="20")]', calls=[("set_temp", {"celsius": "20"})],
  tools=[{"type": "function", "function": {"name": "set_temp", "parameters": {"type": "object", "properties": {"celsius": {"type": "integer"}}}}}])
C("nested arguments", "TOOLCALLING.batch.7.d", "[query(filter={'and': [{'f': 'a', 'v': 1}, {'f': 'b', 'v': [1, 2]}]}, limit=10)]",
  calls=[("query", '{"filter":{"and":[{"f":"a","v":1},{"f":"b","v":[1,2]}]},"limit":10}')])
C("deep, empty and repeated keywords", "TOOLCALLING.batch.7.e", "[f(a={'b': {'c': [[[]]]}}, n=None, e={}, l=[], d=1, d=2)]",
  calls=[("f", '{"a":{"b":{"c":[[[]]]}},"n":null,"e":{},"l":[],"d":1,"d":2}')],
  ref="decision: a repeated keyword (a Python syntax error) is kept as a duplicate JSON key; detecting it would cost a set per call")
C("integers of any size", "TOOLCALLING.batch.7.f", "[f(id=12345678901234567890123, neg=-9007199254740993, hex=0x1FFFFFFFFFFFFFFFFFFFF, x=1.000000000000000000001)]",
  calls=[("f", '{"id":12345678901234567890123,"neg":-9007199254740993,"hex":2417851639229258349412351,"x":1.000000000000000000001}')],
  ref="library rule §5.6: integers are JSON number literals of any size (Dynamo falls back to a string past 64 bits)")
# batch.8
C("text before only", "TOOLCALLING.batch.8.a", "Let me check: [search(q='go')]", content="Let me check: ", calls=[("search", {"q": "go"})],
  ref="Dynamo keeps the text before the list")
C("text after only", "TOOLCALLING.batch.8.b", "[search(q='go')]\nHope that helps.", content="\nHope that helps.", calls=[("search", {"q": "go"})],
  ref="library rule §6.12: text after the list is content (Dynamo drops it)")
C("text before and after", "TOOLCALLING.batch.8.c", "Before. [search(q='go')] After.", content="Before.  After.", calls=[("search", {"q": "go"})])
C("text between lists", "TOOLCALLING.batch.8.d", "A[a()] B [b()]C", content="A B C", calls=[("a", {}), ("b", {})])
# batch.9
C("empty output", "TOOLCALLING.batch.9.a", "")
C("whitespace only", "TOOLCALLING.batch.9.b", "  \n\t ", content="  \n\t ")
C("whitespace after the list is dropped", "TOOLCALLING.batch.9.b", "[a()]\n\n", calls=[("a", {})])
C("empty list is not a call list", "TOOLCALLING.batch.9.c", "[]", content="[]", ref="calls = \"[\" call { \",\" call } \"]\": at least one call")
# batch.10
C("duplicate calls", "TOOLCALLING.batch.10", "[get_weather(city='Paris'), get_weather(city='Paris')]",
  calls=[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Paris"})])
# batch.13
wt = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]
C("unknown tool is emitted", "TOOLCALLING.batch.13.a", "[rm_rf()]", calls=[("rm_rf", {})], tools=wt)
C("known and unknown mixed", "TOOLCALLING.batch.13.c", "[get_weather(city='Rome'), nope(x=1)]", calls=[("get_weather", {"city": "Rome"}), ("nope", {"x": 1})], tools=wt)
# batch.30/31
C("separators inside strings", "TOOLCALLING.batch.30.a", "[f(q='a;b,c', r=\",\")]", calls=[("f", {"q": "a;b,c", "r": ","})])
C("brackets and parentheses inside strings", "TOOLCALLING.batch.30.b", "[f(code='if (x) { return [1]; } ])]}')]", calls=[("f", {"code": "if (x) { return [1]; } ])]}"})])
C("marker text inside strings", "TOOLCALLING.batch.30.c", "[f(t='<|python_end|>[g()]<|python_start|>')]", calls=[("f", {"t": "<|python_end|>[g()]<|python_start|>"})],
  ref="DESIGN.md invariant 4")
C("separator inside a string before the next call", "TOOLCALLING.batch.31.a", "[a(s='), b('), b()]", calls=[("a", {"s": "), b("}), ("b", {})])
C("structural delimiters inside skipped expressions", "TOOLCALLING.batch.31.b", "[a(x=g(')]'), y=1), b(t='[{(')]", calls=[("a", {"y": 1}), ("b", {"t": "[{("})])
# stream
one = '[get_weather(city="San Francisco", days=3)]'
C("whole list in one chunk", "TOOLCALLING.stream.1.a", one, chunks=[one], calls=[("get_weather", W)])
C("split at significant boundaries", "TOOLCALLING.stream.1.b", one, chunks=["[", "get_", "weather(", "city=\"San ", "Francisco\", da", "ys=", "3)", "]"],
  calls=[("get_weather", W)])
C("a 10 KB argument string", "TOOLCALLING.stream.1", "[write_file(path='/tmp/big.txt', content=\"%s\")]" % big,
  calls=[("write_file", '{"path":"/tmp/big.txt","content":"%s"}' % big)], tool_parser="pythonic",
  ref="PARSER_CASES.md very long output; run under one name (every split point of 10 KB is slow)")
two = "[a(x='1'), b(y='2')]"
C("two calls each spanning chunks", "TOOLCALLING.stream.2", two, chunks=["[a(x=", "'1'), b", "(y='2", "')]"], calls=[("a", {"x": "1"}), ("b", {"y": "2"})])
C("python tags split mid-token", "TOOLCALLING.stream.3", "ok " + PS + "[f()]" + PE, chunks=["ok <|python_", "start|>[f()]<|pyth", "on_end|>"], content="ok ",
  calls=[("f", {})])
C("complete list, no python_end, finish", "TOOLCALLING.stream.4.a", PS + "[f(k=[1])]", calls=[("f", {"k": [1]})],
  ref="fence-less: the list's ']' is the delimiter")
C("truncated mid-list at finish", "TOOLCALLING.stream.4.b", PS + "[f(k=[1", content="[f(k=[1", ref="an unclosed list is content; the tag is markup")
C("list then repeated python_end", "TOOLCALLING.stream.4.c", "[f()]" + PE + PE + "\n" + PE, chunks=["[f()]", PE, PE + "\n", PE], calls=[("f", {})])
C("call without a list, then python_end", "TOOLCALLING.stream.4.c", "f(a=1)" + PE + PE, content="f(a=1)", ref="not a call list: content; the tags are removed")
# fmt
C("function-name conventions", "TOOLCALLING.fmt.1", "[get_weather_v2(), _private(), 天气(城市='北京'), Ünïcode()]",
  calls=[("get_weather_v2", {}), ("_private", {}), ("天气", {"城市": "北京"}), ("Ünïcode", {})], ref="Python identifiers, Unicode letters included")
C("names that are not identifiers", "TOOLCALLING.fmt.1", "[get-weather()] [🔧fix()] [2fa()]", content="[get-weather()] [🔧fix()] [2fa()]",
  ref="not plain identifiers: the lists do not parse as calls")
C("whitespace and comments everywhere", "TOOLCALLING.fmt.2", "[ get_time ( tz = 'UTC' , ) ,\n  other (  # why\n  a = [ 1 ,\n 2 , ] ,\n ) , ]",
  calls=[("get_time", {"tz": "UTC"}), ("other", {"a": [1, 2]})], ref="PARSER_CASES.md: insignificant whitespace between all tokens; trailing commas")
C("with and without the python tags", "TOOLCALLING.fmt.3", PS + "[a()]" + PE + " x " + "[b()]", content=" x ", calls=[("a", {}), ("b", {})],
  ref="Llama 4 wraps the list in <|python_start|>…<|python_end|>; every case also runs as llama4_pythonic")
C("empty tags", "TOOLCALLING.fmt.4", "Before " + PS + PE + " after", content="Before  after")
C("tags around text", "TOOLCALLING.fmt.4", PS + "print('hi')" + PE, content="print('hi')")
C("keywords called name and arguments", "TOOLCALLING.fmt.5", "[outer(name='inner', arguments={'a': 1})]", calls=[("outer", {"name": "inner", "arguments": {"a": 1}})])
C("entities are not decoded", "TOOLCALLING.xml.1", "[f(html='&lt;b&gt; &amp;')]", calls=[("f", {"html": "&lt;b&gt; &amp;"})], ref="pinned: no entity pass")
# options
C("whole-call mode", "TOOLCALLING.stream.1", "[a(x=1)]text", content="text", calls=[("a", {"x": 1})], options={"whole_calls": True})
C("a list past the buffer limit is content", "TOOLCALLING.batch.4.d", "[f(a='%s')] [g()]" % ("x" * 64), content="[f(a='%s')] " % ("x" * 64), calls=[("g", {})],
  options={"max_call_buffer": 32}, ref="PARSER_CASES.md: the candidate is held bounded by the per-call limit; past it, it is content")
C("whitespace after a list past the limit is content", "TOOLCALLING.batch.8.b", "[a()]" + " " * 40 + "x", content=" " * 40 + "x", calls=[("a", {})],
  options={"max_call_buffer": 32})

out = sys.argv[1]
os.makedirs(os.path.join(out, "pythonic"), exist_ok=True)
fx.dump(os.path.join(out, "pythonic", "pythonic.json"), family="pythonic",
        description="Python call lists [f(a=1), g()] with optional <|python_start|>…<|python_end|>",
        tool_parsers=["pythonic", "llama4_pythonic"],
        not_applicable={
            "TOOLCALLING.batch.13.b": "no forward-unknown switch: unknown tools are always emitted",
            "TOOLCALLING.batch.13.d": "tools are referenced by name, not ordinal",
            "TOOLCALLING.fmt.5.1": "pythonic carries no native call id",
            "TOOLCALLING.fmt.5.3": "no envelope: keyword arguments are the arguments",
            "TOOLCALLING.xml.2": "Python literals carry their types; no schema coercion",
            "TOOLCALLING.harmony.1": "Harmony only", "TOOLCALLING.harmony.2": "Harmony only"})
