package tokenizers

import "math/rand/v2"

// wordCache remembers the ids of recently encoded words. Agent prompts repeat
// the same few thousand words (" the", "\n\n", `":"`, " {\n", "string",
// indentation runs) many times, and a hit replaces the merge loop, whose pair
// look-ups miss the CPU caches on a vocabulary of 150 000 tokens, by one hash
// and one comparison.
//
// It is an open-addressing table with linear probing. A slot holds the first
// eight bytes of its word and, when the word is one token, its id, so the
// common hit reads one slot and nothing else; longer words and id lists live
// in two arenas. It allocates only when it is created, and a lookup never
// allocates. Its size is fixed; when it fills up it is cleared and refilled.
// A cache belongs to one encodeScratch, so it is used by one goroutine at a
// time and needs no lock; the scratch pool keeps a warm cache per core.
type wordCache struct {
	seed  uint64
	slots []cacheSlot
	keys  []byte   // bytes 8… of words longer than eight bytes
	ids   []uint32 // id lists of words of several tokens
	used  int
}

type cacheSlot struct {
	key  uint64 // the word's first eight bytes, little-endian, zero-padded
	hash uint32 // hash|1 of the word; 0 marks an empty slot
	id   uint32 // the id when ilen is 1, else the offset of the ids in ids
	koff uint32 // bytes 8… of the word are keys[koff : koff+klen-8]
	klen uint8
	ilen uint8
}

const (
	cacheSlots = 1 << 14 // 16384 slots of 24 bytes
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
	cacheKeyCap  = cacheMaxUsed * 8
	cacheIDCap   = cacheMaxUsed * 4
)

func (c *wordCache) init() {
	c.seed = rand.Uint64() | 1
	c.slots = make([]cacheSlot, cacheSlots)
	c.keys = make([]byte, 0, cacheKeyCap+cacheMaxWord)
	c.ids = make([]uint32, 0, cacheIDCap+cacheMaxIDs)
}

// hash returns the first eight bytes of w (as stored in a slot) and the hash
// of w for get and put, creating the table on first use. The hash is a
// seeded multiply-xorshift over eight-byte loads; the seed is random per
// cache, and get and put stop after cacheMaxProbe slots, so text crafted to
// collide cannot make look-ups slow.
func (c *wordCache) hash(w string) (key uint64, h uint32) {
	if c.slots == nil {
		c.init()
	}
	n := len(w)
	x := c.seed ^ uint64(n)*0x9E3779B97F4A7C15
	switch {
	case n >= 8:
		key = le64(w)
		for i := 8; i < n; i += 8 {
			var y uint64
			if i+8 <= n {
				y = le64(w[i:])
			} else {
				y = le64(w[n-8:]) // the last eight bytes, overlapping
			}
			x = (x ^ y) * 0xBF58476D1CE4E5B9
			x ^= x >> 31
		}
	case n >= 4:
		// bytes 0-3, then bytes 4…n-1 from an overlapping load
		key = uint64(le32(w)) | uint64(le32(w[n-4:])>>(8*(8-n)))<<32
	case n == 3:
		key = uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16
	case n == 2:
		key = uint64(w[0]) | uint64(w[1])<<8
	case n == 1:
		key = uint64(w[0])
	}
	x = (x ^ key) * 0x94D049BB133111EB
	x ^= x >> 29
	x *= 0xBF58476D1CE4E5B9
	return key, uint32(x>>32) | 1
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

// get returns the cached encoding of w, whose key and hash are given: one id
// (ids nil) or several (ids, aliasing the cache: valid until the next put).
func (c *wordCache) get(w string, key uint64, h uint32) (id uint32, ids []uint32, ok bool) {
	i := h & (cacheSlots - 1)
	for range cacheMaxProbe {
		s := &c.slots[i]
		if s.hash == 0 {
			return 0, nil, false
		}
		if s.hash == h && s.key == key && int(s.klen) == len(w) &&
			(len(w) <= 8 || string(c.keys[s.koff:s.koff+uint32(len(w)-8)]) == w[8:]) {
			if s.ilen == 1 {
				return s.id, nil, true
			}
			return 0, c.ids[s.id : s.id+uint32(s.ilen)], true
		}
		i = (i + 1) & (cacheSlots - 1)
	}
	return 0, nil, false
}

// put caches ids as the encoding of w (not already cached), with the key and
// hash from hash.
func (c *wordCache) put(w string, key uint64, h uint32, ids []uint32) {
	if len(ids) == 0 || len(ids) > cacheMaxIDs || len(w) > cacheMaxWord {
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
	s := cacheSlot{key: key, hash: h, klen: uint8(len(w)), ilen: uint8(len(ids))}
	if len(w) > 8 {
		s.koff = uint32(len(c.keys))
		c.keys = append(c.keys, w[8:]...)
	}
	if len(ids) == 1 {
		s.id = ids[0]
	} else {
		s.id = uint32(len(c.ids))
		c.ids = append(c.ids, ids...)
	}
	c.slots[i] = s
	c.used++
}
