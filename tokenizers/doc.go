// Package tokenizers loads Hugging Face tokenizer.json and tiktoken files in
// pure Go, encodes and decodes token ids exactly as Hugging Face's library
// does, and detokenizes engine token streams incrementally with stop-sequence
// handling.
//
// Loading:
//
//	tok, err := tokenizers.LoadFile("tokenizer.json") // or tiktoken.model
//
// A loaded *BPE is immutable and safe for concurrent use. Encode and Decode
// allocate their results; AppendEncode appends to a caller's slice;
// EncodeBatch encodes many texts on all cores.
//
// Incremental decoding (one DecodeStream per generated sequence, not safe
// for concurrent use):
//
//	NewDecodeStream { Step } Finish [ Reset { Step } Finish ]
//
// The []byte returned by Step and Finish aliases the stream's buffer and is
// valid until the next call on the stream.
//
// The pre-tokenizer split patterns in wide use (GPT-2, Llama 3 / cl100k,
// Qwen2/3, o200k / gpt-oss, DeepSeek-V3, Kimi) run on hand-written scanners
// selected by the exact pattern string; any other pattern runs on
// github.com/dlclark/regexp2, a backtracking engine, under a time limit
// (ErrSplitTimeout). A file that needs a feature this package does not
// implement fails to load with an error wrapping ErrUnsupported that names
// the feature; so does one whose Sequence components nest more than 16
// levels deep.
package tokenizers
