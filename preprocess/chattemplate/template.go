package chattemplate

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/agentwire/agentwire/preprocess/chattemplate/internal/jinja"
)

// Render limits. A template is code from the model repository, so every
// render is bounded: at most MaxSteps statements and loop iterations, no
// string or output larger than MaxBytes, at most 4×MaxBytes of strings
// built in all, and macro/call-block nesting of at most MaxDepth. A render that exceeds one returns an error wrapping
// ErrLimit. Real chat templates stay far below: the 49 KB Claude Code
// request renders with the Qwen3 template in about two thousand steps.
const (
	MaxSteps = 1 << 20
	MaxBytes = 64 << 20
	MaxDepth = 64
)

// ErrLimit is wrapped by the error of a render that exceeded MaxSteps,
// MaxBytes or MaxDepth.
var ErrLimit = jinja.ErrLimit

// errInternal marks a recovered engine panic (a bug in the engine, never
// the template's fault).
var errInternal = errors.New("internal engine error")

// Options configure a template.
type Options struct {
	// Now is the clock strftime_now formats; nil means time.Now.
	Now func() time.Time
	// MaxSteps and MaxBytes override the render limits (0 means the
	// package's MaxSteps and MaxBytes).
	MaxSteps, MaxBytes int
	// ToolsCache is how many decoded tools lists the template keeps, keyed
	// by their JSON bytes: an agent harness sends the same tools every turn,
	// and decoding them is most of the cost of a render. 0 means 4; a
	// negative value turns the cache off. The sandbox forbids modifying a
	// dict, and every list method that modifies a list except pop and clear;
	// a template that may call those (jinja.Template.MayMutate) gets no
	// cache, so cached values are shared safely.
	ToolsCache int
}

// Template is a compiled chat template. It is safe for concurrent use by
// many goroutines.
type Template struct {
	src    string
	tmpl   *jinja.Template
	now    func() time.Time
	limits jinja.Limits
	tools  *valueCache // nil when off
}

// TemplateError is the error of a render stopped by the template itself
// through raise_exception(message). Message is the template's text, fit to be
// returned to the client (an HTTP 400).
type TemplateError struct {
	Message string
}

func (e *TemplateError) Error() string { return "chat template: " + e.Message }

// Parse compiles a chat template once; render it with Render as often as
// needed.
func Parse(source string, opts Options) (tmpl *Template, err error) {
	defer func() {
		if r := recover(); r != nil {
			tmpl, err = nil, fmt.Errorf("chattemplate: %w: %v", errInternal, r)
		}
	}()
	t, err := jinja.Compile(source)
	if err != nil {
		return nil, fmt.Errorf("chattemplate: %w", err)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	lim := jinja.Limits{MaxSteps: MaxSteps, MaxBytes: MaxBytes, MaxDepth: MaxDepth}
	if opts.MaxSteps > 0 {
		lim.MaxSteps = opts.MaxSteps
	}
	if opts.MaxBytes > 0 {
		lim.MaxBytes = opts.MaxBytes
	}
	tmpl = &Template{src: source, tmpl: t, now: now, limits: lim}
	switch {
	case t.MayMutate():
		// jinja2's sandbox lets a template pop from or clear a list; a
		// template that could must not see values shared between renders.
	case opts.ToolsCache == 0:
		tmpl.tools = &valueCache{max: 4}
	case opts.ToolsCache > 0:
		tmpl.tools = &valueCache{max: opts.ToolsCache}
	}
	return tmpl, nil
}

// Source returns the template text given to Parse.
func (t *Template) Source() string { return t.src }

// Input holds the template variables as JSON, so key order and number types
// (int vs float) are kept exactly as Python's json.loads keeps them.
//
// The render context is built the way transformers' apply_chat_template
// builds it: messages, tools (None when absent), documents (None when
// absent), add_generation_prompt, bos_token/eos_token/unk_token when set
// (an empty string means unset: the variable is undefined), and last every
// key of Kwargs, which overrides all of the above.
type Input struct {
	Messages                     json.RawMessage // JSON array
	Tools                        json.RawMessage // JSON array; nil or "null" → None, as transformers passes it
	Documents                    json.RawMessage // nil or "null" → None
	AddGenerationPrompt          bool
	BOSToken, EOSToken, UnkToken string
	Kwargs                       json.RawMessage // JSON object; keys become top-level variables and override all of the above
}

// Render renders the template for one input. Errors: *TemplateError when
// the template called raise_exception; an error wrapping ErrLimit when the
// render exceeded its bounds; other errors for invalid JSON input or a
// failure of the template (an undefined operation, a type error).
func (t *Template) Render(in Input) (out string, err error) {
	// The engine runs code from the model repository on request data; an
	// engine bug must fail the one render, never the process.
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("chattemplate: %w: %v", errInternal, r)
		}
	}()
	data := make(map[string]jinja.Value, 12)
	if data["messages"], err = decodeOr(in.Messages, jinja.Undefined()); err != nil {
		return "", fmt.Errorf("messages: %w", err)
	}
	if data["tools"], err = t.decodeTools(in.Tools); err != nil {
		return "", fmt.Errorf("tools: %w", err)
	}
	if data["documents"], err = decodeOr(in.Documents, jinja.None()); err != nil {
		return "", fmt.Errorf("documents: %w", err)
	}
	data["add_generation_prompt"] = jinja.NewBool(in.AddGenerationPrompt)
	for name, tok := range map[string]string{"bos_token": in.BOSToken, "eos_token": in.EOSToken, "unk_token": in.UnkToken} {
		if tok != "" {
			data[name] = jinja.NewString(tok)
		}
	}
	data["strftime_now"] = jinja.NewCallable("strftime_now", t.strftimeNow)
	if len(in.Kwargs) > 0 {
		kw, err := decodeJSON(in.Kwargs)
		if err != nil {
			return "", fmt.Errorf("kwargs: %w", err)
		}
		if !kw.IsNone() {
			if !kw.IsDict() {
				return "", errors.New("chattemplate: kwargs must be a JSON object")
			}
			d := kw.AsDict()
			for _, k := range d.Keys {
				data[k] = d.Data[k]
			}
		}
	}
	lim := t.limits
	lim.SizeHint = min(len(in.Messages)+len(in.Tools)+len(in.Documents)+1024, lim.MaxBytes)
	out, err = t.tmpl.RenderLimited(data, lim)
	if err != nil {
		var re *jinja.RaiseError
		if errors.As(err, &re) {
			return "", &TemplateError{Message: re.Message}
		}
		return "", fmt.Errorf("chattemplate: %w", err)
	}
	return out, nil
}

func decodeOr(raw json.RawMessage, absent jinja.Value) (jinja.Value, error) {
	if len(raw) == 0 {
		return absent, nil
	}
	v, err := decodeJSON(raw)
	if err != nil {
		return jinja.Undefined(), err
	}
	if v.IsNone() {
		return absent, nil
	}
	return v, nil
}

func (t *Template) strftimeNow(args []jinja.Value, _ map[string]jinja.Value) (jinja.Value, error) {
	if len(args) != 1 || !args[0].IsString() {
		return jinja.Undefined(), errors.New("strftime_now: expected one format string")
	}
	return jinja.NewString(jinja.Strftime(t.now(), args[0].AsString())), nil
}

// minCachedTools is the smallest tools JSON worth caching.
const minCachedTools = 1024

// decodeTools decodes the tools JSON, through the template's cache when the
// list is large enough to be worth it.
func (t *Template) decodeTools(raw json.RawMessage) (jinja.Value, error) {
	if t.tools == nil || len(raw) < minCachedTools {
		return decodeOr(raw, jinja.None())
	}
	if v, ok := t.tools.get(raw); ok {
		return v, nil
	}
	v, err := decodeOr(raw, jinja.None())
	if err == nil {
		t.tools.put(raw, v)
	}
	return v, err
}

// valueCache keeps the most recently used decoded JSON values by their
// bytes. Safe for concurrent use.
type valueCache struct {
	mu      sync.Mutex
	max     int
	entries []cacheEntry // most recent first
}

type cacheEntry struct {
	key string
	val jinja.Value
}

func (c *valueCache) get(raw []byte) (jinja.Value, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, e := range c.entries {
		if e.key == string(raw) {
			copy(c.entries[1:i+1], c.entries[:i])
			c.entries[0] = e
			return e.val, true
		}
	}
	return jinja.Undefined(), false
}

func (c *valueCache) put(raw []byte, v jinja.Value) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.key == string(raw) {
			return
		}
	}
	if len(c.entries) < c.max {
		c.entries = append(c.entries, cacheEntry{})
	}
	copy(c.entries[1:], c.entries[:len(c.entries)-1])
	c.entries[0] = cacheEntry{key: string(raw), val: v}
}
