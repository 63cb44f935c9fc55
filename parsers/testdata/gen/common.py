import json
class Fx:
    def __init__(self): self.cases = []
    def C(self, name, case, input, content="", reasoning="", calls=(), abandoned=0, chunks=None, tools=None, options=None, ref=None, allow_markup=False, tool_parser=None, reasoning_parser=None):
        d = {"name": name, "case": case}
        if ref: d["ref"] = ref
        d["input"] = input
        if chunks is not None:
            assert "".join(chunks) == input, name
            d["chunks"] = chunks
        if tools is not None: d["tools"] = tools
        d["options"] = options or {}
        exp = {"content": content, "reasoning": reasoning, "calls": [ {"name": n, "arguments": a} if not isinstance(a, str) else {"name": n, "arguments_text": a} for n, a in calls]}
        for a in [a for _, a in calls if isinstance(a, str)]:
            json.loads(a)
        if abandoned: exp["abandoned"] = abandoned
        d["expected"] = exp
        if allow_markup: d["allow_markup"] = True
        if tool_parser: d["tool_parser"] = tool_parser
        if reasoning_parser: d["reasoning_parser"] = reasoning_parser
        self.cases.append(d)
    def dump(self, path, **hdr):
        hdr["cases"] = self.cases
        json.dump(hdr, open(path, "w"), indent=1, ensure_ascii=False)
        print(path, len(self.cases))
