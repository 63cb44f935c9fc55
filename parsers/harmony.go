package parsers

import "bytes"

// Harmony markers: special tokens of o200k_harmony, kept in the text by
// PRE.1 (skip_special_tokens=false).
const (
	hmStart     = "<|start|>"
	hmChannel   = "<|channel|>"
	hmMessage   = "<|message|>"
	hmConstrain = "<|constrain|>"
	hmEnd       = "<|end|>"
	hmReturn    = "<|return|>"
	hmCall      = "<|call|>"

	hmFunctions = "functions."

	// hmLead is how an output starts that continues the assistant header the
	// prompt opened (<|start|>assistant at the end of the prompt) with a
	// recipient; hmRole stands in for the prompt's part of that header.
	hmLead = " to="
	hmRole = hmStart + "assistant"
)

// Marker kinds (marker.arg) of the Harmony matcher.
const (
	hkStart     = iota // <|start|>: a message header (role part) begins
	hkChannel          // <|channel|>: a channel header begins (or the role part ends)
	hkMessage          // <|message|>: the header ends, the body begins
	hkConstrain        // <|constrain|>: content-type prefix inside a header
	hkEnd              // <|end|>, <|return|>, <|call|>: the message ends
)

// harmonyState is where the Harmony machine is in the output.
type harmonyState uint8

const (
	hsOut     harmonyState = iota // outside any message: content (PARSER_CASES.md)
	hsHeader                      // inside a message header (buffered, bounded)
	hsText                        // message body routed to content or reasoning
	hsArgsPre                     // directed body before its JSON object
	hsArgs                        // directed body: the arguments object (string-aware)
	hsDrop                        // rest of a body that is not text (dropped, or raw in passthrough) up to the end marker
)

var harmonyStateNames = [...]string{"hsOut", "hsHeader", "hsText", "hsArgsPre", "hsArgs", "hsDrop"}

func (s harmonyState) String() string { return enumName(harmonyStateNames[:], s, "harmonyState") }

// harmony is the gpt-oss Harmony machine (PARSER_CASES.md). It frames
// the whole output, so one machine serves the `harmony` tool parser and the
// `gpt_oss` reasoning parser:
//
//	message = [ "<|start|>" ROLE [ " to=" RECIPIENT ] ] "<|channel|>" CHANNEL
//	          [ " to=" RECIPIENT ] [ " " [ "<|constrain|>" ] CTYPE ] "<|message|>" BODY END
//	END     = "<|end|>" / "<|return|>" / "<|call|>"
//
// Routing, decided when the header ends at <|message|>:
//
//   - recipient functions.NAME (on any channel, in the role or the channel
//     header, including the header the prompt opened when the output starts
//     with " to="): a tool call named NAME whose arguments are the body, a JSON
//     object streamed as the model's bytes. With calls off (gpt_oss without
//     the harmony tool parser) the message is forwarded to content as its raw
//     envelope bytes instead.
//   - a recipient that is exactly the name of a declared tool (Config.Tools;
//     "to=math.sum" with a tool math.sum): a call to that tool, as above.
//   - any other recipient: the message is dropped (without a tool list,
//     every recipient but functions.NAME).
//   - channel analysis: reasoning.
//   - any other channel (final, commentary, unknown or none): content.
//
// Bodies of one kind are joined with "\n" (Dynamo inserts it between
// messages); text outside any message is content, unjoined. Every marker is
// recognised in every state except inside the arguments object, where the
// scan is string-aware. A call ends when its object closes (<|call|> may be
// missing: it is also an EOS token); bytes after the object up to the end
// marker are dropped. A body that does not start with an object abandons the
// call; an empty body closed by an end marker is {}.
type harmony struct {
	out   *sink
	calls bool    // directed messages become tool calls (else raw content)
	ms    matcher // the seven markers

	// scanning state; reset by open(-1)
	st       harmonyState
	hdr      []byte // raw header bytes, from its opening marker
	roleEnd  int    // end of the role part in hdr (-1: header opened at <|channel|>)
	chanAt   int    // start of the channel part in hdr (-1: none yet)
	overflow bool   // the header outgrew the buffer limit: the message is dropped
	raw      bool   // the current body is forwarded raw to content
	reason   bool   // hsText: the body is reasoning (else content)
	sep      bool   // hsText: emit the "\n" separator before the body's first byte
	seenR    bool   // a reasoning message has emitted text
	seenC    bool   // a content message has emitted text
	lead     bool   // nothing consumed yet: the output may continue the prompt's header
	synth    int    // bytes of hdr that stand in for the prompt's header (not the model's)
	vs       jsonScan
}

func init() {
	registerFraming(&framingSpec{
		tool: ToolInfo{
			Openers: []string{hmChannel, hmStart},
			Closers: []string{hmCall, hmEnd, hmReturn},
			Malformed: "a directed body that is not one JSON object abandons the call and is dropped up to its end marker; " +
				"bytes after a closed object up to the end marker are dropped; messages to recipients other than functions.* " +
				"or a declared tool's exact name are dropped; a header longer than the buffer limit drops its message; orphan markers are removed",
			Truncated: "a call whose object closed is complete without its call end marker; a body cut inside the object, or empty, " +
				"is abandoned; an unfinished header is dropped; held marker prefixes are text of the current channel",
		},
		reasoning: gptOSS,
		build:     func(out *sink, calls bool) framingGrammar { return newHarmony(out, calls) },
	}, []string{
		"harmony",
		"openai",  // vLLM
		"gpt-oss", // SGLang
	}, []string{"gpt_oss", "openai_gptoss", "gpt-oss"})
}

// gptOSS is the gpt_oss reasoning parser: the Harmony machine, with tool
// calls when the harmony tool parser is configured, forwarding directed
// messages raw to content when no tool parser is. Starts/Ends document the
// reasoning span for the registry; the framing grammar does the work
// (registerFraming).
var gptOSS = &reasoningSpec{
	name:   "gpt_oss",
	starts: []string{hmChannel + "analysis" + hmMessage},
	ends:   []string{hmEnd},
}

func newHarmony(out *sink, calls bool) *harmony {
	return &harmony{
		out:   out,
		calls: calls,
		ms: newMatcher(
			marker{text: hmStart, arg: hkStart},
			marker{text: hmChannel, arg: hkChannel},
			marker{text: hmMessage, arg: hkMessage},
			marker{text: hmConstrain, arg: hkConstrain},
			marker{text: hmEnd, arg: hkEnd},
			marker{text: hmReturn, arg: hkEnd},
			marker{text: hmCall, arg: hkEnd},
		),
	}
}

// textMarkers is empty: the machine frames the output and the Parser's text
// state never runs.
func (h *harmony) textMarkers() []marker { return nil }

// matchers: the seven markers are the whole markup.
func (h *harmony) matchers() []*matcher { return []*matcher{&h.ms} }

func (h *harmony) open(int) {
	h.st = hsOut
	h.hdr = h.hdr[:0]
	h.roleEnd, h.chanAt = -1, -1
	h.overflow, h.raw, h.reason, h.sep = false, false, false, false
	h.synth = 0
}

func (h *harmony) reset() {
	h.open(-1)
	h.hdr = shrink(h.hdr)
	h.seenR, h.seenC = false, false
	h.lead = true
	h.vs.reset()
}

func (h *harmony) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if h.st == hsArgs {
		// The common chunk: arguments, usually all of b, without the
		// loop.
		n, st := h.scanArgs(b)
		if st != blockNext {
			return n, st
		}
		i = n
	}
	if h.lead && h.st == hsOut {
		// An output that starts with " to=" continues the assistant header
		// the prompt opened: the header carries a recipient exactly as a
		// later <|start|>assistant to=… header would.
		if len(b) < len(hmLead) && !final && hmLead[:len(b)] == string(b) {
			return 0, blockHold
		}
		h.lead = false
		if len(b) >= len(hmLead) && string(b[:len(hmLead)]) == hmLead {
			h.beginHeader(hmRole, false)
			h.synth = len(h.hdr)
		}
	}
	for i < len(b) {
		var n int
		st := blockNext
		switch h.st {
		case hsArgs:
			n, st = h.scanArgs(b[i:])
		case hsArgsPre:
			n, st = h.scanArgsPre(b[i:], final)
		default:
			n, st = h.scanMarkers(b[i:], final)
		}
		i += n
		if st != blockNext {
			return i, st
		}
	}
	return i, blockMore
}

// finish ends the stream: an open call (body empty or cut inside the
// object) is abandoned; an unfinished header is dropped.
func (h *harmony) finish() {
	h.out.abandonCall()
	h.open(-1)
}

// scanMarkers handles the states that look for the next marker: the bytes
// before it go where the state sends them, then the marker acts.
func (h *harmony) scanMarkers(b []byte, final bool) (int, blockStatus) {
	pos, mi := h.ms.find(b, final)
	h.bytes(b[:pos])
	if mi < 0 {
		return noMarker(b, pos)
	}
	mk := &h.ms.ms[mi]
	h.marker(mk)
	return pos + len(mk.text), blockNext
}

// bytes routes non-marker bytes of the current state.
func (h *harmony) bytes(b []byte) {
	if len(b) == 0 {
		return
	}
	switch h.st {
	case hsOut:
		h.out.content(b)
	case hsHeader:
		h.appendHeader(b)
	case hsText:
		h.bodyText(b)
	case hsDrop:
		if h.raw {
			h.out.content(b)
		}
	}
}

// marker acts on a marker met in hsOut, hsHeader, hsText or hsDrop.
func (h *harmony) marker(mk *marker) {
	if h.st == hsDrop && h.raw && mk.arg != hkStart && mk.arg != hkChannel {
		h.out.contentString(mk.text) // the forwarded message's own markup
	}
	switch mk.arg {
	case hkStart:
		// A new message begins; an unterminated one before it ends here.
		h.beginHeader(mk.text, false)
	case hkChannel:
		if h.st == hsHeader {
			h.channelPart()
			return
		}
		h.beginHeader(mk.text, true)
	case hkMessage:
		if h.st == hsHeader {
			h.route()
		}
		// Elsewhere an orphan <|message|> is markup.
	case hkConstrain:
		if h.st == hsHeader {
			h.appendHeader([]byte(hmConstrain))
		}
	case hkEnd:
		// The message ends (a header without a body is dropped); an
		// orphan end marker is markup.
		h.open(-1)
	}
}

// beginHeader starts a message header at its opening marker.
func (h *harmony) beginHeader(m string, channel bool) {
	h.open(-1)
	h.st = hsHeader
	h.hdr = append(h.hdr, m...)
	if channel {
		h.chanAt = len(h.hdr)
	}
}

// channelPart handles <|channel|> inside a header: the role part ends, or a
// repeated channel restarts the channel part.
func (h *harmony) channelPart() {
	if h.chanAt < 0 && h.roleEnd < 0 {
		h.roleEnd = len(h.hdr)
	}
	h.appendHeader([]byte(hmChannel))
	if !h.overflow {
		h.chanAt = len(h.hdr)
	}
}

// appendHeader buffers header bytes, bounded by the per-call limit.
func (h *harmony) appendHeader(b []byte) {
	if h.overflow {
		return
	}
	if len(h.hdr)+len(b) > h.out.limit {
		h.overflow = true
		return
	}
	h.hdr = append(h.hdr, b...)
}

// route decides the message at <|message|> (see the type comment).
func (h *harmony) route() {
	if h.overflow {
		h.st = hsDrop
		return
	}
	var role, channel []byte
	switch {
	case h.chanAt < 0: // <|start|>ROLE<|message|>
		role = h.hdr[len(hmStart):]
	case h.roleEnd >= 0: // <|start|>ROLE<|channel|>CHANNEL<|message|>
		role = h.hdr[len(hmStart):h.roleEnd]
		channel = h.hdr[h.chanAt:]
	default: // <|channel|>CHANNEL<|message|>
		channel = h.hdr[h.chanAt:]
	}
	recipient := harmonyRecipient(role, false)
	if recipient == nil {
		recipient = harmonyRecipient(channel, true)
	}
	if recipient != nil {
		name, ok := bytes.CutPrefix(recipient, []byte(hmFunctions))
		if !ok && h.declared(recipient) {
			name, ok = recipient, true // a declared tool named without the prefix
		}
		if !ok || len(name) == 0 {
			h.st = hsDrop // another recipient (browser.*, python): dropped
			return
		}
		h.st = hsArgsPre
		if h.calls {
			h.out.startCall(name, nil)
			return
		}
		h.raw = true
		h.out.contentCopy(h.hdr[h.synth:])
		h.out.contentString(hmMessage)
		return
	}
	h.st = hsText
	first, _ := harmonyNextToken(channel)
	h.reason = string(first) == "analysis"
	if h.reason {
		h.sep = h.seenR
	} else {
		h.sep = h.seenC
	}
}

// declared reports whether recipient is exactly the name of a tool the
// request declared (Config.Tools).
func (h *harmony) declared(recipient []byte) bool {
	for i := range h.out.cfg.Tools {
		if h.out.cfg.Tools[i].Name == string(recipient) {
			return true
		}
	}
	return false
}

// bodyText emits text of a routed body, with the "\n" separator between
// messages of one kind.
func (h *harmony) bodyText(b []byte) {
	if h.reason {
		if h.sep {
			h.sep = false
			h.out.reasoning(h.out.copyString("\n"))
		}
		h.seenR = true
		h.out.reasoning(b)
		return
	}
	if h.sep {
		h.sep = false
		h.out.contentString("\n")
	}
	h.seenC = true
	h.out.content(b)
}

// scanArgsPre handles a directed body before its object: whitespace is
// skipped, '{' starts the arguments, an end marker makes an empty body {}.
func (h *harmony) scanArgsPre(b []byte, final bool) (int, blockStatus) {
	i := spaceLen(b)
	if h.raw {
		h.out.content(b[:i])
	}
	if i == len(b) {
		return i, blockMore
	}
	switch b[i] {
	case '{':
		h.vs.reset()
		h.st = hsArgs
		return i, blockNext
	case '<':
		mi, partial := h.ms.at(b[i:], final)
		if partial {
			return i, blockHold
		}
		if mi >= 0 {
			return i + h.preMarker(&h.ms.ms[mi]), blockNext
		}
	}
	// Not an object: the call is malformed.
	h.out.abandonCall()
	h.st = hsDrop
	return i, blockNext
}

// preMarker acts on a marker met before the body's object and returns the
// bytes consumed.
func (h *harmony) preMarker(mk *marker) int {
	h.st = hsDrop
	switch mk.arg {
	case hkEnd:
		h.out.endParams() // an empty body: {}
	case hkStart, hkChannel:
		// A new message without an end marker: the empty body is not
		// provably a call.
		h.out.abandonCall()
	default:
		// <|message|> or <|constrain|> inside the body: malformed.
		h.out.abandonCall()
		return 0
	}
	h.marker(mk)
	return len(mk.text)
}

// scanArgs streams the arguments object (raw control characters in strings
// escaped); the call ends when the object closes.
func (h *harmony) scanArgs(b []byte) (int, blockStatus) {
	n, r := h.vs.scan(b)
	switch {
	case h.raw:
		h.out.content(b[:n])
	case r == scanCtrl:
		h.out.ctrlArgs(b[:n])
	default:
		h.out.args(b[:n])
	}
	switch r {
	case scanMore:
		return n, blockMore // all of b
	case scanDone:
		h.out.endCall()
		h.st = hsDrop
	case scanErr:
		// b[n] is not consumed: it may start an end marker.
		h.out.abandonCall()
		h.st = hsDrop
	}
	return n, blockNext
}

// harmonyRecipient returns the recipient of a header part: the value of its
// first "to=" token. Tokens are separated by whitespace and <|constrain|>;
// in a channel part the first token is the channel name.
func harmonyRecipient(part []byte, channel bool) []byte {
	first := true
	for len(part) > 0 {
		var tok []byte
		tok, part = harmonyNextToken(part)
		if tok == nil {
			return nil
		}
		if channel && first {
			first = false
			continue
		}
		if r, ok := bytes.CutPrefix(tok, []byte("to=")); ok {
			return r
		}
	}
	return nil
}

// harmonyNextToken splits the next token off a header part (nil when none
// is left).
func harmonyNextToken(part []byte) (tok, rest []byte) {
	for {
		for len(part) > 0 && isSpace(part[0]) {
			part = part[1:]
		}
		if !bytes.HasPrefix(part, []byte(hmConstrain)) {
			break
		}
		part = part[len(hmConstrain):]
	}
	if len(part) == 0 {
		return nil, nil
	}
	end := 0
	for end < len(part) && !isSpace(part[end]) && !bytes.HasPrefix(part[end:], []byte(hmConstrain)) {
		end++
	}
	return part[:end], part[end:]
}
