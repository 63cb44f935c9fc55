package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentwire/agentwire/preprocess/engine"
)

// tool is one declared tool as the prompt's <tools> block shows it.
type tool struct {
	Name        string
	Description string
	Parameters  json.RawMessage
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
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			Function    *struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if json.Unmarshal([]byte(line), &t) != nil {
			continue
		}
		if t.Function != nil {
			t.Name, t.Description, t.Parameters = t.Function.Name, t.Function.Description, t.Function.Parameters
		}
		if t.Name != "" {
			out = append(out, tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
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

// lastUserText returns the user's own words in the last user turn that
// has any: a turn that is not a tool result, without the blocks harnesses
// add to user turns (ownWords).
func (c *conversation) lastUserText() string {
	for i := len(c.turns) - 1; i >= 0; i-- {
		t := c.turns[i]
		if t.role == "user" && !strings.HasPrefix(strings.TrimSpace(t.body), toolResponse) {
			if own := ownWords(t.body); strings.TrimSpace(own) != "" {
				return own
			}
		}
	}
	return ""
}

// harnessBlocks are the tags whose blocks harnesses put into user turns
// besides the user's own words: reminders in Claude Code's
// <system-reminder> form (other harnesses use it too), Codex's
// <environment_context>, <user_instructions> and the <INSTRUCTIONS> of its
// project instructions file.
var harnessBlocks = []string{"system-reminder", "environment_context", "user_instructions", "INSTRUCTIONS", "system"}

// ownWords returns text without the harness blocks in it (an unclosed
// block runs to the end of the text).
func ownWords(text string) string {
	for _, tag := range harnessBlocks {
		open, end := "<"+tag+">", "</"+tag+">"
		for {
			i := strings.Index(text, open)
			if i < 0 {
				break
			}
			j := strings.Index(text[i:], end)
			if j < 0 {
				text = text[:i]
				break
			}
			text = text[:i] + text[i+j+len(end):]
		}
	}
	return text
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
// A prompt Answer refuses gets the refusal as its text.
func Script(prompt string) string {
	out, err := Answer(prompt)
	if err != nil {
		return err.Error()
	}
	return out
}

// Bounds of the arguments the agent builds from a tool's JSON schema. A
// schema is client input: "minItems": 100000000 must not make the server
// build a gigabyte of JSON. Arguments larger than MaxArgumentBytes, or
// nested deeper than maxSchemaDepth, are refused with ErrArgumentsTooLarge.
const (
	MaxArgumentBytes = 64 << 10
	maxSchemaDepth   = 8
)

// maxQuotedResults bounds how many tool results an answer quotes (each
// to about 400 bytes), so an answer stays small whatever the prompt.
const maxQuotedResults = 16

// ErrArgumentsTooLarge is wrapped by Answer's error when a tool's schema
// asks for arguments past MaxArgumentBytes.
var ErrArgumentsTooLarge = errors.New("scripted: the tool's schema asks for arguments larger than 64 KiB")

// Answer is Script with its refusals: a tool call whose schema demands
// arguments past MaxArgumentBytes is an error wrapping
// ErrArgumentsTooLarge, an *engine.Error of kind ErrorBadRequest (the
// server answers it as the API's 400).
func Answer(prompt string) (string, error) { return respond(prompt, nil) }

// VisionPlaceholder is what RenderChatML writes for an image part: the
// Qwen-VL chat templates' placeholder.
const VisionPlaceholder = "<|vision_start|><|image_pad|><|vision_end|>"

// maxImageNotes bounds the images an answer describes.
const maxImageNotes = 8

// imageNote acknowledges the prompt's images: their count (the
// placeholders in the prompt) and, for those images describes (the
// engine request's, in prompt order), type, dimensions and size.
func imageNote(prompt string, images []engine.Image) string {
	n := strings.Count(prompt, VisionPlaceholder)
	if n == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("I received " + strconv.Itoa(n) + " image")
	if n > 1 {
		b.WriteByte('s')
	}
	for i, img := range images {
		if i == maxImageNotes {
			b.WriteString(", …")
			break
		}
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString(", ")
		}
		kind := strings.ToUpper(strings.TrimPrefix(img.MediaType, "image/"))
		if kind == "" {
			kind = "remote image"
		}
		b.WriteString(kind)
		if img.Width > 0 {
			b.WriteString(" " + strconv.Itoa(img.Width) + "×" + strconv.Itoa(img.Height))
		}
		if img.Bytes > 0 {
			b.WriteString(" (" + strconv.Itoa(img.Bytes) + " bytes)")
		}
	}
	b.WriteByte('.')
	return b.String()
}

// respond is Answer with the engine request's images, which the answer
// acknowledges (imageNote).
func respond(prompt string, images []engine.Image) (string, error) {
	c := readPrompt(prompt)
	note := imageNote(prompt, images)
	var think, answer string
	user := c.lastUserText()
	switch results := c.toolResults(); {
	case results != nil:
		think = "The tool finished. I will report what it returned."
		var b strings.Builder
		b.WriteString("Done. The tool returned:\n\n")
		for i, r := range results {
			if i == maxQuotedResults {
				b.WriteString("\n\n… and " + strconv.Itoa(len(results)-i) + " more results.")
				break
			}
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString(quote(strings.ReplaceAll(r, VisionPlaceholder, "[image]"), 400))
		}
		if note != "" {
			b.WriteString("\n\n" + note)
		}
		answer = b.String()
	case len(c.tools) > 0 && imageCall(c.tools, user) != "":
		call := imageCall(c.tools, user)
		think = "The user wants me to look at an image file. I will read it."
		answer = callOpen + "\n" + call + "\n" + callClose
	case len(c.tools) > 0:
		t, ok := pickTool(c.tools, user)
		if !ok {
			think = "Every tool I was given starts another agent, and the user did not ask for one."
			answer = "I can only start another agent with the tools I have; say so if you want one."
			break
		}
		cmds := []string{"echo hello"}
		if mentions(user, "parallel") {
			cmds = append(cmds, "echo world")
		}
		think = "The user wants me to act. I will call the " + t.Name + " tool."
		var b strings.Builder
		for i, cmd := range cmds {
			if i > 0 {
				b.WriteByte('\n')
			}
			args, err := exampleArgs(t.Parameters, cmd, isShell(t.Name))
			if err != nil {
				return "", &engine.Error{Kind: engine.ErrorBadRequest, Status: 400,
					Message: "the scripted agent cannot call " + clip(t.Name, 64) + ": " + err.Error(), Err: err}
			}
			name, _ := json.Marshal(t.Name)
			b.WriteString(callOpen + "\n{\"name\": " + string(name) + ", \"arguments\": " + args + "}\n" + callClose)
		}
		answer = b.String()
	default:
		think = "The user said hello. I will greet them back."
		answer = "Hello! I am the agentwire scripted agent. You said: " + quote(strings.TrimSpace(user), 200)
		if note != "" {
			answer += "\n\n" + note
		}
	}
	switch c.reasoning {
	case thinkOff:
		return answer, nil
	case thinkOpened:
		return "\n" + think + "\n" + thinkClose + "\n\n" + answer, nil
	}
	return thinkOpen + "\n" + think + "\n" + thinkClose + "\n\n" + answer, nil
}

// shellNames are the names (lower case) of the harnesses' shell tools,
// preferred in this order: Bash (Claude Code), bash (OpenCode, pi),
// exec_command, shell_command, shell and local_shell (Codex),
// run_shell_command (Qwen Code, Gemini CLI), and a few generic names.
var shellNames = []string{"bash", "exec_command", "shell_command", "shell", "local_shell", "run_shell_command",
	"run_command", "execute_command", "run_terminal_cmd", "terminal"}

func isShell(name string) bool {
	return slices.Contains(shellNames, strings.ToLower(name))
}

// imageTools are the tools that read an image file into the conversation,
// by their lower-case name, with the argument that takes the path:
// Claude Code's Read (its result is an image block inside tool_result)
// and Codex's view_image (an input_image inside function_call_output).
var imageTools = []struct{ name, arg string }{{"read", "file_path"}, {"view_image", "path"}}

// imageExts are the file name endings imagePath takes for an image.
var imageExts = []string{".png", ".jpg", ".jpeg", ".gif", ".webp"}

// imagePath returns the first word of text that names an image file
// (quotes, backticks, a leading @ and trailing punctuation removed).
func imagePath(text string) string {
	for _, w := range strings.Fields(text) {
		w = strings.TrimRight(strings.Trim(w, "\"'`"), ".,;:!?)")
		w = strings.TrimPrefix(w, "@")
		lw := strings.ToLower(w)
		for _, ext := range imageExts {
			if strings.HasSuffix(lw, ext) && len(w) > len(ext) {
				return w
			}
		}
	}
	return ""
}

// imageCall is the hermes call body that reads the image file the user's
// words name with a declared image tool ("" when there is no such file or
// tool): the agent looks at the image, and the harness sends it back
// inside the tool result.
func imageCall(tools []tool, user string) string {
	path := imagePath(user)
	if path == "" {
		return ""
	}
	for _, it := range imageTools {
		for _, t := range tools {
			if strings.ToLower(t.Name) != it.name || !bytes.Contains(t.Parameters, []byte(`"`+it.arg+`"`)) {
				continue
			}
			name, _ := json.Marshal(t.Name)
			arg, _ := json.Marshal(it.arg)
			p, _ := json.Marshal(path)
			return "{\"name\": " + string(name) + ", \"arguments\": {" + string(arg) + ": " + string(p) + "}}"
		}
	}
	return ""
}

// agentNames are the names (lower case) of tools that start another agent:
// Task and Agent (Claude Code), agent and its older name task (Qwen Code),
// task (OpenCode), spawn_agent (Codex), delegate_to_agent (Gemini CLI).
// A tool whose description says it launches a subagent counts too.
var agentNames = []string{"task", "agent", "spawn_agent", "delegate_to_agent", "dispatch_agent", "subagent"}

// spawnsAgents reports whether calling t starts another agent (a harness
// that gets such a call from an agent that always calls a tool recurses
// without end).
func spawnsAgents(t tool) bool {
	if slices.Contains(agentNames, strings.ToLower(t.Name)) {
		return true
	}
	d := strings.ToLower(t.Description)
	return strings.Contains(d, "subagent") || strings.Contains(d, "sub-agent") || strings.Contains(d, "launch a new agent")
}

// pickTool prefers a shell tool, else the first declared tool that does
// not start another agent; a tool that does is picked only when the
// user's own words ask for it (name it, or say "subagent"). It reports
// false when no tool may be called.
func pickTool(tools []tool, user string) (tool, bool) {
	for _, s := range shellNames {
		for _, t := range tools {
			if strings.ToLower(t.Name) == s {
				return t, true
			}
		}
	}
	for _, t := range tools {
		if !spawnsAgents(t) {
			return t, true
		}
	}
	for _, t := range tools {
		if mentions(user, t.Name) || mentions(user, "subagent") || mentions(user, "sub-agent") {
			return t, true
		}
	}
	return tool{}, false
}

// mentions reports whether text contains word (ASCII case folded) with no
// letter, digit or underscore right before or after it.
func mentions(text, word string) bool {
	if word == "" {
		return false
	}
	lt, lw := strings.ToLower(text), strings.ToLower(word)
	for i := 0; ; {
		k := strings.Index(lt[i:], lw)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(lw)
		if (k == 0 || !wordByte(lt[k-1])) && (end == len(lt) || !wordByte(lt[end])) {
			return true
		}
		i = k + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || c >= 0x80
}

// exampleArgs returns minimal valid arguments for schema as compact JSON,
// properties in schema order: every required property, plus the command
// property of a shell tool (cmd: "echo hello", or ["echo","hello"] when
// the schema wants an array). Arguments past MaxArgumentBytes are an error
// wrapping ErrArgumentsTooLarge.
func exampleArgs(schema json.RawMessage, cmd string, shell bool) (string, error) {
	g := argsBuilder{cmd: cmd, shell: shell}
	g.object(schema, 0)
	if g.err != nil {
		return "", g.err
	}
	return g.b.String(), nil
}

// argsBuilder writes example arguments within MaxArgumentBytes.
type argsBuilder struct {
	b     bytes.Buffer
	cmd   string
	shell bool // the command property gets cmd (top level only)
	err   error
}

// write appends s unless the budget is spent.
func (g *argsBuilder) write(s string) bool {
	if g.err != nil {
		return false
	}
	if g.b.Len()+len(s) > MaxArgumentBytes {
		g.err = ErrArgumentsTooLarge
		return false
	}
	g.b.WriteString(s)
	return true
}

// object writes the object schema's required members (and, at the top
// level of a shell tool, its command).
func (g *argsBuilder) object(schema json.RawMessage, depth int) {
	var s struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil {
		g.write("{}")
		return
	}
	required := map[string]bool{}
	for _, r := range s.Required {
		required[r] = true
	}
	g.write("{")
	n := 0
	for _, p := range orderedMembers(s.Properties) {
		isCmd := depth == 0 && g.shell && (p.key == "command" || p.key == "cmd")
		if !required[p.key] && !isCmd {
			continue
		}
		if n > 0 {
			g.write(",")
		}
		n++
		k, _ := json.Marshal(p.key)
		g.write(string(k) + ":")
		switch {
		case isCmd && schemaType(p.value) == "array":
			v, _ := json.Marshal(strings.Fields(g.cmd))
			g.write(string(v))
		case isCmd:
			v, _ := json.Marshal(g.cmd)
			g.write(string(v))
		case p.key == "description":
			g.write(`"Print hello"`)
		default:
			g.value(p.value, depth+1)
		}
		if g.err != nil {
			return
		}
	}
	g.write("}")
}

// value writes a minimal value valid for schema: its const, first enum
// value or default, else by type (strings "hello", numbers 1, false,
// arrays of minItems example items, objects with their required members).
// Past maxSchemaDepth it writes null.
func (g *argsBuilder) value(schema json.RawMessage, depth int) {
	var s struct {
		Default  json.RawMessage   `json:"default"`
		Enum     []json.RawMessage `json:"enum"`
		Const    json.RawMessage   `json:"const"`
		AnyOf    []json.RawMessage `json:"anyOf"`
		OneOf    []json.RawMessage `json:"oneOf"`
		MinItems float64           `json:"minItems"`
		Items    json.RawMessage   `json:"items"`
	}
	if depth > maxSchemaDepth || json.Unmarshal(schema, &s) != nil {
		g.write("null")
		return
	}
	switch {
	case len(s.Const) > 0:
		g.write(string(s.Const))
		return
	case len(s.Enum) > 0:
		g.write(string(s.Enum[0]))
		return
	case len(s.Default) > 0:
		g.write(string(s.Default))
		return
	case len(s.AnyOf) > 0:
		g.value(s.AnyOf[0], depth+1)
		return
	case len(s.OneOf) > 0:
		g.value(s.OneOf[0], depth+1)
		return
	}
	switch schemaType(schema) {
	case "string":
		g.write(`"hello"`)
	case "integer", "number":
		g.write("1")
	case "boolean":
		g.write("false")
	case "array":
		g.write("[")
		if len(s.Items) > 0 {
			// Each item costs at least two bytes ("1,"): more items than
			// that leaves room for is refused without building them.
			if s.MinItems > MaxArgumentBytes/2 {
				g.err = ErrArgumentsTooLarge
				return
			}
			for i := 0; i < int(s.MinItems) && g.err == nil; i++ {
				if i > 0 {
					g.write(",")
				}
				g.value(s.Items, depth+1)
			}
		}
		g.write("]")
	case "object":
		g.object(schema, depth)
	case "null":
		g.write("null")
	default:
		g.write(`"hello"`)
	}
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
