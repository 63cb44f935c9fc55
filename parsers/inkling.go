package parsers

// Inkling markers (special tokens; PRE.1 keeps them).
const (
	ikModel    = "<|message_model|>"
	ikThinking = "<|content_thinking|>"
	ikText     = "<|content_text|>"
	ikInvoke   = "<|content_invoke_tool_json|>"
	ikRawTool  = "<|content_invoke_tool_text|>" // a tool invocation written as free text
	ikToolErr  = "<|content_tool_error|>"       // a tool-error block (the tool role's content kind)
	ikImage    = "<|content_image|>"
	ikAudio    = "<|content_audio_input|>"
	ikEnd      = "<|end_message|>"
	ikEndTurn  = "<|content_model_end_sampling|>"

	// ikMaxName bounds the bare block header (a tool name) held at the
	// start of a block before it is known to be a header.
	ikMaxName = 256
)

// Marker kinds (marker.arg) of the Inkling matcher.
const (
	ikkModel    = iota // a block header begins
	ikkThinking        // the block is reasoning
	ikkText            // the block is visible text
	ikkInvoke          // the block is a tool call (after its NAME header)
	ikkRawText         // text-mode invocation or tool error: the body is content, the header dropped
	ikkDrop            // image / audio placeholder block
	ikkEnd             // <|end_message|>, <|content_model_end_sampling|>
)

// inklingState is where the Inkling machine is in the output.
type inklingState uint8

const (
	ikStart    inklingState = iota // start of a block: a bare NAME header may follow
	ikVisible                      // visible text (content)
	ikThink                        // reasoning
	ikTool                         // tool block body: the JSON call object
	ikToolPost                     // after the tool body (or a broken one), up to the block end
	ikDropBody                     // placeholder block, up to the block end
)

var inklingStateNames = [...]string{"ikStart", "ikVisible", "ikThink", "ikTool", "ikToolPost", "ikDropBody"}

func (s inklingState) String() string { return enumName(inklingStateNames[:], s, "inklingState") }

// inkling is the thinkingmachines Inkling block machine (PARSER_CASES.md).
// It frames the whole output, so one machine serves the inkling tool parser
// and the inkling reasoning parser:
//
//	block = [ "<|message_model|>" ] ( "<|content_thinking|>" TEXT
//	        / "<|content_text|>" TEXT / NAME "<|content_invoke_tool_json|>" JSON
//	        / [ NAME ] "<|content_invoke_tool_text|>" TEXT
//	        / [ NAME ] "<|content_tool_error|>" TEXT
//	        / "<|content_image|>" … / "<|content_audio_input|>" … ) "<|end_message|>"
//
// The generation prompt consumes the first header, so the first block has
// none. Thinking blocks are reasoning, text blocks and marker-less text are
// content, placeholder blocks are dropped. A text-mode invocation
// (<|content_invoke_tool_text|>: arguments as free text, which no JSON
// arguments object can carry) and a tool-error block (<|content_tool_error|>,
// the tool role's content kind, written by the model) are shown as content,
// as vLLM renders them: their body is content, their marker and NAME header
// are markup. They are never calls (SGLang turns the first into a call with
// {"text": BODY}, which the tool's schema does not describe; smg drops it). A tool block's JSON object has
// "name" and "args" ("arguments" is accepted too); it is scanned
// string-aware, so <|end_message|> counts only after the object closed, and
// the call ends when the object closes (the block end may be missing at the
// end of the stream). The bare NAME before <|content_invoke_tool_json|> is a
// redundant header: name-like bytes at a block start are held (bounded)
// until a marker shows they are a header, and released as content as soon as
// a byte that cannot be in a name shows they are text. Stray framing tokens
// are removed. At Finish a held marker prefix is text only when it is "<" or
// "<|"; longer prefixes are the parser's and dropped.
//
// With calls off (the inkling reasoning parser without the tool parser) tool
// blocks pass through to content verbatim, the header re-inserted:
// <|message_model|>NAME<|content_invoke_tool_json|>{…}<|end_message|>.
type inkling struct {
	out   *sink
	calls bool
	ms    matcher

	// scanning state; reset by open(-1)
	st      inklingState
	name    []byte // ikStart: held name-like bytes
	preJSON bool   // ikTool (raw): before the object
	body    jsonCalls
	vs      jsonScan
}

func init() {
	registerFraming(&framingSpec{
		tool: ToolInfo{
			Openers: []string{ikInvoke},
			Closers: []string{ikEnd},
			Malformed: "a tool block whose body is not a call object (name and args) is dropped up to its block end, " +
				"an open call abandoned; bytes after the closed object are dropped; placeholder blocks and stray framing tokens are removed; " +
				"a text-mode invocation or tool-error block is no call: its body is content, its marker and header are removed",
			Truncated: "a closed call object is a call without its block end; a body cut mid-value is abandoned; " +
				"a held marker prefix longer than two bytes is dropped",
		},
		reasoning: inklingReasoning,
		build:     func(out *sink, calls bool) framingGrammar { return newInkling(out, calls) },
	}, []string{"inkling"}, []string{"inkling"})
}

// inklingReasoning is the inkling reasoning parser: the block machine, with
// tool calls when the inkling tool parser is configured, passing tool blocks
// through verbatim when no tool parser is.
var inklingReasoning = &reasoningSpec{
	name:       "inkling",
	starts:     []string{ikThinking},
	ends:       []string{ikEnd},
	toolStarts: []string{ikInvoke},
}

func newInkling(out *sink, calls bool) *inkling {
	return &inkling{
		out:   out,
		calls: calls,
		body:  jsonCalls{out: out, allowObject: true, argKeys: []string{"args", "arguments"}},
		ms: newMatcher(
			marker{text: ikModel, arg: ikkModel},
			marker{text: ikThinking, arg: ikkThinking},
			marker{text: ikText, arg: ikkText},
			marker{text: ikInvoke, arg: ikkInvoke},
			marker{text: ikRawTool, arg: ikkRawText},
			marker{text: ikToolErr, arg: ikkRawText},
			marker{text: ikImage, arg: ikkDrop},
			marker{text: ikAudio, arg: ikkDrop},
			marker{text: ikEnd, arg: ikkEnd},
			marker{text: ikEndTurn, arg: ikkEnd},
		),
	}
}

func (k *inkling) textMarkers() []marker { return nil }

// matchers: the block tokens are the whole markup.
func (k *inkling) matchers() []*matcher { return []*matcher{&k.ms} }

func (k *inkling) open(int) {
	k.st = ikStart
	if k.out.cfg.InReasoning {
		k.st = ikThink
	}
	k.name = k.name[:0]
}

func (k *inkling) reset() {
	k.open(-1)
	k.name = shrink(k.name)
	k.body.begin()
}

func (k *inkling) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if k.st == ikTool && k.calls {
		// The common chunk: the call object, usually all of b, without
		// the loop (scanTool's first case).
		n, r := k.body.feed(b)
		if r == jcMore {
			return n, blockMore
		}
		k.st, i = ikToolPost, n
	}
	for i < len(b) {
		var n int
		st := blockNext
		switch k.st {
		case ikTool:
			n, st = k.scanTool(b[i:])
		case ikStart:
			n, st = k.scanStart(b[i:], final)
		default:
			n, st = k.scanMarkers(b[i:], final)
		}
		i += n
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// finish ends the stream: held header bytes are content, an open call is
// abandoned.
func (k *inkling) finish() {
	k.releaseName()
	k.body.finish()
	k.open(-1)
}

// inklingNameByte reports whether c may be part of a bare tool-name header.
func inklingNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == ':' || c >= 0x80
}

// releaseName emits held header bytes as content: they were text.
func (k *inkling) releaseName() {
	if len(k.name) > 0 {
		k.out.contentCopy(k.name)
		k.name = k.name[:0]
	}
}

// scanStart holds name-like bytes at a block start until a marker or a
// non-name byte decides them.
func (k *inkling) scanStart(b []byte, final bool) (int, blockStatus) {
	i := 0
	for i < len(b) && inklingNameByte(b[i]) && len(k.name)+i < ikMaxName {
		i++
	}
	k.name = append(k.name, b[:i]...)
	if i == len(b) {
		return i, blockMore
	}
	if b[i] == '<' {
		mi, partial := k.ms.at(b[i:], final)
		if partial {
			return i, blockHold
		}
		if mi >= 0 {
			mk := &k.ms.ms[mi]
			switch mk.arg {
			case ikkInvoke:
				k.startTool(k.name)
				k.name = k.name[:0]
			case ikkRawText:
				k.name = k.name[:0] // the header: markup
				k.marker(mk)
			default:
				k.releaseName()
				k.marker(mk)
			}
			return i + len(mk.text), blockNext
		}
	}
	// Text: the held bytes were not a header.
	k.releaseName()
	k.st = ikVisible
	return i, blockNext
}

// scanMarkers handles text, thinking, the rest of a tool block and
// placeholder blocks.
func (k *inkling) scanMarkers(b []byte, final bool) (int, blockStatus) {
	pos, mi := k.ms.find(b, false)
	if mi < 0 && pos < len(b) && final && len(b)-pos > 2 {
		// A committed marker prefix at the end of the stream is the
		// parser's: dropped (only "<" and "<|" are text).
		k.text(b[:pos])
		return len(b), blockMore
	}
	if mi < 0 && final {
		pos = len(b)
	}
	k.text(b[:pos])
	if mi < 0 {
		return noMarker(b, pos)
	}
	mk := &k.ms.ms[mi]
	if k.st == ikToolPost && !k.calls && mk.text == ikEnd {
		k.out.content(b[pos : pos+len(mk.text)]) // the passed-through block's end
	}
	k.marker(mk)
	return pos + len(mk.text), blockNext
}

// text routes non-marker bytes.
func (k *inkling) text(b []byte) {
	if len(b) == 0 {
		return
	}
	switch k.st {
	case ikVisible:
		k.out.content(b)
	case ikThink:
		k.out.reasoning(b)
	case ikToolPost:
		if !k.calls {
			k.out.content(b)
		}
	}
}

// marker acts on a framing marker outside a tool body.
func (k *inkling) marker(mk *marker) {
	switch mk.arg {
	case ikkModel, ikkEnd:
		k.st = ikStart
		k.name = k.name[:0]
	case ikkThinking:
		k.st = ikThink
	case ikkText, ikkRawText:
		k.st = ikVisible
	case ikkDrop:
		k.st = ikDropBody
	case ikkInvoke:
		k.startTool(nil)
	}
}

// startTool begins a tool block after its NAME header.
func (k *inkling) startTool(name []byte) {
	k.st = ikTool
	if k.calls {
		k.body.begin()
		return
	}
	k.preJSON = true
	k.out.contentString(ikModel)
	k.out.contentCopy(name)
	k.out.contentString(ikInvoke)
}

// scanTool reads the tool body: the call object (string-aware).
func (k *inkling) scanTool(b []byte) (int, blockStatus) {
	if k.calls {
		n, r := k.body.feed(b)
		if r == jcMore {
			return n, blockMore // all of b
		}
		k.st = ikToolPost
		return n, blockNext
	}
	if k.preJSON {
		i := spaceLen(b)
		k.out.content(b[:i])
		switch {
		case i == len(b):
		case b[i] == '{':
			k.preJSON = false
			k.vs.reset()
		default:
			k.st = ikToolPost // not an object
		}
		return i, blockNext
	}
	n, r := k.vs.scan(b)
	k.out.content(b[:n])
	switch r {
	case scanMore:
		return n, blockMore // all of b
	case scanDone, scanErr:
		k.st = ikToolPost
	}
	return n, blockNext
}
