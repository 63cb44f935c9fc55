package tokenizers

import (
	"sort"
	"strings"
)

// Boundaries are the places where an encoding can be cut: for a boundary
// p of text, the ids of text[:p] followed by the ids of text[p:] are the
// ids of text (Encode without special tokens), so a prompt that extends an
// earlier one can reuse that one's ids up to a boundary they share (a
// prefix cache).
//
// A tokenizer splits its input at added tokens and encodes the pieces
// between them independently, so the position right after an added token
// T is a boundary when:
//   - T is matched there: no other added token overlaps T's start, and no
//     longer added token matches at T's start;
//   - no added token overlaps the position itself (it would be matched
//     instead of what follows), and no single_word added token starts
//     there (whether it matches depends on the character before it);
//   - T has none of the flags that look at its neighbours (lstrip, rstrip,
//     single_word) and is matched in the input text (normalized false), or
//     the tokenizer has no normalizer that could change the text.
//
// A Boundaries is immutable and safe for concurrent use.
type Boundaries struct {
	added   []string // every added token's content
	words   []string // the single_word added tokens
	safe    []string // added tokens whose end is a boundary candidate, longest first
	firstOf [256]bool
}

// Boundaries returns where t's encodings can be cut, or nil when t knows
// no position to be safe: a tokenizer that treats the start of its input
// differently from other positions (a Metaspace or ByteLevel pre-tokenizer
// that adds a prefix space, a Prepend normalizer) would add that prefix to
// the encoded rest; a tokenizer loaded from a tiktoken file, or without an
// added token that qualifies, has none.
func (t *BPE) Boundaries() *Boundaries {
	if t.tiktoken {
		return nil
	}
	for _, n := range t.normalizer {
		if n.kind == normPrepend {
			return nil
		}
	}
	for _, p := range t.pre {
		if p.kind == preMetaspace || p.kind == preByteLevel && p.addPrefixSpace {
			return nil
		}
	}
	b := &Boundaries{}
	identity := len(t.normalizer) == 0
	for _, a := range t.added {
		if a.content == "" {
			continue
		}
		b.added = append(b.added, a.content)
		if a.singleWord {
			b.words = append(b.words, a.content)
		}
		if !a.lstrip && !a.rstrip && !a.singleWord && (!a.normalized || identity) {
			b.safe = append(b.safe, a.content)
			b.firstOf[a.content[0]] = true
		}
	}
	if len(b.safe) == 0 {
		return nil
	}
	sort.SliceStable(b.safe, func(i, j int) bool { return len(b.safe[i]) > len(b.safe[j]) })
	return b
}

// Keeps reports whether p, a boundary of a text that text extends (text[:p]
// is that text's start), is a boundary of text too: what follows p in
// text may start an added token that covers p, or a single_word one.
func (b *Boundaries) Keeps(text string, p int) bool {
	return !b.straddled(text, p) && !b.wordAt(text, p)
}

// straddled reports whether an added token occurrence in text covers
// position pos without starting or ending there.
func (b *Boundaries) straddled(text string, pos int) bool {
	for _, c := range b.added {
		for k := 1; k < len(c) && k <= pos; k++ {
			if pos-k+len(c) <= len(text) && pos-k+len(c) > pos && text[pos-k:pos-k+len(c)] == c {
				return true
			}
		}
	}
	return false
}

// wordAt reports whether a single_word added token starts at pos.
func (b *Boundaries) wordAt(text string, pos int) bool {
	for _, c := range b.words {
		if strings.HasPrefix(text[pos:], c) {
			return true
		}
	}
	return false
}

// longerAt reports whether an added token longer than n matches at pos.
func (b *Boundaries) longerAt(text string, pos, n int) bool {
	for _, c := range b.added {
		if len(c) > n && strings.HasPrefix(text[pos:], c) {
			return true
		}
	}
	return false
}

// Append appends the boundaries of text that lie after from to dst, in
// ascending order, and returns the extended slice.
func (b *Boundaries) Append(dst []int, text string, from int) []int {
	for i := from; i < len(text); i++ {
		if !b.firstOf[text[i]] {
			continue
		}
		for _, s := range b.safe {
			if strings.HasPrefix(text[i:], s) {
				end := i + len(s)
				if !b.straddled(text, i) && !b.longerAt(text, i, len(s)) && b.Keeps(text, end) {
					dst = append(dst, end)
				}
				i = end - 1
				break
			}
		}
	}
	return dst
}
