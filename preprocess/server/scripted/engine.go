package scripted

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentwire/agentwire/preprocess/engine"
)

// Agent is the scripted agent as a source of the replay engine
// (engine.Replay): for every request it records Answer(req.Prompt) cut
// into Pieces, ending with EOS, or fails the request with Answer's error
// (the API's 400). The replay engine then applies the request's limits
// (max_tokens → finish length, stop strings → finish stop) and pacing as
// a real engine would.
//
// The script, on ChatML (Qwen3-format) prompts, is good enough for a real
// Claude Code, Codex, Qwen Code, Gemini CLI, OpenCode or pi turn to
// complete:
//
//   - the last turn is a tool result (<tool_response> blocks): it answers
//     with text that quotes the results;
//   - else, when the prompt declares tools (<tools> block): it calls one,
//     preferring a shell tool (Bash, bash, exec_command, shell,
//     run_shell_command, …) with the command "echo hello", else the first
//     tool that does not start another agent (Task, Agent, agent,
//     spawn_agent, delegate_to_agent, …: those only when the user's own
//     words name the tool or say "subagent"), with minimal valid arguments
//     from its schema (at most MaxArgumentBytes; larger is an error); when
//     the user's own words contain the word "parallel" it makes two calls
//     (echo hello, echo world);
//   - else it greets the user and echoes the start of their message.
//
// The user's own words are the last user turn that has any, without the
// blocks harnesses add to it (<system-reminder>, <environment_context>,
// <user_instructions>, <INSTRUCTIONS>, <system>): a reminder that
// mentions parallel tool calls on every turn is not the user asking.
//
// Every answer opens with a <think> block unless the prompt disabled
// thinking (an empty think block after the generation prompt) or already
// opened it. The output is model-format text, so it flows through the
// real reasoning (qwen3) and tool-call (hermes) parsers and the emitters.
var Agent engine.Source = engine.SourceFunc(func(req *engine.Request) (*engine.Recording, error) {
	out, err := respond(req.Prompt, req.Images)
	if err != nil {
		return nil, err
	}
	return engine.RecordText(DefaultModel, Pieces(out), engine.FinishEOS), nil
})

// NewEngine returns the embedded engine: a replay engine that plays
// recordings[NAME] for requests whose engine model is "replay/NAME" and
// the scripted Agent for every other request, with perToken between
// steps (0: as fast as the reader takes them). It reports prefix-cache
// hits as vLLM would with prefix caching on (engine.PrefixCache with its
// defaults: 16-token blocks, at most 65536 of them, 4 prompt bytes a
// token, images keyed by their hash at their VisionPlaceholder), so the
// next turn of a conversation shows the previous prompt as cache reads,
// and a different image with the same text does not.
func NewEngine(recordings map[string]*engine.Recording, perToken time.Duration) *engine.Replay {
	cache := engine.NewPrefixCache(engine.PrefixCacheConfig{ImagePlaceholder: VisionPlaceholder})
	return &engine.Replay{PerToken: perToken, PrefixCache: cache, Select: func(req *engine.Request) (engine.Source, error) {
		name, ok := strings.CutPrefix(req.Model, ReplayPrefix)
		if !ok {
			return Agent, nil
		}
		if rec := recordings[name]; rec != nil {
			return rec, nil
		}
		return nil, &engine.Error{Kind: engine.ErrorBadRequest, Status: 404, Message: "no recording " + name}
	}}
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
