// Writes unicode_oracle.txt: for every code point assigned in Node's Unicode
// data, the classes the split patterns use (\p{Lu} … \s, \p{Han}) as Hugging
// Face's regex engine (Oniguruma, through tokenizers@0.23.2) sees them. Its
// Unicode version is newer than Go's, so unicodegen.go turns the differences
// into the override table unicode_tables.go. Run by hand:
//
//	node unicode.js && go run unicodegen.go
'use strict';
const fs = require('fs');
const { Tokenizer } = require('tokenizers');
// Same order as the class bits in ../../unicode.go.
const classes = ['\\p{Lu}', '\\p{Ll}', '\\p{Lt}', '\\p{Lm}', '\\p{Lo}', '\\p{M}', '\\p{N}', '\\p{P}', '\\p{S}', '\\s', '\\p{Han}'];
const cps = [];
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  if (cp === 1) continue; // the separator below
  if (!/^\p{Cn}$/u.test(String.fromCodePoint(cp))) cps.push(cp);
}
const text = cps.map((c) => String.fromCodePoint(c)).join('\u0001');
const bits = new Map(cps.map((c) => [c, 0]));
classes.forEach((re, i) => {
  const json = {
    version: '1.0', added_tokens: [], normalizer: null, post_processor: null, decoder: null,
    pre_tokenizer: { type: 'Split', pattern: { Regex: re }, behavior: 'Isolated', invert: false },
    model: { type: 'BPE', vocab: {}, merges: [] },
  };
  const pieces = Tokenizer.fromString(JSON.stringify(json)).getPreTokenizer().preTokenizeString(text);
  // A code point in the class is a piece of its own; others are glued to
  // the separators around them.
  for (const [p] of pieces) {
    const cs = Array.from(p);
    if (cs.length === 1 && p !== '\u0001') {
      const c = p.codePointAt(0);
      bits.set(c, bits.get(c) | (1 << i));
    }
  }
});
fs.writeFileSync('unicode_oracle.txt', cps.map((c) => c.toString(16) + ' ' + bits.get(c)).join('\n') + '\n');
console.error(`wrote unicode_oracle.txt: ${cps.length} code points`);
