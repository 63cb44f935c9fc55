package preprocess

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentwire/agentwire/parsers"
	"github.com/agentwire/agentwire/preprocess/chattemplate"
	"github.com/agentwire/agentwire/tokenizers"
)

// Template names in tokenizer_config.json's list form. A model that ships a
// tool_use template renders requests with tools through it.
const (
	TemplateDefault = "default"
	TemplateToolUse = "tool_use"
)

// ModelOptions override what LoadModel reads from the directory. Zero
// values mean "from the directory".
type ModelOptions struct {
	// ToolParser and ReasoningParser replace the model-family table's
	// choice. "none" disables that parser.
	ToolParser      string
	ReasoningParser string

	// ChatTemplate replaces the directory's template(s) with one default
	// template (the text, not a file name).
	ChatTemplate string

	// TokenizerFile is the tokenizer to load instead of DIR/tokenizer.json
	// (a tiktoken.model is found on its own).
	TokenizerFile string

	// ContextLength replaces the context length from config.json.
	ContextLength int

	// Now is the clock of the templates' strftime_now (nil: time.Now).
	Now func() time.Time
}

// Model is a loaded Hugging Face model directory: its tokenizer, chat
// templates, special tokens, EOS ids, context length and parser names. It
// is immutable after LoadModel and safe for concurrent use.
type Model struct {
	// Dir is the directory loaded; Name its base name.
	Dir, Name string

	// Tokenizer encodes prompts and decodes generated ids.
	Tokenizer *tokenizers.BPE

	// Templates are the chat templates by name (TemplateDefault, and
	// TemplateToolUse or others when the model ships a list).
	Templates map[string]*Template

	// BOS, EOS and UNK are the token strings of tokenizer_config.json
	// ("" when unset); they are the templates' bos_token etc.
	BOS, EOS, UNK string

	// EOSIDs are the ids that end generation: generation_config.json's
	// eos_token_id (int or list) and the id of EOS, deduplicated, in that
	// order.
	EOSIDs []uint32

	// ContextLength is the maximum sequence length (prompt + output) from
	// config.json (max_position_embeddings and its variants, also inside
	// text_config), else tokenizer_config.json's model_max_length when
	// plausible; 0 means unknown (no context check).
	ContextLength int

	// ModelType and Architectures are config.json's.
	ModelType     string
	Architectures []string

	// Vision says the model takes images: its config.json has a
	// vision_config (Qwen-VL, Gemma 3/4, Kimi K2.5, Mistral 3, Llama 4,
	// LFM2-VL, GLM-V) or an image token id. A text-only model refuses
	// requests with images (engine.ErrNoImages).
	Vision bool

	// ToolParser and ReasoningParser are the parser names for this model
	// (the family table's, unless ModelOptions overrode them); "" for none.
	ToolParser, ReasoningParser string

	// Family is the family-table row that matched ("" when none did).
	Family string

	prefix prefixRules
}

// Template is one named chat template with what was learnt from its text
// at load time.
type Template struct {
	Name string
	*chattemplate.Template

	// HandlesReasoning: the template reads earlier turns' reasoning
	// itself, from the message key ReasoningKey ("reasoning_content", or
	// "thinking" for gpt-oss's template), so it is passed through rather
	// than folded into content (reasoning replay).
	HandlesReasoning bool
	ReasoningKey     string

	// ReasoningLead and ReasoningTrail are the whitespace the template
	// itself writes right before and after an assistant turn's reasoning
	// (Nemotron 3: "<think>\n" + r + "\n</think>"; Gemma 4: "thought\n" +
	// r + "\n<channel|>"), found by rendering a probe at load time. The
	// model wrote that whitespace too, so the reasoning a parser hands the
	// client carries it; replay removes one occurrence at each end before
	// the template adds its own, so the template reproduces the model's
	// bytes rather than doubling the newline.
	ReasoningLead, ReasoningTrail string

	// ArgumentsAsString: the template branches on `arguments is string`,
	// so tool-call arguments are passed as the client's JSON string.
	ArgumentsAsString bool

	// NormalizeRoles: a probe at load time showed the template rejects
	// (raise_exception) a conversation with several system messages or
	// consecutive user messages, so such conversations are normalised
	// before rendering: a leading run of system messages is merged into
	// one, later system messages become user messages, and consecutive
	// user messages are joined (with "\n\n").
	NormalizeRoles bool

	// ShortToolIDs: a probe at load time showed the template raises on a
	// tool-call id that is not 9 ASCII letters and digits (the Mistral
	// templates of the mistral-common v3 era) while it accepts one that
	// is, so every other id is replaced by shortToolID's (a call and its
	// result alike) before rendering: Anthropic's toolu_ ids and OpenAI's
	// call_ ids no longer make the template raise.
	ShortToolIDs bool

	// efforts is what a probe at load time learnt about the template's
	// reasoning_effort: the values it knows and how every value of the
	// APIs' ladder maps onto them (see Effort).
	efforts effortSupport

	// RejectedThinkingModes are the values of thinkingModes a probe at
	// load time showed the template raises on; such a thinking_mode is
	// left out of a request's arguments (clampThinkingMode).
	RejectedThinkingModes []string

	// ImagePlaceholder is the text the template writes for an image part
	// of a user message ("<|vision_start|><|image_pad|><|vision_end|>",
	// "[IMG]", "<|image|>", …), found by a probe at load time; "" when it
	// writes none (the model cannot be sent images). ToolImages: it also
	// writes it for an image part of a tool message (Qwen-VL, Kimi K3 and
	// LFM2-VL do; Gemma 4's and Mistral's templates drop them, so such
	// images are moved to a user message right after the tool results;
	// see liftToolImages).
	ImagePlaceholder string
	ToolImages       bool
}

// roleProbe is a conversation real harnesses send (Claude Code: system
// text inside messages; Codex: consecutive user messages) that some
// templates reject.
const roleProbe = `[{"role":"system","content":"a"},{"role":"system","content":"b"},{"role":"user","content":"c"},{"role":"user","content":"d"},{"role":"assistant","content":"e"},{"role":"system","content":"f"},{"role":"user","content":"g"}]`

func newTemplate(name, src string, now func() time.Time) (*Template, error) {
	t, err := chattemplate.Parse(src, chattemplate.Options{Now: now})
	if err != nil {
		return nil, fmt.Errorf("chat template %q: %w", name, err)
	}
	tm := &Template{
		Name:              name,
		Template:          t,
		ArgumentsAsString: strings.Contains(src, "arguments is string") || strings.Contains(src, "arguments is not string"),
	}
	switch {
	case strings.Contains(src, "reasoning_content"):
		tm.HandlesReasoning, tm.ReasoningKey = true, "reasoning_content"
	case strings.Contains(src, "message.thinking") || strings.Contains(src, `"thinking" in message`) || strings.Contains(src, `message['thinking']`):
		tm.HandlesReasoning, tm.ReasoningKey = true, "thinking"
	}
	if tm.HandlesReasoning {
		tm.ReasoningLead, tm.ReasoningTrail = reasoningSeparators(t, tm.ReasoningKey)
	}
	_, err = t.Render(chattemplate.Input{Messages: json.RawMessage(roleProbe), AddGenerationPrompt: true})
	var te *chattemplate.TemplateError
	tm.NormalizeRoles = errors.As(err, &te)
	tm.ShortToolIDs = probeShortToolIDs(t)
	tm.efforts = probeEfforts(t)
	tm.RejectedThinkingModes = probeThinkingModes(t)
	tm.ImagePlaceholder, tm.ToolImages = probeImages(t)
	return tm, nil
}

// probeImages renders a user message with text, an image part and text,
// and the same without the image: what the image added (less the
// separator the template writes between parts) is the placeholder. A
// tool result with an image part then shows whether tool messages render
// images.
func probeImages(t *chattemplate.Template) (placeholder string, tool bool) {
	const a, b = "Zq7imgA", "Zq7imgB"
	between := func(msgs string) (string, bool) {
		out, err := t.Render(chattemplate.Input{Messages: json.RawMessage(msgs), AddGenerationPrompt: true})
		i, j := strings.Index(out, a), strings.LastIndex(out, b)
		if err != nil || i < 0 || j < i {
			return "", false
		}
		return out[i+len(a) : j], true
	}
	with, ok1 := between(`[{"role":"user","content":[{"type":"text","text":"` + a + `"},{"type":"image"},{"type":"text","text":"` + b + `"}]}]`)
	without, ok2 := between(`[{"role":"user","content":[{"type":"text","text":"` + a + `"},{"type":"text","text":"` + b + `"}]}]`)
	if !ok1 || !ok2 {
		return "", false
	}
	placeholder = strings.TrimSpace(strings.Replace(with, without, "", 1))
	if placeholder == "" || strings.Contains(with, "type") {
		return "", false // no placeholder, or the parts printed as a list
	}
	out, err := t.Render(chattemplate.Input{Messages: json.RawMessage(`[{"role":"user","content":"u"},` +
		`{"role":"assistant","content":"","tool_calls":[{"id":"abcDEF123","type":"function","function":{"name":"f","arguments":{}}}]},` +
		`{"role":"tool","tool_call_id":"abcDEF123","name":"f","content":[{"type":"text","text":"x"},{"type":"image"}]}]`), AddGenerationPrompt: true})
	return placeholder, err == nil && strings.Contains(out, placeholder)
}

// reasoningProbe is the reasoning of the probe reasoningSeparators renders.
const reasoningProbe = "Zq7reasoningZq7"

// reasoningSeparators renders an assistant turn whose reasoning is a probe
// word (with thinking switched on where the template has a switch) and
// returns the whitespace the template writes right before and after it.
func reasoningSeparators(t *chattemplate.Template, key string) (lead, trail string) {
	r := `,` + strconv.Quote(key) + `:"` + reasoningProbe + `"`
	probes := []string{
		// an answer, and a tool call (templates such as Gemma 4's render
		// reasoning only before calls)
		`[{"role":"user","content":"u"},{"role":"assistant","content":"c"` + r + `}]`,
		`[{"role":"user","content":"u"},{"role":"assistant","content":""` + r + `,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":{}}}]},{"role":"tool","tool_call_id":"c1","name":"f","content":"x"}]`,
	}
	for _, msgs := range probes {
		for _, kw := range []string{"", `{"enable_thinking":true,"thinking":true,"truncate_history_thinking":false,"clear_thinking":false}`} {
			in := chattemplate.Input{Messages: json.RawMessage(msgs)}
			if kw != "" {
				in.Kwargs = json.RawMessage(kw)
			}
			out, err := t.Render(in)
			i := strings.Index(out, reasoningProbe)
			if err != nil || i < 0 {
				continue
			}
			before, after := out[:i], out[i+len(reasoningProbe):]
			lead = before[len(strings.TrimRight(before, " \t\r\n")):]
			trail = after[:len(after)-len(strings.TrimLeft(after, " \t\r\n"))]
			return lead, trail
		}
	}
	return "", ""
}

// Template returns the template for a request: tool_use when the request
// has tools and the model ships one, else default (nil if the model has no
// template at all).
func (m *Model) Template(tools bool) *Template {
	if tools {
		if t := m.Templates[TemplateToolUse]; t != nil {
			return t
		}
	}
	if t := m.Templates[TemplateDefault]; t != nil {
		return t
	}
	for _, name := range slices.Sorted(mapsKeys(m.Templates)) {
		return m.Templates[name]
	}
	return nil
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// maxConfigFile bounds the JSON configuration files read (tokenizer.json
// is read by the tokenizers package).
const maxConfigFile = 16 << 20

// LoadModel loads the model directory dir. tokenizer.json (or
// tiktoken.model) is required; tokenizer_config.json, chat_template.jinja,
// chat_template.json, generation_config.json and config.json are read
// when present. Parser names come from the model-family table (see
// familyTable) unless opts sets them; an unknown parser name, or a tool and
// a reasoning parser that cannot run together (parsers.ErrParserCombination),
// is an error.
func LoadModel(dir string, opts ModelOptions) (*Model, error) {
	m := &Model{Dir: dir, Name: filepath.Base(filepath.Clean(dir)), Templates: map[string]*Template{}}

	tokPath := opts.TokenizerFile
	if tokPath == "" {
		tokPath = filepath.Join(dir, "tokenizer.json")
		if _, err := os.Stat(tokPath); errors.Is(err, fs.ErrNotExist) {
			if _, err2 := os.Stat(filepath.Join(dir, "tiktoken.model")); err2 == nil {
				tokPath = filepath.Join(dir, "tiktoken.model")
			}
		}
	}
	tok, err := tokenizers.LoadFile(tokPath)
	if err != nil {
		return nil, fmt.Errorf("preprocess: %w", err)
	}
	m.Tokenizer = tok
	m.prefix = newPrefixRules(tok)

	var tc tokenizerConfig
	if err := readJSON(filepath.Join(dir, "tokenizer_config.json"), &tc); err != nil {
		return nil, err
	}
	m.BOS, m.EOS, m.UNK = tc.BOS.Content, tc.EOS.Content, tc.UNK.Content

	templates := map[string]string{}
	for _, t := range tc.ChatTemplate.list {
		templates[t.Name] = t.Template
	}
	if tc.ChatTemplate.text != "" {
		templates[TemplateDefault] = tc.ChatTemplate.text
	}
	var ctj struct {
		ChatTemplate namedTemplates `json:"chat_template"`
	}
	if err := readJSON(filepath.Join(dir, "chat_template.json"), &ctj); err != nil {
		return nil, err
	}
	if ctj.ChatTemplate.text != "" {
		templates[TemplateDefault] = ctj.ChatTemplate.text
	}
	if b, err := readFile(filepath.Join(dir, "chat_template.jinja")); err != nil {
		return nil, err
	} else if b != nil {
		templates[TemplateDefault] = string(b)
	}
	if opts.ChatTemplate != "" {
		templates = map[string]string{TemplateDefault: opts.ChatTemplate}
	}
	for name, src := range templates {
		t, err := newTemplate(name, src, opts.Now)
		if err != nil {
			return nil, fmt.Errorf("preprocess: %s: %w", dir, err)
		}
		m.Templates[name] = t
	}

	var gc struct {
		EOS intOrList `json:"eos_token_id"`
	}
	if err := readJSON(filepath.Join(dir, "generation_config.json"), &gc); err != nil {
		return nil, err
	}
	var cfg modelConfig
	if err := readJSON(filepath.Join(dir, "config.json"), &cfg); err != nil {
		return nil, err
	}
	for _, id := range append(gc.EOS, cfg.EOS...) {
		if id >= 0 && id <= math.MaxUint32 && !slices.Contains(m.EOSIDs, uint32(id)) {
			m.EOSIDs = append(m.EOSIDs, uint32(id))
		}
	}
	if m.EOS != "" {
		if id, ok := tok.TokenToID(m.EOS); ok && !slices.Contains(m.EOSIDs, id) {
			m.EOSIDs = append(m.EOSIDs, id)
		}
	}

	m.ModelType, m.Architectures = cfg.ModelType, cfg.Architectures
	m.Vision = len(cfg.VisionConfig) > 0 && string(cfg.VisionConfig) != "null" || cfg.ImageTokenID != nil || cfg.ImageTokenIndex != nil
	m.ContextLength = cfg.contextLength()
	if m.ContextLength == 0 && tc.ModelMaxLength > 0 && tc.ModelMaxLength < 1<<30 {
		m.ContextLength = int(tc.ModelMaxLength)
	}
	if opts.ContextLength > 0 {
		m.ContextLength = opts.ContextLength
	}

	if f, ok := lookupFamily(m.ModelType, m.Architectures, m.Name); ok {
		m.Family, m.ToolParser, m.ReasoningParser = f.Name, f.ToolParser, f.ReasoningParser
	}
	if opts.ToolParser != "" {
		m.ToolParser = opts.ToolParser
	}
	if opts.ReasoningParser != "" {
		m.ReasoningParser = opts.ReasoningParser
	}
	if m.ToolParser == "none" {
		m.ToolParser = ""
	}
	if m.ReasoningParser == "none" {
		m.ReasoningParser = ""
	}
	if m.ToolParser != "" {
		if _, ok := parsers.ToolParser(m.ToolParser); !ok {
			return nil, fmt.Errorf("preprocess: unknown tool parser %q (known: %s)", m.ToolParser, strings.Join(parsers.ToolParsers(), ", "))
		}
	}
	if m.ReasoningParser != "" {
		if _, ok := parsers.ReasoningParser(m.ReasoningParser); !ok {
			return nil, fmt.Errorf("preprocess: unknown reasoning parser %q (known: %s)", m.ReasoningParser, strings.Join(parsers.ReasoningParsers(), ", "))
		}
	}
	// The parsers module decides which pairs run together (a grammar that
	// frames the whole output takes only its own counterpart): a pair it
	// refuses would fail every request with tools, so it fails the load.
	if m.ToolParser != "" && m.ReasoningParser != "" {
		if _, err := parsers.New(parsers.Config{ToolParser: m.ToolParser, ReasoningParser: m.ReasoningParser}); err != nil {
			return nil, fmt.Errorf("preprocess: %s: %w", dir, err)
		}
	}
	return m, nil
}

// readFile returns the file's bytes, nil when it does not exist.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("preprocess: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("preprocess: %w", err)
	}
	if st.Size() > maxConfigFile {
		return nil, fmt.Errorf("preprocess: %s: larger than %d bytes", path, maxConfigFile)
	}
	b := make([]byte, st.Size())
	if _, err := f.ReadAt(b, 0); err != nil && st.Size() > 0 {
		return nil, fmt.Errorf("preprocess: %w", err)
	}
	return b, nil
}

// readJSON decodes the file into v; a missing file leaves v untouched.
func readJSON(path string, v any) error {
	b, err := readFile(path)
	if err != nil || b == nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("preprocess: %s: %w", path, err)
	}
	return nil
}

type tokenizerConfig struct {
	ChatTemplate   namedTemplates `json:"chat_template"`
	BOS            addedToken     `json:"bos_token"`
	EOS            addedToken     `json:"eos_token"`
	UNK            addedToken     `json:"unk_token"`
	ModelMaxLength float64        `json:"model_max_length"`
}

// addedToken reads a token given as a string or as an AddedToken object
// ({"content": …}); null leaves it empty.
type addedToken struct{ Content string }

func (t *addedToken) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &t.Content)
	}
	var v struct {
		Content string `json:"content"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("token: want a string or an object with content: %w", err)
	}
	t.Content = v.Content
	return nil
}

// namedTemplates reads chat_template as a string or as a list of
// {"name","template"}.
type namedTemplates struct {
	text string
	list []struct {
		Name     string `json:"name"`
		Template string `json:"template"`
	}
}

func (n *namedTemplates) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &n.text)
	}
	if err := json.Unmarshal(b, &n.list); err != nil {
		return fmt.Errorf("chat_template: want a string or a list of {name, template}: %w", err)
	}
	return nil
}

// intOrList reads an int or a list of ints (eos_token_id).
type intOrList []int64

func (l *intOrList) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		return nil
	case len(b) > 0 && b[0] == '[':
		var v []int64
		err := json.Unmarshal(b, &v)
		*l = v
		return err
	}
	var v int64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*l = intOrList{v}
	return nil
}

type modelConfig struct {
	ModelType     string    `json:"model_type"`
	Architectures []string  `json:"architectures"`
	EOS           intOrList `json:"eos_token_id"`
	// VisionConfig and the image token ids mark a vision model.
	VisionConfig    json.RawMessage `json:"vision_config"`
	ImageTokenID    *int64          `json:"image_token_id"`
	ImageTokenIndex *int64          `json:"image_token_index"`
	lengths         lengthFields    // embedded fields below
	TextConfig      *struct {
		lengthFields
		ModelType string `json:"model_type"`
	} `json:"text_config"`
}

// lengthFields are the config.json members that give the context length,
// in order of preference.
type lengthFields struct {
	MaxPositionEmbeddings int `json:"max_position_embeddings"`
	MaxSequenceLength     int `json:"max_sequence_length"`
	MaxSeqLen             int `json:"max_seq_len"`
	SeqLength             int `json:"seq_length"`
	NPositions            int `json:"n_positions"`
	ModelMaxLength        int `json:"model_max_length"`
}

func (l lengthFields) value() int {
	for _, v := range []int{l.MaxPositionEmbeddings, l.MaxSequenceLength, l.MaxSeqLen, l.SeqLength, l.NPositions, l.ModelMaxLength} {
		if v > 0 {
			return v
		}
	}
	return 0
}

func (c *modelConfig) UnmarshalJSON(b []byte) error {
	type plain modelConfig
	if err := json.Unmarshal(b, (*plain)(c)); err != nil {
		return err
	}
	return json.Unmarshal(b, &c.lengths)
}

func (c *modelConfig) contextLength() int {
	if v := c.lengths.value(); v > 0 {
		return v
	}
	if c.TextConfig != nil {
		return c.TextConfig.value()
	}
	return 0
}
