// Generates tokenizers/testdata/golden/<model>.json with Hugging Face's own
// tokenizers library (npm tokenizers@0.23.2, the Rust crate through N-API).
//
// Run by hand after `bash .ci/setup.d/tokenizers.sh` has placed the tokenizer
// files under tokenizers/testdata/large/:
//
//	cd tokenizers/testdata/gen && npm ci && node gen.js
//
// The outputs are committed; CI never runs this script.
'use strict';
const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('tokenizers');

const testdata = path.join(__dirname, '..');
const large = path.join(testdata, 'large');
const corpus = JSON.parse(fs.readFileSync(path.join(testdata, 'corpus.json'), 'utf8')).texts;
// The tiny* tokenizers are committed (testdata/tiny) and exercise components
// the large files do not use; their goldens run without the setup.
const tiny = { tiny: 'tokenizer.json', tiny_flags: 'flags.json', tiny_gpt2: 'gpt2.json', tiny_metaspace: 'metaspace.json', tiny_unk: 'unk.json', tiny_regexp: 'regexp.json', tiny_metaspace_first: 'metaspace_first.json', tiny_words: 'words.json' };
// Texts for one variant only: words.json has a single_word token "ab", an
// added "bc" overlapping it, a special "a" in the vocabulary, and "zz" with
// lstrip and rstrip.
const extraTexts = {
  tiny_words: ['xabc', 'abc', 'x ab_', ' ab ', 'ab٣', 'éab', 'ab\u200d', '_ab', '-ab-', 'abab', 'ab ab', 'ⅫⅫ', 'aⅫ', ' Ⅻ ',
    'ab\u0301', '\u0301ab', 'ab‿', '1ab', 'ab²', 'x zz y', 'x\u00a0zz\u3000\ty', 'a', 'bab', 'zz', '  zz  ', 'ab zz ab'],
};
const models = [...Object.keys(tiny), 'qwen3', 'llama3', 'gptoss', 'deepseek_v3', 'mistral'];
const fileOf = (model) => tiny[model] ? path.join(testdata, 'tiny', tiny[model]) : path.join(large, model, 'tokenizer.json');

// mulberry32: a tiny seeded PRNG so the random id sequences are reproducible.
function rng(seed) {
  return function () {
    seed |= 0; seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// randomTexts draws seeded random strings from characters of every class the
// split patterns distinguish, case-folding traps (ſ K İ ß ﬆ Σ), the byte-level
// and metaspace alphabets, and every family's markers.
function randomTexts(n) {
  const r = rng(7);
  const alpha = Array.from("aZé ǅʰ中日あア한\u0301\u0903٣5²Ⅻ!?'sStTrReEvVmMlLdDkK/\\-_.,\t\n\r \u00a0\u3000\u200d\u2028😀🏽\u0000\u001f~$ſKİıß\uFB06ΣσςＡ１！<|>im_startend▁ĠĊ\u0085\u000b\u000c");
  const words = ['<|im_start|>', '<|im_end|>', '<think>', '</tool_call>', '<｜User｜>', '<|begin_of_text|>', '<|eot_id|>', '<s>', '</s>', '[INST]', '<|start|>', '<|channel|>', 'hello', ' world', '  ', '\n\n', '123456', "don't", "I'M"];
  const out = [];
  for (let i = 0; i < n; i++) {
    let s = '';
    for (let k = Math.floor(r() * 30); k > 0; k--) s += r() < 0.15 ? words[Math.floor(r() * words.length)] : alpha[Math.floor(r() * alpha.length)];
    out.push(s);
  }
  return out;
}

async function gen(model) {
  const file = fileOf(model);
  if (!fs.existsSync(file)) {
    console.error(`skip ${model}: ${file} missing (run bash .ci/setup.d/tokenizers.sh)`);
    return;
  }
  const raw = fs.readFileSync(file, 'utf8');
  const tok = Tokenizer.fromString(raw);
  // The same file without added tokens: the oracle for untrusted segments
  // (EncodeSegments with AllowSpecial false), where no added token may match.
  const json = JSON.parse(raw);
  json.added_tokens = [];
  const plain = Tokenizer.fromString(JSON.stringify(json));

  const out = { model, generator: 'tokenizers@0.23.2', encode: [], encode_plain: [], decode: [] };
  const decodeCase = async (ids, skip) => {
    out.decode.push({ ids, skip_special_tokens: skip, text: await tok.decode(ids, skip) });
  };
  // The variants only need the shorter texts.
  const texts = (model.startsWith('tiny_') ? corpus.filter((t) => t.length <= 1000) : corpus)
    .concat(extraTexts[model] || [], randomTexts(300));
  for (const text of texts) {
    for (const add of [false, true]) {
      const enc = await tok.encode(text, null, { addSpecialTokens: add });
      out.encode.push({ text, add_special_tokens: add, ids: Array.from(enc.getIds()) });
    }
    const p = await plain.encode(text, null, { addSpecialTokens: false });
    out.encode_plain.push({ text, ids: Array.from(p.getIds()) });
  }
  // Decode: whole encodings (with specials, both skip modes), and every prefix
  // of the short non-ASCII texts, which cuts multi-byte characters in half.
  for (const e of out.encode.slice(0, 2 * (texts.length - 300))) {
    if (!e.add_special_tokens || e.text.length > 2000) continue;
    await decodeCase(e.ids, false);
    await decodeCase(e.ids, true);
    if (/[^\x00-\x7f]/.test(e.text) && e.ids.length <= 80) {
      for (let k = 1; k < e.ids.length; k++) await decodeCase(e.ids.slice(0, k), false);
    }
  }
  // Random id sequences (seeded), including special ids and, for byte-fallback
  // vocabularies, runs of <0xHH> byte tokens.
  const vocabSize = tok.getVocabSize(true);
  const r = rng(4);
  const byteIds = [];
  for (let b = 0; b < 256; b++) {
    const id = tok.tokenToId('<0x' + b.toString(16).toUpperCase().padStart(2, '0') + '>');
    if (id !== null && id !== undefined) byteIds.push(id);
  }
  for (let n = 0; n < 60; n++) {
    const len = 1 + Math.floor(r() * 12);
    const ids = [];
    for (let i = 0; i < len; i++) {
      if (byteIds.length && r() < 0.4) ids.push(byteIds[Math.floor(r() * byteIds.length)]);
      else ids.push(Math.floor(r() * vocabSize));
    }
    await decodeCase(ids, n % 2 === 0);
  }
  if (byteIds.length) {
    const id = (t) => tok.tokenToId(t);
    const seqs = [
      ['!', '<0x61>', '<0xF5>', '▁hell', 'o'],
      ['<0xE4>', '<0xBD>', '▁hell', 'o'],
      ['<0xE4>', '<0xBD>', '<0xA0>', '<0xE5>', '<0xA5>', '<0xBD>'],
      ['<0xE4>', '<0xBD>'],
      ['▁a', '<0xF0>', '<0x9F>', '<0x98>', '<0x80>', '▁b'],
      ['<0xF0>', '<0x9F>', '</s>', '<0x98>', '<0x80>'],
      ['<s>', '▁hell', '</s>', 'o'],
      ['▁', '▁', '▁x'],
    ];
    for (const s of seqs) {
      const ids = s.map(id);
      if (ids.some((x) => x === null || x === undefined)) {
        if (model === 'mistral') throw new Error('no token in ' + JSON.stringify(s));
        continue;
      }
      await decodeCase(ids, false);
      await decodeCase(ids, true);
    }
  }
  const dst = path.join(testdata, 'golden', model + '.json');
  fs.writeFileSync(dst, JSON.stringify(out) + '\n');
  console.error(`wrote ${dst}: ${out.encode.length} encode, ${out.decode.length} decode cases`);
}

(async () => {
  for (const m of models) await gen(m);
})().catch((e) => { console.error(e); process.exit(1); });
