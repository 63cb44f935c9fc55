# Real engine streams for the JSON families,
# converted like gen/captures.py: one case per capture, chunks = the
# captured content deltas, expected values from the capture's Dynamo
# expectation (arguments compared as JSON values: Dynamo re-serialises them,
# the library keeps the model's bytes).
#
#   cd parsers/testdata && python3 gen/captures_json.py .   (needs ../shared/testdata, or ENGINE_STREAMS=dir)
import json, sys, os, glob
from common import Fx

out = sys.argv[1]
src = os.environ.get("ENGINE_STREAMS", os.path.join(os.path.dirname(__file__), "../../../../shared/testdata/engine-streams"))


def convert(fx, engine, model, label):
    paths = sorted(glob.glob(f"{src}/{engine}/{model}/*.json"))
    assert paths, f"no captures under {src}/{engine}/{model}"
    for path in paths:
        d = json.load(open(path))
        chunks = []
        for c in d.get("data") or d.get("input_stream"):
            for ch in c["data"].get("choices") or []:
                t = ch["delta"].get("content") or ""
                if t:
                    chunks.append(t)
        exp = d.get("expected_output") or {k: d.get(k) for k in ("normal_content", "reasoning_content", "tool_calls")}
        base = os.path.basename(path)
        calls = [(tc["function"]["name"], json.loads(tc["function"]["arguments"])) for tc in (exp.get("tool_calls") or [])]
        fx.C(f"{engine} {label} {base[:-5]}", "TOOLCALLING.stream.1" if calls else "REASONING.stream.2.a", "".join(chunks), chunks=chunks,
             content=exp.get("normal_content") or "", reasoning=exp.get("reasoning_content") or "", calls=calls,
             ref=f"engine-streams/{engine}/{model}/{base} (NVIDIA Dynamo test data, Apache-2.0); one delta per token, "
                 "<think>…</think> then <TOOLCALL>[…]</TOOLCALL>")


fx = Fx()
convert(fx, "vllm", "nemotron-49b", "Llama-3.3-Nemotron-Super-49B-v1.5")
fx.dump(os.path.join(out, "captures", "nemotron_deci.json"), family="captures",
        description="A real Llama-3.3-Nemotron-Super-49B-v1.5 stream captured from vLLM (one delta per token), run with the nemotron_deci reasoning and tool parsers",
        tool_parsers=["nemotron_deci"], reasoning_parsers=["nemotron_deci"], not_applicable={})
