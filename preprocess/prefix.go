package preprocess

import (
	"os"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/valyala/fastjson"
)

// The prefix cache. The next turn of a conversation renders to the
// previous prompt plus a little more (same system prompt and tools,
// messages appended), so most of its token ids are already known. The
// cache keeps recent prompts with their ids and the id counts at safe
// boundaries, and encodes only the text after the last safe boundary that
// both prompts share.
//
// A boundary is safe when the ids before it cannot depend on the text
// after it. The tokenizer splits its input at added tokens and encodes the
// pieces between them independently, so the position right after an
// added token T (special, or not special but matched on the raw text, such
// as DeepSeek's <｜User｜>) is safe when:
//   - T is matched there: no other added token overlaps T's start, and no
//     longer added token matches at T's start;
//   - no added token overlaps the position itself (it would be matched
//     instead of what follows);
//   - T has none of the flags that look at its neighbours (lstrip, rstrip,
//     single_word) and is matched on the raw text (normalized false), or
//     the tokenizer has no normalizer that could change the text;
//   - the tokenizer treats the start of its input like any other position
//     (no Metaspace/Prepend normalizer or add_prefix_space pre-tokenizer,
//     which would add a prefix to the encoded suffix). Tokenizers that do
//     are not cached at all.
//
// Encoding a prompt from scratch uses the same segmentation, so cold and
// cached preparations run the same code; tests compare both with the
// tokenizer's own one-piece encoding on every captured conversation.

// prefixRules are the tokenizer facts the cache needs, read from
// tokenizer.json.
type prefixRules struct {
	ok      bool
	added   []string // every added token's content
	safe    []string // added tokens whose end is a boundary candidate, longest first
	firstOf [256]bool
}

func loadPrefixRules(path string) prefixRules {
	var r prefixRules
	data, err := os.ReadFile(path)
	if err != nil {
		return r
	}
	members := topLevel(data, "added_tokens", "normalizer", "pre_tokenizer")
	for _, key := range []string{"normalizer", "pre_tokenizer"} {
		s := string(members[key])
		if strings.Contains(s, `"Metaspace"`) || strings.Contains(s, `"Prepend"`) || strings.Contains(s, `"add_prefix_space":true`) || strings.Contains(s, `"add_prefix_space": true`) {
			return r
		}
	}
	// Tokens matched on the normalized text split it just like the others
	// when normalizing changes nothing (no normalizer, or an empty
	// sequence); otherwise (NFC, say) normalizing the text after such a
	// token could combine across it, so it is not a boundary.
	identity := true
	if n := members["normalizer"]; len(n) > 0 && string(n) != "null" {
		var np fastjson.Parser
		nv, err := np.ParseBytes(n)
		identity = err == nil && string(nv.GetStringBytes("type")) == "Sequence" && len(nv.GetArray("normalizers")) == 0
	}
	var p fastjson.Parser
	v, err := p.ParseBytes(members["added_tokens"])
	if err != nil {
		return r
	}
	for _, a := range v.GetArray() {
		c := string(a.GetStringBytes("content"))
		if c == "" {
			continue
		}
		r.added = append(r.added, c)
		if !a.GetBool("lstrip") && !a.GetBool("rstrip") && !a.GetBool("single_word") && (!a.GetBool("normalized") || identity) {
			r.safe = append(r.safe, c)
			r.firstOf[c[0]] = true
		}
	}
	slices.SortFunc(r.safe, func(a, b string) int { return len(b) - len(a) })
	r.ok = len(r.safe) > 0
	return r
}

// straddles reports whether an added token occurrence in text covers
// position pos without starting or ending there.
func (r *prefixRules) straddles(text string, pos int) bool {
	for _, c := range r.added {
		for k := 1; k < len(c) && k <= pos; k++ {
			if pos-k+len(c) <= len(text) && pos-k+len(c) > pos && text[pos-k:pos-k+len(c)] == c {
				return true
			}
		}
	}
	return false
}

// longerAt reports whether an added token longer than n matches at pos.
func (r *prefixRules) longerAt(text string, pos, n int) bool {
	for _, c := range r.added {
		if len(c) > n && strings.HasPrefix(text[pos:], c) {
			return true
		}
	}
	return false
}

// boundaries returns the safe boundary positions in text[from:], ascending.
func (r *prefixRules) boundaries(text string, from int) []int {
	var out []int
	for i := from; i < len(text); i++ {
		if !r.firstOf[text[i]] {
			continue
		}
		for _, s := range r.safe {
			if strings.HasPrefix(text[i:], s) {
				end := i + len(s)
				if !r.straddles(text, i) && !r.longerAt(text, i, len(s)) && !r.straddles(text, end) {
					out = append(out, end)
				}
				i = end - 1
				break
			}
		}
	}
	return out
}

// prefixEntry is one cached prompt.
type prefixEntry struct {
	text   string
	ids    []uint32
	bounds []bound
}

type bound struct{ pos, n int }

// entryOverhead is what an entry costs besides its text, ids and bounds
// (the struct, slice headers, the cache's pointer).
const entryOverhead = 128

// size is the memory the entry holds, in bytes.
func (e *prefixEntry) size() int64 {
	return int64(len(e.text)) + 4*int64(cap(e.ids)) + 16*int64(cap(e.bounds)) + entryOverhead
}

// prefixCache holds at most max entries and maxBytes bytes (entry sizes),
// evicting the least recently added first. Only prompts that were
// accepted are added (Preprocessor.remember), so a client cannot fill it
// with prompts it had answered 400.
type prefixCache struct {
	mu       sync.Mutex
	entries  []*prefixEntry // most recent last
	max      int
	maxBytes int64
	bytes    int64
}

func newPrefixCache(n int, maxBytes int64) *prefixCache {
	return &prefixCache{max: n, maxBytes: maxBytes}
}

// best returns the cached entry sharing the longest safe prefix with text,
// and that boundary.
func (c *prefixCache) best(text string) (*prefixEntry, bound) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var be *prefixEntry
	var bb bound
	for i := len(c.entries) - 1; i >= 0; i-- {
		e := c.entries[i]
		l := commonPrefix(e.text, text)
		if l <= bb.pos {
			continue
		}
		j, _ := slices.BinarySearchFunc(e.bounds, l+1, func(b bound, pos int) int { return b.pos - pos })
		if j > 0 && e.bounds[j-1].pos > bb.pos {
			be, bb = e, e.bounds[j-1]
		}
	}
	return be, bb
}

// add caches e, evicting the oldest entries until both bounds hold; an
// entry larger than the byte bound is not cached.
func (c *prefixCache) add(e *prefixEntry) {
	size := e.size()
	if size > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, old := range c.entries {
		if old.text == e.text {
			c.bytes -= old.size()
			c.entries = slices.Delete(c.entries, i, i+1)
			break
		}
	}
	for len(c.entries) > 0 && (len(c.entries) >= c.max || c.bytes+size > c.maxBytes) {
		c.bytes -= c.entries[0].size()
		c.entries = slices.Delete(c.entries, 0, 1)
	}
	c.entries = append(c.entries, e)
	c.bytes += size
}

// stats returns the number of entries and the bytes they hold.
func (c *prefixCache) stats() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.bytes
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i+512 <= n && a[i:i+512] == b[i:i+512] {
		i += 512
	}
	for i+16 <= n && a[i:i+16] == b[i:i+16] {
		i += 16
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// encode returns the token ids of a rendered prompt (added tokens
// recognised, no post-processor tokens), reusing the ids of the longest
// cached prefix up to a safe boundary. The ids are owned by the caller.
// The returned entry (nil without a cache) is the prompt for the cache:
// remember adds it once the request was accepted.
func (p *Preprocessor) encode(text string) ([]uint32, *prefixEntry) {
	tok := p.model.Tokenizer
	if p.cache == nil {
		return tok.AppendEncode(nil, text, false), nil
	}
	r := &p.model.prefix
	e, b := p.cache.best(text)
	// The prefix boundary must still be safe in the new text (the text
	// after it may now start a token that overlaps it).
	if e != nil && r.straddles(text, b.pos) {
		e, b = nil, bound{}
	}
	ids := make([]uint32, 0, b.n+len(text)/3+16)
	var bounds []bound
	if e != nil {
		ids = append(ids, e.ids[:b.n]...)
		for _, eb := range e.bounds {
			if eb.pos > b.pos {
				break
			}
			bounds = append(bounds, eb)
		}
	}
	pos := b.pos
	for _, end := range r.boundaries(text, pos) {
		ids = tok.AppendEncode(ids, text[pos:end], false)
		bounds = append(bounds, bound{end, len(ids)})
		pos = end
	}
	ids = tok.AppendEncode(ids, text[pos:], false)
	return ids, &prefixEntry{text: text, ids: slices.Clone(ids), bounds: slices.Clip(bounds)}
}

// remember adds an accepted prompt's entry to the prefix cache (nil: no
// cache).
func (p *Preprocessor) remember(e *prefixEntry) {
	if e != nil && p.cache != nil {
		p.cache.add(e)
	}
}

// decodeRune is utf8.DecodeRuneInString (kept local for the JSON writer).
func decodeRune(s string) (rune, int) { return utf8.DecodeRuneInString(s) }

// topLevel returns the raw values of the wanted members of the JSON object
// in data, by a byte scan that skips the other values (tokenizer.json's
// vocabulary and merges are megabytes that need not be parsed here). It
// returns what it found before any malformation.
func topLevel(data []byte, want ...string) map[string][]byte {
	out := map[string][]byte{}
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return out
	}
	i++
	for {
		i = skipSpace(data, i)
		if i >= len(data) || data[i] != '"' {
			return out
		}
		kend := skipString(data, i)
		if kend < 0 {
			return out
		}
		key := string(data[i+1 : kend-1])
		i = skipSpace(data, kend)
		if i >= len(data) || data[i] != ':' {
			return out
		}
		i = skipSpace(data, i+1)
		vend := skipValue(data, i)
		if vend < 0 {
			return out
		}
		if slices.Contains(want, key) {
			out[key] = data[i:vend]
		}
		i = skipSpace(data, vend)
		if i >= len(data) || data[i] != ',' {
			return out
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] ('"'),
// or -1.
func skipString(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// skipValue returns the index after the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			j = skipString(b, j)
			if j < 0 {
				return -1
			}
			if depth == 0 {
				return j
			}
			j--
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j + 1
			}
			if depth < 0 {
				return -1
			}
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	if depth == 0 {
		return len(b)
	}
	return -1
}
