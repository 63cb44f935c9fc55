package preprocess

import (
	"slices"
	"sync"

	"github.com/agentwire/agentwire/tokenizers"
)

// The prefix cache. The next turn of a conversation renders to the
// previous prompt plus a little more (same system prompt and tools,
// messages appended), so most of its token ids are already known. The
// cache keeps recent prompts with their ids and the id counts at safe
// boundaries, and encodes only the text after the last safe boundary that
// both prompts share.
//
// Which positions are safe is the tokenizer's to say
// (tokenizers.BPE.Boundaries: right after an added token that is matched
// there and looks at no neighbour); tokenizers that know none are not
// cached at all. Encoding a prompt from scratch uses the same
// segmentation, so cold and cached preparations run the same code; tests
// compare both with the tokenizer's own one-piece encoding on every
// captured conversation.

// prefixRules are the tokenizer's boundaries (ok: it has some).
type prefixRules struct {
	ok bool
	*tokenizers.Boundaries
}

func newPrefixRules(tok *tokenizers.BPE) prefixRules {
	b := tok.Boundaries()
	return prefixRules{ok: b != nil, Boundaries: b}
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
	if e != nil && !r.Keeps(text, b.pos) {
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
	for _, end := range r.Append(nil, text, pos) {
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
