package engine

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Recording is a replayable engine output: the steps of one choice, in
// order, as an engine streamed them. The Replay engine replays it step by
// step. A Recording is immutable once built and may be shared by any
// number of concurrent replays; its steps' slices must not be modified.
//
// RecordText and RecordTokens build one from text deltas or token ids;
// LoadRecordings, LoadRecording and ParseRecording read the capture
// formats of testdata/engine-streams (see ParseRecording) and raw text or
// token-id lists.
type Recording struct {
	// Name identifies the recording (the capture's file name, or what the
	// builder chose).
	Name string

	// Steps are the outputs, with delta semantics. Index is ignored (the
	// replay sets it); the last step normally carries the finish.
	Steps []Output
}

// Recording implements Source: a recording replays itself for any request.
func (r *Recording) Recording(*Request) (*Recording, error) { return r, nil }

// RecordText returns a recording of text deltas (one step per delta, as a
// text engine streams them) ending with finish.
func RecordText(name string, deltas []string, finish Finish) *Recording {
	r := &Recording{Name: name, Steps: make([]Output, 0, len(deltas)+1)}
	for _, d := range deltas {
		r.Steps = append(r.Steps, Output{Text: []byte(d), HasText: true})
	}
	r.finish(finish)
	return r
}

// RecordTokens returns a recording of token ids (one step per id, as a
// token-in/token-out engine streams them) ending with finish.
func RecordTokens(name string, ids []uint32, finish Finish) *Recording {
	r := &Recording{Name: name, Steps: make([]Output, 0, len(ids)+1)}
	for i := range ids {
		r.Steps = append(r.Steps, Output{TokenIDs: ids[i : i+1 : i+1]})
	}
	r.finish(finish)
	return r
}

// finish sets the finish of the last step (adding an empty step when there
// is none or the last already finished).
func (r *Recording) finish(f Finish) {
	if f == FinishNone {
		f = FinishEOS
	}
	if n := len(r.Steps); n > 0 && r.Steps[n-1].Finish == FinishNone {
		r.Steps[n-1].Finish = f
		return
	}
	r.Steps = append(r.Steps, Output{Finish: f})
}

// Text returns the concatenated text of the recording's steps (content
// only; reasoning and tool calls of pass-through recordings are not in it).
func (r *Recording) Text() string {
	var b strings.Builder
	for i := range r.Steps {
		b.Write(r.Steps[i].Text)
	}
	return b.String()
}

// LoadRecording reads a capture file (see ParseRecording); the recording
// is named after the file.
func LoadRecording(path string) (*Recording, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseRecording(filepath.Base(path), data)
}

// LoadRecordings reads every capture (*.json, *.jsonl, *.sse) under dir,
// recursively, keyed by the path relative to dir with forward slashes
// ("vllm/qwen3-0.6B/chat_completion_stream_8f33c28b-tool.json").
func LoadRecordings(dir string) (map[string]*Recording, error) {
	out := map[string]*Recording{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".json", ".jsonl", ".sse":
		default:
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		r, err := LoadRecording(path)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		r.Name = filepath.ToSlash(rel)
		out[r.Name] = r
		return nil
	})
	return out, err
}

// ParseRecording parses a captured engine stream in any of these formats:
//
//   - a JSON document whose "input_stream" (or legacy "data") is a list
//     of {"data": chat.completion.chunk} entries;
//   - a JSON document whose "raw_backend_stream" is a list of {"text"} /
//     {"finish_reason"} entries (a worker's raw text stream);
//   - JSON lines, one chat.completion.chunk per line ("//" comment lines
//     and blank lines ignored);
//   - server-sent events: "data: <chunk>" events, "data: [DONE]" last;
//   - a JSON array of strings (text deltas) or of integers (token ids).
//
// A chunk's delta.content becomes Text, delta.reasoning_content (or
// delta.reasoning) Reasoning, delta.tool_calls ToolCalls; finish_reason and
// usage are kept; chunks with nothing of that (the role-only first chunk)
// are dropped. Text-completion chunks (choices[].text) are read too.
func ParseRecording(name string, data []byte) (*Recording, error) {
	r := &Recording{Name: name}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, errors.New("empty capture")
	}
	switch {
	case trimmed[0] == '[':
		var texts []string
		if err := json.Unmarshal(trimmed, &texts); err == nil {
			return RecordText(name, texts, FinishEOS), nil
		}
		var ids []uint32
		if err := json.Unmarshal(trimmed, &ids); err != nil {
			return nil, errors.New("a JSON array capture must hold strings or token ids")
		}
		return RecordTokens(name, ids, FinishEOS), nil
	case trimmed[0] == '{' && isSingleJSON(trimmed):
		var doc struct {
			InputStream []struct{ Data json.RawMessage } `json:"input_stream"`
			Data        []struct{ Data json.RawMessage } `json:"data"`
			Raw         []struct {
				Text         *string `json:"text"`
				FinishReason *string `json:"finish_reason"`
			} `json:"raw_backend_stream"`
		}
		if err := json.Unmarshal(trimmed, &doc); err != nil {
			return nil, err
		}
		switch {
		case len(doc.Raw) > 0:
			for _, e := range doc.Raw {
				step := Output{}
				if e.Text != nil {
					step.Text, step.HasText = []byte(*e.Text), true
				}
				if e.FinishReason != nil && *e.FinishReason != "" {
					step.Finish = mapFinish([]byte(*e.FinishReason), false)
				}
				r.Steps = append(r.Steps, step)
			}
		case len(doc.InputStream) > 0 || len(doc.Data) > 0:
			items := doc.InputStream
			if len(items) == 0 {
				items = doc.Data
			}
			for i, it := range items {
				if err := r.addChunk(it.Data); err != nil {
					return nil, fmt.Errorf("chunk %d: %w", i, err)
				}
			}
		default:
			// A single chunk.
			if err := r.addChunk(trimmed); err != nil {
				return nil, err
			}
		}
	default:
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
		sse := bytes.Contains(data, []byte("\ndata:")) || bytes.HasPrefix(trimmed, []byte("data:"))
		line := 0
		for sc.Scan() {
			line++
			l := bytes.TrimSpace(sc.Bytes())
			if sse {
				if !bytes.HasPrefix(l, []byte("data:")) {
					continue
				}
				l = bytes.TrimSpace(l[len("data:"):])
				if string(l) == "[DONE]" {
					break
				}
			} else if len(l) == 0 || bytes.HasPrefix(l, []byte("//")) {
				continue
			}
			if err := r.addChunk(l); err != nil {
				return nil, fmt.Errorf("line %d: %w", line, err)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	if len(r.Steps) == 0 {
		return nil, errors.New("capture has no output")
	}
	if r.Steps[len(r.Steps)-1].Finish == FinishNone {
		// Keep the finish on the last output step (the captures put it on
		// a chunk of its own or leave it out).
		r.finish(FinishEOS)
	}
	return r, nil
}

// isSingleJSON reports whether data is one JSON value (not JSON lines).
func isSingleJSON(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return false
	}
	return !dec.More()
}

// addChunk appends the steps of one chat.completion.chunk (or
// text_completion chunk).
func (r *Recording) addChunk(raw json.RawMessage) error {
	var c struct {
		Choices []struct {
			Index int     `json:"index"`
			Text  *string `json:"text"`
			Delta struct {
				Content          *string `json:"content"`
				ReasoningContent *string `json:"reasoning_content"`
				Reasoning        *string `json:"reasoning"`
				ToolCalls        []struct {
					Index    int    `json:"index"`
					ID       string `json:"id"`
					Function struct {
						Name      string `json:"name"`
						Arguments string `json:"arguments"`
					} `json:"function"`
				} `json:"tool_calls"`
			} `json:"delta"`
			FinishReason *string         `json:"finish_reason"`
			StopReason   json.RawMessage `json:"stop_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens        int64 `json:"prompt_tokens"`
			CompletionTokens    int64 `json:"completion_tokens"`
			PromptTokensDetails *struct {
				CachedTokens int64 `json:"cached_tokens"`
			} `json:"prompt_tokens_details"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return err
	}
	for _, ch := range c.Choices {
		var s Output
		keep := false
		text := ch.Delta.Content
		if ch.Text != nil {
			text = ch.Text
		}
		if text != nil && *text != "" {
			s.Text, s.HasText, keep = []byte(*text), true, true
		}
		reasoning := ch.Delta.ReasoningContent
		if reasoning == nil {
			reasoning = ch.Delta.Reasoning
		}
		if reasoning != nil && *reasoning != "" {
			s.Reasoning, keep = []byte(*reasoning), true
		}
		for _, tc := range ch.Delta.ToolCalls {
			s.ToolCalls = append(s.ToolCalls, ToolCallDelta{Index: tc.Index, ID: nonEmpty(tc.ID),
				Name: nonEmpty(tc.Function.Name), Arguments: nonEmpty(tc.Function.Arguments)})
			keep = true
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			var sr string
			hasStop := len(ch.StopReason) > 0 && string(ch.StopReason) != "null"
			if hasStop && json.Unmarshal(ch.StopReason, &sr) == nil {
				s.StopReason = []byte(sr)
			}
			s.Finish = mapFinish([]byte(*ch.FinishReason), hasStop)
			keep = true
		}
		if keep {
			r.Steps = append(r.Steps, s)
		}
	}
	if c.Usage != nil {
		u := &Usage{PromptTokens: c.Usage.PromptTokens, CompletionTokens: c.Usage.CompletionTokens}
		if c.Usage.PromptTokensDetails != nil {
			u.CachedTokens = c.Usage.PromptTokensDetails.CachedTokens
		}
		if len(r.Steps) == 0 {
			r.Steps = append(r.Steps, Output{})
		}
		r.Steps[len(r.Steps)-1].Usage = u
	}
	return nil
}

func nonEmpty(s string) []byte {
	if s == "" {
		return nil
	}
	return []byte(s)
}
