package scripted

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tool is one declared tool as the prompt's <tools> block shows it.
type tool struct {
	Name       string
	Parameters json.RawMessage
}

// turn is one <|im_start|>ROLE … <|im_end|> block of the prompt.
type turn struct {
	role, body string
}

// conversation is what the scripted agent reads from a prompt.
type conversation struct {
	tools []tool
	turns []turn
	// reasoning: the generation prompt leaves reasoning to the model
	// (thinkFull), opened it already (thinkOpened, PRE.3), or closed an
	// empty block (thinkOff: thinking disabled).
	reasoning int
}

const (
	thinkFull = iota
	thinkOpened
	thinkOff
)

// readPrompt parses a ChatML prompt. Text outside the blocks is ignored.
func readPrompt(prompt string) conversation {
	var c conversation
	parts := strings.Split(prompt, imStart)
	for i, p := range parts[1:] {
		role, body, _ := strings.Cut(p, "\n")
		body, closed := strings.CutSuffix(strings.TrimRight(body, "\n"), imEnd)
		if !closed {
			if k := strings.Index(body, imEnd); k >= 0 {
				body, closed = body[:k], true
			}
		}
		if i == len(parts)-2 && !closed && role == "assistant" {
			switch t := strings.TrimSpace(body); {
			case strings.Contains(t, thinkClose):
				c.reasoning = thinkOff
			case strings.HasSuffix(t, thinkOpen):
				c.reasoning = thinkOpened
			}
			break
		}
		c.turns = append(c.turns, turn{role: role, body: body})
		if role == "system" {
			c.tools = append(c.tools, readTools(body)...)
		}
	}
	return c
}

func readTools(system string) []tool {
	// the block starts on its own line ("<tools></tools>" in the prose
	// before it is not the block)
	_, rest, ok := strings.Cut(system, toolsOpen+"\n")
	if !ok {
		return nil
	}
	block, _, _ := strings.Cut(rest, "\n"+toolsClose)
	var out []tool
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		var t struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
			Function   *struct {
				Name       string          `json:"name"`
				Parameters json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if json.Unmarshal([]byte(line), &t) != nil {
			continue
		}
		if t.Function != nil {
			t.Name, t.Parameters = t.Function.Name, t.Function.Parameters
		}
		if t.Name != "" {
			out = append(out, tool{Name: t.Name, Parameters: t.Parameters})
		}
	}
	return out
}

// lastTurn returns the last turn before the generation prompt.
func (c *conversation) lastTurn() turn {
	if len(c.turns) == 0 {
		return turn{}
	}
	return c.turns[len(c.turns)-1]
}

// lastUserText returns the last user turn that is not a tool result.
func (c *conversation) lastUserText() string {
	for i := len(c.turns) - 1; i >= 0; i-- {
		t := c.turns[i]
		if t.role == "user" && !strings.HasPrefix(strings.TrimSpace(t.body), toolResponse) {
			return t.body
		}
	}
	return ""
}

// toolResults returns the tool results of the last turn, if it is one.
func (c *conversation) toolResults() []string {
	t := c.lastTurn()
	if t.role == "tool" {
		return []string{t.body}
	}
	if t.role != "user" || !strings.HasPrefix(strings.TrimSpace(t.body), toolResponse) {
		return nil
	}
	var out []string
	rest := t.body
	for {
		_, after, ok := strings.Cut(rest, toolResponse)
		if !ok {
			return out
		}
		body, tail, _ := strings.Cut(after, toolRespClose)
		out = append(out, strings.TrimSpace(body))
		rest = tail
	}
}

// Script is the scripted agent's decision, in model format: the text a
// Qwen3 model would generate (reasoning in <think>, hermes tool calls).
func Script(prompt string) string {
	c := readPrompt(prompt)
	var think, answer string
	switch results := c.toolResults(); {
	case results != nil:
		think = "The tool finished. I will report what it returned."
		var b strings.Builder
		b.WriteString("Done. The tool returned:\n\n")
		for i, r := range results {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(quote(r, 400))
		}
		answer = b.String()
	case len(c.tools) > 0:
		t := pickTool(c.tools)
		user := c.lastUserText()
		cmds := []string{"echo hello"}
		if strings.Contains(strings.ToLower(user), "parallel") {
			cmds = append(cmds, "echo world")
		}
		think = "The user wants me to act. I will call the " + t.Name + " tool."
		var b strings.Builder
		for i, cmd := range cmds {
			if i > 0 {
				b.WriteByte('\n')
			}
			name, _ := json.Marshal(t.Name)
			b.WriteString(callOpen + "\n{\"name\": " + string(name) + ", \"arguments\": " + exampleArgs(t.Parameters, cmd, isShell(t.Name)) + "}\n" + callClose)
		}
		answer = b.String()
	default:
		think = "The user said hello. I will greet them back."
		answer = "Hello! I am the agentwire scripted agent. You said: " + quote(strings.TrimSpace(c.lastUserText()), 200)
	}
	switch c.reasoning {
	case thinkOff:
		return answer
	case thinkOpened:
		return "\n" + think + "\n" + thinkClose + "\n\n" + answer
	}
	return thinkOpen + "\n" + think + "\n" + thinkClose + "\n\n" + answer
}

// shellNames are tool names (lower case) of shell-like tools, preferred
// in this order: Claude Code's Bash, Codex's exec_command and shell tools.
var shellNames = []string{"bash", "exec_command", "shell_command", "shell", "local_shell", "run_command", "terminal"}

func isShell(name string) bool {
	n := strings.ToLower(name)
	for _, s := range shellNames {
		if n == s {
			return true
		}
	}
	return false
}

// pickTool prefers a shell-like tool, else the first declared.
func pickTool(tools []tool) tool {
	for _, s := range shellNames {
		for _, t := range tools {
			if strings.ToLower(t.Name) == s {
				return t
			}
		}
	}
	return tools[0]
}

// exampleArgs returns minimal valid arguments for schema as compact JSON,
// properties in schema order: every required property, plus the command
// property of a shell tool (cmd: "echo hello", or ["echo","hello"] when
// the schema wants an array).
func exampleArgs(schema json.RawMessage, cmd string, shell bool) string {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return "{}"
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, p := range orderedMembers(s.Properties) {
		isCmd := shell && (p.key == "command" || p.key == "cmd")
		if !required[p.key] && !isCmd {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		k, _ := json.Marshal(p.key)
		b.Write(k)
		b.WriteByte(':')
		switch {
		case isCmd && schemaType(p.value) == "array":
			v, _ := json.Marshal(strings.Fields(cmd))
			b.Write(v)
		case isCmd:
			v, _ := json.Marshal(cmd)
			b.Write(v)
		case p.key == "description":
			b.WriteString(`"Print hello"`)
		default:
			b.WriteString(exampleValue(p.value, 0))
		}
	}
	b.WriteByte('}')
	return b.String()
}

type member struct {
	key   string
	value json.RawMessage
}

// orderedMembers returns an object's members in document order.
func orderedMembers(obj json.RawMessage) []member {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []member
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		key, _ := t.(string)
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return out
		}
		out = append(out, member{key, v})
	}
	return out
}

func schemaType(schema json.RawMessage) string {
	var s struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Type) == 0 {
		return ""
	}
	var one string
	if json.Unmarshal(s.Type, &one) == nil {
		return one
	}
	var many []string
	if json.Unmarshal(s.Type, &many) == nil {
		for _, t := range many {
			if t != "null" {
				return t
			}
		}
	}
	return ""
}

// exampleValue returns a minimal value valid for schema: its default or
// first enum value, else by type (strings "hello", numbers 1, false, empty
// arrays, objects with their required members).
func exampleValue(schema json.RawMessage, depth int) string {
	var s struct {
		Default  json.RawMessage   `json:"default"`
		Enum     []json.RawMessage `json:"enum"`
		Const    json.RawMessage   `json:"const"`
		AnyOf    []json.RawMessage `json:"anyOf"`
		OneOf    []json.RawMessage `json:"oneOf"`
		MinItems int               `json:"minItems"`
		Items    json.RawMessage   `json:"items"`
	}
	if json.Unmarshal(schema, &s) != nil || depth > 8 {
		return "null"
	}
	switch {
	case len(s.Const) > 0:
		return string(s.Const)
	case len(s.Enum) > 0:
		return string(s.Enum[0])
	case len(s.Default) > 0:
		return string(s.Default)
	case len(s.AnyOf) > 0:
		return exampleValue(s.AnyOf[0], depth+1)
	case len(s.OneOf) > 0:
		return exampleValue(s.OneOf[0], depth+1)
	}
	switch schemaType(schema) {
	case "string":
		return `"hello"`
	case "integer", "number":
		return "1"
	case "boolean":
		return "false"
	case "array":
		if s.MinItems > 0 && len(s.Items) > 0 {
			v := exampleValue(s.Items, depth+1)
			return "[" + strings.Repeat(v+",", s.MinItems-1) + v + "]"
		}
		return "[]"
	case "object":
		return exampleArgs(schema, "", false)
	case "null":
		return "null"
	}
	return `"hello"`
}

// unmark removes the format's markers from quoted text, so that quoting a
// user message or a tool result never makes markup the parsers would act
// on (a file with "<tool_call>" in it is quoted as text).
var unmark = strings.NewReplacer(thinkOpen, "", thinkClose, "", callOpen, "", callClose, "",
	imStart, "", imEnd, "", toolResponse, "", toolRespClose, "")

// quote returns s without markers (removed until none is left: removing
// one may join another), bounded to about n bytes.
func quote(s string, n int) string {
	if len(s) > 4*n {
		s = s[:4*n] // bounds the passes below
	}
	for {
		r := unmark.Replace(s)
		if r == s {
			return clip(s, n)
		}
		s = r
	}
}

// clip bounds s to n bytes at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
