// Command parse is a debugging runner for a model's raw output.
//
// It reads JSON lines from standard input:
//
//	{"tool_parser": "hermes", "reasoning_parser": "qwen3",
//	 "tools": [OpenAI-style tool definitions],
//	 "input": "raw model output", "chunks": ["optional", "deltas"],
//	 "options": {"in_reasoning": false, "whole_calls": false}}
//
// and writes one JSON line per input line:
//
//	{"content": "...", "reasoning": "...",
//	 "calls": [{"id": "...", "name": "...", "arguments": "<JSON text>"}],
//	 "error": "..."}
//
// With "chunks" it feeds those chunks (they must join to "input" when both
// are given); otherwise the whole input. -chunk N re-chunks every input into
// N-byte pieces instead. A bad line (bad JSON, unknown parser, bad tools)
// gets a line with empty results and "error" set, never a crash; the exit
// status is 0 unless reading or writing fails.
//
//	go run ./examples/parse < outputs.jsonl
//	echo '{"tool_parser":"hermes","input":"<tool_call>{\"name\":\"f\"}</tool_call>"}' | go run ./examples/parse -chunk 1
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/agentwire/agentwire/parsers"
)

type request struct {
	ToolParser      string          `json:"tool_parser"`
	ReasoningParser string          `json:"reasoning_parser"`
	Tools           json.RawMessage `json:"tools"`
	Input           *string         `json:"input"`
	Chunks          []string        `json:"chunks"`
	Options         struct {
		InReasoning bool `json:"in_reasoning"`
		WholeCalls  bool `json:"whole_calls"`
	} `json:"options"`
}

type call struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type response struct {
	Content   string `json:"content"`
	Reasoning string `json:"reasoning"`
	Calls     []call `json:"calls"`
	Abandoned int    `json:"abandoned,omitempty"`
	Error     string `json:"error,omitempty"`
}

func main() {
	chunk := flag.Int("chunk", 0, "re-chunk every input into pieces of `N` bytes (0: use the line's chunks, or the whole input)")
	flag.Parse()
	if *chunk < 0 {
		fmt.Fprintln(os.Stderr, "parse: -chunk must be >= 0")
		os.Exit(2)
	}
	if _, err := run(os.Stdin, os.Stdout, *chunk); err != nil {
		fmt.Fprintln(os.Stderr, "parse:", err)
		os.Exit(2)
	}
}

// run processes every line of in and reports whether any line failed.
func run(in io.Reader, out io.Writer, chunk int) (failed bool, err error) {
	r := bufio.NewReader(in)
	w := bufio.NewWriter(out)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for lineNo := 1; ; lineNo++ {
		line, rerr := r.ReadBytes('\n')
		if len(strings.TrimSpace(string(line))) > 0 {
			resp, perr := parseLine(line, chunk)
			if perr != nil {
				failed = true
				if err := enc.Encode(response{Calls: []call{}, Error: fmt.Sprintf("line %d: %v", lineNo, perr)}); err != nil {
					return failed, err
				}
			} else if err := enc.Encode(resp); err != nil {
				return failed, err
			}
		}
		if rerr == io.EOF {
			return failed, nil
		}
		if rerr != nil {
			return failed, rerr
		}
	}
}

func parseLine(line []byte, chunk int) (response, error) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil {
		return response{}, fmt.Errorf("bad JSON: %w", err)
	}
	if req.Input == nil && req.Chunks == nil {
		return response{}, errors.New(`need "input" or "chunks"`)
	}
	input := strings.Join(req.Chunks, "")
	if req.Input != nil {
		if req.Chunks != nil && input != *req.Input {
			return response{}, errors.New(`"chunks" do not join to "input"`)
		}
		input = *req.Input
	}
	cfg := parsers.Config{
		ToolParser:      req.ToolParser,
		ReasoningParser: req.ReasoningParser,
		InReasoning:     req.Options.InReasoning,
		WholeCalls:      req.Options.WholeCalls,
	}
	if len(req.Tools) > 0 && string(req.Tools) != "null" {
		tools, err := parsers.ToolsFromJSON(req.Tools)
		if err != nil {
			return response{}, err
		}
		cfg.Tools = tools
	}
	p, err := parsers.New(cfg)
	if err != nil {
		return response{}, err
	}
	chunks := req.Chunks
	switch {
	case chunk > 0:
		chunks = nil
		for i := 0; i < len(input); i += chunk {
			chunks = append(chunks, input[i:min(i+chunk, len(input))])
		}
	case chunks == nil:
		chunks = []string{input}
	}
	var acc parsers.Accumulator
	for _, c := range chunks {
		acc.Add(p.Feed([]byte(c)))
	}
	acc.Add(p.Finish())
	res := acc.Result()
	resp := response{Content: res.Content, Reasoning: res.Reasoning, Calls: []call{}, Abandoned: acc.Abandoned()}
	for _, c := range res.Calls {
		resp.Calls = append(resp.Calls, call{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return resp, nil
}
