// Writes tokenizers/testdata/golden/agent.json: for each large tokenizer and
// each text of testdata/agent/, the number of ids Hugging Face's library
// (npm tokenizers@0.23.2) gives and the SHA-256 of those ids as little-endian
// uint32s. The ids themselves would be megabytes; the digest pins them.
//
//	cd tokenizers/testdata/gen && npm ci && node agent.js
'use strict';
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { Tokenizer } = require('tokenizers');

const testdata = path.join(__dirname, '..');
const files = fs.readdirSync(path.join(testdata, 'agent')).filter((f) => f.endsWith('.txt')).sort();
const models = ['qwen3', 'llama3', 'gptoss', 'deepseek_v3', 'mistral'];

function digest(ids) {
  const buf = Buffer.alloc(4 * ids.length);
  ids.forEach((id, i) => buf.writeUInt32LE(id, 4 * i));
  return crypto.createHash('sha256').update(buf).digest('hex');
}

async function main() {
  const out = {};
  for (const model of models) {
    const file = path.join(testdata, 'large', model, 'tokenizer.json');
    if (!fs.existsSync(file)) {
      console.error(`skip ${model}: ${file} missing (run bash .ci/setup.d/tokenizers.sh)`);
      continue;
    }
    const tok = Tokenizer.fromFile(file);
    out[model] = {};
    for (const f of files) {
      const text = fs.readFileSync(path.join(testdata, 'agent', f), 'utf8');
      const enc = await tok.encode(text, null, { addSpecialTokens: false });
      const ids = enc.getIds();
      out[model][f] = { count: ids.length, sha256: digest(ids) };
      console.error(model, f, ids.length);
    }
  }
  fs.writeFileSync(path.join(testdata, 'golden', 'agent.json'), JSON.stringify(out, null, 1) + '\n');
}

main().catch((e) => { console.error(e); process.exit(1); });
