package scripted

import (
	"encoding/json"
	"strings"

	"github.com/agentwire/agentwire/protocols/openai"
)

// Markers of the ChatML/Qwen3 prompt format that RenderChatML writes and
// the Engine reads.
const (
	imStart       = "<|im_start|>"
	imEnd         = "<|im_end|>"
	toolsOpen     = "<tools>"
	toolsClose    = "</tools>"
	toolResponse  = "<tool_response>"
	toolRespClose = "</tool_response>"
	thinkOpen     = "<think>"
	thinkClose    = "</think>"
	callOpen      = "<tool_call>"
	callClose     = "</tool_call>"
)

// RenderOptions configure RenderChatML.
type RenderOptions struct {
	// DisableThinking appends the empty think block Qwen3's template
	// writes for enable_thinking=false: the model answers without
	// reasoning.
	DisableThinking bool
	// OmitTools renders no tool declarations (tool_choice none).
	OmitTools bool
}

// RenderChatML renders a chat request as a prompt in the ChatML format
// that Qwen3 models (hermes tool calls, <think> reasoning) are trained on:
// the system message with a <tools> block of one JSON tool per line,
// user and assistant turns between <|im_start|>ROLE and <|im_end|>,
// assistant reasoning in <think>…</think>, tool calls as
// <tool_call>{"name","arguments"}</tool_call>, tool results as
// <tool_response> blocks in a user turn, and the generation prompt
// <|im_start|>assistant. It is the tokenizer-free stand-in for a model
// directory's chat template (close to Qwen3's, not byte-exact: the
// embedded engines only need its structure); with a real model directory
// the request half renders the model's own template instead.
func RenderChatML(chat *openai.ChatRequest, opts RenderOptions) string {
	var b strings.Builder
	msgs := chat.Messages
	var system []string
	for len(msgs) > 0 && (msgs[0].Role == "system" || msgs[0].Role == "developer") {
		system = append(system, text(msgs[0]))
		msgs = msgs[1:]
	}
	if len(system) > 0 || (len(chat.Tools) > 0 && !opts.OmitTools) {
		b.WriteString(imStart + "system\n")
		b.WriteString(strings.Join(system, "\n\n"))
		if len(chat.Tools) > 0 && !opts.OmitTools {
			if len(system) > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString("# Tools\n\nYou may call one or more functions to assist with the user query.\n\n")
			b.WriteString("You are provided with function signatures within <tools></tools> XML tags:\n" + toolsOpen)
			for _, t := range chat.Tools {
				line, err := json.Marshal(t)
				if err != nil {
					continue
				}
				b.WriteByte('\n')
				b.Write(line)
			}
			b.WriteString("\n" + toolsClose + "\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n")
			b.WriteString(callOpen + "\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n" + callClose)
		}
		b.WriteString(imEnd + "\n")
	}
	for i := 0; i < len(msgs); i++ {
		m := msgs[i]
		switch m.Role {
		case "assistant":
			b.WriteString(imStart + "assistant\n")
			if r := openai.FlattenReasoning(m.ReasoningValue().Value()); r != "" {
				b.WriteString(thinkOpen + "\n" + strings.TrimSpace(r) + "\n" + thinkClose + "\n\n")
			}
			b.WriteString(text(m))
			for j, c := range m.ToolCalls {
				if j > 0 || text(m) != "" {
					b.WriteByte('\n')
				}
				args := strings.TrimSpace(string(c.Function.Arguments))
				if args == "" {
					args = "{}"
				}
				name, _ := json.Marshal(c.Function.Name)
				b.WriteString(callOpen + "\n{\"name\": " + string(name) + ", \"arguments\": " + args + "}\n" + callClose)
			}
			b.WriteString(imEnd + "\n")
		case "tool":
			b.WriteString(imStart + "user")
			for ; i < len(msgs) && msgs[i].Role == "tool"; i++ {
				b.WriteString("\n" + toolResponse + "\n" + text(msgs[i]) + "\n" + toolRespClose)
			}
			i--
			b.WriteString(imEnd + "\n")
		default:
			b.WriteString(imStart + m.Role + "\n" + text(m) + imEnd + "\n")
		}
	}
	b.WriteString(imStart + "assistant\n")
	if opts.DisableThinking {
		b.WriteString(thinkOpen + "\n\n" + thinkClose + "\n\n")
	}
	return b.String()
}

// text is m's text: the string, or its text parts joined with "\n", an
// image part written as Qwen-VL's placeholder (VisionPlaceholder).
func text(m openai.Message) string {
	c, ok := m.Content.Get()
	if !ok {
		return ""
	}
	if !c.IsArray() {
		return c.String
	}
	var b strings.Builder
	n := 0
	for _, p := range c.Array {
		var s string
		switch p.Type {
		case openai.PartText:
			s = p.Text
		case openai.PartImageURL:
			s = VisionPlaceholder
		default:
			continue
		}
		if n > 0 {
			b.WriteByte('\n')
		}
		n++
		b.WriteString(s)
	}
	return b.String()
}
