package pipeline

import (
	"bytes"
	"strconv"
)

// The gates:
//
// PRE.4 (ResponsePlan.ShapeDetect). The output is held while it is only
// whitespace; its first other byte decides once: '[' or '{' sends the whole
// stream to the tool parser without the reasoning parser, anything else
// parses normally. With StripThinkFirst (mistral) a complete leading
// [THINK] is looked past for the decision, and dropped when the decision is
// JSON.
//
// PRE.6 (ResponsePlan.StripLeadingThink). The output is held while its
// left-trimmed text is empty or a strict prefix of "<think>"; one leading
// "<think>" is dropped with the whitespace before it; later ones are
// content. An undecided buffer is flushed unchanged at the end.

// gateKind is the gate that runs on the raw output before the parser
// (PRE.4 and PRE.6).
type gateKind uint8

const (
	gateOff   gateKind = iota // no gate: the output goes straight to the parser
	gateThink                 // PRE.6: strip one leading <think>
	gateShape                 // PRE.4: decide the output shape from its first non-whitespace byte
)

func (k gateKind) String() string {
	switch k {
	case gateOff:
		return "off"
	case gateThink:
		return "strip <think>"
	case gateShape:
		return "shape detection"
	}
	return "gateKind(" + strconv.Itoa(int(k)) + ")"
}

var (
	thinkOpen   = []byte("<think>")
	mistralOpen = []byte("[THINK]")
)

// gate buffers the start of the output until a gate has decided, then
// passes everything through.
type gate struct {
	kind      gateKind
	stripMist bool // PRE.4 for mistral: look past a complete leading [THINK]
	decided   bool
	json      bool // gateShape decided: the output is bare JSON
	buf       []byte
}

func (g *gate) reset(kind gateKind, stripMistral bool) {
	g.kind, g.stripMist = kind, stripMistral
	g.decided = kind == gateOff
	g.json = false
	g.buf = g.buf[:0]
}

// push returns the text to pass on (possibly empty while undecided). The
// result aliases text or g's buffer until the next call.
func (g *gate) push(text []byte) []byte {
	if g.decided {
		return text
	}
	g.buf = append(g.buf, text...)
	if len(g.buf) > maxHeldSpace {
		// Bound the hold: decide on what there is.
		g.decided = true
		if g.kind == gateThink {
			if t := trimSpaceLeft(g.buf); bytes.HasPrefix(t, thinkOpen) {
				return t[len(thinkOpen):]
			}
		}
		return g.buf
	}
	t := trimSpaceLeft(g.buf)
	switch g.kind {
	case gateThink:
		if len(t) == 0 || len(t) < len(thinkOpen) && bytes.HasPrefix(thinkOpen, t) {
			return nil
		}
		g.decided = true
		if bytes.HasPrefix(t, thinkOpen) {
			return t[len(thinkOpen):]
		}
		return g.buf
	case gateShape:
		rest := t
		if g.stripMist {
			if len(t) < len(mistralOpen) && bytes.HasPrefix(mistralOpen, t) {
				return nil
			}
			if bytes.HasPrefix(t, mistralOpen) {
				rest = trimSpaceLeft(t[len(mistralOpen):])
			}
		}
		if len(rest) == 0 {
			return nil
		}
		g.decided = true
		if rest[0] == '[' || rest[0] == '{' {
			g.json = true
			return rest
		}
		return g.buf
	}
	g.decided = true
	return g.buf
}

// flush ends an undecided gate: the buffer passes unchanged.
func (g *gate) flush() []byte {
	if g.decided {
		return nil
	}
	g.decided = true
	return g.buf
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

func trimSpaceLeft(b []byte) []byte {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return b[i:]
}

func allSpace(b []byte) bool { return len(trimSpaceLeft(b)) == 0 }
