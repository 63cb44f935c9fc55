#!/usr/bin/python3
"""Oracle for the Go chat-template renderer (preprocess/chattemplate).

Renders chat templates with Python's jinja2 configured the way Hugging Face
transformers configures it in apply_chat_template:

  * ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
  * extensions: jinja2.ext.loopcontrols and a `{% generation %}` block
    extension that renders its body (transformers' AssistantTracker)
  * filter tojson = json.dumps(x, ensure_ascii=False, indent=indent,
    separators=separators, sort_keys=sort_keys) (sort_keys defaults False)
  * globals raise_exception(message) -> TemplateError, strftime_now(format)
  * render(messages=..., tools=..., documents=None, add_generation_prompt=...,
    **special_tokens, **kwargs): tools and documents are passed as None when
    absent; bos/eos tokens only when set; kwargs override everything.

Input and output follow the contract of examples/render: one JSON object per
stdin line {"messages","tools","add_generation_prompt","kwargs","bos_token",
"eos_token"}; one line out per input, {"prompt": ...} or {"error": ...}. The
oracle adds "raised": true when the error came from raise_exception (only
those messages are compared byte for byte; other errors differ in wording
between engines).

Usage:  oracle.py -template FILE [-now YYYY-MM-DD] < in.jsonl > out.jsonl
        oracle.py -regen    (rewrite every golden in this folder)
        oracle.py -expressions (rewrite golden/expressions.jsonl: one
                    small template per case of expressions.txt)
        oracle.py -claude  (rewrite claude-code/golden.jsonl: the recorded
                    Claude Code request with every template, as SHA-256)
        oracle.py -builtins (rewrite golden/builtins.json: the names of the
                    filters, tests and globals of the environment)

Run with Debian's python3-jinja2 (jinja2 3.1.x):
    apt-get install -y python3-jinja2 && /usr/bin/python3 oracle.py -regen
"""
import datetime
import io
import json
import os
import sys

import jinja2
from jinja2 import nodes
from jinja2.ext import Extension
from jinja2.sandbox import ImmutableSandboxedEnvironment


class Raised(jinja2.exceptions.TemplateError):
    pass


class GenerationTracker(Extension):
    tags = {"generation"}

    def parse(self, parser):
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(["name:endgeneration"], drop_needle=True)
        return nodes.CallBlock(self.call_method("_generation_support"), [], [], body).set_lineno(lineno)

    def _generation_support(self, caller):
        return caller()


def compile_template(source, now):
    def raise_exception(message):
        raise Raised(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    def strftime_now(format):
        return now.strftime(format)

    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True,
        extensions=[GenerationTracker, jinja2.ext.loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = strftime_now
    return env.from_string(source)


def load_template(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".json"):
        cfg = json.loads(text)
        ct = cfg.get("chat_template")
        if isinstance(ct, list):
            ct = {t["name"]: t["template"] for t in ct}["default"]
        if not isinstance(ct, str):
            raise SystemExit(path + ": no chat_template")
        return ct
    return text


def render_line(tmpl, req):
    ctx = {
        "messages": req.get("messages"),
        "tools": req.get("tools"),
        "documents": None,
        "add_generation_prompt": bool(req.get("add_generation_prompt")),
    }
    if req.get("bos_token") is not None:
        ctx["bos_token"] = req["bos_token"]
    if req.get("eos_token") is not None:
        ctx["eos_token"] = req["eos_token"]
    ctx.update(req.get("kwargs") or {})
    try:
        out = tmpl.render(**ctx)
        return {"prompt": out}
    except Raised as e:
        return {"error": str(e), "raised": True}
    except Exception as e:  # noqa: BLE001 - any engine error is an error line
        return {"error": "%s: %s" % (type(e).__name__, e)}


def run(template_path, now, lines, out):
    try:
        tmpl = compile_template(load_template(template_path), now)
    except jinja2.exceptions.TemplateError as e:
        tmpl, failure = None, {"error": "%s: %s" % (type(e).__name__, e)}
    for line in lines:
        if not line.strip():
            continue
        res = render_line(tmpl, json.loads(line)) if tmpl else failure
        out.write(json.dumps(res, ensure_ascii=False) + "\n")


def split_expressions(text):
    """expressions.txt: cases separated by lines holding only ----; the
    first block (comments) is skipped."""
    return [c.rstrip("\n") if not c.endswith("\n\n") else c[:-1] for c in text.split("\n----\n")[1:]]


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    now = datetime.datetime(2026, 1, 2)
    if "-now" in argv:
        now = datetime.datetime.strptime(argv[argv.index("-now") + 1], "%Y-%m-%d")
    if "-expressions" in argv or "-regen" in argv:
        ctx = {"messages": [{"role": "user", "content": "hi"}], "tools": None, "documents": None,
               "add_generation_prompt": True, "bos_token": "<s>", "eos_token": "</s>"}
        src_path = os.path.join(here, "expressions.txt")
        with open(src_path, encoding="utf-8") as f:
            cases = split_expressions(f.read())
        with open(os.path.join(here, "golden", "expressions.jsonl"), "w", encoding="utf-8") as out:
            for case in cases:
                try:
                    res = {"prompt": compile_template(case, now).render(**ctx)}
                except Raised as e:
                    res = {"error": str(e), "raised": True}
                except Exception as e:  # noqa: BLE001
                    res = {"error": "%s: %s" % (type(e).__name__, e)}
                res["template"] = case
                out.write(json.dumps(res, ensure_ascii=False) + "\n")
        if "-regen" not in argv:
            return
    if "-builtins" in argv or "-regen" in argv:
        # The names a template can use: the environment's filters (jinja2's
        # FILTERS with transformers' tojson), tests and globals.
        env = compile_template("", now).environment
        names = {"filters": sorted(env.filters), "tests": sorted(env.tests), "globals": sorted(env.globals)}
        with open(os.path.join(here, "golden", "builtins.json"), "w", encoding="utf-8") as out:
            out.write(json.dumps(names, indent=1) + "\n")
        if "-regen" not in argv:
            return
    if "-claude" in argv or "-regen" in argv:
        # The recorded Claude Code request with every template; prompts are
        # ~50 KB each, so the golden keeps their SHA-256 and length.
        import hashlib
        tdir = os.path.join(here, "templates")
        with open(os.path.join(here, "claude-code", "golden.jsonl"), "w", encoding="utf-8") as out:
            for name in sorted(os.listdir(tdir)):
                if not name.endswith(".jinja"):
                    continue
                for req in ("request.jsonl", "request_object_args.jsonl"):
                    with open(os.path.join(here, "claude-code", req), encoding="utf-8") as f:
                        lines = f.readlines()
                    buf = io.StringIO()
                    run(os.path.join(tdir, name), now, lines, buf)
                    res = json.loads(buf.getvalue())
                    if "prompt" in res:
                        p = res.pop("prompt").encode("utf-8")
                        res["sha256"], res["bytes"] = hashlib.sha256(p).hexdigest(), len(p)
                    out.write(json.dumps({"template": name[: -len(".jinja")], "request": req, **res}, ensure_ascii=False) + "\n")
        if "-regen" not in argv:
            return
    if "-regen" in argv:
        with open(os.path.join(here, "conversations.jsonl"), encoding="utf-8") as f:
            lines = f.readlines()
        tdir = os.path.join(here, "templates")
        os.makedirs(os.path.join(here, "golden"), exist_ok=True)
        for name in sorted(os.listdir(tdir)):
            if not name.endswith(".jinja"):
                continue
            gold = os.path.join(here, "golden", name[: -len(".jinja")] + ".jsonl")
            with open(gold, "w", encoding="utf-8") as out:
                run(os.path.join(tdir, name), now, lines, out)
        return
    run(argv[argv.index("-template") + 1], now, sys.stdin, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
