package engine

import (
	"encoding/binary"
	"hash/maphash"
	"strings"
	"sync"
)

// Defaults of PrefixCacheConfig.
const (
	DefaultPrefixBlockTokens   = 16    // vLLM's default --block-size
	DefaultPrefixMaxBlocks     = 65536 // 1,048,576 tokens at 16 tokens a block
	DefaultTextBytesPerToken   = 4     // what a text prompt counts as one token
	maxPrefixBlockTokens       = 1024
	maxPrefixTextBytesPerToken = 64
)

// PrefixCacheConfig configures a PrefixCache. Zero fields take the
// defaults.
type PrefixCacheConfig struct {
	// BlockTokens is the number of tokens of one cache block (default 16,
	// vLLM's block size; at most 1024). Only whole blocks are cached, so a
	// hit is a multiple of it.
	BlockTokens int
	// MaxBlocks bounds the cache (default 65536 blocks, about 40 bytes
	// each: ≈ 2.6 MB for 1M tokens at 16 tokens a block). When it is
	// full, the least recently used block is dropped.
	MaxBlocks int
	// TextBytesPerToken is how many bytes of a text prompt (a request
	// without PromptIDs) count as one token (default 4, at most 64), as
	// the scripted backend counts its untokenized prompts.
	TextBytesPerToken int

	// ImagePlaceholder and ImageTokenID locate a request's images
	// (Request.Images, in order) in its prompt: the text the chat
	// template writes for one image, in a text prompt, and the token id
	// that marks one image in token ids (Qwen-VL's <|image_pad|>; 0:
	// none). A block holding an image's placeholder is keyed by the
	// image's hash too. When the prompt does not hold exactly one
	// placeholder per image (or none is set), every block is keyed by
	// all the images, so a hit is never reported for a different image.
	ImagePlaceholder string
	ImageTokenID     uint32
}

// PrefixCache reports what an engine with automatic prefix caching (vLLM's
// --enable-prefix-caching, SGLang's radix cache, TensorRT-LLM's KV block
// reuse) would report as cached prompt tokens, for engines that have no
// KV cache of their own: the replay engine and the scripted agents. It
// keeps hashes, never prompts:
//
//   - A prompt is cut into blocks of BlockTokens tokens (token ids, or
//     TextBytesPerToken bytes a token for a text prompt); block i is known
//     by a 64-bit hash of block i−1's hash, its own tokens and the hashes
//     of the images whose placeholder it holds (as vLLM's block hashes
//     include the multimodal hashes), so a block hits only when the whole
//     prefix up to its end, images included, was seen before.
//   - Use reports the leading blocks that hit, as tokens, and records the
//     prompt's blocks, as an engine keeps a prompt's KV blocks after its
//     prefill. As in vLLM, the last prompt token is always computed: the
//     hit never covers the whole prompt.
//   - At most MaxBlocks hashes are kept. When full, the least recently
//     used block is dropped; a prompt's blocks are marked used from its
//     last block to its first, so its first blocks, which every later
//     turn of the conversation shares, are dropped last (vLLM frees a
//     request's blocks in the same order).
//
// The next turn of a conversation (its prompt is the previous prompt, the
// model's answer and the new messages) therefore reports the previous
// prompt's whole blocks as cached, and any other request sharing a prefix
// (the same system prompt and tools) reports that prefix. The generated
// tokens are not recorded (a real engine also caches the blocks it
// generated, so it can report a few more). A hash collision (2⁻⁶⁴ per
// pair) would over-report; nothing else depends on the number.
//
// A PrefixCache is safe for concurrent use.
type PrefixCache struct {
	blockTokens int
	textBytes   int
	maxBlocks   int
	placeholder string
	imageToken  uint32
	seed        maphash.Seed

	mu      sync.Mutex
	index   map[uint64]int32 // block hash → slot
	slots   []prefixSlot     // the LRU list, linked through prev/next
	head    int32            // most recently used slot, -1 if none
	tail    int32            // least recently used slot, -1 if none
	touched []int32          // scratch: the current prompt's slots
	block   []byte           // scratch: the previous hash and one block
}

// prefixSlot is one cached block.
type prefixSlot struct {
	hash       uint64
	prev, next int32
}

// NewPrefixCache returns an empty PrefixCache.
func NewPrefixCache(cfg PrefixCacheConfig) *PrefixCache {
	c := &PrefixCache{blockTokens: cfg.BlockTokens, textBytes: cfg.TextBytesPerToken, maxBlocks: cfg.MaxBlocks,
		placeholder: cfg.ImagePlaceholder, imageToken: cfg.ImageTokenID,
		seed: maphash.MakeSeed(), index: map[uint64]int32{}, head: -1, tail: -1}
	if c.blockTokens <= 0 {
		c.blockTokens = DefaultPrefixBlockTokens
	}
	c.blockTokens = min(c.blockTokens, maxPrefixBlockTokens)
	if c.textBytes <= 0 {
		c.textBytes = DefaultTextBytesPerToken
	}
	c.textBytes = min(c.textBytes, maxPrefixTextBytesPerToken)
	if c.maxBlocks <= 0 {
		c.maxBlocks = DefaultPrefixMaxBlocks
	}
	return c
}

// Use reports the prompt length of req in tokens (len(PromptIDs), or the
// prompt text's bytes divided by TextBytesPerToken, rounded up) and how
// many of them the cache held, and records req's prompt. A nil
// PrefixCache reports the prompt length and no hits.
func (c *PrefixCache) Use(req *Request) (prompt, cached int64) {
	if len(req.PromptIDs) > 0 || req.Prompt == "" {
		prompt = int64(len(req.PromptIDs))
	} else {
		bpt := DefaultTextBytesPerToken
		if c != nil {
			bpt = c.textBytes
		}
		prompt = int64((len(req.Prompt) + bpt - 1) / bpt)
	}
	if c == nil || prompt < 2 {
		return prompt, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var hits int
	if len(req.PromptIDs) > 0 {
		hits = c.useIDs(req.PromptIDs, c.idMarks(req.PromptIDs, req.Images))
	} else {
		hits = c.useText(req.Prompt, c.textMarks(req.Prompt, req.Images))
	}
	return prompt, int64(hits * c.blockTokens)
}

// imageMarks walks a prompt's images in order with the position (token
// or byte) of each one's placeholder. all means the placeholders were not
// found: every block carries every image.
type imageMarks struct {
	imgs []Image
	next int  // the next image not yet keyed
	pos  int  // its placeholder's position, -1 when none is left
	all  bool // key every block by every image

	ids  []uint32 // a token-id prompt and its image token, or
	tok  uint32
	text string // a text prompt and its placeholder
	ph   string
}

// idMarks returns the marks of imgs in ids (ImageTokenID).
func (c *PrefixCache) idMarks(ids []uint32, imgs []Image) imageMarks {
	m := imageMarks{imgs: imgs, pos: -1, ids: ids, tok: c.imageToken}
	if len(imgs) == 0 {
		return m
	}
	n := 0
	if c.imageToken != 0 {
		for _, id := range ids {
			if id == c.imageToken {
				n++
			}
		}
	}
	if n != len(imgs) {
		m.all = true
		return m
	}
	m.pos = m.find(0)
	return m
}

// textMarks returns the marks of imgs in text (ImagePlaceholder).
func (c *PrefixCache) textMarks(text string, imgs []Image) imageMarks {
	m := imageMarks{imgs: imgs, pos: -1, text: text, ph: c.placeholder}
	if len(imgs) == 0 {
		return m
	}
	if c.placeholder == "" || strings.Count(text, c.placeholder) != len(imgs) {
		m.all = true
		return m
	}
	m.pos = m.find(0)
	return m
}

// find returns the position of the first placeholder at or after from,
// -1 if there is none.
func (m *imageMarks) find(from int) int {
	if m.ph == "" {
		for k := from; k < len(m.ids); k++ {
			if m.ids[k] == m.tok {
				return k
			}
		}
		return -1
	}
	if from > len(m.text) {
		return -1
	}
	k := strings.Index(m.text[from:], m.ph)
	if k < 0 {
		return -1
	}
	return from + k
}

// appendHashes appends to blk the hashes of the images the block ending
// before end carries: with all, every image; else those whose placeholder
// starts before end that no earlier block carried. Each hash ends with a
// 0 byte.
func (m *imageMarks) appendHashes(blk []byte, end int) []byte {
	if m.all {
		for i := range m.imgs {
			blk = append(blk, m.imgs[i].Hash...)
			blk = append(blk, 0)
		}
		return blk
	}
	for m.pos >= 0 && m.pos < end && m.next < len(m.imgs) {
		blk = append(blk, m.imgs[m.next].Hash...)
		blk = append(blk, 0)
		m.next++
		m.pos = m.find(m.pos + max(len(m.ph), 1))
	}
	return blk
}

// Len returns the number of blocks held.
func (c *PrefixCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.index)
}

// useIDs records the blocks of a token-id prompt and returns how many
// leading blocks hit. The last id is never part of a counted block.
func (c *PrefixCache) useIDs(ids []uint32, marks imageMarks) int {
	bt := c.blockTokens
	n := len(ids) / bt
	counted := (len(ids) - 1) / bt
	blk := c.scratch(4 * bt)
	var h uint64
	hits, missed := 0, false
	c.touched = c.touched[:0]
	for i := 0; i < n; i++ {
		for k, id := range ids[i*bt : (i+1)*bt] {
			binary.LittleEndian.PutUint32(blk[8+4*k:], id)
		}
		if len(marks.imgs) > 0 {
			blk = marks.appendHashes(blk[:8+4*bt], (i+1)*bt)
		}
		h = c.chain(blk, h)
		if c.record(h) && !missed && i < counted {
			hits++
		} else {
			missed = true
		}
	}
	c.block = blk // keep what the image hashes grew it to
	c.touch()
	return hits
}

// useText is useIDs for a text prompt: TextBytesPerToken bytes a token.
func (c *PrefixCache) useText(text string, marks imageMarks) int {
	bb := c.blockTokens * c.textBytes
	n := len(text) / bb
	counted := (len(text) - 1) / bb
	blk := c.scratch(bb)
	var h uint64
	hits, missed := 0, false
	c.touched = c.touched[:0]
	for i := 0; i < n; i++ {
		copy(blk[8:], text[i*bb:(i+1)*bb])
		if len(marks.imgs) > 0 {
			blk = marks.appendHashes(blk[:8+bb], (i+1)*bb)
		}
		h = c.chain(blk, h)
		if c.record(h) && !missed && i < counted {
			hits++
		} else {
			missed = true
		}
	}
	c.block = blk // keep what the image hashes grew it to
	c.touch()
	return hits
}

// scratch returns the block buffer: 8 bytes for the previous block's hash,
// then n bytes of the block.
func (c *PrefixCache) scratch(n int) []byte {
	if cap(c.block) < 8+n {
		c.block = make([]byte, 8+n)
	}
	return c.block[:8+n]
}

// chain is the hash of the block in blk[8:] after the block whose hash is
// prev.
func (c *PrefixCache) chain(blk []byte, prev uint64) uint64 {
	binary.LittleEndian.PutUint64(blk, prev)
	return maphash.Bytes(c.seed, blk)
}

// record looks h up, adds it when absent (dropping the least recently
// used block when full) and notes its slot for touch. It reports whether
// h was present.
func (c *PrefixCache) record(h uint64) bool {
	if s, ok := c.index[h]; ok {
		// Moved to the front now, so that this prompt's later blocks
		// cannot evict it.
		c.unlink(s)
		c.pushFront(s)
		c.touched = append(c.touched, s)
		return true
	}
	var s int32
	if len(c.slots) < c.maxBlocks {
		s = int32(len(c.slots))
		c.slots = append(c.slots, prefixSlot{prev: -1, next: -1})
	} else {
		s = c.tail
		c.unlink(s)
		delete(c.index, c.slots[s].hash)
	}
	c.slots[s].hash = h
	c.index[h] = s
	c.pushFront(s)
	c.touched = append(c.touched, s)
	return false
}

// touch marks the current prompt's blocks used, its last block first, so
// its first block ends most recently used. (In a prompt longer than the
// cache, a slot evicted and reused by a later block of the same prompt is
// listed twice; touching it twice is harmless.)
func (c *PrefixCache) touch() {
	for i := len(c.touched) - 1; i >= 0; i-- {
		s := c.touched[i]
		c.unlink(s)
		c.pushFront(s)
	}
}

func (c *PrefixCache) unlink(s int32) {
	sl := &c.slots[s]
	if sl.prev >= 0 {
		c.slots[sl.prev].next = sl.next
	} else if c.head == s {
		c.head = sl.next
	}
	if sl.next >= 0 {
		c.slots[sl.next].prev = sl.prev
	} else if c.tail == s {
		c.tail = sl.prev
	}
	sl.prev, sl.next = -1, -1
}

func (c *PrefixCache) pushFront(s int32) {
	sl := &c.slots[s]
	sl.prev, sl.next = -1, c.head
	if c.head >= 0 {
		c.slots[c.head].prev = s
	}
	c.head = s
	if c.tail < 0 {
		c.tail = s
	}
}
