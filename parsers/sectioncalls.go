package parsers

// sectionCalls is the machine shared by the grammars whose calls are framed
// by special-token markers and carry JSON arguments: DeepSeek V3 and V3.1
// (PARSER_CASES.md) and Kimi K2.
//
//	section = SECTION_BEGIN *( *junk call ) *junk [ SECTION_END ]
//	call    = CALL_BEGIN header SEP args CALL_END
//
// where the header and the arguments depend on the style:
//
//	V3.1: NAME SEP {json}
//	V3:   TYPE SEP NAME "\n" "```json" {json} "```"   (TYPE, e.g. "function", is ignored)
//	Kimi: ID SEP {json}                               (ID = [functions.]NAME:DIGITS, kept as the call id)
//
// Decisions:
//
//   - A call starts at the separator (V3.1, Kimi) or at the newline after the
//     name (V3); its arguments stream as the model's bytes; it ends at
//     CALL_END. Without CALL_END (end of stream) it is abandoned, even when
//     its JSON is complete: CALL_END is the grammar's call delimiter.
//   - Inside a section everything but the markers is markup (the section
//     runs to SECTION_END or to the end of the output): whitespace and stray
//     text between calls are dropped.
//   - CALL_BEGIN is also accepted without a section; such a bare call is a
//     block on its own, and the whitespace-after-a-call rule applies after it.
//   - A malformed call (bad header, invalid or non-object JSON, anything but
//     whitespace or the closing fence before CALL_END) is abandoned if it
//     started, and its bytes are dropped up to the next structural marker:
//     CALL_END ends it, CALL_BEGIN starts the next call, SECTION_END ends
//     the section.
//   - Structural markers met where they do not belong end the current call
//     the same way (a call that never reached its separator never started).
type sectionCalls struct {
	// immutable after construction
	out    *sink
	style  secStyle
	text   []marker // the content-state markers (textMarkers)
	ms     matcher  // structural markers
	nameMs matcher  // V3 name: structural markers and "\n"

	// scanning state; reset by open and reset
	st        scState
	inSection bool   // the block is a section (not a bare call)
	head      []byte // header bytes: V3.1 name, V3 type then name, Kimi id
	fence     int    // backticks of a V3 fence matched so far
	tag       int    // V3 opening fence: language-tag bytes seen
	args      jsonArgs
}

// secStyle selects the header and argument layout of a call.
type secStyle uint8

const (
	styleV31  secStyle = iota // NAME<sep>{json}
	styleV3                   // TYPE<sep>NAME\n```json\n{json}\n```
	styleKimi                 // ID<sep>{json}
)

var secStyleNames = [...]string{"styleV31", "styleV3", "styleKimi"}

func (s secStyle) String() string { return enumName(secStyleNames[:], s, "secStyle") }

// scState is where sectionCalls is inside a block.
type scState uint8

const (
	scSection scState = iota // inside a section, between calls: only markers matter
	scHead                   // after CALL_BEGIN, before SEP
	scName                   // V3: after SEP, the name up to the newline
	scFence                  // V3: the opening fence
	scArgs                   // the JSON object
	scClose                  // after the object: (V3 closing fence,) whitespace, CALL_END
	scSkip                   // a broken call: dropped up to the next structural marker
)

var scStateNames = [...]string{"scSection", "scHead", "scName", "scFence", "scArgs", "scClose", "scSkip"}

func (s scState) String() string { return enumName(scStateNames[:], s, "scState") }

// Structural marker kinds (marker.arg in sectionCalls' matchers).
const (
	mkSectionBegin = iota
	mkSectionEnd
	mkCallBegin
	mkCallEnd
	mkSep
	mkNewline
)

// secMarkers names a grammar's markers.
type secMarkers struct {
	sectionBegins []string // section openers (spelling variants)
	sectionEnds   []string // section closers
	callBegin     string
	callEnd       string
	sep           string // between the header and the arguments
}

// Text-state opener args.
const (
	openSection = iota // a section opener was consumed
	openCall           // CALL_BEGIN without a section
)

func newSectionCalls(out *sink, style secStyle, mk secMarkers) *sectionCalls {
	s := &sectionCalls{out: out, style: style, text: textMarkersOf(mk)}
	s.args.out = out
	ms := appendMarkers(nil, mk.sectionBegins, actOpen, mkSectionBegin)
	ms = appendMarkers(ms, mk.sectionEnds, actClose, mkSectionEnd)
	ms = append(ms,
		marker{text: mk.callBegin, act: actOpen, arg: mkCallBegin},
		marker{text: mk.callEnd, act: actClose, arg: mkCallEnd},
		marker{text: mk.sep, act: actNone, arg: mkSep})
	s.ms = newMatcher(ms...)
	s.nameMs = newMatcher(append(ms[:len(ms):len(ms)], marker{text: "\n", act: actNone, arg: mkNewline})...)
	return s
}

func (s *sectionCalls) textMarkers() []marker { return s.text }

// textMarkersOf returns the content-state markers of a sectioned grammar:
// the section opener(s) and CALL_BEGIN open blocks; closers and the
// separator met in content are markup, removed.
func textMarkersOf(mk secMarkers) []marker {
	ms := appendMarkers(nil, mk.sectionBegins, actToolOpen, openSection)
	ms = append(ms, marker{text: mk.callBegin, act: actToolOpen, arg: openCall})
	ms = appendMarkers(ms, mk.sectionEnds, actToolClose, 0)
	return append(ms, marker{text: mk.callEnd, act: actToolClose}, marker{text: mk.sep, act: actToolClose})
}

func (s *sectionCalls) open(arg int) {
	if arg == openCall {
		s.inSection = false
		s.beginCall()
		return
	}
	s.inSection = true
	s.st = scSection
}

func (s *sectionCalls) beginCall() {
	s.st = scHead
	s.head = s.head[:0]
}

func (s *sectionCalls) reset() {
	s.st = scSection
	s.inSection = false
	s.head = shrink(s.head)
}

// finish ends the stream inside a block: a started call never reached
// CALL_END and is abandoned.
func (s *sectionCalls) finish() { s.out.abandonCall() }

// malformed abandons the current call (if it started) and drops it up to
// the next marker.
func (s *sectionCalls) malformed() {
	s.out.abandonCall()
	s.st = scSkip
}

// structural acts on a marker met outside the arguments; it reports whether
// the block is over. A call that started and did not complete is abandoned
// by every structural marker (a separator comes here only where no call is
// open: between calls or in a dropped one).
func (s *sectionCalls) structural(kind int) bool {
	s.out.abandonCall()
	switch kind {
	case mkCallBegin:
		s.beginCall()
	case mkCallEnd:
		return s.callOver()
	case mkSectionBegin:
		s.inSection = true
		s.st = scSection
	case mkSectionEnd:
		return true
	}
	// mkSep, mkNewline where they mean nothing: markup.
	return false
}

// callOver moves past a call; it reports whether the block is over (a bare
// call is its own block).
func (s *sectionCalls) callOver() bool {
	if !s.inSection {
		return true
	}
	s.st = scSection
	return false
}

func (s *sectionCalls) feed(b []byte, final bool) (int, blockStatus) {
	i := 0
	if s.st == scArgs {
		// The common chunk: arguments, usually all of b, without the
		// loop.
		n, r := s.args.feed(b)
		if r == jcMore {
			return n, blockMore
		}
		s.argsDone(r)
		i = n
	}
	for i < len(b) {
		switch s.st {
		case scSection, scSkip:
			pos, mi := s.ms.find(b[i:], final)
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			i += pos + len(s.ms.ms[mi].text)
			if s.structural(s.ms.ms[mi].arg) {
				return i, blockDone
			}
		case scHead, scName:
			m := &s.ms
			if s.st == scName {
				m = &s.nameMs
			}
			pos, mi := m.find(b[i:], final)
			if len(s.head)+pos > s.out.limit {
				s.malformed() // a header past the per-call limit
				i += pos
				continue
			}
			s.head = append(s.head, b[i:i+pos]...)
			if mi < 0 {
				return noMarker(b, i+pos)
			}
			i += pos + len(m.ms[mi].text)
			switch kind := m.ms[mi].arg; {
			case kind == mkSep && s.st == scHead:
				s.headDone()
			case kind == mkNewline:
				s.nameDone()
			case kind == mkSep:
				s.malformed() // a second separator in a V3 name
			default:
				if s.structural(kind) {
					return i, blockDone
				}
			}
		case scFence:
			c := b[i]
			switch {
			case s.fence < 3 && c == '`':
				s.fence++
				i++
			case s.fence == 0 && isSpace(c):
				i++
			case s.fence < 3:
				s.malformed()
			case isASCIILetter(c) && s.tag < 16:
				s.tag++ // the fence's language tag ("json")
				i++
			default:
				s.st = scArgs
				s.args.begin()
			}
		case scArgs:
			n, r := s.args.feed(b[i:])
			i += n
			if r == jcMore {
				return i, blockMore // all of b
			}
			s.argsDone(r)
		case scClose:
			c := b[i]
			if isSpace(c) {
				i++
				continue
			}
			if s.style == styleV3 && s.fence < 3 {
				if c != '`' {
					s.malformed()
					continue
				}
				s.fence++
				i++
				continue
			}
			mi, partial := s.ms.at(b[i:], final)
			if partial {
				return i, blockHold
			}
			if mi < 0 || s.ms.ms[mi].arg != mkCallEnd {
				s.malformed()
				continue
			}
			i += len(s.ms.ms[mi].text)
			s.out.endCall()
			if s.callOver() {
				return i, blockDone
			}
		}
	}
	return i, blockMore
}

// argsDone moves past the arguments once they ended (jcEnd) or went bad.
func (s *sectionCalls) argsDone(r jcResult) {
	if r == jcEnd {
		s.st, s.fence = scClose, 0
		return
	}
	s.malformed()
}

// headDone handles the header at the separator.
func (s *sectionCalls) headDone() {
	switch s.style {
	case styleV3:
		// The call type ("function") is ignored; the name follows.
		s.st = scName
		s.head = s.head[:0]
	case styleV31:
		s.startNamed(trimSpace(s.head), nil, scArgs)
	case styleKimi:
		id := trimSpace(s.head)
		s.startNamed(kimiName(id), id, scArgs)
	}
}

// nameDone handles a V3 name at its newline.
func (s *sectionCalls) nameDone() {
	s.fence, s.tag = 0, 0
	s.startNamed(trimSpace(s.head), nil, scFence)
}

// startNamed starts a call, or drops it when the name is not acceptable:
// empty, or (DeepSeek) containing a bracket or brace — a header that ran
// into JSON.
func (s *sectionCalls) startNamed(name, id []byte, next scState) {
	if len(name) == 0 || (s.style != styleKimi && !validCallName(name)) {
		s.malformed()
		return
	}
	s.out.startCall(name, id)
	s.st = next
	if next == scArgs {
		s.args.begin()
	}
}

// validCallName reports whether a DeepSeek name has no brace or bracket.
func validCallName(name []byte) bool {
	for _, c := range name {
		switch c {
		case '{', '}', '[', ']':
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}
