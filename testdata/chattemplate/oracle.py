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
        oracle.py -escapes (rewrite json-escapes/golden.jsonl: the request
                    with JSON-escaped string arguments with every template)
        oracle.py -images  (rewrite images/golden.jsonl: conversations
                    with image parts with every template)
        oracle.py -random  (rewrite golden/random.jsonl: 2500 random small
                    templates, seed 18, minus those printing an object's
                    address)

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


def random_cases(n, seed):
    """Random small templates over every filter and test, operators,
    subscripts, str/dict/list methods, loops and conditions, with literal
    and variable operands (oracle.py -random; golden/random.jsonl)."""
    import random
    random.seed(seed)
    vals = ["1", "0", "-3", "2.5", "-0.0", "1e3", "true", "false", "none", "'abc'", "'A b-c'", "''", "'é ß'", "'<b>&'", "'  pad  '",
            "'a,b,c'", "'%s'", "[1, 2, 3]", "[]", "['b', 'A', 'c']", "[3, 1.5, 2]", "(1, 2)", "{'k': 1, 'a': 2}", "{}",
            "{'b': [1], 'a': none}", "undefined_name", "messages", "messages[0]", "[{'n': 2, 'm': 'x'}, {'n': 1, 'm': 'Y'}]",
            "range(4)", "'x' | safe", "[none, 0, 'a']", "'Hello World'", "'line1\\nline2'", "1000", "'123'", "'0x1f'", "' 42 '",
            "[[1, 2], [3]]", "{'x': {'y': 'z'}}", "'ΑΣ'", "'ǆ'", "12345.678"]
    args = ["1", "2", "0", "-1", "true", "false", "none", "'a'", "'n'", "'x'", "', '", "'-'", "'upper'", "'odd'", "'defined'",
            "'string'", "[1]", "'key'", "'value'", "'ceil'", "'floor'", "3", "10", "'m'", "0.5", "'equalto'", "'in'"]
    kw = {"default": ["default_value", "boolean"], "join": ["d", "attribute"], "sort": ["reverse", "case_sensitive", "attribute"],
          "round": ["precision", "method"], "int": ["default", "base"], "float": ["default"], "indent": ["width", "first", "blank"],
          "truncate": ["length", "killwords", "end", "leeway"], "trim": ["chars"], "unique": ["case_sensitive", "attribute"],
          "max": ["case_sensitive", "attribute"], "min": ["case_sensitive", "attribute"], "sum": ["attribute", "start"],
          "batch": ["linecount", "fill_with"], "slice": ["slices", "fill_with"], "dictsort": ["case_sensitive", "by", "reverse"],
          "tojson": ["ensure_ascii", "indent", "sort_keys"], "center": ["width"], "replace": ["old", "new", "count"],
          "wordwrap": ["width", "break_long_words", "wrapstring", "break_on_hyphens"], "groupby": ["attribute", "default", "case_sensitive"],
          "map": ["attribute", "default"], "xmlattr": ["autospace"], "filesizeformat": ["binary"], "urlize": ["trim_url_limit", "nofollow"]}
    filters = sorted(compile_template("", None).environment.filters)
    filters = [f for f in filters if f not in ("random",)]
    tests = sorted(compile_template("", None).environment.tests)
    ops = ["+", "-", "*", "/", "//", "%", "~", "==", "!=", "<", ">", "<=", ">=", "in", "not in", "and", "or"]

    def filt():
        f = random.choice(filters)
        if random.random() < 0.4:
            return f
        a = [random.choice(args) for _ in range(random.randint(0, 2))]
        if f in kw and random.random() < 0.5:
            a.append("%s=%s" % (random.choice(kw[f]), random.choice(args)))
        return "%s(%s)" % (f, ", ".join(a))

    def expr(d=0):
        r = random.random()
        if d > 2 or r < 0.3:
            return random.choice(vals)
        if r < 0.6:
            e = "(%s) | %s" % (expr(d + 1), filt())
            if random.random() < 0.5:
                e += " | " + random.choice(["list", "string", "length", "tojson", "first", "join(',')", "pprint"])
            return e
        if r < 0.75:
            t = random.choice(tests)
            if t in ("==", "!=", "<", ">", "<=", ">="):
                return "(%s) is %s(%s)" % (expr(d + 1), "eq" if t == "==" else "ne", random.choice(args))
            a = ""
            if random.random() < 0.4:
                a = "(%s)" % random.choice(args)
            return "(%s) is %s%s%s" % (expr(d + 1), random.choice(["", "not "]), t, a)
        if r < 0.9:
            return "(%s) %s (%s)" % (expr(d + 1), random.choice(ops), expr(d + 1))
        return "(%s)[%s]" % (expr(d + 1), random.choice(["0", "-1", "1:", "::-1", "'k'", "'a'"]))

    methods = ["upper()", "lower()", "split()", "split(',')", "strip()", "strip('a')", "startswith('a')", "endswith(('c', 'x'))",
               "replace('a', 'b')", "title()", "capitalize()", "find('b')", "count('a')", "items()", "keys()", "values()", "get('k')",
               "get('z', 1)", "format(1)", "join(['x', 'y'])", "isdigit()", "isalpha()", "isupper()", "zfill(5)", "ljust(4, '*')",
               "rsplit(',', 1)", "splitlines()", "partition(',')", "index(1)", "copy()", "lstrip()", "casefold()", "swapcase()"]
    def stmt():
        r = random.random()
        v = random.choice(vals)
        if r < 0.3:
            return "{%% set v = %s %%}{{ %s }}" % (v, expr().replace("undefined_name", "v", 1))
        if r < 0.5:
            return "{%% set v = %s %%}{{ v.%s }}" % (v, random.choice(methods))
        if r < 0.65:
            return "{%% for x in %s %%}{{ loop.index }}:{{ x }}{{ %s }};{%% else %%}E{%% endfor %%}" % (v, "(x) | " + filt())
        if r < 0.75:
            return "{%% if %s %%}T{%% else %%}F{%% endif %%}" % expr()
        return "{{ %s }}" % expr()


    return [stmt() for _ in range(n)]


def render_cases(cases, now, out, drop_addresses=False):
    """Renders each small template with the fixed context of expressions.txt
    and writes one golden line per case."""
    import re
    for case in cases:
        # A fresh context per case: a failed render may have changed its
        # lists (`messages | indent` extends messages with "\n" before it
        # fails).
        ctx = {"messages": [{"role": "user", "content": "hi"}], "tools": None, "documents": None,
               "add_generation_prompt": True, "bos_token": "<s>", "eos_token": "</s>"}
        try:
            res = {"prompt": compile_template(case, now).render(**ctx)}
        except Raised as e:
            res = {"error": str(e), "raised": True}
        except Exception as e:  # noqa: BLE001
            res = {"error": "%s: %s" % (type(e).__name__, e)}
        if drop_addresses and "prompt" in res:
            # "<generator object f at 0x7f…>", even cut up: an address never matches.
            if re.search(r"object[a-z0-9_]*at0x", re.sub(r"[^a-z0-9_]", "", res["prompt"])):
                continue
        res["template"] = case
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
        src_path = os.path.join(here, "expressions.txt")
        with open(src_path, encoding="utf-8") as f:
            cases = split_expressions(f.read())
        with open(os.path.join(here, "golden", "expressions.jsonl"), "w", encoding="utf-8") as out:
            render_cases(cases, now, out)
        if "-regen" not in argv:
            return
    if "-random" in argv or "-regen" in argv:
        import warnings
        warnings.simplefilter("ignore")  # compile-time SyntaxWarnings of random code
        with open(os.path.join(here, "golden", "random.jsonl"), "w", encoding="utf-8") as out:
            render_cases(random_cases(2500, 18), now, out, drop_addresses=True)
        if "-regen" not in argv:
            return
    if "-builtins" in argv or "-regen" in argv:
        # The names a template can use: the environment's filters (jinja2's
        # FILTERS with transformers' tojson), tests and globals.
        env = compile_template("", now).environment

        def params(funcs):
            # The parameters a template passes by name: after the value (and
            # the environment, context or eval context jinja2 passes first).
            import inspect
            from jinja2.utils import _PassArg
            out = {}
            for name, f in sorted(funcs.items()):
                try:
                    sig = inspect.signature(f)
                except ValueError:
                    continue  # a C function: positional only
                names = [p.name for p in sig.parameters.values()
                         if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
                if _PassArg.from_obj(inspect.unwrap(f)) is not None:
                    names = names[1:]
                out[name] = names[1:]
            return out

        names = {"filters": sorted(env.filters), "tests": sorted(env.tests), "globals": sorted(env.globals),
                 "filter_keywords": params(env.filters), "test_keywords": params(env.tests)}
        with open(os.path.join(here, "golden", "builtins.json"), "w", encoding="utf-8") as out:
            out.write(json.dumps(names, indent=1) + "\n")
        if "-regen" not in argv:
            return
    if "-escapes" in argv or "-regen" in argv:
        # Tool-call arguments as a JSON string with escapes (\u00e9, a
        # surrogate pair, \", \\, \n, \u0001) with every template: the
        # templates that parse the string (Kimi K3) decode the escapes.
        tdir = os.path.join(here, "templates")
        with open(os.path.join(here, "json-escapes", "request.jsonl"), encoding="utf-8") as f:
            lines = f.readlines()
        with open(os.path.join(here, "json-escapes", "golden.jsonl"), "w", encoding="utf-8") as out:
            for name in sorted(os.listdir(tdir)):
                if not name.endswith(".jinja"):
                    continue
                buf = io.StringIO()
                run(os.path.join(tdir, name), now, lines, buf)
                res = json.loads(buf.getvalue())
                out.write(json.dumps({"template": name[: -len(".jinja")], **res}, ensure_ascii=False) + "\n")
        if "-regen" not in argv:
            return
    if "-images" in argv or "-regen" in argv:
        # Conversations with image parts ({"type": "image"}, as vLLM passes
        # them) in user and tool messages, with every template: each vision
        # template writes its own placeholder per image.
        tdir = os.path.join(here, "templates")
        with open(os.path.join(here, "images", "request.jsonl"), encoding="utf-8") as f:
            lines = f.readlines()
        with open(os.path.join(here, "images", "golden.jsonl"), "w", encoding="utf-8") as out:
            for name in sorted(os.listdir(tdir)):
                if not name.endswith(".jinja"):
                    continue
                buf = io.StringIO()
                run(os.path.join(tdir, name), now, lines, buf)
                for line, res in zip(lines, buf.getvalue().splitlines()):
                    out.write(json.dumps({"template": name[: -len(".jinja")], "case": json.loads(line)["name"], **json.loads(res)}, ensure_ascii=False) + "\n")
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
