package parserstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentwire/agentwire/parsers"
)

// Check names one class of checks Run applies to a case.
type Check string

// The checks, by the names fixture files use in "skip".
const (
	CheckExpected  Check = "expected"   // content, reasoning, calls and abandoned count as expected
	CheckChunking  Check = "chunking"   // the same events however the input is chunked
	CheckMarkup    Check = "markup"     // no marker in content or reasoning
	CheckLostBytes Check = "lost_bytes" // every non-marker byte reaches content or reasoning (streams without calls)
	CheckEvents    Check = "events"     // well-formed event sequences
	CheckAllocs    Check = "allocs"     // no allocation feeding the case again after Reset
)

// Checks lists every check, in the order Run applies them.
var Checks = []Check{CheckExpected, CheckChunking, CheckMarkup, CheckLostBytes, CheckEvents, CheckAllocs}

// File is one fixture file (see the package documentation for the format).
type File struct {
	Family           string            `json:"family"`
	Description      string            `json:"description"`
	ToolParsers      []string          `json:"tool_parsers"`
	ReasoningParsers []string          `json:"reasoning_parsers"`
	NotApplicable    map[string]string `json:"not_applicable"`
	Cases            []Case            `json:"cases"`

	// Path is the file the fixture was loaded from ("" if built in Go).
	Path string `json:"-"`
}

// Case is one model output and, optionally, what the parser must make of it.
type Case struct {
	Name        string          `json:"name"`
	ID          string          `json:"case,omitempty"` // optional case id
	Ref         string          `json:"ref,omitempty"`
	Input       string          `json:"input"`
	Chunks      []string        `json:"chunks,omitempty"` // the input as captured deltas (must join to Input)
	Tools       json.RawMessage `json:"tools,omitempty"`  // the request's tool definitions (parsers.ToolsFromJSON shapes)
	Options     Options         `json:"options"`
	Expected    *Expected       `json:"expected,omitempty"` // nil: check the invariants only
	AllowMarkup bool            `json:"allow_markup,omitempty"`
	// ToolParser and ReasoningParser override the file's lists for this
	// case ("-" means none). Run ignores them: its Config decides.
	ToolParser      string  `json:"tool_parser,omitempty"`
	ReasoningParser string  `json:"reasoning_parser,omitempty"`
	Skip            []Check `json:"skip,omitempty"` // checks not run for this case
}

// Options are the per-case parser options. Run applies them on top of its
// Config: a true flag or a non-zero limit wins.
type Options struct {
	InReasoning bool `json:"in_reasoning,omitempty"`
	WholeCalls  bool `json:"whole_calls,omitempty"`
	MaxBuffer   int  `json:"max_call_buffer,omitempty"`
}

// Expected is what the parser must make of a case's input.
type Expected struct {
	Content   string `json:"content"`
	Reasoning string `json:"reasoning"`
	Calls     []Call `json:"calls"`
	Abandoned int    `json:"abandoned,omitempty"` // calls started then abandoned while streaming
}

// Call is one expected complete tool call.
type Call struct {
	ID   string `json:"id,omitempty"` // compared only when set
	Name string `json:"name"`
	// Arguments is compared as a JSON value (object key order free).
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// ArgumentsText, when set, pins the exact text instead (compared after
	// json.Compact: key order, escapes and number spelling must match).
	ArgumentsText string `json:"arguments_text,omitempty"`
}

// NewCall returns an expected call of name whose arguments equal the JSON
// object arguments as a value (key order free).
func NewCall(name, arguments string) Call {
	return Call{Name: name, Arguments: json.RawMessage(arguments)}
}

// NewCase returns a case for a whole model output and its expected result.
func NewCase(name, input string, want Expected) Case {
	return Case{Name: name, Input: input, Expected: &want}
}

// FromDeltas returns a case for an output captured as the deltas an engine
// streamed; the deltas are also fed as they came. want may be nil: then
// only the invariants are checked.
func FromDeltas(name string, deltas []string, want *Expected) Case {
	return Case{Name: name, Input: strings.Join(deltas, ""), Chunks: slices.Clone(deltas), Expected: want}
}

// Load reads one fixture file. Unknown fields, unknown check names and
// chunks that do not join to the input are errors.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f.Path = path
	return f, nil
}

// Decode reads a fixture file's JSON text (see Load).
func Decode(data []byte) (*File, error) {
	f := new(File)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(f); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("parserstest: data after the fixture object")
	}
	for i := range f.Cases {
		if err := f.Cases[i].validate(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Glob loads every fixture file matching pattern (filepath.Glob). No match
// is an error, so a moved directory cannot pass silently.
func Glob(pattern string) ([]*File, error) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("parserstest: no fixture file matches %q", pattern)
	}
	files := make([]*File, 0, len(paths))
	for _, p := range paths {
		f, err := Load(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func (c *Case) validate() error {
	if len(c.Chunks) > 0 && strings.Join(c.Chunks, "") != c.Input {
		return fmt.Errorf("parserstest: case %q: chunks do not join to the input", c.Name)
	}
	for _, s := range c.Skip {
		if !slices.Contains(Checks, s) {
			return fmt.Errorf("parserstest: case %q: unknown check %q in skip (known: %v)", c.Name, s, Checks)
		}
	}
	return nil
}

// Configs returns the parser configurations the file's case runs with: each
// tool parser combined with each reasoning parser (the case's own names
// override the file's lists), with the case's tools and options applied.
func (f *File) Configs(c *Case) ([]parsers.Config, error) {
	tools := orNone(f.ToolParsers)
	if c.ToolParser != "" {
		tools = []string{c.ToolParser}
	}
	reasons := orNone(f.ReasoningParsers)
	if c.ReasoningParser != "" {
		reasons = []string{c.ReasoningParser}
	}
	var cfgs []parsers.Config
	for _, tp := range tools {
		for _, rp := range reasons {
			cfg, err := c.apply(parsers.Config{ToolParser: dash(tp), ReasoningParser: dash(rp)})
			if err != nil {
				return nil, err
			}
			cfgs = append(cfgs, cfg)
		}
	}
	return cfgs, nil
}

// apply puts the case's tools and options on top of cfg.
func (c *Case) apply(cfg parsers.Config) (parsers.Config, error) {
	if len(c.Tools) > 0 {
		tools, err := parsers.ToolsFromJSON(c.Tools)
		if err != nil {
			return cfg, fmt.Errorf("parserstest: case %q: tools: %w", c.Name, err)
		}
		cfg.Tools = tools
	}
	cfg.InReasoning = cfg.InReasoning || c.Options.InReasoning
	cfg.WholeCalls = cfg.WholeCalls || c.Options.WholeCalls
	if c.Options.MaxBuffer != 0 {
		cfg.MaxCallBuffer = c.Options.MaxBuffer
	}
	return cfg, nil
}

func orNone(names []string) []string {
	if len(names) == 0 {
		return []string{"-"}
	}
	return names
}

func dash(s string) string {
	if s == "-" {
		return ""
	}
	return s
}
