package preprocess

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess/chattemplate"
	"github.com/agentwire/agentwire/protocols"
	"github.com/agentwire/agentwire/protocols/openai"
)

// iteratesContent matches a template that loops over a message's content
// parts ({% for part in message['content'] %}); such templates get content
// arrays as parts, every other template gets the text parts joined.
var iteratesContent = regexp.MustCompile(`for\s+\w+\s+in\s+(?:message|msg|m|messages\[\w+\])(?:\.content|\[['"]content['"]\])`)

// templateInput builds the chat template input the way transformers'
// apply_chat_template receives it from vLLM:
//
//   - content: a string stays a string; an array becomes its text parts
//     joined with "\n" unless the template iterates content parts (then the
//     text parts are passed as [{"type":"text","text":…}]); a null or absent
//     content is "" (or [] for such templates), as vLLM passes it: most
//     templates concatenate content as a string;
//   - tool calls: {"id","type":"function","function":{"name","arguments"}}
//     with the arguments as a JSON object, unless the template branches on
//     `arguments is string` or the arguments are not a JSON object (then
//     the client's string, which on Chat and Responses is the text the
//     model wrote); on Anthropic Messages, whose clients send the input
//     back as an object re-serialised, the text the server emitted for
//     that tool_use id (ToolArgs) when it still describes the same value,
//     else the object (see appendArguments);
//   - tool results: {"role":"tool","tool_call_id","name","content"}, the
//     name taken from the assistant call with that id;
//   - the deprecated function_call becomes a tool call (arguments parsed);
//   - image parts become {"type":"image"} for templates that iterate
//     content parts (each writes its own placeholder; the request's
//     images travel beside the prompt, engine.Request.Images); other
//     parts than text and images are left out, with a warning
//     (Options.Warn);
//   - developer messages become system messages unless the template knows
//     the developer role;
//   - reasoning of earlier assistant turns is replayed: passed as
//     reasoning_content (segments joined with "\n"; "thinking" for
//     gpt-oss's template; one occurrence of the whitespace the template
//     itself writes around reasoning removed from each end of a segment,
//     Template.ReasoningLead/ReasoningTrail) when the template reads it, else folded into the content between the reasoning parser's own
//     markers (<think>…</think> when it has no paired text markers), one
//     block per non-empty segment, prefixed to the content;
//   - template arguments become top-level variables (they override
//     bos_token and friends).
func (p *Preprocessor) templateInput(t *Template, msgs []openai.Message, tools []openai.Tool, args templateArgs, replay bool) (chattemplate.Input, error) {
	src := t.Source()
	if t.NormalizeRoles {
		msgs = normalizeRoles(msgs)
	}
	// A template that writes an image placeholder iterates parts even
	// when the regular expression misses its loop (Qwen3.5's macro, Kimi
	// K3's): requests with images give it parts.
	parts := iteratesContent.MatchString(src) || t.ImagePlaceholder != "" && hasImages(msgs)
	developer := strings.Contains(src, "developer")
	open, close := p.replayMarkers()

	names := map[string]string{}
	b := make([]byte, 0, 4096)
	b = append(b, '[')
	for i := range msgs {
		m := &msgs[i]
		if i > 0 {
			b = append(b, ',')
		}
		role := m.Role
		if role == openai.RoleDeveloper && !developer {
			role = openai.RoleSystem
		}
		b = append(b, `{"role":`...)
		b = protocols.AppendJSONString(b, role)

		content, hasContent := m.Content.Get()
		if hasContent && content.IsArray() {
			for _, part := range content.Array {
				if part.Type != openai.PartText && part.Type != openai.PartImageURL {
					p.warn("message " + strconv.Itoa(i) + ": a " + part.Type + " content part was left out of the prompt (text-only model input)")
				}
			}
		}
		var reasoning []string
		if r, ok := m.ReasoningValue().Get(); ok && role == openai.RoleAssistant {
			if r.IsArray() {
				reasoning = r.Array
			} else if r.String != "" {
				reasoning = []string{r.String}
			}
		}
		var fold string
		if len(reasoning) > 0 && !t.HandlesReasoning {
			var f strings.Builder
			for _, seg := range reasoning {
				if seg != "" {
					f.WriteString(open)
					f.WriteString(seg)
					f.WriteString(close)
				}
			}
			fold = f.String()
		}

		b = append(b, `,"content":`...)
		switch {
		case hasContent && content.IsArray() && parts:
			b = append(b, '[')
			n := 0
			if fold != "" {
				b = append(b, `{"type":"text","text":`...)
				b = protocols.AppendJSONString(b, fold)
				b = append(b, '}')
				n++
			}
			for _, part := range content.Array {
				if part.Type == openai.PartImageURL && part.ImageURL != nil {
					// The template writes its own placeholder for an
					// image part, as vLLM passes it: {"type":"image"}.
					if n > 0 {
						b = append(b, ',')
					}
					b = append(b, `{"type":"image"}`...)
					n++
					continue
				}
				if part.Type != openai.PartText {
					continue
				}
				if n > 0 {
					b = append(b, ',')
				}
				b = append(b, `{"type":"text","text":`...)
				b = protocols.AppendJSONString(b, part.Text)
				b = append(b, '}')
				n++
			}
			b = append(b, ']')
		case hasContent:
			b = protocols.AppendJSONString(b, fold+openai.ContentText(content, "\n"))
		case parts && fold != "":
			b = append(b, `[{"type":"text","text":`...)
			b = protocols.AppendJSONString(b, fold)
			b = append(b, "}]"...)
		case parts:
			b = append(b, "[]"...)
		default:
			b = protocols.AppendJSONString(b, fold)
		}
		if len(reasoning) > 0 && t.HandlesReasoning {
			b = append(b, ',')
			b = protocols.AppendJSONString(b, t.ReasoningKey)
			b = append(b, ':')
			b = protocols.AppendJSONString(b, openai.FlattenReasoning(reasoningOf(trimSeparators(t, reasoning))))
		}
		if m.Name != "" && role != openai.RoleTool {
			b = append(b, `,"name":`...)
			b = protocols.AppendJSONString(b, m.Name)
		}
		calls := m.ToolCalls
		if len(calls) == 0 && m.FunctionCall != nil {
			// The deprecated function_call is rendered as a tool call; its
			// arguments are always parsed.
			calls = []openai.ToolCall{{Type: openai.ToolTypeFunction, Function: *m.FunctionCall}}
		}
		if len(calls) > 0 {
			b = append(b, `,"tool_calls":[`...)
			for j, c := range calls {
				if j > 0 {
					b = append(b, ',')
				}
				names[c.ID] = c.Function.Name
				b = append(b, `{"id":`...)
				b = protocols.AppendJSONString(b, t.toolID(c.ID))
				b = append(b, `,"type":"function","function":{"name":`...)
				b = protocols.AppendJSONString(b, c.Function.Name)
				b = append(b, `,"arguments":`...)
				b = p.appendArguments(b, t, m, c, replay)
				b = append(b, "}}"...)
			}
			b = append(b, ']')
		}
		if role == openai.RoleTool {
			b = append(b, `,"tool_call_id":`...)
			b = protocols.AppendJSONString(b, t.toolID(m.ToolCallID))
			name := m.Name
			if name == "" {
				name = names[m.ToolCallID]
			}
			if name != "" {
				b = append(b, `,"name":`...)
				b = protocols.AppendJSONString(b, name)
			}
		}
		b = append(b, '}')
	}
	b = append(b, ']')

	in := chattemplate.Input{
		Messages:            b,
		AddGenerationPrompt: true,
		BOSToken:            p.model.BOS,
		EOSToken:            p.model.EOS,
		UnkToken:            p.model.UNK,
	}
	if len(tools) > 0 {
		tb, err := json.Marshal(tools)
		if err != nil {
			return in, err
		}
		in.Tools = tb
	}
	if len(args) > 0 {
		keys := slices.Sorted(mapsKeys(args))
		kb := []byte{'{'}
		for i, k := range keys {
			if i > 0 {
				kb = append(kb, ',')
			}
			kb = protocols.AppendJSONString(kb, k)
			kb = append(kb, ':')
			kb = append(kb, args[k]...)
		}
		in.Kwargs = append(kb, '}')
	}
	return in, nil
}

// appendArguments appends the arguments of call c of message m as the
// template gets them. Chat and Responses clients send back the string the
// server streamed, which is the model's own text: a template that prints
// strings (`arguments is string`) gets it, others the object. Anthropic
// clients hold the input as an object and send it re-serialised, so the
// string is not the model's: the template gets the text the server emitted
// for that tool_use id when the cache still has it and it describes the
// same value, else the object (whose tojson is the form templates print).
// The deprecated function_call's arguments are always parsed.
func (p *Preprocessor) appendArguments(b []byte, t *Template, m *openai.Message, c openai.ToolCall, replay bool) []byte {
	args := strings.TrimSpace(string(c.Function.Arguments))
	object := strings.HasPrefix(args, "{") && json.Valid([]byte(args))
	if replay && object {
		if text, ok := p.toolArgs.Get(c.ID); ok && sameJSON(text, args) {
			if t.ArgumentsAsString {
				return protocols.AppendJSONString(b, text)
			}
			return append(b, text...)
		}
		return append(b, args...)
	}
	if (!t.ArgumentsAsString || m.FunctionCall != nil && len(m.ToolCalls) == 0) && object {
		return append(b, args...)
	}
	return protocols.AppendJSONString(b, string(c.Function.Arguments))
}

// trimSeparators removes from each reasoning segment one occurrence of the
// whitespace the template writes around reasoning itself
// (Template.ReasoningLead/ReasoningTrail): the model wrote it and the
// parser kept it, so the template would write it twice.
func trimSeparators(t *Template, segs []string) []string {
	if t.ReasoningLead == "" && t.ReasoningTrail == "" {
		return segs
	}
	out := make([]string, len(segs))
	for i, s := range segs {
		s = strings.TrimPrefix(s, t.ReasoningLead)
		out[i] = strings.TrimSuffix(s, t.ReasoningTrail)
	}
	return out
}

func reasoningOf(segs []string) openai.Reasoning {
	var r openai.Reasoning
	r.Array = segs
	return r
}

// replayMarkers are the markers reasoning is folded into content with: the
// configured reasoning parser's own when it has paired text markers
// ([THINK]…[/THINK], ◁think▷…◁/think▷, <mm:think>…</mm:think>), else
// <think>…</think>.
func (p *Preprocessor) replayMarkers() (string, string) {
	if info, ok := parsers.ReasoningParser(p.model.ReasoningParser); ok && !info.Framing && len(info.Starts) > 0 && len(info.Ends) > 0 &&
		strings.HasPrefix(info.Starts[0], "<") == strings.HasPrefix(info.Ends[0], "<") && info.Starts[0] != "" {
		return info.Starts[0], info.Ends[0]
	}
	return "<think>", "</think>"
}

// normalizeRoles rewrites a conversation for a template that rejects
// several system messages or consecutive user messages (see
// Template.NormalizeRoles). msgs is not modified.
func normalizeRoles(msgs []openai.Message) []openai.Message {
	out := make([]openai.Message, 0, len(msgs))
	text := func(m *openai.Message) string {
		c, _ := m.Content.Get()
		return openai.ContentText(c, "\n")
	}
	mergeable := func(m *openai.Message) bool {
		return len(m.ToolCalls) == 0 && m.ToolCallID == ""
	}
	for i := range msgs {
		m := msgs[i]
		if m.Role == openai.RoleDeveloper {
			m.Role = openai.RoleSystem
		}
		last := len(out) - 1
		switch {
		case m.Role == openai.RoleSystem && last >= 0 && out[last].Role == openai.RoleSystem && last == 0:
			out[last].Content = openai.TextContent(text(&out[last]) + "\n\n" + text(&m))
			continue
		case m.Role == openai.RoleSystem && last >= 0:
			m.Role = openai.RoleUser
		}
		if m.Role == openai.RoleUser && last >= 0 && out[last].Role == openai.RoleUser && mergeable(&out[last]) && mergeable(&m) {
			if hasImages(out[last:]) || hasImages([]openai.Message{m}) {
				out[last].Content = joinParts(out[last].Content, m.Content)
			} else {
				out[last].Content = openai.TextContent(text(&out[last]) + "\n\n" + text(&m))
			}
			continue
		}
		out = append(out, m)
	}
	return out
}

// joinParts joins two user contents of which one has images: the parts of
// a, "\n\n", the parts of b (a string content is one text part).
func joinParts(a, b protocols.Opt[openai.Content]) protocols.Opt[openai.Content] {
	var parts []openai.ContentPart
	add := func(o protocols.Opt[openai.Content]) {
		c, _ := o.Get()
		if c.IsArray() {
			parts = append(parts, c.Array...)
		} else if c.String != "" {
			parts = append(parts, openai.ContentPart{Type: openai.PartText, Text: c.String})
		}
	}
	add(a)
	parts = append(parts, openai.ContentPart{Type: openai.PartText, Text: "\n\n"})
	add(b)
	return protocols.Some(protocols.Array(parts...))
}
