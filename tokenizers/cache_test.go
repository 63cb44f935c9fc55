package tokenizers

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWordCache(t *testing.T) {
	var c wordCache
	h := c.hash("hello")
	if _, ok := c.get("hello", h); ok {
		t.Fatal("empty cache hit")
	}
	c.put("hello", h, []uint32{1, 2})
	got, ok := c.get("hello", h)
	if !ok {
		t.Fatal("miss after put")
	}
	if diff := cmp.Diff([]uint32{1, 2}, got); diff != "" {
		t.Errorf("ids (-want +got):\n%s", diff)
	}
	if _, ok := c.get("hellp", c.hash("hellp")); ok {
		t.Error("hit for another word")
	}
	// Words or id lists beyond the bounds are not cached.
	long := string(make([]byte, cacheMaxWord+1))
	c.put(long, c.hash(long), []uint32{1})
	if _, ok := c.get(long, c.hash(long)); ok {
		t.Error("over-long word cached")
	}
}

// TestWordCacheCollisions forces every word onto one hash: puts beyond the
// probe bound are dropped, look-ups stay bounded and correct.
func TestWordCacheCollisions(t *testing.T) {
	var c wordCache
	const h = 12345 | 1
	c.hash("")
	for i := range 100 {
		w := fmt.Sprint("w", i)
		c.put(w, h, []uint32{uint32(i)})
	}
	for i := range 100 {
		w := fmt.Sprint("w", i)
		ids, ok := c.get(w, h)
		if ok != (i < cacheMaxProbe) {
			t.Errorf("word %d cached = %v", i, ok)
		}
		if ok && (len(ids) != 1 || ids[0] != uint32(i)) {
			t.Errorf("word %d ids = %v", i, ids)
		}
	}
}

// TestWordCacheClears fills the cache past its bound: it is cleared and
// keeps answering correctly. A put into a crowded neighbourhood may be
// dropped, rarely.
func TestWordCacheClears(t *testing.T) {
	var c wordCache
	dropped := 0
	for i := range 3 * cacheSlots {
		w := fmt.Sprint("word", i)
		h := c.hash(w)
		if _, ok := c.get(w, h); ok {
			t.Fatalf("word %d cached before put", i)
		}
		c.put(w, h, []uint32{uint32(i), uint32(i + 1)})
		ids, ok := c.get(w, h)
		if !ok {
			dropped++
		} else if ids[0] != uint32(i) {
			t.Fatalf("word %d: %v", i, ids)
		}
		if c.used > cacheMaxUsed || len(c.keys) > cacheKeyCap+cacheMaxWord || len(c.ids) > cacheIDCap+cacheMaxIDs {
			t.Fatalf("cache over its bounds: %d slots, %d key bytes, %d ids", c.used, len(c.keys), len(c.ids))
		}
	}
	if dropped > 3*cacheSlots/200 {
		t.Errorf("%d of %d puts dropped", dropped, 3*cacheSlots)
	}
	if cap(c.keys) != cacheKeyCap+cacheMaxWord || cap(c.ids) != cacheIDCap+cacheMaxIDs {
		t.Errorf("arenas grew: %d, %d", cap(c.keys), cap(c.ids))
	}
}
