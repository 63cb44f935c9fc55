package tokenizers

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonReader is a small pull reader for the bulk of a tokenizer.json: the
// vocabulary and the merges, hundreds of thousands of strings that
// encoding/json decodes several times slower. Everything else is handed to
// encoding/json as raw values. It reads well-formed JSON exactly and reports
// malformed input as an error with its offset; it never panics.
type jsonReader struct {
	b   []byte
	i   int
	err error
	buf []byte // scratch for strings with escapes

	escapedLast bool // the last strBytes result lives in buf
}

func (r *jsonReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = invalid("offset %d: %s", r.i, fmt.Sprintf(format, args...))
	}
	r.i = len(r.b)
}

func (r *jsonReader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (r *jsonReader) peek() byte {
	r.ws()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

func (r *jsonReader) expect(c byte) bool {
	if r.peek() != c {
		r.fail("expected %q", c)
		return false
	}
	r.i++
	return true
}

// strBytes reads a string and returns its contents; the slice aliases the
// input when the string has no escapes, r.buf otherwise (valid until the
// next call).
func (r *jsonReader) strBytes() []byte {
	r.escapedLast = false
	if !r.expect('"') {
		return nil
	}
	start := r.i
	for r.i < len(r.b) {
		c := r.b[r.i]
		if c == '"' {
			s := r.b[start:r.i]
			r.i++
			return s
		}
		if c == '\\' {
			return r.escaped(start)
		}
		if c < 0x20 {
			r.fail("control character in string")
			return nil
		}
		r.i++
	}
	r.fail("unterminated string")
	return nil
}

// escaped finishes a string that contains escapes, from its start.
func (r *jsonReader) escaped(start int) []byte {
	r.escapedLast = true
	out := append(r.buf[:0], r.b[start:r.i]...)
	for r.i < len(r.b) {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			r.buf = out
			return out
		case c < 0x20:
			r.fail("control character in string")
			return nil
		case c != '\\':
			out = append(out, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.b) {
			break
		}
		e := r.b[r.i+1]
		r.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			u := r.hex4()
			if r.err != nil {
				return nil
			}
			rn := rune(u)
			if utf16.IsSurrogate(rn) {
				// A high surrogate followed by \uDC00-DFFF is one
				// character; anything else is U+FFFD, as encoding/json.
				rn = utf8.RuneError
				if u < 0xDC00 && r.i+1 < len(r.b) && r.b[r.i] == '\\' && r.b[r.i+1] == 'u' {
					save := r.i
					r.i += 2
					lo := r.hex4()
					if dec := utf16.DecodeRune(rune(u), rune(lo)); dec != utf8.RuneError {
						rn = dec
					} else {
						r.i = save
					}
				}
			}
			out = utf8.AppendRune(out, rn)
		default:
			r.fail("bad escape \\%c", e)
			return nil
		}
	}
	r.fail("unterminated string")
	return nil
}

func (r *jsonReader) hex4() uint16 {
	if r.i+4 > len(r.b) {
		r.fail("short \\u escape")
		return 0
	}
	v, err := strconv.ParseUint(string(r.b[r.i:r.i+4]), 16, 16)
	if err != nil {
		r.fail("bad \\u escape")
		return 0
	}
	r.i += 4
	return uint16(v)
}

// uint reads a non-negative integer that fits in 32 bits.
func (r *jsonReader) uint32() uint32 {
	r.ws()
	start := r.i
	var v uint64
	for r.i < len(r.b) && '0' <= r.b[r.i] && r.b[r.i] <= '9' {
		v = v*10 + uint64(r.b[r.i]-'0')
		if v > 1<<32-1 {
			r.fail("id out of range")
			return 0
		}
		r.i++
	}
	if r.i == start {
		r.fail("expected a non-negative integer")
	}
	return uint32(v)
}

// skip skips one value and returns its raw bytes (scalars are not
// validated here; encoding/json validates the values it is given).
func (r *jsonReader) skip() []byte {
	r.ws()
	start := r.i
	if r.i >= len(r.b) {
		r.fail("expected a value")
		return nil
	}
	switch r.b[r.i] {
	case '"':
		r.strBytes()
	case '{', '[':
		depth := 0
		for r.i < len(r.b) {
			switch r.b[r.i] {
			case '"':
				r.strBytes()
				if r.err != nil {
					return nil
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
			r.i++
			if depth == 0 {
				return r.b[start:r.i]
			}
		}
		r.fail("unterminated value")
		return nil
	default:
		for r.i < len(r.b) && !isDelim(r.b[r.i]) {
			r.i++
		}
	}
	if r.err != nil {
		return nil
	}
	return r.b[start:r.i]
}

func isDelim(c byte) bool {
	return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// object calls field for each key of an object; field must consume the
// value.
func (r *jsonReader) object(field func(key []byte)) {
	if !r.expect('{') {
		return
	}
	if r.peek() == '}' {
		r.i++
		return
	}
	for r.err == nil {
		key := r.strBytes()
		if !r.expect(':') {
			return
		}
		field(key)
		switch r.peek() {
		case ',':
			r.i++
		case '}':
			r.i++
			return
		default:
			r.fail("expected , or }")
		}
	}
}

// array calls elem for each element; elem must consume it.
func (r *jsonReader) array(elem func()) {
	if !r.expect('[') {
		return
	}
	if r.peek() == ']' {
		r.i++
		return
	}
	for r.err == nil {
		elem()
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return
		default:
			r.fail("expected , or ]")
		}
	}
}

// readTokenizerJSON reads a tokenizer.json: the model's vocab and merges
// with the fast reader, every other value with encoding/json.
func readTokenizerJSON(data []byte) (*hfFile, *hfModel, [][2][]byte, error) {
	var f hfFile
	var m hfModel
	var merges [][2][]byte
	sawModel := false
	r := &jsonReader{b: data}
	r.object(func(key []byte) {
		var dst any
		switch string(key) {
		case "model":
			sawModel = true
			merges = r.model(&m)
			return
		case "version":
			dst = &f.Version
		case "added_tokens":
			dst = &f.AddedTokens
		case "normalizer":
			dst = &f.Normalizer
		case "pre_tokenizer":
			dst = &f.PreTokenizer
		case "post_processor":
			dst = &f.PostProcessor
		case "decoder":
			dst = &f.Decoder
		default:
			r.skip()
			return
		}
		raw := r.skip()
		if r.err == nil {
			if err := json.Unmarshal(raw, dst); err != nil {
				r.fail("%s: %v", key, err)
			}
		}
	})
	if r.err == nil {
		if r.peek() != 0 {
			r.fail("data after the top-level object")
		}
	}
	if r.err != nil {
		return nil, nil, nil, r.err
	}
	if !sawModel {
		return nil, nil, nil, invalid("no model")
	}
	return &f, &m, merges, nil
}

// model reads the model object into m and returns its merges, as slices
// that alias the input where possible.
func (r *jsonReader) model(m *hfModel) [][2][]byte {
	var merges [][2][]byte
	if r.peek() == 'n' { // null
		r.skip()
		return nil
	}
	r.object(func(key []byte) {
		switch string(key) {
		case "vocab":
			if r.peek() != '{' {
				r.skip() // Unigram's list; the model type is reported
				return
			}
			m.Vocab = make(map[string]uint32, 1<<16)
			r.object(func(tok []byte) {
				m.Vocab[string(tok)] = r.uint32()
			})
		case "merges":
			r.array(func() {
				switch r.peek() {
				case '"':
					s := r.strBytes()
					for k := 0; k < len(s); k++ {
						if s[k] == ' ' {
							merges = append(merges, [2][]byte{clone(s[:k], r), clone(s[k+1:], r)})
							return
						}
					}
					r.fail("merge %q has no space", s)
				case '[':
					var pair [2][]byte
					n := 0
					r.array(func() {
						s := r.strBytes()
						if n < 2 {
							pair[n] = clone(s, r)
						}
						n++
					})
					if n != 2 {
						r.fail("merge is not a pair")
					}
					merges = append(merges, pair)
				default:
					r.fail("merge is neither a string nor a pair")
				}
			})
		default:
			raw := r.skip()
			if r.err != nil {
				return
			}
			var dst any
			switch string(key) {
			case "type":
				dst = &m.Type
			case "dropout":
				dst = &m.Dropout
			case "unk_token":
				dst = &m.UnkToken
			case "continuing_subword_prefix":
				dst = &m.ContinuingSubwordPrefix
			case "end_of_word_suffix":
				dst = &m.EndOfWordSuffix
			case "fuse_unk":
				dst = &m.FuseUnk
			case "byte_fallback":
				dst = &m.ByteFallback
			case "ignore_merges":
				dst = &m.IgnoreMerges
			default:
				return
			}
			if err := json.Unmarshal(raw, dst); err != nil {
				r.fail("model %s: %v", key, err)
			}
		}
	})
	return merges
}

// clone returns s when it aliases the input (stable), or a copy when the
// last string read had escapes and lives in the scratch buffer.
func clone(s []byte, r *jsonReader) []byte {
	if r.escapedLast {
		return append([]byte(nil), s...)
	}
	return s
}
