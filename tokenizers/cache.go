package tokenizers

import "math/rand/v2"

// wordCache remembers the ids of recently encoded words. Agent prompts repeat
// the same few thousand words (" the", "\n\n", `":"`, " {\n", "string",
// indentation runs) many times, and a hit replaces the merge loop, whose pair
// look-ups miss the CPU caches on a vocabulary of 150 000 tokens, by one hash
// and one comparison.
//
// It is an open-addressing table with linear probing over two arenas (word
// bytes and ids), so it allocates only when it is created and a lookup never
// allocates. Its size is fixed; when it fills up it is cleared and refilled.
// A cache belongs to one encodeScratch, so it is used by one goroutine at a
// time and needs no lock; the scratch pool keeps a warm cache per core.
type wordCache struct {
	seed  uint64
	slots []cacheSlot
	keys  []byte
	ids   []uint32
	used  int
}

type cacheSlot struct {
	hash uint32 // hash|1 of the word; 0 marks an empty slot
	koff uint32 // word bytes are keys[koff : koff+klen]
	ioff uint32 // ids are ids[ioff : ioff+ilen]
	klen uint8
	ilen uint8
}

const (
	cacheSlots = 1 << 14 // 16384 slots of 16 bytes
	// cacheMaxWord is the longest word cached; longer words are rare
	// and unlikely to repeat.
	cacheMaxWord = 40
	cacheMaxIDs  = 255
	// cacheMaxProbe bounds the slots a get or put looks at.
	cacheMaxProbe = 32
	// The table is cleared when it is three quarters full or an arena
	// reaches its bound (both reached only by thousands of distinct
	// words).
	cacheMaxUsed = cacheSlots * 3 / 4
	cacheKeyCap  = cacheMaxUsed * 12
	cacheIDCap   = cacheMaxUsed * 4
)

func (c *wordCache) init() {
	c.seed = rand.Uint64() | 1
	c.slots = make([]cacheSlot, cacheSlots)
	c.keys = make([]byte, 0, cacheKeyCap+cacheMaxWord)
	c.ids = make([]uint32, 0, cacheIDCap+cacheMaxIDs)
}

// hash returns the hash of w for get and put, creating the table on first
// use.
func (c *wordCache) hash(w string) uint32 {
	if c.slots == nil {
		c.init()
	}
	return hashWord(w, c.seed) | 1
}

// hashWord is a seeded multiply-xorshift hash of w, reading it eight bytes
// at a time and short words with two overlapping loads. The seed is random
// per cache; get and put also stop after cacheMaxProbe slots, so text
// crafted to collide cannot make look-ups slow.
func hashWord(w string, seed uint64) uint32 {
	n := len(w)
	h := seed ^ uint64(n)*0x9E3779B97F4A7C15
	var x uint64
	switch {
	case n >= 8:
		for i := 0; i+8 < n; i += 8 {
			h = (h ^ le64(w[i:])) * 0xBF58476D1CE4E5B9
			h ^= h >> 31
		}
		x = le64(w[n-8:]) // the last eight bytes, overlapping
	case n >= 4:
		x = uint64(le32(w)) | uint64(le32(w[n-4:]))<<32
	case n > 0:
		x = uint64(w[0])<<16 | uint64(w[n/2])<<8 | uint64(w[n-1])
	}
	h = (h ^ x) * 0x94D049BB133111EB
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return uint32(h >> 32)
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// get returns the cached ids of w (aliasing the cache: valid until the next
// put) and whether w was cached.
func (c *wordCache) get(w string, h uint32) ([]uint32, bool) {
	i := h & (cacheSlots - 1)
	for range cacheMaxProbe {
		s := &c.slots[i]
		if s.hash == 0 {
			return nil, false
		}
		if s.hash == h && int(s.klen) == len(w) && string(c.keys[s.koff:s.koff+uint32(s.klen)]) == w {
			return c.ids[s.ioff : s.ioff+uint32(s.ilen)], true
		}
		i = (i + 1) & (cacheSlots - 1)
	}
	return nil, false
}

// put caches ids as the encoding of w (not already cached; len(w) ≤
// cacheMaxWord).
func (c *wordCache) put(w string, h uint32, ids []uint32) {
	if len(ids) > cacheMaxIDs || len(w) > cacheMaxWord {
		return
	}
	if c.used >= cacheMaxUsed || len(c.keys) >= cacheKeyCap || len(c.ids) >= cacheIDCap {
		clear(c.slots)
		c.keys, c.ids, c.used = c.keys[:0], c.ids[:0], 0
	}
	i := h & (cacheSlots - 1)
	for k := 0; c.slots[i].hash != 0; k++ {
		if k == cacheMaxProbe {
			return // a crowded neighbourhood: leave w uncached
		}
		i = (i + 1) & (cacheSlots - 1)
	}
	c.slots[i] = cacheSlot{hash: h, koff: uint32(len(c.keys)), klen: uint8(len(w)), ioff: uint32(len(c.ids)), ilen: uint8(len(ids))}
	c.keys = append(c.keys, w...)
	c.ids = append(c.ids, ids...)
	c.used++
}
