#!/usr/bin/env python3
"""Writes the agent-shaped benchmark corpus in testdata/agent/ (run by hand,
never in CI; needs python3 with jinja2, git, and the setup script's Qwen3
tokenizer_config.json for its chat template).

    python3 agent_corpus.py HARNESS_DIR

HARNESS_DIR holds the recorded harness requests (claude-code/B-bash/...,
codex/B-gpt-5.5/...). See testdata/agent/README.md for what each file is.
"""
import json
import os
import subprocess
import sys

import jinja2

HERE = os.path.dirname(os.path.abspath(__file__))
TD = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(TD))
OUT = os.path.join(TD, "agent")


def tojson(x, indent=None, separators=None, sort_keys=False):
    # transformers' tojson filter: no ASCII escaping.
    return json.dumps(x, ensure_ascii=False, indent=indent, separators=separators, sort_keys=sort_keys)


def render(messages, tools):
    cfg = json.load(open(os.path.join(TD, "large", "qwen3", "tokenizer_config.json")))
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True, extensions=["jinja2.ext.loopcontrols"])
    env.filters["tojson"] = tojson
    return env.from_string(cfg["chat_template"]).render(messages=messages, tools=tools, add_generation_prompt=True)


def blocks_text(content):
    if isinstance(content, str):
        return content
    return "\n\n".join(b["text"] for b in content if b.get("type") == "text")


def claude_code(harness):
    """Anthropic Messages request -> OpenAI chat messages -> Qwen3 template."""
    req = json.load(open(os.path.join(harness, "claude-code/B-bash/0002-POST-v1_messages.request.json")))["body_json"]
    msgs = [{"role": "system", "content": blocks_text(req["system"])}]
    for m in req["messages"]:
        c = m["content"]
        if m["role"] == "system":
            msgs.append({"role": "system", "content": blocks_text(c)})
        elif m["role"] == "user":
            if isinstance(c, list) and any(b.get("type") == "tool_result" for b in c):
                for b in c:
                    if b.get("type") == "tool_result":
                        msgs.append({"role": "tool", "content": blocks_text(b["content"])})
                    elif b.get("type") == "text":
                        msgs.append({"role": "user", "content": b["text"]})
            else:
                msgs.append({"role": "user", "content": blocks_text(c)})
        else:
            thinking = "".join(b.get("thinking", "") for b in c if b.get("type") == "thinking")
            calls = [{"type": "function", "function": {"name": b["name"], "arguments": b["input"]}}
                     for b in c if b.get("type") == "tool_use"]
            msgs.append({"role": "assistant", "content": blocks_text(c), "reasoning_content": thinking, "tool_calls": calls})
    tools = [{"type": "function", "function": {"name": t["name"], "description": t.get("description", ""),
                                               "parameters": t.get("input_schema", {})}} for t in req["tools"]]
    return render(msgs, tools)


def codex(harness):
    """OpenAI Responses request -> chat messages -> Qwen3 template."""
    req = json.load(open(os.path.join(harness, "codex/B-gpt-5.5/0005-POST-v1_responses.request.json")))["body_json"]
    msgs = []
    reasoning = ""
    for it in req["input"]:
        t = it.get("type")
        if t == "message":
            role = "system" if it["role"] == "developer" else it["role"]
            text = "\n\n".join(p.get("text", "") for p in it["content"])
            if role == "system" and msgs and msgs[-1]["role"] == "system":
                msgs[-1]["content"] += "\n\n" + text
            else:
                msgs.append({"role": role, "content": text})
        elif t == "reasoning":
            reasoning = "\n".join(s.get("text", "") for s in it.get("summary", []))
        elif t == "function_call":
            msgs.append({"role": "assistant", "content": "", "reasoning_content": reasoning,
                         "tool_calls": [{"type": "function", "function": {"name": it["name"], "arguments": it["arguments"]}}]})
        elif t == "function_call_output":
            msgs.append({"role": "tool", "content": it["output"] if isinstance(it["output"], str) else json.dumps(it["output"])})
    tools = []
    for t in req["tools"]:
        if t.get("type") == "function":
            tools.append({"type": "function", "function": {"name": t["name"], "description": t.get("description", ""),
                                                           "parameters": t.get("parameters", {})}})
        else:
            tools.append(t)  # custom (apply_patch grammar) and hosted tools, as sent
    return render(msgs, tools)


def git(*args):
    return subprocess.run(["git", "-C", REPO] + list(args), check=True, capture_output=True, text=True).stdout


def code():
    """Go source and a diff of this repository, as a Read tool result or a
    diff review would carry them."""
    commit = "8ceaf89"
    out = []
    for path in ["parsers/pythonic.go", "parsers/emitter.go", "parsers/minimax_m3.go"]:
        out.append(f"$ cat -n {path}\n")
        for n, line in enumerate(git("show", f"{commit}:{path}").splitlines(), 1):
            out.append(f"{n:6}\t{line}\n")
    out.append("$ git show e8ef735\n")
    out.append(git("show", "e8ef735"))
    out.append("$ git show 3a9bed1 -- parsers\n")
    out.append(git("show", "3a9bed1", "--", "parsers"))
    out.append("$ cat parsers/testdata/hermes/hermes.json\n")
    out.append(git("show", f"{commit}:parsers/testdata/hermes/hermes.json"))
    return "".join(out)


def main():
    harness = sys.argv[1]
    os.makedirs(OUT, exist_ok=True)
    for name, text in [("claude_code.txt", claude_code(harness)), ("codex.txt", codex(harness)), ("code.txt", code())]:
        with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
            f.write(text)
        print(name, len(text.encode()))


if __name__ == "__main__":
    main()
