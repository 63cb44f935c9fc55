# Generates tokenizer.json: a tiny byte-level BPE tokenizer (the 256 GPT-2
# byte symbols, a few merges) with ChatML and Qwen3-style added tokens, so
# tests that must always run have a real model directory. Run: python3 gen.py
import json

def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))

sym = bytes_to_unicode()
vocab = {sym[b]: i for i, b in enumerate(range(256))}
merges = []
for a, b in [("Ġ", "t"), ("h", "e"), ("Ġt", "he"), ("i", "n"), ("e", "r")]:
    merges.append(a + " " + b)
    vocab[a + b] = len(vocab)
added = [("<|endoftext|>", True), ("<|im_start|>", True), ("<|im_end|>", True),
         ("<tool_call>", False), ("</tool_call>", False), ("<think>", False), ("</think>", False),
         ("<tool_response>", False), ("</tool_response>", False)]
added_tokens = []
for content, special in added:
    added_tokens.append({"id": len(vocab), "content": content, "single_word": False, "lstrip": False,
                         "rstrip": False, "normalized": False, "special": special})
    vocab[content] = len(vocab)
tok = {
    "version": "1.0",
    "added_tokens": added_tokens,
    "normalizer": {"type": "NFC"},
    "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
        {"type": "Split", "pattern": {"Regex": "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"}, "behavior": "Isolated", "invert": False},
        {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False}]},
    "post_processor": None,
    "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": False},
    "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "", "end_of_word_suffix": "",
              "fuse_unk": False, "byte_fallback": False, "ignore_merges": False, "vocab": vocab, "merges": merges},
}
with open("tokenizer.json", "w") as f:
    json.dump(tok, f, ensure_ascii=False)
