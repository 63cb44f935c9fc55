package parsers

import "bytes"

// Muse Glimmer markers: special tokens of the model's tokenizer, kept in the
// text by PRE.1 (skip_special_tokens=false).
const (
	mgStart   = "<|start|>"
	mgMessage = "<|message|>"
	mgEOM     = "<|eom|>"
	mgEOT     = "<|eot|>"

	mgCallsOpen = "<atem:function_calls>"
	mgSelf      = "self"
	mgUser      = "user"
	mgRole      = "assistant"
	mgTo        = "to="
)

// Bounds of what the Muse Glimmer machine holds undecided.
const (
	mgHeaderMax = 256 // a header, from <|start|> (or the lead) to <|message|>
	mgRcptMax   = 128 // a recipient of a header met in reasoning without <|eom|> before it
	mgLeadMax   = 64  // whitespace before an ATEM block that opens a content message
)

// Marker kinds (marker.arg) of the Muse Glimmer framing matcher.
const (
	mkStart   = iota // <|start|>: a message header begins
	mkMessage        // <|message|>: a header ends, the body begins
	mkEnd            // <|eom|>, <|eot|>: the message ends
	mkParam          // <atem:parameter name= in a raw tool body: a value follows
)

// mgState is where the Muse Glimmer machine is in the output.
type mgState uint8

const (
	mgOut    mgState = iota // outside any message: content
	mgHeader                // a message header, validated byte by byte (buffered, bounded)
	mgText                  // a reasoning (to=self) or content (to=user, none) body
	mgLead                  // the start of a content body that may be an ATEM block
	mgTool                  // a tool body: the ATEM machine runs
	mgRaw                   // a tool body forwarded raw to content (no tool parser)
	mgRawVal                // a parameter value in a raw tool body, up to its close tag
)

var mgStateNames = [...]string{"mgOut", "mgHeader", "mgText", "mgLead", "mgTool", "mgRaw", "mgRawVal"}

func (s mgState) String() string { return enumName(mgStateNames[:], s, "mgState") }

// mgHdr is where a header's validation is: after <|start|> (or the lead),
// an optional role "assistant", an optional "to=RECIPIENT", whitespace
// between the parts, then <|message|>.
type mgHdr uint8

const (
	mhPre  mgHdr = iota // before the role or the recipient
	mhRole              // matching "assistant" (hk bytes so far)
	mhMid               // after the role
	mhTo                // matching "to=" (hk bytes so far)
	mhRcpt              // in the recipient
	mhPost              // after the recipient
)

var mgHdrNames = [...]string{"mhPre", "mhRole", "mhMid", "mhTo", "mhRcpt", "mhPost"}

func (s mgHdr) String() string { return enumName(mgHdrNames[:], s, "mgHdr") }

// museGlimmerSpec is the ATEM call grammar inside a tool message's body:
// the XML parameter machine (tagcalls.go) with the message boundaries as
// stops, so a boundary ends the body wherever no value is open.
var museGlimmerSpec = tagSpec{
	blockOpen:   []string{mgCallsOpen},
	blockClose:  "</atem:function_calls>",
	fnOpen:      "<atem:invoke name=",
	fnClose:     "</atem:invoke>",
	parOpen:     "<atem:parameter name=",
	parClose:    "</atem:parameter>",
	trim:        trimNone,
	conv:        convATEM,
	stops:       []string{mgStart, mgEOM, mgEOT},
	resolveName: museGlimmerName,
}

// museGlimmer is Meta Muse Glimmer's machine (PARSER_CASES.md, "Muse Glimmer
// (ATEM)"). It frames the whole output, so one machine serves the
// muse_glimmer tool parser and the muse_glimmer reasoning parser:
//
//	message = [ "<|start|>" ] [ "assistant" ] [ " to=" RECIPIENT ] "<|message|>" BODY END
//	END     = "<|eom|>" / "<|eot|>" / the next message's "<|start|>" header
//
// The prompt ends with <|start|>assistant, so the output starts with
// " to=RECIPIENT<|message|>". Routing, decided at <|message|>: recipient
// self → reasoning; user or none → content; any other recipient → a tool
// message whose body holds ATEM invokes:
//
//	<atem:function_calls>
//	<atem:invoke name="NAME">
//	<atem:parameter name="KEY">VALUE</atem:parameter>
//	</atem:invoke>
//	</atem:function_calls>
//
// Each invoke is a call named by its own name attribute (the recipient
// only routes); NAME.NAME is the declared tool NAME when NAME.NAME is not
// declared itself (the template advertises a bare tool as a namespace).
// Values are verbatim up to </atem:parameter> (no entity decoding, no
// trimming: the template writes them as they are and says the output is not
// XML); a parameter the schema types is converted by it (PARSER_CASES.md,
// "Schema-typed values"), an unconstrained one is JSON when it reads as
// JSON, else the string. A header is <|start|>, optional whitespace, an
// optional "assistant", an optional to=RECIPIENT (no whitespace, no '<'),
// then <|message|>; bytes after <|start|> that break that shape are text of
// the message <|start|> interrupted (the token itself is markup). Bodies
// are not joined with any separator. Text outside messages is content;
// orphan <|message|>, <|eom|> and <|eot|> are markup. Two recoveries from
// the peers: a reasoning body whose <|eom|> is missing ends at a
// to=RECIPIENT<|message|> header written after whitespace, and, when the
// request declares tools, a content message whose body starts (after
// whitespace) with <atem:function_calls> is a tool message.
//
// With calls off (the muse_glimmer reasoning parser without the tool
// parser) a tool message is forwarded to content as its raw bytes (header,
// body, end marker).
type museGlimmer struct {
	out   *sink
	calls bool
	tools bool    // the request declared tools
	ms    matcher // the four framing markers
	rawM  matcher // a raw tool body: the framing markers and the parameter opener
	lead  matcher // the ATEM block opener (content lead)
	tc    *tagCalls

	// scanning state; reset by reset
	st     mgState
	reason bool    // mgText: the body is reasoning (else content)
	ctx    mgState // mgHeader: the state <|start|> interrupted
	ctxR   bool    // mgHeader: reason of that state
	hs     mgHdr   // mgHeader: validation state
	hk     int     // mgHeader: bytes of "assistant" or "to=" matched
	hdr    []byte  // mgHeader: the header's bytes after <|start|> (the model's, for the lead)
	rcpt   int     // mgHeader: start of the recipient in hdr (-1: none)
	rcptN  int     // mgHeader: its length
	synth  bool    // mgHeader: the header continues the prompt's <|start|>assistant
	ws     bool    // mgText reasoning: the last byte emitted was whitespace (or the body just began)
	first  bool    // nothing consumed yet: the output may continue the prompt's header
}

func init() {
	registerFraming(&framingSpec{
		tool: ToolInfo{
			Openers: []string{mgCallsOpen, museGlimmerSpec.fnOpen},
			Closers: []string{museGlimmerSpec.fnClose, museGlimmerSpec.blockClose, mgEOM, mgEOT},
			Malformed: "a tool message's bytes outside invokes are dropped; an invoke whose name or parameter tag lacks its '>' is " +
				"abandoned and dropped up to </atem:invoke>; an empty name drops the invoke; a message boundary outside a value " +
				"abandons an open invoke; a header that breaks its shape is text of the message it interrupted (<|start|> dropped); " +
				"orphan framing tokens are removed",
			Truncated: "an invoke needs </atem:invoke> (each value its </atem:parameter>); one cut before is abandoned, complete " +
				"invokes before it stand; a message needs no end marker; an unfinished header is dropped",
		},
		reasoning: museGlimmerReasoning,
		build:     func(out *sink, calls bool) framingGrammar { return newMuseGlimmer(out, calls) },
	}, []string{
		"muse_glimmer", // vLLM, Dynamo
		"muse",         // SGLang
		"glimmer",      // ollama
	}, []string{"muse_glimmer", "muse", "glimmer"})
}

// museGlimmerReasoning is the muse_glimmer reasoning parser: the Muse
// Glimmer machine, with tool calls when the muse_glimmer tool parser is
// configured, forwarding tool messages raw to content when no tool parser
// is. Starts/Ends document the reasoning span for the registry.
var museGlimmerReasoning = &reasoningSpec{
	name:   "muse_glimmer",
	starts: []string{mgTo + mgSelf + mgMessage},
	ends:   []string{mgEOM},
}

func newMuseGlimmer(out *sink, calls bool) *museGlimmer {
	return &museGlimmer{
		out:   out,
		calls: calls,
		tools: len(out.cfg.Tools) > 0,
		ms: newMatcher(
			marker{text: mgStart, arg: mkStart},
			marker{text: mgMessage, arg: mkMessage},
			marker{text: mgEOM, arg: mkEnd},
			marker{text: mgEOT, arg: mkEnd},
		),
		rawM: newMatcher(
			marker{text: mgStart, arg: mkStart},
			marker{text: mgMessage, arg: mkMessage},
			marker{text: mgEOM, arg: mkEnd},
			marker{text: mgEOT, arg: mkEnd},
			marker{text: museGlimmerSpec.parOpen, arg: mkParam},
		),
		lead: newMatcher(marker{text: mgCallsOpen}),
		tc:   newTagCalls(out, &museGlimmerSpec),
	}
}

// museGlimmerName maps an invoke name to the tool it calls: NAME.NAME is
// the declared tool NAME when NAME.NAME itself is not declared (the chat
// template advertises a tool without a namespace as "NAME.*").
func museGlimmerName(s *schemaIndex, name []byte) []byte {
	if !s.declared {
		return name
	}
	if _, ok := s.tool(name); ok {
		return name
	}
	head, tail, ok := bytes.Cut(name, []byte("."))
	if !ok || !bytes.Equal(head, tail) {
		return name
	}
	if _, ok := s.tool(head); ok {
		return head
	}
	return name
}

// textMarkers is empty: the machine frames the output and the Parser's text
// state never runs.
func (g *museGlimmer) textMarkers() []marker { return nil }

// matchers: the framing markers and every marker of the ATEM machine are
// the markup.
func (g *museGlimmer) matchers() []*matcher {
	return []*matcher{&g.ms, &g.rawM, &g.lead, &g.tc.blockM, &g.tc.bodyM, &g.tc.skipM, &g.tc.val.ends}
}

func (g *museGlimmer) open(int) {}

func (g *museGlimmer) reset() {
	g.st, g.reason, g.ws, g.first = mgOut, false, false, true
	if g.out.cfg.InReasoning {
		g.st, g.reason, g.ws, g.first = mgText, true, true, false
	}
	g.hdr = shrink(g.hdr)
	g.tc.reset()
}

func (g *museGlimmer) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if g.st == mgTool {
		// The common chunk: the ATEM machine, usually all of b, without
		// the loop.
		n, st := g.scanTool(b, final)
		if st != blockNext {
			return n, st
		}
		i = n
	}
	if g.first {
		// An output that starts with "to=" (after spaces or tabs: the
		// template's " to=") continues the assistant header the prompt
		// opened.
		j := 0
		for j < len(b) && j <= mgLeadMax && (b[j] == ' ' || b[j] == '\t') {
			j++
		}
		rest := b[j:]
		if !final && j <= mgLeadMax && len(rest) < len(mgTo) && mgTo[:len(rest)] == string(rest) {
			return 0, blockHold
		}
		g.first = false
		if bytes.HasPrefix(rest, []byte(mgTo)) {
			g.beginHeader(true)
		}
	}
	for i < len(b) {
		var n int
		var st blockStatus
		switch g.st {
		case mgHeader:
			n, st = g.scanHeader(b[i:], final)
		case mgLead:
			n, st = g.scanLead(b[i:], final)
		case mgTool:
			n, st = g.scanTool(b[i:], final)
		case mgRaw:
			n, st = g.scanRaw(b[i:], final)
		case mgRawVal:
			n, st = g.scanRawValue(b[i:], final)
		case mgText:
			if g.reason {
				n, st = g.scanReasoning(b[i:], final)
			} else {
				n, st = g.scanMarkers(b[i:], final)
			}
		default: // mgOut
			n, st = g.scanMarkers(b[i:], final)
		}
		i += n
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// finish ends the stream: an open invoke is abandoned; an unfinished header
// is dropped.
func (g *museGlimmer) finish() {
	if g.st == mgTool {
		g.tc.finish()
	}
	g.st = mgOut
}

// text routes body bytes of the current state (mgOut, mgText, mgRaw).
func (g *museGlimmer) text(b []byte) {
	if len(b) == 0 {
		return
	}
	if g.st == mgText && g.reason {
		g.out.reasoning(b)
		g.ws = isSpace(b[len(b)-1])
		return
	}
	g.out.content(b)
}

// scanMarkers handles the states that look for the next framing marker
// (outside messages, content bodies).
func (g *museGlimmer) scanMarkers(b []byte, final bool) (int, blockStatus) {
	pos, mi := g.ms.find(b, final)
	g.text(b[:pos])
	if mi < 0 {
		return noMarker(b, pos)
	}
	return pos + g.marker(&g.ms.ms[mi]), blockNext
}

// marker acts on a framing marker met in mgOut, mgText, mgRaw or at a stop
// of the ATEM machine, and returns the bytes it consumed.
func (g *museGlimmer) marker(mk *marker) int {
	if g.st == mgRaw && mk.arg != mkStart {
		g.out.contentString(mk.text) // the forwarded message's own markup
	}
	switch mk.arg {
	case mkStart:
		g.beginHeader(false)
	case mkMessage:
		if g.st == mgOut {
			// A header without a recipient (the role part was the
			// prompt's, or framing was lost): a content message.
			g.route(nil)
		}
		// Inside a body an orphan <|message|> is markup.
	case mkEnd:
		g.st, g.reason = mgOut, false // the message ends; an orphan one is markup
	}
	return len(mk.text)
}

// beginHeader starts a header after <|start|> (or, synth, at the lead).
func (g *museGlimmer) beginHeader(synth bool) {
	g.ctx, g.ctxR = g.st, g.reason
	g.st = mgHeader
	g.hs, g.hk = mhPre, 0
	g.hdr = g.hdr[:0]
	g.rcpt, g.rcptN = -1, 0
	g.synth = synth
}

// scanHeader validates header bytes one by one (mgHdr) and buffers them
// (bounded): <|message|> routes the message; a byte that breaks the shape
// makes the header text.
func (g *museGlimmer) scanHeader(b []byte, final bool) (int, blockStatus) {
	for i, c := range b {
		if c == '<' {
			if g.hs == mhRole || g.hs == mhTo {
				return i, g.badHeader(b[:i])
			}
			mi, partial := g.ms.at(b[i:], false)
			switch {
			case partial && final:
				return len(b), blockMore // an unfinished header: dropped at finish
			case partial:
				g.hdr = append(g.hdr, b[:i]...)
				return i, blockHold
			}
			if mi < 0 || g.ms.ms[mi].arg != mkMessage {
				return i, g.badHeader(b[:i])
			}
			g.hdr = append(g.hdr, b[:i]...)
			var rcpt []byte
			if g.rcpt >= 0 {
				rcpt = g.hdr[g.rcpt : g.rcpt+g.rcptN]
			}
			g.route(rcpt)
			return i + len(mgMessage), blockNext
		}
		ok := true
		switch g.hs {
		case mhPre, mhMid:
			switch {
			case isSpace(c):
			case c == mgRole[0] && g.hs == mhPre:
				g.hs, g.hk = mhRole, 1
			case c == mgTo[0]:
				g.hs, g.hk = mhTo, 1
			default:
				ok = false
			}
		case mhRole:
			if ok = c == mgRole[g.hk]; ok {
				if g.hk++; g.hk == len(mgRole) {
					g.hs = mhMid
				}
			}
		case mhTo:
			if ok = c == mgTo[g.hk]; ok {
				if g.hk++; g.hk == len(mgTo) {
					g.hs = mhRcpt
					g.rcpt = len(g.hdr) + i + 1
				}
			}
		case mhRcpt:
			if isSpace(c) {
				g.hs = mhPost
			} else {
				g.rcptN++
			}
		case mhPost:
			ok = isSpace(c)
		}
		if !ok || len(g.hdr)+i+1 > mgHeaderMax {
			return i, g.badHeader(b[:i])
		}
	}
	g.hdr = append(g.hdr, b...)
	return len(b), blockMore
}

// badHeader makes a header that broke its shape text of the message
// <|start|> interrupted: its bytes so far (g.hdr, then b; <|start|> itself
// is markup) go to that message's channel, or are dropped in a tool message,
// which goes on. The byte that broke the shape is read again there.
func (g *museGlimmer) badHeader(b []byte) blockStatus {
	g.st, g.reason = g.ctx, g.ctxR
	switch {
	case g.st == mgTool:
		g.tc.open(tagOpenBlock)
	case g.st == mgText && g.reason:
		g.out.reasoning(g.out.copyBytes(g.hdr))
		g.out.reasoning(b)
		g.ws = false
	default:
		g.out.contentCopy(g.hdr)
		g.out.content(b)
	}
	return blockNext
}

// route decides the message at <|message|> (see the type comment).
func (g *museGlimmer) route(rcpt []byte) {
	g.reason = false
	switch {
	case string(rcpt) == mgSelf:
		g.st, g.reason, g.ws = mgText, true, true
	case len(rcpt) == 0 || string(rcpt) == mgUser:
		g.st = mgText
		if g.calls && g.tools {
			g.st = mgLead
		}
	case g.calls:
		g.st = mgTool
		g.tc.open(tagOpenBlock)
	default:
		g.st = mgRaw
		if !g.synth {
			g.out.contentString(mgStart)
		}
		g.out.contentCopy(g.hdr)
		g.out.contentString(mgMessage)
	}
}

// scanLead holds the start of a content body while it may be an ATEM block
// (whitespace, then a prefix of <atem:function_calls>): the whole opener
// makes the message a tool message; anything else is content.
func (g *museGlimmer) scanLead(b []byte, final bool) (int, blockStatus) {
	i := spaceLen(b)
	switch {
	case i > mgLeadMax:
	case i == len(b) && !final:
		return 0, blockHold
	case i < len(b):
		mi, partial := g.lead.at(b[i:], final)
		if partial {
			return 0, blockHold
		}
		if mi >= 0 {
			g.st = mgTool
			g.tc.open(tagOpenBlock)
			return i + len(mgCallsOpen), blockNext
		}
	}
	g.st = mgText
	return 0, blockNext
}

// scanTool runs the ATEM machine over a tool body: a function that ended
// lets the next one start; a stop is a framing marker the machine left for
// this one.
func (g *museGlimmer) scanTool(b []byte, final bool) (int, blockStatus) {
	n, st := g.tc.feed(b, final)
	switch st {
	case blockDone:
		g.tc.open(tagOpenBlock)
		return n, blockNext
	case blockText:
		mi, _ := g.ms.at(b[n:], true)
		return n + g.marker(&g.ms.ms[mi]), blockNext
	}
	return n, st
}

// scanReasoning handles a reasoning body: framing markers as in any body,
// and a to=RECIPIENT<|message|> header written after whitespace without the
// <|eom|> before it (the model has been seen to leave reasoning that way),
// which ends the body and starts the message it heads.
func (g *museGlimmer) scanReasoning(b []byte, final bool) (int, blockStatus) {
	pos, mi := g.ms.find(b, final)
	seg := b[:pos]
	for j := 0; ; {
		k := bytes.Index(seg[j:], []byte(mgTo))
		if k < 0 {
			break
		}
		k += j
		j = k + 1
		if k > 0 && !isSpace(seg[k-1]) || k == 0 && !g.ws {
			continue
		}
		r := k + len(mgTo)
		for r < len(seg) && r-k-len(mgTo) <= mgRcptMax && !isSpace(seg[r]) && seg[r] != '<' {
			r++
		}
		switch {
		case r-k-len(mgTo) > mgRcptMax, r < len(seg):
			continue // not a recipient that runs into <|message|>
		case mi >= 0 && g.ms.ms[mi].arg == mkMessage && r > k+len(mgTo):
			// The header the model wrote without <|eom|> (and without
			// <|start|>): the body ends before it.
			g.text(seg[:k])
			g.synth = true
			g.hdr = append(g.hdr[:0], seg[k:r]...)
			g.route(g.hdr[len(mgTo):])
			return pos + len(mgMessage), blockNext
		case mi < 0 && !final:
			// The recipient may still run into <|message|>: hold it.
			g.text(seg[:k])
			return k, blockHold
		}
	}
	if mi < 0 && !final {
		// A "t" or "to" after whitespace at the end may still become a
		// header's "to=": hold it.
		for l := len(mgTo) - 1; l > 0; l-- {
			if k := len(seg) - l; k >= 0 && string(seg[k:]) == mgTo[:l] && (k > 0 && isSpace(seg[k-1]) || k == 0 && g.ws) {
				g.text(seg[:k])
				return k, blockHold
			}
		}
	}
	g.text(seg)
	if mi < 0 {
		return noMarker(b, pos)
	}
	return pos + g.marker(&g.ms.ms[mi]), blockNext
}

// scanRaw forwards a tool body to content (calls off) up to the next
// framing marker; a parameter value is forwarded up to its own close tag, so
// framing text inside it does not end the message.
func (g *museGlimmer) scanRaw(b []byte, final bool) (int, blockStatus) {
	pos, mi := g.rawM.find(b, final)
	g.out.content(b[:pos])
	if mi < 0 {
		return noMarker(b, pos)
	}
	mk := &g.rawM.ms[mi]
	if mk.arg == mkParam {
		g.out.content(b[pos : pos+len(mk.text)])
		g.st = mgRawVal
		return pos + len(mk.text), blockNext
	}
	return pos + g.marker(mk), blockNext
}

// scanRawValue forwards a raw parameter value up to its close tag.
func (g *museGlimmer) scanRawValue(b []byte, final bool) (int, blockStatus) {
	ends := &g.tc.val.ends
	pos, mi := ends.find(b, final)
	if mi >= 0 {
		pos += len(ends.ms[mi].text)
		g.st = mgRaw
	}
	g.out.content(b[:pos])
	if mi < 0 {
		return noMarker(b, pos)
	}
	return pos, blockNext
}
