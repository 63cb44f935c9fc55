// Command render renders chat templates from the command line the way
// Hugging Face transformers' apply_chat_template renders them, with
// agentwire's preprocess/chattemplate package, so its output can be compared
// with another implementation's.
//
// Usage:
//
//	render -template FILE [-now YYYY-MM-DD] < requests.jsonl
//
// FILE is a raw template text file or a tokenizer_config.json (its
// chat_template; from a list of named templates, "default").
//
// Each input line is {"messages", "tools", "add_generation_prompt",
// "kwargs", "bos_token", "eos_token"}: tools, bos_token and eos_token may be
// null or absent (tools is then None, the tokens undefined), kwargs keys
// become top-level template variables and override the others. JSON key order
// and number types (1 vs 1.0) are kept as Python's json.loads keeps them.
// Each line gets one output line, in order: {"prompt": "..."} or
// {"error": "..."} (for a template's raise_exception, its message). With
// -now, strftime_now formats that date at 00:00:00; without it, the current
// time. A template that cannot be loaded gets one {"error": "..."} line and
// exit status 1.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"time"

	"github.com/agentwire/agentwire/preprocess/chattemplate"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

type request struct {
	Messages            json.RawMessage `json:"messages"`
	Tools               json.RawMessage `json:"tools"`
	AddGenerationPrompt bool            `json:"add_generation_prompt"`
	Kwargs              json.RawMessage `json:"kwargs"`
	BOSToken            *string         `json:"bos_token"`
	EOSToken            *string         `json:"eos_token"`
}

type output struct {
	Prompt *string `json:"prompt,omitempty"`
	Error  string  `json:"error,omitempty"`
}

// maxLine bounds one input line.
const maxLine = 256 << 20

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	fs.SetOutput(stderr)
	file := fs.String("template", "", "chat template file, or tokenizer_config.json")
	now := fs.String("now", "", "date strftime_now formats, YYYY-MM-DD (at 00:00:00); default the current time")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if *file == "" {
		_ = enc.Encode(output{Error: "missing -template FILE"})
		return 2
	}
	var opts chattemplate.Options
	if *now != "" {
		t, err := time.Parse("2006-01-02", *now)
		if err != nil {
			_ = enc.Encode(output{Error: "bad -now: " + err.Error()})
			return 2
		}
		opts.Now = func() time.Time { return t }
	}
	tmpl, err := load(*file, opts)
	if err != nil {
		_ = enc.Encode(output{Error: err.Error()})
		return 1
	}
	in := bufio.NewReaderSize(stdin, 1<<16)
	for {
		line, err := readLine(in)
		if len(bytes.TrimSpace(line)) > 0 {
			_ = enc.Encode(render(tmpl, line))
			_ = out.Flush()
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

// load reads a template file: a tokenizer_config.json (a JSON object) or
// raw template text.
func load(path string, opts chattemplate.Options) (*chattemplate.Template, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	src := string(data)
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		if src, _, err = chattemplate.FromTokenizerConfig(data, "default"); err != nil {
			return nil, err
		}
	}
	return chattemplate.Parse(src, opts)
}

// readLine returns the next line without its newline; a line longer than
// maxLine is returned empty (and so skipped).
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

func render(tmpl *chattemplate.Template, line []byte) output {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return output{Error: "bad line: " + err.Error()}
	}
	in := chattemplate.Input{
		Messages:            req.Messages,
		Tools:               req.Tools,
		AddGenerationPrompt: req.AddGenerationPrompt,
		Kwargs:              req.Kwargs,
	}
	if req.BOSToken != nil {
		in.BOSToken = *req.BOSToken
	}
	if req.EOSToken != nil {
		in.EOSToken = *req.EOSToken
	}
	prompt, err := tmpl.Render(in)
	if err != nil {
		var te *chattemplate.TemplateError
		if errors.As(err, &te) {
			return output{Error: te.Message}
		}
		return output{Error: err.Error()}
	}
	return output{Prompt: &prompt}
}
