package tokenizers

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
)

// Tokenizer turns text into token ids and back. Implementations are safe for
// concurrent use.
type Tokenizer interface {
	// Encode returns the ids of text. Added-token strings in the text
	// (special or not, e.g. "<|im_start|>") are recognised as their
	// tokens. With addSpecialTokens the post-processor's tokens (a BOS,
	// say) are added too; most callers that render a chat template pass
	// false, because the template already contains them.
	Encode(text string, addSpecialTokens bool) ([]uint32, error)

	// EncodeSegments encodes each segment on its own and concatenates the
	// ids; a segment with AllowSpecial false is encoded as ordinary text
	// even if it contains added-token strings, so user content cannot
	// inject control tokens. The post-processor runs once, around the
	// whole sequence, when addSpecialTokens is set.
	EncodeSegments(segments []Segment, addSpecialTokens bool) ([]uint32, error)

	// Decode returns the text of ids, skipping special tokens when
	// skipSpecialTokens is set. Bytes that do not form valid UTF-8 (an id
	// sequence cut inside a character) decode as U+FFFD exactly as Hugging
	// Face's library does; see IsPartial. Unknown ids are skipped.
	Decode(ids []uint32, skipSpecialTokens bool) (string, error)

	// TokenToID returns the id of a token string as written in the
	// vocabulary (byte-level spelling such as "Ġthe" for byte-level
	// models) or of an added token.
	TokenToID(token string) (id uint32, ok bool)

	// IDToToken is the inverse of TokenToID.
	IDToToken(id uint32) (token string, ok bool)

	// VocabSize returns one more than the largest id the tokenizer knows,
	// added tokens included.
	VocabSize() int

	// SpecialTokenIDs returns the ids of the special tokens, ascending.
	SpecialTokenIDs() []uint32
}

// Segment is a piece of text for Tokenizer.EncodeSegments.
type Segment struct {
	Text string
	// AllowSpecial lets added-token strings in Text become their tokens.
	// Leave it false for anything a user or a tool wrote.
	AllowSpecial bool
}

// IsPartial reports whether decoded text ends in U+FFFD, the sign that the
// ids ended inside a multi-byte character (Dynamo's Partial result).
func IsPartial(text string) bool { return strings.HasSuffix(text, "\uFFFD") }

// Errors returned by the loaders. Wrapped errors name the file and the
// feature; test with errors.Is.
var (
	// ErrUnsupported is returned for a tokenizer file that needs a
	// feature this package does not implement.
	ErrUnsupported = errors.New("tokenizers: unsupported")
	// ErrInvalid is returned for a malformed tokenizer file.
	ErrInvalid = errors.New("tokenizers: invalid tokenizer file")
	// ErrSplitTimeout is returned by Encode, EncodeSegments, EncodeBatch
	// and AppendEncodeChecked for a tokenizer whose split
	// pattern is not one of the known ones (so it runs on the
	// backtracking regexp engine) when matching it takes too long: a
	// pattern such as (a+)+$ needs exponential time on some texts. The
	// known patterns run on hand-written linear scanners and never
	// return it.
	ErrSplitTimeout = errors.New("tokenizers: split pattern took too long")
)

// maxID bounds token ids: tables are indexed by id, so a corrupt file with a
// huge id must not make the loader allocate gigabytes. The largest
// vocabularies in use have about a million entries.
const maxID = 1<<24 - 1

func unsupported(format string, args ...any) error {
	return fmt.Errorf("%w %s", ErrUnsupported, fmt.Sprintf(format, args...))
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// LoadFile loads a tokenizer by file name: a Hugging Face tokenizer.json
// (any *.json), or a tiktoken rank file (tiktoken.model, *.tiktoken) with its
// tokenizer_config.json (and, when present, config.json for model_type) in
// the same directory. Any other file type is an ErrUnsupported error.
func LoadFile(path string) (*BPE, error) {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".json":
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("tokenizers: %w", err)
		}
		t, err := FromJSON(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if err := t.promoteSpecials(filepath.Join(filepath.Dir(path), "tokenizer_config.json")); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return t, nil
	case ".model", ".tiktoken":
		return loadTiktokenFile(path)
	}
	return nil, unsupported("tokenizer file type: %q (want tokenizer.json, tiktoken.model or *.tiktoken)", ext)
}

// BPE is the pure-Go tokenizer: a byte-pair-encoding model with the
// normalizers, pre-tokenizers, decoders and post-processor of a Hugging Face
// tokenizer.json, or a tiktoken rank file. It is immutable after loading and
// safe for concurrent use.
type BPE struct {
	model bpeModel

	added      []addedToken
	addedIDs   map[string]uint32 // content → id
	rawAdded   *addedMatcher     // added tokens matched in the input text
	normAdded  *addedMatcher     // added tokens matched in normalized text
	special    []bool            // by id
	specialIDs []uint32

	normalizer []normStep
	pre        []preStep
	post       postProcessor
	dec        decoderChain

	// tokens[id] is the token string (vocabulary spelling or added
	// content); decoded[id] its bytes after a pure ByteLevel decoder.
	tokens  []string
	known   []bool
	decoded []string

	// byteTokens marks <0xHH> ids when the decoder has ByteFallback; a
	// stream whose last token is one must wait (HasUnstableSuffix).
	byteTokens []bool

	// kimiRuns: split white-space/non-white-space runs longer than this
	// many characters before encoding (Kimi's tokenizer); 0 = off.
	kimiRuns int

	promoted []string // contents of specials promoted at load

	tiktoken bool // loaded from a tiktoken file (no Boundaries)

	scratch sync.Pool // *encodeScratch
}

var _ Tokenizer = (*BPE)(nil)

type encodeScratch struct {
	word wordScratch
	buf  []byte
	err  error // first error of this encode (ErrSplitTimeout)
}

func (t *BPE) getScratch() *encodeScratch {
	if s, ok := t.scratch.Get().(*encodeScratch); ok {
		return s
	}
	return &encodeScratch{}
}

// Encode implements Tokenizer.
func (t *BPE) Encode(text string, addSpecialTokens bool) ([]uint32, error) {
	ids, err := t.AppendEncodeChecked(make([]uint32, 0, idsEstimate(text)), text, addSpecialTokens)
	if err != nil {
		return nil, err
	}
	return ids, nil
}

// idsEstimate is the capacity Encode allocates for the ids of text: agent
// text (English, code, JSON) averages three to four bytes per token, so one
// allocation nearly always suffices.
func idsEstimate(text string) int { return len(text)/3 + 16 }

// AppendEncode appends the ids of text to dst and returns the extended
// slice. With a dst of sufficient capacity it does not allocate, except
// where a normalizer has to rewrite the text (Unicode normalization of
// non-ASCII text, Prepend, Replace, Lowercase).
//
// It cannot fail for files whose split patterns are the known ones. For a
// file whose pattern runs on the regexp fallback, a split that exceeds the
// time limit (see ErrSplitTimeout) is given up and the rest of that piece
// of text is encoded unsplit: every byte is still encoded and decodes back,
// but the ids are not the reference's. AppendEncodeChecked reports that case
// instead.
func (t *BPE) AppendEncode(dst []uint32, text string, addSpecialTokens bool) []uint32 {
	dst, _ = t.appendEncode(dst, text, addSpecialTokens)
	return dst
}

// AppendEncodeChecked is AppendEncode that fails with ErrSplitTimeout (and
// returns dst unextended) when a regexp-fallback split exceeds its time
// limit.
func (t *BPE) AppendEncodeChecked(dst []uint32, text string, addSpecialTokens bool) ([]uint32, error) {
	n := len(dst)
	dst, err := t.appendEncode(dst, text, addSpecialTokens)
	if err != nil {
		return dst[:n], err
	}
	return dst, nil
}

func (t *BPE) appendEncode(dst []uint32, text string, addSpecialTokens bool) ([]uint32, error) {
	sc := t.getScratch()
	if addSpecialTokens {
		dst = append(dst, t.post.prefix...)
	}
	dst = t.encodeText(dst, text, true, sc)
	if addSpecialTokens {
		dst = append(dst, t.post.suffix...)
	}
	err := sc.err
	sc.err = nil
	t.scratch.Put(sc)
	return dst, err
}

// EncodeSegments implements Tokenizer.
func (t *BPE) EncodeSegments(segments []Segment, addSpecialTokens bool) ([]uint32, error) {
	sc := t.getScratch()
	var dst []uint32
	if addSpecialTokens {
		dst = append(dst, t.post.prefix...)
	}
	for _, s := range segments {
		dst = t.encodeText(dst, s.Text, s.AllowSpecial, sc)
	}
	if addSpecialTokens {
		dst = append(dst, t.post.suffix...)
	}
	err := sc.err
	sc.err = nil
	t.scratch.Put(sc)
	if err != nil {
		return nil, err
	}
	return dst, nil
}

// encodeText encodes text without post-processing. Without allowAdded no
// added token is matched.
func (t *BPE) encodeText(dst []uint32, text string, allowAdded bool, sc *encodeScratch) []uint32 {
	if t.kimiRuns > 0 {
		for len(text) > 0 {
			n := kimiChunk(text, t.kimiRuns)
			dst = t.encodeRaw(dst, text[:n], allowAdded, sc)
			text = text[n:]
		}
		return dst
	}
	return t.encodeRaw(dst, text, allowAdded, sc)
}

func (t *BPE) encodeRaw(dst []uint32, text string, allowAdded bool, sc *encodeScratch) []uint32 {
	if !allowAdded {
		return t.encodeNormalized(dst, t.normalize(text), nil, true, sc)
	}
	for pos := 0; pos < len(text); {
		tok, start, end := t.rawAdded.next(text, pos)
		if tok == nil {
			start, end = len(text), len(text)
		}
		if start > pos {
			dst = t.encodeNormalized(dst, t.normalize(text[pos:start]), t.normAdded, pos == 0, sc)
		}
		if tok != nil {
			dst = append(dst, tok.id)
		}
		pos = end
	}
	return dst
}

// encodeNormalized splits normalized text around the normalized added
// tokens and pre-tokenizes and encodes the rest.
func (t *BPE) encodeNormalized(dst []uint32, s string, m *addedMatcher, first bool, sc *encodeScratch) []uint32 {
	for pos := 0; pos < len(s); {
		tok, start, end := m.next(s, pos)
		if tok == nil {
			start, end = len(s), len(s)
		}
		if start > pos {
			dst = t.preTokenize(dst, 0, s[pos:start], first && pos == 0, sc)
		}
		if tok != nil {
			dst = append(dst, tok.id)
		}
		pos = end
	}
	return dst
}

// Decode implements Tokenizer.
func (t *BPE) Decode(ids []uint32, skipSpecialTokens bool) (string, error) {
	var d decodeScratch
	return string(t.appendDecode(nil, ids, skipSpecialTokens, &d)), nil
}

// TokenToID implements Tokenizer.
func (t *BPE) TokenToID(token string) (uint32, bool) {
	if id, ok := t.addedIDs[token]; ok {
		return id, true
	}
	id, ok := t.model.vocab[token]
	return id, ok
}

// IDToToken implements Tokenizer.
func (t *BPE) IDToToken(id uint32) (string, bool) {
	if int(id) >= len(t.tokens) || !t.known[id] {
		return "", false
	}
	return t.tokens[id], true
}

// VocabSize implements Tokenizer.
func (t *BPE) VocabSize() int { return len(t.tokens) }

// SpecialTokenIDs implements Tokenizer.
func (t *BPE) SpecialTokenIDs() []uint32 { return append([]uint32(nil), t.specialIDs...) }

// NumSpecialTokensAdded returns how many ids Encode adds around a single
// sequence with addSpecialTokens (the post-processor's BOS/EOS).
func (t *BPE) NumSpecialTokensAdded() int { return len(t.post.prefix) + len(t.post.suffix) }

// PromotedSpecialTokens returns the added tokens LoadFile made special
// because the tokenizer_config.json beside the file marks them special while
// tokenizer.json does not (Dynamo's loader rule; it keeps Qwen2-VL's
// <|image_pad|> from being split by BPE). Callers may log them.
func (t *BPE) PromotedSpecialTokens() []string { return append([]string(nil), t.promoted...) }

// EncodeBatch encodes each text, spreading the texts over up to GOMAXPROCS
// goroutines; out[i] holds exactly the ids Encode gives for texts[i]. Small
// batches are encoded on the calling goroutine. The error, if any, is the
// one of the first failing text.
func (t *BPE) EncodeBatch(texts []string, addSpecialTokens bool) ([][]uint32, error) {
	out := make([][]uint32, len(texts))
	total := 0
	for _, s := range texts {
		total += len(s)
	}
	workers := min(runtime.GOMAXPROCS(0), len(texts))
	if workers <= 1 || total < batchParallelBytes {
		for i, s := range texts {
			ids, err := t.AppendEncodeChecked(make([]uint32, 0, idsEstimate(s)), s, addSpecialTokens)
			if err != nil {
				return nil, fmt.Errorf("text %d: %w", i, err)
			}
			out[i] = ids
		}
		return out, nil
	}
	errs := make([]error, len(texts))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(texts) {
					return
				}
				out[i], errs[i] = t.AppendEncodeChecked(make([]uint32, 0, idsEstimate(texts[i])), texts[i], addSpecialTokens)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("text %d: %w", i, err)
		}
	}
	return out, nil
}

// batchParallelBytes is the batch size below which EncodeBatch does not
// start goroutines (about 0.5 ms of encoding).
const batchParallelBytes = 16 << 10

// IsSpecial reports whether id is a special token (skipped by Decode with
// skipSpecialTokens).
func (t *BPE) IsSpecial(id uint32) bool { return int(id) < len(t.special) && t.special[id] }

// kimiChunk returns the length of the first chunk of s such that no run of
// white-space or of non-white-space characters inside a chunk is longer than
// max characters (Kimi's tokenization_kimi.py, which uses Python's
// str.isspace).
func kimiChunk(s string, max int) int {
	if len(s) <= max {
		return len(s) // no run of more than max characters fits
	}
	runLen, isSpace := 0, false
	for i := 0; i < len(s); {
		var sp bool
		n := 1
		if b := s[i]; b < 0x80 {
			sp = asciiClass[b]&cSpace != 0 || 0x1c <= b && b <= 0x1f
		} else {
			var r rune
			var c class
			r, n, c = at(s, i)
			sp = c&cSpace != 0 || 0x1c <= r && r <= 0x1f
		}
		if i == 0 || sp != isSpace {
			runLen, isSpace = 1, sp
		} else {
			runLen++
			if runLen > max {
				return i
			}
		}
		i += n
	}
	return len(s)
}
