package engine

import (
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

// seq returns the ids start, start+1, … (n of them).
func seq(start, n int) []uint32 {
	out := make([]uint32, n)
	for i := range out {
		out[i] = uint32(start + i)
	}
	return out
}

func cat(parts ...[]uint32) []uint32 {
	var out []uint32
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// TestPrefixCache plays request sequences through small caches (4-token
// blocks) and checks each request's prompt and cached counts.
func TestPrefixCache(t *testing.T) {
	sys := seq(100, 10) // a shared "system prompt" of 2½ blocks
	type use struct {
		ids            []uint32
		text           string
		prompt, cached int64
	}
	cases := []struct {
		name string
		cfg  PrefixCacheConfig
		uses []use
	}{
		{name: "conversation", cfg: PrefixCacheConfig{BlockTokens: 4}, uses: []use{
			{ids: cat(sys, seq(1, 3)), prompt: 13, cached: 0},
			// turn 2: turn 1's 3 whole blocks hit, the 4th (partial in turn 1) is new
			{ids: cat(sys, seq(1, 3), seq(50, 9)), prompt: 22, cached: 12},
			// turn 3 extends turn 2: its 5 whole blocks hit
			{ids: cat(sys, seq(1, 3), seq(50, 9), seq(70, 5)), prompt: 27, cached: 20},
			// another conversation with the same system prompt: 2 blocks
			{ids: cat(sys, seq(900, 8)), prompt: 18, cached: 8},
			// a different first token shares nothing
			{ids: cat(seq(7, 1), sys), prompt: 11, cached: 0},
		}},
		{name: "the last token is always computed", cfg: PrefixCacheConfig{BlockTokens: 4}, uses: []use{
			{ids: seq(1, 8), prompt: 8, cached: 0},
			{ids: seq(1, 8), prompt: 8, cached: 4}, // not 8: the last block holds the last token
			{ids: seq(1, 9), prompt: 9, cached: 8},
			{ids: seq(1, 1), prompt: 1, cached: 0},
			{ids: nil, prompt: 0, cached: 0},
		}},
		{name: "text prompts", cfg: PrefixCacheConfig{BlockTokens: 2, TextBytesPerToken: 4}, uses: []use{
			{text: strings.Repeat("a", 20), prompt: 5, cached: 0},
			{text: strings.Repeat("a", 20) + "bbbbbbb", prompt: 7, cached: 4},
			{text: strings.Repeat("a", 17), prompt: 5, cached: 4},
			{text: "b" + strings.Repeat("a", 20), prompt: 6, cached: 0},
		}},
		{name: "default text token", cfg: PrefixCacheConfig{BlockTokens: 1}, uses: []use{
			{text: "abcdefgh", prompt: 2, cached: 0},
			{text: "abcdefgh", prompt: 2, cached: 1},
			{text: "abcdefghi", prompt: 3, cached: 2},
		}},
		{name: "eviction drops a prompt's last blocks first", cfg: PrefixCacheConfig{BlockTokens: 4, MaxBlocks: 4}, uses: []use{
			{ids: seq(1, 13), prompt: 13, cached: 0},                 // blocks a1 a2 a3
			{ids: seq(500, 5), prompt: 5, cached: 0},                 // b1: the cache is full
			{ids: seq(600, 5), prompt: 5, cached: 0},                 // c1 evicts a3, not a1
			{ids: seq(1, 13), prompt: 13, cached: 8},                 // a1 a2 hit; a3 again (evicts b1)
			{ids: seq(1, 13), prompt: 13, cached: 12},                // all three
			{ids: seq(500, 5), prompt: 5, cached: 0},                 // b1 was evicted
			{ids: cat(seq(1, 8), seq(40, 8)), cached: 8, prompt: 16}, // a1 a2 stay in use
		}},
		{name: "a prompt longer than the cache", cfg: PrefixCacheConfig{BlockTokens: 2, MaxBlocks: 3}, uses: []use{
			{ids: seq(1, 20), prompt: 20, cached: 0},
			{ids: seq(1, 20), prompt: 20, cached: 0}, // its first blocks were evicted by its last
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := NewPrefixCache(tc.cfg)
			for i, u := range tc.uses {
				prompt, cached := c.Use(&Request{PromptIDs: u.ids, Prompt: u.text})
				require.Equal(t, u.prompt, prompt, "request %d: prompt %d cached %d, want %d %d", i, prompt, cached, u.prompt, u.cached)
				require.Equal(t, u.cached, cached, "request %d: prompt %d cached %d, want %d %d", i, prompt, cached, u.prompt, u.cached)
				bound := tc.cfg.MaxBlocks
				require.False(t, bound > 0 && c.Len() > bound, "request %d: %d blocks held, bound %d", i, c.Len(), bound)
			}
		})
	}
}

// TestPrefixCacheImages: a block holding an image's placeholder is keyed
// by the image's hash, so the same text with a different image hits only
// the blocks before the image, and the same image resent hits as text
// does. Without a way to find the placeholders every block is keyed by
// the images.
func TestPrefixCacheImages(t *testing.T) {
	const img = 9999
	// 4-token blocks: the image is in block 1 (tokens 4-7), the prompt
	// has 4 whole blocks, the last one holding the last token.
	ids := cat(seq(100, 6), []uint32{img}, seq(200, 9))
	two := cat(seq(100, 2), []uint32{img}, seq(300, 6), []uint32{img}, seq(400, 7)) // images in blocks 0 and 2
	text := "sys:<img>user text ok"                                                 // 21 bytes: blocks of 4 bytes, the image in block 1
	a, b := Image{Hash: "aaaa"}, Image{Hash: "bbbb"}
	type use struct {
		ids            []uint32
		text           string
		imgs           []Image
		prompt, cached int64
	}
	cases := []struct {
		name string
		cfg  PrefixCacheConfig
		uses []use
	}{
		{name: "ids", cfg: PrefixCacheConfig{BlockTokens: 4, ImageTokenID: img}, uses: []use{
			{ids: ids, imgs: []Image{a}, prompt: 16, cached: 0},
			{ids: ids, imgs: []Image{b}, prompt: 16, cached: 4}, // the block before the image
			{ids: ids, imgs: []Image{a}, prompt: 16, cached: 12},
			{ids: ids, imgs: []Image{b}, prompt: 16, cached: 12},
			{ids: ids, prompt: 16, cached: 4}, // no image: the placeholder token alone
		}},
		{name: "two images", cfg: PrefixCacheConfig{BlockTokens: 4, ImageTokenID: img}, uses: []use{
			{ids: two, imgs: []Image{a, b}, prompt: 17, cached: 0},
			{ids: two, imgs: []Image{a, a}, prompt: 17, cached: 8}, // blocks 0 and 1; block 2 holds the second image
			{ids: two, imgs: []Image{b, a}, prompt: 17, cached: 0}, // the first block holds the first image
			{ids: two, imgs: []Image{a, b}, prompt: 17, cached: 16},
		}},
		{name: "text", cfg: PrefixCacheConfig{BlockTokens: 4, TextBytesPerToken: 1, ImagePlaceholder: "<img>"}, uses: []use{
			{text: text, imgs: []Image{a}, prompt: 21, cached: 0},
			{text: text, imgs: []Image{b}, prompt: 21, cached: 4},
			{text: text, imgs: []Image{a}, prompt: 21, cached: 20},
		}},
		{name: "placeholder unknown", cfg: PrefixCacheConfig{BlockTokens: 4}, uses: []use{
			{ids: ids, imgs: []Image{a}, prompt: 16, cached: 0},
			{ids: ids, imgs: []Image{b}, prompt: 16, cached: 0}, // every block keyed by the image
			{ids: ids, imgs: []Image{a}, prompt: 16, cached: 12},
		}},
		{name: "placeholders miscounted", cfg: PrefixCacheConfig{BlockTokens: 4, ImageTokenID: img}, uses: []use{
			{ids: ids, imgs: []Image{a, b}, prompt: 16, cached: 0},
			{ids: ids, imgs: []Image{a, a}, prompt: 16, cached: 0},
			{ids: ids, imgs: []Image{a, b}, prompt: 16, cached: 12},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := NewPrefixCache(tc.cfg)
			for i, u := range tc.uses {
				prompt, cached := c.Use(&Request{PromptIDs: u.ids, Prompt: u.text, Images: u.imgs})
				require.Equal(t, u.prompt, prompt, "use %d: prompt %d cached %d, want %d %d", i, prompt, cached, u.prompt, u.cached)
				require.Equal(t, u.cached, cached, "use %d: prompt %d cached %d, want %d %d", i, prompt, cached, u.prompt, u.cached)
			}
		})
	}
}

func TestPrefixCacheNil(t *testing.T) {
	var c *PrefixCache
	p, cached := c.Use(&Request{Prompt: "abcdefghi"})
	require.Equal(t, int64(3), p, "nil cache: %d %d", p, cached)
	require.Equal(t, int64(0), cached, "nil cache: %d %d", p, cached)
	if p, cached := c.Use(&Request{PromptIDs: seq(1, 40)}); p != 40 || cached != 0 {
		t.Errorf("nil cache: %d %d", p, cached)
	}
}

// TestPrefixCacheBound: what the cache holds stays at MaxBlocks under a
// stream of distinct prompts, and the oldest conversation is forgotten
// while a recent one keeps its prefix.
func TestPrefixCacheBound(t *testing.T) {
	c := NewPrefixCache(PrefixCacheConfig{BlockTokens: 16, MaxBlocks: 256})
	r := rand.New(rand.NewPCG(1, 2))
	old := seq(1<<20, 200)
	c.Use(&Request{PromptIDs: old})
	for i := 0; i < 200; i++ {
		ids := make([]uint32, 100+r.IntN(300))
		for k := range ids {
			ids[k] = r.Uint32()
		}
		c.Use(&Request{PromptIDs: ids})
		require.LessOrEqual(t, c.Len(), 256, "after %d prompts: %d blocks", i, c.Len())
	}
	_, cached := c.Use(&Request{PromptIDs: old})
	require.Equal(t, int64(0), cached, "the oldest prompt still hits %d tokens", cached)
	recent := seq(1<<24, 200)
	c.Use(&Request{PromptIDs: recent})
	if _, cached := c.Use(&Request{PromptIDs: append(recent, 5)}); cached != 192 {
		t.Errorf("a recent prompt hits %d tokens, want 192", cached)
	}
}

// TestPrefixCacheConcurrent uses one cache from several goroutines (run
// with -race): every conversation's second turn hits its first.
func TestPrefixCacheConcurrent(t *testing.T) {
	c := NewPrefixCache(PrefixCacheConfig{})
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				turn1 := seq(g<<20+k<<10, 100)
				c.Use(&Request{PromptIDs: turn1})
				if _, cached := c.Use(&Request{PromptIDs: append(turn1, seq(7, 40)...)}); cached != 96 {
					errs <- "turn 2 missed its prefix"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestPrefixCacheAllocs: a prompt the cache has seen allocates nothing.
func TestPrefixCacheAllocs(t *testing.T) {
	c := NewPrefixCache(PrefixCacheConfig{})
	ids := &Request{PromptIDs: seq(1, 4000)}
	text := &Request{Prompt: strings.Repeat("the quick brown fox ", 800)}
	c.Use(ids)
	c.Use(text)
	n := testing.AllocsPerRun(20, func() { c.Use(ids); c.Use(text) })
	require.Equal(t, float64(0), n, "%.1f allocations per repeated prompt", n)
	// with images, found by their placeholders or not
	imgs := []Image{{Hash: strings.Repeat("ab", 32)}, {Hash: strings.Repeat("cd", 32)}}
	c = NewPrefixCache(PrefixCacheConfig{ImageTokenID: 7, ImagePlaceholder: "<img>"})
	withIDs := &Request{PromptIDs: cat(seq(10, 900), []uint32{7}, seq(10, 900), []uint32{7}, seq(10, 30)), Images: imgs}
	withText := &Request{Prompt: strings.Repeat("the quick brown fox ", 400) + "<img>" + strings.Repeat("jumps ", 100) + "<img>.", Images: imgs}
	unknown := &Request{PromptIDs: seq(1, 4000), Images: imgs}
	c.Use(withIDs)
	c.Use(withText)
	c.Use(unknown)
	if n := testing.AllocsPerRun(20, func() { c.Use(withIDs); c.Use(withText); c.Use(unknown) }); n != 0 {
		t.Errorf("%.1f allocations per repeated prompt with images", n)
	}
}

// FuzzPrefixCache checks the cache against a model that keeps every
// prompt: with room for every block, the reported hit is the longest
// common prefix with an earlier prompt, in whole blocks, short of the
// prompt's last token.
func FuzzPrefixCache(f *testing.F) {
	f.Add([]byte("\x03abcabcabdab\x00abcabcabcabcabcab\x00zzabcabc"), uint8(2))
	f.Add([]byte("aaaaaaaaaaaaaaaa\x00aaaaaaaaaaaaaaaaaaaa\x00aaaa"), uint8(4))
	f.Add([]byte("abIcdefIgh1\x00abIcdefIgh2\x00abIcdefIgh1"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, block uint8) {
		// An 'I' is an image placeholder; the k-th image of a prompt has
		// the hash (its last byte)+k, so prompts that differ only after
		// an image differ in that image too.
		bt := int(block%8) + 1
		c := NewPrefixCache(PrefixCacheConfig{BlockTokens: bt, MaxBlocks: 1 << 16, ImageTokenID: 'I'})
		var seen [][]uint32
		var seenHash [][]string
		for _, p := range strings.Split(string(data), "\x00") {
			ids := make([]uint32, len(p))
			hash := make([]string, len(p)) // the image's hash at its placeholder
			var imgs []Image
			for i := range ids {
				ids[i] = uint32(p[i])
				if p[i] == 'I' {
					hash[i] = string(rune(int(p[len(p)-1]) + len(imgs)))
					imgs = append(imgs, Image{Hash: hash[i]})
				}
			}
			best := 0
			for k, s := range seen {
				n := 0
				for n < len(s) && n < len(ids) && s[n] == ids[n] && seenHash[k][n] == hash[n] {
					n++
				}
				// only whole blocks of the earlier prompt were recorded
				best = max(best, min(n, len(s)/bt*bt))
			}
			want := int64(0)
			if len(ids) >= 2 {
				want = int64(min(best, len(ids)-1) / bt * bt)
			}
			prompt, got := c.Use(&Request{PromptIDs: ids, Images: imgs})
			require.Equal(t, int64(len(ids)), prompt, "prompt %q (block %d): %d cached %d, want %d %d", p, bt, prompt, got, len(ids), want)
			require.Equal(t, want, got, "prompt %q (block %d): %d cached %d, want %d %d", p, bt, prompt, got, len(ids), want)
			if len(ids) >= 2 {
				seen = append(seen, ids)
				seenHash = append(seenHash, hash)
			}
		}
	})
}

// replayUsages runs req through e and returns the first output's usage
// (nil if it has none) and the last usage of the stream.
func replayUsages(t *testing.T, e *Replay, req *Request) (first, last *Usage) {
	t.Helper()
	st, err := e.Generate(ctxTimeout(t, 5*time.Second), req)
	require.NoError(t, err)
	defer st.Close()
	for i := 0; ; i++ {
		out, err := st.Next()
		if err == io.EOF {
			return first, last
		}
		require.NoError(t, err)
		if out.Usage != nil {
			u := *out.Usage
			if i == 0 {
				first = &u
			}
			last = &u
		}
	}
}

// TestReplayPrefixCache: with a PrefixCache the replay engine reports the
// prompt and its cache hits on the first output and in the final usage,
// replacing a recording's own prompt counts; without one it reports none.
func TestReplayPrefixCache(t *testing.T) {
	text := RecordText("agent", []string{"Hello", " world"}, FinishEOS)
	recorded := RecordText("capture", []string{"Hi"}, FinishEOS)
	recorded.Steps[0].Usage = &Usage{PromptTokens: 9999, CompletionTokens: 7, CachedTokens: 5}
	turn1 := strings.Repeat("<|im_start|>system\nYou are a coding agent.<|im_end|>\n", 8) // 424 bytes: 106 tokens
	turn2 := turn1 + "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"            // 475 bytes: 119 tokens
	cases := []struct {
		name        string
		rec         *Recording
		cache       bool
		prompt      string
		first, last *Usage
	}{
		{name: "no cache", rec: text, prompt: turn1, last: &Usage{CompletionTokens: 2}},
		{name: "turn 1", rec: text, cache: true, prompt: turn1,
			first: &Usage{PromptTokens: 106}, last: &Usage{PromptTokens: 106, CompletionTokens: 2}},
		{name: "turn 2", rec: text, cache: true, prompt: turn2,
			first: &Usage{PromptTokens: 119, CachedTokens: 96}, last: &Usage{PromptTokens: 119, CompletionTokens: 2, CachedTokens: 96}},
		{name: "recorded usage", rec: recorded, cache: true, prompt: turn2,
			first: &Usage{PromptTokens: 119, CompletionTokens: 7, CachedTokens: 112}, last: &Usage{PromptTokens: 119, CompletionTokens: 7, CachedTokens: 112}},
	}
	cache := NewPrefixCache(PrefixCacheConfig{})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := replayOf(tc.rec)
			if tc.cache {
				e.PrefixCache = cache
			}
			first, last := replayUsages(t, e, &Request{Model: "m", Prompt: tc.prompt, MaxTokens: 100})
			if d := cmp.Diff(tc.first, first); d != "" {
				t.Errorf("first output's usage (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.last, last); d != "" {
				t.Errorf("final usage (-want +got):\n%s", d)
			}
		})
	}
}

// BenchmarkPrefixCacheUse measures one request's lookup and record on a
// Claude Code sized prompt (20,000 token ids; 80 KB of text for the
// scripted backend), already cached: ns per prompt token.
func BenchmarkPrefixCacheUse(b *testing.B) {
	for _, tc := range []struct {
		name string
		req  *Request
		n    int
	}{
		{"ids-20k", &Request{PromptIDs: seq(1, 20000)}, 20000},
		{"text-80KB", &Request{Prompt: strings.Repeat("You are Claude Code. ", 4000)[:80000]}, 20000},
		{"text-80KB-3-images", &Request{Prompt: strings.Repeat("You are Claude Code. <img>", 3) + strings.Repeat("You are Claude Code. ", 4000)[:80000-3*26],
			Images: []Image{{Hash: strings.Repeat("a", 64)}, {Hash: strings.Repeat("b", 64)}, {Hash: strings.Repeat("c", 64)}}}, 20000},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := NewPrefixCache(PrefixCacheConfig{ImagePlaceholder: "<img>"})
			c.Use(tc.req)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.Use(tc.req)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*tc.n), "ns/token")
		})
	}
}
