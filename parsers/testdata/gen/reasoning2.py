import sys, os
from common import Fx
from reasoning import NA_HARMONY, NA_NULL, NA_TOOLSTART
out = sys.argv[1]

# gemma4
S, E = "<|channel>", "<channel|>"
fx = Fx(); C = fx.C
C("empty input", "REASONING.batch.1.a", "")
C("plain text is content", "REASONING.batch.1.b", "Hello, no channel here.", content="Hello, no channel here.")
C("whitespace only", "REASONING.batch.1.c", " \n ", content=" \n ")
C("reasoning only, label stripped", "REASONING.batch.2.a", S + "thought\nstep one\nstep two" + E, reasoning="step one\nstep two")
C("text before the span", "REASONING.batch.2.b", "Hello. " + S + "thought\nrumination" + E, content="Hello. ", reasoning="rumination")
C("span then answer", "REASONING.batch.2.c", S + "thought\nstep one\nstep two" + E + "The answer is 42.", reasoning="step one\nstep two", content="The answer is 42.")
C("text on both sides, untrimmed", "REASONING.batch.2.d", "Hello. " + S + "thought\nrumination" + E + " Goodbye.", content="Hello.  Goodbye.", reasoning="rumination", ref="PARSER_CASES.md")
C("empty span", "REASONING.batch.2.e", S + E + " x", content=" x")
C("label only", "REASONING.batch.2.e", S + "thought\n" + E + "x", content="x")
C("complex body", "REASONING.batch.2.f", S + "thought\n" + "Line 1\n\n```py\nprint('<channel')\n```\n思考 🤔 thought\n again" + E + "ok",
  reasoning="Line 1\n\n```py\nprint('<channel')\n```\n思考 🤔 thought\n again", content="ok")
C("span without the label keeps its text", "REASONING.batch.2.a", S + "no label here" + E + "ok", reasoning="no label here", content="ok")
C("label prefix that diverges is text", "REASONING.batch.2.a", S + "thou shalt" + E + "x", reasoning="thou shalt", content="x")
C("span ending while still a label prefix is dropped", "REASONING.batch.4", S + "thou" + E + "x", content="x", ref="PARSER_CASES.md")
C("only the first label is stripped", "REASONING.batch.2.f", S + "thought\nthought\nx" + E, reasoning="thought\nx")
C("closed reasoning then a tool call stays for the tool parser", "REASONING.batch.3.a", S + "thought\nneed weather" + E + "<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}<tool_call|>",
  reasoning="need weather", content="<|tool_call>call:get_weather{city:<|\"|>Paris<|\"|>}<tool_call|>")
C("stray closer in content is dropped", "REASONING.batch.4", "a" + E + "b", content="ab", ref="library rule (Dynamo batch makes the prefix reasoning)")
C("nested opener inside reasoning is dropped", "REASONING.batch.4", S + "thought\na" + S + "b" + E + "c", reasoning="ab", content="c")
C("open span without close is reasoning to the end", "REASONING.batch.5", S + "thought\nstill thinking", reasoning="still thinking")
C("label prefix cut by the end of stream is dropped", "REASONING.batch.5", "x" + S + "thou", content="x", ref="a span that ends while its label is still a prefix is dropped, also at Finish")
C("multiple spans", "REASONING.batch.6.a", S + "thought\na" + E + "x" + S + "thought\nb" + E + "y", reasoning="ab", content="xy")
C("later span unterminated", "REASONING.batch.6.b", S + "thought\na" + E + " x " + S + "thought\nb", reasoning="ab", content=" x ")
C("InReasoning: the prompt opened the channel", "REASONING.batch.2.c", "thought\nalready" + E + "answer", reasoning="already", content="answer", options={"in_reasoning": True},
  ref="library honours InReasoning (Dynamo ignores set_in_reasoning for gemma4)")
C("empty chunks", "REASONING.stream.1.a", S + "thought\nx" + E + "y", chunks=["", S, "", "thought\nx" + E, "", "y"], reasoning="x", content="y")
C("marker-free stream", "REASONING.stream.1.b", "no channel", chunks=["no ", "channel"], content="no channel")
C("one span over chunks, label split", "REASONING.stream.2.a", S + "thought\none two" + E + "done", chunks=[S + "tho", "ught", "\none ", "two" + E, "done"], reasoning="one two", content="done")
C("several spans over chunks", "REASONING.stream.2.b", S + "thought\na" + E + "x" + S + "thought\nb" + E + "y", chunks=[S + "thought\na" + E[:3], E[3:] + "x" + S[:4], S[4:] + "thought\nb" + E + "y"], reasoning="ab", content="xy")
C("start marker split", "REASONING.stream.3.a", S + "thought\nr" + E + "a", chunks=["<|chan", "nel>thought\nr" + E + "a"], reasoning="r", content="a")
C("end marker split", "REASONING.stream.3.b", S + "thought\nr" + E + "a", chunks=[S + "thought\nr<chan", "nel|>a"], reasoning="r", content="a")
C("held prefix that is not a marker", "REASONING.stream.3.c", "a <|chan" + "ce", chunks=["a <|chan", "ce"], content="a <|chance")
C("end marker split after the lone first byte", "REASONING.stream.3.d", S + "thought\nr" + E + "a", chunks=[S + "thought\nr<", "channel|>a"], reasoning="r", content="a")
C("re-entry split at the lone first byte", "REASONING.stream.3.e", S + "thought\na" + E + "b" + S + "thought\nc" + E + "d", chunks=[S + "thought\na" + E + "b<", "|channel>thought\nc" + E + "d"], reasoning="ac", content="bd")
fx.dump(os.path.join(out, "gemma4", "reasoning.json"), family="gemma4", description="Gemma 4: <|channel>thought\\n…<channel|>",
  reasoning_parsers=["gemma4", "gemma-4"], not_applicable={**NA_TOOLSTART, **NA_HARMONY, **NA_NULL})

# granite
ST, ST2, EN, EN2 = "Here's my thought process:", "Here is my thought process:", "Here's my response:", "Here is my response:"
fx = Fx(); C = fx.C
C("empty input", "REASONING.batch.1.a", "")
C("plain text is content", "REASONING.batch.1.b", "Hello there.", content="Hello there.")
C("whitespace only", "REASONING.batch.1.c", "\n\n", content="\n\n")
C("reasoning only", "REASONING.batch.2.a", ST + " just thinking", reasoning=" just thinking")
C("text before a start phrase: the phrase is text", "REASONING.batch.2.b", "Intro. " + ST + " x " + EN + " y", content="Intro. " + ST + " x " + EN + " y",
  ref="library rule: the start phrase counts only at the start of the output (after whitespace)")
C("span then answer", "REASONING.batch.2.c", ST + " I think. " + EN + " The answer.", reasoning=" I think. ", content=" The answer.")
C("'Here is' spellings", "REASONING.batch.2.c", ST2 + "abc " + EN2 + "def", reasoning="abc ", content="def")
C("mixed spellings", "REASONING.batch.2.c", ST + "x " + EN2 + "y", reasoning="x ", content="y")
C("leading whitespace stays content", "REASONING.batch.2.d", "\n " + ST + " r " + EN + " a", content="\n  a", reasoning=" r ")
C("empty span", "REASONING.batch.2.e", ST + EN + "a", content="a")
C("complex body", "REASONING.batch.2.f", ST + "\n1. Here's my plan.\n2. Here's my thought: code `x<y`.\n思考 🤔\n" + EN + "\nDone.",
  reasoning="\n1. Here's my plan.\n2. Here's my thought: code `x<y`.\n思考 🤔\n", content="\nDone.")
C("closed reasoning then a tool call stays for the tool parser", "REASONING.batch.3.a", ST + "need a tool " + EN + "<|tool_call|>[{\"name\": \"f\", \"arguments\": {}}]",
  reasoning="need a tool ", content="<|tool_call|>[{\"name\": \"f\", \"arguments\": {}}]")
C("end phrase without a span is text", "REASONING.batch.4", "Done. " + EN + " ok", content="Done. " + EN + " ok", ref="PARSER_CASES.md granite")
C("start phrase inside reasoning is dropped", "REASONING.batch.4", ST + " a " + ST + " b " + EN + " c", reasoning=" a  b ", content=" c")
C("lower-case phrases are text", "REASONING.batch.4", "here's my thought process: x", content="here's my thought process: x")
C("missing end phrase", "REASONING.batch.5", ST + " still going", reasoning=" still going")
C("at most one span", "REASONING.batch.6.a", ST + " a " + EN + " b " + ST + " c", reasoning=" a ", content=" b " + ST + " c")
C("later start phrase after the answer is text", "REASONING.batch.6.b", ST + "a" + EN + "b " + ST + "c " + EN + "d", reasoning="a", content="b " + ST + "c " + EN + "d")
C("InReasoning", "REASONING.batch.2.c", "r " + EN + " a", reasoning="r ", content=" a", options={"in_reasoning": True})
C("empty chunks", "REASONING.stream.1.a", ST + "x" + EN + "y", chunks=["", ST, "", "x" + EN, "y", ""], reasoning="x", content="y")
C("held phrase prefix released on divergence", "REASONING.stream.1.b", "Here's a joke for you.", chunks=["Here", "'s ", "a joke", " for you."], content="Here's a joke for you.", ref="PARSER_CASES.md")
C("one span over chunks", "REASONING.stream.2.a", ST + " one two " + EN + " done", chunks=[ST[:10], ST[10:] + " one", " two ", EN[:7], EN[7:] + " done"], reasoning=" one two ", content=" done")
C("second span attempt over chunks is text", "REASONING.stream.2.b", ST + "a" + EN + "b" + ST, chunks=[ST + "a", EN + "b", ST], reasoning="a", content="b" + ST)
C("start phrase split", "REASONING.stream.3.a", ST + "r" + EN + "a", chunks=["Here's my tho", "ught process:r" + EN + "a"], reasoning="r", content="a")
C("end phrase split", "REASONING.stream.3.b", ST + "r" + EN + "a", chunks=[ST + "rHere's my res", "ponse:a"], reasoning="r", content="a")
C("held prefix that diverges inside reasoning", "REASONING.stream.3.c", ST + "Here's my resume" + EN, chunks=[ST + "Here's my res", "ume" + EN], reasoning="Here's my resume")
C("end phrase split after the first byte", "REASONING.stream.3.d", ST + "r" + EN + "a", chunks=[ST + "rH", "ere's my response:a"], reasoning="r", content="a")
C("re-entry is not possible (one span)", "REASONING.stream.3.e", ST + "a" + EN + "b" + ST + "c", chunks=[ST + "a" + EN + "bH", ST[1:] + "c"], reasoning="a", content="b" + ST + "c")
for c in fx.cases:
    if c["name"] in ("text before a start phrase: the phrase is text", "re-entry is not possible (one span)", "second span attempt over chunks is text",
                     "later start phrase after the answer is text", "at most one span", "end phrase without a span is text"):
        c["allow_markup"] = True
fx.dump(os.path.join(out, "granite", "reasoning.json"), family="granite", description="IBM Granite 3.x thought/response phrases",
  reasoning_parsers=["granite"], not_applicable={**NA_TOOLSTART, **NA_HARMONY, **NA_NULL})

# minimax_append_think
fx = Fx(); C = fx.C
T = "<think>"
def A(name, case, inp, **kw):
    C(name, case, inp, content=T + inp, allow_markup=True, **kw)
A("empty output: the opener alone", "REASONING.batch.1.a", "")
A("plain answer", "REASONING.batch.1.b", "plain answer")
A("whitespace", "REASONING.batch.1.c", "  ")
A("reasoning only stays inline", "REASONING.batch.2.a", "reasoning</think>")
A("text around a span stays inline", "REASONING.batch.2.b", "reasoning</think>answer")
A("answer after reasoning", "REASONING.batch.2.c", "reasoning</think>\n\nThe answer.")
A("both sides", "REASONING.batch.2.d", "a</think> b <think>c</think> d")
A("empty span", "REASONING.batch.2.e", "</think>x")
A("complex body", "REASONING.batch.2.f", "思考 🤔\n```\n<think>\n```</think>ok")
A("tool block stays in content for the tool parser", "REASONING.batch.3.a", "r</think><minimax:tool_call>\n<invoke name=\"f\">\n</invoke>\n</minimax:tool_call>")
A("tool block before any closer", "REASONING.batch.3.b", "r<minimax:tool_call>\n<invoke name=\"f\">\n</invoke>\n</minimax:tool_call>")
A("stray markers pass through", "REASONING.batch.4", "</think></think><think>")
A("missing end marker", "REASONING.batch.5", "never closed")
A("multiple spans", "REASONING.batch.6.a", "first</think> middle <think>second</think> done")
A("later span unterminated", "REASONING.batch.6.b", "a</think>b<think>c")
A("first chunk empty: the opener comes with it", "REASONING.stream.1.a", "a", chunks=["", "a"])
A("marker-free stream", "REASONING.stream.1.b", "no markers", chunks=["no ", "markers"])
A("span over chunks", "REASONING.stream.2.a", "one two</think>x", chunks=["one ", "two</th", "ink>x"])
A("several spans over chunks", "REASONING.stream.2.b", "a</think>b<think>c</think>d", chunks=["a</think>", "b<think>c", "</think>d"])
A("start marker split: passed through", "REASONING.stream.3.a", "x<think>y", chunks=["x<th", "ink>y"])
A("end marker split: passed through", "REASONING.stream.3.b", "x</think>y", chunks=["x</th", "ink>y"])
A("nothing is held", "REASONING.stream.3.c", "a <th", chunks=["a <th"])
A("end split after the lone <", "REASONING.stream.3.d", "x</think>y", chunks=["x<", "/think>y"])
A("re-entry split at <", "REASONING.stream.3.e", "a</think>b<think>c", chunks=["a</think>b<", "think>c"])
A("tool-start token split", "REASONING.stream.4", "r<minimax:tool_call>", chunks=["r<minimax:to", "ol_call>"])
fx.dump(os.path.join(out, "minimax_append_think", "reasoning.json"), family="minimax_append_think",
  description="minimax_append_think never splits: <think> is prepended and everything is content",
  reasoning_parsers=["minimax_append_think", "minimax_m2_append_think", "minimax-append-think"], not_applicable={**NA_HARMONY, **NA_NULL})
