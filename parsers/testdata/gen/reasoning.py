import sys, os
from common import Fx
out = sys.argv[1] if __name__ == "__main__" else None

NA_TOOLSTART = {"REASONING.batch.3.b": "no tool-start tokens in this group",
    "REASONING.stream.4": "no downstream boundary token in this group"}
NA_HARMONY = {"REASONING.batch.3.c": "Harmony only", "REASONING.batch.3.d": "Harmony only", "REASONING.batch.3.e": "Harmony only", "REASONING.batch.3.f": "Harmony only",
    "REASONING.stream.4.a": "Harmony only", "REASONING.stream.4.b": "Harmony only", "REASONING.stream.4.c": "Harmony only", "REASONING.stream.4.d": "Harmony only"}
NA_NULL = {"REASONING.batch.1.d": "null upstream content is wrapper-level: a Parser is fed bytes; nil and empty chunks are the same no-op (stream.1.a)"}

def paired(fx, S, E, forced, complex_body):
    """Cases shared by every paired-marker group. S/E are the markers."""
    C = fx.C
    if forced:
        C("empty input", "REASONING.batch.1.a", "")
        C("plain text is reasoning when forced", "REASONING.batch.1.b", "Hello world", reasoning="Hello world")
        C("whitespace only stays in reasoning", "REASONING.batch.1.c", "  \n ", reasoning="  \n ")
        C("reasoning then answer without opener", "REASONING.batch.2.c", "think it through" + E + "The answer.", reasoning="think it through", content="The answer.")
        C("leading opener is dropped, not duplicated", "REASONING.batch.2.c", S + "r" + E + "a", reasoning="r", content="a")
        C("whitespace around the span is kept", "REASONING.batch.2.d", "\n" + S + "\nr\n" + E + "\n\na", reasoning="\n\nr\n", content="\n\na")
        C("reasoning only", "REASONING.batch.2.a", S + "only reasoning" + E, reasoning="only reasoning")
        C("empty span", "REASONING.batch.2.e", S + E + " x", content=" x")
        C("missing end marker: everything is reasoning", "REASONING.batch.5", S + "truncated reasoning", reasoning="truncated reasoning")
        C("multiple spans", "REASONING.batch.6.a", "a" + E + "b" + S + "c" + E + "d", reasoning="ac", content="bd")
        C("later span unterminated", "REASONING.batch.6.b", "a" + E + " x " + S + "b", reasoning="ab", content=" x ")
        C("stray end marker after the span is dropped", "REASONING.batch.4", "a" + E + "b" + E + "c", reasoning="a", content="bc")
        C("nested opener inside reasoning is dropped", "REASONING.batch.4", "outer " + S + "inner" + E + " after", reasoning="outer inner", content=" after",
          ref="library rule: markup never in reasoning (Dynamo keeps the nested opener as text)")
        C("opener split across chunks", "REASONING.stream.3.a", S + "r" + E + "a", chunks=[S[:2], S[2:] + "r", E + "a"], reasoning="r", content="a")
        C("end marker split after the lone first byte", "REASONING.stream.3.d", "abc" + E + "def", chunks=["abc" + E[:1], E[1:] + "def"], reasoning="abc", content="def")
        C("text before the opener is reasoning when forced", "REASONING.batch.2.b", "Visible " + S + "r" + E + "a", reasoning="Visible r", content="a")
        C("marker-free stream is reasoning when forced", "REASONING.stream.1.b", "no markers at all", chunks=["no ", "markers ", "at all"], reasoning="no markers at all")
        C("end marker split across chunks", "REASONING.stream.3.b", "abc" + E + "def", chunks=["abc" + E[:-2], E[-2:] + "def"], reasoning="abc", content="def")
        C("held prefix that is not a marker stays reasoning", "REASONING.stream.3.c", "a " + E[:3] + "Z b" + E + "c", chunks=["a " + E[:3], "Z b" + E + "c"], reasoning="a " + E[:3] + "Z b", content="c")
        C("re-entry start marker split at the lone first byte", "REASONING.stream.3.e", "a" + E + "b" + S + "c" + E + "d", chunks=["a" + E + "b" + S[:1], S[1:] + "c" + E + "d"], reasoning="ac", content="bd")
    else:
        C("empty input", "REASONING.batch.1.a", "")
        C("plain text is content", "REASONING.batch.1.b", "Hello world, no reasoning here.", content="Hello world, no reasoning here.")
        C("whitespace only is preserved", "REASONING.batch.1.c", "  \n ", content="  \n ")
        C("reasoning only", "REASONING.batch.2.a", S + "only reasoning" + E, reasoning="only reasoning")
        C("visible text before the span", "REASONING.batch.2.b", "Visible " + S + "r" + E, content="Visible ", reasoning="r")
        C("span then answer", "REASONING.batch.2.c", S + "think" + E + "answer", reasoning="think", content="answer")
        C("text on both sides", "REASONING.batch.2.d", "a " + S + "r" + E + " b", content="a  b", reasoning="r")
        C("empty span", "REASONING.batch.2.e", S + E + " x", content=" x")
        C("missing end marker: reasoning to the end", "REASONING.batch.5", S + "truncated reasoning", reasoning="truncated reasoning")
        C("multiple spans", "REASONING.batch.6.a", S + "a" + E + " middle " + S + "b" + E + " end", reasoning="ab", content=" middle  end")
        C("adjacent spans", "REASONING.batch.6.a", S + "a" + E + S + "b" + E, reasoning="ab")
        C("later span unterminated", "REASONING.batch.6.b", S + "a" + E + " x " + S + "b", reasoning="ab", content=" x ")
        C("stray end marker in content is dropped", "REASONING.batch.4", "normal text" + E + " more normal", content="normal text more normal",
          ref="library rule: no dangling-end recovery in batch (Dynamo batch makes the prefix reasoning); PRE.3 handles injected openers")
        C("nested opener inside reasoning is dropped", "REASONING.batch.4", S + "outer " + S + "inner" + E + " reasoning" + E + " normal", reasoning="outer inner", content=" reasoning normal",
          ref="library rule: markup never in reasoning")
        C("prompt opened the span (InReasoning)", "REASONING.batch.4", "already reasoning" + E + "answer", reasoning="already reasoning", content="answer", options={"in_reasoning": True},
          ref="PRE.3: a bare end marker from a template-opened span (SGLang PR #36285)")
        C("InReasoning with a leading opener drops it", "REASONING.batch.2.c", S + "r" + E + "a", reasoning="r", content="a", options={"in_reasoning": True})
        C("start marker split across chunks", "REASONING.stream.3.a", S + "reasoning content" + E + " normal text", chunks=[S[:3], S[3:] + "reasoning content" + E + " normal text"], reasoning="reasoning content", content=" normal text")
        C("end marker split across chunks", "REASONING.stream.3.b", S + "abc" + E + "def", chunks=[S + "abc" + E[:-2], E[-2:] + "def"], reasoning="abc", content="def")
        held = S[:3]
        C("held prefix that is not a marker goes to content", "REASONING.stream.3.c", "plain " + held + "Zesis answer", chunks=["plain " + held, "Zesis answer"], content="plain " + held + "Zesis answer")
        C("held prefix that is not a marker goes to reasoning", "REASONING.stream.3.c", S + "a " + E[:3] + "Z b" + E, chunks=[S + "a " + E[:3], "Z b" + E], reasoning="a " + E[:3] + "Z b")
        C("end marker split right after the lone first byte", "REASONING.stream.3.d", S + "abc" + E + "def", chunks=[S + "abc" + E[:1], E[1:] + "def"], reasoning="abc", content="def")
        C("re-entry start marker split at the lone first byte", "REASONING.stream.3.e", S + "a" + E + "b" + S + "c" + E + "d", chunks=[S + "a" + E + "b" + S[:1], S[1:] + "c" + E + "d"], reasoning="ac", content="bd")
        C("marker-free stream is content", "REASONING.stream.1.b", "no markers at all", chunks=["no ", "markers ", "at all"], content="no markers at all")
    C("empty chunks are no-ops", "REASONING.stream.1.a", S + "x" + E + "y", chunks=["", S, "", "x" + E + "y", ""], reasoning="x", content="y")
    C("one span over many chunks", "REASONING.stream.2.a", S + "one two three four" + E + "done", chunks=[S, "one ", "two ", "three ", "four", E, "done"], reasoning="one two three four", content="done")
    C("several spans over chunks", "REASONING.stream.2.b", S + "a" + E + "x" + S + "b" + E + "y", chunks=[S + "a", E + "x" + S, "b" + E, "y"], reasoning="ab", content="xy")
    C("complex body", "REASONING.batch.2.f", S + complex_body + E + "Final.", reasoning=complex_body, content="Final.")
    C("held marker prefix at the end is text of the current channel", "REASONING.batch.5", S + "r" + E[:-1], reasoning="r" + E[:-1])
    C("closed reasoning then tool-call text stays intact for the tool parser", "REASONING.batch.3.a",
      S + "I should call it" + E + "\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>",
      reasoning="I should call it", content="\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>")

if __name__ == "__main__":
    body_think = "Step 1: read the question.\n\nStep 2: consider `<thinking>` tags, a </thin fragment and \"quotes\".\n```go\nfunc f() { return }\n```\n日本語の推論 🤔 e\u0301 ▁▷"

    # explicit <think>
    fx = Fx(); paired(fx, "<think>", "</think>", False, body_think)
    fx.C("Qwen3 capture shape: reasoning and content untrimmed", "REASONING.batch.2.c", "<think>\nOkay, the user is asking.\n</think>\n\nHello!", reasoning="\nOkay, the user is asking.\n", content="\n\nHello!", ref="PARSER_CASES.md whitespace rule")
    fx.C("tool_call inside reasoning is reasoning text (no tool-start tokens)", "REASONING.batch.3.b", "<think>maybe <tool_call> now</think>ok", reasoning="maybe <tool_call> now", content="ok", ref="Dynamo qwen3 is the plain paired parser; peers end reasoning at <tool_call>")
    fx.dump(os.path.join(out, "think", "explicit.json"), family="think", description="<think>…</think>, not forced",
      reasoning_parsers=["basic", "qwen", "qwen3", "nemotron_deci", "glm45", "glm47"], not_applicable={"REASONING.stream.4": NA_TOOLSTART["REASONING.stream.4"], **NA_HARMONY, **NA_NULL})

    # forced <think>
    fx = Fx(); paired(fx, "<think>", "</think>", True, body_think)
    fx.C("InReasoning changes nothing for a forced parser", "REASONING.batch.2.c", "r</think>a", reasoning="r", content="a", options={"in_reasoning": True})
    fx.dump(os.path.join(out, "think", "forced.json"), family="think_forced", description="<think>…</think>, forced: output starts in reasoning",
      reasoning_parsers=["deepseek_r1", "deepseek-r1", "deepseek_v3", "deepseek_v3_1", "deepseek_v3_2", "step3", "nemotron_nano", "nemotron3", "nemotron_v3", "nemotron_3"],
      not_applicable={**NA_TOOLSTART, **NA_HARMONY, **NA_NULL})

    # kimi ◁think▷
    fx = Fx(); paired(fx, "◁think▷", "◁/think▷", False, "多字节 ▁▷◁ reasoning with ◁thin and ▷ fragments")
    fx.C("markers split inside multi-byte characters (every byte split point is run by the harness)", "REASONING.stream.3.a", "◁think▷r◁/think▷a", reasoning="r", content="a")
    fx.C("shared lead bytes of ▁ and ▷", "REASONING.stream.3.c", "◁think▷a▁b◁/think▷c▁", reasoning="a▁b", content="c▁", ref="PARSER_CASES.md: ▁ and ▷ share E2 96")
    fx.C("stray end marker is dropped", "REASONING.batch.4", "x◁/think▷y", content="xy", ref="PARSER_CASES.md: Dynamo passes it through into content")
    fx.dump(os.path.join(out, "kimi", "kimi.json"), family="kimi", description="◁think▷…◁/think▷",
      reasoning_parsers=["kimi"], not_applicable={**NA_TOOLSTART, **NA_HARMONY, **NA_NULL})

    # mistral [THINK]
    fx = Fx(); paired(fx, "[THINK]", "[/THINK]", True, "Let me think [about] it. [THIN and [/THIN] are text.")
    fx.C("Magistral output starting with [THINK]", "REASONING.batch.2.c", "[THINK]Compute 2+2.[/THINK]4", reasoning="Compute 2+2.", content="4")
    fx.C("pre-v11 tool calls after reasoning stay in content", "REASONING.batch.3.a", "[THINK]r[/THINK][TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}]", reasoning="r", content="[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}]")
    fx.dump(os.path.join(out, "mistral", "reasoning.json"), family="mistral", description="[THINK]…[/THINK], forced",
      reasoning_parsers=["mistral"], not_applicable={**NA_TOOLSTART, **NA_HARMONY, **NA_NULL})

    # kimi_k25: forced + tool section ends reasoning
    fx = Fx(); paired(fx, "<think>", "</think>", True, body_think)
    sec = "<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{\"city\": \"Paris\"}<|tool_call_end|><|tool_calls_section_end|>"
    fx.C("tool section ends open reasoning and stays in content", "REASONING.batch.3.b", "I need the weather." + sec, reasoning="I need the weather.", content=sec, allow_markup=True)
    fx.C("tool section token split across chunks", "REASONING.stream.4", "r" + sec, chunks=["r<|tool_calls_sec", "tion_begin|>" + sec[len("<|tool_calls_section_begin|>"):]], reasoning="r", content=sec, allow_markup=True)
    fx.C("closed reasoning then tool section", "REASONING.batch.3.a", "<think>r</think>" + sec, reasoning="r", content=sec, allow_markup=True)
    fx.dump(os.path.join(out, "kimi_k25", "reasoning.json"), family="kimi_k25", description="Kimi K2.5: forced <think>; <|tool_calls_section_begin|> ends reasoning",
      reasoning_parsers=["kimi_k25", "kimi_k2"], not_applicable={**NA_HARMONY, **NA_NULL})

    # deepseek_v4: not forced, DSML tool starts
    fx = Fx(); paired(fx, "<think>", "</think>", False, body_think)
    dsml = "<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"get_weather\">\n<｜DSML｜parameter name=\"city\" string=\"true\">Paris</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>"
    fx.C("DSML block ends reasoning opened by the template", "REASONING.batch.3.b", "Need weather." + dsml, reasoning="Need weather.", content=dsml, options={"in_reasoning": True}, allow_markup=True)
    inv = "<｜DSML｜invoke name=\"f\">\n</｜DSML｜invoke>"
    fx.C("bare invoke ends reasoning", "REASONING.batch.3.b", "<think>r" + inv, reasoning="r", content=inv, allow_markup=True)
    fx.C("DSML token split across chunks (and, by the harness, inside the full-width bar)", "REASONING.stream.4", "r" + dsml, chunks=["r<｜DS", "ML｜tool_", "calls>" + dsml[len("<｜DSML｜tool_calls>"):]], reasoning="r", content=dsml, options={"in_reasoning": True}, allow_markup=True)
    fx.dump(os.path.join(out, "deepseek_v4", "reasoning.json"), family="deepseek_v4", description="DeepSeek V4: <think> not forced (template injects it, PRE.3); DSML tokens end reasoning",
      reasoning_parsers=["deepseek_v4", "deepseek-v4", "deepseekv4"], not_applicable={**NA_HARMONY, **NA_NULL})

    # minimax_m2: forced, <minimax:tool_call> / <invoke name=
    fx = Fx(); paired(fx, "<think>", "</think>", True, body_think)
    mm = "<minimax:tool_call>\n<invoke name=\"get_weather\">\n<parameter name=\"city\">Paris</parameter>\n</invoke>\n</minimax:tool_call>"
    fx.C("tool block ends open reasoning", "REASONING.batch.3.b", "Need weather.\n" + mm, reasoning="Need weather.\n", content=mm, allow_markup=True)
    fx.C("bare invoke ends open reasoning", "REASONING.batch.3.b", "r<invoke name=\"f\">", reasoning="r", content="<invoke name=\"f\">", allow_markup=True)
    fx.C("tool-start token split across chunks", "REASONING.stream.4", "r" + mm, chunks=["r<minimax:to", "ol_call>" + mm[len("<minimax:tool_call>"):]], reasoning="r", content=mm, allow_markup=True)
    fx.dump(os.path.join(out, "minimax_m2", "reasoning.json"), family="minimax_m2", description="MiniMax M2: forced <think>; <minimax:tool_call> and <invoke name= end reasoning",
      reasoning_parsers=["minimax_m2"], not_applicable={**NA_HARMONY, **NA_NULL})
