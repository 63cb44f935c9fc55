import json, sys, os, glob
from common import Fx
out = sys.argv[1]
src = os.environ.get("ENGINE_STREAMS", os.path.join(os.path.dirname(__file__), "../../../../shared/testdata/engine-streams"))
fx = Fx()
overrides = {
 "chat_completion_incomplete_tool.json": dict(content=" the requested format.\n\n\n", reasoning="",
    ref="excerpt (deltas 89-101) starting mid-reasoning: qwen3 is not forced, so the text is content, the stray </think> is dropped and the call cut inside its name is dropped; Dynamo's legacy expectation echoes the raw markup"),
 "chat_completion_stream_finish_length.json": dict(content="", reasoning="\nOkay, the user is asking for the weather in",
    ref="excerpt (deltas 0-11) cut by finish_reason=length inside reasoning: the open span is reasoning; Dynamo's legacy expectation keeps <think> in content"),
}
for engine in ("vllm", "sglang"):
    for path in sorted(glob.glob(f"{src}/{engine}/qwen3-0.6B/*.json")):
        d = json.load(open(path))
        s = d.get("data") or d.get("input_stream")
        chunks = []
        for c in s:
            ch = c["data"].get("choices") or []
            if ch:
                t = ch[0]["delta"].get("content") or ""
                if t: chunks.append(t)
        exp = d.get("expected_output") or {k: d.get(k) for k in ("normal_content", "reasoning_content", "tool_calls")}
        base = os.path.basename(path)
        calls = [(tc["function"]["name"], json.loads(tc["function"]["arguments"])) for tc in (exp.get("tool_calls") or [])]
        kw = dict(content=exp.get("normal_content") or "", reasoning=exp.get("reasoning_content") or "", calls=calls,
                  ref=f"engine-streams/{engine}/qwen3-0.6B/{base} (NVIDIA Dynamo test data, Apache-2.0)")
        if base in overrides:
            o = overrides[base]; kw.update(o); kw["calls"] = []; kw["ref"] = f"engine-streams/{engine}/qwen3-0.6B/{base}: " + o["ref"]
        case = "TOOLCALLING.stream.1" if calls else "REASONING.stream.2.a"
        fx.C(f"{engine} Qwen3-0.6B {base[:-5]}", case, "".join(chunks), chunks=chunks, **kw)
fx.dump(os.path.join(out, "captures", "qwen3.json"), family="captures",
   description="Real Qwen3-0.6B streams captured from vLLM and SGLang (one delta per token), run with the qwen3 reasoning parser and the hermes tool parser",
   tool_parsers=["hermes"], reasoning_parsers=["qwen3"], not_applicable={})

# composition of reasoning and hermes
fx = Fx(); C = fx.C
call = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
C("tool-call markup inside reasoning is reasoning text", "REASONING.batch.3.a", "<think>I should call <tool_call> the tool</think>\n\n" + call,
  reasoning="I should call <tool_call> the tool", content="\n\n", calls=[("get_weather", {"city": "Paris"})], allow_markup=True)
C("reasoning markers inside call arguments are argument text", "TOOLCALLING.batch.30.c", '<tool_call>{"name": "w", "arguments": {"t": "<think>x</think>"}}</tool_call>',
  calls=[("w", {"t": "<think>x</think>"})], ref="PARSER_CASES.md: markers are recognised only where legal")
C("template-opened reasoning, then answer and call", "REASONING.batch.3.a", "reasoning</think>Answer.\n" + call, options={"in_reasoning": True},
  reasoning="reasoning", content="Answer.\n", calls=[("get_weather", {"city": "Paris"})])
C("reasoning again after a call", "REASONING.batch.6.a", call + "\n<think>more</think>done", reasoning="more", content="\ndone", calls=[("get_weather", {"city": "Paris"})])
C("stray end marker after a call", "REASONING.batch.4", call + "</think> tail", content=" tail", calls=[("get_weather", {"city": "Paris"})])
C("forced reasoning into a call", "REASONING.batch.3.a", "r</think>" + call, reasoning="r", calls=[("get_weather", {"city": "Paris"})], reasoning_parser="deepseek_r1")
C("unterminated reasoning swallows a call (no tool-start tokens for qwen3)", "REASONING.batch.5", "<think>r " + call, reasoning="r " + call, allow_markup=True)
C("parallel calls after reasoning, one delta", "TOOLCALLING.batch.2.b", "<think>two calls</think>" + call + call.replace("Paris", "Rome"),
  chunks=["<think>two calls</think>", call + call.replace("Paris", "Rome")], reasoning="two calls", calls=[("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Rome"})])
fx.dump(os.path.join(out, "compose", "think_hermes.json"), family="compose",
   description="Reasoning runs first and feeds the tool-call machine: <think> parsers with hermes",
   tool_parsers=["hermes"], reasoning_parsers=["qwen3", "basic"], not_applicable={})

# DeepSeek-V4 (constructed engine-format streams; PARSER_CASES.md). The
# model text in delta.content starts with <think> (reasoning_content is the
# engine's annotation, not input): Dynamo runs them with the deepseek_v4
# reasoning parser not in reasoning. With PRE.3's in_reasoning the leading
# <think> is dropped as a repeated opener, so the result is the same (one
# variant pins that).
fx = Fx()
for path in sorted(glob.glob(f"{src}/vllm/deepseek-v4/*.json")):
    d = json.load(open(path))
    chunks = []
    for c in d["input_stream"]:
        ch = c["data"].get("choices") or []
        if ch:
            t = ch[0]["delta"].get("content") or ""
            if t: chunks.append(t)
    exp = d["expected_output"]
    base = os.path.basename(path)
    calls = [(tc["function"]["name"], json.loads(tc["function"]["arguments"])) for tc in (exp.get("tool_calls") or [])]
    kw = dict(content=exp.get("normal_content") or "", reasoning=exp.get("reasoning_content") or "", calls=calls,
              ref=f"engine-streams/vllm/deepseek-v4/{base} (NVIDIA Dynamo test data, Apache-2.0)")
    case = "TOOLCALLING.stream.1" if calls else "REASONING.stream.2.a"
    name = f"vllm DeepSeek-V4 {base[len('chat_completion_stream_'):-5]}"
    fx.C(name, case, "".join(chunks), chunks=chunks, **kw)
    if base == "chat_completion_stream_tool.json":
        kw["ref"] += "; run with in_reasoning (PRE.3: the V4 template injects <think>): the leading <think> is a repeated opener and dropped"
        fx.C(name + " (in_reasoning)", case, "".join(chunks), chunks=chunks, options={"in_reasoning": True}, **kw)
fx.dump(os.path.join(out, "captures", "deepseek_v4.json"), family="captures",
   description="DeepSeek-V4 streams in vLLM engine format (constructed by Dynamo; multi-token deltas, one with one character per delta), run with the deepseek_v4 reasoning and tool parsers",
   tool_parsers=["deepseek_v4"], reasoning_parsers=["deepseek_v4"], not_applicable={})
