// Package tokenizers loads Hugging Face tokenizer.json and tiktoken files in
// pure Go, encodes and decodes token ids exactly, and detokenizes engine
// token streams incrementally with stop-sequence handling.
package tokenizers
