package tokenizers

import (
	"bytes"
	"errors"
	"unicode/utf8"
)

// ErrRewrite is returned by DecodeStream when decoding one more token would
// change text that was already emitted. It is terminal for the stream:
// emitted text is never rewritten.
var ErrRewrite = errors.New("tokenizers: incremental decoding rewrote already emitted text")

// promptContext is how many prompt ids a DecodeStream keeps as context (the
// constant TGI and vLLM use).
const promptContext = 5

// compactAt is how far the window may advance before the id buffer is
// shifted down, keeping memory bounded for any output length.
const compactAt = 256

// DecodeStream detokenizes a generated sequence incrementally: Step takes
// one id and returns the text it completes. It is the algorithm of TGI,
// vLLM and Dynamo: the last few ids are decoded with and without the new
// one and the difference is emitted, so every decoder (byte-level,
// byte-fallback, Metaspace, Strip) gives exactly the text Decode gives for
// the whole sequence. Text is held back while it ends in an incomplete
// UTF-8 character or, for byte-fallback vocabularies, in a run of <0xHH>
// tokens, because Hugging Face decodes such a run atomically.
//
// Call sequence:
//
//	NewDecodeStream { Step } Finish [ Reset { Step } Finish ]
//
// Finish must be called at the end: it flushes a held incomplete tail (as
// U+FFFD, the way Decode would show it). The []byte returned by Step and
// Finish aliases the stream's buffers and is valid until the next call.
// After warm-up Step does not allocate for a *BPE tokenizer. A DecodeStream
// is not safe for concurrent use.
type DecodeStream struct {
	dec  streamDecoder
	skip bool

	ids          []uint32 // context + generated ids still needed
	prefixOffset int
	readOffset   int
	emitted      bool
	err          error

	prefixText []byte
	newText    []byte
}

// streamDecoder is what DecodeStream needs from a tokenizer.
type streamDecoder interface {
	// decodeInto decodes ids into dst[:0] and returns it.
	decodeInto(dst []byte, ids []uint32, skip bool) []byte
	// unstable reports whether appending ids could still change how the
	// tail of ids decodes (a trailing byte-fallback run).
	unstable(ids []uint32, skip bool) bool
	// partial reports whether text, the result of the last decodeInto,
	// ends in an incomplete character.
	partial(text []byte) bool
}

// DecodeStreamConfig configures a DecodeStream.
type DecodeStreamConfig struct {
	// Prompt holds the ids before the generated ones: only its last five
	// are kept, as context for the first generated ids. nil starts with no
	// context. Reset gives the next sequence its own prompt.
	Prompt []uint32

	// SkipSpecialTokens makes special tokens produce no text (the engines'
	// skip_special_tokens).
	SkipSpecialTokens bool
}

// NewDecodeStream returns a stream for the tokens generated after
// cfg.Prompt. The stream does not retain cfg.Prompt.
func NewDecodeStream(tok Tokenizer, cfg DecodeStreamConfig) *DecodeStream {
	s := &DecodeStream{skip: cfg.SkipSpecialTokens}
	if b, ok := tok.(*BPE); ok {
		s.dec = &bpeStreamDecoder{t: b}
	} else {
		s.dec = genericStreamDecoder{tok}
	}
	s.Reset(cfg.Prompt)
	return s
}

// Reset starts a new sequence after prompt, keeping the buffers.
func (s *DecodeStream) Reset(prompt []uint32) {
	if len(prompt) > promptContext {
		prompt = prompt[len(prompt)-promptContext:]
	}
	s.ids = append(s.ids[:0], prompt...)
	s.prefixOffset = 0
	s.readOffset = len(s.ids)
	s.emitted = false
	s.err = nil
}

// Step adds one generated id and returns the text that became final, which
// may be empty while text is held back. After an error every call returns
// the same error.
func (s *DecodeStream) Step(id uint32) ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	s.ids = append(s.ids, id)
	if s.dec.unstable(s.ids[s.readOffset:], s.skip) {
		return nil, nil
	}
	return s.advance(false)
}

// Finish flushes the held tail at the end of the sequence.
func (s *DecodeStream) Finish() ([]byte, error) {
	if s.err != nil {
		return nil, s.err
	}
	return s.advance(true)
}

func (s *DecodeStream) advance(final bool) ([]byte, error) {
	if s.readOffset == len(s.ids) {
		return nil, nil
	}
	s.prefixText = s.dec.decodeInto(s.prefixText, s.ids[s.prefixOffset:s.readOffset], s.skip)
	s.newText = s.dec.decodeInto(s.newText, s.ids[s.prefixOffset:], s.skip)
	if !final && s.dec.partial(s.newText) {
		return nil, nil
	}
	if s.emitted && !bytes.HasPrefix(s.newText, s.prefixText) {
		s.err = ErrRewrite
		return nil, s.err
	}
	if len(s.newText) <= len(s.prefixText) {
		return nil, nil
	}
	split := len(s.prefixText)
	if !s.emitted {
		// The prompt context may decode differently once joined with
		// the new ids; never cut inside a character.
		for split > 0 && !utf8.RuneStart(s.newText[split]) {
			split--
		}
	}
	out := s.newText[split:]
	s.prefixOffset = s.readOffset
	s.readOffset = len(s.ids)
	s.emitted = true
	if s.prefixOffset >= compactAt {
		n := copy(s.ids, s.ids[s.prefixOffset:])
		s.ids = s.ids[:n]
		s.readOffset -= s.prefixOffset
		s.prefixOffset = 0
	}
	return out, nil
}

// bpeStreamDecoder decodes with a *BPE into reused buffers.
type bpeStreamDecoder struct {
	t *BPE
	d decodeScratch
}

func (b *bpeStreamDecoder) decodeInto(dst []byte, ids []uint32, skip bool) []byte {
	return b.t.appendDecode(dst[:0], ids, skip, &b.d)
}

// partial follows Hugging Face (text ends in U+FFFD), except for tiktoken,
// where Dynamo classifies strictly valid bytes as complete: a token that is
// literally U+FFFD is not held.
func (b *bpeStreamDecoder) partial(text []byte) bool {
	if !bytes.HasSuffix(text, replacementChar) {
		return false
	}
	return !(b.t.dec.rawJoin && utf8.Valid(b.d.raw))
}

func (b *bpeStreamDecoder) unstable(ids []uint32, skip bool) bool {
	return b.t.HasUnstableSuffix(ids, skip)
}

// genericStreamDecoder adapts any Tokenizer (allocating per step).
type genericStreamDecoder struct{ tok Tokenizer }

func (g genericStreamDecoder) decodeInto(dst []byte, ids []uint32, skip bool) []byte {
	s, err := g.tok.Decode(ids, skip)
	if err != nil {
		return dst[:0]
	}
	return append(dst[:0], s...)
}

func (g genericStreamDecoder) partial(text []byte) bool {
	return bytes.HasSuffix(text, replacementChar)
}

func (g genericStreamDecoder) unstable(ids []uint32, skip bool) bool {
	if u, ok := g.tok.(interface {
		HasUnstableSuffix([]uint32, bool) bool
	}); ok {
		return u.HasUnstableSuffix(ids, skip)
	}
	return false
}

// HasUnstableSuffix reports whether appending ids could still change how
// the tail of ids decodes: true when the decoder has ByteFallback and the
// last token that is not skipped is a <0xHH> byte token, because a run of
// byte tokens decodes atomically (one invalid byte turns the whole run into
// U+FFFD).
func (t *BPE) HasUnstableSuffix(ids []uint32, skipSpecialTokens bool) bool {
	if t.byteTokens == nil {
		return false
	}
	for i := len(ids) - 1; i >= 0; i-- {
		id := ids[i]
		if int(id) >= len(t.tokens) || !t.known[id] || skipSpecialTokens && t.special[id] {
			continue
		}
		return t.byteTokens[id]
	}
	return false
}
