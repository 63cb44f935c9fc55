package scripted

import (
	"context"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentwire/agentwire/preprocess/engine"
)

// Engine is an in-process engine.Engine that plays a scripted agent on
// ChatML (Qwen3-format) prompts, good enough for a real Claude Code or
// Codex turn to complete:
//
//   - the last turn is a tool result (<tool_response> blocks): it answers
//     with text that quotes the results;
//   - else, when the prompt declares tools (<tools> block): it calls one,
//     preferring a shell tool (Bash, exec_command, shell, …) with the
//     command "echo hello", else the first tool with minimal valid
//     arguments from its schema; when the last user message contains
//     "parallel" it makes two calls (echo hello, echo world);
//   - else it greets the user and echoes the start of their message.
//
// Every answer opens with a <think> block unless the prompt disabled
// thinking (an empty think block after the generation prompt) or already
// opened it. The output is model-format text, so it flows through the
// real reasoning (qwen3) and tool-call (hermes) parsers and the emitters.
//
// It streams text deltas of about one token each: every marker is one
// delta, other text is cut before spaces and after at most 4 bytes.
// MaxTokens truncates (finish length); stop strings end the output
// before the match (finish stop). Usage counts deltas; the prompt is
// counted at 4 bytes per token.
type Engine struct {
	// TokenDelay paces the deltas (0: as fast as the reader takes them).
	TokenDelay time.Duration
}

// Generate starts the script for req.Prompt.
func (e *Engine) Generate(ctx context.Context, req *engine.Request) (engine.Stream, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out, finish, stop := truncate(Script(req.Prompt), req)
	return NewTextStream(ctx, out, finish, stop, int64(len(req.Prompt)+3)/4, e.TokenDelay), nil
}

// truncate applies the stop strings and max_tokens to the script.
func truncate(text string, req *engine.Request) ([]string, engine.Finish, string) {
	finish, stopped := engine.FinishEOS, ""
	cut := len(text)
	for _, s := range req.Stop.Strings {
		if s == "" {
			continue
		}
		if k := strings.Index(text, s); k >= 0 && k < cut {
			cut, stopped = k, s
			if req.Stop.IncludeStrings {
				cut += len(s)
			}
		}
	}
	if stopped != "" {
		text, finish = text[:cut], engine.FinishStop
	}
	pieces := Pieces(text)
	if req.MaxTokens > 0 && len(pieces) > req.MaxTokens {
		pieces, finish, stopped = pieces[:req.MaxTokens], engine.FinishLength, ""
	}
	return pieces, finish, stopped
}

// markers are emitted as one delta each, as a tokenizer's special tokens.
var markers = []string{thinkOpen, thinkClose, callOpen, callClose, imEnd}

// Pieces cuts text into deltas of about one token: markers whole, other
// text before each space, around each newline and after at most 4 bytes (never
// inside a UTF-8 sequence).
func Pieces(text string) []string {
	var out []string
	for len(text) > 0 {
		if m := markerAt(text); m != "" {
			out = append(out, m)
			text = text[len(m):]
			continue
		}
		n := 0
		for n < len(text) {
			_, size := utf8.DecodeRuneInString(text[n:])
			if n > 0 && (n+size > 4 || text[n] == ' ' || text[n] == '\n' || text[n-1] == '\n' || text[n] == '<' && markerAt(text[n:]) != "") {
				break
			}
			n += size
		}
		out = append(out, text[:n])
		text = text[n:]
	}
	return out
}

func markerAt(s string) string {
	if len(s) == 0 || s[0] != '<' {
		return ""
	}
	for _, m := range markers {
		if strings.HasPrefix(s, m) {
			return m
		}
	}
	return ""
}

// TextStream is an engine.Stream over prepared text deltas: the scripted
// agent's, or any fixed output (tests, demos).
type TextStream struct {
	ctx    context.Context
	pieces []string
	finish engine.Finish
	stop   string
	prompt int64
	delay  time.Duration
	timer  *time.Timer
	i      int
	out    engine.Output
	buf    []byte
	usage  engine.Usage
	done   bool
}

// NewTextStream returns a stream that yields pieces one per step, then a
// final step with finish (and the stop string that caused it) and usage
// (promptTokens, one completion token per piece). delay paces the steps.
func NewTextStream(ctx context.Context, pieces []string, finish engine.Finish, stop string, promptTokens int64, delay time.Duration) *TextStream {
	return &TextStream{ctx: ctx, pieces: pieces, finish: finish, stop: stop, prompt: promptTokens, delay: delay}
}

// Next returns the next delta; the last one carries the finish reason and
// usage. Canceling the context ends the stream with ctx.Err().
func (s *TextStream) Next() (*engine.Output, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	if s.done {
		return nil, io.EOF
	}
	if s.delay > 0 && s.i > 0 {
		if s.timer == nil {
			s.timer = time.NewTimer(s.delay)
		} else {
			s.timer.Reset(s.delay)
		}
		select {
		case <-s.ctx.Done():
			return nil, s.ctx.Err()
		case <-s.timer.C:
		}
	}
	s.out = engine.Output{HasText: true}
	if s.i < len(s.pieces) {
		s.buf = append(s.buf[:0], s.pieces[s.i]...)
		s.out.Text = s.buf
		s.i++
	}
	if s.i == len(s.pieces) {
		s.done = true
		s.out.Finish = s.finish
		if s.stop != "" {
			s.out.StopReason = []byte(s.stop)
		}
		s.usage = engine.Usage{PromptTokens: s.prompt, CompletionTokens: int64(len(s.pieces))}
		s.out.Usage = &s.usage
	}
	return &s.out, nil
}

// Close stops the stream.
func (s *TextStream) Close() error {
	s.done = true
	if s.timer != nil {
		s.timer.Stop()
	}
	return nil
}
