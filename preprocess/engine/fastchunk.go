package engine

import (
	"bytes"
	"unicode/utf8"
)

// The fast path of completionsDecoder: a hand-written scanner for the
// chunk every completions engine (vLLM, SGLang's OpenAI API, trtllm-serve)
// sends for almost every token:
//
//	{"id": "...", "object": "text_completion", "created": 1, "model": "...",
//	 "choices": [{"index": 0, "text": "...", "logprobs": null,
//	              "finish_reason": null | "...", "stop_reason": null | "..." | 7,
//	              "token_ids": [1, 2] | null}, ...],
//	 "usage": null}
//
// It accepts only a strict subset of JSON that fastjson parses the same
// way, and gives up (returns false, having changed nothing but scratch
// buffers) on anything else: escaped or duplicate keys, a member value of
// another kind (true, false, an object or array where a scalar is
// expected), numbers other than plain non-negative integers, escapes other
// than the JSON ones and non-surrogate \uXXXX, logprobs or usage that are
// not null, an "error" member or "object": "error", malformed JSON. The
// fastjson path then decodes the chunk, so errors and unusual chunks keep
// exactly one behaviour; FuzzCompletionsFastPath checks that both paths
// agree on any input.

// fastScan is the state of one scan: the input and the read position.
type fastScan struct {
	s []byte
	i int
}

func (f *fastScan) ws() {
	if f.i < len(f.s) && f.s[f.i] > ' ' {
		return
	}
	for f.i < len(f.s) {
		switch f.s[f.i] {
		case ' ', '\n', '\t', '\r':
			f.i++
		default:
			return
		}
	}
}

// peek returns the next byte after whitespace (0 at the end).
func (f *fastScan) peek() byte {
	f.ws()
	if f.i < len(f.s) {
		return f.s[f.i]
	}
	return 0
}

// eat consumes c after whitespace.
func (f *fastScan) eat(c byte) bool {
	if f.peek() != c {
		return false
	}
	f.i++
	return true
}

// null consumes a null literal after whitespace.
func (f *fastScan) null() bool {
	f.ws()
	if len(f.s)-f.i >= 4 && string(f.s[f.i:f.i+4]) == "null" {
		f.i += 4
		return true
	}
	return false
}

// key reads an object key without escapes, and the colon after it.
func (f *fastScan) key() ([]byte, bool) {
	if !f.eat('"') {
		return nil, false
	}
	for j := f.i; j < len(f.s); j++ {
		switch f.s[j] {
		case '\\':
			return nil, false
		case '"':
			k := f.s[f.i:j]
			f.i = j + 1
			return k, f.eat(':')
		}
	}
	return nil, false
}

// rawString reads a string (after its opening quote) and returns its raw
// contents and whether it holds a backslash.
func (f *fastScan) rawString() (raw []byte, esc, ok bool) {
	for j := f.i; j < len(f.s); j++ {
		switch f.s[j] {
		case '\\':
			esc = true
			j++
		case '"':
			raw = f.s[f.i:j]
			f.i = j + 1
			return raw, esc, true
		}
	}
	return nil, false, false
}

// uint reads a plain non-negative integer (no sign, fraction, exponent or
// leading zero) of at most 10 digits.
func (f *fastScan) uint() (uint64, bool) {
	f.ws()
	start := f.i
	var n uint64
	for f.i < len(f.s) && f.s[f.i] >= '0' && f.s[f.i] <= '9' {
		n = n*10 + uint64(f.s[f.i]-'0')
		f.i++
	}
	d := f.i - start
	if d == 0 || d > 10 || d > 1 && f.s[start] == '0' {
		return 0, false
	}
	return n, true
}

// scalar skips a string, a plain integer or null.
func (f *fastScan) scalar() bool {
	switch f.peek() {
	case '"':
		f.i++
		_, _, ok := f.rawString()
		return ok
	case 'n':
		return f.null()
	}
	_, ok := f.uint()
	return ok
}

// unescape appends the unescaped raw string to dst as fastjson would; ok
// is false for an escape it does not handle the same way.
func unescape(dst, raw []byte) ([]byte, bool) {
	for len(raw) > 0 {
		n := bytes.IndexByte(raw, '\\')
		if n < 0 {
			return append(dst, raw...), true
		}
		dst = append(dst, raw[:n]...)
		raw = raw[n:]
		if len(raw) < 2 {
			return dst, false
		}
		switch raw[1] {
		case '"', '\\', '/':
			dst = append(dst, raw[1])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			if len(raw) < 6 {
				return dst, false
			}
			var r rune
			for _, h := range raw[2:6] {
				switch {
				case h >= '0' && h <= '9':
					r = r<<4 | rune(h-'0')
				case h >= 'a' && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				case h >= 'A' && h <= 'F':
					r = r<<4 | rune(h-'A'+10)
				default:
					return dst, false
				}
			}
			if r >= 0xd800 && r <= 0xdfff {
				return dst, false // surrogates: the fastjson path decides
			}
			dst = utf8.AppendRune(dst, r)
			raw = raw[6:]
			continue
		default:
			return dst, false
		}
		raw = raw[2:]
	}
	return dst, true
}

// choicesKey is the member the remembered prefix ends with; maxPrefix
// bounds the prefix kept.
var choicesKey = []byte("choices")

const maxPrefix = 512

// Member bits of a choice (a repeated member gives up).
const (
	fcIndex = 1 << iota
	fcText
	fcIDs
	fcLogprobs
	fcFinish
	fcStop
)

// feedFast decodes data when it has the common shape and reports whether
// it did; when it did not, the caller decodes data with fastjson.
func (d *completionsDecoder) feedFast(data []byte) bool {
	f := fastScan{s: data}
	var seenChoices, seenUsage, seenObject bool
	// The members before "choices" (id, object, created, model) are the
	// same bytes in every chunk of a stream: when data starts with the
	// prefix of the last chunk this path decoded, the scan resumes where
	// it stood after that prefix (the scanner reads no byte beyond it).
	resume := len(d.prefix) > 0 && bytes.HasPrefix(data, d.prefix)
	resumed := resume
	if resume {
		f.i, seenUsage, seenObject = len(d.prefix), d.prefixUsage, d.prefixObject
	} else if !f.eat('{') || f.peek() == '}' {
		return false // not an object, or no choices
	}
	d.outs, d.next = d.outs[:0], 0
	d.ids, d.idSpans = d.ids[:0], d.idSpans[:0]
	d.lps, d.lpSpans, d.tops, d.topSpan = d.lps[:0], d.lpSpans[:0], d.tops[:0], d.topSpan[:0]
	d.text, d.textSpans = d.text[:0], d.textSpans[:0]
	d.cand = templateCandidate{text0: -1, ids0: -1}
	prefixEnd, prefixUsage, prefixObject := -1, false, false
	for {
		var k []byte
		if resume {
			k, resume = choicesKey, false
		} else {
			var ok bool
			if k, ok = f.key(); !ok {
				return false
			}
		}
		switch string(k) {
		case "choices":
			if seenChoices {
				return false
			}
			prefixEnd, prefixUsage, prefixObject = f.i, seenUsage, seenObject
			if !d.fastChoices(&f) {
				return false
			}
			seenChoices = true
		case "usage":
			if seenUsage || !f.null() {
				return false
			}
			seenUsage = true
		case "object":
			if seenObject || !f.eat('"') {
				return false
			}
			raw, esc, ok := f.rawString()
			if !ok || esc || string(raw) == "error" {
				return false
			}
			seenObject = true
		case "error":
			return false
		default:
			if !f.scalar() {
				return false
			}
		}
		if f.eat(',') {
			continue
		}
		if !f.eat('}') {
			return false
		}
		break
	}
	if f.ws(); f.i != len(data) || !seenChoices {
		return false
	}
	if !resumed && prefixEnd <= maxPrefix {
		d.prefix = append(d.prefix[:0], data[:prefixEnd]...)
		d.prefixUsage, d.prefixObject = prefixUsage, prefixObject
	}
	d.remember(data)
	for i := range d.outs {
		out := &d.outs[i]
		if sp := d.idSpans[i]; sp.end > sp.start {
			out.TokenIDs = d.ids[sp.start:sp.end:sp.end]
		}
		if sp := d.textSpans[2*i]; out.HasText {
			out.Text = d.text[sp.start:sp.end:sp.end]
		}
		if sp := d.textSpans[2*i+1]; out.Finish != FinishNone && sp.end > sp.start {
			out.StopReason = d.text[sp.start:sp.end:sp.end]
		}
		if out.Finish != FinishNone {
			d.fin.mark(out.Index)
		}
	}
	return true
}

// The template path. Within a stream, the chunks of the common shape
// differ only in the text of their one choice and in its token ids:
//
//	{"id":…,"choices":[{"index":0,"text":"␣TEXT␣","logprobs":null,
//	 "finish_reason":null,"stop_reason":null,"token_ids":[␣IDS␣]}],"usage":null}
//
// A chunk that feedFast decoded and that has that shape (one choice, a
// text string, no finish, no stop reason) is remembered as three pieces
// of bytes: head (through the text's opening quote), mid (from its closing
// quote through the ids' '['; only with ids) and tail (from the closing
// quote, or the ids' ']', to the end). A chunk that is head + a string's
// contents + mid + ids + tail is decoded by reading just the string and
// the ids, with feedFast's own readers: every other byte equals the
// remembered chunk's, which feedFast accepted, so feedFast would decode it
// the same way (FuzzCompletionsFastPath compares both with fastjson after
// a warm-up). Anything else goes to feedFast, which remembers the next
// chunk of that shape.
type chunkTemplate struct {
	ok              bool
	index           int
	ids             bool // the choice has a token_ids array
	head, mid, tail []byte
}

// templateCandidate holds the positions of the text and the token ids in
// the chunk feedFast is decoding (-1: none).
type templateCandidate struct {
	text0, text1 int // the text's first byte and its closing quote
	ids0, ids1   int // the ids' first byte after '[' and the ']'
}

// remember keeps data, which feedFast has just decoded, as the template
// when it has the template's shape.
func (d *completionsDecoder) remember(data []byte) {
	c := &d.cand
	if len(d.outs) != 1 || c.text0 < 0 || d.outs[0].Finish != FinishNone || len(d.textSpans) != 2 ||
		d.textSpans[1].end > d.textSpans[1].start || d.outs[0].HasStopTokenID || len(data) > maxPrefix+maxTemplateTail {
		d.tmpl.ok = false
		return
	}
	t := &d.tmpl
	t.ok, t.index, t.ids = true, d.outs[0].Index, c.ids0 >= 0
	t.head = append(t.head[:0], data[:c.text0]...)
	if t.ids {
		t.mid = append(t.mid[:0], data[c.text1:c.ids0]...)
		t.tail = append(t.tail[:0], data[c.ids1:]...)
	} else {
		t.mid = t.mid[:0]
		t.tail = append(t.tail[:0], data[c.text1:]...)
	}
}

// maxTemplateTail bounds, with maxPrefix, the size of a remembered chunk.
const maxTemplateTail = 512

// feedTemplate decodes data when it matches the template and reports
// whether it did.
func (d *completionsDecoder) feedTemplate(data []byte) bool {
	t := &d.tmpl
	if !t.ok || !bytes.HasPrefix(data, t.head) {
		return false
	}
	f := fastScan{s: data, i: len(t.head)}
	raw, esc, ok := f.rawString()
	if !ok {
		return false
	}
	f.i-- // the closing quote
	ids := d.ids[:0]
	if t.ids {
		if !bytes.HasPrefix(data[f.i:], t.mid) {
			return false
		}
		f.i += len(t.mid)
		d.ids = ids
		if !d.fastIDs(&f) {
			d.ids = d.ids[:0]
			return false
		}
		ids = d.ids
		f.i-- // the ']'
	}
	if !bytes.Equal(data[f.i:], t.tail) {
		return false
	}
	text := d.text[:0]
	if esc {
		if text, ok = unescape(text, raw); !ok {
			return false
		}
	} else {
		text = append(text, raw...)
	}
	d.text, d.ids = text, ids
	d.outs, d.next = append(d.outs[:0], Output{Index: t.index, HasText: true}), 0
	out := &d.outs[0]
	if d.idsOnly && (len(text) == 0 || t.ids) {
		out.HasText = false
	} else {
		out.Text = text[:len(text):len(text)]
	}
	if len(ids) > 0 {
		out.TokenIDs = ids[:len(ids):len(ids)]
	}
	return true
}

// fastIDs reads the token ids of an array whose '[' was read, through its
// ']'.
func (d *completionsDecoder) fastIDs(f *fastScan) bool {
	if f.eat(']') {
		return true
	}
	for {
		id, ok := f.uint()
		if !ok || id > 1<<32-1 {
			return false
		}
		d.ids = append(d.ids, uint32(id))
		if f.eat(',') {
			continue
		}
		return f.eat(']')
	}
}

// fastChoices reads the choices array.
func (d *completionsDecoder) fastChoices(f *fastScan) bool {
	if !f.eat('[') {
		return false
	}
	if f.eat(']') {
		return true
	}
	for {
		if !d.fastChoice(f) {
			return false
		}
		if f.eat(',') {
			continue
		}
		return f.eat(']')
	}
}

// fastChoice reads one choice object into a new Output.
func (d *completionsDecoder) fastChoice(f *fastScan) bool {
	if !f.eat('{') {
		return false
	}
	d.outs = append(d.outs, Output{})
	out := &d.outs[len(d.outs)-1]
	idStart := len(d.ids)
	textSpan := span{}
	idsArray := false
	var reason []byte
	var stopSpan span
	var stopID uint64
	hasStop, hasStopID := false, false
	seen := 0
	mark := func(bit int) bool {
		if seen&bit != 0 {
			return false
		}
		seen |= bit
		return true
	}
	if f.peek() != '}' {
		for {
			k, ok := f.key()
			if !ok {
				return false
			}
			switch string(k) {
			case "index":
				if !mark(fcIndex) {
					return false
				}
				if !f.null() {
					n, ok := f.uint()
					if !ok || n > MaxChoices {
						return false
					}
					out.Index = int(n)
				}
			case "text":
				if !mark(fcText) {
					return false
				}
				if !f.null() {
					if !f.eat('"') {
						return false
					}
					d.cand.text0 = f.i
					raw, esc, ok := f.rawString()
					if !ok {
						return false
					}
					d.cand.text1 = f.i - 1
					start := len(d.text)
					if esc {
						if d.text, ok = unescape(d.text, raw); !ok {
							return false
						}
					} else {
						d.text = append(d.text, raw...)
					}
					textSpan = span{int32(start), int32(len(d.text))}
					out.HasText = true
				}
			case "token_ids":
				if !mark(fcIDs) {
					return false
				}
				if !f.null() {
					if !f.eat('[') {
						return false
					}
					idsArray = true
					d.cand.ids0 = f.i
					if !d.fastIDs(f) {
						return false
					}
					d.cand.ids1 = f.i - 1
				}
			case "logprobs":
				if !mark(fcLogprobs) || !f.null() {
					return false
				}
			case "finish_reason":
				if !mark(fcFinish) {
					return false
				}
				if !f.null() {
					if !f.eat('"') {
						return false
					}
					raw, esc, ok := f.rawString()
					if !ok || esc {
						return false
					}
					reason = raw
				}
			default:
				if string(k) != d.stopField {
					if !f.scalar() {
						return false
					}
					break
				}
				if !mark(fcStop) {
					return false
				}
				switch f.peek() {
				case 'n':
					if !f.null() {
						return false
					}
				case '"':
					f.i++
					raw, esc, ok := f.rawString()
					if !ok || esc {
						return false
					}
					start := len(d.text)
					d.text = append(d.text, raw...)
					stopSpan, hasStop = span{int32(start), int32(len(d.text))}, true
				default:
					id, ok := f.uint()
					if !ok || id > 1<<32-1 {
						return false
					}
					stopID, hasStopID = id, true
				}
			}
			if f.eat(',') {
				continue
			}
			break
		}
	}
	if !f.eat('}') {
		return false
	}
	d.idSpans = append(d.idSpans, span{int32(idStart), int32(len(d.ids))})
	d.textSpans = append(d.textSpans, textSpan, stopSpan)
	if d.idsOnly && (textSpan.end == textSpan.start || idsArray) {
		out.HasText = false
	}
	if len(reason) > 0 {
		if !hasStop && hasStopID {
			out.StopTokenID, out.HasStopTokenID = uint32(stopID), true
		}
		out.Finish = mapFinish(reason, hasStop || hasStopID)
		if out.Finish == FinishError {
			out.Err = finishError(reason)
		}
	}
	return true
}
