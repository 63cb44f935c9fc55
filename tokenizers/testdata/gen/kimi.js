// Writes ../golden/kimi_k2.json: encodings of the corpus with Kimi K2's
// tiktoken file, computed by an independent implementation: V8's regular
// expressions (the v flag expresses Kimi's class intersection, which
// Oniguruma and regexp2 cannot) and tiktoken's rank-based byte-pair merge.
// Hugging Face's library cannot load a tiktoken file, so this is the oracle
// for Kimi. Run by hand: node kimi.js
'use strict';
const fs = require('fs');
const path = require('path');
const testdata = path.join(__dirname, '..');
const dir = path.join(testdata, 'large', 'kimi_k2');
const corpus = JSON.parse(fs.readFileSync(path.join(testdata, 'corpus.json'), 'utf8')).texts;

const ranks = new Map();
for (const line of fs.readFileSync(path.join(dir, 'tiktoken.model'), 'utf8').split('\n')) {
  if (!line) continue;
  const [b64, rank] = line.split(' ');
  ranks.set(Buffer.from(b64, 'base64').toString('latin1'), Number(rank));
}
const cfg = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer_config.json'), 'utf8'));
const specials = new Map();
for (const [id, t] of Object.entries(cfg.added_tokens_decoder)) specials.set(t.content, Number(id));
for (let id = ranks.size; id < ranks.size + 256; id++) {
  if (![...specials.values()].includes(id)) specials.set(`<|reserved_token_${id}|>`, id);
}

// (?i:'s|'t|'re|'ve|'m|'ll|'d) with Unicode simple case folding.
const c = "(?:'[sS\\u017F]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])";
const U = '[[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]--\\p{Script=Han}]';
const W = '[[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]--\\p{Script=Han}]';
const pat = new RegExp([
  '\\p{Script=Han}+',
  `[^\\r\\n\\p{L}\\p{N}]?${U}*${W}+${c}?`,
  `[^\\r\\n\\p{L}\\p{N}]?${U}+${W}*${c}?`,
  '\\p{N}{1,3}',
  ' ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*',
  '\\s*[\\r\\n]+',
  '\\s+(?!\\S)',
  '\\s+',
].join('|'), 'gv');

function bpe(piece) {
  const whole = ranks.get(piece);
  if (whole !== undefined) return [whole];
  let parts = Array.from(piece);
  for (;;) {
    let best = -1, bestRank = Infinity;
    for (let i = 0; i + 1 < parts.length; i++) {
      const r = ranks.get(parts[i] + parts[i + 1]);
      if (r !== undefined && r < bestRank) { bestRank = r; best = i; }
    }
    if (best < 0) break;
    parts.splice(best, 2, parts[best] + parts[best + 1]);
  }
  return parts.map((p) => ranks.get(p));
}

function encodeOrdinary(text) {
  const ids = [];
  for (const m of text.matchAll(pat)) {
    // work on the UTF-8 bytes as latin1 characters
    ids.push(...bpe(Buffer.from(m[0], 'utf8').toString('latin1')));
  }
  return ids;
}

// Kimi's tokenizer keeps runs of white space / non-white space to at most
// 25 000 characters (tokenization_kimi.py, Python's str.isspace).
function isspace(ch) { return /\s/u.test(ch) || /[\x1c-\x1f]/.test(ch); }
function chunks(s, max) {
  const out = [];
  const cs = Array.from(s);
  let len = 0, sp = cs.length ? isspace(cs[0]) : false, start = 0;
  for (let i = 0; i < cs.length; i++) {
    const now = isspace(cs[i]);
    if (sp !== now) { len = 1; sp = now; } else if (++len > max) { out.push(cs.slice(start, i).join('')); start = i; len = 1; }
  }
  out.push(cs.slice(start).join(''));
  return out;
}

const specialList = [...specials.keys()].sort((a, b) => b.length - a.length);
function encode(text) {
  const ids = [];
  for (const chunk of chunks(text, 25000)) {
    let rest = chunk;
    while (rest.length) {
      let at = -1, tok = null;
      for (const s of specialList) {
        const i = rest.indexOf(s);
        if (i >= 0 && (at < 0 || i < at || (i === at && s.length > tok.length))) { at = i; tok = s; }
      }
      if (at < 0) { ids.push(...encodeOrdinary(rest)); break; }
      ids.push(...encodeOrdinary(rest.slice(0, at)), specials.get(tok));
      rest = rest.slice(at + tok.length);
    }
  }
  return ids;
}

const out = { model: 'kimi_k2', generator: 'kimi.js (V8 regexp v flag + tiktoken merge)', encode: [] };
// The long run exercises the 25 000-character rule.
const texts = corpus.filter((t) => !t.startsWith('new code points')).concat(['x'.repeat(25001) + ' ' + ' '.repeat(25003) + 'y']);
for (const text of texts) out.encode.push({ text, add_special_tokens: false, ids: encode(text) });
fs.writeFileSync(path.join(testdata, 'golden', 'kimi_k2.json'), JSON.stringify(out) + '\n');
console.error(`wrote kimi_k2.json: ${out.encode.length} cases`);
