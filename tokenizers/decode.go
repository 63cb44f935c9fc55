package tokenizers

import (
	"bytes"
	"unicode/utf8"
)

// decKind is a decoder step.
type decKind uint8

const (
	decByteLevel decKind = iota
	decByteFallback
	decFuse
	decStrip
	decReplace
	decMetaspace
)

type decStep struct {
	kind        decKind
	from, to    string // Replace pattern and content; Metaspace replacement in from
	strip       string // Strip content
	start, stop int    // Strip counts
	prefix      bool   // Metaspace: the encoder prepended the replacement
}

// decoderChain is tokenizer.json's decoder as a list of steps. With none
// (no decoder at all), tokens are joined with spaces, as Hugging Face does.
type decoderChain struct {
	steps   []decStep
	none    bool
	pureBL  bool // exactly one ByteLevel step: decode via BPE.decoded
	hasBFB  bool // contains ByteFallback
	rawJoin bool // tiktoken: concatenate token bytes, then lossy UTF-8
}

// decodeScratch holds the buffers of one decode; reuse it to decode without
// allocating.
type decodeScratch struct {
	a, b pieces
	raw  []byte
}

// pieces is a list of strings stored back to back in one buffer.
type pieces struct {
	data []byte
	ends []int
}

func (p *pieces) reset()   { p.data, p.ends = p.data[:0], p.ends[:0] }
func (p *pieces) len() int { return len(p.ends) }
func (p *pieces) addString(s string) {
	p.data = append(p.data, s...)
	p.ends = append(p.ends, len(p.data))
}
func (p *pieces) addBytes(s []byte) {
	p.data = append(p.data, s...)
	p.ends = append(p.ends, len(p.data))
}
func (p *pieces) appendLast(s []byte) {
	p.data = append(p.data, s...)
	p.ends[len(p.ends)-1] = len(p.data)
}
func (p *pieces) at(i int) []byte {
	a := 0
	if i > 0 {
		a = p.ends[i-1]
	}
	return p.data[a:p.ends[i]]
}

// appendDecode appends the decoding of ids to dst.
func (t *BPE) appendDecode(dst []byte, ids []uint32, skipSpecial bool, d *decodeScratch) []byte {
	ch := &t.dec
	if ch.pureBL || ch.rawJoin {
		raw := d.raw[:0]
		for _, id := range ids {
			if int(id) >= len(t.tokens) || !t.known[id] || skipSpecial && t.special[id] {
				continue
			}
			raw = append(raw, t.decoded[id]...)
		}
		d.raw = raw
		return appendLossy(dst, raw)
	}
	cur, nxt := &d.a, &d.b
	cur.reset()
	for _, id := range ids {
		if int(id) >= len(t.tokens) || !t.known[id] || skipSpecial && t.special[id] {
			continue
		}
		cur.addString(t.tokens[id])
	}
	if ch.none {
		for i := 0; i < cur.len(); i++ {
			if i > 0 {
				dst = append(dst, ' ')
			}
			dst = append(dst, cur.at(i)...)
		}
		return dst
	}
	for _, st := range ch.steps {
		nxt.reset()
		applyDecoder(&st, cur, nxt, d)
		cur, nxt = nxt, cur
	}
	return append(dst, cur.data...)
}

var replacementChar = []byte("\uFFFD")

// applyDecoder runs one decoder step over the tokens in in, writing out.
func applyDecoder(st *decStep, in, out *pieces, d *decodeScratch) {
	switch st.kind {
	case decByteLevel:
		raw := d.raw[:0]
		for i := 0; i < in.len(); i++ {
			raw = appendByteLevelDecoded(raw, in.at(i))
		}
		d.raw = raw
		out.data = appendLossy(out.data, raw)
		out.ends = append(out.ends, len(out.data))
	case decByteFallback:
		run := d.raw[:0]
		flush := func() {
			if len(run) == 0 {
				return
			}
			if utf8.Valid(run) {
				out.addBytes(run)
			} else {
				for range run {
					out.addBytes(replacementChar)
				}
			}
			run = run[:0]
		}
		for i := 0; i < in.len(); i++ {
			tok := in.at(i)
			if b, ok := parseByteToken(tok); ok {
				run = append(run, b)
				continue
			}
			flush()
			out.addBytes(tok)
		}
		flush()
		d.raw = run
	case decFuse:
		out.data = append(out.data, in.data...)
		out.ends = append(out.ends, len(out.data))
	case decStrip:
		for i := 0; i < in.len(); i++ {
			tok := in.at(i)
			for n := 0; n < st.start && bytes.HasPrefix(tok, []byte(st.strip)); n++ {
				tok = tok[len(st.strip):]
			}
			for n := 0; n < st.stop && bytes.HasSuffix(tok, []byte(st.strip)); n++ {
				tok = tok[:len(tok)-len(st.strip)]
			}
			out.addBytes(tok)
		}
	case decReplace:
		for i := 0; i < in.len(); i++ {
			tok := in.at(i)
			out.ends = append(out.ends, 0)
			for {
				j := bytes.Index(tok, []byte(st.from))
				if j < 0 || st.from == "" {
					break
				}
				out.data = append(out.data, tok[:j]...)
				out.data = append(out.data, st.to...)
				tok = tok[j+len(st.from):]
			}
			out.appendLast(tok)
		}
	case decMetaspace:
		for i := 0; i < in.len(); i++ {
			tok := in.at(i)
			out.ends = append(out.ends, 0)
			for {
				j := bytes.Index(tok, []byte(st.from))
				if j < 0 {
					break
				}
				out.data = append(out.data, tok[:j]...)
				if !(i == 0 && st.prefix) {
					out.data = append(out.data, ' ')
				}
				tok = tok[j+len(st.from):]
			}
			out.appendLast(tok)
		}
	}
}

// parseByteToken recognises a byte-fallback token "<0xHH>".
func parseByteToken(tok []byte) (byte, bool) {
	if len(tok) != 6 || tok[0] != '<' || tok[1] != '0' || tok[2] != 'x' || tok[5] != '>' {
		return 0, false
	}
	hi, ok1 := hexVal(tok[3])
	lo, ok2 := hexVal(tok[4])
	return hi<<4 | lo, ok1 && ok2
}

func hexVal(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// appendLossy appends b to dst, replacing each maximal ill-formed subpart of
// invalid UTF-8 with one U+FFFD, as Rust's String::from_utf8_lossy does (Go's
// strings.ToValidUTF8 would replace whole runs instead).
func appendLossy(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			j := i + 1
			for j < len(b) && b[j] < 0x80 {
				j++
			}
			dst = append(dst, b[i:j]...)
			i = j
			continue
		}
		n := validPrefix(b[i:])
		if n > 0 {
			dst = append(dst, b[i:i+n]...)
			i += n
			continue
		}
		dst = append(dst, replacementChar...)
		i += invalidLen(b[i:])
	}
	return dst
}

// validPrefix returns the length of the valid multi-byte sequence at the
// start of b, or 0.
func validPrefix(b []byte) int {
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError && n <= 1 {
		return 0
	}
	return n
}

// invalidLen returns the length of the maximal ill-formed subpart at the
// start of b (at least 1): the longest prefix of a well-formed sequence.
func invalidLen(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case 0xE1 <= c && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		x := b[n]
		if k == 0 {
			if x < lo || x > hi {
				break
			}
		} else if x < 0x80 || x > 0xBF {
			break
		}
		n++
	}
	return n
}

// The GPT-2 byte-level alphabet: every byte is written as a printable
// character so token strings are valid text ("Ġ" is the space byte).
var (
	byteToChar [256]rune
	charToByte = map[rune]byte{}
)

func init() {
	n := 0
	for b := 0; b < 256; b++ {
		if '!' <= b && b <= '~' || 0xA1 <= b && b <= 0xAC || 0xAE <= b && b <= 0xFF {
			byteToChar[b] = rune(b)
		} else {
			byteToChar[b] = rune(256 + n)
			n++
		}
		charToByte[byteToChar[b]] = byte(b)
	}
}

// appendByteLevelDecoded appends the bytes a byte-level token stands for:
// each character mapped back to its byte; a token with a character outside
// the alphabet (an added token such as "<｜User｜>") is kept as it is.
func appendByteLevelDecoded(dst, tok []byte) []byte {
	start := len(dst)
	for i := 0; i < len(tok); {
		r, n := utf8.DecodeRune(tok[i:])
		b, ok := charToByte[r]
		if !ok || r == utf8.RuneError && n == 1 {
			return append(dst[:start], tok...)
		}
		dst = append(dst, b)
		i += n
	}
	return dst
}

// byteLevelBytes returns the raw bytes of a byte-level token string and
// whether every character was in the alphabet.
func byteLevelBytes(tok string) (string, bool) {
	buf := make([]byte, 0, len(tok))
	for _, r := range tok {
		b, ok := charToByte[r]
		if !ok {
			return tok, false
		}
		buf = append(buf, b)
	}
	return string(buf), true
}
