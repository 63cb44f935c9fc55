"""Real DeepSeek-V3 and V3.1 streams (vLLM, NVIDIA Dynamo test data) as capture fixtures.

    python3 gen/captures_deepseek.py .     # needs ../shared/testdata, or ENGINE_STREAMS=dir

Every capture starts with <think>: the forced deepseek_v3 / deepseek_v3_1 reasoning parsers drop
the leading opener, so Dynamo's expected reasoning/content/calls are the library's too (no library
rule differs here). The harness replays the captured deltas as chunks.
"""
import json, sys, os, glob
from common import Fx

out = sys.argv[1]
src = os.environ.get("ENGINE_STREAMS", os.path.join(os.path.dirname(__file__), "../../../../shared/testdata/engine-streams"))
for model, tool, reasoning in (("deepseek-v3", "deepseek_v3", "deepseek_v3"), ("deepseek-v3.1", "deepseek_v3_1", "deepseek_v3_1")):
    fx = Fx()
    paths = sorted(glob.glob(f"{src}/vllm/{model}/*.json"))
    if not paths:
        sys.exit(f"no captures under {src}/vllm/{model}")
    for path in paths:
        d = json.load(open(path))
        s = d.get("data") or d.get("input_stream")
        chunks = []
        for c in s:
            ch = c["data"].get("choices") or []
            if ch:
                t = ch[0]["delta"].get("content") or ""
                if t:
                    chunks.append(t)
        exp = d.get("expected_output") or {k: d.get(k) for k in ("normal_content", "reasoning_content", "tool_calls")}
        base = os.path.basename(path)
        calls = [(tc["function"]["name"], json.loads(tc["function"]["arguments"])) for tc in (exp.get("tool_calls") or [])]
        case = "TOOLCALLING.stream.2" if len(calls) > 1 else "TOOLCALLING.stream.1" if calls else "REASONING.stream.2.a"
        fx.C(f"vllm {model} {base[:-5]}", case, "".join(chunks), chunks=chunks,
             content=exp.get("normal_content") or "", reasoning=exp.get("reasoning_content") or "", calls=calls,
             ref=f"engine-streams/vllm/{model}/{base} (NVIDIA Dynamo test data, Apache-2.0); starts with <think>, which the forced parser drops")
    fx.dump(os.path.join(out, "captures", tool + ".json"), family="captures",
            description=f"Real {model} streams captured from vLLM (one delta per token), run with the {reasoning} reasoning parser (forced) and the {tool} tool parser",
            tool_parsers=[tool], reasoning_parsers=[reasoning], not_applicable={})
