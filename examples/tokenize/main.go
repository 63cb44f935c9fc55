// Command tokenize checks a tokenizer file from the command line: it encodes
// or decodes JSON lines with agentwire's pure-Go tokenizers package, so its
// output can be compared with another implementation's.
//
// Usage:
//
//	tokenize -tokenizer tokenizer.json < texts.jsonl
//	tokenize -tokenizer tiktoken.model -decode < ids.jsonl
//
// -tokenizer is a Hugging Face tokenizer.json, or a tiktoken.model with its
// tokenizer_config.json (and optionally config.json) beside it.
//
// Encode mode reads lines {"text": "...", "add_special_tokens": bool} and
// writes {"ids": [...]}. Decode mode (-decode) reads {"ids": [...],
// "skip_special_tokens": bool} and writes {"text": "..."}. A line that cannot
// be read gets {"error": "..."} in its place; a tokenizer file that cannot be
// loaded gets one {"error": "..."} line and exit status 1.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/agentwire/agentwire/tokenizers"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type encodeIn struct {
	Text             *string `json:"text"`
	AddSpecialTokens bool    `json:"add_special_tokens"`
}

type decodeIn struct {
	IDs               *[]uint32 `json:"ids"`
	SkipSpecialTokens bool      `json:"skip_special_tokens"`
}

type output struct {
	IDs   *[]uint32 `json:"ids,omitempty"`
	Text  *string   `json:"text,omitempty"`
	Error string    `json:"error,omitempty"`
}

// maxLine bounds one input line (a long prompt fits comfortably).
const maxLine = 256 << 20

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("tokenize", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("tokenizer", "", "tokenizer.json, or tiktoken.model with tokenizer_config.json beside it")
	decode := fs.Bool("decode", false, "decode {\"ids\":[...]} lines instead of encoding {\"text\":...} lines")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if *file == "" {
		_ = enc.Encode(output{Error: "missing -tokenizer FILE"})
		return 2
	}
	tok, err := tokenizers.LoadFile(*file)
	if err != nil {
		_ = enc.Encode(output{Error: err.Error()})
		return 1
	}
	in := bufio.NewReaderSize(stdin, 1<<16)
	for {
		line, err := readLine(in)
		if len(line) > 0 {
			_ = enc.Encode(handle(tok, line, *decode))
		}
		if errors.Is(err, io.EOF) {
			return 0
		}
		if err != nil {
			_ = enc.Encode(output{Error: err.Error()})
			return 1
		}
	}
}

// readLine returns the next line without its newline; a line longer than
// maxLine is reported as an error line and skipped.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(line)+len(chunk) <= maxLine {
			line = append(line, chunk...)
		} else if line != nil {
			line = line[:0]
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, err
	}
}

func handle(tok tokenizers.Tokenizer, line []byte, decode bool) output {
	if decode {
		var in decodeIn
		if err := json.Unmarshal(line, &in); err != nil {
			return output{Error: "bad line: " + err.Error()}
		}
		if in.IDs == nil {
			return output{Error: `bad line: no "ids"`}
		}
		text, err := tok.Decode(*in.IDs, in.SkipSpecialTokens)
		if err != nil {
			return output{Error: err.Error()}
		}
		return output{Text: &text}
	}
	var in encodeIn
	if err := json.Unmarshal(line, &in); err != nil {
		return output{Error: "bad line: " + err.Error()}
	}
	if in.Text == nil {
		return output{Error: `bad line: no "text"`}
	}
	ids, err := tok.Encode(*in.Text, in.AddSpecialTokens)
	if err != nil {
		return output{Error: fmt.Sprintf("encode: %v", err)}
	}
	if ids == nil {
		ids = []uint32{}
	}
	return output{IDs: &ids}
}
