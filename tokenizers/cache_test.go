package tokenizers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func cacheGet(c *wordCache, w string) ([]uint32, bool) {
	key, h := c.hash(w)
	id, ids, ok := c.get(w, key, h)
	if ok && ids == nil {
		ids = []uint32{id}
	}
	return ids, ok
}

func cachePut(c *wordCache, w string, ids []uint32) {
	key, h := c.hash(w)
	c.put(w, key, h, ids)
}

func TestWordCache(t *testing.T) {
	var c wordCache
	// Words of every length up to the bound, with one id and with several,
	// and their near misses (one byte changed, one byte shorter).
	for n := 1; n <= cacheMaxWord; n++ {
		w := strings.Repeat("abcdefghij", 5)[:n]
		if _, ok := cacheGet(&c, w); ok {
			t.Fatalf("%q: hit before put", w)
		}
		ids := []uint32{uint32(n)}
		if n%2 == 0 {
			ids = append(ids, 7, 8)
		}
		cachePut(&c, w, ids)
	}
	for n := 1; n <= cacheMaxWord; n++ {
		w := strings.Repeat("abcdefghij", 5)[:n]
		got, ok := cacheGet(&c, w)
		want := []uint32{uint32(n)}
		if n%2 == 0 {
			want = append(want, 7, 8)
		}
		if !ok {
			t.Fatalf("%q: miss after put", w)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q ids (-want +got):\n%s", w, diff)
		}
		for k := range n {
			other := w[:k] + "X" + w[k+1:]
			if _, ok := cacheGet(&c, other); ok {
				t.Errorf("hit for %q", other)
			}
		}
	}
	// Words or id lists beyond the bounds are not cached.
	long := strings.Repeat("x", cacheMaxWord+1)
	cachePut(&c, long, []uint32{1})
	if _, ok := cacheGet(&c, long); ok {
		t.Error("over-long word cached")
	}
}

// TestWordCacheCollisions forces every word onto one hash: puts beyond the
// probe bound are dropped, look-ups stay bounded and correct.
func TestWordCacheCollisions(t *testing.T) {
	var c wordCache
	const h = 12345 | 1
	for i := range 100 {
		w := fmt.Sprint("word-", i)
		key, _ := c.hash(w)
		c.put(w, key, h, []uint32{uint32(i)})
	}
	for i := range 100 {
		w := fmt.Sprint("word-", i)
		key, _ := c.hash(w)
		id, _, ok := c.get(w, key, h)
		if ok != (i < cacheMaxProbe) {
			t.Errorf("word %d cached = %v", i, ok)
		}
		if ok && id != uint32(i) {
			t.Errorf("word %d id = %v", i, id)
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
		w := fmt.Sprint("a longer word ", i)
		if _, ok := cacheGet(&c, w); ok {
			t.Fatalf("word %d cached before put", i)
		}
		cachePut(&c, w, []uint32{uint32(i), uint32(i + 1)})
		ids, ok := cacheGet(&c, w)
		if !ok {
			dropped++
		} else if ids[0] != uint32(i) || ids[1] != uint32(i+1) {
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
