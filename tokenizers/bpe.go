package tokenizers

import (
	"math"
	"math/bits"
	"strings"
)

// pairTable maps a pair of adjacent symbol ids to the rank of their merge
// and the id of the merged symbol: an open-addressing hash table with linear
// probing, several times faster than a Go map on this hot path.
type pairTable struct {
	slots []pairSlot
	shift uint
	mask  uint64
}

type pairSlot struct {
	key  uint64 // a<<32 | b; emptyKey when unused
	rank uint32
	id   uint32
}

const emptyKey = math.MaxUint64

func newPairTable(n int) pairTable {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t := pairTable{
		slots: make([]pairSlot, size),
		shift: uint(64 - bits.TrailingZeros(uint(size))),
		mask:  uint64(size - 1),
	}
	for i := range t.slots {
		t.slots[i].key = emptyKey
	}
	return t
}

func (t *pairTable) hash(k uint64) uint64 { return (k * 0x9E3779B97F4A7C15) >> t.shift }

// put inserts the merge a+b; an existing entry is kept (the first, lowest
// ranked merge of a pair wins, as in Hugging Face's loader).
func (t *pairTable) put(a, b, rank, id uint32) {
	k := uint64(a)<<32 | uint64(b)
	for h := t.hash(k); ; h = (h + 1) & t.mask {
		s := &t.slots[h]
		if s.key == k {
			return
		}
		if s.key == emptyKey {
			*s = pairSlot{key: k, rank: rank, id: id}
			return
		}
	}
}

// get returns the rank and result of merging a and b.
func (t *pairTable) get(a, b uint32) (rank, id uint32, ok bool) {
	if len(t.slots) == 0 {
		return 0, 0, false
	}
	k := uint64(a)<<32 | uint64(b)
	for h := t.hash(k); ; h = (h + 1) & t.mask {
		s := &t.slots[h]
		if s.key == k {
			return s.rank, s.id, true
		}
		if s.key == emptyKey {
			return 0, 0, false
		}
	}
}

// noRank marks a pair that has no merge.
const noRank = math.MaxUint32

// bpeModel is the byte-pair-encoding model shared by tokenizer.json (BPE) and
// tiktoken files. Immutable after load.
type bpeModel struct {
	merges pairTable

	// byteLevel: words are raw bytes and every byte is a symbol (byteIDs).
	// Otherwise words are text whose characters are looked up in vocab,
	// with byte fallback or unk for characters not in it.
	byteLevel bool
	byteIDs   [256]uint32
	hasByte   [256]bool

	// whole maps a word to its id when the word is itself a token and
	// ignoreMerges is set (Hugging Face ignore_merges; tiktoken always).
	ignoreMerges bool
	whole        map[string]uint32

	// vocab maps a token string as written in the file to its id (for
	// byte-level models the byte-level alphabet spelling, "Ġthe").
	vocab map[string]uint32

	byteFallback bool
	fallbackIDs  [256]uint32
	hasFallback  [256]bool
	unk          uint32
	hasUnk       bool
	fuseUnk      bool

	// wordSep, when set, is a separator ("▁") that no vocabulary token
	// contains after a character other than itself. No merge can then
	// join text across a position where the separator follows another
	// character, so a long word (a whole sentence, for SentencePiece-style
	// files without a pre-tokenizer) is encoded in independent pieces:
	// exactly the same ids, in linear instead of n log n time.
	wordSep string

	// isolated marks ASCII characters that are not in the vocabulary and
	// encode as their byte-fallback token, when no merge involves a
	// byte-fallback token: such a character is a token of its own
	// whatever surrounds it, so a word is cut before and after it (a
	// newline or a tab in SentencePiece-style files). hasIsolated says
	// whether any is set.
	isolated    [128]bool
	hasIsolated bool

	// bytePairs[a<<8|b] is the merge of the byte symbols a and b, for
	// byte-level models in which every byte is a symbol: the first round
	// of pair look-ups of a word (one per byte) reads this dense 512 KB
	// table, whose ASCII corner stays in the CPU cache, instead of
	// probing the merge hash table (megabytes, a cache miss per probe).
	bytePairs []pairMerge

	// For models whose symbols are characters: asciiIDs[b] is the id of
	// the ASCII character b when asciiKnown[b], metaID the id of "▁" when
	// hasMeta. In bytePairs these characters are numbered by their byte
	// and smallMeta.
	asciiIDs   [128]uint32
	asciiKnown [128]bool
	metaID     uint32
	hasMeta    bool
}

// smallMeta numbers "▁" in bytePairs for character-symbol models.
const smallMeta = 128

// pairMerge is the rank and result of a merge; rank noRank means none.
type pairMerge struct {
	rank, id uint32
}

// buildBytePairs fills bytePairs from the merge table: for byte-level models
// every byte pair, for the others (whose symbols are characters) the pairs
// of ASCII characters in the vocabulary, whose ids it also records in
// asciiIDs.
func (m *bpeModel) buildBytePairs() {
	if m.byteLevel {
		for b := range 256 {
			if !m.hasByte[b] {
				return
			}
		}
	} else {
		for b := range 128 {
			m.asciiIDs[b], m.asciiKnown[b] = m.vocab[string(rune(b))]
		}
		m.metaID, m.hasMeta = m.vocab["▁"]
	}
	charID := func(a int) (uint32, bool) {
		switch {
		case a < 128:
			return m.asciiIDs[a], m.asciiKnown[a]
		case a == smallMeta:
			return m.metaID, m.hasMeta
		}
		return 0, false
	}
	m.bytePairs = make([]pairMerge, 1<<16)
	for a := range 256 {
		for b := range 256 {
			pm := pairMerge{rank: noRank}
			var ok bool
			if m.byteLevel {
				pm.rank, pm.id, ok = m.merges.get(m.byteIDs[a], m.byteIDs[b])
			} else if ia, ok1 := charID(a); ok1 {
				if ib, ok2 := charID(b); ok2 {
					pm.rank, pm.id, ok = m.merges.get(ia, ib)
				}
			}
			if !ok {
				pm = pairMerge{rank: noRank}
			}
			m.bytePairs[a<<8|b] = pm
		}
	}
}

// wordScratch is per-call scratch for encodeWord, reused through a pool.
type wordScratch struct {
	cache wordCache
	small []byte
	ids   []uint32
	ranks []uint32
	unk   []bool
	heap  mergeHeap
	next  []int32
	prev  []int32
}

// linearLimit is the word length (in symbols) up to which merges are found by
// a linear scan for the lowest rank; longer words use a priority queue so a
// pathological word cannot make encoding quadratic.
const linearLimit = 48

// encodeWord appends the ids of one pre-tokenized word. Where the model
// allows (wordSep, isolated) the word is cut into pieces no merge can cross,
// which are encoded independently: the same ids, in linear time, with short
// pieces that repeat (and so hit the word cache).
func (m *bpeModel) encodeWord(dst []uint32, w string, sc *wordScratch) []uint32 {
	if m.wordSep == "" && !m.hasIsolated {
		return m.encodeCached(dst, w, sc)
	}
	sep := m.wordSep
	start := 0
	for i := 0; i < len(w); {
		b := w[i]
		if b < 0x80 {
			if m.isolated[b] {
				dst = m.encodeCached(dst, w[start:i], sc)
				dst = append(dst, m.fallbackIDs[b])
				start = i + 1
			}
			i++
			continue
		}
		if sep != "" && i > start && b == sep[0] && strings.HasPrefix(w[i:], sep) {
			if !strings.HasSuffix(w[start:i], sep) {
				dst = m.encodeCached(dst, w[start:i], sc)
				start = i
			}
			i += len(sep)
			continue
		}
		i++
	}
	return m.encodeCached(dst, w[start:], sc)
}

// encodeCached encodes a word (or an independent piece of one) through the
// scratch's word cache.
func (m *bpeModel) encodeCached(dst []uint32, w string, sc *wordScratch) []uint32 {
	if len(w) == 0 {
		return dst
	}
	if len(w) == 1 && m.byteLevel && m.hasByte[w[0]] {
		return append(dst, m.byteIDs[w[0]])
	}
	var key uint64
	var h uint32
	if len(w) <= cacheMaxWord {
		key, h = sc.cache.hash(w)
		if id, ids, ok := sc.cache.get(w, key, h); ok {
			if ids == nil {
				return append(dst, id)
			}
			return append(dst, ids...)
		}
	}
	start := len(dst)
	if id, ok := m.wholeID(w); ok {
		dst = append(dst, id)
	} else {
		dst = m.encodePiece(dst, w, sc)
	}
	if len(w) <= cacheMaxWord {
		sc.cache.put(w, key, h, dst[start:])
	}
	return dst
}

// wholeID returns the id of w when merges are ignored and w is a token.
func (m *bpeModel) wholeID(w string) (uint32, bool) {
	if !m.ignoreMerges {
		return 0, false
	}
	id, ok := m.whole[w]
	return id, ok
}

// encodePiece encodes a word (or an independent piece of one) by merges.
func (m *bpeModel) encodePiece(dst []uint32, w string, sc *wordScratch) []uint32 {
	ids := sc.ids[:0]
	unks := sc.unk[:0]
	// small numbers the symbols for bytePairs while pairsOK.
	small := sc.small[:0]
	pairsOK := m.bytePairs != nil && len(w) <= linearLimit
	if m.byteLevel {
		for i := 0; i < len(w); i++ {
			if m.hasByte[w[i]] {
				ids = append(ids, m.byteIDs[w[i]])
			}
		}
		if pairsOK {
			small = append(small, w...)
		}
	} else {
		for i := 0; i < len(w); {
			if b := w[i]; b < 0x80 && m.asciiKnown[b] {
				ids = append(ids, m.asciiIDs[b])
				unks = append(unks, false)
				small = append(small, b)
				i++
				continue
			}
			if m.hasMeta && strings.HasPrefix(w[i:], "▁") {
				ids = append(ids, m.metaID)
				unks = append(unks, false)
				small = append(small, smallMeta)
				i += len("▁")
				continue
			}
			pairsOK = false
			n := runeLen(w, i)
			if id, ok := m.vocab[w[i:i+n]]; ok {
				ids = append(ids, id)
				unks = append(unks, false)
			} else if m.byteFallback && m.allFallback(w[i:i+n]) {
				for k := i; k < i+n; k++ {
					ids = append(ids, m.fallbackIDs[w[k]])
					unks = append(unks, false)
				}
			} else if m.hasUnk {
				if m.fuseUnk && len(unks) > 0 && unks[len(unks)-1] {
					// fused into the previous unknown symbol
				} else {
					ids = append(ids, m.unk)
					unks = append(unks, true)
				}
			}
			i += n
		}
	}
	sc.small = small[:0]
	switch {
	case len(ids) > linearLimit:
		ids = m.mergeHeap(ids, unks, sc)
	case pairsOK:
		ids = m.mergeLinear(ids, unks, small, sc)
	default:
		ids = m.mergeLinear(ids, unks, nil, sc)
	}
	dst = append(dst, ids...)
	sc.ids, sc.unk = ids[:0], unks[:0]
	return dst
}

func (m *bpeModel) allFallback(s string) bool {
	for k := 0; k < len(s); k++ {
		if !m.hasFallback[s[k]] {
			return false
		}
	}
	return true
}

// pairRank is the rank and result of merging ids a and b; unknown symbols
// never merge.
func (m *bpeModel) pairRank(ids []uint32, unks []bool, i int) (uint32, uint32) {
	if len(unks) > 0 && (unks[i] || unks[i+1]) {
		return noRank, 0
	}
	r, id, ok := m.merges.get(ids[i], ids[i+1])
	if !ok {
		return noRank, 0
	}
	return r, id
}

// mergeLinear applies merges lowest rank first (leftmost among equal ranks)
// by scanning the pair ranks; for short words.
//
// With small (the symbols numbered for bytePairs, one per id) the first
// round of pair look-ups reads bytePairs.
func (m *bpeModel) mergeLinear(ids []uint32, unks []bool, small []byte, sc *wordScratch) []uint32 {
	if len(ids) < 2 {
		return ids
	}
	ranks := sc.ranks[:0]
	results := sc.next[:0] // merged id per pair, stored as int32
	if small != nil && len(small) == len(ids) {
		for i := 0; i+1 < len(small); i++ {
			pm := m.bytePairs[int(small[i])<<8|int(small[i+1])]
			ranks = append(ranks, pm.rank)
			results = append(results, int32(pm.id))
		}
	} else {
		for i := 0; i+1 < len(ids); i++ {
			r, id := m.pairRank(ids, unks, i)
			ranks = append(ranks, r)
			results = append(results, int32(id))
		}
	}
	for {
		best, bi := uint32(noRank), -1
		for i, r := range ranks {
			if r < best {
				best, bi = r, i
			}
		}
		if bi < 0 {
			break
		}
		ids[bi] = uint32(results[bi])
		ids = append(ids[:bi+1], ids[bi+2:]...)
		ranks = append(ranks[:bi], ranks[bi+1:]...)
		results = append(results[:bi], results[bi+1:]...)
		if len(unks) > 0 {
			unks = append(unks[:bi+1], unks[bi+2:]...)
		}
		if bi > 0 {
			r, id := m.pairRank(ids, unks, bi-1)
			ranks[bi-1], results[bi-1] = r, int32(id)
		}
		if bi < len(ranks) {
			r, id := m.pairRank(ids, unks, bi)
			ranks[bi], results[bi] = r, int32(id)
		}
	}
	sc.ranks, sc.next = ranks[:0], results[:0]
	return ids
}

// mergeItem is a candidate merge of the symbol at pos with its successor.
type mergeItem struct {
	rank uint32
	pos  int32
	id   uint32 // merged id; the item is stale unless the pair at pos still merges to it
}

// mergeHeap is a binary min-heap ordered by (rank, pos).
type mergeHeap []mergeItem

func (h mergeHeap) less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].pos < h[j].pos
}

func (h *mergeHeap) push(it mergeItem) {
	*h = append(*h, it)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *mergeHeap) pop() mergeItem {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s.less(l, m) {
			m = l
		}
		if r < len(s) && s.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// mergeHeap applies merges with a priority queue over a linked list of
// symbols, in O(n log n); for long words.
func (m *bpeModel) mergeHeap(ids []uint32, unks []bool, sc *wordScratch) []uint32 {
	n := len(ids)
	next, prev := sc.next[:0], sc.prev[:0]
	for i := 0; i < n; i++ {
		next = append(next, int32(i+1))
		prev = append(prev, int32(i-1))
	}
	next[n-1] = -1
	h := sc.heap[:0]
	alive := func(i int32) bool { return i >= 0 && ids[i] != noRank }
	isUnk := func(i int32) bool { return len(unks) > 0 && unks[i] }
	pushPair := func(i int32) {
		j := next[i]
		if j < 0 || isUnk(i) || isUnk(j) {
			return
		}
		if r, id, ok := m.merges.get(ids[i], ids[j]); ok {
			h.push(mergeItem{rank: r, pos: i, id: id})
		}
	}
	for i := int32(0); i < int32(n)-1; i++ {
		pushPair(i)
	}
	for len(h) > 0 {
		it := h.pop()
		i := it.pos
		if !alive(i) {
			continue
		}
		j := next[i]
		if j < 0 {
			continue
		}
		if r, id, ok := m.merges.get(ids[i], ids[j]); !ok || r != it.rank || id != it.id {
			continue
		}
		ids[i] = it.id
		ids[j] = noRank // removed
		next[i] = next[j]
		if next[j] >= 0 {
			prev[next[j]] = i
		}
		if p := prev[i]; p >= 0 {
			pushPair(p)
		}
		pushPair(i)
	}
	out := ids[:0]
	for i := int32(0); i >= 0; i = next[i] {
		out = append(out, ids[i])
	}
	sc.heap, sc.next, sc.prev = h[:0], next[:0], prev[:0]
	return out
}

// runeLen is the length of the UTF-8 sequence at s[i] (1 for an invalid
// byte).
func runeLen(s string, i int) int {
	b := s[i]
	switch {
	case b < 0x80:
		return 1
	case b < 0xE0:
		if i+1 < len(s) && b >= 0xC2 && s[i+1]&0xC0 == 0x80 {
			return 2
		}
	case b < 0xF0:
		if i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			return 3
		}
	case b < 0xF5:
		if i+3 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 && s[i+3]&0xC0 == 0x80 {
			return 4
		}
	}
	return 1
}

// separatorSafe reports whether no token of vocab contains sep after a
// character other than sep (see bpeModel.wordSep).
func separatorSafe(vocab map[string]uint32, sep string) bool {
	for tok := range vocab {
		rest := strings.TrimLeft(tok, sep)
		if strings.Contains(rest, sep) {
			return false
		}
	}
	return true
}
